"""The published ScratchWorld drag and perception sets: import into item folders, export back
byte for byte when unchanged (`sets`, `drag`, `drag_record`, `qa`, `common`)."""

__all__: list[str] = []
