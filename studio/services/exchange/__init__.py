"""Campaigns in other tools' formats (Inspect AI eval logs)."""
