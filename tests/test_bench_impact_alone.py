"""bench/impact_alone.py's machinery: the impacts it records are those the shots resolve, its
frictionless copy switches friction off, and a short run reports every shot. No timing is
asserted: the script measures, the tests only check that it runs and reports."""

from __future__ import annotations

import json

import numpy as np

from bench import impact_alone
from cuesim.sim.resolve import multi_impact
from cuesim.sim.state import W0, WX, WY


def test_a_short_run_records_each_shots_impacts_and_writes_its_rows(tmp_path, capsys):
    out = tmp_path / "alone.json"
    assert impact_alone.main(["--repeats", "1", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())
    assert [r["shot"] for r in rows] == list(impact_alone.CASES)
    for r in rows:
        assert r["impacts"], r["shot"]  # every shot starts with a multiple impact
        assert all(contacts >= 2 and steps > 0 for contacts, steps in r["impacts"])
        assert 0.0 < r["impacts_us"] and 0.0 < r["frictionless_us"] and 0.0 < r["shot_us"]
    printed = capsys.readouterr().out
    assert all(name in printed for name in impact_alone.CASES)


def _copy(args: list) -> list:
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def test_the_frictionless_copy_leaves_every_spin_as_it_was():
    for name, calls in impact_alone.recorded_impacts().items():
        before = calls[0][0][:, [W0, WX, WY]].copy()
        bare = _copy(impact_alone.frictionless(calls[0]))
        assert multi_impact.solve_multi_impact(*bare) > 0
        assert np.array_equal(bare[0][:, [W0, WX, WY]], before), name
        # while the impact as recorded, with its friction, spins some piece
        recorded = _copy(calls[0])
        assert multi_impact.solve_multi_impact(*recorded) > 0
        assert not np.array_equal(recorded[0][:, [W0, WX, WY]], before), name
