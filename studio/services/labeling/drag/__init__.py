"""Single-step drag items: authoring, feasible regions from real drags, scoring, agreement."""
