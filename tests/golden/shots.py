"""The golden shots: a few whole shots per game whose outcome is stored in golden_shots.json
(tests/test_golden_shots.py compares). They pin what the physics does end to end, so that any
change to it (a coefficient, a model, the event loop) is seen and reviewed: after a deliberate
change, regenerate the file with

    python -m tests.golden.regenerate

and commit it with the change that moved it (the diff shows which shots moved and how far).
Each shot is cheap (milliseconds once the core is compiled)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cuesim import CueShot, NovusShot, simulate, start_layout
from cuesim.api import game_table
from cuesim.sim.result import ShotResult
from cuesim.tables.layout import Layout, Piece

POSITION_TOL = 1e-9  # m: the rest positions agree to this


@dataclass(frozen=True)
class GoldenShot:
    name: str
    game: str
    build: Callable[[], tuple[Any, Layout, NovusShot | CueShot]]

    def run(self) -> ShotResult:
        table, layout, shot = self.build()
        return simulate(table, layout, shot)


def _start(game: str, shot: NovusShot | CueShot) -> Callable[[], tuple[Any, Layout, Any]]:
    return lambda: (game_table(game), start_layout(game, game_table(game)), shot)


def _one_ball(x: float, y: float, shot: CueShot) -> Callable[[], tuple[Any, Layout, Any]]:
    table = game_table("9-ball")
    return lambda: (table, Layout(table.name, (Piece("cue", "ball", x, y),)), shot)


def _toward(x0: float, y0: float, x1: float, y1: float) -> float:
    return math.atan2(y1 - y0, x1 - x0)


SHOTS: list[GoldenShot] = [
    # novus: the README's opening shot, and a cut with spin into the rows
    GoldenShot("novus_opening", "novus", _start("novus", NovusShot(x=0.5, angle=math.pi / 2,
                                                                   speed=6.0))),
    GoldenShot("novus_angled_spin", "novus", _start("novus", NovusShot(
        x=0.3, angle=math.radians(75.0), speed=4.0, offset=0.006))),
    GoldenShot("novus_doubles_opening", "novus-doubles", _start("novus-doubles", NovusShot(
        x=0.45, angle=math.radians(88.0), speed=5.0))),
    # pool: a ball alone struck at 2 m/s into the head rail and back (the cushion's restitution
    # decides where it stops), the 9-ball and 8-ball breaks, a soft 14.1 break with english
    # (the cue ball scratches)
    GoldenShot("pool_head_rail_bank", "9-ball", _one_ball(0.635, 0.5, CueShot(
        angle=-math.pi / 2, speed=2.0))),
    GoldenShot("nine_ball_break", "9-ball", _start("9-ball", CueShot(
        angle=_toward(0.635, 0.6, 0.635, 1.905), speed=8.0, position=(0.635, 0.6)))),
    GoldenShot("eight_ball_break_with_english", "8-ball", _start("8-ball", CueShot(
        angle=_toward(0.3, 0.5, 0.635, 1.905), speed=9.0, side=0.2, height=0.1,
        position=(0.3, 0.5)))),
    GoldenShot("straight_pool_soft_break_scratch", "14.1", _start("14.1", CueShot(
        angle=_toward(0.9, 0.55, 0.72, 1.95), speed=3.0, side=-0.3, position=(0.9, 0.55)))),
    # 5-pins: through the pins at the opponent's ball, and a carom with draw from the side
    GoldenShot("fivepins_through_the_pins", "5-pins", _start("5-pins", CueShot(
        ball="white", angle=math.pi / 2, speed=3.0, position=(0.71, 0.5)))),
    GoldenShot("fivepins_carom_with_draw", "5-pins", _start("5-pins", CueShot(
        ball="white", angle=_toward(0.3, 0.71, 0.71, 2.74) + 0.03, speed=4.0, height=-0.3,
        side=0.2))),
]


def outcome(result: ShotResult) -> dict[str, Any]:
    """What the golden file stores of a shot: where every piece still on the table came to
    rest, what was pocketed (in order), the number of events and of each kind, the duration."""
    final = result.final
    kinds: dict[str, int] = {}
    for e in result.event_log():
        kinds[e.kind.name] = kinds.get(e.kind.name, 0) + 1
    return {
        "rest": {p.id: [p.x, p.y] for p in final.pieces},
        "pocketed": list(result.pocketed),
        "n_events": result.n_events,
        "event_kinds": dict(sorted(kinds.items())),
        "duration": result.duration,
    }
