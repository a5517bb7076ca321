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


@pytest.mark.parametrize("argv", [
    ("9-ball", "--speed", "7"),
    ("novus", "--speed", "6", "--angle", "80"),
    ("5-pins", "--angle", "60", "--speed", "3", "--english", "0.2"),
])
def test_show_rule_gives_the_ruling_shoot_rule_gave(capsys, tmp_path: Path, argv) -> None:
    """`show FILE --rule GAME` rules on the saved shot as `shoot GAME ... --rule` ruled on it
    when it was played (the start of a match: 9-ball 5.4's break, novus, 5-pins' break), in
    words and in --json ('ruling', 'referee_state')."""
    path, printed = _shoot(capsys, tmp_path, *argv, "--rule")
    assert "\nruling: " in printed
    assert main(["show", str(path), "--rule", argv[0]]) == 0
    assert capsys.readouterr().out.partition("\n")[2] == printed
    shot_json = tmp_path / "j.json"
    assert main(["shoot", *argv, "--rule", "--json", "--save", str(shot_json)]) == 0
    want = json.loads(capsys.readouterr().out)
    got = json.loads(main_json(shot_json, "--rule", argv[0]))
    assert got["ruling"] == want["ruling"] and got["referee_state"] == want["referee_state"]
    assert got == want


def test_show_rule_from_a_state_file(capsys, tmp_path: Path) -> None:
    """--state: the referee resumed from a game's state, as shoot's --state (novus 12: Bob
    shoots from the north; 5-pins: the yellow's player)."""
    novus = tmp_path / "novus.json"
    novus.write_text(json.dumps({"players": ["Ann", "Bob"], "shooter": "Bob"}))
    path, printed = _shoot(capsys, tmp_path, "novus", "--speed", "4", "--rule", "--state",
                           str(novus))
    assert main(["show", str(path), "--rule", "novus", "--state", str(novus)]) == 0
    assert capsys.readouterr().out.partition("\n")[2] == printed
    assert main(["show", str(path), "--rule", "novus"]) == 2  # a new match: A, south, shoots
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "shot is played from the north, but the player to shoot, " \
        "A, plays from the south (novus 12)" in err, err


@pytest.mark.truncation
def test_show_rule_of_a_truncated_shot_rules_nothing(capsys, tmp_path: Path) -> None:
    path, printed = _shoot(capsys, tmp_path, "9-ball", "--speed", "7", "--max-events", "5",
                           "--rule")
    assert main(["show", str(path), "--rule", "9-ball"]) == TRUNCATED_STATUS
    out = capsys.readouterr().out
    assert out.partition("\n")[2] == printed
    assert out.endswith("ruling: none: a TRUNCATED shot is not ruled on\n")


def test_a_break_is_ruled_only_from_the_games_rack(capsys, tmp_path: Path) -> None:
    """WPA 4.1 and 4.3 (8-ball: 15 balls, the 8 in the centre), 6.4 (14.1's rack): a 9-ball
    break's file is no 8-ball or 14.1 break, and `shoot 8-ball --rule` from the 9-ball rack is
    refused before it is simulated. Before, the 8-ball referee called it a legal break (4.5)."""
    path, _ = _shoot(capsys, tmp_path, "9-ball", "--speed", "7")
    for game, article in (("8-ball", "(4.3)"), ("14.1", "(6.4)")):
        assert main(["show", str(path), "--rule", game]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1, err
        assert f"the {game} break is played on its opening rack, and this is none: " in err
        assert "racks 15 balls, the layout has 9" in err and article in err
    rack = tmp_path / "nine.json"
    assert main(["layout", "9-ball"]) == 0
    rack.write_text(capsys.readouterr().out)
    assert main(["shoot", "8-ball", "--speed", "7", "--layout", str(rack), "--rule"]) == 2
    assert "the 8-ball break is played on its opening rack" in capsys.readouterr().err
    assert main(["shoot", "8-ball", "--speed", "7", "--layout", str(rack)]) == 0  # no referee


@pytest.mark.parametrize("argv, message", [
    (["--rule", "9-bal"], r"--rule: unknown game '9-bal'; games are novus, novus-doubles, "),
    (["--rule", "5-pins"], r"--rule 5-pins: .*shot\.npz was played on the table 'pool_9ft', "
                           r"not on a 5-pins table \(carom\)"),
    (["--state", "{state}"], r"--state gives the game state to rule from: use it with --rule "
                             r"GAME"),
    (["--rule", "9-ball", "--state", "{state}"], r"--state .*state\.json: the match is over"),
    (["--rule", "8-ball", "--state", "{play}"], r"--rule 8-ball: .*shot\.npz's shot places the "
                                                r"ball in hand, but the 8-ball state gives none"),
    (["--rule", "8-ball", "--state", "{play}", "--plot", "{play}"],
     r"--plot '.*play\.json' is the --state file: writing it would replace the input"),
])
def test_show_rule_doors_are_one_line(capsys, tmp_path: Path, argv, message: str) -> None:
    import re

    path, _ = _shoot(capsys, tmp_path, "9-ball", "--speed", "4", "--x", "0.5", "--y", "0.5",
                     "--angle", "80")
    (tmp_path / "state.json").write_text(json.dumps({
        "players": ["A", "B"], "shooter": "A", "breaker": "A", "phase": "match_over",
        "winner": "A"}))
    (tmp_path / "play.json").write_text(json.dumps({
        "game": "eight_ball", "players": ["A", "B"], "shooter": "A", "breaker": "A",
        "phase": "play", "ball_in_hand": None}))
    argv = [str(path), *(a.replace("{state}", str(tmp_path / "state.json"))
                         .replace("{play}", str(tmp_path / "play.json")) for a in argv)]
    assert main(["show", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert re.search(message, captured.err), captured.err
