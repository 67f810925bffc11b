"""Authoring the open task: its controller, the script editor, the task form, the document bar,
the diff, unsaved-work recovery and the proposal of tests."""
