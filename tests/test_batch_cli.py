"""`cuesim batch`: sampled and file-driven runs, and every bad input as one clear message."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cuesim.batch import read_results
from cuesim.batch.store import parts_dir
from cuesim.cli import main


def run(args, capsys):
    code = main(["batch", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_sampled_run_writes_a_complete_file(tmp_path, capsys):
    out = tmp_path / "n.parquet"
    code, stdout, err = run(["novus", "--shots", "30", "--vary", "speed=2:8", "--vary",
                             "angle=80:100", "--seed", "3", "--workers", "1", "--chunk-size",
                             "10", "--out", str(out)], capsys)
    assert code == 0, err
    assert "shots/s" in err and "left" in err and "wrote 30 shots" in stdout
    res = read_results(out)
    angles = np.degrees(res["param.angle"])
    assert ((angles >= 80) & (angles <= 100)).all()
    assert res.manifest["source"]["seed"] == 3 and res.manifest["game"] == "novus"
    # same command again: refused; with --overwrite and 2 workers: identical
    code, _, err = run(["novus", "--shots", "30", "--vary", "speed=2:8", "--out", str(out)],
                       capsys)
    assert code == 2 and "exists; pass --overwrite" in err
    code, _, err = run(["novus", "--shots", "30", "--vary", "speed=2:8", "--vary",
                        "angle=80:100", "--seed", "3", "--workers", "2", "--chunk-size", "10",
                        "--out", str(out), "--overwrite", "--quiet"], capsys)
    assert code == 0 and err == ""
    again = read_results(out)
    for k in res.keys():
        np.testing.assert_array_equal(res[k], again[k])


def test_a_coarser_impact_resolution_runs_and_is_part_of_the_run(tmp_path, capsys):
    """--impact-steps sets the multiple impact's resolution of the table: the manifest's table
    records it (so the run does not resume at another), and the default adds nothing there."""
    out = tmp_path / "b.npz"
    args = ["9-ball", "--shots", "6", "--vary", "speed=6:8", "--quiet", "--out", str(out)]
    code, _, err = run([*args, "--impact-steps", "10"], capsys)
    assert code == 0, err
    coarse = read_results(out)
    assert "impact_steps=10.0" in coarse.manifest["table_repr"]
    code, _, err = run([*args, "--impact-steps", "20"], capsys)  # resuming at another: no
    assert code == 2 and "exists; pass --overwrite" in err
    code, _, err = run([*args, "--overwrite"], capsys)
    assert code == 0, err
    default = read_results(out)
    assert "impact_steps" not in default.manifest["table_repr"]
    assert len(default) == len(coarse) == 6


def test_parameters_from_csv_with_ruling(tmp_path, capsys):
    params = tmp_path / "p.csv"
    params.write_text("angle,speed,side\n90,8,0\n88,10,0.2\n")
    out = tmp_path / "r.npz"
    code, _, err = run(["9-ball", "--params", str(params), "--ruling", "--out", str(out),
                        "--workers", "1"], capsys)
    assert code == 0, err
    res = read_results(out)
    assert res["param.angle"][1] == pytest.approx(math.radians(88))
    assert res["legal"].dtype == np.bool_ and len(res) == 2


def test_parameters_from_parquet(tmp_path, capsys):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    params = tmp_path / "p.parquet"
    pq.write_table(pa.table({"x": [0.4, 0.6], "angle": [90.0, 95.0], "speed": [5, 6]}), params)
    out = tmp_path / "r.npz"
    code, _, err = run(["novus", "--params", str(params), "--out", str(out), "--quiet"], capsys)
    assert code == 0, err
    assert list(read_results(out)["param.speed"]) == [5.0, 6.0]


BAD = [
    (["novus", "--shots", "5", "--vary", "speed=8:2"], "speed=8:2: the range is reversed"),
    (["novus", "--shots", "5", "--vary", "speed=3:3"], "speed=3:3: the range is empty"),
    (["novus", "--shots", "5", "--vary", "spin=1:2"], "unknown parameter 'spin'"),
    (["novus", "--shots", "5", "--vary", "speed2:8"], "expected NAME=LO:HI"),
    (["novus", "--shots", "5", "--vary", "speed=a:8"], "'a' is not a number"),
    (["novus", "--shots", "5", "--vary", "speed=2:99"], "range of 'speed' (2:99) includes "
                                                        "shots that cannot be played"),
    (["novus", "--shots", "0"], "--shots must be at least 1"),
    (["novus", "--vary", "speed=2:8"], "give --shots N"),
    (["novus", "--shots", "5", "--set", "elevation=3"], "unknown parameter 'elevation'"),
    (["snooker", "--shots", "5"], "unknown game 'snooker'"),
    (["5-pins", "--shots", "5", "--state", "state.json"], "--state is the referee's game "
                                                           "state: it needs --ruling"),
    (["novus", "--shots", "5", "--workers", "0"], "workers must be a positive integer"),
    (["novus", "--shots", "5", "--impact-steps", "1"], "--impact-steps: NovusPhysics.impact_"
                                                       "steps must be a real number in [2, 320]"),
    (["9-ball", "--shots", "5", "--impact-steps", "ten"], "--impact-steps: 'ten' is not a number"),
    (["9-ball", "--shots", "5", "--impact-steps", "nan"], "--impact-steps: 'nan' is not a finite"),
]


@pytest.mark.parametrize("args, message", BAD)
def test_bad_options_give_one_clear_message(tmp_path, capsys, args, message):
    out = tmp_path / "o.npz"
    code, _, err = run([*args, "--out", str(out)], capsys)
    assert code == 2
    assert message in err and err.startswith("cuesim: error:") and err.count("\n") == 1
    assert not out.exists() and not parts_dir(out).exists()


def test_bad_output_names(tmp_path, capsys):
    code, _, err = run(["novus", "--shots", "5", "--out", str(tmp_path / "o.csv")], capsys)
    assert code == 2 and "must end in .parquet or .npz" in err
    code, _, err = run(["novus", "--shots", "5", "--out", str(tmp_path / "no" / "o.npz")],
                       capsys)
    assert code == 2 and "does not exist" in err


CSV_BAD = [
    ("angle,speed,spin\n90,5,1\n", "unknown parameter 'spin'"),
    ("angle,speed\n90,fast\n", "line 2, column 'speed': 'fast' is not a number"),
    ("angle,speed\n90\n", "line 2: 1 values for 2 columns"),
    ("angle,speed\n", "has a header but no shots"),
    ("", "is empty"),
    ("angle,speed\n90,inf\n", "line 2, column 'speed': 'inf' is not a finite number"),
    ("angle,speed\n90,3\n90,nan\n", "line 3, column 'speed': is not a finite number (nan)"),
    ("angle,speed\n90,5\n90,40\n", "line 3 (shot 1): "),
    # lines as an editor counts them: blank lines count, though they hold no shot
    ("\nangle,speed\n\n90,fast\n", "line 4, column 'speed': 'fast' is not a number"),
    ("angle,speed\n90,3\n\n\n90,nan\n", "line 5, column 'speed': is not a finite number (nan)"),
    ("angle,speed\n\n90,5\n\n90,40\n", "line 5 (shot 1): "),
]


@pytest.mark.parametrize("text, message", CSV_BAD)
def test_bad_csv_parameter_files(tmp_path, capsys, text, message):
    params = tmp_path / "p.csv"
    params.write_text(text)
    out = tmp_path / "o.npz"
    code, _, err = run(["novus", "--params", str(params), "--out", str(out), "--workers", "1",
                        "--quiet"], capsys)
    assert code == 2 and message in err, err
    assert not out.exists() and not parts_dir(out).exists()


def test_bad_parquet_parameter_file(tmp_path, capsys):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    params = tmp_path / "p.parquet"
    pq.write_table(pa.table({"angle": ["90"], "speed": [5.0]}), params)
    code, _, err = run(["novus", "--params", str(params), "--out", str(tmp_path / "o.npz")],
                       capsys)
    assert code == 2 and "column 'angle' has type string, not numbers" in err
    code, _, err = run(["novus", "--params", str(tmp_path / "none.csv"), "--out",
                        str(tmp_path / "o.npz")], capsys)
    assert code == 2 and "does not exist" in err
    code, _, err = run(["novus", "--params", str(params), "--vary", "speed=1:2", "--out",
                        str(tmp_path / "o.npz")], capsys)
    assert code == 2 and "do not combine it with --shots, --vary or --grid" in err


def test_unreachable_cluster(tmp_path, capsys, monkeypatch):
    pytest.importorskip("distributed")
    import cuesim.batch.cluster as batch_run

    monkeypatch.setattr(batch_run, "CLUSTER_TIMEOUT", 1.0)
    out = tmp_path / "o.npz"
    code, _, err = run(["novus", "--shots", "5", "--cluster", "tcp://127.0.0.1:9", "--out",
                        str(out)], capsys)
    assert code == 2 and "cannot reach the Dask cluster at 'tcp://127.0.0.1:9'" in err
    assert err.count("\n") == 1
    assert not out.exists() and not parts_dir(out).exists()
    folder = tmp_path / "run"  # a dataset: no new, empty folder left behind either
    code, _, err = run(["novus", "--shots", "5", "--cluster", "tcp://127.0.0.1:9", "--dataset",
                        "--out", str(folder)], capsys)
    assert code == 2 and "cannot reach the Dask cluster" in err and not folder.exists()


# Every refusal of options that contradict each other: the run stops before anything is written
# (without the check, `--params p.csv --shots 1000` wrote the file's 2 shots and exited 0).
CONTRADICTIONS = [
    (["--params", "{csv}", "--shots", "1000"], "do not combine it with --shots, --vary or"),
    (["--params", "{csv}", "--vary", "speed=2:8"], "do not combine it with --shots, --vary or"),
    (["--params", "{csv}", "--set", "speed=3"],
     "--set speed: the parameter file already has column 'speed'"),
    (["--shots", "5", "--cluster", "tcp://127.0.0.1:9", "--workers", "2"],
     "--workers is for local runs; a cluster brings its own workers"),
    (["--shots", "5", "--vary", "speed=2:8", "--vary", "speed=3:4"],
     "'speed' is varied twice"),
    (["--shots", "5", "--vary", "speed=2:8", "--set", "speed=3"],
     "parameter 'speed' is both varied and fixed"),
]


@pytest.mark.parametrize("args, message", CONTRADICTIONS)
def test_contradictory_options_are_refused(tmp_path, capsys, args, message):
    params = tmp_path / "p.csv"
    params.write_text("angle,speed\n90,5\n80,6\n")
    out = tmp_path / "o.npz"
    argv = ["novus", *[a.format(csv=params) for a in args], "--out", str(out), "--quiet"]
    code, stdout, err = run(argv, capsys)
    assert code == 2, (stdout, err)
    assert message in err and err.startswith("cuesim: error:") and err.count("\n") == 1
    assert not out.exists() and not parts_dir(out).exists()


def test_a_parameter_file_with_x_but_no_y_for_a_ball_is_refused(tmp_path, capsys):
    params = tmp_path / "p.csv"
    params.write_text("angle,speed,x\n90,5,0.6\n")
    out = tmp_path / "o.npz"
    code, _, err = run(["9-ball", "--params", str(params), "--out", str(out), "--quiet"],
                       capsys)
    assert code == 2 and "gives only one of x and y; give both" in err, err
    assert not out.exists()


def test_straight_pool_rulings_with_the_shooters_points(tmp_path, capsys):
    """14.1 is scored by points (WPA 6.5): `--ruling` adds them; a foul's point comes off the
    shooter's score (WPA 6.6, 6.11), so a violated article means points < 0."""
    out = tmp_path / "straight.npz"
    code, _, err = run(["14.1", "--shots", "20", "--vary", "speed=0.5:9", "--vary",
                        "angle=85:95", "--ruling", "--workers", "1", "--quiet", "--out",
                        str(out)], capsys)
    assert code == 0, err
    res = read_results(out)
    assert res.manifest["ruling"] == "14.1"
    fouls = np.array([bool(a) for a in res["articles"]])
    assert fouls.any() and (res["points"][fouls] < 0).all()
    assert (res["points"][~fouls] >= 0).all() and (res["points_opponent"] == 0).all()


def test_five_pins_rulings_with_each_sides_points(tmp_path, capsys):
    """5-pins is scored by points: `--ruling` adds the shot's points for the shooter and for
    the opponent to the legal / turn / articles columns."""
    out = tmp_path / "pins.npz"
    code, _, err = run(["5-pins", "--shots", "30", "--vary", "angle=80:100", "--vary",
                        "speed=1:6", "--ruling", "--workers", "1", "--quiet", "--out", str(out)],
                       capsys)
    assert code == 0, err
    res = read_results(out)
    assert res.manifest["ruling"] == "5-pins" and res.manifest["struck"] == "white"
    for name in ("legal", "turn_passes", "articles", "points", "points_opponent"):
        assert len(res[name]) == 30, name
    assert (res["points"] >= 0).all() and (res["points_opponent"] >= 0).all()
    assert (res["points"] + res["points_opponent"]).sum() > 0
    # a foul's points go to the opponent: a shot with a violated article scores none itself
    fouls = np.array([bool(a) for a in res["articles"]])
    assert (res["points"][fouls] == 0).all()


def test_a_bad_shot_of_a_parameter_file_is_named_by_its_line(tmp_path, capsys):
    """A shot that cannot be played is named by its line in the --params CSV (the header is
    line 1), as the file's unreadable cells are; nothing is written."""
    params = tmp_path / "p.csv"
    params.write_text("angle,speed\n90,3\n90,-3\n")
    out = tmp_path / "o.npz"
    assert main(["batch", "9-ball", "--params", str(params), "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert f"parameter file '{params}', line 3 (shot 1): cue speed must be positive" in err
    assert not out.exists()


@pytest.mark.parametrize("args", [["--shots", "4", "--vary", "x=0.2:0.9"],
                                  ["--shots", "4", "--set", "y=0.5"]])
def test_ball_in_hand_needs_x_and_y_together(tmp_path, capsys, args):
    """Ball games place the ball in hand with x and y together: one alone is refused up front
    with a line that says so (before, 'position (0.2, nan)')."""
    out = tmp_path / "o.npz"
    assert main(["batch", "9-ball", *args, "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "x and y place the ball in hand together" in err and len(err.splitlines()) == 1
    assert not out.exists()
