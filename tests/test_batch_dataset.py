"""Partitioned Parquet datasets written by the workers, their manifest and resume (after an
interrupt or a client killed with SIGKILL), and per-shot event logs in every output."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from cuesim import simulate
from cuesim.batch import BatchError, ShotSampler, read_results, simulate_many, simulate_to_file
from cuesim.batch.core import Setup, make_shot
from cuesim.batch.dataset import MANIFEST, simulate_to_dataset
from cuesim.cli import main
from tests.batch_util import assert_same, second_run_refused

pytest.importorskip("pyarrow")

SAMPLER = ShotSampler(25, {"angle": (1.3, 1.85), "speed": (2.0, 8.0)}, seed=4)


@pytest.fixture(scope="module")
def reference(table, singles):
    return simulate_many(table, singles, SAMPLER, workers=1, chunk_size=6, events=True)


def _manifest(folder):
    return json.loads((folder / MANIFEST).read_text())


@pytest.mark.parametrize("workers", [1, 2])
def test_workers_write_the_parts_of_a_dataset(tmp_path, table, singles, reference, workers):
    import pyarrow.dataset as pds

    out = tmp_path / "ds"
    info = simulate_to_dataset(table, singles, SAMPLER, out, workers=workers, chunk_size=6,
                               events=True)
    assert info["complete"] and info["done"] == [[0, 5]]
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST] + [
        f"part-{c:06d}.parquet" for c in range(5)]
    assert_same(reference, read_results(out))
    assert pds.dataset(out, format="parquet").count_rows() == 25  # any reader sees one table
    again = simulate_to_dataset(table, singles, SAMPLER, out, workers=1, chunk_size=6,
                                events=True)
    assert again["already_complete"]


def test_an_interrupted_dataset_resumes_from_its_manifest(tmp_path, table, singles, reference):
    out = tmp_path / "ds"
    seen: list[int] = []

    def stop_after_two(c):
        seen.append(c)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate_to_dataset(table, singles, SAMPLER, out, workers=1, chunk_size=6, events=True,
                            on_chunk=stop_after_two)
    info = _manifest(out)
    assert info["done"] == [[0, 2]] and not info["complete"]
    with pytest.raises(BatchError, match="is not complete \\(2 of 5 chunks done\\)"):
        read_results(out)
    again: list[int] = []
    simulate_to_dataset(table, singles, SAMPLER, out, workers=2, chunk_size=6, events=True,
                        on_chunk=again.append)
    assert sorted(again) == [2, 3, 4]
    assert_same(reference, read_results(out))
    with pytest.raises(BatchError, match="holds a run with other settings \\(n_chunks, "
                                         "n_shots, source differ\\)"):
        simulate_to_dataset(table, singles, ShotSampler(7, SAMPLER.vary, seed=4), out,
                            workers=1, chunk_size=6, events=True)
    simulate_to_dataset(table, singles, ShotSampler(7, SAMPLER.vary, seed=4), out, workers=1,
                        chunk_size=6, overwrite=True)
    assert len(read_results(out)) == 7 and len(list(out.glob("part-*"))) == 2


BATCH = ["batch", "9-ball", "--shots", "240", "--vary", "speed=3:9", "--vary", "angle=80:100",
         "--chunk-size", "4", "--ruling", "--quiet", "--dataset"]


def test_a_killed_client_resumes(tmp_path):
    """The client process gets SIGKILL (no clean-up at all) once parts are being written; the
    same command run again finishes the dataset with exactly the numbers of a whole run."""
    out = tmp_path / "ds"
    proc = subprocess.Popen([sys.executable, "-m", "cuesim", *BATCH, "--workers", "1",
                             "--out", str(out)], stderr=subprocess.PIPE)
    try:
        while proc.poll() is None and not list(out.glob("part-*.parquet")):
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    assert main([*BATCH, "--workers", "1", "--out", str(out)]) == 0
    assert _manifest(out)["complete"]
    whole = tmp_path / "whole"
    assert main([*BATCH, "--workers", "1", "--out", str(whole)]) == 0
    assert_same(read_results(whole), read_results(out))


def test_event_logs_in_every_output(tmp_path, table, singles, reference):
    setup = Setup(table, singles, "striker")
    for k in (0, 7, 24):
        r = simulate(table, singles, make_shot(setup, reference.params, k))
        assert np.array_equal(reference.events(k), r.events)
    assert reference["events"].shape == (int(reference["n_events"].sum()), 7)
    plain = simulate_many(table, singles, SAMPLER, workers=1, chunk_size=6)
    assert_same(plain, reference, plain.keys())  # the same summary with or without logs
    with pytest.raises(BatchError, match="holds no event logs"):
        plain.events(0)
    for ext in (".parquet", ".npz"):
        out = tmp_path / f"e{ext}"
        simulate_to_file(table, singles, SAMPLER, out, workers=2, chunk_size=6, events=True)
        back = read_results(out)
        assert_same(reference, back)
        assert np.array_equal(back.events(7), reference.events(7))


def test_an_fsspec_url(table, singles, reference):
    fsspec = pytest.importorskip("fsspec")
    url = f"memory://cuesim-test-{os.getpid()}/ds"
    try:
        simulate_to_dataset(table, singles, SAMPLER, url, workers=1, chunk_size=6, events=True)
        assert_same(reference, read_results(url))
    finally:
        fsspec.filesystem("memory").rm(f"/cuesim-test-{os.getpid()}", recursive=True)


def test_bad_dataset_outputs_give_one_line(tmp_path, capsys):
    (tmp_path / "foreign").mkdir()
    (tmp_path / "foreign" / "notes.txt").write_text("mine")
    (tmp_path / "file").write_text("x")
    args = ["batch", "novus", "--shots", "3", "--workers", "1", "--quiet"]
    cases = [
        (["--dataset", "--out", str(tmp_path / "foreign")], "holds files that are not a cuesim "
                                                             "dataset (notes.txt"),
        (["--dataset", "--out", str(tmp_path / "file")], "is a file; a dataset (--dataset) is "
                                                          "a folder"),
        (["--dataset", "--out", str(tmp_path / "no" / "ds")], "does not exist"),
        (["--dataset", "--out", "nope://bucket/ds"], "Protocol not known: nope"),
        (["--dataset", "--out", str(tmp_path / "b.npz")], "a dataset (--dataset) is a folder of "
                                                          "Parquet parts, not an .npz file"),
        (["--out", "memory://bucket/ds.parquet"], "only a dataset (--dataset) is written"),
    ]
    for extra, message in cases:
        code = main([*args, *extra])
        err = capsys.readouterr().err
        assert code == 2 and message in err and err.count("\n") == 1, err
    assert sorted(p.name for p in (tmp_path / "foreign").iterdir()) == ["notes.txt"]
    assert not (tmp_path / "no").exists()
    code = main([*args, "--dataset", "--vary", "speed=1:40", "--out", str(tmp_path / "bad")])
    assert code == 2 and not (tmp_path / "bad").exists()
    with pytest.raises(BatchError, match="does not exist"):
        read_results(tmp_path / "none.parquet")


def test_a_run_that_fails_before_any_chunk_leaves_no_folder(tmp_path, table, singles):
    shots = {"x": np.full(4, 0.5), "angle": np.full(4, 1.5), "speed": np.array([40.0, 3, 3, 3])}
    out = tmp_path / "ds"
    with pytest.raises(BatchError, match="shot 0: "):
        simulate_to_dataset(table, singles, shots, out, workers=1, chunk_size=2)
    assert not out.exists()


def test_a_dataset_is_not_resumed_with_the_varied_parameters_in_another_order(tmp_path, table,
                                                                              singles):
    """The same ranges drawn in another order are other shots (the sampler's order is part of
    the seed's meaning): a dataset of one order is not resumed, nor complete, for the other."""
    out = tmp_path / "ds"
    swapped = ShotSampler(25, {"speed": (2.0, 8.0), "angle": (1.3, 1.85)}, seed=4)
    simulate_to_dataset(table, singles, SAMPLER, out, workers=1, chunk_size=6)
    with pytest.raises(BatchError, match="holds a run with other settings \\(source differ\\)"):
        simulate_to_dataset(table, singles, swapped, out, workers=1, chunk_size=6)


def test_a_second_run_of_a_dataset_being_written_is_refused_at_once(tmp_path, table, singles):
    """Two runs of one local dataset (a command given twice): the second is refused while the
    first writes (it would redo the chunks, rewrite the manifest, and the first's end would
    remove its temporary parts); the lock goes with the run, leaving only the dataset, and the
    same command afterwards finds it complete."""
    out = tmp_path / "ds"
    second_run, refused = second_run_refused(
        lambda: simulate_to_dataset(table, singles, SAMPLER, out, workers=1, chunk_size=6))
    simulate_to_dataset(table, singles, SAMPLER, out, workers=1, chunk_size=6,
                        on_chunk=second_run)
    assert refused and ".ds.lock" in refused[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ds"]  # no lock left behind
    assert len(read_results(out)) == 25
    assert simulate_to_dataset(table, singles, SAMPLER, out, workers=1,
                               chunk_size=6).get("already_complete")


def test_a_dataset_whose_parts_differ_is_refused(tmp_path, table, singles):
    """read_dataset joined its parts unchecked: a part rewritten without a column was a
    KeyError, one with a column short by a row loaded shifted. Now a BatchError naming the
    dataset and the part or column."""
    import pyarrow.parquet as pq

    out = tmp_path / "ds"
    simulate_to_dataset(table, singles, SAMPLER, out, workers=1, chunk_size=6)
    part = out / "part-000002.parquet"
    t = pq.read_table(part)
    pq.write_table(t.drop_columns(["duration"]).replace_schema_metadata(t.schema.metadata), part)
    with pytest.raises(BatchError, match=r"part-000002.parquet has the columns .* the parts of "
                                         "one run have the same columns"):
        read_results(out)
    whole = out / "part-000000.parquet"
    t = pq.read_table(whole)
    pq.write_table(t.drop_columns(["duration"]).replace_schema_metadata(t.schema.metadata),
                   whole)
    for name in ("part-000001.parquet", "part-000003.parquet", "part-000004.parquet"):
        t = pq.read_table(out / name)
        pq.write_table(t.drop_columns(["duration"]).replace_schema_metadata(t.schema.metadata),
                       out / name)
    with pytest.raises(BatchError, match=f"{out}.*it has no column 'duration'"):
        read_results(out)
