"""Recorded trajectories after the fact: view them offline, compare two, archive and reopen.

`view` reads a trajectory folder tolerantly (a crash, a copy that lost files); `compare` aligns
two runs of one task by step; `archive` packs a run with its task into one zip and unpacks it
safely on another machine; `geometry` resolves where an action acted, for drawing it.
"""

__all__: list[str] = []
