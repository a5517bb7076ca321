"""`python -m cuesim` is the `cuesim` command."""

from cuesim.cli import run

run()
