"""bench/broadphase.py's machinery: the best of its passes, its argument check, a quick run
that writes its figures. No timing is asserted: the script measures, the tests only check that
it runs and reports."""

from __future__ import annotations

import json

import pytest

from bench import broadphase


def _row(t: float, same: bool = True, events: int = 10) -> dict:
    return {"piece": "puck", "n": 16, "events": events, "same_bytes": same,
            **{f"{w}_us_per_event": t + k for k, w in enumerate(broadphase.WAYS)},
            "whole_us_per_event": t + 5}


def test_each_figure_is_its_best_pass_and_the_bytes_must_agree_in_every_pass():
    kept = broadphase._best_of(None, _row(3.0))
    kept = broadphase._best_of(kept, _row(2.0))
    kept = broadphase._best_of(kept, _row(4.0))
    assert [kept[f"{w}_us_per_event"] for w in broadphase.WAYS] == [2.0, 3.0, 4.0]
    assert kept["whole_us_per_event"] == 7.0 and kept["same_bytes"]
    assert not broadphase._best_of(kept, _row(1.0, same=False))["same_bytes"]
    assert not broadphase._best_of(kept, _row(1.0, events=11))["same_bytes"]


@pytest.mark.parametrize("passes", ["0", "-1", "two"])
def test_passes_must_be_a_whole_number_of_at_least_one(passes, capsys):
    with pytest.raises(SystemExit) as exc:
        broadphase.main(["--passes", passes])
    assert exc.value.code == 2
    assert "--passes: expected a whole number >= 1" in capsys.readouterr().err


def test_a_quick_run_writes_its_figures_and_plot(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out, png = tmp_path / "bp.json", tmp_path / "bp.png"
    assert broadphase.main(["--quick", "--json", str(out), "--plot", str(png)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert [(r["piece"], r["n"]) for r in rows] == [
        (p, n) for p in ("puck", "ball") for n in broadphase.QUICK_NS]
    assert all(r["same_bytes"] for r in rows)
    assert png.stat().st_size > 0
    assert "target <= 2.0 us at every N" in capsys.readouterr().out


def test_a_quick_run_leaves_the_documented_plot_alone(monkeypatch, tmp_path, capsys):
    """Without --plot a quick run writes no plot: its three sizes would replace
    bench/plots/broadphase.png, the full series the README shows."""
    monkeypatch.setattr(broadphase, "QUICK_NS", (16,))
    monkeypatch.setattr(broadphase, "PLOT", tmp_path / "documented.png")
    assert broadphase.main(["--quick"]) == 0
    assert not (tmp_path / "documented.png").exists()
    assert "plot: none for a --quick run" in capsys.readouterr().out


def test_a_quick_crossover_run_compares_both_ways_on_the_same_bytes(monkeypatch, tmp_path,
                                                                      capsys):
    """--crossover (what sets GRID_MIN_N): each row's shots with no grid and on the grid, the
    same bytes both ways, the gain and the way GRID_MIN_N picks for its size."""
    monkeypatch.setattr(broadphase, "CROSSOVER_NOVUS", (16,))
    monkeypatch.setattr(broadphase, "CROSSOVER_BOXES", (16, 40))
    out = tmp_path / "cross.json"
    assert broadphase.main(["--crossover", "--quick", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())["crossover"]
    assert [r["label"] for r in rows] == [
        "novus openings", "novus, 16 scattered pucks", "box, 16 pucks", "box, 40 pucks",
        "box, 16 balls", "box, 40 balls"]
    assert [r["pieces"] for r in rows] == [33, 17, 16, 40, 16, 40]
    for r in rows:
        assert r["same_bytes"]
        assert r["gain"] == pytest.approx(r["no_grid_us_per_event"] / r["grid_us_per_event"])
        assert r["picked"] == ("grid" if r["pieces"] >= broadphase.GRID_MIN_N else "no grid")
    assert "grid gain" in capsys.readouterr().out


def test_scattered_novus_layouts_hold_the_pucks_asked_for():
    from bench import scenarios as sc

    scenario = sc.novus_scattered(24, 3)
    assert scenario.pieces == (25, 25)  # and the striker
    with pytest.raises(ValueError, match="n_pucks: expected 0 to 32"):
        sc.novus_scattered(33, 1)
