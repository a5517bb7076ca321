"""The suite's own guards (tests/conftest.py, tests/profiles.py, pyproject.toml): a truncated
shot fails an unmarked test, Hypothesis is derandomized by default, every test has a time
limit."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import settings

from cuesim import CueShot, Piece, simulate
from cuesim.batch import BatchResult
from cuesim.sim.pymunk_backend import PymunkResult
from cuesim.tables import nine_ball_rack, pool_table
from cuesim.tables.layout import Layout

POOL = pool_table()


def _capped_break():
    return simulate(POOL, nine_ball_rack(POOL, cue=Piece("cue", "ball", 0.635, 0.5)),
                    CueShot(angle=math.pi / 2, speed=8.0), max_events=25)


def test_a_truncated_shot_fails_an_unmarked_test():
    with pytest.raises(pytest.fail.Exception, match="event limit"):
        _capped_break()


def test_a_batch_holding_a_truncated_shot_fails_an_unmarked_test():
    BatchResult({"truncated": np.array([False, False])}, ["cue"], {})  # complete: fine
    with pytest.raises(pytest.fail.Exception, match="event limit"):
        BatchResult({"truncated": np.array([False, True])}, ["cue"], {})


def test_an_unfinished_pymunk_run_fails_an_unmarked_test():
    with pytest.raises(pytest.fail.Exception, match="ran out of time"):
        PymunkResult(final=Layout(POOL.name, ()), pocketed=[], steps=1, dt=1e-3, time=1e-3,
                     truncated=True)


@pytest.mark.truncation
def test_a_marked_test_may_truncate_on_purpose():
    with pytest.warns(RuntimeWarning, match="TRUNCATED"):
        res = _capped_break()
    assert res.truncated and res.n_events >= 25


def test_hypothesis_is_derandomized_by_default(request):
    if request.config.getoption("hypothesis_profile", None) not in (None, "ci"):
        pytest.skip("another Hypothesis profile was chosen on the command line")
    assert settings.default.derandomize and settings.default.database is None


def test_every_test_has_a_time_limit(request):
    assert float(request.config.getini("timeout")) >= 600
    assert request.config.getini("timeout_method") == "thread"
