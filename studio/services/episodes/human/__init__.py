"""Human baseline sessions: a participant solves a task, recorded in the agents' action schema.

`coalesce` turns raw DOM input events into primitive-mode actions, `session` writes them as a
normal trajectory (agent "human") and `protocol` holds the card that says what the participant
was allowed to see and use.
"""

__all__: list[str] = []
