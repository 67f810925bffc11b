"""Plain pydantic data of the studio; imports nothing else of ours and no Qt."""

__all__: list[str] = []
