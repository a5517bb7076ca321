"""bench/sweep_prune.py: the grid's crossings against a sweep-and-prune's swaps, counted on the
box series from the shots' trajectories (issue 16: the broadphase chosen by measurement)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from bench import sweep_prune
from cuesim.sim.detect.grid import grid_params


def test_inversions_count_the_adjacent_swaps_that_sort() -> None:
    rng = np.random.default_rng(3)
    for n in (0, 1, 2, 7, 64):
        values = rng.integers(0, 10, n).astype(float)  # ties are no inversion
        brute = sum(1 for k, m in itertools.combinations(range(n), 2) if values[k] > values[m])
        assert sweep_prune.inversions(values) == brute


def test_two_pieces_passing_each_other_swap_four_endpoints() -> None:
    """Intervals [0, 2] and [5, 7] moving through each other to [10, 12] and [5, 7]: the two
    lows and the two highs swap, and a high passes a low twice (the overlap begins, ends)."""
    radius = np.array([1.0, 1.0])
    swaps = sweep_prune.AxisSwaps(np.array([1.0, 6.0]), radius)
    for x in np.linspace(1.0, 11.0, 41)[1:]:
        swaps.step(np.array([x, 6.0]))
    assert (swaps.total, swaps.lo_lo, swaps.hi_hi, swaps.low_high) == (4, 1, 1, 2)


def test_a_centre_crosses_a_cell_only_past_the_fat_margin() -> None:
    g = grid_params(0.1, 0.0, 0.0, 1.0, 1.0, 1024)  # 10 x 10 cells, 5 mm margins
    grid = sweep_prune.GridCrossings(g, np.array([[0.05, 0.05]]))
    grid.step(np.array([[0.104, 0.05]]))  # within the fat cell: no crossing
    assert grid.count == 0
    grid.step(np.array([[0.106, 0.05]]))
    grid.step(np.array([[0.096, 0.05]]))  # within the new cell's fat margin
    assert grid.count == 1
    grid.step(np.array([[0.35, 0.25]]))  # two cells on x, two on y at once
    assert grid.count == 5
    assert list(grid.block_counts()) == [0]


def test_a_box_counts_its_crossings_swaps_and_candidates() -> None:
    row = sweep_prune.count("puck", 40, 1e-3)
    assert row["events"] > 0 and row["cells"] > 1
    assert 0.0 < row["grid_crossings"] < row["sap_x_swaps"] < row["sap_xy_swaps"]
    assert 0.0 < row["sap_x_low_high"] < row["sap_x_swaps"]
    assert row["sap_xy_candidates"] <= row["sap_x_candidates"]


def test_a_sampling_step_out_of_range_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        sweep_prune.main(["--dt", "1"])
    assert exit_info.value.code == 2
    assert "--dt: expected 1e-6 to 0.01 s" in capsys.readouterr().err


def test_the_plot_is_drawn(tmp_path) -> None:  # noqa: ANN001
    rows = [{"piece": piece, "n": n, "grid_crossings": 2.0, "sap_x_swaps": 10.0 * n / 64,
             "sap_xy_swaps": 20.0 * n / 64, "grid_candidates": 1.2, "sap_x_candidates": 5.0,
             "sap_xy_candidates": 0.2} for piece in ("puck", "ball") for n in (64, 256)]
    out = tmp_path / "sap.png"
    sweep_prune.plot(rows, out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_unwritable_output_is_refused_before_counting(
        tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: ANN001
    with pytest.raises(SystemExit) as exit_info:
        sweep_prune.main(["--plot", str(tmp_path / "missing" / "sap.png")])
    assert exit_info.value.code == 2
    assert "--plot" in capsys.readouterr().err
