"""The protocol card of a human baseline session: who, what they could see and use, when to stop.

Stored as `protocol.json` in the session's trajectory folder and copied into run.json
`meta["protocol"]`, so a report reader knows under which rules the human time was measured.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from studio.models.errors import StudioError
from studio.services.core import atomic

__all__ = ["PROTOCOL_FILE", "ProtocolCard", "load_protocol", "save_protocol"]

PROTOCOL_FILE = "protocol.json"


class ProtocolCard(BaseModel):
    """The rules a participant followed."""

    model_config = ConfigDict(extra="forbid")

    participant: str = ""  # a pseudonym or code, not necessarily a name
    allowed_to_see: str = "the task instruction and the editor"
    allowed_to_use: str = "the Scratch editor only"
    stopping_rule: str = "the participant says the task is done, or gives up"
    time_limit_s: int | None = Field(default=None, gt=0)
    notes: str = ""


def save_protocol(folder: Path, card: ProtocolCard) -> Path:
    """Write `protocol.json` into `folder` (atomically); return its path."""
    path = Path(folder) / PROTOCOL_FILE
    atomic.write_text(path, card.model_dump_json(indent=2) + "\n")
    return path


def load_protocol(folder: Path) -> ProtocolCard | None:
    """The card in `folder`, None if there is none; StudioError naming the file if invalid."""
    path = Path(folder) / PROTOCOL_FILE
    if not path.is_file():
        return None
    try:
        return ProtocolCard.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise StudioError(f"{path}: cannot be read ({exc})") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise StudioError(f"{path}: field '{where}': {first['msg']}") from None
