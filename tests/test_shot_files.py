"""ShotResult.to_dict(exact=True) / from_dict and the .json / .npz shot files: a shot reloads
bit for bit, and a bad dict or file is one ShotFileError naming the field."""

from __future__ import annotations

import json
import math
import zipfile

import numpy as np
import pytest

from cuesim import ShotResult
from cuesim.shotfile import ShotFileError
from tests.shot_fixtures import ALL, nine_ball_break, novus_opening


def assert_identical(a: ShotResult, b: ShotResult) -> None:
    for name in ("events", "segments", "final_positions", "final_on"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape
        assert x.tobytes() == y.tobytes(), name  # bit for bit, -0.0 included
    assert (a.table, a.initial, a.truncated, a.shot) == (b.table, b.initial, b.truncated, b.shot)
    assert a.feature_names == b.feature_names
    assert a.to_dict(trajectories=True) == b.to_dict(trajectories=True)


@pytest.mark.parametrize("shot", ALL, ids=lambda f: f.__name__)
def test_dict_round_trip_through_json_text(shot):
    result = shot()
    text = json.dumps(result.to_dict(exact=True), allow_nan=False)
    again = ShotResult.from_dict(json.loads(text))
    assert_identical(result, again)
    times = np.linspace(0, result.duration, 50)
    assert result.sample(times).positions.tobytes() == again.sample(times).positions.tobytes()


@pytest.mark.parametrize("suffix", [".json", ".npz"])
@pytest.mark.parametrize("shot", ALL, ids=lambda f: f.__name__)
def test_file_round_trip(shot, suffix, tmp_path):
    result = shot()
    path = tmp_path / f"shot{suffix}"
    result.save(path)
    assert_identical(result, ShotResult.load(path))


def test_npz_is_compact(tmp_path):
    result = nine_ball_break()
    result.save(tmp_path / "a.json")
    result.save(tmp_path / "a.npz")
    assert (tmp_path / "a.npz").stat().st_size < (tmp_path / "a.json").stat().st_size / 3


def test_readable_dict_is_unchanged_by_default():
    result = novus_opening()
    assert "exact" not in result.to_dict()
    exact = result.to_dict(exact=True)
    assert {k: v for k, v in exact.items() if k != "exact"} == result.to_dict()


def test_a_run_motion_result_without_a_shot_reloads():
    from cuesim import Layout, Piece, novus_table
    from cuesim.sim import run_motion

    layout = Layout("novus", (Piece("a", "puck", 0.3, 0.5, "red"), Piece("b", "puck", 0.5, 0.5)))
    result = run_motion(novus_table(), layout, {"a": (1.5, 0.0, 0.0)})
    assert_identical(result, ShotResult.from_dict(result.to_dict(exact=True)))


def _exact():
    return json.loads(json.dumps(nine_ball_break().to_dict(exact=True)))


def _set(path, value):
    def edit(d):
        *head, last = path
        for key in head:
            d = d[key]
        d[last] = value
    return edit


@pytest.mark.parametrize("edit, match", [
    (lambda d: d.pop("exact"), "no 'exact' block"),
    (_set(("exact", "format"), "other"), r"exact.format must be 'cuesim-shot'"),
    (_set(("exact", "version"), 99), "version 99 is not supported"),
    (_set(("exact", "version"), True), "version True is not supported"),  # true == 1
    (_set(("exact", "version"), 1.0), "version 1.0 is not supported"),
    (_set(("table",), 3), "table must be a table name"),
    (_set(("truncated",), "no"), "truncated must be true or false"),
    (_set(("initial", "table"), "novus"), "is not the shot's table"),
    (_set(("initial", "pieces", 0, "x"), "left"), r"pieces\[0\].x must be a number"),
    (_set(("initial", "pieces", 0, "x"), 5.0), "initial"),
    (_set(("exact", "events", 3, 0), -1.0), r"events\[3\]: t must be a time >= 0"),
    (_set(("exact", "events", 5, 0), 0.0), r"events\[5\]: t comes before"),
    (_set(("exact", "events", 2, 1), 42), r"events\[2\]: kind must be an event kind"),
    (_set(("exact", "events", 2, 2), 10), r"events\[2\]: a must be a piece index 0..9"),
    (_set(("exact", "events", 2, 3), 1.5), r"events\[2\]: b must be -1 or a piece index"),
    (_set(("exact", "events", 2, 6), 2), r"direction must be -1, 0 or 1"),
    (_set(("exact", "events", 2), [0.1, 1, 0]), r"events\[2\] must be a list of 7 numbers"),
    (_set(("exact", "events", 2, 5), None), r"events\[2\]\[5\] must be a number"),
    (_set(("exact", "events", 2, 5), True), r"events\[2\]\[5\] must be a number"),
    (_set(("exact", "segments", 0, 0), 12), r"segments\[0\]: obj must be a piece index"),
    (_set(("exact", "segments", 0, 1), None), r"segments\[0\]\[1\] must be a number"),
    (_set(("exact", "segments", 0, 11), 0.5), r"segments\[0\]: on must be 0 or 1"),
    (_set(("exact", "segments", 0, 12), 1e6), r"segments\[0\]: event must be -1 or"),
    (_set(("exact", "segments", 0, 2), -1.0), r"segments\[0\]: t1 must not come before t0"),
    (_set(("exact", "final_on"), [True]), "final_on must have 10 flags"),
    (_set(("exact", "final_on"), "yes"), "final_on must be a list of true/false"),
    (_set(("exact", "final_positions"), [[0.0, 0.0]]), "final_positions must be 10 finite"),
    (_set(("exact", "feature_names"), {"wall": []}), "feature_names must be an object"),
    (_set(("exact", "segment_columns"), ["x"]), "segment_columns must be"),
    (_set(("shot", "speed"), "fast"), r"shot.speed must be a finite number"),
    (_set(("shot", "position"), [1.0]), r"shot.position must be null or \[x, y\]"),
    (_set(("shot",), [1]), r"shot must be an object"),
])
def test_bad_dicts_name_the_field(edit, match):
    data = _exact()
    edit(data)
    with pytest.raises(ShotFileError, match=match):
        ShotResult.from_dict(data, "bad.json")
    assert issubclass(ShotFileError, ValueError)


def test_a_feature_index_the_table_does_not_have():
    data = _exact()
    row = next(r for r in data["exact"]["events"] if r[1] == 2)  # a rail event
    row[4] = 99
    with pytest.raises(ShotFileError, match="index names no rail"):
        ShotResult.from_dict(data)


def test_a_piece_back_on_the_table_after_it_dropped():
    data = _exact()
    segs = data["exact"]["segments"]
    k = max(i for i, s in enumerate(segs) if s[11] == 0)
    segs.append([segs[k][0], segs[k][1] + 1.0, None, *segs[k][3:11], 1, -1])
    with pytest.raises(ShotFileError, match="comes back onto the table"):
        ShotResult.from_dict(data)


def test_not_a_dict():
    with pytest.raises(ShotFileError, match="expected an object"):
        ShotResult.from_dict([1, 2])


def test_bad_files(tmp_path):
    result = nine_ball_break()
    with pytest.raises(ShotFileError, match="must end in .json or .npz"):
        result.save(tmp_path / "shot.txt")
    with pytest.raises(ShotFileError, match="cannot read shot file"):
        ShotResult.load(tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ShotFileError, match="not a readable .npz"):
        ShotResult.load(tmp_path / "junk.npz")
    (tmp_path / "nan.json").write_text('{"table": NaN}')
    with pytest.raises(ShotFileError, match="NaN is not a JSON number"):
        ShotResult.load(tmp_path / "nan.json")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ShotFileError, match="not UTF-8"):
        ShotResult.load(tmp_path / "bin.json")


def _npz(tmp_path, **changes):
    path = tmp_path / "shot.npz"
    nine_ball_break().save(path)
    with np.load(path) as npz:
        arrays = {k: npz[k] for k in npz.files}
    arrays.update(changes)
    arrays = {k: v for k, v in arrays.items() if v is not None}
    np.savez(path, **arrays)
    return path


@pytest.mark.parametrize("changes, match", [
    ({"events": None}, "has no array 'events'"),
    ({"events": np.zeros((3, 6))}, r"events must be a float64 array of shape \(rows, 7\)"),
    ({"final_on": np.ones(10)}, "final_on must be a bool array"),
    ({"meta": np.array(["{"])}, "'meta' must be one JSON string"),
    ({"meta": np.array("{")}, "'meta' is not valid JSON"),
    ({"meta": np.array("[]")}, "'meta' must be a JSON object"),
    ({"meta": np.array('{"format": "cuesim-shot", "version": 0}')}, "version 0 is not"),
    ({"segments": np.full((2, 13), math.nan)}, r"segments\[0\]: every number must be finite"),
])
def test_bad_npz_files(tmp_path, changes, match):
    path = _npz(tmp_path, **changes)
    with pytest.raises(ShotFileError, match=match):
        ShotResult.load(path)


def test_an_npz_holding_pickles_is_refused(tmp_path):
    path = tmp_path / "shot.npz"
    nine_ball_break().save(path)
    with zipfile.ZipFile(path) as z:
        files = {n: z.read(n) for n in z.namelist()}
    np.save(tmp_path / "obj.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    files["events.npy"] = (tmp_path / "obj.npy").read_bytes()
    with zipfile.ZipFile(path, "w") as z:
        for name, raw in files.items():
            z.writestr(name, raw)
    with pytest.raises(ShotFileError, match="not a readable .npz"):
        ShotResult.load(path)


def test_a_shot_that_does_not_reload_is_refused():
    result = nine_ball_break()
    odd = ShotResult(**{**{f: getattr(result, f) for f in (
        "table", "initial", "final_positions", "final_on", "events", "segments",
        "feature_names", "truncated")}, "shot": object()})
    with pytest.raises(ShotFileError, match="cannot be written"):
        odd.to_dict(exact=True)


@pytest.mark.truncation
def test_a_truncated_shot_reloads_as_truncated(tmp_path):
    from tests.shot_fixtures import truncated_break

    result = truncated_break()
    assert result.truncated
    result.save(tmp_path / "t.npz")
    again = ShotResult.load(tmp_path / "t.npz")
    assert_identical(result, again)
    assert again.to_dict()["final"] is None and again.moving() == result.moving()
