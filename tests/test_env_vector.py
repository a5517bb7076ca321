"""cuesim.env.vector: CueVecEnv, Gymnasium's vector API over many CueEnvs whose physics runs
in one compiled call per round, gives exactly what a SyncVectorEnv of the same environments
and seeds gives (observations, rewards, terminations, truncations, infos), in every autoreset
mode, and refuses bad arguments."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode

import cuesim.env.vector as vector
from cuesim.env import ENV_IDS, CueVecEnv, EnvError, make_vec

SHORT = {"points_to": 3}


def _kwargs(env_id: str, **kw):
    kw.setdefault("level", 3)
    kw.setdefault("max_shots", 60)
    if ENV_IDS[env_id] in ("14.1", "5-pins"):
        kw.setdefault("options", SHORT)
    return kw


def _pair(env_id: str, n: int, mode=AutoresetMode.NEXT_STEP, **kw):
    kw = _kwargs(env_id, **kw)
    ours = gymnasium.make_vec(env_id, num_envs=n, autoreset_mode=mode, **kw)
    sync = gymnasium.make_vec(env_id, num_envs=n, vectorization_mode="sync",
                              vector_kwargs={"autoreset_mode": mode}, **kw)
    return ours, sync


def _lockstep(ours, sync, seed: int, steps: int) -> int:
    """Step both with the same actions; every result equal. Returns the episodes ended."""
    assert data_equivalence(ours.reset(seed=seed), sync.reset(seed=seed))
    ours.action_space.seed(seed)
    ended = 0
    for _ in range(steps):
        actions = ours.action_space.sample()
        a, b = ours.step(actions), sync.step(actions)
        assert data_equivalence(a, b, exact=True)
        ended += int(np.sum(a[2] | a[3]))
    return ended


@pytest.mark.parametrize("env_id", ["cuesim/Novus-v0", "cuesim/EightBallFlat-v0",
                                    "cuesim/NineBall-v0", "cuesim/StraightPool-v0",
                                    "cuesim/FivePinsFlat-v0"])
def test_a_vector_of_each_game_equals_the_sync_vector(env_id):
    ours, sync = _pair(env_id, 3)
    assert isinstance(ours, CueVecEnv)
    assert ours.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert ours.observation_space == sync.observation_space
    assert ours.action_space == sync.action_space
    _lockstep(ours, sync, seed=4, steps=4)


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_autoreset_modes_equal_the_sync_vector(mode):
    # self-play: a step is one shot, so the 3-shot limit truncates every episode in 3 steps
    ours, sync = _pair("cuesim/NineBall-v0", 2, mode, opponent="self", max_shots=3)
    if mode == AutoresetMode.DISABLED:
        assert _lockstep(ours, sync, seed=1, steps=3) == 2
        with pytest.raises(EnvError, match="autoreset_mode is disabled"):
            ours.step(ours.action_space.sample())
        mask = np.array([True, False])
        assert data_equivalence(ours.reset(seed=5, options={"reset_mask": mask}),
                                sync.reset(seed=5, options={"reset_mask": mask.copy()}))
        return
    assert _lockstep(ours, sync, seed=1, steps=7) >= 4  # two episodes each, and autoresets


def test_the_physics_of_all_environments_runs_in_one_call(monkeypatch):
    sizes = []
    real = vector.run_inputs

    def counted(inputs):
        sizes.append(len(inputs))
        return real(inputs)

    monkeypatch.setattr(vector, "run_inputs", counted)
    envs = make_vec("cuesim/NovusFlat-v0", 5, opponent="self")
    envs.reset(seed=0)
    envs.step(envs.action_space.sample())
    assert sizes == [5]  # the five agents' shots: one round, one call
    sizes.clear()
    envs = make_vec("cuesim/EightBall-v0", 4, level=6, agent_first=False)
    envs.reset(seed=0)  # the computer breaks in every environment: the four strokes at once
    assert sizes[0] == 4
    envs.step(envs.action_space.sample())
    assert max(sizes) > 4  # a round of the computer's search, several environments at once


@pytest.mark.parametrize("game", ["9-ball", "novus"])
def test_every_simulation_of_the_computer_comes_from_the_compiled_calls(monkeypatch, game):
    """Issue 16: the computer's search announces each round of its simulations (its
    candidates, its finalists' perturbed trials, its stroke) before running it
    (`ai.choose_shot_steps`), so the vector env simulates them all in its compiled calls and
    no environment simulates a shot alone (the env once announced candidates drawn with
    another generator than the search's: 85-94 % of its shots were simulated twice)."""
    from cuesim.viewer.session import Session

    alone = []
    real = Session.simulate

    def counted(self, action):
        alone.append(action)
        return real(self, action)

    monkeypatch.setattr(Session, "simulate", counted)
    envs = CueVecEnv(3, game, opponent="computer", level=6)
    envs.action_space.seed(2)
    envs.reset(seed=2)
    for _ in range(3):
        envs.step(envs.action_space.sample())
    assert alone == []


def test_seeded_vectors_are_reproducible():
    runs = []
    for _ in range(2):
        envs = make_vec("cuesim/FivePins-v0", 2, level=2, options=SHORT)
        envs.action_space.seed(9)
        out = [envs.reset(seed=9)]
        out += [envs.step(envs.action_space.sample()) for _ in range(3)]
        runs.append(out)
    assert data_equivalence(runs[0], runs[1], exact=True)


def test_bad_vector_arguments_are_refused():
    with pytest.raises(EnvError, match="num_envs"):
        CueVecEnv(0, "9-ball")
    with pytest.raises(EnvError, match="autoreset_mode"):
        CueVecEnv(2, "9-ball", autoreset_mode="sometimes")
    with pytest.raises(EnvError, match="unknown environment"):
        make_vec("cuesim/Snooker-v0", 2)
    with pytest.raises(EnvError, match="game must be"):
        CueVecEnv(2, "snooker")
    envs = make_vec("cuesim/NineBall-v0", 2, level=2)
    with pytest.raises(ValueError, match="num_envs=2"):
        envs.reset(seed=[1, 2, 3])


@pytest.mark.parametrize("actions", [np.zeros((3, 6), np.float32), np.zeros((1, 6), np.float32),
                                     np.zeros((2, 5), np.float32), np.zeros(6, np.float32),
                                     [[0.0] * 6, [0.0] * 5], None, "x"])
def test_actions_not_one_row_per_environment_are_refused_before_any_steps(actions):
    """A vector's step takes the action space's (num_envs, size) array: three rows for two
    environments stepped two and ran into a KeyError, one row stepped one; now EnvError,
    and nothing has moved (the next good step is the one a fresh vector takes)."""
    runs = []
    for bad in (False, True):
        envs = make_vec("cuesim/NineBall-v0", 2, level=2)
        envs.action_space.seed(4)
        envs.reset(seed=4)
        if bad:
            with pytest.raises(EnvError, match=r"actions must be an array of shape \(2, 6\)"):
                envs.step(actions)
        runs.append(envs.step(envs.action_space.sample()))
    assert data_equivalence(runs[0], runs[1], exact=True)
