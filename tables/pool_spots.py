"""Pool table marks the WPA referee needs: the strings, the spots, the rack outlines and ball
spotting on the long string (WPA 3.32).

Sources: WPA Equipment Specifications (9-ft table, balls) and the WPA rulebook
`pool_wpa_ru.txt` (1.5 table markings, 3.16 head string, 3.32 spotting, 4.3 / 5.2 / 6.4 racks).

Every mark follows the size of the table it is on (WPA 1.5, 3.16, 3.32: the strings and spots
are set by the diamonds, the head string a quarter of the playing length from the head rail,
the foot spot a quarter from the foot rail, the long string along the middle): `PoolMarks`
holds them for one playing surface, and `marks_for('pool_7ft')` gives those of a table by
name (its size from `cuesim.tables.pool.PLAYING_SURFACES`). The module constants and the
functions without a `marks` argument are the 9-ft table's (`NINE_FOOT`).
Frame: metres, origin at the corner of the playing surface at the head rail on the left of a
player standing behind the head rail; x to his right (across the table), y from the head rail
toward the foot rail. Positions are ball centres; WPA 3.12 places a ball where its base
(= its centre, seen from above) rests.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

# --- Table and balls (WPA Equipment Specifications) -----------------------------------------
PLAYING_LENGTH = 2.540  # m, 9-ft table playing surface 100 in (254 cm) between cushion noses
PLAYING_WIDTH = 1.270  # m, 50 in (127 cm); the surface is twice as long as wide
BALL_DIAMETER = 0.05715  # m, 2 1/4 in (57.15 mm), WPA ball specification
BALL_RADIUS = BALL_DIAMETER / 2

# --- Strings and spots (WPA Equipment Specifications; rulebook 1.5, 3.16) --------------------
# The head string joins the second diamonds from the head rail: a quarter of the length.
HEAD_STRING_Y = PLAYING_LENGTH / 4  # m (0.635)
HEAD_SPOT = (PLAYING_WIDTH / 2, PLAYING_LENGTH / 4)  # middle of the head string
CENTER_SPOT = (PLAYING_WIDTH / 2, PLAYING_LENGTH / 2)  # middle of the table
# The foot spot is the middle of the foot string (second diamonds from the foot rail).
FOOT_SPOT = (PLAYING_WIDTH / 2, 3 * PLAYING_LENGTH / 4)  # (0.635, 1.905)
# The long string runs along the middle of the table from the foot spot to the foot rail
# (1.5 (2), 3.32); its extension "in front of" the foot spot runs toward the centre spot.
LONG_STRING_X = PLAYING_WIDTH / 2

# --- Tolerances (choices of this referee, not WPA numbers) ---------------------------------
FROZEN_TOLERANCE = 1.0e-4  # m: two balls (or a ball and a cushion) closer than this are frozen
SPOT_GAP_TO_CUE = 1.0e-3  # m: 3.32 spots "as close as possible but not frozen" to the cue ball
SIMULTANEOUS_S = 1.0e-6  # s: contacts this close in time are "simultaneous" (2.10, 1.16.4)

# --- Pockets, cushions and sensor lines: the names the event log uses ----------------------
def pocket_positions(length: float, width: float) -> dict[str, tuple[float, float]]:
    """The six pockets' names and their corners of the playing surface (length x width)."""
    return {
        "head_left": (0.0, 0.0),
        "head_right": (width, 0.0),
        "side_left": (0.0, length / 2),
        "side_right": (width, length / 2),
        "foot_left": (0.0, length),
        "foot_right": (width, length),
    }


POCKETS: dict[str, tuple[float, float]] = pocket_positions(PLAYING_LENGTH, PLAYING_WIDTH)
# The six cushions, each attached to one of the four rails of the table (3.38 counts rails).
CUSHION_RAIL: dict[str, str] = {
    "head_rail": "head",
    "foot_rail": "foot",
    "left_head_rail": "left",
    "left_foot_rail": "left",
    "right_head_rail": "right",
    "right_foot_rail": "right",
}
HEAD_STRING_LINE = "head_string"  # LINE sensor at y = HEAD_STRING_Y; +1 = toward the foot rail
LONG_STRING_LINE = "long_string"  # LINE sensor at x = LONG_STRING_X (lag 3.6 (a))


def cushion_of(feature: str) -> str:
    """The cushion a rail, jaw or knuckle name belongs to ('foot_left_jaw_b' ->
    'left_foot_rail'): a corner pocket's jaw a is on the short rail and b on the long one, a
    side pocket's a is on the head-side cushion and b on the foot-side one."""
    if feature in CUSHION_RAIL:
        return feature
    for pocket in POCKETS:
        if feature.startswith(pocket + "_"):
            end, side = pocket.split("_")
            letter = feature.rsplit("_", 1)[-1]
            if letter not in ("a", "b"):
                break
            if end == "side":
                return f"{side}_{'head' if letter == 'a' else 'foot'}_rail"
            return f"{end}_rail" if letter == "a" else f"{side}_{end}_rail"
    raise ValueError(f"{feature!r} is no cushion, jaw or knuckle of a pool table")


def rail_of(cushion: str) -> str:
    """The table rail ('head', 'foot', 'left', 'right') a cushion, jaw or knuckle belongs to.

    Known cushion, jaw and knuckle names map through cushion_of; other names (hand-written
    logs) are read by their prefix ('left_...', 'foot_...'); a name with no known prefix is its
    own rail."""
    try:
        return CUSHION_RAIL[cushion_of(cushion)]
    except ValueError:
        pass
    for side in ("head", "foot", "left", "right"):
        if cushion.startswith(side):
            return side
    return cushion


# --- The marks of a table of any size (WPA 1.5, 3.16, 3.32) --------------------------------
NINE_FOOT_TABLE = "pool_9ft"  # the table the module constants describe
ROW_PITCH = BALL_DIAMETER * math.sqrt(3) / 2  # distance between rows of touching balls (racks)


@dataclass(frozen=True)
class PoolMarks:
    """The marks of one pool table, from its playing surface (length x width between the
    cushion noses, m): the head string a quarter of the length from the head rail (3.16), the
    head, centre and foot spots on the middle of the table (the foot spot the middle of the foot
    string, a quarter of the length from the foot rail, 1.5, 3.32), the long string, the pocket
    positions, and the rack outlines built on the foot spot (3.2, 4.3, 5.2, 6.4). The balls are
    the same on every size (WPA ball specification: BALL_DIAMETER)."""

    length: float
    width: float
    head_string_y: float = field(init=False)
    head_spot: tuple[float, float] = field(init=False)
    center_spot: tuple[float, float] = field(init=False)
    foot_spot: tuple[float, float] = field(init=False)
    long_string_x: float = field(init=False)
    pockets: dict[str, tuple[float, float]] = field(init=False, repr=False, compare=False,
                                                    hash=False)
    rack_edges: tuple[tuple[float, float, float], ...] = field(init=False, repr=False,
                                                               compare=False, hash=False)

    def __post_init__(self) -> None:
        length, width = float(self.length), float(self.width)
        if not (math.isfinite(length) and math.isfinite(width)) or length <= 0 or width <= 0:
            raise ValueError(f"a pool table's playing surface must be positive, got "
                             f"{length} x {width} m")
        values = {
            "length": length,
            "width": width,
            "head_string_y": length / 4,
            "head_spot": (width / 2, length / 4),
            "center_spot": (width / 2, length / 2),
            "foot_spot": (width / 2, 3 * length / 4),
            "long_string_x": width / 2,
            "pockets": pocket_positions(length, width),
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "rack_edges", _triangle_edges(self.triangle_positions(5)))

    # -- strings, rails ----------------------------------------------------------------------
    def rail_distance(self, x: float, y: float) -> dict[str, float]:
        """Distance from a ball centre to each rail's cushion nose line (m)."""
        return {"head": y, "foot": self.length - y, "left": x, "right": self.width - x}

    def in_kitchen(self, y: float) -> bool:
        """Behind the head string (the kitchen). The string itself is not part of it (3.16)."""
        return y < self.head_string_y

    # -- racks (3.2, 4.3, 5.2, 6.4) -----------------------------------------------------------
    def triangle_positions(self, rows: int = 5) -> list[tuple[float, float]]:
        """Centres of a tight triangle rack with the apex ball on the foot spot (3.2), row by
        row toward the foot rail, left to right within a row."""
        fx, fy = self.foot_spot
        out = []
        for k in range(rows):
            for j in range(k + 1):
                out.append((fx + (j - k / 2) * BALL_DIAMETER, fy + k * ROW_PITCH))
        return out

    def diamond_positions(self) -> list[tuple[float, float]]:
        """Centres of the 9-ball diamond (5.2): rows of 1, 2, 3, 2, 1 with the apex on the foot
        spot; index 0 is the apex (the 1) and index 4 the centre (the 9)."""
        fx, fy = self.foot_spot
        out = []
        for k, n in enumerate((1, 2, 3, 2, 1)):
            for j in range(n):
                out.append((fx + (j - (n - 1) / 2) * BALL_DIAMETER, fy + k * ROW_PITCH))
        return out

    def in_rack_area(self, x: float, y: float) -> bool:
        """The ball would be in the way of a 15-ball triangle lowered onto the table (6.7.3,
        6.7.6): its disc reaches into the triangle of the rack's outer ball outlines, taken as
        the triangle of centres pushed out by one ball radius on every side (sharp corners)."""
        worst = max(nx * x + ny * y - c for nx, ny, c in self.rack_edges)
        return worst < BALL_DIAMETER - FROZEN_TOLERANCE

    # -- spotting balls on the long string (3.32) ------------------------------------------
    def _clear(self, y: float, others: Sequence[tuple[str, float, float]], cue_id: str) -> bool:
        for oid, ox, oy in others:
            gap = BALL_DIAMETER + (SPOT_GAP_TO_CUE if oid == cue_id else 0.0)
            if math.hypot(ox - self.long_string_x, oy - y) < gap - 1e-9:
                return False
        return True

    def _candidates(self, others: Sequence[tuple[str, float, float]],
                    cue_id: str) -> list[float]:
        ys = [self.foot_spot[1]]
        for oid, ox, oy in others:
            gap = BALL_DIAMETER + (SPOT_GAP_TO_CUE if oid == cue_id else 0.0)
            dx = abs(ox - self.long_string_x)
            if dx < gap:
                h = math.sqrt(gap * gap - dx * dx)
                ys += [oy + h, oy - h]
        return ys

    def spot_balls(self, ball_ids: Iterable[str], others: Iterable[tuple[str, float, float]],
                   cue_id: str = "cue") -> list[tuple[str, float, float]]:
        """Places balls on this table's long string by 3.32 and returns (id, x, y) for each.

        Lowest number first; the first free place nearest the foot spot on the long string
        toward the foot rail, frozen against object balls in the way but kept SPOT_GAP_TO_CUE
        off the cue ball; when the long string behind the foot spot has no room, the ball goes
        on its extension in front of the foot spot, as near the foot spot as possible (so the
        lowest number ends nearest the foot spot). `others` are the balls at rest on the
        table."""
        placed: list[tuple[str, float, float]] = []
        table = list(others)
        foot_y = self.foot_spot[1]
        max_y = self.length - BALL_RADIUS
        min_y = BALL_RADIUS
        for bid in sorted(ball_ids, key=_ball_order):
            cands = self._candidates(table, cue_id)
            behind = sorted(y for y in cands if foot_y - 1e-12 <= y <= max_y)
            front = sorted((y for y in cands if min_y <= y < foot_y), reverse=True)
            y_spot = next((y for y in behind if self._clear(y, table, cue_id)), None)
            if y_spot is None:
                y_spot = next((y for y in front if self._clear(y, table, cue_id)), None)
            if y_spot is None:
                raise ValueError(f"no room on the long string to spot ball {bid!r}")
            placed.append((bid, self.long_string_x, y_spot))
            table.append((bid, self.long_string_x, y_spot))
        return placed


# --- Racks (3.2, 4.3, 5.2, 6.4) -----------------------------------------------------------
def _triangle_edges(pts: Sequence[tuple[float, float]]) -> tuple[tuple[float, float, float], ...]:
    """Outward half-planes (nx, ny, c) of the triangle of centres of a 15-ball rack."""
    apex, left, right = pts[0], pts[10], pts[14]
    corners = [apex, right, left]
    cx = sum(p[0] for p in corners) / 3
    cy = sum(p[1] for p in corners) / 3
    edges = []
    for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1], strict=True):
        nx, ny = y1 - y0, -(x1 - x0)
        norm = math.hypot(nx, ny)
        nx, ny = nx / norm, ny / norm
        if nx * (cx - x0) + ny * (cy - y0) > 0:  # make the normal point outward
            nx, ny = -nx, -ny
        edges.append((nx, ny, nx * x0 + ny * y0))
    return tuple(edges)


NINE_FOOT = PoolMarks(PLAYING_LENGTH, PLAYING_WIDTH)  # the module constants' table


@lru_cache(maxsize=16)
def marks_for(table: str) -> PoolMarks:
    """The marks of the pool table with this name ('pool_9ft', 'pool_8ft', 'pool_7ft', the
    name layouts carry), its playing surface from `cuesim.tables.pool.PLAYING_SURFACES`.
    ValueError for a name that is no pool table."""
    from cuesim.tables.pool import PLAYING_SURFACES  # that module imports this one

    size = table[len("pool_"):] if isinstance(table, str) and table.startswith("pool_") else None
    if size not in PLAYING_SURFACES:
        raise ValueError(f"no pool table {table!r}; pool tables are "
                         f"{[f'pool_{s}' for s in PLAYING_SURFACES]}")
    width, length = PLAYING_SURFACES[size]
    if (length, width) == (PLAYING_LENGTH, PLAYING_WIDTH):
        return NINE_FOOT
    return PoolMarks(length, width)


def marks_of(layout: Any) -> PoolMarks:
    """The marks of the table a layout names (its `table`); the 9-ft table's without a
    layout (None)."""
    return NINE_FOOT if layout is None else marks_for(layout.table)


def _pick(marks: PoolMarks | None) -> PoolMarks:
    return NINE_FOOT if marks is None else marks


def rail_distance(x: float, y: float, marks: PoolMarks | None = None) -> dict[str, float]:
    """Distance from a ball centre to each rail's cushion nose line (m); the 9-ft table
    unless `marks` are given."""
    return _pick(marks).rail_distance(x, y)


def in_kitchen(y: float, marks: PoolMarks | None = None) -> bool:
    """Behind the head string (the kitchen). The string itself is not part of it (3.16). The
    9-ft table's head string unless `marks` are given."""
    return _pick(marks).in_kitchen(y)


def near_spot(x: float, y: float, spot: tuple[float, float]) -> bool:
    """A ball here would be in the way of a ball placed on `spot` (they would overlap)."""
    return math.hypot(x - spot[0], y - spot[1]) < BALL_DIAMETER - FROZEN_TOLERANCE


def frozen(x0: float, y0: float, x1: float, y1: float) -> bool:
    """Two balls touching (within FROZEN_TOLERANCE)."""
    return math.hypot(x1 - x0, y1 - y0) <= BALL_DIAMETER + FROZEN_TOLERANCE


def triangle_positions(rows: int = 5, marks: PoolMarks | None = None) -> list[tuple[float, float]]:
    """Centres of a tight triangle rack with the apex ball on the foot spot (3.2), row by row
    toward the foot rail, left to right within a row (the 9-ft table unless `marks`)."""
    return _pick(marks).triangle_positions(rows)


def diamond_positions(marks: PoolMarks | None = None) -> list[tuple[float, float]]:
    """Centres of the 9-ball diamond (5.2): rows of 1, 2, 3, 2, 1 with the apex on the foot
    spot; index 0 is the apex (the 1) and index 4 the centre (the 9). The 9-ft table unless
    `marks`."""
    return _pick(marks).diamond_positions()


_RACK_EDGES = NINE_FOOT.rack_edges


def in_rack_area(x: float, y: float, marks: PoolMarks | None = None) -> bool:
    """The ball would be in the way of a 15-ball triangle lowered onto the table (6.7.3,
    6.7.6): its disc reaches into the triangle of the rack's outer ball outlines, taken as the
    triangle of centres pushed out by one ball radius on every side (sharp corners). The 9-ft
    table unless `marks`."""
    return _pick(marks).in_rack_area(x, y)


# --- Spotting balls on the long string (3.32) -----------------------------------------------
def spot_balls(ball_ids: Iterable[str], others: Iterable[tuple[str, float, float]],
               cue_id: str = "cue", marks: PoolMarks | None = None
               ) -> list[tuple[str, float, float]]:
    """Places balls on the long string by 3.32 and returns (id, x, y) for each.

    Lowest number first; the first free place nearest the foot spot on the long string
    toward the foot rail, frozen against object balls in the way but kept SPOT_GAP_TO_CUE
    off the cue ball; when the long string behind the foot spot has no room, the ball goes
    on its extension in front of the foot spot, as near the foot spot as possible (so the
    lowest number ends nearest the foot spot). `others` are the balls at rest on the table.
    The 9-ft table's long string unless `marks` are given (`marks_for(layout.table)`)."""
    return _pick(marks).spot_balls(ball_ids, others, cue_id)


def _ball_order(ball_id: str) -> tuple[int, str]:
    return (int(ball_id), ball_id) if ball_id.isdigit() else (10**6, ball_id)
