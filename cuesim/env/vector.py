"""`CueVecEnv`: many `CueEnv`s stepped together, their physics in one compiled call.

A `gymnasium.vector.VectorEnv` (Gymnasium 1.x API: batched spaces, `autoreset_mode`
NEXT_STEP by default, SAME_STEP and DISABLED as `SyncVectorEnv` has them, infos merged with
`_key` masks). Each environment's `step` runs as its generator (`CueEnv.step_steps`), which
yields the shot actions it is about to simulate: the agent's shot, and for a computer opponent
each round of the shots its search will simulate (`ai.choose_shot_steps`). The vector env
gathers what every environment yields, builds their inputs, simulates them all in one compiled
kernel on several threads at once (numba's thread count;
`cuesim.sim.batch_parallel.run_inputs`), hands each environment its results and resumes them;
then the referees rule in Python, environment by environment. Rounds repeat while an
environment has more to simulate (the opponent's next turn). Every result is the one `simulate`
would give, so observations, rewards and infos equal those of a `SyncVectorEnv` of the same
environments and seeds (tests/test_env_vector.py).

>>> import gymnasium, cuesim.env                                         # doctest: +SKIP
>>> envs = gymnasium.make_vec("cuesim/NineBall-v0", num_envs=64, level=8)  # doctest: +SKIP

`gymnasium.make_vec` builds a CueVecEnv for every cuesim id (its `vector_entry_point`);
`vectorization_mode="sync"` gives Gymnasium's SyncVectorEnv of the same environments.
A callable opponent is called once per environment as in the SyncVectorEnv, but in rounds
across the environments rather than one environment after the other.
"""

from __future__ import annotations

import numbers
from collections.abc import Generator
from copy import deepcopy
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array

from cuesim.api import simulate_input
from cuesim.env.core import CueEnv, EnvError, check_actions, check_seed
from cuesim.shot import CueShot, ShotError
from cuesim.sim.batch_parallel import run_inputs
from cuesim.sim.engine import MotionInput, SimulationError, motion_input
from cuesim.tables.layout import LayoutError

MAX_ENVS = 65_536


def shot_input(session: Any, action: dict[str, Any]) -> MotionInput:
    """The physics input of a shot action on a session as it is: what `Session.simulate`
    would run, with its errors (a refused placement: ShotError)."""
    if session.placement() is not None:
        reason = session.check_place(action["x"], action["y"])
        if reason:
            raise ShotError(reason)
    shot = session._shot(action)
    layout = session._shot_layout(action)
    if isinstance(shot, CueShot):  # as Session.simulate: the others lie where they rest
        return motion_input(session.table, layout, {shot.ball: shot.ball_motion(session.table)},
                            struck=shot.ball, shot=shot, check=False)
    return simulate_input(session.table, layout, shot)


class CueVecEnv(VectorEnv):
    """`num_envs` CueEnvs of one game, stepped together; every other keyword argument is
    CueEnv's (game, opponent, level, reward, ...). `autoreset_mode`: an AutoresetMode or
    its value, 'NextStep' (default), 'SameStep' or 'Disabled'; `copy`: return copies of the
    observations (as SyncVectorEnv)."""

    def __init__(self, num_envs: int = 1, game: str = "9-ball", *,
                 autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
                 copy: bool = True, **kwargs: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, numbers.Integral) \
                or not 1 <= num_envs <= MAX_ENVS:
            raise EnvError(f"num_envs must be a whole number in 1..{MAX_ENVS}, got {num_envs!r}")
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            raise EnvError(f"autoreset_mode must be one of "
                           f"{', '.join(m.value for m in AutoresetMode)}, got "
                           f"{autoreset_mode!r}") from None
        self.envs = [CueEnv(game, **kwargs) for _ in range(int(num_envs))]
        self.num_envs = int(num_envs)
        self.copy = bool(copy)
        self.autoreset_mode = mode
        self.metadata = dict(CueEnv.metadata)
        self.metadata["autoreset_mode"] = mode
        self.render_mode = self.envs[0].render_mode
        self.single_observation_space = self.envs[0].observation_space
        self.single_action_space = self.envs[0].action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._observations = create_empty_array(self.single_observation_space, self.num_envs)
        self._env_obs: list[Any] = [None] * self.num_envs
        self._rewards = np.zeros(self.num_envs, dtype=np.float64)
        self._terminations = np.zeros(self.num_envs, dtype=np.bool_)
        self._truncations = np.zeros(self.num_envs, dtype=np.bool_)
        self._autoreset_envs = np.zeros(self.num_envs, dtype=np.bool_)

    # -- the batched physics ---------------------------------------------------------------
    def _run(self, steps: dict[int, Generator[Any, None, Any]]) -> dict[int, Any]:
        """Drive every environment's generator to its end, simulating in each round all the
        shots they yielded in one compiled call; returns what each returned."""
        done: dict[int, Any] = {}
        wanted: dict[int, list[dict[str, Any]]] = {}

        def advance(i: int) -> None:
            try:
                wanted[i] = next(steps[i])
            except StopIteration as stop:
                done[i] = stop.value

        for i in steps:
            advance(i)
        while wanted:
            self._prefetch(wanted)
            now, wanted = wanted, {}
            for i in now:
                advance(i)
        return done

    def _prefetch(self, wanted: dict[int, list[dict[str, Any]]]) -> None:
        owners: list[tuple[int, dict[str, Any]]] = []
        inputs: list[MotionInput] = []
        for i, actions in wanted.items():
            session = self.envs[i].session
            for action in actions:
                try:
                    inp = shot_input(session, action)
                except (ShotError, SimulationError, LayoutError, ValueError):
                    continue  # the environment meets the same error when it simulates it
                owners.append((i, action))
                inputs.append(inp)
        groups: dict[int, list[int]] = {}
        for k, inp in enumerate(inputs):  # one compiled call per table (one in a game)
            groups.setdefault(id(inp.arr), []).append(k)
        for ks in groups.values():
            for k, result in zip(ks, run_inputs([inputs[k] for k in ks]), strict=True):
                i, action = owners[k]
                self.envs[i].prefetch(action, result)

    # -- the Gymnasium vector API -------------------------------------------------------------
    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Reset every environment (seed: None, an int s giving s, s+1, ..., or a list; options
        may hold `reset_mask`, a bool array of the environments to reset, as SyncVectorEnv, and
        `physics`, one dict for every environment or a list of one per environment: the
        episode's coefficients, `CueEnv.reset`'s option)."""
        if seed is None:
            seeds: list[Any] = [None] * self.num_envs
        elif isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
            first = check_seed(seed, "reset seed")
            assert first is not None
            seeds = [first + i for i in range(self.num_envs)]
        else:
            if not (isinstance(seed, list | tuple)
                    or isinstance(seed, np.ndarray) and seed.ndim == 1):
                raise EnvError(f"reset seed must be None, a whole number >= 0 or a list of "
                               f"num_envs={self.num_envs} of them, got {seed!r:.80}")
            if len(seed) != self.num_envs:
                raise EnvError(f"reset seed: if seeds are passed as a list the length must "
                               f"match num_envs={self.num_envs} but got length={len(seed)}")
            seeds = [check_seed(s, f"reset seed[{i}]") for i, s in enumerate(seed)]
        if options is not None and not isinstance(options, dict):
            raise EnvError(f"reset options must be a dict or None, got {options!r:.80}")
        mask = np.ones(self.num_envs, dtype=np.bool_)
        if options is not None and "reset_mask" in options:
            options = dict(options)
            mask = _reset_mask(options.pop("reset_mask"), self.num_envs)
        each = _options_per_env(options, self.num_envs)
        # each environment's seed and options are checked here, before any resets
        steps: dict[int, Generator[Any, None, Any]] = {}
        for i in range(self.num_envs):
            if mask[i]:
                try:
                    steps[i] = self.envs[i].reset_steps(seed=seeds[i], options=each[i])
                except EnvError as exc:  # a physics list's entry: name the environment
                    if each[i] is options:
                        raise
                    raise EnvError(f"environment {i}: {exc}") from None
        self._terminations[mask] = False
        self._truncations[mask] = False
        self._autoreset_envs[mask] = False
        out = self._run(steps)
        infos: dict[str, Any] = {}
        for i in sorted(out):
            self._env_obs[i], info = out[i]
            infos = self._add_info(infos, info, i)
        self._observations = concatenate(self.single_observation_space, self._env_obs,
                                         self._observations)
        return (deepcopy(self._observations) if self.copy else self._observations), infos

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """One step of every environment (autoreset as `autoreset_mode` says). `actions`: one
        row per environment, the action space's shape (num_envs, action size); EnvError for
        any other, before any environment steps."""
        try:  # any array-like (a list of rows, a framework's tensor): its shape
            shape = None if isinstance(actions, str | bytes) else tuple(np.shape(actions))
        except (ValueError, TypeError):  # ragged rows
            shape = None
        if shape != self.action_space.shape:
            got = f"shape {shape}" if shape is not None else f"{actions!r:.80}"
            raise EnvError(f"actions must be an array of shape {self.action_space.shape} (one "
                           f"action per environment, num_envs={self.num_envs}), got {got}")
        # numbers, finite (not bools): every row checked before any environment steps
        rows = check_actions(actions, self.action_space.shape, "actions")
        steps: dict[int, Generator[Any, None, Any]] = {}
        resetting: set[int] = set()
        for i, action in enumerate(rows):
            if self.autoreset_mode == AutoresetMode.NEXT_STEP and self._autoreset_envs[i]:
                steps[i] = self.envs[i].reset_steps()
                resetting.add(i)
            else:
                if self.autoreset_mode == AutoresetMode.DISABLED and self._autoreset_envs[i]:
                    raise EnvError(f"environment {i} is over and autoreset_mode is disabled: "
                                   "reset it (options={'reset_mask': ...}) first")
                steps[i] = self.envs[i].step_steps(action)
        out = self._run(steps)
        finals: dict[int, tuple[Any, dict[str, Any]]] = {}
        for i in range(self.num_envs):
            if i in resetting:
                self._env_obs[i], _ = out[i]
                self._rewards[i] = 0.0
                self._terminations[i] = self._truncations[i] = False
            else:
                (self._env_obs[i], self._rewards[i], self._terminations[i],
                 self._truncations[i], _) = out[i]
                if self.autoreset_mode == AutoresetMode.SAME_STEP and (
                        self._terminations[i] or self._truncations[i]):
                    finals[i] = (self._env_obs[i], out[i][4])
        again = self._run({i: self.envs[i].reset_steps() for i in finals}) if finals else {}
        infos: dict[str, Any] = {}
        for i in range(self.num_envs):
            info = out[i][1] if i in resetting else out[i][4]
            if i in finals:
                infos = self._add_info(infos, {"final_obs": finals[i][0],
                                               "final_info": finals[i][1]}, i)
                self._env_obs[i], info = again[i]
            infos = self._add_info(infos, info, i)
        self._observations = concatenate(self.single_observation_space, self._env_obs,
                                         self._observations)
        self._autoreset_envs = np.logical_or(self._terminations, self._truncations)
        return ((deepcopy(self._observations) if self.copy else self._observations),
                np.copy(self._rewards), np.copy(self._terminations),
                np.copy(self._truncations), infos)

    def render(self) -> tuple[Any, ...]:
        """Every environment's frame (see CueEnv.render)."""
        return tuple(env.render() for env in self.envs)

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()


def _reset_mask(mask: Any, n: int) -> np.ndarray:
    """options['reset_mask']: n bools (an array, as SyncVectorEnv takes it, or a list), at
    least one True."""
    problem = ""
    try:
        arr = np.asarray(mask)
    except (TypeError, ValueError):  # ragged
        arr, problem = None, "ragged rows"
    if arr is not None:
        if arr.dtype != np.bool_:
            problem = f"one of dtype {arr.dtype}" if arr.dtype.kind != "O" else "no bools"
        elif arr.shape != (n,):
            problem = f"one of shape {arr.shape}"
        elif not arr.any():
            problem = "all False (nothing to reset)"
    if problem:
        raise EnvError(f"reset options: reset_mask must be a bool array of shape ({n},) "
                       f"(one per environment) with a True value, got {problem}: {mask!r:.80}")
    assert arr is not None
    return arr


def _options_per_env(options: dict[str, Any] | None, n: int) -> list[dict[str, Any] | None]:
    """Each environment's reset options: a `physics` list gives the i-th its i-th entry."""
    physics = None if options is None else options.get("physics")
    if not isinstance(physics, list | tuple):
        return [options] * n
    if len(physics) != n:
        raise EnvError(f"reset options: physics as a list gives one dict per environment: "
                       f"{n}, got {len(physics)}")
    return [{**options, "physics": p} for p in physics]  # type: ignore[dict-item]


def make_vec(env_id: str, num_envs: int, **kwargs: Any) -> CueVecEnv:
    """A CueVecEnv of a registered cuesim id (`gymnasium.make_vec(env_id, num_envs, ...)` gives
    the same through the id's `vector_entry_point`)."""
    from cuesim.env import ENV_IDS

    if not isinstance(env_id, str) or env_id not in ENV_IDS:
        raise EnvError(f"unknown environment {env_id!r}; ids are {', '.join(sorted(ENV_IDS))}")
    flat = env_id.removesuffix("-v0").endswith("Flat")
    return CueVecEnv(num_envs, ENV_IDS[env_id], flatten=kwargs.pop("flatten", flat), **kwargs)
