"""The research options of the command line: `shoot --save`, `--plot`, `--rule`; the readable
`adjudicate`."""

from __future__ import annotations

import pytest

from cuesim import ShotResult
from cuesim.cli import main


@pytest.mark.parametrize("suffix", [".json", ".npz"])
def test_shoot_save_writes_a_shot_that_reloads(tmp_path, suffix, capsys):
    path = tmp_path / f"break{suffix}"
    assert main(["shoot", "9-ball", "--speed", "7", "--save", str(path)]) == 0
    result = ShotResult.load(path)
    assert f"{result.n_events} events" in capsys.readouterr().out
    assert result.shot.speed == 7.0


@pytest.mark.parametrize("name, message", [
    ("shot.txt", "--save '.*shot.txt': the name must end in .json or .npz"),
    ("missing/shot.json", "the folder '.*missing' does not exist"),
])
def test_shoot_save_refuses_a_bad_path_before_simulating(tmp_path, name, message, capsys):
    assert main(["shoot", "9-ball", "--speed", "7", "--save", str(tmp_path / name)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert "\n" not in err and err.startswith("cuesim: error: --save")
    import re

    assert re.search(message, err)
