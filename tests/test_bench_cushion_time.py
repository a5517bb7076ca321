"""bench/cushion_time.py: a cut on a ball at a rail, the event core against the soft reference.
The core's rigid cushion (Han's impulse) is the reference's rigid limit; the tables' rubber
cushion, pressed for about 5 ms, sends the balls otherwise whenever they meet again."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bench import cushion_time as ct


@pytest.mark.parametrize("cut, gap, tol", [(45.0, 0.0, 0.015), (45.0, 0.003, 0.015),
                                          (0.0, 0.0, 0.04), (60.0, 0.0, 0.04),
                                          (60.0, 0.002, 0.015)])
def test_the_core_is_the_references_rigid_limit(cut: float, gap: float, tol: float):
    """Every contact of the reference stiffened 10^4 times (the core's dissipation law): both
    balls leave within tol of the core's velocities, the object ball frozen to the rail (one
    multiple impact in the core, Han's law at its cushion contact: measured 0.003-0.031 m/s,
    the most on the object ball struck square or at 60 degrees) or 2-3 mm from it (a
    ball-ball impact, Han's cushion impulse, a second ball-ball impact: 0.001-0.012 m/s)."""
    row = ct.velocities_after(gap, cut, 2.0, (1e4,), "hysteretic")
    assert np.abs(np.array(row["core"]) - np.array(row["soft x10000"])).max() < tol


def test_the_cushions_duration_changes_the_second_meeting_not_a_lone_impact():
    """At the tables' stiffness the object ball presses the cushion for ~5 ms: at gap 0 the cue
    ball leaves 0.2 m/s slower along the rail's normal than in the core (-0.71 against -0.915
    m/s); at 10 mm, where the two never meet again, they agree within 0.01 m/s."""
    near = ct.velocities_after(0.0, 45.0, 2.0, (1.0,))
    assert near["soft x1"][0][0] - near["core"][0][0] > 0.15
    far = ct.velocities_after(0.01, 45.0, 2.0, (1.0,))
    assert np.abs(np.array(far["core"]) - np.array(far["soft x1"])).max() < 0.01


def test_the_script_prints_and_writes_its_rows(tmp_path, capsys):
    out = tmp_path / "rows.json"
    rows = ct.main(["--gaps", "10", "--stiffness", "1", "--json", str(out)])
    assert json.loads(out.read_text()) == rows and "gap 10 mm" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["--cut", "95"], ["--speed", "0"], ["--gaps", "25"],
                                  ["--gaps", "a,b"], ["--stiffness", "1e6"],
                                  ["--dissipation", "plastic"],
                                  ["--plot", "/nonexistent-folder/cushion_time.png"],
                                  ["--gaps", "10", "--stiffness", "1", "--json",
                                   "/nonexistent-folder/rows.json"]])
def test_wrong_arguments_exit_2_with_one_line(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        ct.main(argv)
    assert stop.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_the_plot_is_written(tmp_path):
    out = tmp_path / "cushion_time.png"
    ct.main(["--gaps", "0,10", "--stiffness", "1", "--plot", str(out)])
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
