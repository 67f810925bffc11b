"""Human baseline studies: plan, board, results and export (studio.services.studies;
serving a study: studio.app.serving.study).

What the window and the command line use of the study services, imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studio.app import lazy

if TYPE_CHECKING:
    from studio.services.studies.board import Board, Cell, format_board, read_board
    from studio.services.studies.export import export_study
    from studio.services.studies.plan import (
        StudyPlan,
        load_study,
        new_study,
        public_view,
        save_study,
    )
    from studio.services.studies.results import (
        find_studies,
        format_results,
        results_html,
        study_results,
        study_tables,
    )

__getattr__ = lazy.exports(
    __name__,
    {
        "Board": ("studio.services.studies.board", "Board"),
        "Cell": ("studio.services.studies.board", "Cell"),
        "format_board": ("studio.services.studies.board", "format_board"),
        "read_board": ("studio.services.studies.board", "read_board"),
        "export_study": ("studio.services.studies.export", "export_study"),
        "StudyPlan": ("studio.services.studies.plan", "StudyPlan"),
        "load_study": ("studio.services.studies.plan", "load_study"),
        "new_study": ("studio.services.studies.plan", "new_study"),
        "public_view": ("studio.services.studies.plan", "public_view"),
        "save_study": ("studio.services.studies.plan", "save_study"),
        "format_results": ("studio.services.studies.results", "format_results"),
        "find_studies": ("studio.services.studies.results", "find_studies"),
        "results_html": ("studio.services.studies.results", "results_html"),
        "study_results": ("studio.services.studies.results", "study_results"),
        "study_tables": ("studio.services.studies.results", "study_tables"),
    },
)

__all__ = [
    "Board", "Cell", "StudyPlan", "export_study", "find_studies", "format_board",
    "format_results", "load_study", "new_study", "public_view", "read_board", "results_html",
    "save_study", "study_results", "study_tables",
]  # fmt: skip
