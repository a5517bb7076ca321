"""Shot files (`ShotResult.load`, `ShotResult.from_dict`): the initial layout must be the one the
exact segments start from (and its struck piece the shot's), and no field or archive member may
be one that is not read back.

Before this door checked them, an edited readable `initial` (a piece moved to (0.5, 0.5)) loaded
and was used as the result's `initial` while `positions_at(0)` still gave the segments' start:
the loaded result contradicted itself. Unknown top-level, `exact` or `.npz` `meta` fields and an
extra `.npz` member loaded too, and were silently dropped. Every file the writers produce still
loads (both `.json` and `.npz`, truncated shots and `trajectories=True` dicts included)."""

from __future__ import annotations

import io
import json
import math
import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cuesim import ShotResult
from cuesim.shotfile import ShotFileError
from tests.shot_fixtures import (
    ALL,
    five_pins_shot,
    nine_ball_break,
    novus_opening,
    truncated_break,
)
from tests.test_shotfile_final_state import npy

SUFFIXES = (".json", ".npz")


def _saved_json(tmp_path: Path, shot: Callable[[], ShotResult] = nine_ball_break) -> dict:
    path = tmp_path / "written.json"
    shot().save(path)
    return json.loads(path.read_text())


def _write_json(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    return path


def _npz_members(tmp_path: Path, shot: Callable[[], ShotResult] = nine_ball_break
                 ) -> dict[str, bytes]:
    path = tmp_path / "written.npz"
    shot().save(path)
    with zipfile.ZipFile(path) as z:
        return {name: z.read(name) for name in z.namelist()}


def _write_zip(path: Path, files: list[tuple[str, bytes]]) -> Path:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # zipfile: "Duplicate name"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for name, raw in files:
                z.writestr(name, raw)
    return path


def _with_meta(files: dict[str, bytes], edit: Callable[[dict[str, Any]], None]
               ) -> dict[str, bytes]:
    meta = json.loads(str(np.load(io.BytesIO(files["meta.npy"]), allow_pickle=False)))
    edit(meta)
    return {**files, "meta.npy": npy(np.array(json.dumps(meta)))}


# -- the initial layout against the exact segments ------------------------------------------
def test_an_edited_initial_position_is_refused(tmp_path: Path) -> None:
    """The audit's case: `initial.pieces[1]` moved to a legal (0.5, 0.5) loaded and was used,
    while the segments (and positions_at(0)) still started the piece at the rack's apex."""
    data = _saved_json(tmp_path)
    data["initial"]["pieces"][1].update(x=0.5, y=0.5)
    path = _write_json(tmp_path, data)
    with pytest.raises(ShotFileError, match=r"initial\.pieces\[1\] \(piece '1'\) = \(0\.5, 0\.5\) "
                                            r"is not where its first segment \(segments\[1\]\) "
                                            r"starts, \(0\.635, 1\.905\)") as info:
        ShotResult.load(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)


def test_an_initial_position_off_by_one_ulp_is_refused(tmp_path: Path) -> None:
    """The writers keep every float's bits, so the check is exact: one ulp is an edit."""
    data = _saved_json(tmp_path, novus_opening)
    x = data["initial"]["pieces"][3]["x"]
    data["initial"]["pieces"][3]["x"] = float(np.nextafter(x, math.inf))
    with pytest.raises(ShotFileError, match=r"edited\.json: initial\.pieces\[3\] "):
        ShotResult.load(_write_json(tmp_path, data))


def test_two_pieces_swapped_in_the_initial_layout_are_refused(tmp_path: Path) -> None:
    """Swapping two balls' places keeps the layout legal; the segments still say otherwise."""
    data = _saved_json(tmp_path)
    a, b = data["initial"]["pieces"][2], data["initial"]["pieces"][3]
    (a["x"], a["y"]), (b["x"], b["y"]) = (b["x"], b["y"]), (a["x"], a["y"])
    with pytest.raises(ShotFileError, match=r"initial\.pieces\[2\] \(piece '2'\)"):
        ShotResult.load(_write_json(tmp_path, data))


def test_an_edited_initial_in_an_npz_meta_is_refused(tmp_path: Path) -> None:
    files = _npz_members(tmp_path)
    files = _with_meta(files, lambda m: m["initial"]["pieces"][1].update(x=0.5))
    path = _write_zip(tmp_path / "edited.npz", list(files.items()))
    with pytest.raises(ShotFileError, match=r"edited\.npz: initial\.pieces\[1\] \(piece '1'\) = "
                                            r"\(0\.5, 1\.905\) is not where"):
        ShotResult.load(path)


def test_an_edited_initial_in_a_dict_is_refused() -> None:
    data = nine_ball_break().to_dict(exact=True)
    data["initial"]["pieces"][0]["y"] = 0.7
    with pytest.raises(ShotFileError, match=r"mine: initial\.pieces\[0\] \(piece 'cue'\)"):
        ShotResult.from_dict(data, "mine")


@pytest.mark.parametrize("shot, field, value, match", [
    (five_pins_shot, "kind", "pin", r"initial\.pieces\[0\] \(piece 'white' of kind 'pin'\) is "
                                    r"the piece events\[0\] strikes, but the shot strikes "
                                    r"'white', a ball"),
    (novus_opening, "kind", "puck", r"initial\.pieces\[0\] \(piece 'striker' of kind 'puck'\)"),
    (nine_ball_break, "id", "white", r"initial\.pieces\[0\] \(piece 'white' of kind 'ball'\) "
                                     r"is the piece events\[0\] strikes, but the shot strikes "
                                     r"'cue'"),
])
def test_the_struck_piece_renamed_or_of_another_kind_is_refused(
        shot: Callable[[], ShotResult], field: str, value: str, match: str,
        tmp_path: Path) -> None:
    """An .npz holds the pieces' ids and kinds only in `meta.initial`: the 5-pins white ball
    made a pin, or the novus striker a puck, loaded (a legal layout) though the shot struck a
    ball or the striker. The strike event and the shot say which piece was struck."""
    files = _with_meta(_npz_members(tmp_path, shot),
                       lambda m: m["initial"]["pieces"][0].update({field: value}))
    path = _write_zip(tmp_path / "edited.npz", list(files.items()))
    with pytest.raises(ShotFileError, match=rf"edited\.npz: {match}"):
        ShotResult.load(path)


@pytest.mark.parametrize("suffix", SUFFIXES)
@pytest.mark.parametrize("shot", ALL, ids=lambda f: f.__name__)
def test_every_written_file_still_loads(shot: Callable[[], ShotResult], suffix: str,
                                        tmp_path: Path) -> None:
    result = shot()
    path = tmp_path / f"shot{suffix}"
    result.save(path)
    again = ShotResult.load(path)
    assert again.initial == result.initial
    assert again.positions_at(0.0)[0].tobytes() == result.initial.positions().tobytes()
    for trajectories in (False, True):
        ShotResult.from_dict(json.loads(json.dumps(result.to_dict(trajectories, exact=True))))


@pytest.mark.truncation
@pytest.mark.parametrize("suffix", SUFFIXES)
def test_a_written_truncated_shot_still_loads(suffix: str, tmp_path: Path) -> None:
    """A truncated shot's readable dict has two more fields (truncation, moving)."""
    result = truncated_break()
    assert result.truncated
    path = tmp_path / f"t{suffix}"
    result.save(path)
    assert ShotResult.load(path).truncated
    data = result.to_dict(trajectories=True, exact=True)
    assert {"truncation", "moving", "segments"} <= set(data)
    assert ShotResult.from_dict(json.loads(json.dumps(data))).truncated


# -- fields and members that are not read back ----------------------------------------------
@pytest.mark.parametrize("edit, match", [
    (lambda d: d.update(note="mine"), r"edited\.json: unknown field 'note' \(it would not be "
                                      r"read back\); the fields are table, physics, shot, "),
    (lambda d: d["exact"].update(note=1), r"edited\.json: exact: unknown field 'note'"),
    # a field only a truncated shot's file has
    (lambda d: d.update(moving=["cue"]), r"edited\.json: unknown field 'moving'"),
])
def test_an_unknown_field_is_refused(tmp_path: Path, edit: Callable[[dict], None],
                                     match: str) -> None:
    """Such a field loaded and was dropped without a word."""
    data = _saved_json(tmp_path)
    edit(data)
    with pytest.raises(ShotFileError, match=match):
        ShotResult.load(_write_json(tmp_path, data))


def test_an_unknown_npz_meta_field_is_refused(tmp_path: Path) -> None:
    files = _with_meta(_npz_members(tmp_path), lambda m: m.update(note="mine"))
    path = _write_zip(tmp_path / "edited.npz", list(files.items()))
    with pytest.raises(ShotFileError, match=r"edited\.npz: meta: unknown field 'note'"):
        ShotResult.load(path)


def test_an_extra_npz_member_is_refused(tmp_path: Path) -> None:
    """An extra array (np.savez(..., extra=...)) loaded and was dropped."""
    files = _npz_members(tmp_path)
    path = _write_zip(tmp_path / "edited.npz", [*files.items(), ("extra.npy", npy(np.ones(3)))])
    with pytest.raises(ShotFileError, match=r"edited\.npz: the archive holds 'extra\.npy', which "
                                            r"is no array of a shot file"):
        ShotResult.load(path)


def test_an_npz_member_given_twice_is_refused(tmp_path: Path) -> None:
    """Two members of one name: only the last was read."""
    files = _npz_members(tmp_path)
    path = _write_zip(tmp_path / "edited.npz",
                      [*files.items(), ("events.npy", files["events.npy"])])
    with pytest.raises(ShotFileError, match=r"edited\.npz: the archive holds 'events\.npy' twice"):
        ShotResult.load(path)


def test_a_segment_must_start_at_the_event_that_opened_it(tmp_path):
    """A resting segment's t0 edited to 1e308 loaded (every number finite, t1 = inf after it):
    a piece resting from a time after the end of the world. Each segment opened by an event
    starts at that event's time, as the core writes it."""
    data = _saved_json(tmp_path)
    segments = data["exact"]["segments"]
    k = next(i for i, row in enumerate(segments) if row[2] is None and row[12] >= 0)
    segments[k][1] = 1e308
    with pytest.raises(ShotFileError, match=rf"segments\[{k}\]: t0 must be the time of the "
                                            "event that opened the segment"):
        ShotResult.load(_write_json(tmp_path, data))


def test_a_piece_s_segments_follow_one_another(tmp_path):
    """A segment whose end is moved away from the next one's start (a gap in a piece's motion,
    when positions_at answers from neither) is refused naming the segment."""
    data = _saved_json(tmp_path)
    segments = data["exact"]["segments"]
    k = next(i for i, row in enumerate(segments) if row[2] is not None and row[12] == -1)
    segments[k][2] = segments[k][2] * 0.5
    with pytest.raises(ShotFileError, match=r"not where its previous one \(segments\[\d+\]\) ends"):
        ShotResult.load(_write_json(tmp_path, data))
