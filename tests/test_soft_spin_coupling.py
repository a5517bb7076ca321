"""The soft-contact reference's coupled bed law for discs (`soft_simulate(spin_coupling=True)`,
sim.soft.disc_face): the limits are the uncoupled law bit for bit, and a lone spinning puck's
slide matches the autonomous integration of bench/disc_spin.py (Farkas et al., PRL 90,
248302, 2003: sliding and spinning stop together)."""

from __future__ import annotations

import numpy as np
import pytest

from bench import disc_spin as ds
from cuesim.api import game_table
from cuesim.sim.soft import disc_face as df
from cuesim.sim.soft import soft_simulate
from cuesim.tables.layout import Layout, Piece

TABLE = game_table("novus")
PUCK = TABLE.piece_spec("puck")
MU_G = TABLE.physics.mu_puck * TABLE.physics.g


def _lone_puck(motion: tuple[float, float, float], coupled: bool):  # noqa: ANN202
    layout = Layout("novus", (Piece("red1", "puck", 0.3, 0.5, "red"),))
    return soft_simulate(TABLE, layout, {"red1": motion}, spin_coupling=coupled)


@pytest.mark.parametrize("motion", [(1.0, 0.0, 0.0), (0.0, 0.0, 40.0)], ids=["slide", "spin"])
def test_sliding_alone_or_spinning_alone_is_the_uncoupled_law(
        motion: tuple[float, float, float]) -> None:
    """phi = 1 without spin, tau = 1 without sliding: the same numbers, bit for bit."""
    plain, coupled = _lone_puck(motion, False), _lone_puck(motion, True)
    assert np.array_equal(plain.final_positions, coupled.final_positions)
    assert plain.t_end == coupled.t_end and plain.steps == coupled.steps


@pytest.mark.parametrize("eps0", [0.3, 1.0])
def test_spinning_puck_slides_as_the_coupled_law_says(eps0: float) -> None:
    """v0 = 1 m/s with w0 R = eps0 v0: the distance and the time to rest against the autonomous
    integration (v0^2 / (mu g) and v0 / (mu g) units); the uncoupled law stops the slide sooner
    and shorter, and the spin long before it."""
    v0 = 1.0
    w0 = eps0 * v0 / PUCK.radius
    plain, coupled = _lone_puck((v0, 0.0, w0), False), _lone_puck((v0, 0.0, w0), True)
    face = df.Face.of(PUCK)
    [(_, far, _, slide)] = ds.compare(face, *df.tabulate(face), (eps0,))
    travelled = coupled.final_positions[0, 0] - 0.3
    assert travelled == pytest.approx(far * v0**2 / (2 * MU_G), rel=2e-4)
    assert coupled.t_end == pytest.approx(slide * v0 / MU_G, rel=3e-3)  # a free step: 1 ms
    assert coupled.final_spins[0, 2] == 0.0 and coupled.at_rest
    assert plain.final_positions[0, 0] - 0.3 == pytest.approx(v0**2 / (2 * MU_G), rel=1e-3)
    assert travelled > plain.final_positions[0, 0] - 0.3
    assert abs(coupled.final_positions[0, 1] - 0.5) < 1e-9  # no force across the path


def test_balls_keep_their_own_law() -> None:
    """The coupled law is the discs': a ball table runs bit for bit as without it."""
    from bench.agreement import cradle

    case = cradle(3, balls=True)
    plain = soft_simulate(case.table, case.layout, case.initial, check=False)
    coupled = soft_simulate(case.table, case.layout, case.initial, check=False,
                            spin_coupling=True)
    assert np.array_equal(plain.final_positions, coupled.final_positions)
    assert plain.steps == coupled.steps
