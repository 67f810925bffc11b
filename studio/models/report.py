"""A report over recorded runs: SR and PSR per category and overall, per agent and mode.

SR is the share of tasks whose every test passed; PSR the mean over tasks of passed/total
(FORMATS.md section 2). A task run several times by the same agent in the same mode (epochs,
repeated batches, several human participants) counts once, with the mean of its runs, so the
figures of a single run stay those of the published tables. Over repeated episodes a cell also
carries 95 % intervals and pass@k (studio.services.core.stats says how they are computed).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from studio.models.study_report import StudyTables

__all__ = [
    "CATEGORIES", "CellStats", "DiagnosticRow", "EpisodeFigure", "EpochFigure", "ReportRow",
    "RunEntry", "RunReport", "TaskStats",
]  # fmt: skip

CATEGORIES = ("create", "debug", "extend", "compute")


class RunEntry(BaseModel):
    """One recorded episode as the report sees it."""

    agent: str
    mode: str
    task_id: str
    category: str
    success: bool
    passed_tests: int = 0
    total_tests: int = 0
    psr: float = 0.0
    seconds: float | None = None  # wall time from start to end of the episode
    status: str = ""
    folder: str = ""
    error: str | None = None  # why the run has no verdict of its own
    failure: str | None = None  # whose failure: "agent", "task" or "environment"
    outcome: str = "finished"  # counted in SR ("finished"), or "unfinished", "environment", "task"
    epoch: int | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None  # in the price table's currency
    d_edit: int | None = None  # debug episodes: edit distance to the task's minimal fix
    drift: float | None = None  # debug episodes: semantic drift from the golden (0 to 1)
    trigger_f1: float | None = None  # understanding episodes: F1 of the triggers named
    mechanism_correct: bool | None = None  # understanding episodes: the mechanism named right
    protocol: str | None = None  # the run's protocol (None: recorded before protocols were)
    protocol_settings: dict[str, Any] = Field(default_factory=dict)


class CellStats(BaseModel):
    """SR and PSR (fractions in [0, 1]) over `tasks` distinct tasks and `runs` runs.

    `episodes` (= runs) and `successes` count episodes; `sr_ci95` is the Wilson interval of
    successes / episodes, `psr_ci95` a t interval over the tasks' mean PSR (None for one task);
    `pass_at_k` and `pass_hat_k` are averaged over tasks for k up to the fewest episodes of a
    task. SR and PSR count only the episodes that judge the agent (`RunEntry.outcome`
    "finished"); `env_failures`, `task_failures` and `unfinished` count the others, apart.
    """

    tasks: int = 0
    runs: int = 0
    sr: float | None = None
    psr: float | None = None
    episodes: int = 0
    successes: int = 0
    sr_ci95: tuple[float, float] | None = None
    psr_ci95: tuple[float, float] | None = None
    pass_at_k: dict[int, float] = Field(default_factory=dict)
    pass_hat_k: dict[int, float] = Field(default_factory=dict)
    env_failures: int = 0
    task_failures: int = 0
    unfinished: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None
    d_edit_mean: float | None = None  # over the debug episodes whose d_edit is known
    d_edit_runs: int = 0
    d_edit_ci95: tuple[float, float] | None = None  # t interval over those episodes
    drift_mean: float | None = None  # over the debug episodes whose drift was measured
    drift_runs: int = 0
    drift_ci95: tuple[float, float] | None = None
    understanding_runs: int = 0  # understanding episodes scored
    trigger_f1_mean: float | None = None
    trigger_f1_ci95: tuple[float, float] | None = None  # t interval
    mechanism_accuracy: float | None = None
    mechanism_ci95: tuple[float, float] | None = None  # Wilson interval


class EpisodeFigure(BaseModel):
    """One counted episode of a task: its epoch (None outside a campaign) and its figures."""

    epoch: int | None = None
    success: bool = False
    psr: float = 0.0
    seconds: float | None = None


class EpochFigure(BaseModel):
    """SR and PSR of one epoch of a campaign: over the tasks with a counted episode in it."""

    epoch: int
    tasks: int
    sr: float
    psr: float


class TaskStats(BaseModel):
    """One task of one agent and mode: its runs averaged."""

    task_id: str
    category: str
    runs: int
    sr: float
    psr: float
    mean_seconds: float | None = None
    successes: int = 0
    sr_var: float | None = None  # sample variance of the episodes' success (0/1); None below 2
    psr_var: float | None = None
    env_failures: int = 0
    episodes: list[EpisodeFigure] = Field(default_factory=list)  # in epoch order


class ReportRow(BaseModel):
    """One agent in one mode: a line of the published tables."""

    agent: str
    mode: str
    categories: dict[str, CellStats]
    overall: CellStats
    mean_seconds: float | None = None  # mean time per task, from run.json timestamps
    tasks: list[TaskStats] = Field(default_factory=list)
    not_counted: list[str] = Field(default_factory=list)  # episodes left out of SR, and why
    epochs: list[EpochFigure] = Field(default_factory=list)  # per epoch (campaigns with epochs)
    protocol: str | None = None  # the protocol of the row's runs (studio.models.protocols)
    protocol_settings: dict[str, Any] = Field(default_factory=dict)
    error_rates: dict[str, Any] = Field(default_factory=dict)  # runs.error_rates
    breakdowns: dict[str, Any] = Field(
        default_factory=dict
    )  # runs.breakdowns: SR by difficulty, tag
    feedback: dict[str, Any] = Field(default_factory=dict)  # runs.feedback_figures


class DiagnosticRow(BaseModel):
    """One run of an agent on a diagnostic (drag or QA), from its summary.json.

    `scores` are percentages as the diagnostics report them: for drag `pass@1`..`pass@k`,
    `start_acc`, `end_acc`, `T1 pass@1`, `T2 pass@1`; for QA `connection`, `existence`,
    `field`, `field_exact`, `overall`.
    """

    kind: str  # "drag" | "qa"
    agent: str
    items: int
    k: int = 1
    scores: dict[str, float | None] = Field(default_factory=dict)
    errors: int = 0
    started_at: str = ""
    folder: str = ""
    ci95: dict[str, tuple[float, float]] = Field(default_factory=dict)  # Wilson, per score (%)
    protocol: str | None = None  # the run's protocol, with its settings
    protocol_settings: dict[str, Any] = Field(default_factory=dict)
    errors_px: dict[str, float | None] = Field(default_factory=dict)  # drag: start, end


class RunReport(BaseModel):
    """Everything `studio report` shows."""

    root: str
    categories: list[str] = Field(default_factory=lambda: list(CATEGORIES))
    rows: list[ReportRow] = Field(default_factory=list)
    problems: list[str] = Field(default_factory=list)  # run.json files skipped, and why
    diagnostics: list[DiagnosticRow] = Field(default_factory=list)  # drag and QA runs
    protocol_notes: list[str] = Field(default_factory=list)  # which protocol each label means
    studies: list[StudyTables] = Field(default_factory=list)  # human study tables

    def modes(self) -> list[str]:
        """Modes present, composite first as in the published tables."""
        order = {"composite": 0, "primitive": 1}
        return sorted({r.mode for r in self.rows}, key=lambda m: (order.get(m, 2), m))

    def rows_for(self, mode: str) -> list[ReportRow]:
        return [r for r in self.rows if r.mode == mode]
