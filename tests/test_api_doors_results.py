"""API doors found open by an audit: each wrong input is refused with the package's error,
naming what was expected, instead of a TypeError deep inside, a silent reading, or another
library's exception (README: the errors table)."""

from __future__ import annotations

import numpy as np
import pytest

from cuesim import NovusShot, SimulationError, novus_table, simulate, start_layout
from cuesim.batch import BatchError, ShotSampler, read_results, simulate_many

TABLE = novus_table()
LAYOUT = start_layout("novus")


@pytest.mark.parametrize("bounds", [("1", "2"), ("1.5", 3.0), (True, 3.0), (np.True_, 3.0),
                                    "12", b"12", (1.0, 2.0, 3.0), 5.0])
def test_a_sampler_range_must_be_two_numbers(bounds):
    """float('2') read text as a number, so ('1', '2') was accepted and failed later with a
    TypeError in the drawing."""
    with pytest.raises(BatchError, match="range of 'speed' must be two numbers lo, hi"):
        ShotSampler(3, {"speed": bounds})


@pytest.fixture(scope="module")
def result():
    return simulate_many(TABLE, LAYOUT, ShotSampler(3, {"speed": (2.0, 3.0)}, seed=2),
                         workers=1)


@pytest.mark.parametrize("method", ["first_contact", "pocketed_ids"])
@pytest.mark.parametrize("row, message", [
    (3, "shot row 3 is not in this result of 3 shots"),
    (-4, "shot row -4 is not in this result of 3 shots"),
    ("a", "must be an integer, got 'a'"), (1.5, "must be an integer, got 1.5"),
    (True, "must be an integer, got True"), (None, "must be an integer, got None"),
])
def test_a_batch_result_row_is_checked(result, method, row, message):
    with pytest.raises(BatchError, match=f"{method}: .*{message}"):
        getattr(result, method)(row)


def test_a_batch_result_row_counts_from_the_end_as_a_list_does(result):
    assert result.first_contact(-1) == result.first_contact(2)
    assert result.pocketed_ids(np.int64(0)) == result.pocketed_ids(0)


@pytest.mark.parametrize("times", [True, [True, 0.5], "1", b"1", [0.1, "0.2"], [0.1, None]])
def test_sample_times_must_be_numbers(times):
    """sample(True) sampled t = 1 s: a bool is no time."""
    shot = simulate(TABLE, LAYOUT, NovusShot(x=0.5, angle=1.57, speed=3.0))
    with pytest.raises(SimulationError, match="sample: times must be numbers in seconds"):
        shot.sample(times)
    assert list(shot.sample([0, 0.5]).t) == [0.0, 0.5]


@pytest.mark.parametrize("name, raw", [("r.parquet", b"hello"), ("r.npz", b"hello"),
                                       ("r.parquet", b"PAR1" + b"\0" * 64 + b"PAR1"),
                                       ("r.npz", b"PK\x05\x06" + b"\0" * 18)])
def test_read_results_of_a_file_that_is_no_result(tmp_path, name, raw):
    """A file of the right suffix that is no result raised pyarrow's ArrowInvalid or numpy's
    ValueError; now a BatchError naming the file."""
    path = tmp_path / name
    path.write_bytes(raw)
    with pytest.raises(BatchError, match=f"{path.name}.* is not a cuesim batch result"):
        read_results(path)


def test_read_results_of_a_result_missing_a_column(tmp_path):
    """A result file whose manifest reads but whose arrays are not all there raised a
    KeyError later (in BatchResult or first_contact): refused when read, naming the column."""
    import json

    path = tmp_path / "r.npz"
    manifest = np.array(json.dumps({"ids": ["a"], "event_kinds": []}))
    np.savez(path, manifest=manifest)
    with pytest.raises(BatchError, match="r.npz' is not a whole cuesim batch result: it has no "
                                         "column 'shot'"):
        read_results(path)
    whole = {"shot": np.arange(3), "status": np.zeros(3, int), "final_xy": np.zeros((3, 2, 2)),
             "final_on": np.zeros((3, 1), bool), "pocketed": np.zeros((3, 1), bool),
             "first_kind": np.zeros(3, int), "first_index": np.zeros(3, int),
             "first_t": np.zeros(3), "event_counts": np.zeros((3, 0), int),
             "n_events": np.zeros(3, int), "duration": np.zeros(3),
             "truncated": np.zeros(3, bool)}
    np.savez(path, manifest=manifest, **whole)
    with pytest.raises(BatchError, match=r"column 'final_xy' has shape \(3, 2, 2\), expected "
                                         r"\(3, 1, 2\)"):
        read_results(path)
