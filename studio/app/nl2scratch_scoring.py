"""`studio nl2scratch score --tasks LIBRARY`: NL2Scratch's metrics plus execution verdicts.

`score_with_execution` scores the predictions by the set's own metrics
(`nl2scratch.score.score_files`), then, for the rows whose key has a task imported into
`library` (`studio import nl2scratch`), builds each prediction into its task's project and
judges it with the task's script in the real editor (`nl2scratch.execution`), on a browser
pool opened for the run. Without a library the scores are those of `score_files` alone.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from studio.services.formats.nl2scratch.execution import execute, imported_tasks
from studio.services.formats.nl2scratch.score import Scores, add_verdicts, score_files
from studio.services.runtime.browser import BrowserPool
from studio.services.runtime.evaluator import Evaluator

__all__ = ["score_with_execution"]


async def score_with_execution(
    predictions: Path,
    gold: Path | None,
    library: Path | None,
    progress: Callable[[int, int, str], None] | None = None,
) -> Scores:
    """The scores of `predictions`, with execution verdicts where `library` has the tasks; a
    library with none of the keys is a problem line, not an error."""
    scores = score_files(predictions, gold)
    if library is None:
        return scores
    tasks, unreadable = imported_tasks(library)
    scores.problems += [f"{library}: {line}" for line in unreadable]
    wanted = {key for key, _ in scores.predictions if key in tasks}
    if not wanted:
        scores.problems.append(f"{library}: no imported NL2Scratch task has a predicted key")
        add_verdicts(scores, {})
        return scores
    async with BrowserPool(spares=0) as pool:
        verdicts = await execute(Evaluator(pool), scores.predictions, tasks, progress)
    add_verdicts(scores, verdicts)
    return scores
