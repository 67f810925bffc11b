"""Scratch as text: scratchblocks text read into Scratch 3 blocks and scripts written as text.

Modules: `scratchblocks` (the npm package's parser, run in Node), `dialect` (each opcode's
line of text and slots), `reading` (a parse mapped to blocks, every line that cannot be placed
named), `emit` (blocks written into a project's target), `writing` (scripts rendered as
canonical text), `project_text` (whole projects: the text of every target, and building
projects from text), `compare` (the blocks of two scripts compared, for the round trip).
"""

__all__: list[str] = []
