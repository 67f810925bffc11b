"""Qt-free core of the studio: server, browser, evaluator, task store, checks."""

__all__: list[str] = []
