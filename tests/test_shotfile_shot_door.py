"""Shot files: the `shot` block is the shot that was played. It is kept beside the exact
arrays, not derived from them, so an edit of it used to load silently (a tip offset of 1e300 m,
a striker 5 m off the board, a speed that is not the struck piece's): now it must be a shot
`simulate` accepts, placing the struck piece where the initial layout has it and starting it
with its first segment's very motion. Every file the writers produce still loads."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cuesim import ShotResult
from cuesim.shotfile import ShotFileError
from tests.shot_fixtures import ALL, five_pins_shot, nine_ball_break, novus_opening
from tests.test_shotfile_final_state import npy


def _edited_json(tmp_path: Path, shot: Callable[[], ShotResult], edit: dict[str, Any]) -> Path:
    path = tmp_path / "shot.json"
    shot().save(path)
    data = json.loads(path.read_text())
    data["shot"].update(edit)
    path.write_text(json.dumps(data))
    return path


def _edited_npz(tmp_path: Path, shot: Callable[[], ShotResult], edit: dict[str, Any]) -> Path:
    path = tmp_path / "shot.npz"
    shot().save(path)
    with zipfile.ZipFile(path) as z:
        files = {name: z.read(name) for name in z.namelist()}
    meta = json.loads(str(np.load(io.BytesIO(files["meta.npy"]), allow_pickle=False)))
    meta["shot"].update(edit)
    files["meta.npy"] = npy(np.array(json.dumps(meta)))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, raw in files.items():
            z.writestr(name, raw)
    return path


CASES = [
    (novus_opening, {"offset": 1e300}, "tip offset 1e\\+300 m misses the striker"),
    (novus_opening, {"x": -5.0}, "novus 12: the striker at x=-5.0000"),
    (novus_opening, {"x": 0.51}, "shot puts 'striker' at"),
    (novus_opening, {"speed": 3.3}, "shot gives 'striker' the motion"),
    (novus_opening, {"offset": 0.004}, "shot gives 'striker' the motion"),
    (nine_ball_break, {"speed": 7.5}, "shot gives 'cue' the motion"),
    (nine_ball_break, {"side": 0.9}, "miscue"),
    (five_pins_shot, {"angle": 1.2}, "shot gives 'white' the motion"),
    # refused by the shot's own checks, which named neither the file nor the block before
    (novus_opening, {"speed": 0.0}, "shot: shot speed must be positive"),
    (novus_opening, {"side": "up"}, "shot: unknown side 'up'"),
    (nine_ball_break, {"speed": -1.0}, "shot: cue speed must be positive"),
    (five_pins_shot, {"angle": 1e30}, "shot: shot angle 1e\\+30 rad is more than a thousand"),
]


@pytest.mark.parametrize("write", [_edited_json, _edited_npz], ids=["json", "npz"])
@pytest.mark.parametrize("shot, edit, message", CASES,
                         ids=[f"{c[0].__name__}-{next(iter(c[1]))}" for c in CASES])
def test_an_edited_shot_block_is_refused(tmp_path: Path, write: Callable[..., Path],
                                         shot: Callable[[], ShotResult], edit: dict[str, Any],
                                         message: str) -> None:
    path = write(tmp_path, shot, edit)
    with pytest.raises(ShotFileError, match=message) as info:
        ShotResult.load(path)
    assert str(path) in str(info.value)


@pytest.mark.parametrize("suffix", [".json", ".npz"])
@pytest.mark.parametrize("shot", ALL, ids=lambda f: f.__name__)
def test_every_written_shot_block_reloads(tmp_path: Path, suffix: str,
                                          shot: Callable[[], ShotResult]) -> None:
    result = shot()
    path = tmp_path / f"shot{suffix}"
    result.save(path)
    assert ShotResult.load(path).shot == result.shot


def _cue_shot(height: float, elevation: float = 0.0) -> ShotResult:
    from cuesim import CueShot, simulate, start_layout
    from cuesim.tables import pool_table

    table = pool_table("9ft")
    return simulate(table, start_layout("9-ball", table),
                    CueShot(angle=1.4, speed=1.5, height=height, elevation=elevation))


@pytest.mark.parametrize("played, edited", [(-0.3, 0.3), (0.3, -0.3), (0.2, -0.2)])
def test_follow_and_draw_edited_are_refused_where_the_sliding_shows_them(played, edited):
    """Follow and draw of the same size give the same (vx, vy, w): what tells them apart is
    the slip, u = v -+ r w, in no column of a segment. The first segment's friction points
    against it and, when its sliding ends in the ball's own roll (here, before any contact),
    lasts 2 |u| / (7 |a|): an edited height is refused by that, whatever the cloth."""
    data = _cue_shot(played).to_dict(exact=True)
    data["shot"]["height"] = edited
    with pytest.raises(ShotFileError, match="its tip .* gives the ball a slip"):
        ShotResult.from_dict(data)


def test_random_cue_shots_with_side_and_height_reload():
    """No written shot is refused (the slip checks compare two computations of one float):
    random 9-ball shots with side, height and position reload from both writers."""
    import math
    import random

    from cuesim import CueShot, simulate, start_layout
    from cuesim.tables import pool_table

    table = pool_table("9ft")
    layout = start_layout("9-ball", table)
    rng = random.Random(3)
    for _ in range(40):
        shot = CueShot(angle=rng.uniform(0.0, 2 * math.pi), speed=rng.uniform(0.5, 8.0),
                       side=rng.uniform(-0.3, 0.3), height=rng.uniform(-0.35, 0.35),
                       position=(rng.uniform(0.2, 1.0), rng.uniform(0.2, 0.6)))
        result = simulate(table, layout, shot)
        assert ShotResult.from_dict(result.to_dict(exact=True)).shot == shot
