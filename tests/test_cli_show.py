"""`cuesim show FILE`: a saved shot told as `shoot` told it, from the file alone; `--verify`
plays it again. Its doors answer as shoot's: one line, exit 2; a truncated shot exits 3."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cuesim.cli import TRUNCATED_STATUS, main


def _shoot(capsys, tmp_path: Path, *argv: str, name: str = "shot.npz") -> tuple[Path, str]:
    path = tmp_path / name
    status = main(["shoot", *argv, "--save", str(path)])
    assert status in (0, TRUNCATED_STATUS)
    return path, capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ("9-ball", "--speed", "7"),
    ("novus", "--speed", "6", "--angle", "80"),
    ("5-pins", "--angle", "60", "--speed", "3", "--english", "0.2"),
])
@pytest.mark.parametrize("name", ["shot.npz", "shot.json"])
def test_show_prints_what_shoot_printed(capsys, tmp_path: Path, argv, name: str) -> None:
    path, printed = _shoot(capsys, tmp_path, *argv, name=name)
    assert main(["show", str(path)]) == 0
    head, _, rest = capsys.readouterr().out.partition("\n")
    assert head == f"{path}: table {json.loads(main_json(path))['table']}, physics: the " \
                   "table's defaults"
    assert rest == printed


def main_json(path: Path, *extra: str) -> str:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["show", str(path), "--json", *extra]) == 0
    return out.getvalue()


def test_show_json_is_shoots_json(capsys, tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    assert main(["shoot", "9-ball", "--speed", "7", "--json", "--trajectories", "--save",
                 str(path)]) == 0
    shot_json = json.loads(capsys.readouterr().out)
    assert json.loads(main_json(path, "--trajectories")) == shot_json
    assert shot_json["physics"]["mu_slide"] == 0.2


def test_show_names_changed_physics_and_verifies(capsys, tmp_path: Path) -> None:
    path, _ = _shoot(capsys, tmp_path, "novus", "--speed", "6", "--impact-steps", "40")
    assert main(["show", str(path), "--verify"]) == 0
    assert capsys.readouterr().out.startswith(f"{path}: table novus, physics: impact_steps=40, "
                                              "verified by playing it again\n")


def test_an_edited_file_fails_verify_in_one_line(capsys, tmp_path: Path) -> None:
    path, _ = _shoot(capsys, tmp_path, "9-ball", "--speed", "7", name="b.json")
    data = json.loads(path.read_text())
    row = next(s for s in data["exact"]["segments"] if s[1] > 0.0 and s[5] != 0.0)
    row[5] *= 1.0 + 1e-12
    path.write_text(json.dumps(data))
    assert main(["show", str(path)]) == 0  # the file's own checks hold
    capsys.readouterr()
    assert main(["show", str(path), "--verify"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cuesim: error: {path}: not what the shot gives when played again: "
                          "segments[") and err.count("\n") == 1


@pytest.mark.truncation
def test_a_truncated_shot_exits_3(capsys, tmp_path: Path) -> None:
    path, _ = _shoot(capsys, tmp_path, "novus", "--speed", "6", "--max-events", "7")
    assert main(["show", str(path), "--verify"]) == TRUNCATED_STATUS
    assert "TRUNCATED" in capsys.readouterr().out.splitlines()[1]
    assert main(["show", str(path), "--json"]) == TRUNCATED_STATUS
    assert "TRUNCATED" in capsys.readouterr().err


def test_show_draws_the_plot(capsys, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path, _ = _shoot(capsys, tmp_path, "9-ball", "--speed", "7")
    image = tmp_path / "b.png"
    assert main(["show", str(path), "--plot", str(image)]) == 0
    assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_show_saves_the_gif(capsys, tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    path, _ = _shoot(capsys, tmp_path, "5-pins", "--angle", "60", "--speed", "3")
    gif = tmp_path / "b.gif"
    assert main(["show", str(path), "--gif", str(gif), "--gif-fps", "10", "--gif-width",
                 "320"]) == 0
    assert gif.read_bytes()[:6] == b"GIF89a"


@pytest.mark.parametrize("argv, message", [
    (["missing.npz"], r"cannot read shot file .*missing\.npz: No such file"),
    (["shot.txt"], r"the name must end in \.json or \.npz"),
    (["{shot}", "--trajectories"], r"--trajectories adds the motion segments to the --json "),
    (["{shot}", "--plot", "{shot}"], r"--plot '.*shot\.npz' is the shot file: writing it "),
    (["{shot}", "--gif", "{shot}"], r"--gif '.*shot\.npz' is the shot file: writing it "),
    (["{shot}", "--gif", "a.gif", "--plot", "a.gif"], r"--plot and --gif name one file"),
    (["{shot}", "--gif-width", "320"], r"--gif-width sets up the --gif file: use it with --gif"),
    (["{shot}", "--gif", "a.png"], r"--gif '.*a\.png': give a file name ending in \.gif"),
])
def test_bad_arguments_are_one_line(capsys, tmp_path: Path, argv, message: str) -> None:
    import re

    path, _ = _shoot(capsys, tmp_path, "novus", "--speed", "3")
    argv = [a.replace("{shot}", str(path)) if "{shot}" in a else str(tmp_path / a)
            if a.endswith((".npz", ".txt", ".gif", ".png")) else a for a in argv]
    assert main(["show", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and re.search(message, err), err
