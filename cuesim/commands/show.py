"""`cuesim show FILE`: a saved shot (`shoot --save`, `ShotResult.save`) read back and told as
`shoot` tells it, without simulating it again; `--verify` simulates it again and compares.

    cuesim shoot 9-ball --speed 7 --save break.npz
    cuesim show break.npz                      # the summary `shoot` printed
    cuesim show break.npz --json               # shoot --json's output, from the file
    cuesim show break.npz --verify --plot break.png --gif break.gif
    cuesim show break.npz --rule 9-ball        # the 9-ball referee's ruling on it (a break)
    cuesim show shot.json --rule 8-ball --state state.json   # ... from a game's state
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from typing import Any

from cuesim.sim.events import EventKind
from cuesim.sim.result import ShotResult


def register(subparsers: argparse._SubParsersAction) -> None:
    from cuesim.cli import add_picture_options

    p = subparsers.add_parser(
        "show", help="print a saved shot file (.json or .npz) as shoot prints a shot",
        description="Read a shot file that `cuesim shoot --save` or ShotResult.save wrote, "
                    "checked field by field, and print what happened (or --json), as shoot "
                    "does, without simulating it again. --verify plays the shot again on its "
                    "table with the physics the file records and refuses the file unless every "
                    "array is the same, bit for bit. A shot stopped at the event limit exits "
                    "with status 3, as shoot does.")
    p.add_argument("file", help="the shot file (.json or .npz)")
    p.add_argument("--verify", action="store_true",
                   help="also play the shot again and compare (costs one simulation)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--trajectories", action="store_true",
                   help="with --json: add every piece's motion segments")
    p.add_argument("--rule", metavar="GAME",
                   help="also print the ruling of GAME's referee on the shot (one of: novus, "
                        "novus-doubles, 8-ball, 9-ball, 14.1, 5-pins; a game of the file's "
                        "table), as shoot --rule does; with --json as 'ruling' and the "
                        "referee's next 'referee_state'")
    p.add_argument("--state", metavar="FILE",
                   help="with --rule: the game state to rule from (JSON: the 'state' object of "
                        "the game's scenario schema); default: the start of a match")
    add_picture_options(p)
    p.set_defaults(handler=cmd_show)


def physics_changes(result: ShotResult) -> str:
    """The coefficients where the file's physics differ from its table's defaults, as
    `name=value` (none: "the table's defaults"; not recorded: said so)."""
    from cuesim.api import table_named
    from cuesim.tables.base import physics_of

    if result.physics is None:
        return "not recorded (a file written before they were)"
    default = physics_of(table_named(result.table)) or {}
    changed = [f"{k}={v:g}" for k, v in result.physics.items() if default.get(k) != v]
    return ", ".join(changed) if changed else "the table's defaults"


def _struck(result: ShotResult) -> str:
    """The piece the shot struck: the shot's, or the first STRIKE event's."""
    shot: Any = result.shot
    if shot is not None:
        return shot.ball if hasattr(shot, "ball") else "striker"
    strikes = result.events_of(EventKind.STRIKE)
    return strikes[0].a if strikes else "striker"


def _check_outputs(args: argparse.Namespace) -> None:
    """Refuse an output (--plot, --gif) that is the shot file or the --state file, which
    writing it would destroy, or that the other output names too."""
    from cuesim.cli import CliError
    from cuesim.output import same_file

    if args.plot is not None and args.gif is not None and same_file(args.plot, args.gif):
        raise CliError(f"--plot and --gif name one file, {args.plot!r}: the one written last "
                       "would replace the other; give each its own name")
    for opt in ("--plot", "--gif"):
        path = getattr(args, opt[2:])
        if path is not None and same_file(path, args.file):
            raise CliError(f"{opt} {path!r} is the shot file: writing it would replace the "
                           "input; give another name")
        if path is not None and args.state is not None and same_file(path, args.state):
            raise CliError(f"{opt} {path!r} is the --state file: writing it would replace the "
                           "input; give another name")


def _referee(args: argparse.Namespace, result: ShotResult) -> Any:
    """--rule GAME's referee (resumed from --state), or None without --rule; the file's shot
    checked first as shoot checks its own before simulating: a table of the game's kind, the
    layout it starts from, novus's shooting side (12), a ball placed in hand only where the
    state gives it."""
    from cuesim.api import GAME_NAMES, game_table, table_named
    from cuesim.cli import CliError, _in_hand, load_referee
    from cuesim.rulings import check_layout, shooter_side
    from cuesim.shot import CueShot, NovusShot

    if args.state is not None and args.rule is None:
        raise CliError("--state gives the game state to rule from: use it with --rule GAME")
    if args.rule is None:
        return None
    game = args.rule
    if game not in GAME_NAMES:
        raise CliError(f"--rule: unknown game {game!r}; games are {', '.join(GAME_NAMES)}")
    table = table_named(result.table)
    if table is None or type(table) is not type(game_table(game)):
        raise CliError(f"--rule {game}: {args.file} was played on the table {result.table!r}, "
                       f"not on a {game} table ({game_table(game).name})")
    ref = load_referee(game, args.state, "show")
    shot: Any = result.shot
    if isinstance(shot, NovusShot) and shot.side != shooter_side(ref):
        raise CliError(f"--rule {game}: {args.file}'s shot is played from the {shot.side}, but "
                       f"the player to shoot, {ref.shooter}, plays from the "
                       f"{shooter_side(ref)} (novus 12): give a --state where the {shot.side} "
                       "player shoots")
    if isinstance(shot, CueShot) and shot.position is not None and _in_hand(ref) is None:
        raise CliError(f"--rule {game}: {args.file}'s shot places the ball in hand, but the "
                       f"{game} state gives none (the ball is played where it lies): give a "
                       "--state with the ball in hand")
    try:
        check_layout(ref, game, result.initial.without(["striker"], missing_ok=True), "layout")
    except ValueError as exc:
        raise CliError(f"--rule {game}: {args.file}: the {game} referee cannot rule on the "
                       f"layout it starts from: {str(exc).removeprefix('layout: ')}") from None
    return ref


def cmd_show(args: argparse.Namespace) -> int:
    from cuesim.api import table_named
    from cuesim.cli import (
        TRUNCATED_STATUS,
        CliError,
        _check_gif,
        _check_plot,
        _gif_options,
        summary,
    )
    from cuesim.shotfile import load_result

    if args.trajectories and not args.json:
        raise CliError("--trajectories adds the motion segments to the --json output: use it "
                       "with --json")
    _check_outputs(args)
    if args.plot is not None:
        _check_plot(args.plot)
    gif = _check_gif(args)
    with warnings.catch_warnings():  # the summary says it, prominently
        warnings.simplefilter("ignore", RuntimeWarning)
        result = load_result(args.file, verify=args.verify)
    ref = _referee(args, result)
    ruled = None
    if ref is not None and not result.truncated:
        from cuesim.rulings import rule

        try:
            ruled = rule(ref, args.rule, result)
        except ValueError as exc:
            raise CliError(f"--rule {args.rule}: the referee cannot rule on {args.file}'s "
                           f"shot: {exc}") from None
    table = table_named(result.table)
    for opt in ("--plot", "--gif"):
        if getattr(args, opt[2:]) is not None and table is None:
            raise CliError(f"{opt}: {args.file}: its table {result.table!r} is not one cuesim "
                           "knows by name, so there is no table to draw")
    if args.plot is not None:
        from cuesim.plot import save_plot

        save_plot(result, args.plot, table=table, what="--plot")
    if gif is not None:
        fps, width = _gif_options(args, gif)
        gif.save_gif(result, table, args.gif, fps=fps, width=width,
                     title=f"cuesim {result.table}")
    if args.json:
        out = result.to_dict(trajectories=args.trajectories)
        if ref is not None:
            from cuesim.rulings import ruled_fields

            out.update(ruled_fields(ruled))
        print(json.dumps(out, indent=1, ensure_ascii=False))
    else:
        print(f"{args.file}: table {result.table}, physics: {physics_changes(result)}"
              + (", verified by playing it again" if args.verify else ""))
        print(summary(result, _struck(result)))
        if ref is not None:
            from cuesim.rulings import ruling_line

            print(ruling_line(ruled))
    if result.truncated:
        if args.json:
            print(f"cuesim: {result.truncation_message()}", file=sys.stderr)
        return TRUNCATED_STATUS
    return 0
