"""The main window: it composes the panes, builds the shell and wires the menus (library
commands, the Run menu), the edition it follows and the shortcuts dialog."""
