"""checking."""
