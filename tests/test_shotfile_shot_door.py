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
