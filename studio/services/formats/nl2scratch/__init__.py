"""NL2Scratch sets: rows read one by one (`rows`), the set's metrics (`metrics`), scoring a file
of predictions (`score`), rows imported as create tasks (`importer`) and exported back
(`exporter`). See ../shared/NL2SCRATCH.md for the format and the metrics."""

__all__: list[str] = []
