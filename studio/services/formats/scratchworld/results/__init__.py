"""The result folders ScratchWorld's published runners write, read as they are
(SCRATCHWORLD_API.md section 12): `folders` finds and reads the task runner's, `items` the drag
and perception runners' as diagnostics rows, `view` shows a runner's folder as a trajectory,
`reader` gives all of it to the runs feature (`runs.result_readers`)."""

__all__: list[str] = []
