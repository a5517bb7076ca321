"""The multiple impact's resolution (`impact_steps` of NovusPhysics and BallPhysics: steps per
contact time scale, 20 by default, tables/contact.py): a numerical setting, not physics. Its
outcome converges as the step shrinks, ten times more steps change nothing visible in the
impact, and the setting is checked where it comes in. bench/impact_steps.py measures the error
and the time of each resolution."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bench import scenarios as sc
from bench.impact_steps import first_impact_velocities, shoot, velocity_error, with_resolution
from cuesim.tables.balls import BallPhysics
from cuesim.tables.contact import IMPACT_STEPS
from cuesim.tables.novus import NovusPhysics

OPENINGS = {"novus opening": lambda: sc.novus_opening(1).cases[0],
            "9-ball break": lambda: sc.pool_break("9-ball", 1).cases[0]}


def _first_impact(case: sc.Case, steps: float) -> dict[int, tuple[float, float]]:
    return first_impact_velocities(shoot(case, with_resolution(case.table, steps)))


@pytest.mark.parametrize("name", list(OPENINGS))
def test_the_first_impact_converges_as_the_step_shrinks(name: str) -> None:
    """Against 320 steps: each halving of the step cuts the error (10 -> 20 steps: 3x at least;
    velocity Verlet with the friction's relaxation converges as about the cube of the step at
    these resolutions), and at the default the outgoing velocities are within 5 mm/s
    (bench/README.md: 4.5 mm/s on the novus opening, 1.4-1.9 on the racks)."""
    case = OPENINGS[name]()
    ref = _first_impact(case, 320.0)
    err = {s: velocity_error(_first_impact(case, s), ref) for s in (10.0, 20.0, 40.0)}
    assert len(ref) >= 5  # a multiple impact: the rack or the rows, not one contact
    assert err[10.0] > 3.0 * err[20.0] > 3.0 * err[40.0]
    assert err[IMPACT_STEPS] < 5e-3


@pytest.mark.parametrize("name", list(OPENINGS))
def test_ten_times_the_steps_changes_nothing_visible_in_the_impact(name: str) -> None:
    """200 steps instead of 20: every outgoing velocity of the first impact within 5 mm/s, and
    the same pieces leave it. (Whole breaks are another matter: their rest of the shot is
    chaotic, and a cue 1e-4 faster moves balls 2-90 mm at rest; see bench/README.md.)"""
    case = OPENINGS[name]()
    a, b = _first_impact(case, IMPACT_STEPS), _first_impact(case, 10 * IMPACT_STEPS)
    assert set(a) == set(b)
    assert velocity_error(a, b) < 5e-3


def test_the_novus_opening_at_ten_times_the_steps_ends_the_same() -> None:
    """The novus opening's pucks come to rest within 3 mm of where they do at 20 steps, the
    same pucks pocketed (as for v_stick: tests/test_contacts.py)."""
    case = OPENINGS["novus opening"]()
    a = shoot(case, with_resolution(case.table, IMPACT_STEPS))
    b = shoot(case, with_resolution(case.table, 10 * IMPACT_STEPS))
    assert sorted(a.pocketed) == sorted(b.pocketed)
    assert np.abs(a.final_positions - b.final_positions).max() < 3e-3


def test_the_default_is_the_tables_and_the_same_shot() -> None:
    """The default physics carry IMPACT_STEPS, and a table given it explicitly simulates the
    same bytes."""
    case = OPENINGS["9-ball break"]()
    assert case.table.physics.impact_steps == IMPACT_STEPS
    a = shoot(case, case.table)
    b = shoot(case, with_resolution(case.table, float(IMPACT_STEPS)))
    assert a.events.tobytes() == b.events.tobytes()
    assert a.segments.tobytes() == b.segments.tobytes()


@pytest.mark.parametrize("physics", [NovusPhysics, BallPhysics])
@pytest.mark.parametrize("bad", [1.5, 320.5, math.nan, math.inf, "20", None])
def test_a_resolution_outside_its_range_is_refused(physics, bad) -> None:
    with pytest.raises(ValueError, match=r"impact_steps must be a real number in \[2, 320\]"):
        physics(impact_steps=bad)


@pytest.mark.parametrize("physics", [NovusPhysics, BallPhysics])
def test_the_repr_names_the_resolution_only_where_it_is_not_the_default(physics) -> None:
    """A batch run's manifest records its table's repr and compares it on resuming: physics at
    the defaults keep the repr they had before the setting existed, and another resolution
    shows in it (so a run cannot resume at another one)."""
    default = repr(physics())
    assert "impact_steps" not in default
    assert default == f"{physics.__qualname__}(" + ", ".join(
        f"{k}={v!r}" for k, v in vars(physics()).items() if k != "impact_steps") + ")"
    assert "impact_steps=10.0" in repr(physics(impact_steps=10.0))


def test_the_bench_prints_each_shot_at_each_resolution_and_the_default(capsys) -> None:
    """bench/impact_steps.py: a row per shot and resolution, the default among them (the base
    of the ratios), and one clear error for a resolution outside the range."""
    from bench import impact_steps

    assert impact_steps.main(["--steps", "10", "--repeats", "1"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[2:]]
    assert [(r[-4], r[-1]) for r in rows if r[-4] == "20"] == [("20", "1.00x")] * 3
    assert len(rows) == 6
    with pytest.raises(SystemExit) as exc:
        impact_steps.main(["--steps", "400"])
    assert exc.value.code == 2 and "expected resolutions in [2, 320]" in capsys.readouterr().err


def test_a_table_changes_its_physics_through_with_physics() -> None:
    """`with_physics` gives the same table with the named coefficients changed and checked
    (the batch command, the environments and the bench set the resolution through it); a box,
    whose physics are its pieces' own, has none to change."""
    from cuesim.tables.box import box_for
    from cuesim.tables.pool import pool_table

    table = pool_table("8ft")
    coarse = table.with_physics(impact_steps=10)
    assert coarse.physics.impact_steps == 10.0 and coarse.geometry == table.geometry
    assert coarse != table and hash(coarse) != hash(table)
    with pytest.raises(ValueError, match="impact_steps"):
        table.with_physics(impact_steps=0.5)
    with pytest.raises(TypeError, match="has no physics"):
        box_for(16).with_physics(impact_steps=10)


def test_the_bench_compares_statistics_of_random_shots(capsys) -> None:
    """--statistics N: for each game and resolution the mean pieces pocketed per shot, its
    paired difference from the default (zero there) and the run's time."""
    from bench import impact_steps

    rows = impact_steps.statistics("novus", (10.0, IMPACT_STEPS), 40)
    assert [r["steps"] for r in rows] == [10.0, IMPACT_STEPS]
    assert rows[1]["diff"] == rows[1]["diff_se"] == rows[1]["any_diff"] == 0.0
    assert 0.0 <= rows[0]["any"] <= 1.0 and rows[0]["pocketed"] >= 0.0
    assert rows[0]["diff"] == pytest.approx(rows[0]["pocketed"] - rows[1]["pocketed"])


@pytest.fixture(scope="module")
def recorded_impacts() -> dict[str, list[list]]:
    """The multiple impacts of the novus opening and the 9-ball and 8-ball breaks, as
    `solve_multi_impact` was called (recorded by bench/impact_alone.py's child process)."""
    from bench import impact_alone

    return impact_alone.recorded_impacts()


def test_the_open_contacts_speed_floor_changes_nothing_in_the_impacts(recorded_impacts,
                                                                      monkeypatch) -> None:
    """V_OPEN and V_ROUND (an open contact still closing keeps the impact going, and the free
    flight jumps to it; a loaded contact storing less than V_OPEN carries is spent) are
    round-off floors, not physics: 10x higher or lower leaves every outgoing velocity and spin
    of the recorded impacts as it was. The impacts run as Python here, the floors read at each
    call; the novus opening's jump over a free flight is among them."""
    from cuesim.sim.resolve import multi_impact as mi
    from cuesim.sim.state import VX, VY, W0, WX, WY

    jumps = [0]
    free_flight = mi._free_flight

    def counted(*args):
        jumps[0] += 1
        return free_flight(*args)

    monkeypatch.setattr(mi, "_free_flight", counted)

    def outcome(args: list, floor: float) -> np.ndarray:
        monkeypatch.setattr(mi, "V_OPEN", floor)
        monkeypatch.setattr(mi, "V_ROUND", floor * round_per_open)
        fresh = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        mi.solve_multi_impact.py_func(*fresh)
        return fresh[0][:, [VX, VY, W0, WX, WY]]

    default, round_per_open = mi.V_OPEN, mi.V_ROUND / mi.V_OPEN
    for name, calls in recorded_impacts.items():
        for args in calls:
            base = outcome(args, default)
            for floor in (10.0 * default, 0.1 * default):
                assert np.abs(outcome(args, floor) - base).max() < 1e-9, name
    assert jumps[0] > 0  # the free flight's jump took part


def _outgoing(args: list) -> np.ndarray:
    """The velocities and spins a recorded impact leaves, the impact run as Python (its
    module's constants read at the call)."""
    from cuesim.sim.resolve import multi_impact as mi
    from cuesim.sim.state import VX, VY, W0, WX, WY

    fresh = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    mi.solve_multi_impact.py_func(*fresh)
    return fresh[0][:, [VX, VY, W0, WX, WY]]


_NOVUS_OPENING_AT_REST = """
import json, sys
from bench.impact_steps import CASES, shoot
from cuesim.sim.resolve import multi_impact
multi_impact.STICK_TIME *= float(sys.argv[1])
case = CASES["novus opening"]()
result = shoot(case, case.table)
print(json.dumps([result.final_positions.tolist(), sorted(result.pocketed)]))
"""


def _novus_opening_at_rest(factor: float) -> tuple[np.ndarray, list]:
    """The novus opening's rest with STICK_TIME scaled, played as Python in a child process
    (NUMBA_DISABLE_JIT=1: the compiled loop would keep the constant it was compiled with)."""
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1",
           "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", _NOVUS_OPENING_AT_REST, str(factor)], cwd=root,
                         env=env, capture_output=True, text=True, check=True).stdout
    final, pocketed = json.loads(out)
    return np.array(final), pocketed


def test_a_tenth_of_the_sticking_time_changes_nothing_visible(recorded_impacts,
                                                               monkeypatch) -> None:
    """STICK_TIME (a sticking contact's slip relaxes in a fifth of the contact time scale) is
    a regularisation of rigid sticking, whose limit is the soft reference's friction: a tenth
    of it moves no outgoing velocity of the recorded impacts (the novus opening, the 9-ball and
    8-ball breaks) by more than 6 mm/s, about the resolution's own error (4.5 mm/s on the
    novus opening's first impact), and the novus opening comes to rest within 3 mm with the
    same pucks pocketed (as for v_stick: tests/test_contacts.py). A hundredth gives the
    tenth's outcome: the limit is reached. (Ten times it is another contact, sticking that
    outlasts the contact: sim/resolve/multi_impact.py.)"""
    from cuesim.sim.resolve import multi_impact as mi

    default = mi.STICK_TIME
    for name, calls in recorded_impacts.items():
        for args in calls:
            base = _outgoing(args)
            monkeypatch.setattr(mi, "STICK_TIME", 0.1 * default)
            tenth = _outgoing(args)
            monkeypatch.setattr(mi, "STICK_TIME", 0.01 * default)
            hundredth = _outgoing(args)
            monkeypatch.undo()
            speed = np.hypot(*(tenth - base)[:, :2].T)
            assert speed.max() < 6e-3, name
            assert np.array_equal(hundredth, tenth), name
    final, pocketed = _novus_opening_at_rest(1.0)
    final_tenth, pocketed_tenth = _novus_opening_at_rest(0.1)
    assert pocketed_tenth == pocketed
    assert np.abs(final_tenth - final).max() < 3e-3
