"""How the computer chooses a shot: candidates (straight-in and cut shots at its pieces toward
every pocket or hole, direct hits at different fullnesses, one-cushion kicks when every piece
it may hit first is hidden, random ones), each simulated once as aimed and ruled on a copy of
the referee; the best few simulated again several times under the level's execution error;
the one with the best mean outcome is aimed at, and the stroke that plays it carries the
level's error too. In pool a shot that keeps the table is worth more the easier the next pot
it leaves (`leave`: position play); in 8-ball and 14.1 each candidate calls what it pockets
as aimed (`call_for_result`: a bank or a combination counts only when called, WPA 4.2, 6.3).
The 8-ball and 9-ball break follows a plan (`breaks`: the cue ball's spot and the tip's height),
the one that scored best when the computer practised every plan under its own error.

`Thinker` does this in small steps (one simulation each), so the viewer can think between
frames; `choose_shot` runs one to its end. Before each round of simulations (the candidates,
the finalists' perturbed trials, a stroke) it says which shots that round will simulate
(`Thinker.upcoming`, drawn from its RNG in the order it uses them), and `choose_shot_steps`
yields each such list, so a caller can simulate them all at once beforehand (the vector
environment's one compiled call: `cuesim.env.vector`). The candidates are plain simulations of
the current table: each needs the live game state (ball in hand, groups, debt) for its ruling,
which a fresh batch referee does not have.
"""

from __future__ import annotations

import math
import numbers
import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cuesim.rules.ruling import Ruling
from cuesim.shot import ShotError
from cuesim.sim.engine import SimulationError
from cuesim.sim.events import EventKind
from cuesim.sim.result import ShotResult
from cuesim.tables.layout import LayoutError
from cuesim.viewer.ai import breaks
from cuesim.viewer.ai.breaks import break_action
from cuesim.viewer.ai.execution import perturb
from cuesim.viewer.ai.leave import leave
from cuesim.viewer.ai.levels import DEFAULT_LEVEL, Level, get_level
from cuesim.viewer.session import Session

FAILS = (ShotError, LayoutError, SimulationError, ValueError)  # a shot that cannot be played
BALL_IN_HAND_COST = 100.0  # a foul that gives ball in hand anywhere: worth about the turn
# pool: a kept turn also earns LEAVE_WEIGHT x the ease of the easiest pot it leaves (leave.py,
# 0-1, about 0.3 for a plain pot); 40 changed nothing measurable, 150 won 148 of 240 club
# games against the player without it (bench/README.md, ai_levels)
LEAVE_WEIGHT = 150.0
UNPLAYABLE = -200.0  # the score of a perturbed shot the simulator or the rules refuse
FALLBACK_DIRECTIONS = 24  # directions tried when no candidate could be played
FALLBACK_SPEED = 0.3  # of the session's top speed
REDRAWS = 8  # execution-error draws tried before the intended shot is played as aimed
# The candidates' speeds. Novus and 5-pins: fractions of the session's top speed (5-pins
# scored fewer points a shot with softer ones). Pool: the cue ball's speed off the tip, the
# middles of the "slow", "medium", "fast" and "power shot" ranges of Alciatore's "typical
# speeds" (billiards.colostate.edu/faq/speed/typical: 0.45-0.89, 0.89-1.9, 1.9-3.2 and
# 3.2-4.5 m/s); random candidates anywhere from slow to power. Fractions of the top speed
# (2.75-8.25 m/s of cue, a cue ball at 3.8-11.5 m/s: break speeds) scratched on 8-11 % of
# the computer's pool shots (bench/README.md, ai_levels).
NOVUS_SPEEDS = (0.35, 0.6, 0.9)
CAROM_SPEEDS = (0.25, 0.45, 0.75)
POOL_CUE_BALL_SPEEDS = (0.67, 1.4, 2.55, 3.85)  # m/s
POOL_RANDOM_CUE_BALL_SPEEDS = (0.45, 4.5)  # m/s
RANDOM_SPEEDS = (0.15, 0.8)  # novus and 5-pins: fractions of the top speed


@dataclass
class Choice:
    """The shot the computer plays (`action`, with its execution error), the shot it meant
    (`aim`), the mean score of the aim under error, the ruling of the aim played exactly,
    how many candidate shots it tried and how many perturbed simulations it ran. `action` is
    None when no shot at all could be played (see `Thinker`)."""

    action: dict[str, Any] | None
    score: float
    ruling: Ruling
    tried: int
    aim: dict[str, Any] | None = None
    samples: int = 0
    level: str = DEFAULT_LEVEL
    plan: str = "search"  # 'search', 'break' or 'fallback'


def score(session: Session, player: str, result: ShotResult, ruling: Ruling, ref: Any) -> float:
    """How good a ruling is for `player` (higher is better): a won frame, keeping the turn
    (in pool with the position it leaves: `leave.leave`), own pieces and points made, less any
    foul."""
    s = 0.0
    if ruling.match_over or ruling.frame_over:
        if ruling.winner is not None:
            won = ruling.winner == player or player in str(ruling.winner).split(" & ")
            s += 1000.0 if won else -1000.0
    if not ruling.legal:
        s -= 60.0 + 20.0 * len(ruling.violations)
        if ruling.next_player != player and ruling.placement == "table":
            s -= BALL_IN_HAND_COST  # the opponent places the cue ball anywhere (WPA 1.11)
    if not ruling.turn_passes and ruling.next_player == player:
        s += 100.0
        if ruling.legal and not ruling.frame_over:
            s += LEAVE_WEIGHT * leave(session, result, ref, player)
    pocketed = [p for p in result.pocketed if p != session.struck_id()]
    mine = set(session.pieces_of(player))
    s += 12.0 * sum(1 for p in pocketed if p in mine) + 3.0 * len(pocketed)
    s += 5.0 * ruling.points.get(player, 0)
    for other, pts in ruling.points.items():
        if other != player:
            s -= 5.0 * pts
    if session.game == "5-pins":  # pins knocked by one's own ball cost, by the other's count
        own = session.struck_id()
        for e in result.event_log():
            if e.kind == EventKind.PIN:
                s += -15.0 if e.a == own else 10.0
    return s


def _angle(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.atan2(b[1] - a[1], b[0] - a[0])


def blocked(layout: Any, session: Session, pos: tuple[float, float], target: Any) -> bool:
    """Whether another piece stands in the way of the struck piece rolling from `pos` straight
    to `target` (its centre closer to that segment than the two radii)."""
    r0, struck = session.radius(), session.struck_id()
    tx, ty = target.x, target.y
    dx, dy = tx - pos[0], ty - pos[1]
    length2 = dx * dx + dy * dy
    if length2 <= 0.0:
        return False
    for q in layout.pieces:
        if q.id in (struck, target.id):
            continue
        f = min(max(((q.x - pos[0]) * dx + (q.y - pos[1]) * dy) / length2, 0.0), 1.0)
        gap = math.hypot(q.x - pos[0] - f * dx, q.y - pos[1] - f * dy)
        if gap < r0 + session.table.piece_spec(q.kind).radius:
            return True
    return False


def candidate_speeds(session: Session) -> tuple[tuple[float, ...], tuple[float, float]]:
    """The cue speeds (m/s) of the aimed candidates, and the range of the random ones."""
    top = session.max_speed
    if session.game.startswith("novus") or session.game == "5-pins":
        fractions = NOVUS_SPEEDS if session.game.startswith("novus") else CAROM_SPEEDS
        return tuple(f * top for f in fractions), (RANDOM_SPEEDS[0] * top, RANDOM_SPEEDS[1] * top)
    from cuesim.sim.cue import strike

    # a centre-ball hit: the cue ball leaves at a fixed multiple of the cue's speed
    per_cue = strike(session.table.piece_spec("ball"), 1.0, 0.0, 0.0, 0.0, 0.0)[0]
    lo, hi = POOL_RANDOM_CUE_BALL_SPEEDS
    return tuple(v / per_cue for v in POOL_CUE_BALL_SPEEDS), (lo / per_cue, hi / per_cue)


def candidates(session: Session, n: int, rng: np.random.Generator) -> list[dict[str, Any]]:
    """About n shot actions for the player to shoot (aimed exactly: no error yet)."""
    player = session.shooter()
    layout = session.layout()
    spots: list[tuple[float, float]] = [session.struck_position()]
    if session.placement() is not None:
        area = session.place_area()
        xs, ys = [p[0] for p in area], [p[1] for p in area]
        tries = 0
        while len(spots) < 4 and tries < 200:
            tries += 1
            x, y = rng.uniform(min(xs), max(xs)), rng.uniform(min(ys), max(ys))
            if session.check_place(x, y) is None:
                spots.append((float(x), float(y)))
    r0 = session.radius()
    targets = session.targets()
    mine = [layout.get(pid) for pid in session.pieces_of(player) if pid in layout.ids()]
    speeds, random_speeds = candidate_speeds(session)
    heights = (0.0, 0.3, -0.3) if session.tip_vertical else (0.0,)
    out: list[dict[str, Any]] = []
    first = [layout.get(pid) for pid in session.first_contacts(player) if pid in layout.ids()]
    for pos in spots:
        angles: list[float] = []
        hidden = {p.id for p in first} if all(blocked(layout, session, pos, p)
                                               for p in first) else set()
        for p in mine:
            r = session.table.piece_spec(p.kind).radius
            for hx, hy in targets:  # cut the piece toward the pocket
                d = _angle((p.x, p.y), (hx, hy))
                ghost = (p.x - (r + r0) * math.cos(d), p.y - (r + r0) * math.sin(d))
                angles.append(_angle(pos, ghost))
            direct = _angle(pos, (p.x, p.y))
            half = math.asin(min(1.0, (r + r0) / max(math.dist(pos, (p.x, p.y)), 1e-6)))
            angles += [direct + f * half for f in (-0.6, -0.3, 0.0, 0.3, 0.6)]
            if p.id in hidden:  # no straight line to any piece it may hit first: kick
                angles += [_angle(pos, m) for m in session.kick_points((p.x, p.y))]
        for a in angles:
            for v in speeds:
                for h in heights:
                    out.append(session.shot_action(pos, a, v, 0.0, h))
    while len(out) < n:
        pos = spots[int(rng.integers(len(spots)))]
        out.append(session.shot_action(pos, float(rng.uniform(-math.pi, math.pi)),
                                       float(rng.uniform(*random_speeds))))
    if len(out) > n:
        keep = rng.choice(len(out), size=n, replace=False)
        out = [out[int(k)] for k in sorted(keep)]
    return out


def is_break(session: Session) -> bool:
    """An 8-ball or 9-ball opening break (WPA 3.3, 4.4, 5.3): played by plan, not search."""
    if session.game not in ("8-ball", "9-ball"):
        return False
    return getattr(session.ref.state, "phase", "") == "break"


def declaration_for(session: Session, action: dict[str, Any]) -> dict[str, Any]:
    """The call a shot needs: in 14.1 (WPA 6.3) every shot but the break, in 8-ball a shot at
    the 8 (WPA 4.2, 4.20.4). It calls the object ball nearest along the aim line and the
    pocket nearest its way on. Empty when the game needs no call."""
    if session.game not in ("14.1", "8-ball") or session.ref.state.phase == "break":
        return {}
    if session.game == "8-ball" and session.pieces_of(session.shooter()) != ["8"]:
        return {}
    layout = session.layout()
    x, y, a = action["x"], action["y"], action["angle"]
    best, best_d = None, math.inf
    for p in layout.pieces:
        if p.id == "cue":
            continue
        dx, dy = p.x - x, p.y - y
        along = dx * math.cos(a) + dy * math.sin(a)
        if along <= 0:
            continue
        off = abs(-dx * math.sin(a) + dy * math.cos(a))
        if off < 0.06 and along < best_d:
            best, best_d = p, along
    if best is None:
        return {}
    pocket = min(session.table.pockets,
                 key=lambda q: math.dist((q.capture.x, q.capture.y), (best.x, best.y)) - 0.5 * (
                     (q.capture.x - best.x) * math.cos(a) + (q.capture.y - best.y) * math.sin(a)))
    return {"called_ball": best.id, "called_pocket": pocket.name}


def call_for_result(session: Session, action: dict[str, Any], result: ShotResult
                    ) -> dict[str, Any] | None:
    """The call of what the shot, simulated as aimed, pockets: the first ball it may pot to
    drop, in the pocket it drops in. 8-ball (WPA 4.2: a bank, a kiss or a combination counts
    only when called; not on the break): its own balls (any but the 8 on an open table; the
    8 once its group is down); 14.1 (WPA 6.3: every shot is called, the opening break too): any
    object ball. It replaces the call `declaration_for` guessed from the aim line. The action
    with that call, or None (another game, nothing of the player's dropped)."""
    if session.game == "14.1":
        mine = {p for p in result.initial.ids() if p != session.struck_id()}
    elif session.game == "8-ball" and session.ref.state.phase != "break":
        mine = set(session.pieces_of(session.shooter()))
    else:
        return None
    for e in result.events_of(EventKind.POCKET):
        if e.a in mine and e.feature is not None:
            call = {"called_ball": e.a, "called_pocket": e.feature}
            return {**action, "declaration": {**(action.get("declaration") or {}), **call}}
    return None


def _with_call(session: Session, action: dict[str, Any]) -> dict[str, Any]:
    decl = declaration_for(session, action)
    if decl:
        action["declaration"] = decl
    return action


def _check_session(session: Any) -> None:
    """The computer plays a game session (`cuesim.viewer.session.new_session`): TypeError
    for anything else, naming what it got."""
    if not isinstance(session, Session):
        raise TypeError(f"the computer plays a game session (new_session(game)), got "
                        f"{session!r:.60}")


@dataclass
class Thinker:
    """One search, run in steps: `step(budget_s)` runs simulations until the budget is spent
    (at least one), `progress` is the fraction done, `choice` the result once `done`. The RNG
    is seeded by `seed` and the number of actions played, so the same game position and seed
    give the same choice however the steps are sliced."""

    session: Session
    level: Level
    seed: int = 0
    progress: float = 0.0
    done: bool = False
    choice: Choice | None = None
    upcoming: list[dict[str, Any]] = field(default_factory=list)  # the next round's shots
    rng: np.random.Generator = field(init=False, repr=False)
    _steps: Iterator[bool] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        _check_session(self.session)
        if isinstance(self.seed, bool) or not isinstance(self.seed, numbers.Integral) \
                or self.seed < 0:
            raise ValueError(f"the computer's seed must be a whole number >= 0, got "
                             f"{self.seed!r}")
        self.seed = int(self.seed)  # a numpy integer as the int it is
        self.rng = np.random.default_rng([self.seed, len(self.session.actions)])
        self._steps = self._think()

    def step(self, budget_s: float = 0.0) -> bool:
        """Think for about budget_s seconds (at least one simulation); True once done."""
        deadline = time.perf_counter() + budget_s
        while not self.done:
            if self._advance():
                continue  # a round was planned: no simulation yet
            if time.perf_counter() >= deadline:
                break
        return self.done

    def _advance(self) -> bool:
        """One step of the search: True when it only planned a round (`upcoming`)."""
        try:
            return next(self._steps)
        except StopIteration:
            self.done = True
            self.progress = 1.0
            return False

    def run(self) -> Choice:
        """Think to the end and return the choice."""
        while not self.step(math.inf):
            pass
        assert self.choice is not None
        return self.choice

    # -- the search, one simulation per step ----------------------------------------------
    def _plan(self, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Announce the next round's shots (a new list each round)."""
        self.upcoming = list(actions)
        return actions

    def _think(self) -> Generator[bool, None, None]:
        """Yields False after each simulation, True after planning a round (`_plan`)."""
        s, lv = self.session, self.level
        player = s.shooter()
        if is_break(s):
            practice = 0
            if breaks.practised(s, lv) is None:
                practice = yield from self._practise_breaks()
            aim = break_action(s, lv, self.rng)
            yield False
            action = yield from self._execute(aim)
            self.choice = Choice(action, math.nan, Ruling(legal=True), 0, aim, practice,
                                 lv.name, "break")
            return
        cands = self._plan([_with_call(s, a) for a in candidates(s, lv.candidates, self.rng)])
        yield True
        total = len(cands) + lv.finalists * lv.samples + 1
        done = 0
        screened: list[tuple[float, int, dict[str, Any], Ruling]] = []
        for k, action in enumerate(cands):
            try:
                result = s.simulate(action)
                # ruled with the call of what it pockets (the stroke is the same)
                action = cands[k] = call_for_result(s, action, result) or action
                ruling, ref = s.rule_on(result, action)
            except FAILS:
                ruling = None
            done += 1
            self.progress = done / total
            if ruling is not None:
                screened.append((score(s, player, result, ruling, ref), k, action, ruling))
            yield False
        tried = len(screened)
        if not screened:
            yield from self._fallback(tried)
            return
        screened.sort(key=lambda e: (-e[0], e[1]))
        finalists = screened[:lv.finalists]
        # every finalist's perturbed trials, drawn in the order they are played (the draws
        # depend on no simulation, so drawing them first draws the same shots)
        trials = [[perturb(action, lv, self.rng, s.max_speed, s.tip_vertical)
                   for _ in range(lv.samples)] for _, _, action, _ in finalists]
        self._plan([t for group in trials for t in group])
        yield True
        best: tuple[float, float, dict[str, Any], Ruling] | None = None
        samples = 0
        for (exact, _, action, ruling), group in zip(finalists, trials, strict=True):
            total_score = 0.0
            for trial in group:
                try:
                    result, r2, ref = s.trial(trial)
                    total_score += score(s, player, result, r2, ref)
                except FAILS:
                    total_score += UNPLAYABLE
                samples += 1
                done += 1
                self.progress = min(1.0, done / total)
                yield False
            mean = total_score / lv.samples
            if best is None or (mean, exact) > (best[0], best[1]):
                best = (mean, exact, action, ruling)
        assert best is not None
        executed = yield from self._execute(best[2])
        self.choice = Choice(executed, best[0], best[3], tried, best[2], samples, lv.name)

    def _practise_breaks(self) -> Generator[bool, None, int]:
        """Practise the break plans under this level's error (`breaks`: a round per entry of
        PRACTICE_ROUNDS, each planned as one round of shots), score each outcome as a shot,
        keep the best plan; the breaks played."""
        s = self.session
        player = s.shooter()
        plans = list(range(len(breaks.PLANS)))
        totals = [0.0] * len(breaks.PLANS)
        first = played = 0
        total = breaks.practice_size()
        for count, keep in breaks.PRACTICE_ROUNDS:
            trials = breaks.practice_round(s, self.level, plans, first, count)
            self._plan([action for _, action in trials])
            yield True
            for p, action in trials:
                try:
                    result, ruling, ref = s.trial(action)
                    totals[p] += score(s, player, result, ruling, ref)
                except FAILS:
                    totals[p] += UNPLAYABLE
                played += 1
                self.progress = 0.9 * played / total
                yield False
            first += count
            plans = breaks.best(totals, plans, keep)
        breaks.remember(s, self.level, plans[0])
        return played

    def _execute(self, aim: dict[str, Any]) -> Generator[bool, None, dict[str, Any]]:
        """The stroke: the aim with this level's error, redrawn while the simulator refuses
        the result (an event-limit stop), else the aim as it is."""
        s = self.session
        for _ in range(REDRAWS):
            action = perturb(aim, self.level, self.rng, s.max_speed, s.tip_vertical)
            self._plan([action])
            yield True
            try:
                s.simulate(action).require_complete()
            except FAILS:
                yield False
                continue
            return action
        return dict(aim)

    def _fallback(self, tried: int) -> Generator[bool, None, None]:
        """No candidate could be played: gentle shots in every direction from where the
        struck piece stands, its default place and free places in its area, the first the
        simulator and the referee accept. With none, `choice.action` is None."""
        s, lv = self.session, self.level
        spots = [s.struck_position(), s.default_place()]
        area = s.place_area()
        if s.placement() is not None and area:
            xs, ys = [p[0] for p in area], [p[1] for p in area]
            for _ in range(40):
                x, y = self.rng.uniform(min(xs), max(xs)), self.rng.uniform(min(ys), max(ys))
                if s.check_place(x, y) is None:
                    spots.append((float(x), float(y)))
                    if len(spots) >= 6:
                        break
        for pos in spots:
            for k in range(FALLBACK_DIRECTIONS):
                angle = math.pi / 2 + 2 * math.pi * k / FALLBACK_DIRECTIONS
                action = _with_call(s, s.shot_action(pos, angle, FALLBACK_SPEED * s.max_speed))
                try:
                    _, ruling, _ = s.trial(action)
                except FAILS:
                    yield False
                    continue
                executed = yield from self._execute(action)
                self.choice = Choice(executed, -math.inf, ruling, tried, action, 0, lv.name,
                                     "fallback")
                return
        self.choice = Choice(None, -math.inf, Ruling(legal=False), tried, None, 0, lv.name,
                             "fallback")


def thinker(session: Session, level: str | Level = DEFAULT_LEVEL, candidates: int | None = None,
            seed: int = 0) -> Thinker:
    """A Thinker for the shooter's shot at this level (candidates: the level's own count
    unless given)."""
    lv = get_level(level)
    if candidates is not None:
        lv = lv.with_search(candidates=candidates)
    return Thinker(session, lv, seed)


def choose_shot(session: Session, n: int | None = None, seed: int = 0,
                level: str | Level = DEFAULT_LEVEL) -> Choice:
    """The computer's shot at this level: the best of about n candidates (the level's count
    unless given) by the mean outcome under its execution error, played with that error.
    When nothing at all can be played, `action` is a gentle shot straight ahead (which the
    session will refuse) and `plan` is 'fallback'."""
    steps = choose_shot_steps(session, n, seed, level)
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return stop.value


def choose_shot_steps(session: Session, n: int | None = None, seed: int = 0,
                      level: str | Level = DEFAULT_LEVEL
                      ) -> Generator[list[dict[str, Any]], None, Choice]:
    """`choose_shot` as a generator: before each round of simulations it yields the shot
    actions that round will simulate (`Thinker.upcoming`), so the caller can simulate them
    beforehand; it returns the Choice. The session's simulations are what they would be
    without the yields."""
    search = thinker(session, level, n, seed)
    while not search.done:
        if search._advance():
            yield list(search.upcoming)
    choice = search.choice
    assert choice is not None
    if choice.action is None:
        pos = session.struck_position()
        choice.action = session.shot_action(pos, math.pi / 2, FALLBACK_SPEED * session.max_speed)
    return choice


def choose_option(session: Session) -> str:
    """The computer's answer to a pending choice: shoot or accept when it can. ValueError
    when no choice is pending (`session.pending()` is None)."""
    _check_session(session)
    pending = session.pending()
    if pending is None:
        raise ValueError(f"choose_option: no choice is pending; {session.shooter()} is to "
                         "shoot (choose_shot)")
    options = pending[2]
    for preferred in ("shoot", "accept", "spot_eight", "shoot_kitchen", "kitchen"):
        if preferred in options:
            return preferred
    return options[0]
