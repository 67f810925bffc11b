"""The run viewer: a step timeline, each step's screenshot with its action drawn on it, the
element list, the reasoning and the program change; live controls; replay and compare."""
