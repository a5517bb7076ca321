"""The `cuesim` command line. Degrees at this edge; SI everywhere inside."""

from __future__ import annotations

import argparse
import errno
import gc
import io
import json
import math
import os
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn

from cuesim.api import GAME_NAMES, game_table, simulate, start_layout
from cuesim.commands import PHYSICS_HELP, physics_conflict, with_physics_options
from cuesim.output import same_file
from cuesim.shot import CueShot, NovusShot, ShotError
from cuesim.sim.engine import (
    DEFAULT_MAX_EVENTS,
    MAX_EVENTS_EXPECTED,
    SimulationError,
    max_events_ok,
)
from cuesim.sim.events import EventKind
from cuesim.sim.result import ShotResult
from cuesim.tables.balls import CUE_END_MASS, CUE_MASS
from cuesim.tables.layout import Layout, LayoutError, one_line
from cuesim.tables.novus import NOVUS_SIDES
from cuesim.tables.numbers import MAX_AIM_ANGLE, shown

GAMES = GAME_NAMES


class CliError(Exception):
    """A problem with what the user asked for; printed without a traceback."""


def _finite(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def _aim_degrees(text: str) -> float:
    """--angle: a finite number of degrees within a thousand turns (MAX_AIM_ANGLE)."""
    value = _finite(text)
    limit = math.degrees(MAX_AIM_ANGLE)
    if abs(value) > limit:
        raise argparse.ArgumentTypeError(
            f"{text!r} degrees is more than a thousand turns (at most {limit:.0f} either way)")
    return value


BUILT_IN = ("shoot", "layout", "adjudicate")  # the commands defined in this module


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (exit 2), pointing to --help, instead of
    the usage block followed by the message."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")


def add_picture_options(parser: argparse.ArgumentParser) -> None:
    """--plot, --gif, --gif-fps and --gif-width: the pictures of a shot (`shoot`, `show`)."""
    parser.add_argument("--plot", metavar="IMAGE",
                        help="also draw the table, the paths and the events into IMAGE (.png, "
                             ".svg, .pdf, ...; needs the optional extra: pip install "
                             "\"cuesim[plot]\")")
    parser.add_argument("--gif", metavar="FILE.gif",
                        help="also save the shot's animation as a looping GIF, drawn as the "
                             "viewer draws it (needs Pillow, an optional extra: pip install "
                             "\"cuesim[gif]\")")
    parser.add_argument("--gif-fps", type=int, default=None,
                        help="with --gif: frames per second of the shot's time, one of 1, 2, "
                             "4, 5, 10, 20, 25, 50 (default 25)")
    parser.add_argument("--gif-width", type=int, default=None,
                        help="with --gif: the frame width in pixels, 160..1920 (default 720)")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; for `command`, one of BUILT_IN, without the other commands
    (`cuesim.commands`), whose modules import the batch and viewer code: 60-90 ms of every
    `cuesim shoot` otherwise."""
    parser = OneLineParser(
        prog="cuesim", description="Exact event-based simulator and referee for cue sports.")
    sub = parser.add_subparsers(dest="command", required=True)

    shoot = sub.add_parser("shoot", help="simulate one shot and print what happened")
    shoot.add_argument("game", help=f"one of: {', '.join(GAMES)}")
    shoot.add_argument("--x", type=_finite, default=None,
                       help="novus: striker position along the player's rail from his left "
                            "(m, default 0.5); ball games: place the ball here (ball in hand; "
                            "a cue ball the --layout lacks is put down)")
    shoot.add_argument("--y", type=_finite, default=None,
                       help="novus: striker distance from the player's rail (m; default "
                            "mid-zone); ball games: with --x, where the ball is placed")
    shoot.add_argument("--angle", type=_aim_degrees, default=90.0,
                       help="shot direction in degrees; novus: 90 = straight ahead, 0 = to the "
                            "right; ball games: in the table frame, 90 = toward the far rail")
    shoot.add_argument("--speed", type=_finite, required=True,
                       help="novus: striker speed (m/s); ball games: cue speed (m/s)")
    shoot.add_argument("--offset", type=_finite, default=None,
                       help="novus: cue tip offset right of the striker's centre line (m)")
    shoot.add_argument("--side", default=None, choices=list(NOVUS_SIDES),
                       help="novus: the shooting player's side (default: south; with --rule, "
                            "the side of the player to shoot)")
    shoot.add_argument("--ball", default=None,
                       help="ball games: the struck ball (default: cue; 5-pins: white, or with "
                            "--rule the ball of the player to shoot)")
    shoot.add_argument("--english", type=_finite, default=None,
                       help="ball games: tip offset right of centre, fraction of the radius")
    shoot.add_argument("--height", type=_finite, default=None,
                       help="ball games: tip offset above centre, fraction of the radius "
                            "(+ follow, - draw); |(english, height)| <= 0.5")
    shoot.add_argument("--elevation", type=_finite, default=None,
                       help="ball games: cue elevation in degrees")
    shoot.add_argument("--end-mass", type=_finite, default=None, metavar="GRAMS",
                       help="ball games: the cue's effective end mass in grams, which sets the "
                            "squirt of side english (default 5.7, a standard shaft; 0: none)")
    shoot.add_argument("--layout", help="layout JSON file (default: the game's start)")
    shoot.add_argument("--json", action="store_true", help="print the result as JSON")
    shoot.add_argument("--trajectories", action="store_true",
                       help="with --json: include the exact trajectory segments")
    shoot.add_argument("--rule", action="store_true",
                       help="print the referee's ruling on the shot after the summary (with "
                            "--json: as 'ruling' and the referee's next 'referee_state')")
    shoot.add_argument("--state", metavar="FILE",
                       help="with --rule: the game state to rule from (JSON: the 'state' object "
                            "of the game's scenario schema); default: the start of a match. "
                            "Without --layout, a 5-pins break in it starts from that break's "
                            "opening position")
    shoot.add_argument("--save", metavar="FILE",
                       help="also write the whole result to FILE: .json (readable) or .npz "
                            "(compact); both reload exactly (ShotResult.load)")
    add_picture_options(shoot)
    shoot.add_argument("--max-events", type=int, default=DEFAULT_MAX_EVENTS,
                       help="stop the simulation after this many events (a shot stopped "
                            "there is TRUNCATED: no final layout, exit status 3; the contacts "
                            "of one impact are logged together, so the log may end a few "
                            "events past it)")
    shoot.add_argument("--physics", action="append", default=[], metavar="NAME=VALUE",
                       help=PHYSICS_HELP)
    shoot.add_argument("--impact-steps", type=_finite, default=None, metavar="N",
                       help="the multiple impact's resolution in steps per contact time scale "
                            "(default 20, 2..320; see README, \"Python API\")")

    layout = sub.add_parser("layout", help="print a game's starting layout as JSON")
    layout.add_argument("game", help=f"one of: {', '.join(GAMES)}")

    judge = sub.add_parser(
        "adjudicate", help="rule on a scenario file (event log + layouts)",
        description="Rule on a scenario file of any referee; its 'game' field picks it: novus, "
                    "eight_ball / nine_ball / straight_pool, five_pins. Every field is checked "
                    "(types, ranges, an event log that can have happened, layouts legal on "
                    "their table); a problem is one line naming the file and the field, exit 2.")
    judge.add_argument("scenario", help="scenario JSON (schemas: rules/novus/README.md, "
                                        "rules/pool/README.md, rules/fivepins/README.md)")
    judge.add_argument("--json", action="store_true",
                       help="print the whole adjudication as JSON (rulings, states, layouts) "
                            "instead of the rulings in words")

    if command not in BUILT_IN:
        from cuesim.commands import register_all

        register_all(sub)
    return parser


def _layout_for(game: str, path: str | None) -> Layout:
    if game not in GAMES:
        raise CliError(f"unknown game {game!r}; games are {', '.join(GAMES)}")
    if path is None:
        return start_layout(game)
    layout = Layout.load(path)
    try:  # a layout for another table, pieces off it or overlapping: named with the file
        # (the novus striker is placed by the shot, so only the rest must stand legally)
        game_table(game).check_layout(layout.without(["striker"], missing_ok=True)
                                      if game.startswith("novus") else layout)
        extra = [p.id for p in layout.pieces if p.kind == "striker" and p.id != "striker"]
        if extra:
            raise LayoutError(f"piece {extra[0]!r} is a second striker: a novus layout has one, "
                              "id 'striker' (26.1)")
        misnamed = [p.kind for p in layout.pieces if p.id == "striker" and p.kind != "striker"]
        if misnamed and game.startswith("novus"):
            # the shot places the striker (id 'striker'): this piece would be dropped unseen
            raise LayoutError(f"piece 'striker' is a {misnamed[0]}: the id 'striker' names "
                              "the striker (26.1); give this piece another id")
    except LayoutError as exc:
        raise CliError(f"--layout {path}: {exc}") from None
    return layout


TRUNCATED_STATUS = 3  # exit status of `cuesim shoot` for a shot stopped at the event limit


def _rail_words(feature: str) -> str:
    """A rail's name as words: novus 'south' -> 'the south rail', pool 'foot_rail' -> 'the
    foot rail', a pocket's jaw 'head_right_jaw_a' -> 'the head right jaw a'."""
    words = feature.replace("_", " ")
    return f"the {words}" if "rail" in words or "jaw" in words else f"the {words} rail"


def summary(result: ShotResult, struck: str = "striker") -> str:
    """A readable account of one shot. A truncated shot says so first and shows no final
    layout (its pieces may still move or overlap)."""
    if result.truncated:
        lines = [result.truncation_message(), f"{result.n_events} events, "
                 f"{result.duration:.3f} s of simulated time (stopped at the event limit)"]
    else:
        lines = [f"{result.n_events} events, {result.duration:.3f} s of simulated time"]
    first = result.first_contact(struck)
    if first is not None:
        other = first.b if first.a == struck else first.a
        what = other if first.kind != EventKind.RAIL else _rail_words(first.feature)
        lines.append(f"{struck} first touched {what} at {first.t:.3f} s")
    knocked = [e.b for e in result.events_of(EventKind.PIN)]
    if knocked:
        lines.append("pins knocked: " + ", ".join(knocked))
    lines.append("pocketed: " + (", ".join(result.pocketed) if result.pocketed else "nothing"))
    if result.truncated:
        lines.append("moved: no final layout (TRUNCATED)")
        return "\n".join(lines)
    moved = []
    start = {p.id: p for p in result.initial.pieces}
    for p in result.final.pieces:
        q = start[p.id]
        if math.hypot(p.x - q.x, p.y - q.y) > 1e-6:
            moved.append(f"  {p.id:8s} ({q.x:.3f}, {q.y:.3f}) -> ({p.x:.3f}, {p.y:.3f})")
    lines.append(f"moved: {len(moved)}")
    lines += moved
    return "\n".join(lines)


def _referee(args: argparse.Namespace) -> object | None:
    """The referee for --rule (from --state when given), or None without --rule."""
    if args.state is not None and not args.rule:
        raise CliError("--state gives the game state to rule from: use it with --rule")
    return load_referee(args.game, args.state, "shoot") if args.rule else None


def load_referee(game: str, state_path: str | None, command: str) -> object:
    """The referee of `game` at the start of a match, or resumed from the --state file (the
    'state' object of the game's scenario schema), for `command`'s --rule (`shoot --rule`,
    `show --rule GAME`); CliError naming --state (or --rule) for a state that does not fit, a
    match that is over, or a choice pending."""
    from cuesim.rules.files import ScenarioError
    from cuesim.rulings import referee
    from cuesim.tables.jsonfile import read_json

    state = None
    if state_path is not None:
        state = read_json(state_path, "--state file", ScenarioError)
        if not isinstance(state, dict):
            raise CliError(f"--state {state_path}: expected a JSON object (the 'state' of the "
                           f"game's scenario schema), got {type(state).__name__}")
    where = f"--state {state_path}" if state_path is not None else "--rule"
    try:
        ref = referee(game, state)
    except ValueError as exc:
        raise CliError(f"{where}: {exc}") from None
    st = getattr(ref, "state", None)  # pool and 5-pins: refused before the shot is simulated
    if st is not None and st.phase == "match_over":
        raise CliError(f"{where}: the match is over (won by {st.winner}): there is no shot to "
                       "rule on")
    if st is not None and st.pending is not None:
        raise CliError(f"{where}: {st.pending.get('player')} must first choose "
                       f"({st.pending.get('article')}: {', '.join(st.pending.get('options', []))})"
                       f"; {command} gives no choice: rule it as a scenario's step (cuesim "
                       "adjudicate)")
    return ref


def _in_hand(ref: object) -> str | None:
    """Where the referee's shooter has the ball in hand (pool's ball_in_hand, 5-pins'
    placement), or None when it is played where it lies."""
    state = getattr(ref, "state", None)
    return getattr(state, "ball_in_hand", getattr(state, "placement", None))


NOVUS_ONLY = ("offset", "side")  # shoot's options that only a novus shot has
BALL_ONLY = ("ball", "english", "height", "elevation", "end_mass")  # only a cue-ball shot's


def _flag(dest: str) -> str:
    """The command-line spelling of an option's attribute name ('end_mass' -> 'end-mass')."""
    return dest.replace("_", "-")


def cmd_shoot(args: argparse.Namespace) -> int:
    layout = _layout_for(args.game, args.layout)
    table = game_table(args.game)
    if args.impact_steps is not None:
        if physics_conflict(args.physics, "impact_steps"):
            raise CliError("--impact-steps and --physics impact_steps=... both set the impact's "
                           "resolution: give one")
        try:
            table = table.with_physics(impact_steps=args.impact_steps)
        except ValueError as exc:
            raise CliError(f"--impact-steps: {exc}") from None
    try:
        table = with_physics_options(table, args.physics)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    novus = args.game.startswith("novus")
    for opt in NOVUS_ONLY if not novus else BALL_ONLY:
        if getattr(args, opt) is not None:
            takes = ", ".join("--" + _flag(o) for o in (NOVUS_ONLY if novus else BALL_ONLY))
            raise CliError(f"--{_flag(opt)} is an option of "
                           f"{'ball games' if novus else 'novus'}, not of {args.game} (its shot "
                           f"takes {takes})")
    ref = _referee(args)
    if ref is not None and args.layout is None:  # --state's break, not the game's (5-pins)
        from cuesim.rulings import state_start

        layout = state_start(ref, args.game, table) or layout
    if novus:
        from cuesim.rulings import shooter_side

        side = args.side or (shooter_side(ref) if ref is not None else "south")
        if ref is not None and side != shooter_side(ref):
            # the referee refuses a striker placed outside the shooter's own zone before the
            # shot (novus 12): no shot from there can be ruled on
            raise CliError(f"--side {side}: with --rule the player to shoot, "
                           f"{ref.shooter}, plays from the {shooter_side(ref)} (novus 12); "
                           f"leave --side out, or give a --state where the {side} player shoots")
        shot: NovusShot | CueShot = NovusShot(
            x=0.5 if args.x is None else args.x, y=args.y, angle=math.radians(args.angle),
            speed=args.speed, offset=args.offset or 0.0, side=side)
        struck = "striker"
        if "striker" in layout.ids():
            layout = layout.without(["striker"])
    else:
        from cuesim.rulings import shooter_ball

        own = shooter_ball(ref) if ref is not None and args.game == "5-pins" else None
        struck = args.ball or own or ("white" if args.game == "5-pins" else "cue")
        if (args.x is None) != (args.y is None):
            raise CliError("give both --x and --y to place the ball, or neither")
        position = None if args.x is None else (args.x, args.y)
        in_hand = struck in dict(table.cue_balls)  # put down at --x, --y if missing
        if struck not in layout.ids() and args.layout is not None \
                and not (in_hand and position is not None):
            balls = [p.id for p in layout.pieces if p.kind == "ball"]
            how = ("give --x and --y to put it down (ball in hand), add it to the file"
                   if in_hand else "add it to the file (--x and --y then place it in hand)")
            raise CliError(f"--layout {args.layout}: no ball {struck!r} in it (its balls: "
                           f"{', '.join(balls) or 'none'}): {how}, or strike another with "
                           "--ball")
        if position is not None and ref is not None and _in_hand(ref) is None:
            # placed by hand though not in hand: a shot no ruling of this state can follow
            raise CliError(f"--x/--y place the ball in hand, but with --rule the {args.game} "
                           "state gives none (the ball is played where it lies): leave them "
                           "out, or give a --state with the ball in hand")
        if args.end_mass is not None and not 0.0 <= args.end_mass <= CUE_MASS * 1000:
            raise CliError(f"--end-mass must lie in [0, {CUE_MASS * 1000:g}] grams (0: a cue "
                           f"without squirt; at most the cue's mass), got {args.end_mass:g}")
        shot = CueShot(angle=math.radians(args.angle), speed=args.speed,
                       side=args.english or 0.0, height=args.height or 0.0,
                       elevation=math.radians(args.elevation or 0.0),
                       ball=struck, position=position,
                       end_mass=CUE_END_MASS if args.end_mass is None else args.end_mass / 1000)
    if not max_events_ok(args.max_events):
        raise CliError(f"--max-events must be {MAX_EVENTS_EXPECTED}, got {shown(args.max_events)}")
    _check_outputs_spare_inputs(args)
    if args.save is not None:
        from cuesim.shotfile import check_shot_path

        check_shot_path(args.save, "--save")
    if args.plot is not None:
        _check_plot(args.plot)
    gif = _check_gif(args)
    if args.trajectories and not args.json:
        raise CliError("--trajectories adds the motion segments to the --json output: use it "
                       "with --json")
    if ref is not None:  # what the referee rules from: asked before simulating, not after
        from cuesim.rulings import check_layout

        try:
            check_layout(ref, args.game, layout, "layout")
        except ValueError as exc:
            where = f"--layout {args.layout}" if args.layout else f"the {args.game} start layout"
            raise CliError(f"{where}: the {args.game} referee cannot rule on it (--rule): "
                           f"{str(exc).removeprefix('layout: ')}") from None
    with warnings.catch_warnings():  # the summary says it, prominently
        warnings.simplefilter("ignore", RuntimeWarning)
        result = simulate(table, layout, shot, max_events=args.max_events)
    ruled = None
    if ref is not None and not result.truncated:
        from cuesim.rulings import rule

        try:
            ruled = rule(ref, args.game, result)
        except ValueError as exc:
            raise CliError(f"--rule: the referee cannot rule on this shot: {exc}") from None
    if args.save is not None:
        result.save(args.save)
    if args.plot is not None:
        from cuesim.plot import save_plot

        save_plot(result, args.plot, table=table, what="--plot")
    if gif is not None:
        fps, width = _gif_options(args, gif)
        gif.save_gif(result, table, args.gif, fps=fps, width=width, title=f"cuesim {args.game}")
    if args.json:
        out = result.to_dict(trajectories=args.trajectories)
        if ref is not None:
            from cuesim.rulings import ruled_fields

            out.update(ruled_fields(ruled))
        print(json.dumps(out, indent=1, ensure_ascii=False))
    else:
        print(summary(result, struck))
        if ref is not None:
            from cuesim.rulings import ruling_line

            print(ruling_line(ruled))
    if result.truncated:
        if args.json:  # the text summary already led with it
            print(f"cuesim: {result.truncation_message()}", file=sys.stderr)
        return TRUNCATED_STATUS
    return 0


def _check_outputs_spare_inputs(args: argparse.Namespace) -> None:
    """Refuse an output (--save, --plot, --gif) that is one of the input files (--layout,
    --state), which writing it would destroy, or that another output names too, which would
    leave only the one written last."""
    inputs = {opt: getattr(args, opt.strip("-")) for opt in ("--layout", "--state")}
    outputs = ("--save", "--plot", "--gif")
    for k, out in enumerate(outputs):
        path = getattr(args, out.strip("-"))
        if path is None:
            continue
        for opt, given in inputs.items():
            if given is not None and same_file(path, given):
                raise CliError(f"{out} {path!r} is the {opt} file: writing it would replace "
                               "the input; give another name")
        for other in outputs[k + 1:]:
            given = getattr(args, other.strip("-"))
            if given is not None and same_file(path, given):
                raise CliError(f"{out} and {other} name one file, {path!r}: the one written "
                               "last would replace the other; give each its own name")


def _check_plot(path: str) -> None:
    """Refuse --plot before simulating: matplotlib missing, a format it cannot write, a path
    that cannot be written."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise CliError("--plot needs matplotlib, an optional extra: pip install "
                       "\"cuesim[plot]\"")
    from cuesim.plot import check_plot_path

    check_plot_path(path, "--plot")


def _gif_options(args: argparse.Namespace, export: ModuleType) -> tuple[int, int]:
    """--gif-fps and --gif-width, the export's defaults where not given (a 0 given is
    refused by export.check_options, not replaced)."""
    fps = export.DEFAULT_FPS if args.gif_fps is None else args.gif_fps
    width = export.DEFAULT_WIDTH if args.gif_width is None else args.gif_width
    return fps, width


def _check_gif(args: argparse.Namespace) -> ModuleType | None:
    """Refuse --gif before simulating: options without --gif, bad options, Pillow missing, a
    path that cannot be written. The export module when --gif is given."""
    if args.gif is None:
        for name in ("gif_fps", "gif_width"):
            if getattr(args, name) is not None:
                raise CliError(f"--{name.replace('_', '-')} sets up the --gif file: use it with "
                               "--gif")
        return None
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no banner on standard output
    from cuesim.output import check_writable
    from cuesim.viewer import export

    if not args.gif.lower().endswith(".gif"):
        raise CliError(f"--gif {args.gif!r}: give a file name ending in .gif")
    export.check_options(*_gif_options(args, export))
    if not export.pillow_available():
        raise CliError(f"--gif: {export.PILLOW_MISSING}")
    check_writable(args.gif, "--gif")
    return export


def cmd_layout(args: argparse.Namespace) -> int:
    print(_layout_for(args.game, None).to_json())
    return 0


def cmd_adjudicate(args: argparse.Namespace) -> int:
    from cuesim.rules.files import adjudicate_file, read_json, scenario_strokes
    from cuesim.rulings import describe

    try:
        ruling = adjudicate_file(args.scenario)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        print(json.dumps(ruling, indent=1, ensure_ascii=False))
    else:  # the file was read and ruled on: reading it again cannot fail on its content
        print(describe(ruling, scenario_strokes(read_json(args.scenario))))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    first = argv[0] if argv else None  # the command word, unless it is an option (--help)
    args = build_parser(first).parse_args(argv)
    handlers = {"shoot": cmd_shoot, "layout": cmd_layout, "adjudicate": cmd_adjudicate}
    handler = handlers.get(args.command) or args.handler
    closed = sys.stdout is None  # started with standard output closed (`>&-`): Python
    if closed:  # sets None, and print() would drop every line without a word
        sys.stdout = _ClosedOutput()
    try:
        status = handler(args)
        sys.stdout.flush()  # a full disk or closed pipe shows here, not at interpreter exit
        return status
    except (CliError, ShotError, LayoutError, SimulationError, ValueError) as exc:
        print(f"cuesim: error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader stopped reading (`| head`): quiet, as SIGPIPE would
        _silence_stdout()
        return 128 + 13
    except OSError as exc:  # writing failed: one line, never a traceback
        _silence_stdout()
        where = f"{exc.filename}: " if exc.filename else "standard output: "
        print(f"cuesim: error: cannot write {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    finally:
        if closed:  # main called in-process leaves sys.stdout as it found it
            sys.stdout = None  # type: ignore[assignment]


def run() -> None:
    """The `cuesim` command (and `python -m cuesim`): `main` on the process's arguments, then
    the exit. What the process made goes to the collector's permanent generation first
    (`gc.freeze`), so Python's final collections at exit skip it: they walked numba's objects
    for 0.09-0.2 s of every command, against 0.01-0.02 s now. Nothing written waits on them:
    `main` flushes standard output and every file is closed where it is written. (Objects in
    reference cycles are not finalized at exit then, which Python never promised.) Atexit
    handlers run as before."""
    status = main()
    gc.freeze()
    sys.exit(status)


class _ClosedOutput(io.TextIOBase):
    """Standard output when the process started without one: a command fails on its first
    write with one line (EBADF, exit 2) instead of its output vanishing; what it wrote before
    (a batch's file, written before its closing report) is whole."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "it is closed")


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's final flush of what could not
    be written raises nothing more (the idiom of Python's signal documentation)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    run()
