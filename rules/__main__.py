"""Entry point of `python -m rules`."""

from rules.core.cli import main

raise SystemExit(main())
