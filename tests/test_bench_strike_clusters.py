"""bench/strike_clusters.py: random oblique strikes through touching pucks, the core against the
soft reference (bench/README.md "strike_clusters.py")."""

from __future__ import annotations

import json

import pytest

from bench import strike_clusters as sc


def test_a_few_strikes_follow_the_reference_within_a_millimetre(capsys, tmp_path) -> None:
    """Seeds 0-3: each strike's pieces stay within 1 mm of the reference's paths 30 ms after
    the first contact (the rest, after later collisions, is printed, not judged); the summary
    and the JSON rows are written."""
    out = tmp_path / "rows.json"
    assert sc.main(["--shots", "4", "--each", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "strikes: the largest distance a window after the first contact" in text
    rows = json.loads(out.read_text())
    assert 1 <= len(rows) <= 4
    for row in rows:
        assert 0.0 < row["window_ms"] <= 31.0 and row["early_mm"] < 1.0, row


def test_the_same_seed_is_the_same_strike() -> None:
    a, b = sc.random_strike(5), sc.random_strike(5)
    assert a is not None and b is not None
    assert a.layout == b.layout and a.striker == b.striker
    assert 3 <= len(a.layout) <= 5


@pytest.mark.parametrize("args", [["--shots", "0"], ["--window", "-1"], ["--steps", "0"],
                                  ["--stiffness", "0"], ["--stiffness", "1e9"]])
def test_bad_arguments_exit_2(args) -> None:
    with pytest.raises(SystemExit) as exc:
        sc.main(args)
    assert exc.value.code == 2


def test_an_unwritable_json_is_one_line_and_exit_2(capsys, tmp_path) -> None:
    assert sc.main(["--shots", "1", "--json", str(tmp_path / "no" / "rows.json")]) == 2
    assert "cannot write --json" in capsys.readouterr().err


def test_ball_strikes_are_cue_shots_on_a_pool_table(capsys) -> None:
    """--pieces balls: 1-4 touching balls and the cue ball struck by a cue (a lone ball is the
    binary impact); each strike's pieces within 5 mm of the reference's paths 30 ms after the
    first contact (bench/README.md: mostly the reference's contact duration, below)."""
    strike = sc.random_strike(3, "balls")
    assert strike is not None and strike.struck == "cue" and len(strike.striker) == 5
    assert {p.kind for p in strike.layout.pieces} == {"ball"}
    assert sc.main(["--shots", "2", "--pieces", "balls", "--each"]) == 0
    lines = capsys.readouterr().out.splitlines()
    early = [float(line.split(":")[1].split("mm")[0]) for line in lines if line.startswith("seed")]
    assert early and max(early) < 5.0


def test_a_lone_balls_distance_is_the_contacts_duration() -> None:
    """Seed 47, the cue ball at 7.6 m/s with heavy spin cutting a lone ball: 3.3 mm from the
    reference 30 ms on, because during the reference's 0.3 ms contact the balls pass each other
    by a millimetre or so and the normal turns (the core's impact is instantaneous, the binary
    and the multiple impact agree to 0.1 mm/s); with the reference's contacts 100 times as stiff
    (6.3 times shorter) it is 0.5 mm (bench/README.md "What the ball audit measures")."""
    strike = sc.random_strike(47, "balls")
    assert strike is not None and len(strike.layout) == 2
    soft = sc.compare(strike)["early_mm"]
    stiff = sc.compare(strike, stiffness=100.0)["early_mm"]
    assert soft > 2.5 and stiff < 0.7 and stiff < soft / 4.0
