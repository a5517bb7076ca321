"""`cuesim bench`: the collision-core benchmark suite (bench/suite.py).

bench/ is not an installed package: it lies next to the `cuesim` package in a source checkout
(as an editable install uses it), and the command runs it from there. An installed wheel has
no bench/, and the command says so in one line.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

import cuesim
from cuesim.commands import at_most
from cuesim.output import (
    OutputError,
    check_folder_writable,
    check_writable,
    remove_partial,
)

# passes of the suite: each full pass takes minutes, so a bound keeps a typo (100 for 10)
# from running for hours; more than a few passes no longer change the fastest figures kept
MAX_PASSES = 20

NOT_A_CHECKOUT = ("cuesim bench runs from a source checkout: no bench/suite.py next to the "
                  "installed cuesim package ({where}); clone the repository and "
                  "pip install -e . there")


def checkout_root() -> Path | None:
    """The repository root holding bench/suite.py beside the cuesim package, or None."""
    root = Path(cuesim.__file__).resolve().parent.parent
    return root if (root / "bench" / "suite.py").is_file() else None


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "bench", help="run the collision-core benchmark suite (from a source checkout)",
        description="The collision-core benchmark suite: every scenario on cuesim's core, the "
                    "pymunk backend at several steps and pooltool where it imports, measured "
                    "pair by pair in one run on one core. Runs from a source checkout.")
    parser.add_argument("--quick", action="store_true",
                        help="fewer shots, repeats and steps, no cold compile (under a minute)")
    parser.add_argument("--passes", metavar="K", type=at_most(MAX_PASSES), default=None,
                        help="passes over every scenario, each time kept at its fastest pass "
                             f"(default 2; 1 with --quick; at most {MAX_PASSES})")
    parser.add_argument("--json", metavar="FILE", help="also write every figure as JSON")
    parser.add_argument("--plots", metavar="DIR",
                        help="write PNG plots there (needs matplotlib: pip install -e '.[bench]')")
    parser.set_defaults(handler=run_bench)


def run_bench(args: argparse.Namespace) -> int:
    root = checkout_root()
    if root is None:
        raise ValueError(NOT_A_CHECKOUT.format(where=Path(cuesim.__file__).resolve().parent))
    if args.json is not None:  # before minutes of measuring, not after
        check_writable(args.json, "--json")
    if args.plots is not None:
        check_folder_writable(args.plots, "--plots")
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    suite = importlib.import_module("bench.suite")
    try:
        return suite.run(args.quick, args.json, args.plots, passes=args.passes)
    except OSError as exc:  # e.g. the disk filled up while the figures were written
        if args.json is not None and exc.filename == args.json:
            remove_partial(args.json)
            raise OutputError(f"--json {args.json!r} could not be written ({exc.strerror}); "
                              "it was removed") from None
        raise
