"""Qt widgets of the studio; they talk to the core through studio.services."""
