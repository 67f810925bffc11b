"""Live agent runs in the window's editor: the controller, the page an episode drives, its keys,
and the room its screen needs."""
