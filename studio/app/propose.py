"""Tests from behaviour: proposing an evaluation script by watching programs run.

What the window and the command line use of the services, in one place.
"""

from __future__ import annotations

# --- re-exported services (generated from what the front ends import) ---
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
