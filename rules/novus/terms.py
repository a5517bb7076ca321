"""Terms of novus (article 11) and the board geometry the referee reads.

* Rail zone of a side: the strip between that rail and the line 130 mm from it (24.2).
* Own zone: the rail zone of the side the player stands at.
* Dark area: own zone plus the inside of the centre circle.
* Dark puck (`novus 11.dark`): a puck of the player whose 8 mm hole lies wholly inside the dark
  area, so that the bounding line (1 mm wide, centred on its nominal position) cannot be seen
  through it. Since the own zone and the centre circle do not meet, the hole must lie wholly
  inside one of them.
* Light puck (`novus 11.light`): every other puck of the player that is on the table.

Choice: dark and light are judged on the layout *before* the shot (the state the player aimed
at); a puck is "of the player" when its `group` is the player's colour (in doubles the pair's
colour, since partners clear each other's pucks, 21.2).
"""

from __future__ import annotations

import math

from cuesim.tables.layout import Layout, Piece
from cuesim.tables.novus import (
    BOARD_SIZE,
    CENTRE_CIRCLE_DIAMETER,
    LINE_WIDTH,
    OPPOSITE_SIDE,
    PUCK_DIAMETER,
    PUCK_HOLE_DIAMETER,
    ZONE_LINE_FROM_RAIL,
    NovusTable,
)

SIDES = ("south", "east", "north", "west")
CLOCKWISE = ("south", "west", "north", "east")  # seen from above, y up: bottom, left, top, right
CENTRE = (BOARD_SIZE / 2, BOARD_SIZE / 2)
CIRCLE_RADIUS = CENTRE_CIRCLE_DIAMETER / 2
PUCK_RADIUS = PUCK_DIAMETER / 2
PUCK_HOLE_CLEAR = PUCK_HOLE_DIAMETER / 2 + LINE_WIDTH / 2  # hole edge to the line's centre
MOVE_TOL = 1e-4  # m: a puck displaced by more than 0.1 mm counts as moved (16.1.г/д, 21.6)
_TABLE = NovusTable()


def check_side(side: str) -> str:
    if side not in SIDES:
        raise ValueError(f"unknown novus side {side!r}; sides are {list(SIDES)}")
    return side


def opposite(side: str) -> str:
    return OPPOSITE_SIDE[check_side(side)]


def side_rails(side: str) -> tuple[str, str]:
    """The two rails beside the player (neither his own nor the opposite one)."""
    check_side(side)
    return tuple(s for s in SIDES if s not in (side, OPPOSITE_SIDE[side]))  # type: ignore


def frame(side: str, x: float, y: float) -> tuple[float, float]:
    """(u, w) of a table point in the frame of the player on `side`: u along his rail from his
    left corner, w the distance from his rail."""
    return _TABLE.from_table(check_side(side), x, y)


def to_table(side: str, u: float, w: float) -> tuple[float, float]:
    return _TABLE.to_table(check_side(side), u, w)


def zone_depth(side: str, x: float, y: float) -> float:
    """How far a point lies inside the rail zone of `side` (m, positive inside): the zone line
    minus the distance from that rail."""
    return ZONE_LINE_FROM_RAIL - frame(side, x, y)[1]


def hole_in_zone(side: str, x: float, y: float) -> bool:
    """The puck's hole lies wholly inside the rail zone of `side` (no line shows through it)."""
    return zone_depth(side, x, y) > PUCK_HOLE_CLEAR


def hole_in_circle(x: float, y: float) -> bool:
    """The puck's hole lies wholly inside the centre circle."""
    return math.hypot(x - CENTRE[0], y - CENTRE[1]) < CIRCLE_RADIUS - PUCK_HOLE_CLEAR


def centre_in_circle(x: float, y: float) -> bool:
    return math.hypot(x - CENTRE[0], y - CENTRE[1]) < CIRCLE_RADIUS


def is_dark_position(side: str, x: float, y: float) -> bool:
    """novus 11.dark: the hole wholly inside the own zone of `side` or inside the centre circle."""
    return hole_in_zone(side, x, y) or hole_in_circle(x, y)


def pucks_of(layout: Layout, colour: str) -> list[Piece]:
    return [p for p in layout.pieces if p.kind == "puck" and p.group == colour]


def dark_pucks(layout: Layout, colour: str, side: str) -> list[str]:
    """Ids of the player's dark pucks (novus 11.dark)."""
    return [p.id for p in pucks_of(layout, colour) if is_dark_position(side, p.x, p.y)]


def light_pucks(layout: Layout, colour: str, side: str) -> list[str]:
    """Ids of the player's light pucks (novus 11.light)."""
    return [p.id for p in pucks_of(layout, colour) if not is_dark_position(side, p.x, p.y)]


def nearest_rail(x: float, y: float) -> str:
    """The rail nearest a point (the side a puck most likely went out over)."""
    dist = {"south": y, "north": BOARD_SIZE - y, "west": x, "east": BOARD_SIZE - x}
    return min(dist, key=dist.__getitem__)
