"""The task library: the tree of tasks, its commands, the selected task's details and the New
task dialog."""
