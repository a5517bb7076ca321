"""Article 3, the lag for the opening shot: both balls sent from the lag line to the top rail
and back, both moving before either reaches the top rail (a late start replays the lag, twice
loses it); a ball loses that touches the red or a pin, a long rail, or enters the opponent's
half; otherwise the ball that stops nearer the bottom rail wins. The winner chooses to break or
to give the break."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from cuesim.rules.fivepins.model import PINS, RED, article
from cuesim.rules.fivepins.placement import LONG_RAILS
from cuesim.rules.ruling import Infraction, Violation
from cuesim.sim.events import EventKind
from cuesim.sim.result import Event
from cuesim.sim.state import SEG_AX, SEG_OBJ, SEG_ON, SEG_T0, SEG_T1, SEG_VX, SEG_X
from cuesim.tables.carom import TABLE_WIDTH
from cuesim.tables.layout import Layout

EQUAL_DISTANCE = 1e-4  # m: stops this close count as the same distance from the bottom rail


@dataclass
class LagResult:
    winner: str | None = None  # the player who chooses to break or not
    replay: bool = False
    violations: list[Violation] = field(default_factory=list)
    losers: list[str] = field(default_factory=list)
    faults: dict[str, int] = field(default_factory=dict)  # late starts so far (per match)
    distances: dict[str, float] = field(default_factory=dict)  # centre to the bottom rail, m
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "replay": self.replay,
                "violations": [v.to_dict() for v in self.violations],
                "losers": list(self.losers), "faults": dict(self.faults),
                "distances": dict(self.distances), "notes": list(self.notes)}


def _first(events: list[Event], ball: str, kind: EventKind, feature: str | None = None
           ) -> float | None:
    for e in events:
        if e.kind == kind and e.a == ball and (feature is None or e.feature == feature):
            return e.t
    return None


def adjudicate_lag(events: list[Event], initial: Layout | None, final: Layout | None,
                   balls: dict[str, str], infractions: list[Infraction] | None = None,
                   faults: dict[str, int] | None = None, result: Any = None) -> LagResult:
    """Rule on the lag (3). `balls` maps each player to his ball; the log holds both strikes;
    `faults` counts each player's earlier late starts; `result`, the lag's simulation when
    there is one (`FivePinsShot.result`), lets the opponent's half be judged over each ball's
    whole path instead of where it stopped (`_crossed`)."""
    evs = sorted(events, key=lambda e: e.t)
    res = LagResult(faults=dict(faults or {p: 0 for p in balls}))
    infractions = list(infractions or [])

    def declared(code: str, player: str) -> bool:
        return any(i.code == code and (i.player == player or balls[player] in i.pieces)
                   for i in infractions)

    _check_strikes(evs, balls)
    # both balls moving before either reaches the top rail
    late = []
    for p, b in balls.items():
        other = balls[next(q for q in balls if q != p)]
        t_strike = _first(evs, b, EventKind.STRIKE)
        t_top = _first(evs, other, EventKind.RAIL, "top_rail")
        if declared("lag_late_start", p) or (
                t_top is not None and (t_strike is None or t_strike > t_top)):
            late.append(p)
    if late:
        for p in late:
            res.faults[p] = res.faults.get(p, 0) + 1
            res.violations.append(Violation(article("3"), f"{p}: the ball was not moving before "
                                            "the other reached the top rail", "lag"))
        twice = [p for p in late if res.faults[p] >= 2]
        if len(twice) == 1:
            res.losers = twice
            res.winner = next(q for q in balls if q != twice[0])
            res.notes.append(f"{twice[0]} broke the starting rule twice and loses the lag "
                             f"(5-pins 3)")
        else:
            res.replay = True
            res.notes.append("the lag is replayed (5-pins 3)")
        return res
    # the losing conditions
    for p, b in balls.items():
        reasons = []
        for e in evs:
            other = e.b if e.a == b else e.a  # a collide may name either piece first
            if e.kind == EventKind.COLLIDE and b in (e.a, e.b) and other == RED:
                reasons.append("touched the red ball")
            elif e.kind == EventKind.PIN and e.a == b and e.b in PINS:
                reasons.append(f"knocked the {e.b}")
            elif e.kind == EventKind.COLLIDE and b in (e.a, e.b) and other in PINS:
                reasons.append(f"touched the {other}")  # "... с фишками": felled or not
            elif e.kind == EventKind.RAIL and e.a == b and e.feature in LONG_RAILS:
                reasons.append(f"touched a long rail ({e.feature})")
        if declared("lag_crossed", p) or _crossed(initial, final, b, result):
            reasons.append("entered the opponent's half")
        if reasons:
            res.losers.append(p)
            res.violations.append(Violation(article("3"), f"{p}: " + "; ".join(
                dict.fromkeys(reasons)), "lag"))
    if len(res.losers) == 1:
        res.winner = next(q for q in balls if q != res.losers[0])
        return res
    if res.losers:
        res.replay = True
        res.notes.append("both balls broke a lag rule: the lag is replayed (5-pins 3)")
        return res
    touched = any(e.kind == EventKind.COLLIDE and {e.a, e.b} == set(balls.values())
                  for e in evs)
    if touched:
        res.replay = True
        res.notes.append("the balls met and the fault cannot be assigned: the lag is replayed "
                         "(5-pins 3)")
        return res
    if final is None:
        raise ValueError("the lag needs the final layout (where the balls stopped)")
    for p, b in balls.items():
        res.distances[p] = final.get(b).y
    (p1, d1), (p2, d2) = sorted(res.distances.items(), key=lambda kv: kv[1])
    if abs(d1 - d2) <= EQUAL_DISTANCE:
        res.replay = True
        res.notes.append("both balls stopped at the same distance: the lag is replayed "
                         "(5-pins 3)")
        return res
    res.winner = p1
    res.notes.append(f"{p1}'s ball ({balls[p1]}) stopped nearer the bottom rail (5-pins 3)")
    return res


def _check_strikes(events: list[Event], balls: dict[str, str]) -> None:
    """Refuse a lag log that cannot have happened: a ball that moves on its own (an event of
    its own before anything touched it) without being struck. A simulated lag strikes both
    balls: `run_motion(table, layout, motions, struck=(ball, ball))`."""
    for p, b in balls.items():
        if _first(events, b, EventKind.STRIKE) is not None:
            continue
        for e in events:
            if e.kind == EventKind.COLLIDE and b in (e.a, e.b):
                break  # set moving by the other ball: possible
            if e.a == b:
                raise ValueError(
                    f"lag: {p}'s ball {b!r} moves ({e.kind.name.lower()} at t = {e.t:g} s) "
                    "but the log has no strike of it (5-pins 3); a simulated lag strikes both "
                    "balls: run_motion(table, layout, motions, struck=(ball, ball))")


def _crossed(initial: Layout | None, final: Layout | None, ball: str, result: Any = None
             ) -> bool:
    """The ball's centre went over the long middle line (x = W / 2) into the other half: at
    any moment of its path when the lag's simulation is at hand (`result`: its exact
    segments, `_path_x_range`), a ball that came back included; from a log alone (which has
    no sensor on that line), where it stopped."""
    if initial is None or ball not in initial.ids():
        return False
    side = initial.get(ball).x - TABLE_WIDTH / 2
    span = _path_x_range(result, ball)
    if span is not None:
        low, high = span
        return (side < 0.0 and high > TABLE_WIDTH / 2) or (side > 0.0 and low < TABLE_WIDTH / 2)
    if final is None or ball not in final.ids():
        return False
    return side * (final.get(ball).x - TABLE_WIDTH / 2) < 0


def _path_x_range(result: Any, ball: str) -> tuple[float, float] | None:
    """(least, greatest) x of the ball's centre over its segments on the table, exactly
    (x = x0 + vx t + ax t^2 / 2 on each: its ends and its turning point); None without a
    simulation holding the ball."""
    segments = getattr(result, "segments", None)
    initial = getattr(result, "initial", None)
    if segments is None or initial is None or ball not in initial.ids():
        return None
    own = segments[(segments[:, SEG_OBJ] == initial.ids().index(ball)) & (segments[:, SEG_ON] != 0)]
    if len(own) == 0:
        return None
    xs = [float(x) for x in own[:, SEG_X]]
    for x, vx, ax, t0, t1 in own[:, [SEG_X, SEG_VX, SEG_AX, SEG_T0, SEG_T1]]:
        d = t1 - t0
        if not math.isfinite(d):  # the rest that ends the shot: it stays at x
            continue
        xs.append(x + d * (vx + 0.5 * d * ax))
        if ax != 0.0 and 0.0 < -vx / ax < d:
            xs.append(x - 0.5 * vx * vx / ax)
    return min(xs), max(xs)
