"""Single-step drag items: authoring, feasible regions from real drags, scoring, agreement."""

__all__: list[str] = []
