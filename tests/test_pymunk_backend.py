"""Cross-checks of the exact core against the time-stepped pymunk backend on simple shots.

pymunk is the reference baseline, not the truth: it finds impacts up to one step late, so its
final positions approach the exact ones as the step shrinks.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from cuesim import Layout, NovusShot, Piece, novus_singles_layout, novus_table, simulate
from cuesim.sim import SimulationError, run_motion
from cuesim.sim.pymunk_backend import (
    PymunkScene,
    _factorise,
    run_motion_pymunk,
    simulate_pymunk,
)

TABLE = novus_table()
# striker-puck restitution differs from puck-puck and rail: no per-shape factorisation exists
HANDLER_TABLE = novus_table(TABLE.physics.with_(e_striker_puck=0.9, mu_impact=0.3))
DT_LARGE, DT_SMALL = 1e-3, 1e-4


def _layout(*pucks: tuple[str, float, float]) -> Layout:
    return Layout("novus", tuple(Piece(pid, "puck", x, y) for pid, x, y in pucks))


def _max_error(exact: Layout, stepped: Layout) -> float:
    """Largest distance between a piece's final position in the two layouts (m)."""
    assert sorted(exact.ids()) == sorted(stepped.ids())
    where = {p.id: (p.x, p.y) for p in exact.pieces}
    return max((math.dist(where[p.id], (p.x, p.y)) for p in stepped.pieces), default=0.0)


# -- free sliding -----------------------------------------------------------------------------
@pytest.mark.parametrize("speed, heading", [(1.0, 0.0), (1.5, 0.3)])
def test_lone_puck_stops_at_closed_form_distance(speed: float, heading: float) -> None:
    a = TABLE.physics.mu_puck * TABLE.physics.g
    d = speed**2 / (2.0 * a)
    x0, y0 = 0.1, 0.3
    layout = _layout(("p", x0, y0))
    v = (speed * math.cos(heading), speed * math.sin(heading), 0.0)
    errors = []
    for dt in (DT_LARGE, DT_SMALL):
        res = run_motion_pymunk(TABLE, layout, {"p": v}, dt=dt)
        assert not res.truncated and res.pocketed == []
        p = res.final.get("p")
        assert math.atan2(p.y - y0, p.x - x0) == pytest.approx(heading, abs=1e-12)
        err = abs(math.hypot(p.x - x0, p.y - y0) - d)
        assert err <= a * dt * dt  # staggered kicks: exact up to the last, partial step
        assert abs(res.time - speed / a) <= dt
        errors.append(err)
    assert errors[1] <= errors[0]
    exact = run_motion(TABLE, layout, {"p": v}).final.get("p")
    assert math.hypot(exact.x - x0, exact.y - y0) == pytest.approx(d, abs=1e-12)


def test_spin_decays_and_the_run_ends() -> None:
    res = run_motion_pymunk(TABLE, _layout(("p", 0.5, 0.5)), {"p": (0.0, 0.0, 30.0)}, dt=1e-3)
    alpha = TABLE.kind_coefficients().spin_decel[1]
    assert not res.truncated
    assert res.time == pytest.approx(30.0 / alpha, abs=2e-3)
    assert res.final.get("p").x == 0.5 and res.final.get("p").y == 0.5


def test_head_on_equal_discs_with_restitution_one_exchange_velocities() -> None:
    table = novus_table(TABLE.physics.with_(e_puck_puck=1.0))
    layout = _layout(("a", 0.2, 0.5), ("b", 0.4, 0.5))
    for dt in (DT_LARGE, DT_SMALL):
        res = run_motion_pymunk(table, layout, {"a": (1.0, 0.0, 0.0)}, dt=dt)
        a, b = res.final.get("a"), res.final.get("b")
        assert a.x == pytest.approx(0.37, abs=1.1 * dt)  # stopped where it touched b
        # b carries on where a left off: the two paths add up to v^2 / (2 mu g)
        assert b.x == pytest.approx(0.2 + 0.03 + 1.0 / (2 * 0.15 * TABLE.physics.g),
                                    abs=1.1 * dt)


# -- pocketing --------------------------------------------------------------------------------
def _straight_at_hole(speed: float) -> tuple[Layout, NovusShot]:
    """Striker, one puck halfway and the north-west hole's centre on one line."""
    u, w = 0.4, sum(TABLE.striker_strip()[1]) / 2
    sx, sy = TABLE.to_table("south", u, w)
    hole = next(h for h in TABLE.geometry.holes if h.name == "north_west")
    angle = math.atan2(hole.y - sy, hole.x - sx)
    half = 0.5 * math.hypot(hole.x - sx, hole.y - sy)
    layout = _layout(("p1", sx + half * math.cos(angle), sy + half * math.sin(angle)))
    return layout, NovusShot(x=u, y=w, angle=angle, speed=speed)


@pytest.mark.parametrize("speed, expected", [(2.5, {"p1", "striker"}), (1.8, {"p1"}),
                                             (1.2, set())])
def test_straight_shot_at_a_hole_pockets_the_same_pieces(speed: float, expected: set) -> None:
    layout, shot = _straight_at_hole(speed)
    exact = simulate(TABLE, layout, shot)
    assert set(exact.pocketed) == expected
    for dt in (DT_LARGE, DT_SMALL):
        stepped = simulate_pymunk(TABLE, layout, shot, dt=dt)
        assert stepped.pocketed == exact.pocketed
        assert sorted(stepped.final.ids()) == sorted(exact.final.ids())


# -- final positions converge as the step shrinks ---------------------------------------------
SHOTS = {
    "head_on": (TABLE, _layout(("p1", 0.5, 0.5)), NovusShot(x=0.5, angle=math.pi / 2,
                                                             speed=2.0)),
    "cut": (TABLE, _layout(("p1", 0.51, 0.5)), NovusShot(x=0.5, angle=math.pi / 2, speed=2.0)),
    "cut_with_spin": (TABLE, _layout(("p1", 0.51, 0.5)),
                      NovusShot(x=0.5, angle=math.pi / 2, speed=2.0, offset=-0.01)),
    "two_pucks": (TABLE, _layout(("p1", 0.5, 0.4), ("p2", 0.55, 0.62)),
                  NovusShot(x=0.5, angle=math.pi / 2, speed=2.0)),
    "rail_bounce": (TABLE, _layout(), NovusShot(x=0.3, angle=1.2, speed=2.5)),
    "rail_bounce_spin": (TABLE, _layout(), NovusShot(x=0.3, angle=1.2, speed=2.5,
                                                     offset=0.01)),
    "pair_handler": (HANDLER_TABLE, _layout(("p1", 0.5, 0.4), ("p2", 0.55, 0.62)),
                     NovusShot(x=0.5, angle=math.pi / 2, speed=2.0)),
}


@pytest.mark.parametrize("name", list(SHOTS))
def test_final_positions_approach_the_exact_ones(name: str) -> None:
    table, layout, shot = SHOTS[name]
    exact = simulate(table, layout, shot)
    assert exact.n_events > 2
    errors = []
    for dt in (DT_LARGE, DT_SMALL):
        stepped = simulate_pymunk(table, layout, shot, dt=dt)
        assert not stepped.truncated
        assert stepped.pocketed == exact.pocketed
        errors.append(_max_error(exact.final, stepped.final))
    assert errors[1] < errors[0]
    assert errors[1] < 2e-3


def test_run_motion_pymunk_takes_the_same_initial_dict() -> None:
    """A puck sent into the east rail at an angle, with spin, and on into a second puck."""
    layout = _layout(("a", 0.6, 0.3), ("b", 0.91, 0.66))
    initial = {"a": (1.2, 0.9, -20.0)}
    exact = run_motion(TABLE, layout, initial)
    kinds = [e.kind.name for e in exact.event_log()]
    assert kinds.index("RAIL") < kinds.index("COLLIDE")
    errors = [_max_error(exact.final, run_motion_pymunk(TABLE, layout, initial, dt=dt).final)
              for dt in (DT_LARGE, DT_SMALL)]
    assert errors[1] < errors[0]
    assert errors[1] < 2e-3


# -- the opening and the set-up ---------------------------------------------------------------
def test_opening_shot_runs_to_rest_and_removes_pocketed_pucks() -> None:
    layout = novus_singles_layout(TABLE)
    res = simulate_pymunk(TABLE, layout, NovusShot(x=0.5, angle=math.pi / 2, speed=6.0))
    assert not res.truncated and res.steps == round(res.time / res.dt)
    assert len(res.final) + len(res.pocketed) == len(layout)
    assert not set(res.pocketed) & set(res.final.ids())
    TABLE.check_layout(res.final)


def test_restitution_and_friction_factorise_into_shape_values() -> None:
    c = TABLE.kind_coefficients()
    e, e_rail = np.array(c.e_pair), np.array(c.e_rail)
    shapes, rail = _factorise(e, e_rail, [1, 16])
    assert shapes[1] == pytest.approx(math.sqrt(e[1, 1]))
    assert shapes[0] * shapes[1] == pytest.approx(e[0, 1])
    assert shapes[0] * rail == pytest.approx(e_rail[0])
    h = HANDLER_TABLE.kind_coefficients()
    assert _factorise(np.array(h.e_pair), np.array(h.e_rail), [1, 16]) is None
    layout = _layout(("p1", 0.5, 0.4), ("p2", 0.55, 0.62))
    assert not PymunkScene(HANDLER_TABLE, layout, {}).pair_handler  # no striker: factorises
    layout = layout.with_piece(Piece("striker", "striker", 0.5, 0.07))
    assert not PymunkScene(TABLE, layout, {}).pair_handler
    assert PymunkScene(HANDLER_TABLE, layout, {}).pair_handler


def test_bad_input_is_named() -> None:
    layout = _layout(("p", 0.5, 0.5))
    with pytest.raises(SimulationError, match="no piece 'q'"):
        run_motion_pymunk(TABLE, layout, {"q": (1.0, 0.0, 0.0)})
    with pytest.raises(SimulationError, match="must be 3 finite numbers"):
        run_motion_pymunk(TABLE, layout, {"p": (math.nan, 0.0, 0.0)})
    with pytest.raises(SimulationError, match="dt"):
        run_motion_pymunk(TABLE, layout, {"p": (1.0, 0.0, 0.0)}, dt=0.0)
    # a step or a time that would not end in useful time (1e-12 s: 3e13 steps)
    with pytest.raises(SimulationError, match=r"dt must be a number of seconds in \[1e-06"):
        run_motion_pymunk(TABLE, layout, {"p": (1.0, 0.0, 0.0)}, dt=1e-12)
    with pytest.raises(SimulationError, match="max_time must be"):
        run_motion_pymunk(TABLE, layout, {"p": (1.0, 0.0, 0.0)}, max_time=1e30)
    with pytest.raises(SimulationError, match="plays a NovusShot"):
        simulate_pymunk(TABLE, layout, "north")
