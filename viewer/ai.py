"""The computer player: it makes a few hundred candidate shots (straight-in and cut shots at
its pieces toward every pocket or hole, direct hits at different fullnesses, random ones),
simulates each with the real simulator, rules each on a copy of the referee, and keeps the
shot whose ruling is best for it (won frame > keeps the turn > a legal miss > a foul).

The candidates are plain `simulate` calls on the current table: each needs the live game
state (ball in hand, groups, debt) for its ruling, which a fresh batch referee does not have.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from cuesim.rules.ruling import Ruling
from cuesim.shot import ShotError
from cuesim.sim.engine import SimulationError
from cuesim.sim.result import ShotResult
from cuesim.tables.layout import LayoutError
from cuesim.viewer.session import Session


@dataclass
class Choice:
    action: dict[str, Any]
    score: float
    ruling: Ruling
    tried: int


def score(session: Session, player: str, result: ShotResult, ruling: Ruling, ref: Any) -> float:
    """How good a ruling is for `player` (higher is better)."""
    s = 0.0
    if ruling.match_over or ruling.frame_over:
        if ruling.winner is not None:
            won = ruling.winner == player or player in str(ruling.winner).split(" & ")
            s += 1000.0 if won else -1000.0
    if not ruling.legal:
        s -= 60.0 + 20.0 * len(ruling.violations)
    if not ruling.turn_passes and ruling.next_player == player:
        s += 100.0
    pocketed = [p for p in result.pocketed if p != session.struck_id()]
    mine = set(session.pieces_of(player))
    s += 12.0 * sum(1 for p in pocketed if p in mine) + 3.0 * len(pocketed)
    s += 5.0 * ruling.points.get(player, 0)
    for other, pts in ruling.points.items():
        if other != player:
            s -= 5.0 * pts
    if session.game == "5-pins" and isinstance(session.ref, dict):  # no referee: pins
        from cuesim.sim.events import EventKind

        own = session.struck_id()
        for e in result.event_log():
            if e.kind == EventKind.PIN:
                s += -15.0 if e.a == own else 10.0
    return s


def _angle(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.atan2(b[1] - a[1], b[0] - a[0])


def candidates(session: Session, n: int, rng: np.random.Generator) -> list[dict[str, Any]]:
    """About n shot actions for the player to shoot."""
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
    speeds = (0.35, 0.6, 0.9) if session.game.startswith("novus") else (0.25, 0.45, 0.75)
    out: list[dict[str, Any]] = []
    breaking = session.game in ("8-ball", "9-ball", "14.1") and session.ref.state.phase == "break"
    for pos in spots:
        angles: list[float] = []
        for p in mine:
            r = session.table.piece_spec(p.kind).radius
            for hx, hy in targets:  # cut the piece toward the pocket
                d = _angle((p.x, p.y), (hx, hy))
                ghost = (p.x - (r + r0) * math.cos(d), p.y - (r + r0) * math.sin(d))
                angles.append(_angle(pos, ghost))
            direct = _angle(pos, (p.x, p.y))
            half = math.asin(min(1.0, (r + r0) / max(math.dist(pos, (p.x, p.y)), 1e-6)))
            angles += [direct + f * half for f in (-0.6, -0.3, 0.0, 0.3, 0.6)]
        for a in angles:
            for f in speeds:
                out.append(session.shot_action(pos, a, f * session.max_speed))
    if breaking:
        out = [session.shot_action(spots[0], a["angle"], 0.95 * session.max_speed)
               for a in out[: max(1, n // 4)]]
    while len(out) < n:
        pos = spots[int(rng.integers(len(spots)))]
        out.append(session.shot_action(pos, float(rng.uniform(-math.pi, math.pi)),
                                       float(rng.uniform(0.15, 0.8)) * session.max_speed))
    if len(out) > n:
        keep = rng.choice(len(out), size=n, replace=False)
        out = [out[int(k)] for k in sorted(keep)]
    return out


def choose_shot(session: Session, n: int = 300, seed: int = 0) -> Choice:
    """The best of about n simulated candidates by the referee's outcome."""
    rng = np.random.default_rng(seed + len(session.actions))
    player = session.shooter()
    best: Choice | None = None
    tried = 0
    for action in candidates(session, n, rng):
        decl = _declaration_for(session, action)
        if decl:
            action["declaration"] = decl
        try:
            result, ruling, ref = session.trial(action)
        except (ShotError, LayoutError, SimulationError, ValueError):
            continue
        tried += 1
        s = score(session, player, result, ruling, ref) + float(rng.uniform(0.0, 0.5))
        if best is None or s > best.score:
            best = Choice(action, s, ruling, tried)
    if best is None:  # nothing could be played: a gentle shot straight ahead
        pos = session.struck_position()
        action = session.shot_action(pos, math.pi / 2, 0.3 * session.max_speed)
        return Choice(action, -math.inf, Ruling(legal=False), tried)
    best.tried = tried
    return best


def _declaration_for(session: Session, action: dict[str, Any]) -> dict[str, Any]:
    """14.1 needs a called ball and pocket: call the piece and pocket the aim was built for
    (the nearest object ball to the aim line's far end and the nearest pocket to it)."""
    if session.game != "14.1" or session.ref.state.phase == "break":
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


def choose_option(session: Session) -> str:
    """The computer's answer to a pending choice: shoot or accept when it can."""
    pending = session.pending()
    assert pending is not None
    options = pending[2]
    for preferred in ("shoot", "accept", "spot_eight", "shoot_kitchen", "kitchen"):
        if preferred in options:
            return preferred
    return options[0]
