"""More of the environments' and the batch grid's doors (an audit of their inputs): a numpy
integer seed is a seed in CueEnv and CueVecEnv alike; the vector env's reset and step refuse
what does not fit with EnvError naming it, before any environment resets or steps; bools are
no action; a ShotGrid's (and a ShotSampler's) fixed values are checked when it is made, as
`simulate_many` checks them."""

from __future__ import annotations

import math

import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence

import cuesim
from cuesim.api import game_table
from cuesim.batch import BatchError, ShotGrid, ShotSampler, simulate_many
from cuesim.env import CueEnv, EnvError, make_vec

VEC_ID = "cuesim/NineBallFlat-v0"


def _env(**kw) -> CueEnv:
    return CueEnv("9-ball", opponent="self", level=2, **kw)


def _vec(n: int = 2, **kw):
    return make_vec(VEC_ID, n, level=2, opponent="self", **kw)


# -- 1. seeds of numpy's integer types ---------------------------------------------------------
@pytest.mark.parametrize("seed", [np.int64(3), np.int32(3), np.uint8(3)])
def test_a_numpy_integer_seed_is_the_seed_of_that_number(seed) -> None:
    """CueEnv.reset(seed=np.int64(3)) passed cuesim's check, then Gymnasium's 'Seed must be a
    python integer' (gymnasium.error.Error); the vector env took it. Both now play seed 3."""
    assert data_equivalence(_env().reset(seed=seed), _env().reset(seed=3))
    assert data_equivalence(_vec().reset(seed=seed), _vec().reset(seed=3))
    assert data_equivalence(_vec().reset(seed=[seed, np.int64(4)]), _vec().reset(seed=[3, 4]))
    assert data_equivalence(_vec().reset(seed=np.array([3, 4])), _vec().reset(seed=[3, 4]))


def test_numpy_numbers_are_taken_for_the_envs_other_arguments() -> None:
    """Every integer argument takes numpy's integers (level, max_shots, the match options,
    num_envs) and end_mass numpy's floats: np.float32(0.003) was refused as 'a mass in
    [0, 0.54] kg'."""
    env = CueEnv("9-ball", opponent="self", level=np.int64(2), max_shots=np.int32(5),
                 options={"race_to": np.int64(2)}, end_mass=np.float32(0.003),
                 impact_steps=np.int64(10))
    assert (env.level, env.max_shots) == (2, 5)
    assert type(env.level) is int and type(env.session_options["race_to"]) is int
    assert env.session_options["end_mass"] == pytest.approx(0.003)
    env.reset(seed=np.int64(1))
    env.step(np.zeros(6, np.float32))
    assert make_vec(VEC_ID, np.int64(2), level=2, opponent="self").num_envs == 2


@pytest.mark.parametrize("seed, match", [
    (1.5, "reset seed must be None, a whole number >= 0 or a list"),
    ("ab", "reset seed must be None, a whole number >= 0 or a list"),
    (np.array(3), "reset seed must be None, a whole number >= 0 or a list"),
    (-1, "reset seed must be None or a whole number >= 0"),
    ([1, 2, 3], "num_envs=2 but got length=3"),
    ([1, -1], r"reset seed\[1\] must be None or a whole number >= 0"),
    ([None, True], r"reset seed\[1\]"),
    (np.array([1.0, 2.0]), r"reset seed\[0\]"),
])
def test_a_vectors_seed_that_does_not_fit_is_an_env_error(seed, match) -> None:
    """A float seed was a TypeError (list(1.5)); a list of the wrong length a plain
    ValueError; a bad item of a list EnvError only once the environments before it had
    reset."""
    envs = _vec()
    with pytest.raises(EnvError, match=match):
        envs.reset(seed=seed)


# -- 2. the vector env's reset options and actions ---------------------------------------------
@pytest.mark.parametrize("mask, got", [
    ([True], r"one of shape \(1,\)"), (np.array([True]), r"one of shape \(1,\)"),
    (np.array([1, 0]), "one of dtype int64"), (np.array([False, False]), "all False"),
    (None, "no bools"), ([[True], [False, True]], "ragged"), ("yes", "one of dtype <U3"),
])
def test_a_reset_mask_that_does_not_fit_is_an_env_error_naming_it(mask, got) -> None:
    """options={'reset_mask': [True]} for two environments was a plain ValueError."""
    envs = _vec()
    envs.reset(seed=0)
    with pytest.raises(EnvError, match=r"reset options: reset_mask must be a bool array of "
                                       r"shape \(2,\) \(one per environment\) with a True "
                                       rf"value, got {got}"):
        envs.reset(seed=0, options={"reset_mask": mask})


def test_a_reset_mask_of_bools_in_a_list_is_taken_as_the_array() -> None:
    ours, other = _vec(), _vec()
    ours.reset(seed=1)
    other.reset(seed=1)
    assert data_equivalence(ours.reset(seed=5, options={"reset_mask": [False, True]}),
                            other.reset(seed=5, options={"reset_mask": np.array([False, True])}))


@pytest.mark.parametrize("options", ["x", [], 3, ("physics", {})])
def test_a_vectors_reset_options_not_a_dict_are_an_env_error(options) -> None:
    """A string or a list of options was an AttributeError ('str' has no 'get')."""
    with pytest.raises(EnvError, match="reset options must be a dict or None"):
        _vec().reset(seed=0, options=options)


def test_a_bad_physics_entry_names_its_environment_and_resets_none() -> None:
    """A list of physics whose second entry is out of range reset the first environment
    before it was refused; now nothing resets and the message names environment 1."""
    envs = _vec()
    envs.reset(seed=5)
    sessions = [env.session for env in envs.envs]
    with pytest.raises(EnvError, match=r"environment 1: reset options: physics: .*mu_slide"):
        envs.reset(seed=9, options={"physics": [{"mu_slide": 0.2}, {"mu_slide": -1.0}]})
    assert all(env.session is s for env, s in zip(envs.envs, sessions, strict=True))


def test_a_bad_reset_option_leaves_the_environments_random_state_alone() -> None:
    """CueEnv reseeded before it checked its options: a refused reset(seed=9, options=bad)
    left the environment on seed 9's stream. Now it changes nothing."""
    env, fresh = _env(), _env()
    with pytest.raises(EnvError, match="agent_first"):
        env.reset(seed=9, options={"agent_first": 1})
    assert env._np_random is None and fresh._np_random is None


# -- 3. bools are no action --------------------------------------------------------------------
@pytest.mark.parametrize("action", [[True] * 6, np.ones(6, dtype=bool), [True] + [0.0] * 5,
                                    [np.bool_(False)] + [0.5] * 5])
def test_bools_are_no_action(action) -> None:
    """CueEnv.step([True] * 6) played True as 1.0 (the README: an action that is 'not numbers'
    raises EnvError)."""
    env = _env()
    env.reset(seed=0)
    with pytest.raises(EnvError, match=r"action must be 6 numbers in \[-1, 1\], not bools"):
        env.step(action)
    env.step(np.zeros(6, np.int64))  # integers are numbers


def test_bools_an_opponent_policy_returns_are_no_action() -> None:
    env = CueEnv("9-ball", opponent=lambda obs: [True] * 6, level=2, agent_first=True)
    env.reset(seed=0)
    with pytest.raises(EnvError, match="not bools"):
        for _ in range(10):  # the agent's shots until the opponent's turn
            env.step(np.array([0, 1, 0, 0, 0, 0], np.float32))


@pytest.mark.parametrize("actions, match", [
    (np.ones((2, 6), dtype=bool), "not bools"),
    ([[0.0] * 6, [True] * 6], "not bools"),
    ([np.zeros(6), np.ones(6, dtype=bool)], "not bools"),
    ([[0.0] * 6, [0.0] * 5 + [math.nan]], r"actions\[1\] must be finite"),
    (np.zeros((2, 6), dtype=complex), r"actions must be rows of 6 numbers in \[-1, 1\]"),
])
def test_a_vectors_actions_that_are_no_numbers_are_refused_before_any_steps(actions, match):
    """Bool rows were played as numbers; a bad second row was refused only once the first
    environment's step had begun."""
    envs = _vec()
    envs.reset(seed=0)
    sessions = [(env.session, len(env.session.actions)) for env in envs.envs]
    with pytest.raises(EnvError, match=match):
        envs.step(actions)
    assert [(env.session, len(env.session.actions)) for env in envs.envs] == sessions


# -- 4. a grid's fixed values, checked when it is made ----------------------------------------
@pytest.mark.parametrize("value, shown", [("x", "'x'"), (math.nan, "nan"), (True, "True"),
                                          (None, "None"), (math.inf, "inf"),
                                          (10**400, "an integer of 401 digits")],
                         ids=["text", "nan", "bool", "None", "inf", "10**400"])
@pytest.mark.parametrize("make", [
    lambda fixed: ShotGrid({"speed": (2, 8, 3)}, fixed=fixed),
    lambda fixed: ShotSampler(3, {"speed": (2, 8)}, fixed=fixed),
], ids=["grid", "sampler"])
def test_a_fixed_value_that_is_no_number_is_refused_when_the_grid_is_made(make, value, shown):
    """ShotGrid({"speed": (2, 8, 3)}, fixed={"angle": "x"}) (or NaN) was made, and refused
    only by simulate_many; the same message now comes when it is made."""
    with pytest.raises(BatchError, match=rf"fixed value of 'angle' must be a finite number, "
                                         rf"got {shown}"):
        make({"angle": value})


def test_a_fixed_nan_where_it_means_the_default_is_still_the_games_to_judge() -> None:
    """NaN is 'the default' for y (and a ball's x): a grid is made with it, and the batch's
    game decides, as before (a novus x must be a number)."""
    grid = ShotGrid({"speed": (2.0, 3.0, 2)}, fixed={"angle": math.pi / 2, "x": math.nan})
    table = cuesim.novus_table()
    with pytest.raises(BatchError, match="fixed value of 'x' must be a finite number, got nan"):
        simulate_many(table, cuesim.start_layout("novus", table), grid, threads=1)
    pool = game_table("9-ball")
    res = simulate_many(pool, cuesim.start_layout("9-ball", pool), grid, threads=1)
    assert len(res) == 2
