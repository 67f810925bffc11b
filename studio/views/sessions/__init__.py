"""Human baseline sessions: the session run in the window, its mode, and the study board."""
