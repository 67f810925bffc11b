"""Allow `python -m studio`."""

from studio.cli import main

raise SystemExit(main())
