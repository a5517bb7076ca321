"""`python -m cuesim` is the `cuesim` command."""

import sys

from cuesim.cli import main

sys.exit(main())
