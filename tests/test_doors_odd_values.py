"""Every public door, one argument at a time given an odd value (a list, a dict, a set, None,
NaN, infinities, a string, bytes, a negative or zero count, an integer past a float's range, a
bool, a bare object, a numpy array, a tuple, 2**63): each call either works or raises the
door's own exception, a ValueError subclass (README, "Errors"). Found this way and fixed:
huge integers as physics coefficients, `sample`'s dt, `max_events`, a box's count and a step's
action (OverflowError); a list as a game, a table size, an environment id or a batch's struck
piece (unhashable: TypeError); a list as a layout builder's or rack's table, a plot's or GIF's
path, a moved piece's coordinates or `without`'s ids (AttributeError, TypeError); a string
given to `without` dropped nothing; `reset` with a list as its seed or NaN as its options."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cuesim import (
    CueShot,
    EventKind,
    Layout,
    NovusPhysics,
    NovusShot,
    Piece,
    ShotResult,
    novus_doubles_layout,
    novus_singles_layout,
    novus_table,
    simulate,
    start_layout,
)
from cuesim.api import game_table
from cuesim.batch import ShotGrid, ShotSampler, read_results, simulate_many, simulate_to_file
from cuesim.rules.files import adjudicate_file
from cuesim.rules.fivepins.game import FivePinsGame
from cuesim.rules.novus.game import NovusGame
from cuesim.rules.pool import NineBall
from cuesim.rulings import referee
from cuesim.sim import run_motion
from cuesim.sim.pymunk_backend import run_motion_pymunk, simulate_pymunk
from cuesim.sim.soft import soft_simulate
from cuesim.tables import pool_table, racks
from cuesim.tables.balls import BallPhysics
from cuesim.tables.box import box_for
from cuesim.viewer.session import load_session, new_session

ODD: list[Any] = [[1], {}, {1}, None, math.nan, math.inf, -math.inf, "x", b"x", -1, 0, 10**400,
                  True, object(), -1e-300, np.array([1.0, 2.0]), (1, 2), 2**63]
NOVUS = novus_table()
SINGLES = novus_singles_layout(NOVUS)
SHOT = NovusShot(x=0.5, angle=1.5, speed=3.0)
RESULT = simulate(NOVUS, SINGLES, SHOT)
POOL = game_table("9-ball")
SAMPLER = ShotSampler(2, {"speed": (1.0, 2.0)}, {"x": 0.5, "angle": 1.5}, seed=0)
SCENARIO = Path(__file__).resolve().parent / "novus_scenarios" / "opening_miss.json"


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> dict[str, str]:
    """A shot, a layout, a batch result, a scenario and a saved game to load."""
    folder = tmp_path_factory.mktemp("saved")
    out = {"shot": str(folder / "shot.json"), "layout": str(folder / "layout.json"),
           "results": str(folder / "shots.npz"), "game": str(folder / "game.json"),
           "scenario": str(SCENARIO)}
    RESULT.save(out["shot"])
    SINGLES.save(out["layout"])
    simulate_to_file(NOVUS, SINGLES, SAMPLER, out["results"], threads=1)
    new_session("novus", ["A", "B"]).save(out["game"])
    return out


def _doors(tmp: str, saved: dict[str, str]) -> list[tuple[str, Callable[..., Any], dict[str, Any]]]:
    """(name, callable, arguments that work): the doors of the README's error table."""
    return [
        ("NovusShot", NovusShot, dict(x=0.5, angle=1.5, speed=3.0, y=None, offset=0.0,
                                      side="south")),
        ("CueShot", CueShot, dict(angle=1.0, speed=3.0, side=0.0, height=0.0, elevation=0.0,
                                  ball="cue", position=None, end_mass=0.0057)),
        ("simulate", simulate, dict(table=NOVUS, layout=SINGLES, shot=SHOT, max_events=20000)),
        ("start_layout", start_layout, dict(game="novus", table=None)),
        ("novus_table", novus_table, dict(physics=None)),
        ("game_table", game_table, dict(game="novus")),
        ("pool_table", pool_table, dict(size="9ft", physics=None)),
        ("novus_singles_layout", novus_singles_layout, dict(table=None, first_colour="red")),
        ("novus_doubles_layout", novus_doubles_layout, dict(table=None, second_colour="black")),
        ("nine_ball_rack", racks.nine_ball_rack, dict(table=None, gap=0.0)),
        ("cue_ball_in_kitchen", racks.cue_ball_in_kitchen, dict(table=None, x=None, y=None)),
        ("box_for", box_for, dict(n=16, piece="puck", area_fraction=0.1)),
        ("Piece", Piece, dict(id="a", kind="puck", x=0.5, y=0.5, group="red")),
        ("Layout", Layout, dict(table="novus", pieces=(Piece("a", "puck", 0.5, 0.5, "red"),))),
        ("Layout.moved", SINGLES.moved, dict(piece_id="red1", x=0.5, y=0.5)),
        ("Layout.without", SINGLES.without, dict(piece_ids=["red1"])),
        ("NovusPhysics", NovusPhysics, dict(mu_puck=0.15, e_rail=0.6, v_stick=0.01,
                                            impact_steps=20.0)),
        ("BallPhysics", BallPhysics, dict(mu_slide=0.2, e_ball=0.95, ball_friction_c=1.088)),
        ("with_physics", POOL.with_physics, dict(impact_steps=10.0)),
        ("positions_at", RESULT.positions_at, dict(t=0.1)),
        ("sample", RESULT.sample, dict(dt=0.01)),
        ("ShotSampler", ShotSampler, dict(n=3, vary={"speed": (1.0, 2.0)},
                                          fixed={"x": 0.5, "angle": 1.5}, seed=0)),
        ("ShotGrid", ShotGrid, dict(axes={"speed": (1.0, 2.0, 2)},
                                    fixed={"x": 0.5, "angle": 1.5})),
        ("simulate_many", _simulate_many, dict(shots=SAMPLER, chunk_size=None, struck=None,
                                               max_events=20000, errors="raise")),
        ("save_plot", _save_plot, dict(path=f"{tmp}/shot.png", dpi=40)),
        ("save_gif", _save_gif, dict(path=f"{tmp}/shot.gif", fps=5, width=160)),
        ("ShotResult.save", RESULT.save, dict(path=f"{tmp}/shot.json")),
        ("ShotResult.load", ShotResult.load, dict(path=saved["shot"])),
        ("ShotResult.from_dict", ShotResult.from_dict, dict(data=RESULT.to_dict(exact=True))),
        ("Layout.save", SINGLES.save, dict(path=f"{tmp}/layout.json")),
        ("Layout.load", Layout.load, dict(path=saved["layout"])),
        ("Layout.from_dict", Layout.from_dict, dict(data=SINGLES.to_dict())),
        ("read_results", read_results, dict(path=saved["results"])),
        ("simulate_to_file", _simulate_to_file, dict(out=f"{tmp}/shots.npz", game=None)),
        ("adjudicate_file", adjudicate_file, dict(path=saved["scenario"])),
        ("load_session", load_session, dict(path=saved["game"])),
        ("NovusGame", NovusGame, dict(players=["A", "B"], doubles=False, sets=1, first=0)),
        ("NineBall", NineBall, dict(players=("A", "B"), breaker=None, race_to=1)),
        ("FivePinsGame", FivePinsGame, dict(players=("A", "B"), points_to=60, games=1,
                                            lag=False)),
        ("events_of", RESULT.events_of, dict(kind=EventKind.COLLIDE)),
        ("referee", referee, dict(game="9-ball", state=None)),
        ("NovusPhysics.calibrated", NovusPhysics.calibrated, dict(speed=2.0, distance=1.0,
                                                                  g=9.81)),
        ("soft_simulate", soft_simulate, dict(table=NOVUS, layout=SINGLES, t_max=0.01,
                                              initial={"striker": (0.0, 1.0, 0.0)},
                                              sample_dt=None, steps_per_contact=40,
                                              stiffness_scale=1.0, dt=None, bed_friction=True,
                                              spin_coupling=False, check=True)),
        ("simulate_pymunk", simulate_pymunk, dict(table=NOVUS, layout=SINGLES, shot=SHOT,
                                                  dt=1e-3, max_time=30.0)),
        ("run_motion_pymunk", run_motion_pymunk, dict(table=NOVUS, layout=SINGLES, dt=1e-3,
                                                      initial={"striker": (0.0, 1.0, 0.0)},
                                                      max_time=30.0)),
        ("run_motion", run_motion, dict(table=NOVUS, layout=SINGLES, max_events=100,
                                        initial={"striker": (0.0, 2.0, 0.0)}, struck=None)),
    ]


def _simulate_to_file(**kwargs: Any) -> None:
    simulate_to_file(NOVUS, SINGLES, SAMPLER, threads=1, overwrite=True, **kwargs)


def _simulate_many(**kwargs: Any) -> None:
    simulate_many(NOVUS, SINGLES, threads=1, **kwargs)


def _save_plot(**kwargs: Any) -> None:
    from cuesim.plot import save_plot

    save_plot(RESULT, **kwargs)


def _save_gif(**kwargs: Any) -> None:
    from cuesim.viewer.export import save_gif

    save_gif(RESULT, NOVUS, **kwargs)


def _odd_calls(name: str, door: Callable[..., Any], good: dict[str, Any]) -> list[str]:
    """The calls of `door` with one argument odd that raise anything but a ValueError."""
    wrong = []
    for key in good:
        if key == "piece_id":  # a lookup: KeyError naming the ids (Layout.index)
            continue
        for value in ODD:
            try:
                door(**{**good, key: value})
            except ValueError:
                pass
            except Exception as exc:  # noqa: BLE001 - what the test looks for
                wrong.append(f"{name}({key}={value!r:.30}): {type(exc).__name__}: {exc}")
    return wrong


@pytest.mark.parametrize("index", range(46))
def test_a_door_given_an_odd_value_raises_its_own_error(index: int, tmp_path, saved,
                                                        monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # a path given as "x" is a file name: written here
    doors = _doors(str(tmp_path), saved)
    assert len(doors) == 46
    name, door, good = doors[index]
    door(**good)  # the good arguments work
    assert _odd_calls(name, door, good) == []


def test_the_environment_s_doors_raise_env_error() -> None:
    """CueEnv, make_vec, reward weights (a dict or a RewardWeights), reset and step with odd
    values: an EnvError (a ValueError)."""
    from cuesim.env import CueEnv, EnvError, RewardWeights, make_vec

    assert _odd_calls("CueEnv", CueEnv, dict(game="novus", impact_steps=None)) == []
    assert _odd_calls("make_vec", make_vec, dict(env_id="cuesim/novus-v0", num_envs=1)) == []
    weights = dict(point=1.0, foul=-1.0, win=10.0)
    assert _odd_calls("reward_weights", lambda **w: CueEnv("novus", reward_weights=w),
                      weights) == []
    with pytest.raises(EnvError, match=r"reward_weights.point must be a finite number"):
        CueEnv("novus", reward_weights=RewardWeights(point=10**400))
    env = CueEnv("novus")
    assert _odd_calls("reset", env.reset, dict(seed=None, options=None)) == []
    env.reset(seed=1)
    with pytest.raises(EnvError, match="action must be"):
        env.step(np.array([10**400, 0.0, 0.0, 0.0, 0.0], dtype=object))
    for bad in ([1], -1, 1.5, True):
        with pytest.raises(EnvError, match="reset seed must be None or a whole number"):
            env.reset(seed=bad)
    with pytest.raises(EnvError, match="reset options must be a dict"):
        env.reset(options=math.nan)


def test_without_refuses_a_bare_string() -> None:
    """`without("red1")` took the string as the set of its letters and dropped nothing."""
    from cuesim.tables.layout import LayoutError

    with pytest.raises(LayoutError, match=r"as a list \(\['red1'\]\)"):
        SINGLES.without("red1")
    assert "red1" not in SINGLES.without(["red1"]).ids()
    assert "red1" not in SINGLES.without(p for p in ("red1",)).ids()


@pytest.mark.parametrize("count", ["0", "-3", "9" * 23])
def test_shoot_max_events_beyond_the_loop_s_counter_is_one_line(capsys, count: str) -> None:
    """`--max-events` past a signed 64-bit count was an OverflowError in the compiled loop."""
    from tests.test_doors import _error

    err = _error(capsys, ["shoot", "novus", "--speed", "3", "--max-events", count])
    assert r"--max-events must be a whole number in [1, 2**63 - 1]" in err


def test_the_batch_samplers_ranges_and_fixed_values_refuse_huge_integers() -> None:
    """An end of a `vary` range, of a grid axis or a fixed value past a float's range was an
    OverflowError; each is the BatchError that names it."""
    from cuesim.batch import BatchError

    with pytest.raises(BatchError, match="range of 'speed' must be finite, got an integer"):
        ShotSampler(2, {"speed": (10**400, 2.0)})
    with pytest.raises(BatchError, match="grid axis 'speed' must have finite ends"):
        ShotGrid({"speed": (1.0, 10**400, 2)})
    with pytest.raises(BatchError, match="fixed value of 'x' must be a finite number"):
        ShotSampler(2, {"speed": (1.0, 2.0)}, {"x": 10**400, "angle": 1.5})
    with pytest.raises(BatchError, match="fixed value of 'x' must be a finite number"):
        ShotGrid({"speed": (1.0, 2.0, 2)}, {"x": 10**400, "angle": 1.5})


def test_the_references_take_initial_motions_as_run_motion_does() -> None:
    """A motion given as a numpy array, a list or a tuple of numbers is taken by the soft
    reference and the pymunk backend as by run_motion; a string or a bool among the numbers is
    refused."""
    from cuesim.sim.pymunk_backend import run_motion_pymunk
    from cuesim.sim.soft import soft_simulate

    for run in (run_motion, soft_simulate, run_motion_pymunk):
        for motion in (np.array([0.0, 0.5, 0.0]), [0, 0.5, 0], (0.0, 0.5, 0.0)):
            run(NOVUS, SINGLES, {"striker": motion})
        for bad in ("abc", [True, 0.5, 0.0]):
            with pytest.raises(ValueError, match="striker"):
                run(NOVUS, SINGLES, {"striker": bad})


def test_a_grid_of_1e400_shots_is_refused_in_one_short_line() -> None:
    """TooManyShots printed a count of 10**400 with all its 401 digits and separators."""
    from cuesim.batch.limits import TooManyShots

    with pytest.raises(TooManyShots, match=r"^grid: ~1e400 shots are more than shot numbers"):
        simulate_many(NOVUS, SINGLES, ShotGrid({"speed": (1.0, 2.0, 10**400)},
                                               {"x": 0.5, "angle": 1.5}))
