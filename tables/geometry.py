"""Table geometry shared by every game: rails, holes (pockets), and sensor lines and circles.

Frame: metres, origin at a corner of the playing surface, x to the right, y away from the first
player (novus) or from the head rail toward the foot rail (pool, carom).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Rail:
    """A straight cushion face from (x0, y0) to (x1, y1); the playing surface lies on its left.

    The inward normal is the left normal of the direction: n = (-dy, dx) / |d|.
    """

    name: str
    x0: float
    y0: float
    x1: float
    y1: float

    def normal(self) -> tuple[float, float]:
        """The unit normal of the rail's face, pointing into the playing area."""
        dx, dy = self.x1 - self.x0, self.y1 - self.y0
        length = math.hypot(dx, dy)
        return -dy / length, dx / length


@dataclass(frozen=True)
class Hole:
    """A pocket or board hole.

    Without a fall line (a novus hole, cut through the board) a piece is captured when its
    centre enters the circle. With a fall line, the segment (x0, y0)-(x1, y1) with the playing
    surface on its left (a pool pocket: the edge of the slate's pocket cut), a piece is
    captured when its centre crosses that segment: past it the piece has no support under its
    centre of mass and drops. The circle then only marks the opening (drawing, aiming); it
    must lie wholly behind the fall line.
    """

    name: str
    x: float
    y: float
    radius: float
    fall: tuple[float, float, float, float] | None = None

    def fall_normal(self) -> tuple[float, float]:
        """The fall line's unit left normal (toward the playing surface)."""
        if self.fall is None:
            raise ValueError(f"hole {self.name!r} has no fall line")
        x0, y0, x1, y1 = self.fall
        length = math.hypot(x1 - x0, y1 - y0)
        return -(y1 - y0) / length, (x1 - x0) / length

    def contains(self, x: float, y: float) -> bool:
        """Whether a piece centred at (x, y) is over the hole: inside the circle, or (with a
        fall line) on or past the fall line, between its ends."""
        if self.fall is None:
            return math.hypot(x - self.x, y - self.y) < self.radius
        x0, y0, x1, y1 = self.fall
        nx, ny = self.fall_normal()
        ex, ey = x1 - x0, y1 - y0
        along = (x - x0) * ex + (y - y0) * ey
        return nx * (x - x0) + ny * (y - y0) <= 0.0 and 0.0 <= along <= ex * ex + ey * ey


@dataclass(frozen=True)
class Knuckle:
    """A rounded cushion point (a pocket jaw's nose): a fixed circle pieces rebound from, with
    the same cushion model as the straight rails."""

    name: str
    x: float
    y: float
    radius: float


@dataclass(frozen=True)
class SensorLine:
    """The line n . p = c; crossings of a piece's centre are reported, never deflected.

    A crossing in the direction of n is reported with direction +1, the other way -1.
    """

    name: str
    nx: float
    ny: float
    c: float


@dataclass(frozen=True)
class SensorCircle:
    """A circle on the cloth; a piece's centre entering it is reported +1, leaving it -1."""

    name: str
    x: float
    y: float
    radius: float


@dataclass(frozen=True)
class TableGeometry:
    """The playing surface (width along x, length along y) and everything on it."""

    width: float
    length: float
    rails: tuple[Rail, ...]
    holes: tuple[Hole, ...] = ()
    knuckles: tuple[Knuckle, ...] = ()
    lines: tuple[SensorLine, ...] = ()
    circles: tuple[SensorCircle, ...] = ()

    def rail_array(self) -> np.ndarray:
        """(m, 9) float64: x0, y0, x1, y1, nx, ny, then what the detector would otherwise
        compute at every prediction: the length and the midpoint."""
        out = np.zeros((len(self.rails), 9))
        for k, r in enumerate(self.rails):
            out[k, :6] = (r.x0, r.y0, r.x1, r.y1, *r.normal())
            out[k, 6] = math.sqrt((r.x1 - r.x0) ** 2 + (r.y1 - r.y0) ** 2)
            out[k, 7:9] = (0.5 * (r.x0 + r.x1), 0.5 * (r.y0 + r.y1))
        return out

    def hole_array(self) -> np.ndarray:
        """(h, 13) float64: x, y, radius, has_fall (1.0 for a fall line, else 0.0), then the
        fall line x0, y0, x1, y1 and its inward normal nx, ny (zeros without one); last the
        circle a capture happens within: the hole's own, or the one around its fall line
        (midpoint, half length), which the detector culls by."""
        out = np.zeros((len(self.holes), 13))
        for k, h in enumerate(self.holes):
            out[k, :3] = (h.x, h.y, h.radius)
            out[k, 10:13] = (h.x, h.y, h.radius)
            if h.fall is not None:
                out[k, 3] = 1.0
                out[k, 4:8] = h.fall
                out[k, 8:10] = h.fall_normal()
                x0, y0, x1, y1 = h.fall
                out[k, 10:13] = (0.5 * (x0 + x1), 0.5 * (y0 + y1),
                                 0.5 * math.sqrt((x1 - x0) ** 2 + (y1 - y0) ** 2))
        return out

    def knuckle_array(self) -> np.ndarray:
        """(k, 3) float64: x, y, radius."""
        return np.array([(h.x, h.y, h.radius) for h in self.knuckles],
                        dtype=np.float64).reshape(-1, 3)

    def line_array(self) -> np.ndarray:
        """(l, 3) float64: nx, ny, c."""
        return np.array([(s.nx, s.ny, s.c) for s in self.lines], dtype=np.float64).reshape(-1, 3)

    def circle_array(self) -> np.ndarray:
        """(c, 3) float64: x, y, radius."""
        return np.array([(s.x, s.y, s.radius) for s in self.circles], dtype=np.float64).reshape(
            -1, 3
        )

    @staticmethod
    def rectangle(width: float, length: float, **features: tuple) -> TableGeometry:
        """A plain rectangle whose four rails run the whole sides, counter-clockwise."""
        rails = (
            Rail("south", 0.0, 0.0, width, 0.0),
            Rail("east", width, 0.0, width, length),
            Rail("north", width, length, 0.0, length),
            Rail("west", 0.0, length, 0.0, 0.0),
        )
        return TableGeometry(width, length, rails, **features)
