"""`--physics NAME=VALUE` on `shoot` and `batch`: any coefficient of the game's physics from the
command line, as `table.with_physics(...)` sets it from Python, each checked (one line, exit 2)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from cuesim import CueShot, simulate, start_layout
from cuesim.api import game_table
from cuesim.cli import main


def test_shoot_plays_on_the_physics_given(capsys) -> None:
    assert main(["shoot", "9-ball", "--speed", "7", "--physics", "mu_slide=0.25", "--physics",
                 "e_ball=0.9", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["physics"]["mu_slide"], out["physics"]["e_ball"]) == (0.25, 0.9)
    table = game_table("9-ball").with_physics(mu_slide=0.25, e_ball=0.9)
    layout = start_layout("9-ball", table)
    same = simulate(table, layout, CueShot(angle=np.pi / 2, speed=7.0))
    assert [e["t"] for e in out["events"]] == [e.t for e in same.event_log()]
    default = simulate(game_table("9-ball"), layout, CueShot(angle=np.pi / 2, speed=7.0))
    assert [e.t for e in default.event_log()] != [e.t for e in same.event_log()]


def test_shoot_saves_them_and_show_names_them(capsys, tmp_path: Path) -> None:
    path = tmp_path / "p.npz"
    assert main(["shoot", "novus", "--speed", "6", "--physics", "mu_puck=0.2", "--save",
                 str(path)]) == 0
    capsys.readouterr()
    assert main(["show", str(path), "--verify"]) == 0
    assert capsys.readouterr().out.startswith(f"{path}: table novus, physics: mu_puck=0.2, "
                                              "verified")


@pytest.mark.parametrize("physics, message", [
    (["mu=0.2"], r"--physics: BallPhysics has no coefficient 'mu'; its coefficients are "
                 r"mu_slide, mu_roll, "),
    (["mu_slide=-1"], r"--physics: BallPhysics\.mu_slide must be a real number in \(0, inf\)"),
    (["mu_slide"], r"--physics 'mu_slide': expected NAME=VALUE \(mu_slide=0\.25\)"),
    (["=0.2"], r"--physics '=0\.2': expected NAME=VALUE"),
    (["mu_slide=fast"], r"--physics mu_slide: 'fast' is not a number"),
    (["mu_slide=inf"], r"--physics mu_slide: 'inf' is not a finite number"),
    (["e_ball=0.9", "e_ball=0.8"], r"--physics: e_ball is given twice"),
    (["impact_steps=30", "--impact-steps", "40"], r"--impact-steps and --physics "
                                                  r"impact_steps=\.\.\. both set"),
])
@pytest.mark.parametrize("command", ["shoot", "batch"])
def test_bad_physics_are_one_line(capsys, tmp_path: Path, command: str, physics,
                                  message: str) -> None:
    argv = [command, "9-ball"] + (["--speed", "7"] if command == "shoot" else
                                  ["--shots", "4", "--out", str(tmp_path / "b.npz"), "--quiet"])
    for item in physics:
        argv += [item] if item.startswith("-") or item.isdigit() else ["--physics", item]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and re.search(message, err), err
    assert not (tmp_path / "b.npz").exists()


def test_novus_names_its_own_coefficients(capsys) -> None:
    assert main(["shoot", "novus", "--speed", "6", "--physics", "mu_slide=0.2"]) == 2
    assert "NovusPhysics has no coefficient 'mu_slide'; its coefficients are mu_puck, " \
        in capsys.readouterr().err


def test_batch_records_them_and_resumes_only_with_them(capsys, tmp_path: Path) -> None:
    from cuesim.batch import read_results

    out = tmp_path / "b.npz"
    args = ["batch", "9-ball", "--shots", "6", "--vary", "speed=4:8", "--out", str(out),
            "--quiet"]
    assert main([*args, "--physics", "e_cushion=0.7"]) == 0
    assert "e_cushion=0.7," in read_results(out).manifest["table_repr"]
    capsys.readouterr()
    assert main([*args, "--physics", "e_cushion=0.7"]) == 0  # the same run: complete already
    assert main([*args, "--physics", "e_cushion=0.8"]) == 2  # other physics: refused


def test_the_readme_names_every_coefficient() -> None:
    """The README's --physics paragraph lists each game's coefficients: kept with the tables."""
    import dataclasses

    text = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    paragraph = text[text.index("`--physics NAME=VALUE` (repeatable; `shoot`"):]
    paragraph = paragraph[:paragraph.index("```")]
    novus, balls = paragraph.split("ball games")
    for part, game in ((novus, "novus"), (balls, "9-ball")):
        named = re.findall(r"`([a-z_]+)`", part.split("(`cuesim.tables`")[0])
        fields = [f.name for f in dataclasses.fields(game_table(game).physics)]
        assert [n for n in named if n not in ("shoot", "play")] == fields, game
