"""What every feature's view helpers get from the window: the shell (the services handed
down), the window's commands, the Results tab and the layout of the panes."""
