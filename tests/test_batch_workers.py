"""Sampling is deterministic for a seed and the same for any number of workers; the number
of local workers is checked."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from cuesim.batch import BatchError, ShotSampler, simulate_many
from cuesim.batch.run import WORKERS_PER_CORE, local_cores
from tests.batch_util import assert_same

VARY = {"x": (0.3, 0.7), "angle": (1.3, 1.85), "speed": (2.0, 8.0)}


def test_same_seed_same_shots_and_results(table, singles):
    a = simulate_many(table, singles, ShotSampler(30, VARY, seed=7), workers=1, chunk_size=10)
    b = simulate_many(table, singles, ShotSampler(30, VARY, seed=7), workers=1, chunk_size=10)
    assert_same(a, b)
    c = simulate_many(table, singles, ShotSampler(30, VARY, seed=8), workers=1, chunk_size=10)
    assert not np.array_equal(a["param.speed"], c["param.speed"])


def test_one_and_two_workers_give_identical_results(table, singles):
    sampler = ShotSampler(60, VARY, seed=11)
    one = simulate_many(table, singles, sampler, workers=1, chunk_size=8)
    two = simulate_many(table, singles, sampler, workers=2, chunk_size=8)
    assert_same(one, two)
    assert list(two["shot"]) == list(range(60))


def test_each_chunk_has_its_own_stream():
    s = ShotSampler(100, {"speed": (1.0, 2.0)}, seed=1)
    whole = s.chunk("novus", 3, 30, 40)["speed"]
    again = s.chunk("novus", 3, 30, 40)["speed"]
    other = s.chunk("novus", 4, 40, 50)["speed"]
    assert np.array_equal(whole, again) and not np.array_equal(whole, other)
    assert ((whole >= 1.0) & (whole < 2.0)).all()
    fixed = ShotSampler(5, {"speed": (1.0, 2.0)}, {"offset": 0.002}, seed=1).chunk(
        "novus", 0, 0, 5)
    assert (fixed["offset"] == 0.002).all() and (fixed["x"] == 0.5).all()


def test_local_workers_are_bounded_by_the_cores(table, singles, tmp_path):
    """A local run starts at most WORKERS_PER_CORE processes per core: 100,000 workers would
    start one process per chunk. The API raises BatchError; the CLI says so in one line."""
    most = WORKERS_PER_CORE * local_cores()
    sampler = ShotSampler(4, VARY, seed=1)
    for bad in (most + 1, 100_000, True):
        with pytest.raises(BatchError, match="workers must be"):
            simulate_many(table, singles, sampler, workers=bad, chunk_size=2)
    for bad_chunk in (0, 2.0, True):  # a bool is no count (True was taken as chunks of 1)
        with pytest.raises(BatchError, match="chunk_size must be a positive integer"):
            simulate_many(table, singles, sampler, workers=1, chunk_size=bad_chunk)
    out = tmp_path / "w.parquet"
    cli = subprocess.run([sys.executable, "-m", "cuesim", "batch", "novus", "--shots", "4",
                          "--workers", "100000", "--out", str(out)], capture_output=True,
                         text=True)
    assert cli.returncode == 2 and not out.exists()
    assert cli.stderr.strip().splitlines() == [
        f"cuesim: error: workers must be at most {most} here ({WORKERS_PER_CORE} processes per "
        f"core, {local_cores()} cores), got 100000"]
