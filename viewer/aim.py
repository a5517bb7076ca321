"""The aim before a shot: what the simulator predicts it first touches, whether the referee
would call it a foul, a legal aim to open every turn with, and a place for the aim's label
that covers no piece."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pygame

from cuesim.rules.ruling import Ruling
from cuesim.shot import ShotError
from cuesim.sim.engine import SimulationError
from cuesim.sim.events import EventKind
from cuesim.tables.layout import LayoutError
from cuesim.viewer.session import Session

# angles (rad) tried either side of the direction to each target, nearest first, for a
# legal opening aim; and the power fractions tried with each
AIM_OFFSETS = (0.0, 0.03, 0.06, 0.1, 0.15, 0.22, 0.3, 0.4, 0.55, 0.75)
AIM_POWERS = (0.5, 0.8, 0.3)
REFUSED = (ShotError, LayoutError, SimulationError, ValueError)


@dataclass
class Prediction:
    """The struck piece's path to its first contact, where it is then (the ghost), what it
    touches (words), the touched piece's path just after, and the referee's ruling on the
    whole shot (None when it cannot be played)."""

    path: list[tuple[float, float]] = field(default_factory=list)
    ghost: tuple[float, float] | None = None
    hit: str = ""
    after: list[tuple[float, float]] = field(default_factory=list)
    ruling: Ruling | None = None


def feature_words(feature: str) -> str:
    """A cushion's name in words: 'foot_rail' -> 'foot rail', 'east' -> 'east rail', a pocket's
    jaw or knuckle ('foot_left_jaw_a', 'foot_left_knuckle_b') -> 'foot left pocket's jaw'."""
    for part in ("jaw", "knuckle"):
        head, sep, _ = feature.partition(f"_{part}")
        if sep:
            return f"{head.replace('_', ' ')} pocket's {part}"
    name = feature.replace("_", " ")
    return name if "rail" in name else f"{name} rail".strip()


def contact_words(session: Session, kind: EventKind, other: str | None,
                  feature: str | None) -> str:
    if kind == EventKind.COLLIDE and other is not None:
        if other.isdigit():
            return f"First contact: ball {other}."
        if other.startswith("pin_"):
            return f"First contact: the {other[4:]} pin."
        piece = session.layout().get(other) if other in session.layout().ids() else None
        if piece is not None and piece.kind == "puck":
            return f"First contact: a {piece.group} puck."
        return f"First contact: the {other} ball."
    if kind == EventKind.PIN and other is not None:
        return f"First contact: the {other[4:]} pin." if other.startswith("pin_") else \
            f"First contact: {other}."
    if kind == EventKind.RAIL:
        return f"First contact: the {feature_words(feature or '')}."
    return f"Into the {(feature or 'hole').replace('_', ' ')}."


def predict(session: Session, action: dict[str, Any]) -> Prediction:
    """Simulate the action on the current table, and rule on it on a copy of the referee."""
    try:
        result = session.simulate(action)
        ruling = session.judge(result, action)
    except REFUSED:
        return Prediction()
    struck = session.struck_id()
    ids = result.initial.ids()
    k = ids.index(struck)
    hit, t_hit, other = "", result.duration, None
    for e in result.event_log():
        if struck in (e.a, e.b) and e.kind in (EventKind.COLLIDE, EventKind.RAIL,
                                               EventKind.POCKET, EventKind.PIN):
            t_hit = e.t
            if e.kind == EventKind.COLLIDE:
                other = e.b if e.a == struck else e.a
            elif e.kind == EventKind.PIN:
                other = e.b
            hit = contact_words(session, e.kind, other, e.feature)
            break
    path = [tuple(result.positions_at(t_hit * j / 24)[0][k]) for j in range(25)]
    after: list[tuple[float, float]] = []
    if other is not None and other in ids:
        j = ids.index(other)
        after = [tuple(result.positions_at(t_hit + 0.05 * m)[0][j]) for m in range(12)]
    return Prediction([(float(x), float(y)) for x, y in path], path[-1] if hit else None, hit,
                      [(float(x), float(y)) for x, y in after], ruling)


def opening_directions(session: Session, pos: tuple[float, float]) -> list[float]:
    """Directions worth trying first from `pos`: straight at each of the shooter's pieces, then
    off one cushion at each (at its mirror images, `Session.kick_points`), then straight ahead.
    The banks find the legal shots when every direct line is blocked (the 5-pins opening, where
    the pins stand between the balls)."""
    layout = session.layout()
    aims = [(p.x, p.y) for p in (layout.get(pid) for pid in session.pieces_of(session.shooter())
                                 if pid in layout.ids())]
    banks = [mirror for at in aims for mirror in session.kick_points(at)]
    return [math.atan2(y - pos[1], x - pos[0]) for x, y in aims + banks
            if math.hypot(x - pos[0], y - pos[1]) > 1e-9] + [math.pi / 2]


def legal_opening(session: Session, pos: tuple[float, float], max_tries: int = 60
                  ) -> tuple[float, float] | None:
    """(angle, power fraction) of a shot from `pos` the referee rules legal, the directions of
    `opening_directions` tried in turn at each offset, nearest first; None if none of the tries
    is legal."""
    bases = opening_directions(session, pos)
    tries = 0
    for power in AIM_POWERS:
        for off in AIM_OFFSETS:
            for base in bases:
                for angle in ((base,) if off == 0 else (base + off, base - off)):
                    if tries >= max_tries:
                        return None
                    tries += 1
                    action = session.shot_action(pos, angle, power * session.max_speed)
                    try:
                        result = session.simulate(action)
                        ruling = session.judge(result, action)
                    except REFUSED:
                        continue
                    if ruling.legal:
                        return angle, power
    return None


# the rings (pixels from the anchor) and the places on each where a label is tried
LABEL_RINGS = (16, 28, 44, 64, 90, 120, 160, 210, 270)
LABEL_PLACES_PER_RING = 16


def label_place(text_size: tuple[int, int], anchor: tuple[float, float],
                circles: Sequence[tuple[float, float, float]], bounds: pygame.Rect,
                avoid: Sequence[pygame.Rect] = ()) -> tuple[int, int]:
    """The top-left corner for a label near `anchor` that covers none of the `circles`
    (x, y, r in pixels: a rect covers one when its nearest point is within r + 3 of the
    centre) nor the `avoid` rects and stays inside `bounds`: the nearest free place on rings
    around the anchor, else the free place nearest the anchor anywhere. A ring's places are
    tested against every circle at once (NumPy): the aim line's path adds a circle every few
    pixels, and testing them one by one in Python took 6 ms a frame."""
    w, h = text_size
    avoid = list(avoid)
    xyr = np.asarray(circles, dtype=float).reshape(-1, 3)
    best: tuple[float, tuple[int, int]] | None = None
    for ring in LABEL_RINGS:
        places = []
        for k in range(LABEL_PLACES_PER_RING):
            a = 2 * math.pi * k / LABEL_PLACES_PER_RING
            cx = anchor[0] + ring * math.cos(a)
            cy = anchor[1] + ring * math.sin(a)
            rect = pygame.Rect(round(cx - w / 2), round(cy - h / 2), w, h)
            if bounds.contains(rect) and rect.collidelist(avoid) < 0:
                places.append((cx, cy, rect))
        covered = _covers([rect for _, _, rect in places], xyr)
        for (cx, cy, rect), hit in zip(places, covered, strict=True):
            if hit:
                continue
            d = math.hypot(cx - anchor[0], cy - anchor[1])
            if best is None or d < best[0]:
                best = (d, rect.topleft)
        if best is not None:
            return best[1]
    x = min(max(bounds.left, round(anchor[0] + 12)), bounds.right - w)
    return x, min(max(bounds.top, round(anchor[1] - h - 12)), bounds.bottom - h)


def _covers(rects: list[pygame.Rect], xyr: np.ndarray) -> list[bool]:
    """For each rect, whether it covers any circle (rows x, y, r): the rect's point nearest a
    centre lies within r + 3 of it."""
    if not rects or not len(xyr):
        return [False] * len(rects)
    box = np.array([(r.left, r.top, r.right, r.bottom) for r in rects], dtype=float)
    x, y, rad = xyr[:, 0], xyr[:, 1], xyr[:, 2]
    nx = np.minimum(np.maximum(x[None, :], box[:, :1]), box[:, 2:3])
    ny = np.minimum(np.maximum(y[None, :], box[:, 1:2]), box[:, 3:4])
    return (np.hypot(nx - x, ny - y) < rad + 3).any(axis=1).tolist()
