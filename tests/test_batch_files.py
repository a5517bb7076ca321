"""Streaming to Parquet and .npz, the final file only when complete, resuming a run."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cuesim.batch import BatchError, ShotSampler, read_results, simulate_many, simulate_to_file
from cuesim.batch.store import parts_dir
from tests.batch_util import assert_same, second_run_refused

SAMPLER = ShotSampler(25, {"angle": (1.3, 1.85), "speed": (2.0, 8.0)}, seed=4)


@pytest.fixture(scope="module")
def reference(table, singles):
    return simulate_many(table, singles, SAMPLER, workers=1, chunk_size=6)


@pytest.mark.parametrize("ext", [".npz", ".parquet"])
def test_file_holds_the_in_memory_result_and_a_manifest(tmp_path, table, singles, reference,
                                                          ext):
    out = tmp_path / f"res{ext}"
    manifest = simulate_to_file(table, singles, SAMPLER, out, workers=1, chunk_size=6)
    assert out.exists() and not parts_dir(out).exists()
    back = read_results(out)
    assert_same(reference, back)
    assert back.ids == reference.ids
    assert back.manifest["source"] == {"kind": "sample", "n": 25, "seed": 4,
                                       "vary": {"angle": [1.3, 1.85], "speed": [2.0, 8.0]},
                                       "fixed": {}}
    assert back.manifest["n_chunks"] == manifest["n_chunks"] == 5


@pytest.mark.parametrize("ext", [".npz", ".parquet"])
def test_an_interrupted_run_resumes_from_its_chunks(tmp_path, table, singles, reference, ext):
    out = tmp_path / f"res{ext}"
    seen: list[int] = []

    def stop_after_two(c):
        seen.append(c)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate_to_file(table, singles, SAMPLER, out, workers=1, chunk_size=6,
                         on_chunk=stop_after_two)
    assert not out.exists()  # no partial file presented as complete
    parts = parts_dir(out)
    assert len(list(parts.glob(f"chunk-*{ext}"))) == 2
    assert json.loads((parts / "manifest.json").read_text())["n_shots"] == 25
    again: list[int] = []
    simulate_to_file(table, singles, SAMPLER, out, workers=2, chunk_size=6,
                     on_chunk=again.append)
    assert sorted(again) == [2, 3, 4]  # only the chunks not yet written
    assert_same(reference, read_results(out))


def test_an_existing_output_is_refused_unless_overwrite(tmp_path, table, singles):
    out = tmp_path / "res.npz"
    out.write_bytes(b"old")
    with pytest.raises(BatchError, match="exists; pass --overwrite"):
        simulate_to_file(table, singles, SAMPLER, out, workers=1)
    assert out.read_bytes() == b"old"
    simulate_to_file(table, singles, SAMPLER, out, workers=1, overwrite=True)
    assert len(read_results(out)) == 25


def test_a_different_interrupted_run_is_not_mixed_in(tmp_path, table, singles):
    out = tmp_path / "res.npz"

    def stop(c):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate_to_file(table, singles, SAMPLER, out, workers=1, chunk_size=6, on_chunk=stop)
    other = ShotSampler(25, {"angle": (1.3, 1.85), "speed": (2.0, 8.0)}, seed=5)
    with pytest.raises(BatchError, match="interrupted run with other settings.*source"):
        simulate_to_file(table, singles, other, out, workers=1, chunk_size=6)
    simulate_to_file(table, singles, other, out, workers=1, chunk_size=6, overwrite=True)
    assert read_results(out).manifest["source"]["seed"] == 5


def test_ruling_columns_are_stored(tmp_path, table, singles):
    sampler = ShotSampler(3, {"speed": (2.0, 8.0)}, seed=1)
    for ext in (".npz", ".parquet"):
        out = tmp_path / f"rul{ext}"
        simulate_to_file(table, singles, sampler, out, workers=1, ruling=True)
        back = read_results(out)
        assert back["legal"].dtype == np.bool_ and len(back["articles"]) == 3
        in_memory = simulate_many(table, singles, sampler, workers=1, ruling=True)
        assert list(in_memory["articles"]) == list(back["articles"])
        assert all(isinstance(a, str) for a in back["articles"])


def test_overwrite_still_resumes_the_same_interrupted_run(tmp_path, table, singles, reference):
    out = tmp_path / "res.npz"
    out.write_bytes(b"an older result")

    def stop(c):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate_to_file(table, singles, SAMPLER, out, workers=1, chunk_size=6, on_chunk=stop,
                         overwrite=True)
    assert out.read_bytes() == b"an older result"  # replaced only when the new one is complete
    again: list[int] = []
    simulate_to_file(table, singles, SAMPLER, out, workers=1, chunk_size=6, overwrite=True,
                     on_chunk=again.append)
    assert sorted(again) == [1, 2, 3, 4]
    assert_same(reference, read_results(out))


def test_a_layout_without_the_striker_gets_it_added(tmp_path, table, singles):
    from tests.batch_util import assert_equals_loop

    layout = singles.without(["striker"])
    res = simulate_many(table, layout, ShotSampler(4, {"speed": (2.0, 8.0)}, seed=2), workers=1)
    assert res.ids[-1] == "striker"
    assert_equals_loop(table, layout, res, "striker")


SWAPPED = ShotSampler(25, {"speed": (2.0, 8.0), "angle": (1.3, 1.85)}, seed=4)


def test_another_order_of_the_varied_parameters_is_another_run(tmp_path, table, singles):
    """The sampler draws its parameters in the order given, so the same ranges in another order
    are other shots: an interrupted run is not resumed with them (it would mix two runs), and
    a finished file is not 'already complete' for them."""
    assert not np.array_equal(simulate_many(table, singles, SWAPPED, workers=1)["param.speed"],
                              simulate_many(table, singles, SAMPLER, workers=1)["param.speed"])
    out = tmp_path / "res.npz"

    def stop(c):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate_to_file(table, singles, SAMPLER, out, workers=1, chunk_size=6, on_chunk=stop)
    with pytest.raises(BatchError, match="interrupted run with other settings \\(source differ"):
        simulate_to_file(table, singles, SWAPPED, out, workers=1, chunk_size=6)
    simulate_to_file(table, singles, SAMPLER, out, workers=1, chunk_size=6)
    assert simulate_to_file(table, singles, SAMPLER, out, workers=1,
                            chunk_size=6).get("already_complete")
    with pytest.raises(BatchError, match="exists; pass --overwrite"):
        simulate_to_file(table, singles, SWAPPED, out, workers=1, chunk_size=6)


def test_a_second_run_of_an_output_being_written_is_refused_at_once(tmp_path, table, singles):
    """Two runs of one output (a command given twice, a retried job): the second is refused
    while the first writes, instead of doing its chunks again and then failing on the folder
    the first removed; the lock goes with the run, so the output is written and the same
    command afterwards finds it complete."""
    out = tmp_path / "res.npz"
    second_run, refused = second_run_refused(
        lambda: simulate_to_file(table, singles, SAMPLER, out, workers=1, chunk_size=6))
    simulate_to_file(table, singles, SAMPLER, out, workers=1, chunk_size=6, on_chunk=second_run)
    assert refused and len(read_results(out)) == 25
    assert sorted(p.name for p in tmp_path.iterdir()) == ["res.npz"]  # no lock left behind
    assert simulate_to_file(table, singles, SAMPLER, out, workers=1,
                            chunk_size=6).get("already_complete")


def test_a_lock_file_a_killed_run_left_does_not_stop_the_next(tmp_path, table, singles):
    """The OS releases a killed run's lock; its `.OUT.lock` file stays, and the next run takes
    it and removes it when done."""
    out = tmp_path / "res.npz"
    (tmp_path / ".res.npz.lock").write_text("")
    simulate_to_file(table, singles, SAMPLER, out, workers=1, chunk_size=6)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["res.npz"]


def test_a_column_not_there_is_a_key_error_naming_the_columns(reference):
    """res["speed"] is a KeyError, as a dict's, that names the columns and points at the
    parameter's own column, `param.speed`; res.keys() are exactly the ones it names."""
    with pytest.raises(KeyError, match=r"no column 'speed' \(its parameter is 'param.speed'\); "
                                       r"the columns are status, ") as info:
        reference["speed"]
    assert info.value.args[0].endswith(", ".join(reference.keys()))
    with pytest.raises(KeyError, match="no column 'legal'; the columns are"):
        reference["legal"]  # no ruling asked for
    assert "legal" not in reference and np.array_equal(reference["param.speed"],
                                                       reference.params["speed"])


def _edited_npz(tmp_path, table, singles, edit, ruling=None, events=False):
    path = tmp_path / "res.npz"
    simulate_to_file(table, singles, ShotSampler(6, {"angle": (1.3, 1.85)}, seed=1), path,
                     workers=1, ruling=ruling, events=events)
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    edit(arrays)
    np.savez(path, **arrays)
    return path


@pytest.mark.parametrize("edit, ruling, events, message", [
    (lambda a: a.pop("status"), None, False, "it has no column 'status'"),
    (lambda a: a.pop("legal"), "novus", False, "it has no column 'legal'"),
    (lambda a: a.update(duration=a["duration"][:-1]), None, False,
     r"column 'duration' has shape \(5,\), expected \(6\)"),
    (lambda a: a.update(n_events=a["n_events"].astype(str)), None, False,
     "column 'n_events' holds <U.* values, expected whole numbers"),
    (lambda a: a.update(event_counts=a["event_counts"][:, :3]), None, False,
     r"column 'event_counts' has shape \(6, 3\), expected \(6, 9\)"),
    (lambda a: a.update(**{"param.speed": np.zeros((6, 2))}), None, False,
     r"column 'param.speed' has shape \(6, 2\), expected \(6\)"),
    (lambda a: a.update(events=a["events"][:-1]), None, True,
     r"column 'events' has shape .*: one row per event, as n_events adds up"),
])
def test_a_result_file_with_a_column_edited_is_refused(tmp_path, table, singles, edit, ruling,
                                                      events, message):
    """read_results checked only the six columns BatchResult itself reads: a file with a
    column short by a row, of text, of other widths, or without its ruling columns loaded,
    and answered for the wrong shots. Each is now a BatchError naming the file and column."""
    path = _edited_npz(tmp_path, table, singles, edit, ruling, events)
    with pytest.raises(BatchError, match=message) as info:
        read_results(path)
    assert str(path) in str(info.value)


def test_every_written_result_file_still_reads(tmp_path, table, singles):
    path = _edited_npz(tmp_path, table, singles, lambda a: None, "novus", True)
    assert len(read_results(path)) == 6
