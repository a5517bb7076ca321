"""cuesim.sim.batch_parallel: many shots, each from its own layout, in one compiled call
parallel over threads, give bit for bit the ShotResults of `simulate`, whatever the number of
threads, the chunking or a buffer that fills."""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest

import cuesim.sim.batch_parallel as bp
from cuesim import CueShot, NovusShot, simulate, start_layout
from cuesim.api import game_table, simulate_input
from cuesim.shot import ShotError
from cuesim.sim.engine import SimulationError
from cuesim.tables.layout import LayoutError

GAMES = ("novus", "8-ball", "9-ball", "14.1", "5-pins")


def _shot(game: str, rng: np.random.Generator):
    if game == "novus":
        return NovusShot(x=float(rng.uniform(0.1, 0.6)), angle=float(rng.uniform(0.4, 2.7)),
                         speed=float(rng.uniform(1.0, 6.0)),
                         offset=float(rng.uniform(-0.004, 0.004)))
    return CueShot(angle=float(rng.uniform(-math.pi, math.pi)), speed=float(rng.uniform(0.5, 6.0)),
                   side=float(rng.uniform(-0.3, 0.3)), height=float(rng.uniform(-0.3, 0.3)),
                   ball="white" if game == "5-pins" else "cue")


def _cases(game: str, n_shots: int, seed: int = 0):
    """(layout, shot) pairs on random layouts: the start and where random shots left it."""
    rng = np.random.default_rng(seed)
    table = game_table(game)
    layouts = [start_layout(game, table)]
    while len(layouts) < 4:
        try:
            r = simulate(table, layouts[-1], _shot(game, rng))
        except (ShotError, SimulationError, LayoutError):
            continue
        if not r.truncated and r.initial.ids() and ("cue" not in r.initial.ids()
                                                    or r.final_on[r.initial.index("cue")]):
            layouts.append(r.final)
    cases = []
    while len(cases) < n_shots:
        layout, shot = layouts[int(rng.integers(len(layouts)))], _shot(game, rng)
        try:
            simulate_input(table, layout, shot)
        except (ShotError, SimulationError, LayoutError):
            continue
        cases.append((layout, shot))
    return table, cases


def _assert_same(a, b):
    assert a.table == b.table and a.initial == b.initial and a.shot == b.shot
    assert a.truncated == b.truncated and a.feature_names == b.feature_names
    for name in ("final_positions", "final_on", "events", "segments"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.shape == y.shape and x.dtype == y.dtype, name
        assert np.array_equal(x, y), name  # bit for bit (no NaN in these arrays)


@pytest.mark.parametrize("game", GAMES)
def test_each_shot_of_a_parallel_batch_is_simulate_bit_for_bit(game):
    table, cases = _cases(game, 24, seed=GAMES.index(game))
    got = bp.run_inputs([simulate_input(table, lay, shot) for lay, shot in cases])
    assert len({len(lay) for lay, _ in cases}) >= 1 and len(got) == len(cases)
    for (lay, shot), r in zip(cases, got, strict=True):
        _assert_same(r, simulate(table, lay, shot))


def test_the_threads_and_the_chunks_change_nothing(monkeypatch):
    table, cases = _cases("9-ball", 20, seed=7)
    inputs = [simulate_input(table, lay, shot) for lay, shot in cases]
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = bp.run_inputs(inputs)
    finally:
        numba.set_num_threads(before)
    monkeypatch.setattr(bp, "CHUNK", 3)
    many = bp.run_inputs(inputs)
    for a, b in zip(one, many, strict=True):
        _assert_same(a, b)


@pytest.mark.parametrize("small", ["all", "beyond_share"])
def test_a_shot_whose_buffers_fill_is_run_again_alone(monkeypatch, small):
    table, cases = _cases("8-ball", 6, seed=3)
    cases = [c for pair in zip(cases, _cases("9-ball", 6, seed=3)[1], strict=True) for c in pair]
    sizes = {len(lay) for lay, _ in cases}  # one pool table: 16 and 10 balls
    real = bp.first_capacity
    if small == "all":  # every shot fills its buffers
        monkeypatch.setattr(bp, "first_capacity", lambda n: (4, n + 1))
    else:  # the fewer pieces, the smaller the share: in a thread's buffers, as large as
        # the larger shots', such a shot runs to its end but writes beyond its share of rows
        assert len(sizes) > 1
        monkeypatch.setattr(bp, "first_capacity",
                            lambda n: real(n) if n == max(sizes) else (8, n + 1))
    alone, run_alone = [], bp.run_input
    monkeypatch.setattr(bp, "run_input", lambda inp, *caps: alone.append(inp) or
                        run_alone(inp, *caps))
    got = bp.run_inputs([simulate_input(table, lay, shot) for lay, shot in cases])
    assert len(alone) == (len(cases) if small == "all" else len(cases) // 2)
    for (lay, shot), r in zip(cases, got, strict=True):
        _assert_same(r, simulate(table, lay, shot))


def test_shots_of_two_tables_are_refused():
    a, (case_a, *_) = _cases("9-ball", 1)
    b, (case_b, *_) = _cases("5-pins", 1)
    with pytest.raises(SimulationError, match="one table"):
        bp.run_inputs([simulate_input(a, *case_a), simulate_input(b, *case_b)])
    assert bp.run_inputs([]) == []


@pytest.mark.truncation  # the event limit cuts the shots on purpose
def test_a_truncated_shot_warns_at_the_callers_line():
    """run_inputs warns for each shot its event limit cut, as run_motion does, naming the line
    that called it (the results are views of one copy per chunk: each its own rows)."""
    table, cases = _cases("9-ball", 3, seed=2)
    inputs = [simulate_input(table, lay, shot, max_events=3) for lay, shot in cases]
    with pytest.warns(RuntimeWarning) as caught:
        got = bp.run_inputs(inputs)
    assert len(caught) == 3 and all(w.filename == __file__ for w in caught)
    for (lay, shot), r in zip(cases, got, strict=True):
        with pytest.warns(RuntimeWarning):
            _assert_same(r, simulate(table, lay, shot, max_events=3))
    assert not np.shares_memory(got[0].events, got[1].events)


@pytest.mark.truncation  # the event limit cuts the second shot on purpose
@pytest.mark.parametrize("errors", ["mark", "raise"])
def test_a_truncated_shot_in_a_ruled_batch_is_marked_not_ruled(errors):
    """A shot the event limit cut has no end for a referee to rule on: its row says truncated
    and its ruling columns stay empty, as in an unruled batch, instead of the referee's refusal
    stopping the whole batch (even with errors='mark')."""
    import warnings

    from cuesim.batch import simulate_many

    table = game_table("9-ball")
    layout = start_layout("9-ball", table)
    shots = [CueShot(angle=1.0, speed=1.0), CueShot(angle=math.pi / 2, speed=7.0)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = simulate_many(table, layout, shots, workers=1, max_events=30, ruling="9-ball",
                            errors=errors)
    assert out["truncated"].tolist() == [False, True]
    assert not out["legal"][1] and not out["turn_passes"][1] and out["articles"][1] == ""
    assert out["articles"][0] != "" or out["legal"][0]
