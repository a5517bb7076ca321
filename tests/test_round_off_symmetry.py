"""Mirror images of one shot end alike: round-off never decides an outcome along a rail.

Three places where the last bit of a position or a direction decided what happened to a piece
running along a rail it touches (found by a mirror-symmetry hunt, 2026-12-07):
- a rail contact's normal was the difference of the centre and the face's nearest point, so it
  carried round-off across the rail ((-1, 9e-16) on a novus rail): a puck sliding along one
  rail into a corner was driven into that rail by the other's impact, in one mirror image and
  not in the other (`detect.touching.segment_contact` now takes the face's own normal);
- a novus puck frozen to a rail runs exactly tangent to the corner hole (the hole's edge is a
  puck radius from both rails, novus 24.1), and the capture was round-off's: a path within
  `detect.GRAZE` of the circle's edge now grazes it, and drops in;
- a ball running along a cushion with side spin pressed it or not by the round-off of its
  acceleration's direction (plastic or the cushion's restitution in the next impact:
  `resolve.press.PRESS_SHARE`), and a touching cushion closing at 1e-14 m/s sent a head-on
  hit along it to the multiple impact instead of the binary one (`resolve.impact._binary_alone`
  now asks for V_TOUCH, as detection does).
The thresholds are round-off floors, not physics: x10 either way changes nothing here."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from cuesim import Layout, Piece, novus_table, start_layout
from cuesim.sim import run_motion
from cuesim.sim.detect.touching import segment_contact
from cuesim.tables import pool_table
from cuesim.tables.carom import carom_table
from tests.scaled_constants import REPO, same_outcomes

NOVUS = novus_table()
R_PUCK = NOVUS.piece_spec("puck").radius

# the eight mirror images of a puck frozen to the south rail sliding east, each with the map
# that takes its rest back to that frame
EIGHT = {
    "S rail east": (lambda s: ((0.4, R_PUCK), (s, 0.0)), lambda x, y: (x, y)),
    "S rail west": (lambda s: ((0.6, R_PUCK), (-s, 0.0)), lambda x, y: (1 - x, y)),
    "N rail east": (lambda s: ((0.4, 1 - R_PUCK), (s, 0.0)), lambda x, y: (x, 1 - y)),
    "N rail west": (lambda s: ((0.6, 1 - R_PUCK), (-s, 0.0)), lambda x, y: (1 - x, 1 - y)),
    "W rail north": (lambda s: ((R_PUCK, 0.4), (0.0, s)), lambda x, y: (y, x)),
    "W rail south": (lambda s: ((R_PUCK, 0.6), (0.0, -s)), lambda x, y: (1 - y, x)),
    "E rail north": (lambda s: ((1 - R_PUCK, 0.4), (0.0, s)), lambda x, y: (y, 1 - x)),
    "E rail south": (lambda s: ((1 - R_PUCK, 0.6), (0.0, -s)), lambda x, y: (1 - y, 1 - x)),
}


def _novus_rail_run(speed: float) -> list[tuple[bool, float, float, int]]:
    out = []
    for start, back in EIGHT.values():
        (x, y), v = start(speed)
        res = run_motion(NOVUS, Layout("novus", (Piece("a", "puck", x, y),)), {"a": (*v, 0.0)})
        fx, fy = back(*res.final_positions[0])
        rails = sum(e.kind.name == "RAIL" for e in res.event_log())
        out.append((bool(res.final_on[0]), fx, fy, rails))
    return out


@pytest.mark.parametrize("speed", [2.0, 4.0])
def test_novus_24_1_a_puck_along_a_rail_drops_into_the_corner_hole_in_all_eight_images(
        speed: float):
    """Novus 24.1 (the hole's edge 15 mm from both rails: a puck's radius): a puck frozen to
    a rail passes the corner hole's circle exactly tangent, its centre over the edge: a graze,
    which captures (as in the soft reference). All eight images drop into their corner's hole
    at the same point (before: pocketed in some images, and in others rebounding from the
    corner's other rail, some of those driven into their own rail by that impact)."""
    runs = _novus_rail_run(speed)
    assert not any(on for on, *_ in runs)
    assert {rails for *_, rails in runs} == {0}
    xs, ys = np.array([r[1] for r in runs]), np.array([r[2] for r in runs])
    assert np.ptp(xs) < 1e-9 and np.ptp(ys) < 1e-9


def test_a_rail_contact_on_its_face_takes_the_faces_own_normal():
    """On the face the contact's normal is exactly the rail's (negated: from the piece toward
    the rail) and its gap the distance from the rail's line; past an end it is the end
    point's."""
    rail = NOVUS.geometry.rail_array()[3]  # the west rail, (0, 1) to (0, 0)
    gap, nx, ny = segment_contact(R_PUCK, R_PUCK, R_PUCK, rail)
    assert (gap, nx, ny) == (0.0, -rail[4], -rail[5])
    gap, nx, ny = segment_contact(0.02, -0.01, R_PUCK, rail)  # below its end (0, 0)
    assert math.isclose(nx, -0.02 / math.hypot(0.02, 0.01)) and ny > 0.0


def _carom_corner(x: float, sign: float) -> tuple[float, float, int]:
    table = carom_table()
    lt = start_layout("5-pins", table).table
    r, w = table.piece_spec("ball").radius, table.geometry.width
    vx = 3.0 * sign  # rolling along the bottom cushion, side spin mirrored
    res = run_motion(table, Layout(lt, (Piece("white", "ball", x, r),)),
                     {"white": (vx, 0.0, 0.0, vx / r, 5.0 * sign)})
    fx, fy = res.final_positions[0]
    return (fx if sign > 0 else w - fx), fy, res.n_events


def test_a_ball_along_a_cushion_into_either_corner_ends_alike():
    """5-pins table: a ball rolling along the bottom cushion it touches, with side spin, into
    the right corner and its mirror image into the left end within a nanometre (before: 27 mm
    apart; the touching cushion's contact was plastic in one and the cushion's restitution in
    the other)."""
    w = carom_table().geometry.width
    right, left = _carom_corner(0.7, 1.0), _carom_corner(w - 0.7, -1.0)
    assert right[2] == left[2]
    assert abs(right[0] - left[0]) < 1e-9 and abs(right[1] - left[1]) < 1e-9


def _along_cushion(dvx: float, side: str, wz: float) -> np.ndarray:
    table = pool_table("9ft")
    lt = start_layout("9-ball", table).table
    r, w = table.piece_spec("ball").radius, table.geometry.width
    s = 1.0 if side == "left" else -1.0
    x = r if side == "left" else w - r
    layout = Layout(lt, (Piece("cue", "ball", x, 0.3), Piece("1", "ball", x, 0.8)))
    res = run_motion(table, layout, {"cue": (s * dvx, 1.5, -1.5 / r, 0.0, s * wz)})
    rest = res.final_positions.copy()
    if side == "right":
        rest[:, 0] = w - rest[:, 0]
    return rest


@pytest.mark.parametrize("wz", [0.0, 20.0, -20.0])
def test_a_ball_along_a_cushion_into_another_ends_alike_whatever_its_last_bits(wz: float):
    """9 ft table: the cue ball frozen to a side cushion rolls 1.5 m/s into a ball frozen ahead
    of it on the same cushion, on either side, aimed exactly along the cushion or 1e-14 m/s
    into or off it: every run rests within 0.01 mm of the others (before: 14-17 mm apart)."""
    rests = np.array([_along_cushion(dvx, side, wz) for side in ("left", "right")
                      for dvx in (0.0, 1e-14, -1e-14)])
    assert np.ptp(rests, axis=0).max() < 1e-5


PROBE = """
import json, sys
from tests.scaled_constants import scaler
from tests.test_round_off_symmetry import _along_cushion, _novus_rail_run
names = sys.argv[1].split(",")
scale = scaler(tuple(names))
out = {}
for factor in (1.0, 10.0, 0.1, 0.0):
    scale(factor)
    rows = [{"kinds": [int(on), rails], "final": [["a", x, y]]}
            for on, x, y, rails in _novus_rail_run(2.0)]
    rows += [{"kinds": [], "final": [[str(k), float(x), float(y)]
                                     for k, (x, y) in enumerate(_along_cushion(dvx, side, wz))]}
             for wz in (-20.0,) for side in ("left", "right") for dvx in (0.0, 1e-14, -1e-14)]
    out[str(factor)] = rows
print(json.dumps(out))
"""


def _probe(names: str) -> dict[str, list[dict]]:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    run = subprocess.run([sys.executable, "-c", PROBE, names], env=env, capture_output=True,
                         text=True, check=True, cwd=REPO)
    return json.loads(run.stdout.strip().splitlines()[-1])


def _images_agree(rows: list[dict]) -> bool:
    """Whether the eight novus images rest alike (rows 0-7) and the six cushion runs too."""
    novus, cushion = rows[:8], rows[8:]
    return all(same_outcomes([r], [novus[0]], tol=1e-9) for r in novus) and all(
        same_outcomes([r], [cushion[0]], tol=1e-5) for r in cushion)


@pytest.mark.parametrize("names", ["GRAZE", "PRESS_SHARE"])
def test_the_round_off_floors_x10_either_way_change_nothing_visible(names: str):
    """GRAZE and PRESS_SHARE x10 and /10 leave every run above where it was (the core
    interpreted, NUMBA_DISABLE_JIT, so the constant can change without recompiling); 0, the
    old test, lets round-off split the images again, which shows the change reaches the core."""
    rows = _probe(names)
    assert same_outcomes(rows["10.0"], rows["1.0"]) and same_outcomes(rows["0.1"], rows["1.0"])
    assert _images_agree(rows["1.0"]) and not _images_agree(rows["0.0"])


def _mirror_rests_apart(seed: int, game: str = "9-ball") -> float:
    """bench/tunnels.py's shot of `game` and `seed` (random physics) and its mirror image
    x <-> W - x: the largest distance between their rests, mirrored back (m); the same balls
    must drop in both."""
    import dataclasses

    from bench.tunnels import shot_for
    from cuesim import simulate

    case = shot_for(game, seed, "random")
    table, w = case.table, case.table.geometry.width
    mirror = Layout(case.layout.table, tuple(dataclasses.replace(p, x=w - p.x)
                                             for p in case.layout.pieces))
    shot = dataclasses.replace(case.shot, angle=math.pi - case.shot.angle, side=-case.shot.side)
    a, b = simulate(table, case.layout, case.shot), simulate(table, mirror, shot)
    rest = b.final_positions.copy()
    rest[:, 0] = w - rest[:, 0]
    assert sorted(a.pocketed) == sorted(b.pocketed)
    return float(np.nanmax(np.abs(a.final_positions - rest)))


def test_a_pair_a_plastic_impact_leaves_pressed_is_pressed_whatever_the_sign_of_its_round_off():
    """bench/tunnels.py 9-ball seed 8800039, random physics (e_ball = 0), and its mirror image
    x <-> W - x: a plastic impact leaves balls 9 and 6 touching, pressed at 2.2 m/s^2 and sliding
    past each other, parting at 1.4e-17 m/s in one image and closing at 1.4e-17 m/s in the
    other. Both are pressed now (`detect.pairs._pressing` takes a resting contact's normal
    speed as none), so the sliding pair's bounces run alike and the images rest within 1e-8 m
    (before: the parting one was caught 1 nm deep 31 us later, and they rested 3.3 mm apart)."""
    assert _mirror_rests_apart(8800039) < 1e-8


def test_a_press_within_the_round_off_of_the_pieces_accelerations_is_none():
    """9-ball seed 8800006, random physics: balls 7 and 8 at the end of a touching row slide
    alike at 3.8 m/s^2, their accelerations 8e-9 m/s^2 apart. Their press across the contact,
    a_7 - a_8, is round-off: -8.6e-16 m/s^2 in one image, +5.2e-16 in the other, over a floor
    of 8e-18 scaled by that difference, so the row was joined with 8 in one image and struck 8
    at 1.7 mm/s in the other, and the images rested 0.7 mm apart. The floor now scales with the
    pieces' own accelerations (`resolve.press.pressing`): neither image presses. (7e-14 m apart
    on numba 0.68, 4e-9 m on the floors' numba 0.59: the rest of the shot's round-off.)"""
    assert _mirror_rests_apart(8800006) < 1e-8


def test_a_resting_normal_speed_does_not_decide_whether_a_pair_parts_for_good():
    """`resolve.press.parting_for_good` takes a normal speed under V_TOUCH as none (resting):
    two balls touching along x, sliding past each other at 0.1 m/s along y, pressed less than
    their bend needs to hold them (close < 0), part for good or not alike whether the round-off
    of their normal speed is +1e-17, -1e-17 or 0 m/s (before: +1e-17 parted them for good)."""
    from cuesim.sim.resolve.press import parting_for_good
    from cuesim.sim.state import AX, LAW, LAW_BALL, NP, NS, TEND, VX, VY, M, R

    P = np.zeros((2, NP))
    P[:, R], P[:, M], P[:, LAW] = 0.028575, 0.17, LAW_BALL
    got = []
    for s in (1e-17, -1e-17, 0.0):
        S = np.zeros((2, NS))
        S[1, VX], S[1, VY], S[0, AX] = s, 0.1, 1e-3
        S[:, TEND] = 1.0
        got.append(parting_for_good(S, P, 0, 1, 1.0, 0.0, 0.0))
    assert got[0] == got[1] == got[2]


def test_a_pair_parting_by_round_off_alone_is_not_parting_for_good():
    """14.1 seed 8800160, random physics: balls 3 and 11 at t = 0.78 s, their normal speed
    +3.5e-18 m/s in one mirror image and -2.0e-17 in the other, pressed less than their
    sliding bends: one image let them part for good, the other joined them, and the images
    rested 9.2 cm apart. Both now take the speed as none."""
    assert _mirror_rests_apart(8800160, "14.1") < 1e-9
