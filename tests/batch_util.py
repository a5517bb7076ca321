"""Helpers of the batch tests: the reference loop of `simulate` a batch must equal."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from cuesim import simulate
from cuesim.batch import BatchError
from cuesim.batch.core import Setup, make_shot
from cuesim.batch.params import physics_columns
from cuesim.sim.events import EventKind


def second_run_refused(run: Callable[[], object]) -> tuple[Callable[[int], None], list[str]]:
    """(on_chunk, refusals): an on_chunk callback for a run that, at its first chunk, starts
    `run` (a second run of the same output), which must be refused at once as being written
    by another run; the refusal's message lands in `refusals`."""
    refused: list[str] = []

    def on_chunk(c: int) -> None:
        if not refused:
            with pytest.raises(BatchError, match="being written by another run right now") as e:
                run()
            refused.append(str(e.value))

    return on_chunk, refused


def assert_same(a, b, keys=None):
    """Two BatchResults (or dicts of arrays) hold the same numbers, NaN where NaN."""
    keys = keys if keys is not None else a.keys()
    for k in keys:
        x, y = np.asarray(a[k]), np.asarray(b[k])
        assert x.shape == y.shape, k
        if x.dtype.kind == "f":
            np.testing.assert_array_equal(x, y, err_msg=k)
        else:
            assert (x == y).all(), k


def assert_equals_loop(table, layout, res, struck):
    """Every row of a batch result equals `simulate` run on its own, on the table with the
    coefficients of the physics the shot sets (`table.with_physics`)."""
    setup = Setup(table, layout, struck)
    params = res.params
    ids = res.ids
    names = physics_columns(setup.family, list(params))
    for k in range(len(res)):
        own = table.with_physics(**{n: float(params[n][k]) for n in names}) if names else table
        r = simulate(own, layout, make_shot(setup, params, k))
        assert r.initial.ids() == ids
        assert np.array_equal(r.final_positions, res["final_xy"][k]), k
        assert np.array_equal(r.final_on, res["final_on"][k]), k
        assert res.pocketed_ids(k) == sorted(r.pocketed, key=ids.index), k
        assert res["n_events"][k] == r.n_events
        assert res["duration"][k] == r.duration
        assert res["truncated"][k] == r.truncated
        counts = np.bincount(r.events[:, 1].astype(int), minlength=len(EventKind))
        assert (res["event_counts"][k] == counts).all(), k
        first = r.first_contact(struck)
        got = res.first_contact(k)
        if first is None:
            assert got is None
        elif first.kind in (EventKind.COLLIDE, EventKind.PIN):
            assert got == (first.b if first.a == struck else first.a)
            assert res["first_t"][k] == first.t
        else:
            assert got == f"rail:{first.feature}"
            assert res["first_t"][k] == first.t
