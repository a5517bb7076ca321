"""bench/disc_spin.py: the friction of a sliding, spinning face and the coupled slide it gives,
checked against closed forms (Farkas, Bartels, Unger and Wolf, PRL 90, 248302, 2003) and an
independent integration in time."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bench import disc_spin as ds
from cuesim.api import game_table
from cuesim.sim.soft import disc_face as df

PUCK = df.Face.of(game_table("novus").piece_spec("puck"))
HOMOGENEOUS = df.Face(1.0, 0.0, 4.0 / 3.0)  # r_f = 2R/3, I = m R^2 / 2


@pytest.fixture(scope="module")
def puck_table() -> tuple[np.ndarray, np.ndarray]:
    return df.tabulate(PUCK)


def test_homogeneous_disc_reaches_the_papers_fixed_point() -> None:
    """Farkas et al.: a homogeneous disc's v / (w R) tends to 0.653 as it slows."""
    star = df.fixed_point(HOMOGENEOUS, *df.tabulate(HOMOGENEOUS))
    assert 1.0 / star == pytest.approx(0.653, abs=0.002)


@pytest.mark.parametrize("eps", [0.05, 0.3, 1.0, 3.0])
def test_friction_has_no_part_across_the_velocity(eps: float) -> None:
    """Uniform pressure on an axisymmetric face: the lateral force cancels (a straight path)."""
    assert abs(df.face_friction(PUCK, eps)[1]) < 1e-12


def test_friction_limits_are_the_uncoupled_law() -> None:
    """No spin: the full sliding force and no torque; spin alone: the full torque mu m g r_f."""
    phi, _, tau = df.face_friction(PUCK, 0.0)
    assert (phi, tau) == (pytest.approx(1.0, abs=1e-12), pytest.approx(0.0, abs=1e-12))
    phi, _, tau = df.face_friction(PUCK, 1e4)
    assert phi < 1e-3 and tau == pytest.approx(1.0, abs=1e-4)


@pytest.mark.parametrize("eps", [0.1, 1.0, 3.0])
def test_quadrature_is_converged(eps: float) -> None:
    """Twice the cells each way moves force and torque by under 1e-3 of the uncoupled law's."""
    coarse, fine = df.face_friction(PUCK, eps), df.face_friction(PUCK, eps, cells=2)
    assert abs(coarse[0] - fine[0]) < 1e-3 and abs(coarse[2] - fine[2]) < 1e-3


def test_slide_without_spin_is_the_uncoupled_law(puck_table: tuple[np.ndarray, np.ndarray]) -> None:
    """eps0 = 0 stays 0: distance v0^2 / (2 mu g) and time v0 / (mu g), the ratios 1."""
    [(_, far, spin, slide)] = ds.compare(PUCK, *puck_table, (0.0,))
    assert far == pytest.approx(1.0, abs=1e-6) and slide == pytest.approx(1.0, abs=1e-6)
    assert math.isnan(spin)


def test_coupled_slide_matches_an_integration_in_time(
        puck_table: tuple[np.ndarray, np.ndarray]) -> None:
    """The autonomous form in s = ln(v0 / v) against v' = -phi, (w R)' = -c tau in time
    (mu g = v0 = 1), RK4 with small steps until v and w R are both below 1e-9."""
    phi, tau = puck_table
    eps0 = 0.5
    [(_, far, _, slide)] = ds.compare(PUCK, phi, tau, (eps0,))

    def rate(y: np.ndarray) -> np.ndarray:
        v, u = max(y[0], 0.0), max(y[1], 0.0)
        if v <= 1e-12:
            return np.array([0.0, -PUCK.c if u > 0.0 else 0.0, v])
        e = u / v
        return np.array([-np.interp(e, df.EPS_TABLE, phi),
                         -PUCK.c * np.interp(e, df.EPS_TABLE, tau), v])

    y, t, h = np.array([1.0, eps0, 0.0]), 0.0, 2e-5
    while y[0] > 1e-9 or y[1] > 1e-9:
        k1 = rate(y)
        k2 = rate(y + 0.5 * h * k1)
        k3 = rate(y + 0.5 * h * k2)
        k4 = rate(y + h * k3)
        y, t = y + h * (k1 + 2 * k2 + 2 * k3 + k4) / 6.0, t + h
    assert 2.0 * y[2] == pytest.approx(far, rel=1e-3)
    assert t == pytest.approx(slide, rel=1e-3)


def test_a_spinning_puck_slides_further_and_spins_longer(
        puck_table: tuple[np.ndarray, np.ndarray]) -> None:
    """What the coupling does: more spin, less sliding friction; the spin lasts the whole slide."""
    rows = ds.compare(PUCK, *puck_table, (0.1, 0.5, 1.5))
    far = [r[1] for r in rows]
    assert 1.0 < far[0] < far[1] < far[2]
    assert all(r[2] > 1.0 for r in rows)  # the uncoupled law stops the spin too soon


def test_script_runs_on_a_few_shots(capsys: pytest.CaptureFixture[str]) -> None:
    assert ds.main(["--shots", "10", "--soft", "3"]) == 0
    out = capsys.readouterr().out
    assert "0.653 (Farkas" in out and "slide to rest" in out and "striker eps 1.5" in out
    assert "4. 3 random novus mid-game shots" in out and "uncoupled, mu -1 %" in out
    assert "pieces pocketed a shot (+0.0000, 0.0000)" in out  # the uncoupled law against itself


def test_paired_differences_and_their_standard_error() -> None:
    """The mean of b - a over the same shots and the standard error of that mean."""
    a, b = np.array([1, 0, 2, 1]), np.array([2, 0, 2, 3])
    mean, se = ds.paired(a, b)
    assert mean == pytest.approx(0.75)
    assert se == pytest.approx(np.std([1, 0, 0, 2], ddof=1) / 2)
    assert ds.paired(a, a) == (0.0, 0.0)


def test_pieces_of_constant_deceleration_converge_to_second_order(
        puck_table: tuple[np.ndarray, np.ndarray]) -> None:
    """Section 5: halving each piece's share of the speed (q 0.9 -> 0.95) doubles the pieces
    and cuts the distance error about 4x; pieces whose ends lie on the exact slide stay closer
    to it than the whole slide's error, and closer still with more pieces; without spin one
    piece is exact."""
    rows = {(q, e0): rest for q, e0, *rest in ds.piece_errors(PUCK, *puck_table)}
    for e0 in (0.3, 1.0):
        (n9, err9, _, dep9, jump9), (n95, err95, _, dep95, jump95) = (rows[(0.9, e0)],
                                                                       rows[(0.95, e0)])
        assert n95 > 1.8 * n9 and 3.0 < err9 / err95 < 5.0
        assert dep95 < dep9 < err9 and jump95 < jump9
    x, pieces = ds.piecewise_slide(PUCK, *puck_table, 0.0, 0.9, 1e-3)
    assert x == pytest.approx(0.5, abs=1e-12)


def test_unwritable_plot_is_refused_before_the_work(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        ds.main(["--plot", "/nonexistent-folder/disc_spin.png"])
    assert exit_info.value.code == 2
    assert "cannot write /nonexistent-folder/disc_spin.png" in capsys.readouterr().err


def test_openings_are_section_4_s_other_shots(capsys: pytest.CaptureFixture[str]) -> None:
    """--openings plays random openings into the doubles layout in section 4; without --soft
    it is refused before the work."""
    assert ds.main(["--shots", "4", "--soft", "2", "--openings"]) == 0
    assert "4. 2 random novus openings into the doubles layout" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_info:
        ds.main(["--openings"])
    assert exit_info.value.code == 2
    assert "give --soft N as well" in capsys.readouterr().err


def test_pieces_cut_by_the_rates_converge(puck_table: tuple[np.ndarray, np.ndarray]) -> None:
    """Section 5: cut where phi or tau has changed by less, more pieces and a closer fit; a
    slide without spin is one exact piece."""
    rows = ds.rate_piece_errors(PUCK, *puck_table)
    for e0 in (0.3, 1.0):
        mine = sorted((r for r in rows if r[1] == e0), reverse=True)  # delta 0.05, 0.02, 0.01
        assert [r[2] for r in mine] == sorted(r[2] for r in mine)
        assert mine[0][3] > mine[1][3] > mine[2][3]
    path = ds.coupled_path(PUCK, *puck_table, 0.0, n=3000)
    pieces, departure, _ = ds.exact_end_pieces(path, ds.rate_cuts(path, PUCK, *puck_table, 0.01))
    assert pieces == 1 and departure < 1e-9
