"""published."""
