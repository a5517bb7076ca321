"""The result files a user reads are labelled: status and first_kind as categories, a
first_contact column, the angles in degrees beside the radians; reading any file (labelled,
older, or a resumed older run) gives the same BatchResult codes."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

import cuesim
from cuesim.api import game_table
from cuesim.batch import read_results, simulate_many, simulate_to_dataset, simulate_to_file
from cuesim.batch.dataset import MANIFEST, part_name
from cuesim.batch.job import FIRST_KINDS
from cuesim.batch.store import arrow_arrays, arrow_table, parts_dir
from tests.batch_util import assert_same

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

OLD_UNITS = "SI (m, s, m/s), angles in radians"  # the manifest's text before the labels
STATUS_LABELS = ["simulated", "not playable"]
NAN = math.nan
# one shot of each kind: the 1 ball first, a rail first, nothing touched, a cue ball placed on
# the 1 ball (not playable, errors='mark'), an elevated shot, the head rail first
SHOTS = {
    "angle": np.array([math.pi / 2, 0.0, 0.0, math.pi / 2, math.pi / 2 + 0.3, -math.pi / 2]),
    "speed": np.array([6.0, 2.0, 0.01, 3.0, 3.0, 3.0]),
    "elevation": np.array([0.0, 0.0, 0.0, 0.0, 0.2, 0.0]),
    "x": np.array([NAN, NAN, NAN, 0.635, NAN, NAN]),
    "y": np.array([NAN, NAN, NAN, 1.905, NAN, NAN]),
}
RUN = {"workers": 1, "chunk_size": 4, "errors": "mark"}


@pytest.fixture(scope="module")
def nine():
    table = game_table("9-ball")
    return table, cuesim.start_layout("9-ball", table)


@pytest.fixture(scope="module")
def reference(nine):
    res = simulate_many(*nine, SHOTS, **RUN)
    assert set(res["status"]) == {0, 1} and set(res["first_kind"]) == {0, 1, 2}
    return res


def _old_style(manifest):
    """A manifest as written before the labels."""
    old = {k: v for k, v in manifest.items() if k != "status_labels"}
    old["units"] = OLD_UNITS
    return old


def _check_labelled(table, res):
    """`table` (pyarrow) holds res's rows, labelled."""
    for name, labels in (("status", STATUS_LABELS), ("first_kind", list(FIRST_KINDS))):
        column = table.column(name)
        assert pa.types.is_dictionary(column.type), name
        assert pa.types.is_integer(column.type.index_type)  # int8 as written; pyarrow 14 reads
        # a Parquet dictionary's indices back as int32
        assert column.to_pylist() == [labels[c] for c in res[name]], name
    contacts = table.column("first_contact").to_pylist()
    assert contacts == [res.first_contact(k) for k in range(len(res))]
    assert None in contacts and "1" in contacts and "rail:head_rail" in contacts
    for name in ("angle", "elevation"):
        deg = table.column(f"param.{name}_deg").to_numpy()
        np.testing.assert_allclose(deg, np.degrees(res[f"param.{name}"]), rtol=1e-15, atol=0)
    assert table.column_names.index("first_contact") == \
        table.column_names.index("first_index") + 1
    assert table.column_names.index("param.angle_deg") == \
        table.column_names.index("param.angle") + 1
    frame = table.to_pandas()
    assert isinstance(frame["status"].dtype, pd.CategoricalDtype)
    assert list(frame["status"].cat.categories) == STATUS_LABELS
    assert list(frame["first_kind"].cat.categories) == list(FIRST_KINDS)
    assert (frame["status"] == "not playable").sum() == (res["status"] == 1).sum()


def test_parquet_file_is_labelled_and_reads_back_the_codes(tmp_path, nine, reference):
    out = tmp_path / "b.parquet"
    simulate_to_file(*nine, SHOTS, out, **RUN)
    _check_labelled(pq.read_table(out), reference)
    frame = pd.read_parquet(out)
    assert list(frame["first_kind"].cat.categories) == list(FIRST_KINDS)
    back = read_results(out)
    assert sorted(back.keys()) == sorted(reference.keys())  # no label or degree column
    assert_same(reference, back)
    assert back["status"].dtype == np.int8 and back["first_kind"].dtype == np.int8
    assert back.manifest["status_labels"] == STATUS_LABELS
    assert back.manifest["first_kinds"] == list(FIRST_KINDS)
    assert "param.angle_deg" in back.manifest["units"]
    assert not any(p.name.startswith(".") for p in tmp_path.iterdir())


def test_dataset_parts_are_labelled_and_read_back_the_codes(tmp_path, nine, reference):
    import pyarrow.dataset as pds

    out = tmp_path / "ds"
    simulate_to_dataset(*nine, SHOTS, out, **RUN)
    parts = [pq.read_table(out / part_name(c)) for c in range(2)]
    _check_labelled(pa.concat_tables(parts), reference)
    _check_labelled(pds.dataset(out, format="parquet").to_table(), reference)
    back = read_results(out)
    assert sorted(back.keys()) == sorted(reference.keys())
    assert_same(reference, back)


def test_npz_has_the_label_lists_and_the_degrees(tmp_path, nine, reference):
    out = tmp_path / "b.npz"
    simulate_to_file(*nine, SHOTS, out, **RUN)
    with np.load(out) as data:
        manifest = json.loads(str(data["manifest"]))
        for name in ("angle", "elevation"):
            np.testing.assert_allclose(data[f"param.{name}_deg"],
                                       np.degrees(reference[f"param.{name}"]), rtol=1e-15)
    assert manifest["status_labels"] == STATUS_LABELS
    assert manifest["first_kinds"] == list(FIRST_KINDS)
    back = read_results(out)
    assert sorted(back.keys()) == sorted(reference.keys())
    assert_same(reference, back)


def test_files_written_before_the_labels_still_read(tmp_path, reference):
    old = _old_style(reference.manifest)
    arrays = {k: reference[k] for k in reference.keys()}
    table = arrow_table(arrays, reference.ids, tuple(old["event_kinds"]))  # the raw codes
    assert not pa.types.is_dictionary(table.schema.field("status").type)
    path = tmp_path / "old.parquet"
    pq.write_table(table.replace_schema_metadata({b"cuesim": json.dumps(old).encode()}), path)
    assert_same(reference, read_results(path))
    path = tmp_path / "old.npz"
    np.savez(path, manifest=np.array(json.dumps(old)),
             **{k: v.astype(str) if v.dtype == object else v for k, v in arrays.items()})
    assert_same(reference, read_results(path))


@pytest.mark.parametrize("ext", [".parquet", ".npz"])
def test_a_run_interrupted_before_the_labels_resumes(tmp_path, nine, reference, ext):
    out = tmp_path / f"b{ext}"

    def stop(c):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate_to_file(*nine, SHOTS, out, on_chunk=stop, **RUN)
    manifest = parts_dir(out) / "manifest.json"
    manifest.write_text(json.dumps(_old_style(json.loads(manifest.read_text()))))
    again: list[int] = []
    simulate_to_file(*nine, SHOTS, out, on_chunk=again.append, **RUN)
    assert again == [1]
    assert_same(reference, read_results(out))
    if ext == ".parquet":
        _check_labelled(pq.read_table(out), reference)


def test_a_dataset_begun_before_the_labels_resumes_without_them(tmp_path, nine, reference):
    """Its parts stay alike (raw codes), so any Parquet reader still takes them as one table."""
    import pyarrow.dataset as pds

    out = tmp_path / "ds"

    def stop(c):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate_to_dataset(*nine, SHOTS, out, on_chunk=stop, **RUN)
    info = _old_style(json.loads((out / MANIFEST).read_text()))
    (out / MANIFEST).write_text(json.dumps(info))
    first = out / part_name(0)
    raw = arrow_table(arrow_arrays(pq.read_table(first), info["ids"], tuple(info["event_kinds"])),
                      info["ids"], tuple(info["event_kinds"]))
    pq.write_table(raw, first)
    again: list[int] = []
    simulate_to_dataset(*nine, SHOTS, out, on_chunk=again.append, **RUN)
    assert again == [1]
    assert "status_labels" not in json.loads((out / MANIFEST).read_text())
    whole = pds.dataset(out, format="parquet").to_table()
    assert "first_contact" not in whole.column_names
    assert whole.column("status").to_pylist() == list(reference["status"])
    assert_same(reference, read_results(out))
