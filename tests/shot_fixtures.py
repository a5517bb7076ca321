"""A few whole shots shared by the research-interface tests (sampling, files, plots): a 9-ball
break that pockets balls, a novus opening with spin, a 5-pins shot through the pins."""

from __future__ import annotations

import math
import warnings
from functools import cache

from cuesim import CueShot, NovusShot, ShotResult, simulate, start_layout
from cuesim.api import game_table


@cache
def nine_ball_break() -> ShotResult:
    table = game_table("9-ball")
    layout = start_layout("9-ball", table)
    cue, apex = layout.get("cue"), layout.get("1")
    aim = math.atan2(apex.y - cue.y, apex.x - cue.x)
    return simulate(table, layout, CueShot(angle=aim, speed=7.0, height=0.2))


@cache
def novus_opening() -> ShotResult:
    table = game_table("novus")
    return simulate(table, start_layout("novus", table),
                    NovusShot(x=0.45, angle=1.45, speed=6.0, offset=0.005))


@cache
def five_pins_shot() -> ShotResult:
    table = game_table("5-pins")
    return simulate(table, start_layout("5-pins", table),
                    CueShot(angle=math.radians(60), speed=3.0, side=0.2, ball="white"))


@cache
def truncated_break() -> ShotResult:
    """A 9-ball break stopped at the event limit (5 events): its pieces still move."""
    table = game_table("9-ball")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return simulate(table, start_layout("9-ball", table), CueShot(angle=1.5, speed=7.0),
                        max_events=5)


ALL = (nine_ball_break, novus_opening, five_pins_shot)
