"""The core: what every other service stands on, and nothing above it.

Scratch projects (`sb3` reading and checks, `blocks`, `diff`, `render` as pseudocode,
`project_diff` for people, `projectbuild`), the task library on disk (`store`), files written
atomically (`atomic`), JSON lines and untrusted JSON, plain names from files (`names`), where
resources and caches live (`paths`), leftovers of killed processes, the errors that name a file
and its problem (`errors`), and statistics of repeated episodes (`stats`). Imports only
`studio.models`.
"""

__all__: list[str] = []
