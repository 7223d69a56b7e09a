"""`python -m gamecheck`: the same as the `gamecheck` command."""

import sys

from gamecheck.cli import main

sys.exit(main())
