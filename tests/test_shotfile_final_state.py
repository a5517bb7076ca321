"""Shot files: the final state must be the one the segments end in, the segments must stay on
the table within physical bounds, and an .npz is checked from its array headers before any
array is allocated. Every shot the simulator saves, of every game, still reloads exactly."""

from __future__ import annotations

import io
import json
import math
import tracemalloc
import warnings
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cuesim import CueShot, NovusShot, ShotResult, shotfile, simulate, start_layout
from cuesim.api import GAME_NAMES, game_table
from cuesim.shotfile import ShotFileError
from cuesim.shotfile_motion import _FINAL_TOLERANCE
from cuesim.sim.events import EventKind
from cuesim.sim.state import SEG_AX, SEG_OBJ, SEG_SD, SEG_T0, SEG_T1, SEG_VX, SEG_W, SEG_X
from cuesim.tables.layout import LayoutError
from cuesim.tables.novus import NOVUS_SIDES
from tests.shot_fixtures import nine_ball_break

SUFFIXES = (".json", ".npz")


def assert_same(a: ShotResult, b: ShotResult) -> None:
    """Bit for bit the same result."""
    for name in ("events", "segments", "final_positions", "final_on"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes(), name
    assert (a.table, a.initial, a.truncated, a.shot) == (b.table, b.initial, b.truncated, b.shot)
    assert a.feature_names == b.feature_names
    assert a.to_dict(trajectories=True) == b.to_dict(trajectories=True)


def random_shot(game: str, rng: np.random.Generator) -> NovusShot | CueShot:
    """A shot of the game at a random speed and direction (spin and tip offset too)."""
    speed = float(rng.uniform(0.3, 14.5))
    if game.startswith("novus"):
        (u0, u1), _ = game_table(game).striker_strip()
        return NovusShot(x=float(rng.uniform(u0, u1)), angle=float(rng.uniform(0.1, 3.0)),
                         speed=speed, offset=float(rng.uniform(-0.01, 0.01)),
                         side=str(rng.choice(sorted(NOVUS_SIDES))))
    return CueShot(angle=float(rng.uniform(0.0, 2 * math.pi)), speed=speed,
                   side=float(rng.uniform(-0.3, 0.3)), height=float(rng.uniform(-0.3, 0.3)),
                   ball="white" if game == "5-pins" else "cue")


def play(game: str, shot: NovusShot | CueShot, max_events: int = 20_000) -> ShotResult:
    table = game_table(game)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a truncated shot warns
        return simulate(table, start_layout(game, table), shot, max_events=max_events)


def round_trip(result: ShotResult, folder: Path) -> None:
    for suffix in SUFFIXES:
        path = folder / f"shot{suffix}"
        result.save(path)
        assert_same(result, ShotResult.load(path))


@pytest.mark.parametrize("game", GAME_NAMES)
def test_simulated_shots_of_every_game_reload(game: str, tmp_path: Path) -> None:
    rng = np.random.default_rng(GAME_NAMES.index(game))
    for _ in range(6):
        result = play(game, random_shot(game, rng))
        assert not result.truncated
        round_trip(result, tmp_path)


@pytest.mark.truncation
@pytest.mark.parametrize("game", GAME_NAMES)
def test_truncated_shots_of_every_game_reload(game: str, tmp_path: Path) -> None:
    """A truncated shot has no final layout: its final state is where the event limit left
    the pieces (some still moving, maybe overlapping in an impact)."""
    rng = np.random.default_rng(100 + GAME_NAMES.index(game))
    truncated = 0
    for _ in range(20):
        result = play(game, random_shot(game, rng), max_events=int(rng.integers(1, 13)))
        round_trip(result, tmp_path)
        if result.truncated:
            again = ShotResult.load(tmp_path / "shot.npz")
            assert again.truncated and again.to_dict()["final"] is None
            truncated += 1
            if truncated == 4:
                return
    pytest.fail(f"only {truncated} of 20 shots truncated")


def test_a_ball_resting_on_a_felled_pin_reloads(tmp_path: Path) -> None:
    """A felled pin lies where a standing one could not: the final layout check takes it
    alone (5-pins), as it takes each novus puck alone (a puck may rest on another)."""
    result = play("5-pins", CueShot(angle=math.radians(41), speed=2.0, ball="white"))
    pin = result.initial.index("pin_centre")
    felled = result.events[result.events[:, 1] == int(EventKind.PIN), 3]
    assert pin in felled.astype(int).tolist()
    with pytest.raises(LayoutError, match="'white' and 'pin_centre' overlap"):
        game_table("5-pins").check_layout(result.final)
    round_trip(result, tmp_path)


# -- refused: the final state and the segments -------------------------------------------------
def saved(tmp_path: Path, suffix: str = ".npz", **edits: Any) -> Path:
    """The 9-ball break saved with its arrays edited (each edit changes a copy in place)."""
    result = nine_ball_break()
    arrays = {k: getattr(result, k).copy() for k in ("final_positions", "final_on", "events",
                                                      "segments")}
    for key, edit in edits.items():
        edit(arrays[key])
    path = tmp_path / f"edited{suffix}"
    ShotResult(**{**{f: getattr(result, f) for f in ("table", "initial", "feature_names",
                                                      "truncated", "shot")},
                  **arrays}).save(path)
    return path


def last_segment(piece: int) -> int:
    seg = nine_ball_break().segments
    own = np.flatnonzero(seg[:, SEG_OBJ] == piece)
    return int(own[np.argsort(seg[own, SEG_T0], kind="stable")][-1])


def pocketed() -> int:
    events = nine_ball_break().events
    return int(events[events[:, 1] == int(EventKind.POCKET), 2][0])


def on_table() -> list[int]:
    return np.flatnonzero(nine_ball_break().final_on).tolist()


def moving_segment() -> int:
    seg = nine_ball_break().segments
    return int(np.flatnonzero(np.isfinite(seg[:, SEG_T1]) & (seg[:, SEG_VX] != 0))[0])


def _set(row: int, col: int | slice, value: Any) -> Any:
    def edit(a: np.ndarray) -> None:
        a[row, col] = value
    return edit


def _flip(i: int) -> Any:
    def edit(a: np.ndarray) -> None:
        a[i] = not a[i]
    return edit


def _onto(i: int, j: int) -> Any:
    """Piece i's final position (and its last segment) 1 cm from piece j's."""
    def positions(a: np.ndarray) -> None:
        a[i] = a[j] + [0.01, 0.0]

    def segments(a: np.ndarray) -> None:
        a[last_segment(i), SEG_X:SEG_X + 2] = nine_ball_break().final_positions[j] + [0.01, 0]
    return {"final_positions": positions, "segments": segments}


def _shift(i: int, dx: float) -> Any:
    def edit(a: np.ndarray) -> None:
        a[i, 0] += dx
    return edit


def _cases() -> list[tuple[dict[str, Any], str]]:
    moving = moving_segment()
    return [
        ({"final_positions": _set(1, slice(None), [50.0, 50.0])},
         r"final_positions\[1\] \(piece '1'\) = \(50.0, 50.0\) is off the table; expected x in"),
        ({"final_on": _flip(pocketed())},
         rf"final_on\[{pocketed()}\] is true \(piece .*\), but events\[\d+\] pockets it; "
         "expected false"),
        ({"final_on": _flip(on_table()[0])},
         rf"final_on\[{on_table()[0]}\] is false .* no pocket event takes it off; expected true"),
        (_onto(*on_table()[:2]), r"final_positions: the pieces final_on keeps on the table must "
                                 r"lie legally on it: pieces .* overlap"),
        ({"final_positions": _shift(2, 10 * _FINAL_TOLERANCE)},
         r"final_positions\[2\] \(piece '2'\) = .* is not where its last segment "
         rf"\(segments\[{last_segment(2)}\]\) ends"),
        ({"segments": _set(last_segment(on_table()[0]), SEG_VX, 0.1)},
         rf"segments\[{last_segment(on_table()[0])}\]: piece .* still moves .* but truncated is "
         "false; expected it at rest"),
        ({"segments": _set(5, SEG_X, 5.0)},
         r"segments\[5\]: \(x, y\) must lie on the table: x in \[.*\] m \(the outline of table "
         r"'pool_9ft'\), got \[5.0, "),
        ({"segments": _set(moving, SEG_VX, 1e200)},
         rf"segments\[{moving}\]: the speed \|\(vx, vy\)\| must lie in \[0, .*\] m/s \(the "
         r"energy bound of its piece\), got 1e\+200"),
        ({"segments": _set(moving, SEG_AX, 1e300)},
         rf"segments\[{moving}\]: the acceleration \|\(ax, ay\)\| must lie in \[0, 980.7\] "
         r"m/s\^2, got 1e\+300"),
        ({"segments": _set(moving, SEG_W, -1e9)}, rf"segments\[{moving}\]: the spin \|w0\|"),
        ({"segments": _set(moving, SEG_SD, -1.0)}, rf"segments\[{moving}\]: spin_decel must lie"),
        ({"segments": _set(moving, SEG_T1, 1e6)},
         rf"segments\[{moving}\]: the position at t1 must lie on the table"),
    ]


@pytest.mark.parametrize("suffix", SUFFIXES)
@pytest.mark.parametrize("case", range(len(_cases())))
def test_a_final_state_or_segment_that_cannot_be_is_refused(case: int, suffix: str,
                                                           tmp_path: Path) -> None:
    edits, match = _cases()[case]
    path = saved(tmp_path, suffix, **edits)
    with pytest.raises(ShotFileError, match=match) as info:
        ShotResult.load(path)
    assert str(path) in str(info.value)


def test_the_referee_never_sees_a_ball_off_the_table(tmp_path: Path) -> None:
    path = saved(tmp_path, final_positions=_set(1, slice(None), [50.0, 50.0]))
    with pytest.raises(ShotFileError, match="off the table"):
        ShotResult.load(path)  # before: loaded, and NineBall ruled it legal with '1' at (50, 50)


# -- refused: .npz archives, read from their headers -------------------------------------------
def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def write_zip(path: Path, files: dict[str, bytes],
              method: int = zipfile.ZIP_DEFLATED) -> Path:
    with zipfile.ZipFile(path, "w", method) as z:
        for name, raw in files.items():
            z.writestr(name, raw)
    return path


def npy(array: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, array, allow_pickle=False)
    return buf.getvalue()


def test_more_segments_than_the_events_allow(tmp_path: Path) -> None:
    path = tmp_path / "b.npz"
    nine_ball_break().save(path)
    files = members(path)
    files["segments.npy"] = npy(np.zeros((100_000, 13)))
    n_events = nine_ball_break().n_events
    with pytest.raises(ShotFileError, match=r"segments has 100000 rows; expected at most "
                                            rf"\d+, what the simulator can write for 10 pieces "
                                            rf"and {n_events} events"):
        ShotResult.load(write_zip(path, files))


def test_a_header_declaring_a_huge_array_allocates_nothing(tmp_path: Path) -> None:
    """The 3.87 GiB `segments` of a 4 MB file: its header alone is read and refused."""
    path = tmp_path / "b.npz"
    nine_ball_break().save(path)
    files = members(path)
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False,
                                                  "shape": (40_000_000, 13)})
    files["segments.npy"] = header.getvalue() + bytes(4096)
    write_zip(path, files)
    tracemalloc.start()
    try:
        with pytest.raises(ShotFileError, match=r"segments.npy declares a float64 array of "
                                                r"shape \(40000000, 13\)"):
            ShotResult.load(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20


@pytest.mark.parametrize("name, value, match", [
    ("_MAX_ARRAY_BYTES", 1024, r"events and segments \(\d+ and \d+ rows\) take .* GiB; a shot "
                              "file holds at most"),
    ("_MAX_META_CHARS", 100, r"'meta' holds \d+ characters; expected at most 100"),
])
def test_the_absolute_bounds(name: str, value: int, match: str, tmp_path: Path,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "b.npz"
    nine_ball_break().save(path)
    monkeypatch.setattr(shotfile, name, value)
    with pytest.raises(ShotFileError, match=match):
        ShotResult.load(path)


def test_final_arrays_must_have_one_row_per_piece_before_loading(tmp_path: Path) -> None:
    path = tmp_path / "b.npz"
    nine_ball_break().save(path)
    files = members(path)
    files["final_positions.npy"] = npy(np.zeros((10_000, 2)))
    with pytest.raises(ShotFileError, match=r"final_positions must be 10 finite \(x, y\) pairs"):
        ShotResult.load(write_zip(path, files))


def test_other_zip_methods_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "b.npz"
    nine_ball_break().save(path)
    write_zip(path, members(path), zipfile.ZIP_BZIP2)
    with pytest.raises(ShotFileError, match="compressed with zip method 12; expected stored or "
                                            "deflated"):
        ShotResult.load(path)


# -- refused: what is no shot file ---------------------------------------------------------------
@pytest.mark.parametrize("path", [None, 3, b"shot.npz", ["shot.npz"]])
def test_load_needs_a_path(path: Any) -> None:
    with pytest.raises(ShotFileError, match=r"ShotResult.load: path must be a .json or .npz "
                                            r"shot file's path \(a str or os.PathLike\), got"):
        ShotResult.load(path)


def test_save_needs_a_path() -> None:
    with pytest.raises(ShotFileError, match="ShotResult.save: path must be a .json or .npz"):
        nine_ball_break().save(None)


def test_json_named_npz(tmp_path: Path) -> None:
    path = tmp_path / "b.npz"
    path.write_text(json.dumps(nine_ball_break().to_dict(exact=True)))
    with pytest.raises(ShotFileError, match=r"b.npz is not a readable .npz archive: it holds "
                                            "JSON text: a JSON shot file must be named .json"):
        ShotResult.load(path)
    renamed = path.rename(tmp_path / "b.json")
    assert_same(nine_ball_break(), ShotResult.load(renamed))


@pytest.mark.parametrize("raw, match", [
    (b"", "it is empty"),
    (npy(np.zeros(3)), "it is a single .npy array"),
    (b"{not json", "it is not a zip file"),
])
def test_other_files_named_npz(raw: bytes, match: str, tmp_path: Path) -> None:
    path = tmp_path / "b.npz"
    path.write_bytes(raw)
    with pytest.raises(ShotFileError, match=rf"not a readable .npz archive: {match}"):
        ShotResult.load(path)


@pytest.mark.parametrize("key, value", [("duration", 99.0), ("pocketed", ["1"]),
                                        ("n_events", 1), ("final", None)])
def test_an_edited_readable_field_is_refused_not_dropped(tmp_path: Path, key: str,
                                                         value: Any) -> None:
    """The readable fields are written from the exact block and not read back: an edit would
    be lost on reloading, so a file whose readable part disagrees is refused."""
    path = tmp_path / "shot.json"
    nine_ball_break().save(path)
    data = json.loads(path.read_text())
    ShotResult.from_dict(data)  # as written: it reloads
    data[key] = value
    path.write_text(json.dumps(data))
    with pytest.raises(ShotFileError, match=f"{key} is not what the exact block gives"):
        ShotResult.load(path)


def test_a_negative_event_speed_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "shot.json"
    nine_ball_break().save(path)
    data = json.loads(path.read_text())
    data["exact"]["events"][1][5] = -1.0
    path.write_text(json.dumps(data))
    with pytest.raises(ShotFileError, match=r"events\[1\]: speed must be >= 0"):
        ShotResult.load(path)


def test_an_event_after_everything_rests_is_refused(tmp_path: Path) -> None:
    """An event at t = 1e300 loaded, and `sample` then refused the shot with a 300-digit
    count: a shot at rest has no event after its last piece stopped."""
    path = tmp_path / "shot.json"
    nine_ball_break().save(path)
    data = json.loads(path.read_text())
    data["exact"]["events"][-1][0] = 1e300
    path.write_text(json.dumps(data))
    with pytest.raises(ShotFileError, match="t must be by the time the last piece comes to "
                                            "rest"):
        ShotResult.load(path)
