"""Shared test helpers: a browser on its own loop thread, project builders."""
