"""Slow contacts between pieces that slide past each other (resolve.press.sliding_apart): a
slow pressing contact joins its pieces into one moving group, but a pair that slides along
itself parts at once (the relative path bends away from the circle of contact), so it is never
joined. Joined, it moved as a rigid block: a striker grazing a puck carried it 25 cm (a cue
ball an object ball 0.6 m), a puck leaving a rail along its touching neighbour took the
neighbour 69 mm with it. All checked against the soft-contact reference, which knows no
joining."""

from __future__ import annotations

import numpy as np
import pytest

from cuesim.sim import run_motion
from cuesim.sim.soft import soft_simulate
from cuesim.tables.layout import Layout, Piece
from cuesim.tables.novus import NovusPhysics, NovusTable
from cuesim.tables.pool import PoolTable

NOVUS = NovusTable()
CONTACT = 0.03725  # m, striker radius + puck radius (tables/novus.py)


def _moved(layout: Layout, final: np.ndarray) -> np.ndarray:
    return np.hypot(*(final - layout.positions()).T)


def _leaving_rail() -> tuple[Layout, dict[str, tuple[float, float, float]]]:
    """Puck a leaves the east rail at 0.9 m/s, closing on its touching neighbour b at 1 mm/s
    (slower than v_stick: a slow contact, at once)."""
    layout = Layout(NOVUS.name, (Piece("a", "puck", 0.985, 0.575, "black"),
                                 Piece("b", "puck", 0.985, 0.545, "black")))
    return layout, {"a": (-0.9, -0.001, 0.0)}


def _graze(overlap: float) -> tuple[Layout, dict[str, tuple[float, float, float]]]:
    """The striker at 3 m/s straight up, brushing the side of a puck: its path overlaps the
    puck's contact circle by `overlap` (1e-8 m: it closes at 2 mm/s, 1e-6 m: at 22 mm/s;
    v_stick is 10 mm/s)."""
    layout = Layout(NOVUS.name, (Piece("striker", "striker", 0.5, 0.07),
                                 Piece("p", "puck", 0.5 + CONTACT - overlap, 0.4, "black")))
    return layout, {"striker": (0.0, 3.0, 0.0)}


def _slow_graze() -> tuple[Layout, dict[str, tuple[float, float, float]]]:
    layout, _ = _graze(1e-5)
    return layout, {"striker": (0.0, 1.0, 0.0)}


def test_a_puck_leaving_a_rail_slides_past_its_neighbour():
    """The neighbour stays where it was (the reference: 0.1 um), the leaving puck runs as in the
    reference (275 mm, within 1 mm)."""
    layout, initial = _leaving_rail()
    core = run_motion(NOVUS, layout, initial)
    soft = soft_simulate(NOVUS, layout, initial)
    moved_core = _moved(layout, core.final_positions)
    moved_soft = _moved(layout, soft.final_positions)
    assert moved_core[1] < 1e-5 and moved_soft[1] < 1e-5
    assert moved_core[0] == pytest.approx(moved_soft[0], abs=1e-3)
    assert moved_core[0] > 0.25


@pytest.mark.parametrize("overlap", [1e-8, 1e-6])
def test_a_grazing_striker_does_not_carry_the_puck(overlap):
    """The grazed puck moves a fraction of a millimetre, as in the reference; the striker runs
    on as in the reference (within 1 mm)."""
    layout, initial = _graze(overlap)
    core = run_motion(NOVUS, layout, initial)
    soft = soft_simulate(NOVUS, layout, initial)
    moved_core = _moved(layout, core.final_positions)
    moved_soft = _moved(layout, soft.final_positions)
    assert moved_core[1] < 3e-4 and moved_soft[1] < 3e-4
    assert abs(moved_core[1] - moved_soft[1]) < 2e-4
    assert np.hypot(*(core.final_positions[0] - soft.final_positions[0])) < 1e-3


@pytest.mark.parametrize("overlap", [1e-8, 1e-5])
def test_a_striker_ending_its_run_beside_a_puck_leaves_it(overlap):
    """The striker at 1 m/s brushes the puck in its last centimetre (0.13 m/s, closing at
    0.1-3 mm/s): the puck's own push-off and friction pressed the pair, which slid on as one,
    the puck carried 5.6 mm. The bed holds the puck (resolve.sliding_pair.held_by_bed): it stays
    (the reference: 10 um at most), the striker stops within 0.2 mm of the reference's."""
    layout, _ = _graze(overlap)
    initial = {"striker": (0.0, 1.0, 0.0)}
    core = run_motion(NOVUS, layout, initial)
    soft = soft_simulate(NOVUS, layout, initial, steps_per_contact=160)
    assert _moved(layout, core.final_positions)[1] < 2e-5
    assert _moved(layout, soft.final_positions)[1] < 2e-5
    assert np.hypot(*(core.final_positions[0] - soft.final_positions[0])) < 2e-4


@pytest.mark.parametrize("factor", [0.1, 10.0])
def test_v_stick_does_not_decide_whether_sliding_pieces_join(factor):
    """A threshold is not physics: v_stick /10 and x10 move no piece of these shots by 3 mm
    (tests/test_contacts.py's bound; x10 makes the graze at 1e-6 m, closing at 22 mm/s, a
    plastic contact, which turns the striker's run by 2 mm). Before, x10 decided it: joined,
    the puck went 25 cm with the striker."""
    table = NovusTable(physics=NovusPhysics(v_stick=NovusPhysics().v_stick * factor))
    for layout, initial in (_leaving_rail(), _graze(1e-8), _graze(1e-6), _slow_graze()):
        base = run_motion(NOVUS, layout, initial).final_positions
        other = run_motion(table, layout, initial).final_positions
        assert np.abs(base - other).max() < 3e-3


def test_a_grazing_ball_does_not_carry_the_object_ball():
    """The same on a pool table: a cue ball rolling at 2 m/s brushing an object ball (its path
    1e-8 m inside the contact circle) left it 0.6 m away, carried along; now the object ball
    moves a micrometre (the reference: none)."""
    table = PoolTable()
    r = table.piece_spec("ball").radius
    layout = Layout(table.name, (Piece("cue", "ball", 0.5, 0.4),
                                 Piece("1", "ball", 0.5 + 2 * r - 1e-8, 0.9)))
    initial = {"cue": (0.0, 2.0, -2.0 / r, 0.0, 0.0)}
    core = run_motion(table, layout, initial)
    soft = soft_simulate(table, layout, initial)
    assert _moved(layout, core.final_positions)[1] < 1e-5
    assert _moved(layout, soft.final_positions)[1] < 1e-5


def test_a_puck_struck_off_the_rail_beside_its_row_leaves_the_row_as_the_reference():
    """The novus opening's row of touching pucks along the far rail; the striker drives red5
    into the rail, and red5 leaves it sliding past red4 and red6. The row stays put (micrometres)
    and red5 and the striker stop within 0.2 mm of the soft reference with the core's own
    dissipation law, started from the core's state 0.2 ms before the impact. With TOUCH x10
    the row took red5 with it as a block (tests/test_core_tolerances.py)."""
    from cuesim import NovusShot, novus_singles_layout, simulate

    layout = novus_singles_layout(NOVUS)
    shot = NovusShot(x=0.47666947301820484, angle=1.5252202964325317,
                     speed=1.6808667930380152, offset=-0.005488817052095998)
    core = simulate(NOVUS, layout, shot)
    t = 0.8025  # the striker alone moving, 0.2 mm short of red5
    positions, _ = core.positions_at(t)
    dt = 1e-6
    velocity = (core.positions_at(t + dt)[0][0] - core.positions_at(t - dt)[0][0]) / (2 * dt)
    ids = [p.id for p in core.initial.pieces]
    start = Layout(NOVUS.name, tuple(Piece(p.id, p.kind, *map(float, positions[k]), p.group)
                                     for k, p in enumerate(core.initial.pieces)))
    soft = soft_simulate(NOVUS, start, {"striker": (*map(float, velocity), 0.0)},
                         dissipation="hysteretic")
    final_core = core.final_positions
    final_soft = soft.final_positions[[list(soft.ids).index(i) for i in ids]]
    moved_core, moved_soft = _moved(start, final_core), _moved(start, final_soft)
    red5, striker = ids.index("red5"), ids.index("striker")
    assert 0.015 < moved_core[red5] < 0.02
    row = [ids.index(f"red{k}") for k in (1, 2, 3, 4, 6, 7, 8)]
    assert moved_core[row].max() < 2e-5 and moved_soft[row].max() < 5e-5
    for k in (red5, striker):
        assert np.hypot(*(final_core[k] - final_soft[k])) < 2e-4
