"""Pool pockets drop a ball at the fall line: the edge of the slate's pocket cut, the WPA shelf
behind the middle of the mouth line. A ball whose centre crosses it is pocketed at that
instant (an exact root); one that stops short of it hangs on the shelf; none ever rests in a
throat past it (issue 12, item 6)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuesim.sim import EventKind, run_motion
from cuesim.sim.cue import strike
from cuesim.sim.detect.holes import hole_time
from cuesim.tables import cue_ball_in_kitchen, eight_ball_rack, pool_table
from cuesim.tables.layout import Layout, LayoutError, Piece
from cuesim.tables.pool import CORNER_SHELF, INCH, SIDE_SHELF
from tests.profiles import examples

POOL = pool_table()
R = POOL.piece_spec("ball").radius
ROLL_DECEL = POOL.physics.mu_roll * POOL.physics.g  # m/s^2, a rolling ball's deceleration


def _mouth(p) -> tuple[float, float]:
    return (p.lip_a[0] + p.lip_b[0]) / 2, (p.lip_a[1] + p.lip_b[1]) / 2


def roll_in(pocket_name: str, offset: float, stop_depth: float, run_up: float = 0.25):
    """A ball rolling straight along the pocket's axis, `offset` m to the side of it, from
    `run_up` m in front of the mouth line, at the speed that (left alone) stops it exactly
    `stop_depth` m behind the mouth line: v^2 = 2 mu_r g (run_up + stop_depth)."""
    p = POOL.pocket(pocket_name)
    ax, ay = p.axis
    mx, my = _mouth(p)
    x0 = mx - run_up * ax - offset * ay
    y0 = my - run_up * ay + offset * ax
    v = math.sqrt(2.0 * ROLL_DECEL * (run_up + stop_depth))
    lay = Layout(POOL.name, (Piece("1", "ball", x0, y0),))
    return p, run_motion(POOL, lay, {"1": (v * ax, v * ay, -v * ay / R, v * ax / R, 0.0)})


def kinds(res) -> list[EventKind]:
    return [EventKind(int(k)) for k in res.events[:, 1]]


# --- geometry ---------------------------------------------------------------------------------
@pytest.mark.parametrize("size", ["9ft", "8ft", "7ft"])
def test_fall_line_at_the_shelf_between_the_jaws(size):
    t = pool_table(size)
    rails = {r.name: r for r in t.geometry.rails}
    for p in t.pockets:
        hole = p.capture
        x0, y0, x1, y1 = hole.fall
        # parallel to the mouth line, the WPA shelf behind its middle
        assert p.depth(x0, y0) == pytest.approx(p.shelf, abs=1e-12)
        assert p.depth(x1, y1) == pytest.approx(p.shelf, abs=1e-12)
        mx, my = _mouth(p)
        assert p.depth(mx, my) == pytest.approx(0.0, abs=1e-15)
        lo, hi = (1.0 * INCH, 2.25 * INCH) if p.kind == "corner" else (0.0, 0.375 * INCH)
        assert lo <= p.shelf <= hi
        assert p.shelf == (CORNER_SHELF if p.kind == "corner" else SIDE_SHELF)
        # the normal faces the table; the opening circle lies behind, touching it on the axis
        nx, ny = hole.fall_normal()
        assert nx * p.axis[0] + ny * p.axis[1] == pytest.approx(-1.0)
        assert p.depth(hole.x, hole.y) - hole.radius == pytest.approx(p.shelf)
        # its ends lie on the two jaw faces, and the jaws run on past it by over a radius
        for end in ((x0, y0), (x1, y1)):
            on_jaw = []
            for s in "ab":
                jaw = rails[f"{p.name}_jaw_{s}"]
                jx, jy = jaw.normal()
                on_jaw.append(abs(jx * (end[0] - jaw.x0) + jy * (end[1] - jaw.y0)) < 1e-12)
                assert max(p.depth(jaw.x0, jaw.y0), p.depth(jaw.x1, jaw.y1)) > p.shelf + R
            assert sum(on_jaw) == 1
        assert math.dist((x0, y0), (x1, y1)) > 2 * R  # a ball fits through


def test_hole_contains_past_the_fall_line_only():
    for p in POOL.pockets:
        mx, my = _mouth(p)
        ax, ay = p.axis
        for depth, over in ((p.shelf - 1e-6, False), (p.shelf + 1e-6, True), (0.0, False)):
            assert p.beyond_fall_line(mx + depth * ax, my + depth * ay) is over
        assert not p.beyond_fall_line(POOL.width / 2, POOL.length / 2)


def test_a_layout_past_the_fall_line_is_refused_and_one_on_the_shelf_accepted():
    p = POOL.pocket("foot_right")
    mx, my = _mouth(p)
    ax, ay = p.axis
    on_shelf = Layout(POOL.name, (Piece("1", "ball", mx + (p.shelf - 1e-4) * ax,
                                        my + (p.shelf - 1e-4) * ay),))
    POOL.check_layout(on_shelf)
    past = Layout(POOL.name, (Piece("1", "ball", mx + (p.shelf + 1e-4) * ax,
                                    my + (p.shelf + 1e-4) * ay),))
    with pytest.raises(LayoutError, match="'1'"):
        POOL.check_layout(past)


def test_a_ball_in_a_mouth_reaching_past_the_cushion_line_is_on_the_table():
    """Found by the random breaks: a ball resting in a side pocket's mouth, its centre in
    front of the mouth line but within a radius of it, was refused as 'not wholly inside the
    cushion noses'. In front of the fall line and clear of the rubber it is on the table."""
    p = POOL.pocket("side_right")
    mx, my = _mouth(p)
    ax, ay = p.axis
    lx, ly = -ay, ax
    for depth, lateral, legal in ((-0.0205, 0.0157, True), (0.002, 0.03, True),
                                  (-0.0205, 0.055, False),  # into the knuckle
                                  (0.002, 0.08, False),  # inside the rubber behind a jaw
                                  (0.006, 0.0, False)):  # past the fall line: it drops
        x, y = mx + depth * ax + lateral * lx, my + depth * ay + lateral * ly
        assert POOL.in_throat(x, y, R) is legal, (depth, lateral)
        lay = Layout(POOL.name, (Piece("9", "ball", x, y),))
        if legal:
            POOL.check_layout(lay)
        else:
            with pytest.raises(LayoutError):
                POOL.check_layout(lay)


# --- detection --------------------------------------------------------------------------------
def test_hole_time_fall_line_root_and_extent():
    """The crossing is the root of n . p(tau) - c = 0; a path that crosses the fall line's
    infinite line outside the segment is not captured; a centre already past it is at once."""
    holes = POOL.geometry.hole_array()
    k = [h.name for h in POOL.geometry.holes].index("side_left")
    p = POOL.pocket("side_left")  # axis -x: the fall line is x = -shelf
    y = POOL.length / 2
    # straight in at 1 m/s, decelerating at 0.5 m/s^2 from x = 0.05: x(t) = 0.05 - t + t^2/4
    tau, hit = hole_time(0.05, y, -1.0, 0.0, 0.5, 0.0, True, 1.0, 1.0, holes)
    c = 0.05 + p.shelf  # 0.25 t^2 - t + c = 0
    assert hit == k and tau == pytest.approx((1.0 - math.sqrt(1.0 - c)) / 0.5, rel=1e-12)
    # the same motion 0.2 m along the rail crosses x = -shelf beside the pocket: no capture
    tau, hit = hole_time(0.05, y + 0.2, -1.0, 0.0, 0.5, 0.0, True, 1.0, 1.0, holes)
    assert hit == -1 and tau == math.inf
    # already past the fall line, moving out again: captured now
    tau, hit = hole_time(-p.shelf - 1e-6, y, 1.0, 0.0, -0.5, 0.0, True, 1.0, 1.0, holes)
    assert (tau, hit) == (0.0, k)


# --- rolling in ---------------------------------------------------------------------------------
@pytest.mark.parametrize("pocket, offset", [
    ("head_left", 0.0), ("head_left", 0.02), ("foot_right", -0.02), ("head_right", 0.015),
    ("side_left", 0.0), ("side_right", 0.01), ("side_left", -0.01),
])
def test_rolling_slowly_past_the_fall_line_drops(pocket, offset):
    """Left alone the ball would stop 3 mm past the fall line; it drops the instant its centre
    reaches it (before, with the capture circle, a ball 20 mm off a corner's axis rested
    there: the circle's front bends ~4 mm back)."""
    p, res = roll_in(pocket, offset, POOL.pocket(pocket).shelf + 0.003)
    assert kinds(res) == [EventKind.POCKET]
    assert res.pocketed == ["1"] and not res.final_on[0]
    t_drop = float(res.events[0, 0])
    pos, _ = res.positions_at(math.nextafter(t_drop, 0.0))
    assert p.depth(*pos[0]) == pytest.approx(p.shelf, abs=1e-9)


@pytest.mark.parametrize("pocket, offset", [
    ("head_left", 0.0), ("head_left", 0.02), ("foot_left", -0.02),
    ("side_left", 0.0), ("side_right", -0.01),
])
def test_stopping_short_of_the_fall_line_hangs_on_the_shelf(pocket, offset):
    p = POOL.pocket(pocket)
    stop = 0.5 * p.shelf  # behind the mouth line, short of the slate's edge
    p, res = roll_in(pocket, offset, stop)
    assert kinds(res) == [EventKind.STOP]
    assert res.final_on[0]
    x, y = res.final_positions[0]
    assert p.depth(x, y) == pytest.approx(stop, abs=1e-9)
    assert POOL.in_throat(x, y, R)
    POOL.check_layout(res.final)  # a legal position to play on from


@settings(max_examples=examples(40), deadline=None)
@given(pocket=st.sampled_from(["head_left", "head_right", "side_left", "side_right",
                               "foot_left", "foot_right"]),
       lateral=st.floats(-1.0, 1.0), past=st.floats(-0.02, 0.02))
def test_pocketed_exactly_when_the_free_stop_lies_past_the_fall_line(pocket, lateral, past):
    """A straight roll into the throat (clear of the jaws): pocketed if and only if, left
    alone, it would stop past the fall line; otherwise it rests where the closed form says."""
    p = POOL.pocket(pocket)
    reach = 0.018 if p.kind == "corner" else 0.030  # clear of the jaws up to the fall line
    if abs(past) < 1e-7:  # the rounding band of the boundary itself
        past = 1e-7
    stop = max(p.shelf + past, 1e-4)
    p, res = roll_in(pocket, lateral * reach, stop)
    if stop > p.shelf:
        assert res.pocketed == ["1"]
    else:
        assert res.final_on[0]
        assert p.depth(*res.final_positions[0]) == pytest.approx(stop, abs=1e-9)
    assert EventKind.RAIL not in kinds(res)


# --- random breaks ------------------------------------------------------------------------------
def test_no_ball_rests_past_a_fall_line_after_random_breaks():
    """80 random 8-ball breaks (as bench/breaks.py plays them: cue ball anywhere behind the
    head string, 4-12 m/s at the apex, +-0.5 degree aim error): no ball at rest past any
    pocket's fall line, and every final layout is a legal one."""
    rng = np.random.default_rng(12)
    table, ball = POOL, POOL.piece_spec("ball")
    fx, fy = table.foot_spot
    vx1, vy1 = strike(ball, 1.0, 0.0)[:2]
    past = 0
    for _ in range(80):
        cue = cue_ball_in_kitchen(table, x=float(rng.uniform(R, table.width - R)),
                                  y=float(rng.uniform(R, table.head_string_y - 1e-6)))
        layout = eight_ball_rack(table, rng=rng, cue=cue)
        phi = math.atan2(fy - cue.y, fx - cue.x) + float(rng.uniform(-0.0087, 0.0087))
        speed = float(rng.uniform(4.0, 12.0)) / math.hypot(vx1, vy1)
        res = run_motion(table, layout, {"cue": strike(ball, speed, phi)}, struck="cue")
        assert not res.truncated
        for (x, y), on in zip(res.final_positions, res.final_on, strict=True):
            if on:
                past += any(p.beyond_fall_line(float(x), float(y)) for p in table.pockets)
        table.check_layout(res.final)
    assert past == 0
