"""The open task's state without Qt (studio.app.open_task): what the panels read of it."""

from __future__ import annotations

from pathlib import Path

from studio.app.open_task import OpenTask
from studio.services.authoring import review
from studio.services.authoring.task_session import TaskSession
from studio.services.core.store import load_task
from tests.helpers.sample_task import project_json, sb3_bytes, write_sample_task


class _Widgets:
    """The two widget states the window reads through callables: the script and the form."""

    def __init__(self) -> None:
        self.script = ""
        self.form_modified = False

    def state(self) -> OpenTask:
        return OpenTask(lambda: self.script, lambda: self.form_modified)


def test_with_no_task_open_nothing_is_open_nor_unsaved(tmp_path: Path) -> None:
    widgets = _Widgets()
    widgets.script, widgets.form_modified = "changed", True
    state = widgets.state()
    entry = load_task(write_sample_task(tmp_path / "t"))
    assert state.entry is None and not state.read_only and state.shown == ""
    assert state.dirty() == {} and not state.has_unsaved()
    assert not state.holds(entry) and state.script_for(entry) is None


def test_the_open_task_is_known_by_its_folder(tmp_path: Path) -> None:
    widgets = _Widgets()
    state = widgets.state()
    entry = load_task(write_sample_task(tmp_path / "a"))
    other = load_task(write_sample_task(tmp_path / "b"))
    state.session = TaskSession.open(entry)
    widgets.script = state.session.script_saved
    assert state.entry is entry and state.shown == "initial"
    assert state.holds(load_task(entry.folder))  # read again: the same task
    assert not state.holds(other)
    assert state.script_for(entry) == widgets.script and state.script_for(other) is None


def test_every_unsaved_part_is_named(tmp_path: Path) -> None:
    widgets = _Widgets()
    state = widgets.state()
    state.session = session = TaskSession.open(load_task(write_sample_task(tmp_path / "t")))
    widgets.script = session.script_saved
    assert state.dirty() == dict.fromkeys(("initial", "golden", "script", "form"), False)
    assert not state.has_unsaved()

    state.editor_dirty = True  # counts for the document shown, not the other one
    assert state.dirty()["initial"] and not state.dirty()["golden"]
    session.active = ""  # a mutant or a live run is shown: the editor's changes are not the task's
    assert not state.has_unsaved()
    state.editor_dirty = False

    session.stash("golden", sb3_bytes(project_json({}, "Dog")))
    widgets.script += "// more\n"
    widgets.form_modified = True
    assert state.dirty() == {"initial": False, "golden": True, "script": True, "form": True}
    assert state.script_for(session.entry) == widgets.script  # what the author sees, unsaved


def test_an_approved_task_is_read_only(tmp_path: Path) -> None:
    state = _Widgets().state()
    state.session = session = TaskSession.open(load_task(write_sample_task(tmp_path / "t")))
    assert not state.read_only
    approved = review.approve(review.submit(session.task, "ann"), "bob")
    session.save_task_only(approved)
    assert state.read_only
    state.session = None
    assert not state.read_only and state.entry is None
