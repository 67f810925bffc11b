"""The studio's services, Qt-free, grouped by what they do (docs/architecture.md).

- `core`: Scratch projects (.sb3, blocks, diff, pseudocode, building), the task store, files;
- `runtime`: the browser and its pages, the editor server, page scripts, the evaluator;
- features: `checking`, `authoring`, `propose`, `episodes`, `api`, `runs`, `diagnostics`,
  `distributed`, `studies`;
- `formats`: one adapter package per benchmark format (`scratchworld`, `nl2scratch`), above
  the features they adapt.

The front ends reach them through `studio.app`.
"""

__all__: list[str] = []
