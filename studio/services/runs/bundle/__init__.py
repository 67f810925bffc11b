"""A report and its episodes as a static site anyone opens from disk (`studio report --bundle`)."""

from studio.services.runs.bundle.writer import BundleSummary, write_bundle

__all__ = ["BundleSummary", "write_bundle"]
