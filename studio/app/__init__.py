"""The use cases: what a user of the studio can do, each written once.

The command line (studio.cli*) and the window (studio.views) both call this layer rather than
assembling the services themselves: make an agent for an episode or a labeling item
(`agents`), open the place where episodes, labeling items or evaluations run, on this machine,
through a served API or on a Ray cluster (`runners`), and mark a surviving mutant equivalent
(`equivalence`).

A use case may import `studio.services` and `studio.models`, never Qt (PySide6, qasync), the
views or the command line (an import-linter contract in pyproject.toml holds this). Its
errors are `StudioError`s whose text names the file or flag at fault, for either front end to
show as it shows errors.
"""

__all__: list[str] = []
