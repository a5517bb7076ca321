"""`cuesim play GAME`: play a game in the pygame viewer (two players on one screen, or one
against the computer), or render its opening screen to a PNG with --screenshot."""

from __future__ import annotations

import argparse
import os
import sys

from cuesim.api import GAME_NAMES
from cuesim.commands import (
    MAX_CANDIDATES,
    PHYSICS_HELP,
    at_most,
    end_mass_grams,
    impact_steps,
    physics_conflict,
    whole_number,
    with_physics_options,
)
from cuesim.output import OutputError, check_writable, remove_partial, same_file
from cuesim.rules.api_checks import MAX_MATCH
from cuesim.viewer.ai.levels import DEFAULT_LEVEL, LEVELS
from cuesim.viewer.savefile import CUE_GAMES

NO_DISPLAY = (
    "cuesim play: no display found (DISPLAY / WAYLAND_DISPLAY are unset), so no window can "
    "open. Headless alternatives:\n"
    "  cuesim play GAME --screenshot FILE.png   render the opening screen to a PNG\n"
    "  xvfb-run cuesim play GAME                 play on a virtual display\n"
    "  cuesim shoot GAME --speed 3 ...           simulate one shot in the terminal\n"
    "  cuesim adjudicate SCENARIO.json           rule on an event log"
)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("play", help="play a game in the pygame viewer",
                              description="Play a game of novus, pool or 5-pins in a window.")
    p.add_argument("game", help=f"one of: {', '.join(GAME_NAMES)}")
    p.add_argument("--vs-computer", action="store_true",
                   help="the second player (pair) is the computer")
    p.add_argument("--load", metavar="FILE", help="continue a game saved with F5 (JSON)")
    p.add_argument("--screenshot", metavar="FILE.png",
                   help="render the opening screen to a PNG and exit (works without a display)")
    p.add_argument("--players", nargs="+", metavar="NAME",
                   help="player names (2; novus doubles 4: a1 a2 b1 b2)")
    p.add_argument("--sets", type=at_most(MAX_MATCH), default=None,
                   help="novus: sets in the match (default 1)")
    p.add_argument("--race-to", type=at_most(MAX_MATCH), default=None,
                   help="pool: games to win (default 1)")
    p.add_argument("--points-to", type=at_most(MAX_MATCH), default=None,
                   help="14.1 / 5-pins: points to win a game (default 25 / 60)")
    p.add_argument("--games", type=at_most(MAX_MATCH), default=None,
                   help="5-pins: games in the match, an odd number (WCBS 2; default 1)")
    p.add_argument("--level", choices=list(LEVELS), default=None,
                   help=f"the computer's level: its execution error and search (default "
                        f"{DEFAULT_LEVEL})")
    p.add_argument("--candidates", type=at_most(MAX_CANDIDATES), default=None,
                   help="candidate shots the computer simulates before it plays (default: "
                        "its level's, 60 / 150 / 300)")
    p.add_argument("--seed", type=whole_number, default=None,
                   help="seed of the computer's execution error: the same seed and moves "
                        "replay the same game (default 0)")
    p.add_argument("--impact-steps", type=impact_steps, default=None, metavar="N",
                   help="the multiple impact's resolution in steps per contact time scale, "
                        "for the game's shots and the computer's (default 20; a new game "
                        "only: a saved game keeps its own)")
    p.add_argument("--end-mass", type=end_mass_grams, default=None, metavar="GRAMS",
                   help="ball games: the cue's effective end mass in grams, which sets the "
                        "squirt of side english, for the game's shots and the computer's "
                        "(default 5.7, a standard shaft; 0: none; a new game only)")
    p.add_argument("--physics", action="append", default=None, metavar="NAME=VALUE",
                   help=PHYSICS_HELP + "; for the game's shots and the computer's (a new game "
                        "only: a saved game keeps its own)")
    p.add_argument("--save", metavar="FILE", default=None,
                   help="where F5 saves and F9 loads (default: --load FILE or cuesim-save.json)")
    p.set_defaults(handler=run)


# the options of a new match, and the games that have them
MATCH_OPTIONS = {"sets": ("novus", "novus-doubles"), "race_to": ("8-ball", "9-ball", "14.1"),
                 "points_to": ("14.1", "5-pins"), "games": ("5-pins",), "end_mass": CUE_GAMES}
NEW_GAME_ONLY = ("players", "vs_computer", "sets", "race_to", "points_to", "games",
                 "impact_steps", "end_mass", "physics")


def _check_options(args: argparse.Namespace) -> None:
    """Refuse an option the game does not have (--sets for 9-ball) and, with --load, the
    options of a new game (the saved game keeps its own players, match and physics)."""
    for name, games in MATCH_OPTIONS.items():
        if getattr(args, name) is not None and args.game not in games:
            raise ValueError(f"--{name.replace('_', '-')} is an option of "
                             f"{', '.join(games)}, not of {args.game}")
    if args.games is not None and args.games % 2 == 0:
        raise ValueError(f"--games must be odd (WCBS 2: a match of 1, 3, 5... games), got "
                         f"{args.games}")
    if args.physics and not args.load:  # checked before any window opens
        _physics_changes(args)
    if args.load:
        given = [n for n in NEW_GAME_ONLY if getattr(args, n) not in (None, False)]
        if given:
            opt = "--" + given[0].replace("_", "-")
            raise ValueError(f"{opt} sets up a new game; a saved game (--load) is replayed "
                             "with its own players, match and physics")


# the computer player's options: a game without one takes them only if F9 loads one with it
COMPUTER_OPTIONS = ("level", "candidates", "seed")


def _computer_options_note(args: argparse.Namespace, computer: tuple[str, ...]) -> str | None:
    """A note for --level, --candidates or --seed given to a game without a computer player:
    nothing plays by them unless F9 loads a saved game that has one."""
    given = [n for n in COMPUTER_OPTIONS if getattr(args, n) is not None]
    if computer or not given:
        return None
    opts = ", ".join("--" + n for n in given)
    return (f"{opts} set{'s' if len(given) == 1 else ''} the computer player, and this game has "
            "none (add --vs-computer); "
            f"{'it applies' if len(given) == 1 else 'they apply'} only if F9 loads a game "
            "with one")


def _physics_changes(args: argparse.Namespace) -> dict[str, float]:
    """--physics NAME=VALUE as the session's `physics` option: the coefficients changed,
    each checked (ValueError naming it)."""
    import dataclasses

    from cuesim.api import game_table

    if args.impact_steps is not None and physics_conflict(args.physics, "impact_steps"):
        raise ValueError("--impact-steps and --physics impact_steps=... both set the impact's "
                         "resolution: give one")
    table = game_table(args.game)
    changed = with_physics_options(table, args.physics).physics
    return {f.name: getattr(changed, f.name) for f in dataclasses.fields(changed)
            if any(spec.partition("=")[0].strip() == f.name for spec in args.physics)}


def _has_display() -> bool:
    if os.environ.get("SDL_VIDEODRIVER") not in (None, "", "x11", "wayland"):
        return True
    if sys.platform != "linux":
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run(args: argparse.Namespace) -> int:
    if args.game not in GAME_NAMES:
        raise ValueError(f"unknown game {args.game!r}; games are {', '.join(GAME_NAMES)}")
    _check_options(args)
    if args.save is not None:
        check_writable(args.save, "--save")
    if args.screenshot is None and not _has_display():
        print(NO_DISPLAY, file=sys.stderr)
        return 2
    if args.screenshot is not None:
        if not args.screenshot.lower().endswith(".png"):
            raise ValueError(f"--screenshot needs a .png file name, got {args.screenshot!r}")
        check_writable(args.screenshot, "--screenshot")
        for opt in ("--load", "--save"):  # a saved game, never overwritten by a picture
            given = getattr(args, opt.strip("-"))
            if given is not None and same_file(args.screenshot, given):
                raise ValueError(f"--screenshot {args.screenshot!r} is the {opt} file: writing "
                                 "the picture would replace the saved game; give another name")
        if not _has_display():
            os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from cuesim.viewer.app import App
    from cuesim.viewer.session import COMPUTER, load_session, new_session

    if args.load:
        session = load_session(args.load)
        if session.game != args.game:
            raise ValueError(f"--load {args.load}: the saved game is {session.game}, not "
                             f"{args.game}: play it with `cuesim play {session.game} --load "
                             f"{args.load}`")
        if session.load_note:
            print(f"cuesim play: note: {session.load_note}", file=sys.stderr)
    else:
        players = args.players
        n = 4 if args.game == "novus-doubles" else 2
        if players is not None and len(players) != n:
            raise ValueError(f"{args.game} needs {n} player names, got {len(players)}")
        if players is not None:
            from cuesim.rules.api_checks import check_names

            check_names(players, "--players")
        if players is None:
            players = None if not args.vs_computer else (
                ["You", "Partner", COMPUTER, COMPUTER + " 2"] if n == 4 else ["You", COMPUTER])
        computer: tuple[str, ...] = ()
        if args.vs_computer:
            assert players is not None or n == 2
            chosen = players or ["You", COMPUTER]
            computer = tuple(chosen[2:]) if n == 4 else (chosen[1],)
        points = args.points_to or (60 if args.game == "5-pins" else 25)
        options: dict[str, float] = {"sets": args.sets or 1, "race_to": args.race_to or 1,
                                     "points_to": points, "games": args.games or 1}
        if args.impact_steps is not None:
            options["impact_steps"] = args.impact_steps
        if args.end_mass is not None:
            options["end_mass"] = args.end_mass / 1000.0  # grams -> kg
        if args.physics:
            options["physics"] = _physics_changes(args)
        session = new_session(args.game, players, computer, options)
    note = _computer_options_note(args, session.computer)
    if note is not None:
        print(f"cuesim play: note: {note}", file=sys.stderr)
    try:
        app = App(session, candidates=args.candidates, level=args.level or DEFAULT_LEVEL,
                  seed=args.seed or 0,
                  save_path=args.save or args.load or "cuesim-save.json")
    except pygame.error as exc:
        print(f"cuesim play: cannot open a window ({exc}).\n{NO_DISPLAY}", file=sys.stderr)
        return 2
    if args.screenshot is not None:
        app.step([], 0.0)
        try:
            path = app.screenshot(args.screenshot)
        except (pygame.error, OSError) as exc:  # e.g. the disk is full
            remove_partial(args.screenshot)
            why = getattr(exc, "strerror", None) or exc
            raise OutputError(f"--screenshot {args.screenshot!r} could not be written ({why}); "
                              "nothing was saved") from None
        finally:
            pygame.quit()
        print(f"saved {path}")
        return 0
    app.run()
    return 0
