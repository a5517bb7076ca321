"""More of the layout and shot-file doors: a layout of numpy numbers writes its JSON (a float32
is no JSON number), a shot file's readable fields take no bool for a number (false == 0.0 in
Python), and a segment's spin_decel is its piece's kind's constant."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cuesim import Layout, NovusShot, Piece, ShotResult, novus_table, simulate
from cuesim.cli import main
from cuesim.shotfile import ShotFileError
from cuesim.sim.state import SEG_OBJ, SEG_SD
from cuesim.tables.layout import LayoutError
from tests.shot_fixtures import five_pins_shot, nine_ball_break, novus_opening


# -- a layout of numpy numbers -----------------------------------------------------------------
def _f32_layout() -> Layout:
    xy = np.array([[0.3, 0.5]], dtype=np.float32)
    return Layout("novus", (Piece("a", "puck", xy[0, 0], xy[0, 1], "red"),))


def test_a_piece_of_numpy_numbers_stores_python_floats() -> None:
    for x, y in [(np.float32(0.3), np.float32(0.5)), (np.int64(1), np.float64(0.5)),
                 (np.float16(0.25), 1)]:
        piece = Piece("a", "puck", x, y, "red")
        assert type(piece.x) is float and type(piece.y) is float
        assert (piece.x, piece.y) == (float(x), float(y))
    assert Piece("a", "puck", np.float32(0.5), 0.5) == Piece("a", "puck", 0.5, 0.5)


def test_a_layout_of_float32_writes_its_json(tmp_path: Path) -> None:
    layout = _f32_layout()
    assert json.loads(layout.to_json())["pieces"][0]["x"] == float(np.float32(0.3))
    layout.save(tmp_path / "l.json")
    assert Layout.load(tmp_path / "l.json") == layout


def test_a_shot_from_a_float32_layout_saves(tmp_path: Path) -> None:
    result = simulate(novus_table(), _f32_layout(), NovusShot(x=0.5, angle=1.57, speed=3.0))
    json.dumps(result.to_dict())
    json.dumps(result.to_dict(exact=True))
    for name in ("s.json", "s.npz"):
        result.save(tmp_path / name)
        again = ShotResult.load(tmp_path / name)
        assert again.initial == result.initial
        assert again.events.tobytes() == result.events.tobytes()


def test_numpy_str_names_are_strs() -> None:
    layout = Layout(np.str_("novus"), (Piece(np.str_("a"), np.str_("puck"), 0.3, 0.5,
                                             np.str_("red")),))
    piece = layout.pieces[0]
    assert type(layout.table) is str
    assert (type(piece.id), type(piece.kind), type(piece.group)) == (str, str, str)
    assert "np.str_" not in repr(layout)
    assert layout.get("a") is piece


@pytest.mark.parametrize("x, message", [
    (True, "x and y must be numbers"), (np.bool_(True), "x and y must be numbers"),
    ("0.3", "x and y must be numbers"), (np.float32("nan"), "non-finite position"),
    (np.inf, "non-finite position"), (10**400, "non-finite position.*401 digits"),
])
def test_what_is_no_finite_number_is_still_refused(x: Any, message: str) -> None:
    with pytest.raises(LayoutError, match=message):
        Layout("novus", (Piece("a", "puck", x, 0.5),))


def test_a_piece_made_around_its_init_is_made_plain_by_the_layout() -> None:
    piece = object.__new__(Piece)
    for name, value in (("id", np.str_("a")), ("kind", "puck"), ("x", np.float32(0.3)),
                        ("y", 0.5), ("group", "")):
        object.__setattr__(piece, name, value)
    stored = Layout("novus", (piece,)).pieces[0]
    assert (type(stored.id), type(stored.x), type(stored.y)) == (str, float, float)


# -- bools in a shot file's readable fields --------------------------------------------------
def _saved(result: ShotResult, trajectories: bool = False) -> dict[str, Any]:
    """What `save` writes to a .json, with the readable segments if `trajectories`."""
    data = result.to_dict(trajectories=trajectories)
    data["exact"] = result.to_dict(exact=True)["exact"]
    return data


def _first(rows: list[dict[str, Any]], key: str, value: Any) -> int:
    """The first row whose `key` holds `value`, of its very type."""
    return next(k for k, row in enumerate(rows) if row.get(key) == value
                and type(row.get(key)) is type(value))


def test_a_bool_for_an_event_speed_or_direction_is_refused() -> None:
    data = json.loads(json.dumps(nine_ball_break().to_dict(exact=True)))
    ShotResult.from_dict(data)
    i = _first(data["events"], "speed", 0.0)
    edited = copy.deepcopy(data)
    edited["events"][i]["speed"] = False
    with pytest.raises(ShotFileError, match=rf"shot: events\[{i}\]\.speed is not what the "
                                            r"exact block gives \(0\.0, got false"):
        ShotResult.from_dict(edited)
    j = _first(data["events"], "direction", 1)
    edited = copy.deepcopy(data)
    edited["events"][j]["direction"] = True
    with pytest.raises(ShotFileError, match=rf"events\[{j}\]\.direction is not what the exact "
                                            r"block gives \(1, got true"):
        ShotResult.from_dict(edited)


def test_show_refuses_a_bool_in_an_event_in_one_line(capsys, tmp_path: Path) -> None:
    data = json.loads(json.dumps(nine_ball_break().to_dict(exact=True)))
    i = _first(data["events"], "speed", 0.0)
    data["events"][i]["speed"] = False
    path = tmp_path / "bool.json"
    path.write_text(json.dumps(data))
    assert main(["show", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"cuesim: error: {path}: events[{i}].speed is not what the exact "
                          "block gives"), err


@pytest.mark.parametrize("field, value, wrong", [
    ("events.t", 0.0, False),  # the strike's time
    ("segments.t0", 0.0, False),
    ("segments.vx", 0.0, False),  # a piece at rest
    ("segments.ax", 0.0, False),
    ("segments.on", True, 1),
    ("segments.on", True, 1.0),
    ("shot.side", 0.0, False),
])
def test_a_bool_for_a_number_or_a_number_for_a_bool_elsewhere_is_refused(
        field: str, value: Any, wrong: Any) -> None:
    data = json.loads(json.dumps(_saved(nine_ball_break(), trajectories=True)))
    ShotResult.from_dict(data)
    block, key = field.split(".")
    if block == "shot":
        data["shot"][key] = wrong
        path = rf"shot\.{key}|shot: .*{key}"
    else:
        k = _first(data[block], key, value)
        data[block][k][key] = wrong
        path = rf"{block}\[{k}\]\.{key} is not what the exact block gives"
    with pytest.raises(ShotFileError, match=path):
        ShotResult.from_dict(data)


def test_an_int_for_a_float_of_one_value_still_reads() -> None:
    """Another JSON writer (jq) may write 0 for 0.0: the same number, not an edit."""
    data = json.loads(json.dumps(nine_ball_break().to_dict(exact=True)))
    i = _first(data["events"], "speed", 0.0)
    data["events"][i]["speed"] = 0
    data["events"][0]["t"] = 0
    ShotResult.from_dict(data)


# -- a segment's spin_decel -----------------------------------------------------------------
@pytest.mark.parametrize("result", [nine_ball_break, novus_opening, five_pins_shot])
def test_an_edited_spin_decel_is_refused(result) -> None:
    data = json.loads(json.dumps(result().to_dict(exact=True)))
    segments = data["exact"]["segments"]
    ShotResult.from_dict(data)
    k = len(segments) // 2
    segments[k][SEG_SD] *= 1.5
    with pytest.raises(ShotFileError, match=rf"segments\[{k}\]: spin_decel must be "
                                            r".* with the file's physics"):
        ShotResult.from_dict(data)
    # every segment of the piece edited alike: still not its kind's on the table
    obj = segments[k][SEG_OBJ]
    for row in segments:
        if row[SEG_OBJ] == obj:
            row[SEG_SD] = segments[k][SEG_SD]
    with pytest.raises(ShotFileError, match="spin_decel must be"):
        ShotResult.from_dict(data)


def test_a_version_1_files_spin_decel_is_one_per_piece() -> None:
    """A file without its physics may have been played with other ones: a piece's segments
    must agree with each other."""
    data = json.loads(json.dumps(nine_ball_break().to_dict(exact=True)))
    del data["physics"]
    data["exact"]["version"] = 1
    ShotResult.from_dict(data)
    segments = data["exact"]["segments"]
    obj = segments[-1][SEG_OBJ]
    rows = [k for k, row in enumerate(segments) if row[SEG_OBJ] == obj]
    assert len(rows) > 1
    segments[rows[-1]][SEG_SD] *= 2.0
    with pytest.raises(ShotFileError, match=rf"segments\[{rows[-1]}\]: spin_decel .* is not "
                                            rf"that of piece {int(obj)}'s first segment"):
        ShotResult.from_dict(data)
    for k in rows:
        segments[k][SEG_SD] = math.pi  # the whole piece alike: other physics, for all it says
    ShotResult.from_dict(data)
