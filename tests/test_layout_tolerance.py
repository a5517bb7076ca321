"""A layout the core leaves is the next shot's: the layout check tolerates what the core's
contact tolerance (TOUCH, 1e-9 m) leaves between resting pieces, and its round-off.

Before, the check allowed 1e-9 m, exactly TOUCH: a cue ball frozen to a cushion and pressing
another ball came to rest 1.00000015e-9 m deep, `result.final` failed the table's check and
the next shot could not be played from it (found by random shots with heavy spin). Since the
multiple impact's cushion contact follows Han's law (2026-12-06), the same shot leaves the
two balls touching to round-off; the depth it used to leave is checked directly below."""

from __future__ import annotations

import math

import pytest

from cuesim import CueShot, Layout, LayoutError, Piece, simulate
from cuesim.sim import run_motion
from cuesim.sim.detect import TOUCH
from cuesim.tables import pool_table
from cuesim.tables.base import LAYOUT_TOLERANCE

TABLE = pool_table("9ft")
R = TABLE.piece_spec("ball").radius


def test_a_ball_pressed_between_a_cushion_and_a_ball_rests_in_a_playable_layout():
    layout = Layout("pool_9ft", (Piece("cue", "ball", 1.241425, 0.7593284073890618, "cue"),
                                 Piece("1", "ball", 1.1931306225672087, 0.7287705583052769,
                                       "solid")))
    res = run_motion(TABLE, layout, {"cue": (0.010435743696512408, 0.008577198887798329,
                                             -10.271797557119157, 6.477890450212755,
                                             9.541806985994548)})
    cue, one = res.final.get("cue"), res.final.get("1")
    depth = 2 * R - math.hypot(cue.x - one.x, cue.y - one.y)
    assert depth < LAYOUT_TOLERANCE  # the core's resting contact (it was a hair past TOUCH)
    TABLE.check_layout(res.final)
    simulate(TABLE, res.final, CueShot(angle=3.0, speed=1.0))


@pytest.mark.parametrize("depth, legal", [(1.00000015 * TOUCH, True), (0.5e-6, True),
                                          (2e-6, False), (1e-3, False)])
def test_an_overlap_is_refused_past_the_tolerance_and_said_in_its_unit(depth, legal):
    layout = Layout("pool_9ft", (Piece("1", "ball", 0.6, 1.0),
                                 Piece("2", "ball", 0.6 + 2 * R - depth, 1.0)))
    if legal:
        TABLE.check_layout(layout)
        return
    shown = f"{depth * 1e6:.3f} um" if depth < 1e-5 else f"{depth * 1000:.3f} mm"
    with pytest.raises(LayoutError, match=f"'1' and '2' overlap by {shown}"):
        TABLE.check_layout(layout)
