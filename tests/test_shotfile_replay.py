"""Shot files record the physics they were played with, and `verify=True` plays the shot again.

Before, a shot played with `table.with_physics(...)` was written with its table's name only:
reloaded, nothing said it was not the default physics. And an edit of what only the physics
decides (a velocity where a segment starts after an impact) loaded without a word, since the
file's own checks can only compare what is written twice or follows in closed form."""

from __future__ import annotations

import dataclasses
import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cuesim import CueShot, NovusShot, ShotResult, simulate, start_layout
from cuesim.api import game_table
from cuesim.shotfile import ShotFileError
from cuesim.shotfile_replay import replay, verify_result
from cuesim.sim.state import SEG_OBJ, SEG_T0, SEG_VX
from cuesim.tables.base import physics_of
from tests.profiles import examples
from tests.shot_fixtures import ALL, truncated_break
from tests.test_shot_files import assert_identical

CHANGED = {"mu_slide": 0.25, "e_ball": 0.9, "impact_steps": 14.0}


def _custom_break() -> tuple[ShotResult, dict[str, float]]:
    table = game_table("9-ball").with_physics(**CHANGED)
    layout = start_layout("9-ball", table)
    cue, apex = layout.get("cue"), layout.get("1")
    result = simulate(table, layout, CueShot(angle=math.atan2(apex.y - cue.y, apex.x - cue.x),
                                             speed=6.5, side=0.1, height=-0.2))
    return result, physics_of(table)  # type: ignore[return-value]


def test_a_result_records_its_tables_physics() -> None:
    result, physics = _custom_break()
    assert result.physics == physics
    assert {k: physics[k] for k in CHANGED} == CHANGED
    assert result.to_dict()["physics"] == physics
    default = ALL[0]()
    assert default.physics == physics_of(game_table("9-ball"))
    assert [f.name for f in dataclasses.fields(game_table("novus").physics)] == list(
        ALL[1]().physics)


@pytest.mark.parametrize("suffix", [".json", ".npz"])
def test_the_physics_reload_and_the_shot_verifies(tmp_path: Path, suffix: str) -> None:
    result, physics = _custom_break()
    path = tmp_path / f"custom{suffix}"
    result.save(path)
    again = ShotResult.load(path, verify=True)
    assert again.physics == physics
    assert_identical(result, again)


@pytest.mark.truncation  # truncated_break, and its replay, stop at the event limit
@pytest.mark.parametrize("shot", [*ALL, truncated_break], ids=lambda f: f.__name__)
def test_every_game_and_a_truncated_shot_verify(shot, tmp_path: Path) -> None:
    """A truncated shot plays again under as many events as it holds, and stops where it did."""
    result = shot()
    path = tmp_path / "shot.npz"
    result.save(path)
    assert_identical(result, ShotResult.load(path, verify=True))
    assert_identical(result, ShotResult.from_dict(result.to_dict(exact=True), verify=True))
    assert replay(result).truncated == result.truncated


def _saved(tmp_path: Path, result: ShotResult) -> dict:
    result.save(tmp_path / "a.json")
    return json.loads((tmp_path / "a.json").read_text())


def _write(tmp_path: Path, data: dict) -> Path:
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    return path


def test_an_edited_velocity_after_an_impact_loads_but_does_not_verify(tmp_path: Path) -> None:
    """The carried gap: a segment's start velocity set by an impact is in no other column, so
    only the replay can tell an edit of it (by one part in 1e12 here)."""
    result = ALL[0]()
    data = _saved(tmp_path, result)
    segments = data["exact"]["segments"]
    k = next(i for i, s in enumerate(segments) if s[SEG_T0] > 0.0 and s[SEG_VX] != 0.0)
    segments[k][SEG_VX] *= 1.0 + 1e-12
    path = _write(tmp_path, data)
    ShotResult.load(path)  # every check of the file's own holds
    who = result.initial.ids()[int(segments[k][SEG_OBJ])]
    with pytest.raises(ShotFileError, match=rf"edited\.json: not what the shot gives when played "
                                            rf"again: segments\[{k}\] of '{who}' \(t = "):
        ShotResult.load(path, verify=True)


@pytest.mark.truncation  # a replay of other physics stops at the file's event count
def test_edited_physics_do_not_verify(tmp_path: Path) -> None:
    result, _ = _custom_break()
    data = _saved(tmp_path, result)
    data["physics"]["mu_slide"] = 0.2
    with pytest.raises(ShotFileError, match=r"not what the shot gives when played again: "):
        ShotResult.load(_write(tmp_path, data), verify=True)


@pytest.mark.truncation  # a replay of other physics stops at the file's event count
def test_a_file_without_physics_reads_as_unrecorded(tmp_path: Path) -> None:
    """Files written before the physics were recorded load as before (physics None); their
    replay takes the table's defaults, and says so when it then differs."""
    data = _saved(tmp_path, ALL[0]())
    del data["physics"]
    with pytest.raises(ShotFileError, match=r"edited\.json: no 'physics' \(a version 2 file "):
        ShotResult.load(_write(tmp_path, data))
    data["exact"]["version"] = 1  # as written before the physics were recorded
    old = ShotResult.load(_write(tmp_path, data), verify=True)
    assert old.physics is None and old.to_dict()["physics"] is None
    old.save(tmp_path / "again.npz")  # written again: version 2, physics null
    assert ShotResult.load(tmp_path / "again.npz").physics is None
    data = _saved(tmp_path, ALL[0]())
    data["exact"]["version"] = 1
    with pytest.raises(ShotFileError, match=r"edited\.json: 'physics' in a version 1 file, "
                                            r"written before they were recorded"):
        ShotResult.load(_write(tmp_path, data))
    result, _ = _custom_break()
    data = _saved(tmp_path, result)
    del data["physics"]
    data["exact"]["version"] = 1
    with pytest.raises(ShotFileError, match=r"played again \(the file records no physics: its "
                                            r"table's defaults were used\): "):
        ShotResult.load(_write(tmp_path, data), verify=True)


@pytest.mark.parametrize("physics, match", [
    ([0.2], r"physics: expected an object of the physics' coefficients by name \(or null\), "
            r"got list"),
    ({"mu_slide": "0.2"}, r"physics\.mu_slide: expected a finite number, got '0\.2'"),
    ({"mu_slide": True}, r"physics\.mu_slide: expected a finite number, got True"),
    ("drop mu_roll", r"physics: no 'mu_roll'; expected every coefficient of the pool_9ft "
                     r"table's physics: mu_slide, mu_roll, "),
    ("add friction", r"physics: unknown coefficient 'friction' \(it would not be read back\)"),
    ({"mu_slide": -1.0}, r"physics: BallPhysics\.mu_slide must be a real number in \(0, "),
    ({"impact_steps": 1e6}, r"physics: BallPhysics\.impact_steps must be "),
])
def test_bad_physics_are_refused_naming_the_field(tmp_path: Path, physics, match: str) -> None:
    data = _saved(tmp_path, ALL[0]())
    if physics == "drop mu_roll":
        del data["physics"]["mu_roll"]
    elif physics == "add friction":
        data["physics"]["friction"] = 0.1
    elif isinstance(physics, dict):
        data["physics"].update(physics)
    else:
        data["physics"] = physics
    with pytest.raises(ShotFileError, match=r"edited\.json: " + match):
        ShotResult.load(_write(tmp_path, data))


def test_an_npz_meta_carries_the_physics(tmp_path: Path) -> None:
    import zipfile

    result, physics = _custom_break()
    result.save(tmp_path / "a.npz")
    with zipfile.ZipFile(tmp_path / "a.npz") as zf, zf.open("meta.npy") as f:
        meta = json.loads(str(np.lib.format.read_array(f)))
    assert meta["physics"] == physics


def test_a_result_without_a_shot_cannot_be_verified() -> None:
    from cuesim import Layout, Piece, novus_table
    from cuesim.sim import run_motion

    layout = Layout("novus", (Piece("a", "puck", 0.3, 0.5, "red"), Piece("b", "puck", 0.5, 0.5)))
    result = run_motion(novus_table(), layout, {"a": (1.5, 0.0, 0.0)})
    data = result.to_dict(exact=True)
    assert ShotResult.from_dict(data).physics == result.physics
    with pytest.raises(ShotFileError, match=r"^shot: cannot be verified: the result holds no "
                                            r"shot to play again \(a run_motion "):
        ShotResult.from_dict(data, verify=True)


@pytest.mark.parametrize("verify", ["yes", 1, None])
def test_verify_must_be_a_bool(tmp_path: Path, verify) -> None:
    ALL[1]().save(tmp_path / "a.json")
    with pytest.raises(ShotFileError, match=r"ShotResult\.load: verify must be True or False"):
        ShotResult.load(tmp_path / "a.json", verify=verify)
    with pytest.raises(ShotFileError, match=r"ShotResult\.from_dict: verify must be True or "):
        ShotResult.from_dict(ALL[1]().to_dict(exact=True), verify=verify)


@pytest.mark.truncation  # truncated_break stops at the event limit
def test_verify_result_names_its_source() -> None:
    """And refuses physics edited in memory as a file's are refused."""
    result = truncated_break()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        edited = dataclasses.replace(result, final_on=~result.final_on)
    with pytest.raises(ShotFileError, match=r"^mine: not what the shot gives when played again: "
                                            r"final_on\[0\] is "):
        verify_result(edited, "mine")
    bad = dataclasses.replace(result, physics={**result.physics, "mu_slide": -1.0})
    with pytest.raises(ShotFileError, match=r"^mine: cannot be verified: the result's physics: "
                                            r"BallPhysics\.mu_slide must be "):
        verify_result(bad, "mine")


# -- random shots on random physics ----------------------------------------------------------
_BALL_PHYSICS = st.fixed_dictionaries({
    "mu_slide": st.floats(0.1, 0.4), "mu_roll": st.floats(0.005, 0.03),
    "e_ball": st.floats(0.8, 1.0), "e_cushion": st.floats(0.6, 0.95),
    "impact_steps": st.sampled_from([10.0, 20.0, 30.0])})
_NOVUS_PHYSICS = st.fixed_dictionaries({
    "mu_puck": st.floats(0.08, 0.3), "e_puck_puck": st.floats(0.5, 0.95),
    "e_rail": st.floats(0.4, 0.9), "mu_impact": st.floats(0.0, 0.3)})


@settings(max_examples=examples(12), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(["9-ball", "8-ball", "5-pins", "novus"]), data=st.data(),
       angle=st.floats(0.0, 2 * math.pi), speed=st.floats(0.5, 8.0),
       suffix=st.sampled_from([".json", ".npz"]))
def test_random_shots_on_random_physics_reload_and_verify(tmp_path_factory, game, data, angle,
                                                          speed, suffix) -> None:
    """Same input, same output: a shot saved and read back plays again to the same bits, on
    any physics in range; and a one-ulp edit of any segment's velocity is caught."""
    novus = game == "novus"
    changes = data.draw(_NOVUS_PHYSICS if novus else _BALL_PHYSICS)
    table = game_table(game).with_physics(**changes)
    layout = start_layout(game, table)
    if novus:
        shot = NovusShot(x=0.5, angle=min(max(angle % math.pi, 0.1), math.pi - 0.1),
                         speed=speed)
    else:
        shot = CueShot(angle=angle, speed=speed, ball="white" if game == "5-pins" else "cue")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        result = simulate(table, layout, shot, max_events=4000)
    assume(not result.truncated)
    path = tmp_path_factory.mktemp("random") / f"shot{suffix}"
    result.save(path)
    again = ShotResult.load(path, verify=True)
    assert again.physics == physics_of(table)
    moving = np.flatnonzero((result.segments[:, SEG_VX] != 0.0) & (result.segments[:, SEG_T0] > 0))
    assume(len(moving))
    k = int(moving[data.draw(st.integers(0, len(moving) - 1))])
    edited = result.segments.copy()
    edited[k, SEG_VX] = np.nextafter(edited[k, SEG_VX], np.inf)
    with pytest.raises(ShotFileError, match=rf"segments\[{k}\]"):
        verify_result(dataclasses.replace(result, segments=edited))


def test_an_npz_of_version_1_reads_without_physics(tmp_path: Path) -> None:
    path = tmp_path / "old.npz"
    ALL[0]().save(path)
    with np.load(path) as npz:
        arrays = {k: npz[k] for k in npz.files}
    meta = json.loads(str(arrays["meta"]))
    del meta["physics"]
    np.savez(path, **{**arrays, "meta": np.array(json.dumps(meta))})
    with pytest.raises(ShotFileError, match=r"old\.npz: meta: no 'physics' \(a version 2 "):
        ShotResult.load(path)
    meta["version"] = 1
    np.savez(path, **{**arrays, "meta": np.array(json.dumps(meta))})
    assert ShotResult.load(path, verify=True).physics is None
