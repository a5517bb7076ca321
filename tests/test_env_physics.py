"""cuesim.env `physics=`: any coefficient of the game's physics for every episode, and
`reset(options={"physics": ...})` for one (domain randomisation), in one environment and in a
vector of them (a list gives each its own); bad ones are EnvErrors naming them."""

from __future__ import annotations

import os

import numpy as np
import pytest

from cuesim.env import CueEnv, EnvError, make_vec

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def _steps(env: CueEnv, seed: int, n: int = 2) -> list[np.ndarray]:
    obs, _ = env.reset(seed=seed)
    env.action_space.seed(seed)
    out = [obs]
    for _ in range(n):
        obs, _, done, truncated, _ = env.step(env.action_space.sample())
        out.append(obs)
        if done or truncated:
            break
    return out


def test_physics_reach_every_shot_of_every_episode() -> None:
    env = CueEnv("9-ball", physics={"mu_slide": 0.25, "e_cushion": 0.7}, level=2,
                 agent_first=True, flatten=True)
    slow = _steps(env, 5)
    assert (env.session.table.physics.mu_slide, env.session.table.physics.e_cushion) == (0.25, 0.7)
    again = _steps(CueEnv("9-ball", physics={"mu_slide": 0.25, "e_cushion": 0.7}, level=2,
                          agent_first=True, flatten=True), 5)
    plain = _steps(CueEnv("9-ball", level=2, agent_first=True, flatten=True), 5)
    assert all(np.array_equal(a, b) for a, b in zip(slow, again, strict=True))
    assert not np.array_equal(slow[1], plain[1])  # the same first shot, on other physics


def test_a_reset_option_sets_one_episodes_physics_over_the_envs() -> None:
    env = CueEnv("novus", physics={"mu_puck": 0.2}, level=2)
    env.reset(seed=1, options={"physics": {"e_rail": 0.5}})
    p = env.session.table.physics
    assert (p.mu_puck, p.e_rail) == (0.2, 0.5)
    env.reset(seed=1)  # the next episode: the env's own again
    p = env.session.table.physics
    assert (p.mu_puck, p.e_rail) == (0.2, 0.6)
    env.reset(seed=1, options={"physics": {"mu_puck": 0.1}})  # an episode's value wins
    assert env.session.table.physics.mu_puck == 0.1


def test_impact_steps_joins_the_physics() -> None:
    env = CueEnv("9-ball", impact_steps=10, physics={"e_ball": 0.9}, level=2)
    env.reset(seed=0)
    assert (env.session.table.physics.impact_steps, env.session.table.physics.e_ball) == (
        10.0, 0.9)


def test_a_vector_gives_each_environment_its_own_physics() -> None:
    envs = make_vec("cuesim/NineBallFlat-v0", 3, level=2, physics={"mu_roll": 0.02})
    cloths = [{"mu_slide": 0.15}, {"mu_slide": 0.2}, {"mu_slide": 0.3}]
    envs.reset(seed=2, options={"physics": cloths})
    assert [e.session.table.physics.mu_slide for e in envs.envs] == [0.15, 0.2, 0.3]
    assert {e.session.table.physics.mu_roll for e in envs.envs} == {0.02}
    envs.step(np.zeros(envs.action_space.shape, dtype=np.float32))
    envs.reset(seed=2, options={"physics": {"mu_slide": 0.35}})  # one dict: every env
    assert [e.session.table.physics.mu_slide for e in envs.envs] == [0.35] * 3
    with pytest.raises(EnvError, match=r"physics as a list gives one dict per environment: 3, "
                                       r"got 2"):
        envs.reset(seed=2, options={"physics": cloths[:2]})
    envs.close()


@pytest.mark.parametrize("kwargs, match", [
    ({"physics": [0.2]}, r"^physics must be a dict of the physics' coefficients by name"),
    ({"physics": {"mu": 0.2}}, r"^physics: BallPhysics has no coefficient 'mu'; its "
                               r"coefficients are mu_slide, "),
    ({"physics": {"mu_slide": -1.0}}, r"^physics: BallPhysics\.mu_slide must be a real number"),
    ({"physics": {"mu_slide": "fast"}}, r"^physics: BallPhysics\.mu_slide must be a real "),
    ({"physics": {"impact_steps": 10}, "impact_steps": 10},
     r"^impact_steps is given twice: as an argument and in physics"),
    ({"physics": {"e_ball": 0.9}, "impact_steps": 1},
     r"^impact_steps: BallPhysics\.impact_steps must be a real number"),
    ({"game": "novus", "physics": {"mu_slide": 0.2}},
     r"^physics: NovusPhysics has no coefficient 'mu_slide'; its coefficients are mu_puck, "),
])
def test_bad_physics_are_env_errors(kwargs, match: str) -> None:
    kwargs = {"game": "9-ball", **kwargs}
    with pytest.raises(EnvError, match=match):
        CueEnv(**kwargs)


@pytest.mark.parametrize("physics, match", [
    ({"e_cushion": 2.0}, r"^reset options: physics: BallPhysics\.e_cushion must be a real "),
    ({"spin": 1.0}, r"^reset options: physics: BallPhysics has no coefficient 'spin'"),
    ("fast", r"^reset options: physics must be a dict"),
])
def test_bad_episode_physics_are_env_errors(physics, match: str) -> None:
    env = CueEnv("9-ball", level=2)
    with pytest.raises(EnvError, match=match):
        env.reset(seed=0, options={"physics": physics})
