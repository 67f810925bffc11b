"""A study's plan, kept in STUDY/study.json (written atomically, read with errors that name it).

The plan holds the library (its path and editor edition), the mode (primitive: participants
use the editor with mouse and keys, recorded in the primitive action schema), the protocol
card every participant follows (`episodes.human.protocol.ProtocolCard`, its `participant`
left empty and filled with each code), the practice task (not one of the study's tasks), the
study's tasks with their categories, the design (`design.Design`) and the participants: a
generated pseudonymous code (never a name), the secret token of the participant's link, and
the queue of task ids. `new_study` makes one from a library; `public_view` is the plan
without the tokens, as `study show` and `study export` give it.

Layout of a study folder: study.json, `runs/CODE/NN-TASK[-aM]/` (a trajectory per task and
attempt), `practice/CODE/` (the practice task's run), `participants/CODE.json` (consent,
refusals and breaches of that participant), `refusals.jsonl` (requests with no valid link).
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from studio.models.agent import Mode
from studio.models.errors import StudioError
from studio.services.core import atomic
from studio.services.core.store import TaskFolder, scan_library
from studio.services.episodes.human.protocol import ProtocolCard
from studio.services.runtime import editions
from studio.services.studies.design import Design, draw_design

__all__ = [
    "CODE_ALPHABET", "DEFAULT_TIME_LIMIT_S", "FORMAT", "STUDY_FILE", "Participant", "StudyPlan",
    "StudyTask", "load_study", "new_study", "public_view", "save_study", "study_file",
]  # fmt: skip

STUDY_FILE = "study.json"
FORMAT = "scratch-bench-study/1"
DEFAULT_TIME_LIMIT_S = 900
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: codes are read aloud


class StudyTask(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    category: str


class Participant(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str
    token: str
    queue: list[str]


class StudyPlan(BaseModel):
    """Everything study.json holds."""

    model_config = ConfigDict(extra="forbid")

    format: str = FORMAT
    name: str
    created_at: datetime
    library: str
    edition: str = editions.Edition.CURRENT.value
    mode: Mode = Mode.PRIMITIVE
    protocol: ProtocolCard
    practice: str | None = None
    break_s: int = Field(default=60, ge=0)
    tasks: list[StudyTask]
    design: Design
    participants: list[Participant]

    def participant(self, code: str) -> Participant:
        for p in self.participants:
            if p.code == code:
                return p
        raise StudioError(f"study {self.name}: no participant {code}")

    def category(self, task_id: str) -> str:
        return next((t.category for t in self.tasks if t.id == task_id), "")


def study_file(folder: Path) -> Path:
    """STUDY/study.json (the folder, or the file itself when given)."""
    folder = Path(folder)
    return folder if folder.name == STUDY_FILE else folder / STUDY_FILE


def load_study(folder: Path) -> StudyPlan:
    """The plan of the study in `folder`; StudioError naming the file and field otherwise."""
    path = study_file(folder)
    try:
        return StudyPlan.model_validate_json(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StudioError(f"{path}: no study here (make one with `studio study new`)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise StudioError(f"{path}: cannot be read ({exc})") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "file"
        raise StudioError(f"{path}: field '{where}': {first['msg']}") from None


def save_study(folder: Path, plan: StudyPlan) -> Path:
    path = study_file(folder)
    atomic.write_text(path, plan.model_dump_json(indent=2) + "\n")
    return path


def public_view(plan: StudyPlan) -> dict[str, Any]:
    """The plan as JSON without the participants' link tokens."""
    data = plan.model_dump(mode="json")
    for p in data["participants"]:
        p.pop("token", None)
    return data


def _codes(n: int) -> list[str]:
    codes: set[str] = set()
    while len(codes) < n:
        codes.add("P-" + "".join(secrets.choice(CODE_ALPHABET) for _ in range(5)))
    return sorted(codes)


def _pick_practice(tasks: list[TaskFolder], chosen: set[str], practice: str | None) -> str | None:
    ids = {t.task.id for t in tasks}
    if practice is not None:
        if practice not in ids:
            raise StudioError(f"--practice {practice}: no such task in the library")
        if practice in chosen:
            raise StudioError(f"--practice {practice}: it is one of the study's tasks")
        return practice
    rest = [t for t in tasks if t.task.id not in chosen]
    rank = {"easy": 0, "medium": 1, "hard": 2}
    rest.sort(key=lambda t: (rank.get(str(t.task.metadata.difficulty), 3), t.task.id))
    return rest[0].task.id if rest else None


def new_study(
    library: Path,
    out: Path,
    participants: int,
    per: int | None = None,
    seed: int = 0,
    task_ids: list[str] | None = None,
    practice: str | None = None,
    protocol: ProtocolCard | None = None,
) -> StudyPlan:
    """Plan a study of `participants` on the library's tasks (or `task_ids`) into `out`."""
    out = Path(out)
    if study_file(out).exists():
        raise StudioError(f"{study_file(out)}: a study is already planned there")
    scan = scan_library(Path(library))
    if scan.errors:
        raise StudioError(str(scan.errors[0]))
    by_id = {t.task.id: t for t in scan.tasks}
    wanted = task_ids or sorted(by_id)
    missing = [t for t in wanted if t not in by_id]
    if missing:
        raise StudioError(f"{library}: no task {', '.join(missing)}")
    chosen = set(wanted)
    pairs = [(t, by_id[t].task.category.value) for t in wanted]
    design = draw_design(pairs, participants, per, seed)
    card = protocol or ProtocolCard(time_limit_s=DEFAULT_TIME_LIMIT_S)
    card = card.model_copy(update={"participant": ""})
    codes = _codes(participants)
    plan = StudyPlan(
        name=out.resolve().name,
        created_at=datetime.now(UTC),
        library=str(Path(library).resolve()),
        edition=editions.edition_for(Path(library)).value,
        protocol=card,
        practice=_pick_practice(scan.tasks, chosen, practice),
        tasks=[StudyTask(id=t, category=c) for t, c in pairs],
        design=design,
        participants=[
            Participant(code=c, token=secrets.token_urlsafe(18), queue=q)
            for c, q in zip(codes, design.queues, strict=True)
        ],
    )
    out.mkdir(parents=True, exist_ok=True)
    save_study(out, plan)
    return plan
