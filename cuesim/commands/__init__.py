"""Subcommands of the `cuesim` command line beyond shoot, layout and adjudicate.

Each module here defines `register(subparsers) -> None`, which adds its parser and sets
`handler=` (a function taking the parsed arguments and returning the exit status) with
`parser.set_defaults(handler=...)`. The CLI finds the modules by name, so adding a command is
adding a file. Handlers raise ValueError (or cuesim's own errors) with a clear message for bad
input; the CLI prints it as one line and exits with status 2.
"""

from __future__ import annotations

import argparse
import importlib
import math
import pkgutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

# the most candidate shots the computer simulates for one turn (its levels use 60-300; each
# is a whole shot, so 10**5 is minutes of thinking)
MAX_CANDIDATES = 100_000


def _whole(text: str, lower: int, upper: int | None = None) -> int:
    """`text` as a whole number in [lower, upper] (no upper bound when None), or the
    ArgumentTypeError saying why not."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < lower:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least {lower}")
    if upper is not None and value > upper:
        raise argparse.ArgumentTypeError(f"{text!r} must be at most {upper}")
    return value


def positive_int(text: str, upper: int | None = None) -> int:
    """argparse type: a whole number >= 1 (counts such as --candidates, --sets), and at most
    `upper` when given (`at_most`)."""
    return _whole(text, 1, upper)


def whole_number(text: str) -> int:
    """argparse type: a whole number >= 0 (a seed; a count where 0 skips that part of a run)."""
    return _whole(text, 0)


def output_file(text: str) -> Path:
    """argparse type: a file a run will write (--json, --out), checked as the arguments are
    read (cuesim.output.check_writable: its folder exists and takes a file), not after the run
    whose results it is to hold."""
    from cuesim.output import OutputError, check_writable

    try:
        return check_writable(text, "the file")
    except OutputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def at_most(upper: int) -> Callable[[str], int]:
    """argparse type: `positive_int` bounded by `upper`."""
    def parse(text: str) -> int:
        return positive_int(text, upper)
    return parse


def impact_steps(text: str) -> float:
    """argparse type: a multiple-impact resolution the tables' physics accept, steps per
    contact time scale (tables.contact.IMPACT_STEPS_RANGE)."""
    from cuesim.tables.contact import IMPACT_STEPS_RANGE

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    low, high = IMPACT_STEPS_RANGE
    if not low <= value <= high:  # NaN too
        raise argparse.ArgumentTypeError(f"{text!r} is not a number in [{low:g}, {high:g}]")
    return value


def end_mass_grams(text: str) -> float:
    """argparse type: a cue's effective end mass in grams, 0 (no squirt) up to the cue's mass
    (tables.balls.CUE_MASS)."""
    from cuesim.tables.balls import CUE_MASS

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 <= value <= CUE_MASS * 1000:  # NaN too
        raise argparse.ArgumentTypeError(f"{text!r} is not a mass in [0, {CUE_MASS * 1000:g}] "
                                         "grams (0: a cue without squirt)")
    return value


def finite_number(text: str, what: str, error: type[ValueError] = ValueError) -> float:
    """`text` as a finite float, or `error` saying "{what}: '...' is not a (finite) number"."""
    try:
        value = float(text)
    except ValueError:
        raise error(f"{what}: {text!r} is not a number") from None
    if not math.isfinite(value):
        raise error(f"{what}: {text!r} is not a finite number")
    return value


PHYSICS_HELP = ("set a coefficient of the game's physics, NAME=VALUE (repeatable): novus "
                "mu_puck, mu_striker, e_puck_puck, e_rail, ...; ball games mu_slide, mu_roll, "
                "e_ball, e_cushion, ... (cuesim.tables: NovusPhysics, BallPhysics); each is "
                "checked against its range")


def with_physics_options(table: Any, given: list[str], option: str = "--physics") -> Any:
    """`table` with each NAME=VALUE of `given` set in its physics (`with_physics`), or a
    ValueError naming the option, the coefficient and what was expected: an unknown name (with
    the names there are), a value that is no finite number or out of the coefficient's range,
    a name given twice."""
    changes: dict[str, float] = {}
    for spec in given:
        name, sep, text = spec.partition("=")
        name = name.strip()
        if not sep or not name:
            raise ValueError(f"{option} {spec!r}: expected NAME=VALUE (mu_slide=0.25)")
        if name in changes:
            raise ValueError(f"{option}: {name} is given twice")
        changes[name] = finite_number(text, f"{option} {name}")
    if not changes:
        return table
    return _with_changes(table, changes, option)


def physics_conflict(given: list[str], name: str) -> bool:
    """Whether a --physics NAME=VALUE of `given` sets `name` (which an option of its own, such
    as --impact-steps, sets too)."""
    return any(spec.partition("=")[0].strip() == name for spec in given)


def _with_changes(table: Any, changes: dict[str, float], option: str) -> Any:
    from cuesim.tables.base import with_coefficients

    try:
        return with_coefficients(table, changes)
    except ValueError as exc:
        raise ValueError(f"{option}: {exc}") from None


def register_all(subparsers: argparse._SubParsersAction) -> None:
    """Let every module of this package add its subcommand."""
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(subparsers)
