"""`CueEnv`: one refereed game of novus (singles), 8-ball, 9-ball, 14.1 or 5-pins as a
Gymnasium environment. The game is the viewer's session (`cuesim.viewer.session`): the
simulator plays each shot and the game's referee rules on it, so every rule applies as in
`cuesim play`.

Players: `player0` is the agent; `player1` is the opponent: the built-in computer player
(`opponent="computer"`: the club level, its execution error included, with `level` simulated
candidates, as `cuesim play --vs-computer`), a callable `policy(observation) -> action`, or
the agent itself (`opponent="self"`: every step is the shot of whoever is to play,
`observation["to_play"]` says who). Who breaks or opens is drawn from the seed (`agent_first`
fixes it).

Default policies for what the action does not hold: a pending choice (WPA 4.5, 5.7, 6.5:
shoot or pass, accept or re-rack; 5-pins 3, 13.5) is answered by the computer player's rule
(shoot / accept when allowed: `cuesim.viewer.ai.choose_option`); no push-out and no safety is
declared; in 14.1 the call is the computer player's (the first object ball near the aim line
and the pocket nearest its way); a novus striker and a ball in hand go where the action's
placement says, moved to the nearest legal spot if the rules refuse it.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Generator, Iterator
from typing import Any, TypeVar

import gymnasium
import numpy as np
from gymnasium import spaces

from cuesim.env import act
from cuesim.env import reward as rewards
from cuesim.env.games import GAMES, SPECS, fouls, phase, scores, winner
from cuesim.rules.api_checks import MAX_MATCH
from cuesim.rules.ruling import Ruling
from cuesim.shot import ShotError
from cuesim.sim.engine import SimulationError
from cuesim.sim.result import ShotResult, TruncatedShotError
from cuesim.tables.layout import LayoutError
from cuesim.tables.numbers import finite_real, shown

PLAYERS = ("player0", "player1")
OPTION_KEYS = {"race_to", "points_to", "sets", "games"}
# the games each match option belongs to (as `cuesim play` refuses --sets for 9-ball)
OPTION_GAMES = {"sets": ("novus",), "race_to": ("8-ball", "9-ball", "14.1"),
                "points_to": ("14.1", "5-pins"), "games": ("5-pins",)}
MAX_RESTARTS = 20  # games the opponent wins before the agent's first shot are dealt again


class EnvError(ValueError):
    """An environment argument or action that does not fit (the message names it and what
    was expected)."""


def _positive_int(name: str, value: Any, upper: int = 10**6) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) \
            or not 1 <= value <= upper:
        raise EnvError(f"{name} must be a whole number in 1..{upper}, got {value!r}")
    return int(value)


class CueEnv(gymnasium.Env):
    """A refereed cue-sports game; see the module docstring and README ("Gymnasium
    environments") for the spaces, the reward and the options.

    game: 'novus', '8-ball', '9-ball', '14.1' or '5-pins'; opponent: 'computer', 'self' or a
    callable; level: the computer's candidates per shot; reward: 'sparse' or 'shaped' (with
    `reward_weights`, a RewardWeights or a dict of its fields); max_shots: shots (both
    players, counted from reset's observation: the opponent's shots before the agent's first
    turn are not) before the episode is truncated; agent_first: who breaks (None: drawn from the
    seed); flatten: a flat Box observation instead of the Dict; options: the match (race_to,
    points_to, sets, games); render_mode: 'rgb_array' or 'human'; impact_steps: the multiple
    impact's resolution of the game's table (None: its default, 20; tables/contact.py);
    end_mass: the ball games' cue, its effective end mass in kg, which sets the squirt of side
    english for both players (None: a standard shaft's 0.0057; 0: no squirt); physics:
    coefficients of the game's physics by name ({'mu_slide': 0.25}: `table.with_physics`), for
    every episode, each checked against its range; `reset(options={'physics': {...}})` sets
    some for one episode on top of these (domain randomisation).
    """

    metadata = {"render_modes": ["rgb_array", "human"], "render_fps": 2}

    def __init__(self, game: str = "9-ball", *, opponent: str | Callable[[Any], Any] = "computer",
                 level: int = 16, reward: str = "sparse",
                 reward_weights: rewards.RewardWeights | dict[str, float] | None = None,
                 max_shots: int = 200, agent_first: bool | None = None, flatten: bool = False,
                 options: dict[str, int] | None = None, render_mode: str | None = None,
                 impact_steps: float | None = None, end_mass: float | None = None,
                 physics: dict[str, float] | None = None) -> None:
        if not isinstance(game, str) or game not in SPECS:
            raise EnvError(f"game must be one of {', '.join(GAMES)}, got {game!r}")
        if not (callable(opponent) or opponent in ("computer", "self")):
            raise EnvError(f"opponent must be 'computer', 'self' or a callable policy(observation)"
                           f" -> action, got {opponent!r}")
        if reward not in _REWARD_KINDS:
            raise EnvError(f"reward must be one of {', '.join(_REWARD_KINDS)}, got {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise EnvError(f"render_mode must be None, 'rgb_array' or 'human', got "
                           f"{render_mode!r}")
        for name, flag in (("agent_first", agent_first), ("flatten", flatten)):
            if flag is not None and not isinstance(flag, bool):
                raise EnvError(f"{name} must be True or False{' or None' * (name == 'agent_first')}"
                               f", got {flag!r}")
        self.spec_game = SPECS[game]
        self.game = game
        self.opponent = opponent
        self.level = _positive_int("level", level, 10_000)
        self.reward_kind = reward
        self.weights = _weights(reward_weights)
        self.max_shots = _positive_int("max_shots", max_shots)
        self.agent_first = agent_first
        self.flatten = flatten
        self.session_options: dict[str, float] = dict(_options(options, game))
        if end_mass is not None:
            self.session_options["end_mass"] = _end_mass(game, end_mass)
        # the coefficients every episode changes ({}: the game table, as the session makes it)
        self.physics = _physics(game, physics, "physics", impact_steps)
        self.table = _table(game, self.physics)
        self.render_mode = render_mode
        self.dict_space = _observation_space(self.spec_game)
        self.observation_space = (spaces.flatten_space(self.dict_space) if flatten
                                  else self.dict_space)
        self.action_space = spaces.Box(-1.0, 1.0, (act.action_size(self.spec_game),),
                                       dtype=np.float32)
        self.session: Any = None
        self._renderer: Any = None
        self._shots = 0
        self._redealt = 0  # matches the last reset dealt again (the opponent won them first)
        self._ai_seed = 0

    # -- the Gymnasium API ---------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """A new match; `options` may hold 'agent_first' (True/False) for this episode."""
        return drive(self.reset_steps(seed=seed, options=options))

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        return drive(self.step_steps(action))

    # -- the same, as generators of the shots they are about to simulate -----------------
    def reset_steps(self, *, seed: int | None = None, options: dict[str, Any] | None = None
                    ) -> Generator[list[dict[str, Any]], None, tuple[Any, dict[str, Any]]]:
        """`reset` as a generator: before simulating it yields the shot actions it is about
        to simulate on the current session (see `step_steps`); it returns what reset returns.
        The seed and the options are checked when it is called, before anything changes (a
        vector env refuses a bad one before any environment resets)."""
        seed = check_seed(seed, "reset seed")
        if options is not None and not isinstance(options, dict):
            raise EnvError(f"reset options must be a dict or None, got {options!r:.80}")
        first = self.agent_first
        table = self.table
        if options:
            unknown = set(options) - {"agent_first", "physics"}
            if unknown & set(OPTION_KEYS):
                raise EnvError(f"reset options: {sorted(unknown & set(OPTION_KEYS))} set the "
                               "match when the environment is made: gymnasium.make(id, "
                               "options={...}); reset takes only agent_first and physics")
            if unknown:
                raise EnvError(f"reset options: unknown {sorted(unknown)}; known: agent_first, "
                               "physics")
            if options.get("physics") is not None:  # this episode's, over the env's own
                table = _table(self.game, {**self.physics, **_physics(
                    self.game, options["physics"], "reset options: physics")})
            if not isinstance(options.get("agent_first", False), bool):
                raise EnvError(f"reset options: agent_first must be True or False, got "
                               f"{options['agent_first']!r}")
            first = options.get("agent_first", first)
        return self._reset_run(seed, first, table)

    def _reset_run(self, seed: int | None, first: bool | None, table: Any
                   ) -> Generator[list[dict[str, Any]], None, tuple[Any, dict[str, Any]]]:
        super().reset(seed=seed)
        if first is None:
            first = bool(self.np_random.integers(2) == 0)
        log: list[dict[str, Any]] = []
        self._redealt = 0
        for _ in range(MAX_RESTARTS):  # dealt again while the opponent wins before the agent
            self._ai_seed = int(self.np_random.integers(2**31 - 1))
            self._new_game(first, table)
            log = []
            self._settle(log)
            if self.opponent != "self":  # up to the agent's first turn, however many
                yield from self._opponent_turns(log, math.inf)
            if not self.session.over():
                self._shots = 0  # max_shots counts from the agent's first observation
                return self._observation(), self._info(log)
            self._redealt += 1  # a match lost without a shot: info["redealt"] counts it
        raise EnvError(f"the opponent won {MAX_RESTARTS} matches in a row before the agent's "
                       "first shot: give longer matches (options race_to, points_to)")

    def step_steps(self, action: Any) -> Generator[list[dict[str, Any]], None, tuple[
            Any, float, bool, bool, dict[str, Any]]]:
        """`step` as a generator. Before the physics of a shot (or of a round of the computer
        player's search: `ai.choose_shot_steps`) it yields the list of shot actions about to
        be simulated on the session as it is; whoever drives it may simulate them all at once
        (`CueVecEnv` does, for many environments in one compiled call) and `prefetch` their
        results before resuming. Any shot not prefetched is simulated as `step` does, so the
        outcome is the same. The action is checked when it is called, before anything
        changes."""
        if self.session is None or self.session.over() or self._shots >= self.max_shots:
            raise EnvError("the episode is over (or never began): call reset() first")
        return self._step_run(self._check_action(action))

    def _step_run(self, action: np.ndarray) -> Generator[list[dict[str, Any]], None, tuple[
            Any, float, bool, bool, dict[str, Any]]]:
        actor = self.session.shooter()
        log: list[dict[str, Any]] = []
        yield from self._shoot(act.decode(self.session, self.spec_game, action), log)
        self._settle(log)
        if self.opponent != "self":
            yield from self._opponent_turns(log)
        me = PLAYERS[0] if self.opponent != "self" else actor
        total = sum(e["gain"] if e["player"] == me else -e["gain"] for e in log)
        terminated = bool(self.session.over())
        truncated = not terminated and self._shots >= self.max_shots
        if self.render_mode == "human":
            self.render()
        return self._observation(), float(total), terminated, truncated, self._info(log)

    def render(self) -> np.ndarray | None:
        """The table now: an (height, width, 3) uint8 frame ('rgb_array') or a window
        ('human'); None without a render mode."""
        if self.render_mode is None or self.session is None:
            return None
        if self._renderer is None:
            from cuesim.env.render import Renderer

            self._renderer = Renderer(self.session.table, self.render_mode == "human")
        frame = self._renderer.frame(self.session.layout())
        return frame if self.render_mode == "rgb_array" else None

    def close(self) -> None:
        if self._renderer is not None:
            self._renderer.close()
            self._renderer = None

    # -- the game ------------------------------------------------------------------------
    def _new_game(self, agent_first: bool, table: Any) -> None:
        from cuesim.viewer.session import new_session

        players = list(PLAYERS) if agent_first else list(reversed(PLAYERS))
        self.session = new_session(self.game, players, (), self.session_options)
        if table is not None:
            self.session.table = table
        # the session's physics looks up prefetched results first (see step_steps)
        self.session.simulate = Prefetched(self.session)
        self._shots = 0

    def _check_action(self, action: Any) -> np.ndarray:
        return check_actions(action, self.action_space.shape, "action")

    def _record(self, log: list[dict[str, Any]], player: str, ruling: Ruling,
                result: Any) -> None:
        over = bool(self.session.over())
        log.append({"player": player, "text": ruling.describe(stroke=result is not None),
                    "legal": ruling.legal,
                    "pocketed": list(result.pocketed) if result is not None else [],
                    "gain": rewards.gain(self.reward_kind, self.weights, self.session, player,
                                        ruling, result, winner(self.session), over)})

    def prefetch(self, action: dict[str, Any], result: ShotResult) -> None:
        """Give the physics of a shot action on the session as it is now (a result the
        session's `simulate` would return), so that playing or trying it simulates nothing."""
        self.session.simulate.put(action, result)

    def _shoot(self, shot: dict[str, Any], log: list[dict[str, Any]]
               ) -> Generator[list[dict[str, Any]], None, None]:
        """Play a shot action; one the simulator cannot play (a placement refused, a shot
        stopped at the event limit) is tried again gentler, then from the default place."""
        player = self.session.shooter()
        first = dict(shot, speed=shot["speed"] * 1.0)
        if not self.session.simulate.has(first):
            yield [first]
        error: Exception | None = None
        for attempt in self._tries(shot):
            try:
                ruling = self.session.apply(attempt)
            except (ShotError, SimulationError, TruncatedShotError, LayoutError) as exc:
                error = exc
                continue
            self._shots += 1
            self._record(log, player, ruling, self.session.last_result)
            return
        raise EnvError(f"the shot could not be played: {error}")

    def _tries(self, shot: dict[str, Any]) -> Iterator[dict[str, Any]]:
        """The shot, then gentler, then gentle from the default place (looked for only when
        the others fail: it scans the placing area)."""
        for f in (1.0, 0.5, 0.25):
            yield dict(shot, speed=shot["speed"] * f)
        x, y = self.session.default_place() if self.session.placement() else (shot["x"],
                                                                              shot["y"])
        yield dict(shot, x=x, y=y, speed=shot["speed"] * 0.25)

    def _settle(self, log: list[dict[str, Any]]) -> None:
        """Answer pending choices by the default policy."""
        from cuesim.viewer import ai

        while not self.session.over() and self.session.pending() is not None:
            chooser = self.session.pending()[0]
            ruling = self.session.choose(ai.choose_option(self.session))
            self._record(log, chooser, ruling, None)

    def _opponent_turns(self, log: list[dict[str, Any]], limit: float | None = None
                        ) -> Generator[list[dict[str, Any]], None, None]:
        """The opponent's shots until the agent is to play, the match ends, or the episode
        has played `limit` shots (default max_shots)."""
        from cuesim.viewer import ai

        limit = self.max_shots if limit is None else limit
        while (not self.session.over() and self.session.shooter() != PLAYERS[0]
               and self._shots < limit):
            if self.opponent == "computer":
                # each round of the search's simulations, announced before it runs (the
                # vector env simulates them at once; `drive` ignores them)
                choice = yield from ai.choose_shot_steps(self.session, self.level,
                                                         seed=self._ai_seed)
                shot = choice.action
            else:
                assert callable(self.opponent)
                raw = self.opponent(self._observation())
                shot = act.decode(self.session, self.spec_game, self._check_action(raw))
            yield from self._shoot(shot, log)
            self._settle(log)

    # -- observation ---------------------------------------------------------------------
    def _observation(self) -> Any:
        obs = observe(self.session, self.spec_game)
        return spaces.flatten(self.dict_space, obs) if self.flatten else obs

    def _info(self, log: list[dict[str, Any]]) -> dict[str, Any]:
        return {"shots": [{k: v for k, v in e.items()} for e in log],
                "to_play": self.session.shooter(), "winner": winner(self.session),
                "shot_count": self._shots, "redealt": self._redealt}


_REWARD_KINDS = rewards.REWARDS


def check_seed(seed: Any, what: str) -> int | None:
    """A reset seed: None or a whole number >= 0 of any integer type, as a Python int
    (Gymnasium's own check takes nothing else: numpy's int64 is normal in RL code)."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, numbers.Integral)
                             or seed < 0):
        raise EnvError(f"{what} must be None or a whole number >= 0, got {seed!r:.80}")
    return None if seed is None else int(seed)


def _has_bool(value: Any) -> bool:
    """A bool among a list's or tuple's items, however nested (numpy reads [True, 0.5] as
    two floats), or an array of bools among them."""
    if isinstance(value, bool | np.bool_):
        return True
    if isinstance(value, np.ndarray):
        return value.dtype.kind == "b"
    return isinstance(value, list | tuple) and any(_has_bool(v) for v in value)


def check_actions(action: Any, shape: tuple[int, ...], what: str) -> np.ndarray:
    """An action (or a vector's rows of them) as float64 numbers of `shape`, checked: numbers
    (not text, complex numbers, objects or bools: True is no aim), finite; EnvError naming
    `what` otherwise. Out-of-range values are left for `act.decode` to clip."""
    expected = f"{'rows of ' * (len(shape) > 1)}{shape[-1]} numbers in [-1, 1]"
    try:
        raw = np.asarray(action)
        kind = raw.dtype.kind
        if kind == "b" or _has_bool(action):  # True is no aim, nor a speed
            raise EnvError(f"{what} must be {expected}, not bools, got {action!r:.200}")
        if kind not in "iuf":  # strings, complex numbers, objects: no action
            raise TypeError(raw.dtype)
        a = raw.astype(np.float64)
    except (TypeError, ValueError, OverflowError) as exc:  # 10**400: no float
        if isinstance(exc, EnvError):
            raise
        raise EnvError(f"{what} must be {expected}, got {action!r:.200}") from None
    if a.shape != shape:
        raise EnvError(f"{what} must have shape {shape}, got {np.shape(action)}")
    bad = ~np.isfinite(a)
    if bad.any():
        if a.ndim > 1:  # the first row at fault
            k = int(np.argmax(bad.any(axis=tuple(range(1, a.ndim)))))
            raise EnvError(f"{what}[{k}] must be finite, got {a[k].tolist()}")
        raise EnvError(f"{what} must be finite, got {a.tolist()}")
    return a


_R = TypeVar("_R")


def drive(steps: Generator[Any, None, _R]) -> _R:
    """Run a `step_steps` / `reset_steps` generator to its end, prefetching nothing."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return stop.value


def physics_key(session: Any, action: dict[str, Any]) -> tuple[Any, ...]:
    """What a shot's physics depends on: the session's state (every change of it appends an
    action) and the action's placement, aim, speed and tip."""
    return (len(session.actions), session.shooter(),
            *(float(action.get(k, 0.0)) for k in ("x", "y", "angle", "speed", "side", "height")))


class Prefetched:
    """A session's `simulate` that returns a prefetched result for a shot action when it has
    one for the session's current state, and otherwise simulates as the session does."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.ready: dict[tuple[Any, ...], ShotResult] = {}

    def put(self, action: dict[str, Any], result: ShotResult) -> None:
        key = physics_key(self.session, action)
        if self.ready and next(iter(self.ready))[0] != key[0]:
            self.ready.clear()  # results of an earlier state never serve again
        self.ready[key] = result

    def has(self, action: dict[str, Any]) -> bool:
        return physics_key(self.session, action) in self.ready

    def __call__(self, action: dict[str, Any]) -> ShotResult:
        result = self.ready.get(physics_key(self.session, action))
        if result is None:
            return type(self.session).simulate(self.session, action)
        return result


def _physics(game: str, physics: Any, where: str, impact_steps: Any = None
             ) -> dict[str, float]:
    """Coefficients of the game's physics by name, checked (EnvError naming `where`): a dict
    of names the game's physics has, each a real number in its range; `impact_steps` (the
    constructor's own argument) joins them, unless `physics` sets it too."""
    from cuesim.api import game_table
    from cuesim.tables.base import with_coefficients

    if physics is None:
        physics = {}
    if not isinstance(physics, dict):
        raise EnvError(f"{where} must be a dict of the physics' coefficients by name "
                       f"({{'mu_slide': 0.25}}) or None, got {physics!r:.60}")
    if impact_steps is not None and "impact_steps" in physics:
        raise EnvError("impact_steps is given twice: as an argument and in physics")
    out = dict(physics)
    for given, what in ((out, where), ({"impact_steps": impact_steps}, "impact_steps")):
        if what == "impact_steps" and impact_steps is None:
            break
        try:
            with_coefficients(game_table(game), given)
        except ValueError as exc:
            raise EnvError(f"{what}: {exc}") from None
        out.update(given)
    return out


def _table(game: str, physics: dict[str, float]) -> Any:
    """The game's table with these coefficients of its physics changed (none: None, the
    game table as the session makes it)."""
    if not physics:
        return None
    from cuesim.api import game_table

    return game_table(game).with_physics(**physics)


def _end_mass(game: str, value: Any) -> float:
    """The cue's end mass in kg, checked as a saved game's option is."""
    from cuesim.viewer.savefile import physics_option_problem

    # numpy's numbers too (a saved game's check takes JSON's int and float alone)
    problem = physics_option_problem(game, "end_mass", float(value) if finite_real(value)
                                     else value)
    if problem:
        raise EnvError(f"end_mass must be {problem}, got {value!r}")
    return float(value)


def _weights(value: Any) -> rewards.RewardWeights:
    if value is None:
        return rewards.RewardWeights()
    if isinstance(value, rewards.RewardWeights):
        value = vars(value)  # its fields checked as a dict's
    if not isinstance(value, dict):
        raise EnvError(f"reward_weights must be a RewardWeights or a dict of point, foul, win; "
                       f"got {value!r}")
    known = set(rewards.RewardWeights.__dataclass_fields__)
    for key, v in value.items():
        if key not in known:
            raise EnvError(f"reward_weights: unknown weight {key!r}; weights are {sorted(known)}")
        if not finite_real(v):
            raise EnvError(f"reward_weights.{key} must be a finite number, got {shown(v)}")
    return rewards.RewardWeights(**{k: float(v) for k, v in value.items()})


def _options(options: Any, game: str) -> dict[str, int]:
    """The match options, each one the game has (OPTION_GAMES), a whole number 1-MAX_MATCH."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise EnvError(f"options must be a dict of {sorted(OPTION_KEYS)}, got {options!r}")
    out = {}
    for key, value in options.items():
        if key not in OPTION_KEYS:
            raise EnvError(f"options: unknown {key!r}; options are {sorted(OPTION_KEYS)}")
        if game not in OPTION_GAMES[key]:
            raise EnvError(f"options: {key!r} is an option of {', '.join(OPTION_GAMES[key])},"
                           f" not of {game}")
        out[key] = _positive_int(f"options.{key}", value, MAX_MATCH)
        if key == "games" and out[key] % 2 == 0:
            raise EnvError(f"options.games must be odd (5-pins 2: a match of 1, 3, 5... "
                           f"games), got {out[key]}")
    return out


def _observation_space(spec: Any) -> spaces.Dict:
    n = len(spec.pieces)
    parts: dict[str, spaces.Space[Any]] = {
        "positions": spaces.Box(0.0, 1.0, (n, 2), dtype=np.float32),
        "on_table": spaces.MultiBinary(n),
        "to_play": spaces.Discrete(2),
        "ball_in_hand": spaces.Discrete(len(spec.placements)),
        "phase": spaces.Discrete(len(spec.phases)),
        # 14.1 scores have no floor (WPA 6.13: each foul takes a point, a third in a row 15
        # more, 6.12) however long an episode runs (max_shots): the float32 range's bottom
        # (not -inf, which Gymnasium's checker flags); the top is past a race's end
        "scores": spaces.Box(float(np.finfo(np.float32).min), 1e4, (2,), dtype=np.float32),
        "fouls": spaces.Box(0.0, 1e3, (2,), dtype=np.float32),
    }
    if spec.game == "8-ball":
        parts["groups"] = spaces.Discrete(3)
    if spec.game == "9-ball":
        parts["push_out"] = spaces.Discrete(2)
    return spaces.Dict(parts)


def observe(session: Any, spec: Any) -> dict[str, Any]:
    """The Dict observation of a session (see README, "Gymnasium environments")."""
    n = len(spec.pieces)
    layout = session.layout()
    index = {pid: k for k, pid in enumerate(spec.pieces)}
    pos = np.zeros((n, 2), dtype=np.float32)
    on = np.zeros(n, dtype=np.int8)
    geo = session.table.geometry
    for p in layout.pieces:
        k = index.get(p.id)
        if k is None:
            continue
        pos[k] = (min(max(p.x / geo.width, 0.0), 1.0), min(max(p.y / geo.length, 0.0), 1.0))
        on[k] = 1
    players = list(PLAYERS)
    obs: dict[str, Any] = {
        "positions": pos, "on_table": on,
        "to_play": int(players.index(session.shooter())),
        "ball_in_hand": int(spec.placements.index(session.placement())
                            if session.placement() in spec.placements else 0),
        "phase": int(spec.phases.index(phase(session))),
        "scores": np.array(scores(session, players), dtype=np.float32),
        "fouls": np.array(fouls(session, players), dtype=np.float32),
    }
    if spec.game == "8-ball":
        group = session.ref.state.groups.get(PLAYERS[0])
        obs["groups"] = {None: 0, "solids": 1, "stripes": 2}[group]
    if spec.game == "9-ball":
        obs["push_out"] = int(bool(session.ref.state.push_out_available))
    return obs
