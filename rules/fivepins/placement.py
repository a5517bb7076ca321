"""Where the balls and pins go between shots: halves of the table and ball in hand (4.1, 4.2,
13.2-13.5), balls in contact (10.1, 10.2) and the referee's reset (10.4), balls off the table
put back (11.3), pins set up again and pins removed while a ball covers their mark (12.4,
12.7), and the opening position (4.1)."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from typing import Any

from cuesim.rules.fivepins.model import CENTRE_PIN, PINS, RED, TABLE, article
from cuesim.tables.carom import (
    BALL_RADIUS,
    SPOTS,
    TABLE_LENGTH,
    TABLE_WIDTH,
    carom_table,
    pin_spots,
)
from cuesim.tables.layout import Layout, Piece

HALF_Y = TABLE_LENGTH / 2  # the middle line (1.5)
ON_LINE_TOLERANCE = 0.001  # m: a ball whose centre is this close to the middle line is "exactly
#                            on" it (13.4)
CONTACT_TOLERANCE = 1e-4  # m: balls or a ball and a cushion closer than this are in contact (10)
SPOT_TOLERANCE = 0.001  # m: a ball this close to a spot stands on it (4.1)
PLACE_EPS = 1e-9
RAILS = ("bottom_rail", "right_rail", "top_rail", "left_rail")
LONG_RAILS = ("left_rail", "right_rail")


def half_of(y: float) -> str | None:
    """'bottom_half' or 'top_half' by the ball's centre; None when exactly on the middle line."""
    if abs(y - HALF_Y) <= ON_LINE_TOLERANCE:
        return None
    return "bottom_half" if y < HALF_Y else "top_half"


def opposite(half: str) -> str:
    return "top_half" if half == "bottom_half" else "bottom_half"


def wholly_in(half: str, y: float) -> bool:
    """No part of the ball crosses the middle line (4.2, 13.3)."""
    if half == "bottom_half":
        return y + BALL_RADIUS <= HALF_Y + PLACE_EPS
    return y - BALL_RADIUS >= HALF_Y - PLACE_EPS


def in_hand_half(layout: Layout | None, offender_ball: str) -> tuple[str, str]:
    """(half, article) for the incoming player's ball in hand: the half opposite the offender's
    ball (13.2), the bottom half as at the opening when that ball is exactly on the middle
    line (13.4)."""
    if layout is None or offender_ball not in layout.ids():
        return "bottom_half", article("13.4")
    half = half_of(layout.get(offender_ball).y)
    if half is None:
        return "bottom_half", article("13.4")
    return opposite(half), article("13.2")


def in_hand_citation(half_article: str) -> str:
    """The articles a ball in hand after a foul is cited with, in the ruling that gives it and
    on the viewer's panel alike: the one that puts it in its half (13.2: opposite the
    offender's ball; 13.4: the bottom half; 13.5: away from the offender's ball put on its
    spot) and 13.3 (placed with the cue, wholly inside that half): '5-pins 13.2, 13.3'."""
    numbers = {half_article.split(" ")[-1], "13.3"}  # '5-pins 13.2' -> '13.2'
    ordered = sorted(numbers, key=lambda n: [int(k) if k.isdigit() else 0 for k in n.split(".")])
    return article(", ".join(ordered))


def balls_in_contact(layout: Layout | None, ball: str) -> set[str]:
    """The balls and cushions the ball touches in the layout (10.1, 10.2)."""
    if layout is None or ball not in layout.ids():
        return set()
    p = layout.get(ball)
    out = set()
    for q in layout.pieces:
        if q.id != p.id and q.kind == "ball":
            if math.hypot(q.x - p.x, q.y - p.y) <= 2 * BALL_RADIUS + CONTACT_TOLERANCE:
                out.add(q.id)
    gaps = {"left_rail": p.x, "right_rail": TABLE_WIDTH - p.x, "bottom_rail": p.y,
            "top_rail": TABLE_LENGTH - p.y}
    out |= {rail for rail, gap in gaps.items() if gap - BALL_RADIUS <= CONTACT_TOLERANCE}
    return out


def occupied_by(layout: Layout, xy: tuple[float, float], ignore: Iterable[str] = ()) -> str | None:
    """The ball that occupies or covers a spot: one a ball placed there would touch."""
    skip = set(ignore)
    for q in layout.pieces:
        if q.kind == "ball" and q.id not in skip:
            if math.hypot(q.x - xy[0], q.y - xy[1]) < 2 * BALL_RADIUS + PLACE_EPS:
                return q.id
    return None


def put_ball(layout: Layout, ball: str, spots: list[str], art: str,
             group: str | None = None, ignore: Iterable[str] = ()
             ) -> tuple[Layout, dict[str, Any]]:
    """Place the ball on the first free spot of the list (the last one if none is free); the
    balls in `ignore` (about to be taken off the table) do not occupy a spot."""
    chosen = spots[-1]
    for name in spots:
        if occupied_by(layout, SPOTS[name], ignore=[ball, *ignore]) is None:
            chosen = name
            break
    x, y = SPOTS[chosen]
    piece = Piece(ball, "ball", x, y, group if group is not None else ball)
    layout = layout.with_piece(piece)
    return layout, {"id": ball, "x": x, "y": y, "spot": chosen, "article": art}


def spot_of_half(half: str) -> str:
    return "bottom_spot" if half == "bottom_half" else "top_spot"


def spot_for_offender(layout: Layout, offender_ball: str) -> tuple[str, str]:
    """13.5: (spot, half for the incoming ball): the top spot by the top short rail, or the
    bottom spot when the red occupies the top spot; the incoming ball then goes in the other
    half."""
    if occupied_by(layout, SPOTS["top_spot"], ignore=[offender_ball]) is None:
        return "top_spot", "bottom_half"
    return "bottom_spot", "top_half"


@functools.cache
def _ball_pin_reach() -> float:
    """Centre distance at which a ball touches a standing pin (the match table's shapes)."""
    return carom_table().contact_distance("ball", "pin")


def covered_marks(layout: Layout) -> set[str]:
    """The pins whose mark a ball of the layout covers wholly or partly (12.7: a pin on it
    would touch the ball)."""
    reach = _ball_pin_reach()
    balls = [p for p in layout.pieces if p.kind == "ball"]
    return {pid for pid, (x, y) in pin_spots().items()
            if any(math.hypot(b.x - x, b.y - y) <= reach + CONTACT_TOLERANCE for b in balls)}


def reset_pins(layout: Layout, before: Layout | None = None, moved: Iterable[str] = (),
               knocked: Iterable[str] = ()) -> tuple[Layout, list[dict[str, Any]], list[str]]:
    """Set every pin back on its mark (knocked pins 12.1, pins moved but standing 12.4: by the
    shot, `moved`, or by a hand, 15.3.к) except the pins
    whose mark a ball occupies wholly or partly: those are removed until the mark is free
    (12.7). "Partly occupied" = a pin on its mark would touch the ball. Returns the layout,
    the pins put back on their marks and the pins removed."""
    reach = _ball_pin_reach()
    moved = set(moved)
    knocked = set(knocked)
    balls = [p for p in layout.pieces if p.kind == "ball"]
    out = list(balls)
    spotted, removed = [], []
    standing = {p.id: p for p in layout.pieces if p.kind == "pin"}
    had = set(before.ids()) if before is not None else set(PINS)
    for pid, (x, y) in pin_spots().items():
        if any(math.hypot(b.x - x, b.y - y) <= reach + CONTACT_TOLERANCE for b in balls):
            removed.append(pid)
            continue
        out.append(Piece(pid, "pin", x, y, "red" if pid == CENTRE_PIN else "white"))
        p = standing.get(pid)
        if pid not in had:
            spotted.append({"id": pid, "x": x, "y": y, "article": article("12.7")})
        elif (p is None or math.hypot(p.x - x, p.y - y) > 1e-9 or pid in moved
              or pid in knocked):
            # only moved off its mark (12.4: by the shot, as the referee judges, or by a hand,
            # 15.3.к), else knocked down (12.1)
            moved_only = pid in moved or (p is not None and pid not in knocked)
            art = article("12.4") if moved_only else article("12.1")
            spotted.append({"id": pid, "x": x, "y": y, "article": art})
    return Layout(TABLE, tuple(out)), spotted, removed


def touched_pins(touched: Iterable[str], initial: Layout | None, final: Layout | None
                 ) -> tuple[list[str], list[str]]:
    """(moved, only_hit): of the pins a shot touched but left standing, those whose base slid
    off its place (12.4: set back before the next shot) and those that only rocked on it
    (12.5). Exact comparison of the simulated positions: a pin that only rocked is not moved
    by the physics at all."""
    moved, hit = [], []
    for pid in touched:
        a = initial.get(pid) if initial is not None and pid in initial.ids() else None
        b = final.get(pid) if final is not None and pid in final.ids() else None
        if a is not None and b is not None and (a.x, a.y) != (b.x, b.y):
            moved.append(pid)
        else:
            hit.append(pid)
    return moved, hit


def opening_layout(opponent_ball: str, breaker_ball: str | None = None,
                   breaker_xy: tuple[float, float] | None = None) -> Layout:
    """The opening position (4.1): the opponent's ball on the top spot, the red on its spot,
    the pins on their marks; the breaker's ball in hand in the bottom half unless its place is
    given."""
    pieces = [Piece(opponent_ball, "ball", *SPOTS["top_spot"], opponent_ball),
              Piece(RED, "ball", *SPOTS["red_spot"], RED)]
    if breaker_ball is not None and breaker_xy is not None:
        pieces.append(Piece(breaker_ball, "ball", float(breaker_xy[0]), float(breaker_xy[1]),
                            breaker_ball))
    layout, _, _ = reset_pins(Layout(TABLE, tuple(pieces)))
    return layout


def check_opening(layout: Layout, opponent_ball: str) -> None:
    """4.1 б, в: the opponent's ball on the top spot, the red on the red spot (a ValueError
    otherwise: the referee sets them)."""
    for ball, spot in ((opponent_ball, "top_spot"), (RED, "red_spot")):
        if ball not in layout.ids():
            raise ValueError(f"opening position (5-pins 4.1): the {ball} ball is missing")
        p = layout.get(ball)
        sx, sy = SPOTS[spot]
        if math.hypot(p.x - sx, p.y - sy) > SPOT_TOLERANCE:
            raise ValueError(f"opening position (5-pins 4.1): the {ball} ball must stand on the "
                             f"{spot} ({sx:.3f}, {sy:.3f}), not at ({p.x:.3f}, {p.y:.3f})")


def put_back_off_table(layout: Layout, off: list[str], offender_ball: str,
                       incoming_ball: str, incoming_in_hand: bool = True
                       ) -> tuple[Layout, list[dict[str, Any]]]:
    """11.3: balls that left the table. The red goes on the red spot (11.3 в); the offender's
    ball on the spot by the short rail opposite the half of the incoming player's ball (11.3 а);
    a spot that a ball occupies gives way to the spot of that ball (the red's spot for the red,
    the top / bottom spot for a player's ball). The incoming player's ball is in hand anyway
    (11.3 б): it is left out, and where it lies occupies no spot of the red's or the
    offender's ball (13.2: the referee takes it in hand) unless `incoming_in_hand` is False (the
    shot ended the game)."""
    spotted = []
    layout = layout.without(off, missing_ok=True)
    if RED in off:
        layout, s = put_ball(layout, RED, ["red_spot", "top_spot", "bottom_spot"],
                             article("11.3.в"),
                             ignore=[incoming_ball] if incoming_in_hand else [])
        spotted.append(s)
    if offender_ball in off:
        inc = layout.get(incoming_ball) if incoming_ball in layout.ids() else None
        inc_half = half_of(inc.y) if inc is not None else None
        first = "bottom_spot" if inc_half == "top_half" else "top_spot"
        if inc_half is None and inc is not None:
            first = "top_spot"
        other = "top_spot" if first == "bottom_spot" else "bottom_spot"
        order = [first]
        in_hand = [incoming_ball] if incoming_in_hand else []  # it covers no spot (13.2)
        blocker = occupied_by(layout, SPOTS[first], ignore=[offender_ball, *in_hand])
        if blocker == RED:
            order.append("red_spot")
        order += [other, "lag_spot", "red_spot"]
        layout, s = put_ball(layout, offender_ball, order, article("11.3.а"), ignore=in_hand)
        spotted.append(s)
    return layout, spotted
