"""Human baseline studies: a plan of participants and counterbalanced queues, served to
participants' browsers, their runs recorded like the window's human sessions.

`design` draws the queues, `plan` keeps STUDY/study.json, `board` reads the participants'
progress from their runs, `results` sums them up per participant and per task, `events`
checks what a participant page sends, `desk` is one participant's session on the server and
`server` the HTTP front of the participant page.
"""

__all__: list[str] = []
