"""Tests from behaviour: proposing an evaluation script by watching programs run.

What the window and the command line use of the services, in one place; each
service module is imported when a name of it is first used (`studio.app.lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studio.app import lazy

# --- re-exported services (generated from what the front ends import) ---
if TYPE_CHECKING:
    from studio.services.propose import codegen
    from studio.services.propose.model import Proposal, ProposalError
    from studio.services.propose.pipeline import (
        ProposalReport,
        ProposeOptions,
        output_path,
        propose,
        read_projects,
        write_script,
    )
    from studio.services.propose.proposals import describe_observable

__getattr__ = lazy.exports(
    __name__,
    {
        "Proposal": ("studio.services.propose.model", "Proposal"),
        "ProposalError": ("studio.services.propose.model", "ProposalError"),
        "ProposalReport": ("studio.services.propose.pipeline", "ProposalReport"),
        "ProposeOptions": ("studio.services.propose.pipeline", "ProposeOptions"),
        "codegen": ("studio.services.propose", "codegen"),
        "describe_observable": ("studio.services.propose.proposals", "describe_observable"),
        "output_path": ("studio.services.propose.pipeline", "output_path"),
        "propose": ("studio.services.propose.pipeline", "propose"),
        "read_projects": ("studio.services.propose.pipeline", "read_projects"),
        "write_script": ("studio.services.propose.pipeline", "write_script"),
    },
)

__all__ = [
    "Proposal",
    "ProposalError",
    "ProposalReport",
    "ProposeOptions",
    "codegen",
    "describe_observable",
    "output_path",
    "propose",
    "read_projects",
    "write_script",
]
# --- end of re-exports ---
