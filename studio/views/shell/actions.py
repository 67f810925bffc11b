"""The window's commands (menu, toolbar, keyboard shortcuts); the main window connects them."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QStyle, QToolBar


class StudioActions:
    """One QAction per command, owned by the main window."""

    def __init__(self, window: QMainWindow) -> None:
        icon = window.style().standardIcon
        pix = QStyle.StandardPixmap

        def make(
            text: str, keys: list[str], tip: str, icon_id: QStyle.StandardPixmap | None = None
        ) -> QAction:
            action = QAction(text, window)
            action.setShortcuts([QKeySequence(k) for k in keys])
            shortcut = ", ".join(keys)
            action.setToolTip(f"{tip} ({shortcut})" if shortcut else tip)
            action.setStatusTip(tip)
            if icon_id is not None:
                action.setIcon(icon(icon_id))
            window.addAction(action)  # shortcuts work even when the toolbar is hidden
            return action

        self.open_initial = make(
            "Open &initial",
            ["Ctrl+1"],
            "Open the task's initial project in the editor",
            pix.SP_FileIcon,
        )
        self.open_golden = make(
            "Open &golden",
            ["Ctrl+2"],
            "Open the task's golden project in the editor",
            pix.SP_DialogApplyButton,
        )
        self.evaluate = make(
            "&Evaluate",
            ["F5", "Ctrl+R"],
            "Run the script as written (unsaved too, nothing is written) on the editor's project",
            pix.SP_MediaPlay,
        )
        self.open_library = make(
            "Open &library folder…", ["Ctrl+O"], "Choose a task library folder", pix.SP_DirOpenIcon
        )
        self.open_project_file = make(
            "Open project &file…", ["Ctrl+Shift+O"], "Open any .sb3 file in the editor"
        )
        self.reload_library = make(
            "Re&scan library",
            ["Ctrl+Shift+L"],
            "Read the task library folder again",
            pix.SP_BrowserReload,
        )
        self.reload_editor = make(
            "Restart &editor", ["Ctrl+Shift+R"], "Load the Scratch editor page again"
        )
        self.quit = make("&Quit", ["Ctrl+Q"], "Quit the studio")
        self.new_task = make(
            "&New task…", ["Ctrl+N"], "Create a task from a template", pix.SP_FileDialogNewFolder
        )
        self.open_task_folder = make(
            "Open &task folder…", ["Ctrl+Shift+T"], "Open a task folder from anywhere on disk"
        )
        self.duplicate_task = make("&Duplicate task…", ["Ctrl+D"], "Copy the selected task")
        self.rename_task = make("Re&name task…", ["F2"], "Rename the selected task")
        self.delete_task = make(
            "Delete task…", ["Ctrl+Del"], "Move the selected task to the library's trash"
        )
        self.restore_task = make("Restore deleted task…", [], "Bring a deleted task back")
        self.set_statistics = make(
            "Set &statistics…",
            [],
            "What the library covers: tasks per category, difficulty, blocks, tests (studio stats)",
        )
        self.save = make(
            "&Save task",
            ["Ctrl+S"],
            "Save the task: projects, script and form",
            pix.SP_DialogSaveButton,
        )
        self.revert = make("Re&vert", [], "Put back the script and the shown project as saved")
        self.check = make(
            "&Check task",
            ["F6"],
            "Run the adversarial check: golden, initial and mutants",
            pix.SP_DialogYesButton,
        )
        self.submit = make("Su&bmit for review", ["Ctrl+Shift+S"], "Lint, then submit for review")
        self.show_diff = make("Show &diff", ["Ctrl+3"], "Initial vs golden, block by block")
        self.show_text = make(
            "Block te&xt", ["Ctrl+4"], "The editing target's scripts as block text (Text tab)"
        )
        self.apply_text = make(
            "&Apply block text",
            ["Ctrl+Shift+Return"],
            "Put the Text tab's blocks into the editor's target (one undo step)",
        )
        self.shortcuts = make("&Keyboard shortcuts", ["F1"], "List every shortcut")
        self.start_run = make(
            "&Start agent run…",
            ["Ctrl+Shift+G"],
            "Run a built-in agent on the selected task, live in the editor",
            pix.SP_MediaSeekForward,
        )
        self.run_campaign = make(
            "Run &campaign…",
            [],
            "Run an agent on many tasks of the library, each episode recorded (resumable)",
        )
        self.pause_run = make("&Pause / resume", ["F8"], "Pause before the next action, or go on")
        self.step_run = make("S&tep one action", ["F10"], "Let exactly one action through")
        self.stop_run = make("St&op run", ["Shift+F8"], "Stop the live episode")
        self.serve_api = make(
            "Serve agent &API here…",
            [],
            "Let external agents drive episodes in this editor over the HTTP API",
        )
        self.open_trajectory = make(
            "&Open trajectory…", ["Ctrl+Shift+J"], "Open a recorded run (folder or .zip)"
        )
        self.compare_runs = make("&Compare two runs…", [], "Two runs of a task side by side")
        self.replay_run = make(
            "&Replay in editor", ["Ctrl+Shift+P"], "Re-execute the shown run's actions live"
        )
        self.export_run = make("E&xport run…", [], "Save the shown run as one .zip archive")
        self.human_session = make(
            "&Human baseline session…",
            ["Ctrl+Shift+H"],
            "A participant solves tasks in the editor while every input is recorded",
        )
        self.study_board = make(
            "Study &board…",
            ["Ctrl+Shift+B"],
            "The live board of a human baseline study: participants x tasks, with state",
        )
        self.labeling = make(
            "&Labeling window",
            ["Ctrl+Shift+D"],
            "Label drag regions and perception QA items (the diagnostic benchmarks)",
        )
        self.run_actions = (
            self.start_run,
            self.pause_run,
            self.step_run,
            self.stop_run,
            self.run_campaign,
            self.serve_api,
            self.open_trajectory,
            self.compare_runs,
            self.replay_run,
            self.export_run,
            self.human_session,
            self.study_board,
        )
        self.task_actions = (self.open_initial, self.open_golden, self.evaluate)
        self.authoring_actions = (self.save, self.revert, self.check, self.submit, self.show_diff)
        self.library_actions = (
            self.new_task,
            self.open_task_folder,
            self.duplicate_task,
            self.rename_task,
            self.delete_task,
            self.restore_task,
            self.set_statistics,
        )

    def all(self) -> list[QAction]:
        """Every command, for the shortcuts dialog."""
        return [a for a in vars(self).values() if isinstance(a, QAction)]

    def install(self, window: QMainWindow) -> QToolBar:
        """Put the actions into the menu bar and a toolbar; return the toolbar."""
        menu = window.menuBar()
        file_menu = menu.addMenu("&File")
        for action in (self.open_library, self.reload_library, self.open_project_file):
            file_menu.addAction(action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit)
        library_menu = menu.addMenu("&Library")
        for action in self.library_actions:
            library_menu.addAction(action)
        task_menu = menu.addMenu("&Task")
        for action in (*self.task_actions, *self.authoring_actions):
            task_menu.addAction(action)
        task_menu.addSeparator()
        task_menu.addAction(self.show_text)
        task_menu.addAction(self.apply_text)
        task_menu.addSeparator()
        task_menu.addAction(self.reload_editor)
        run_menu = menu.addMenu("&Run")
        for i, action in enumerate(self.run_actions):
            if i in (4, 5, 6, 10):
                run_menu.addSeparator()
            run_menu.addAction(action)
        menu.addMenu("La&beling").addAction(self.labeling)
        help_menu = menu.addMenu("&Help")
        help_menu.addAction(self.shortcuts)
        toolbar = QToolBar("Main", window)
        toolbar.setObjectName("main-toolbar")
        toolbar.setMovable(False)
        for action in (
            self.new_task,
            self.open_initial,
            self.open_golden,
            self.save,
            self.evaluate,
            self.check,
        ):
            toolbar.addAction(action)
        window.addToolBar(toolbar)
        return toolbar
