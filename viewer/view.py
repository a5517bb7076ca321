"""The mapping from the table frame (metres) to the window (pixels), and the colours.

Square tables (novus) are drawn as seen by the south player: x to the right, y up the screen.
Long tables (pool, carom) are drawn lying: the head rail on the left, y to the right and x down
the screen, which is the same table turned a quarter turn (never mirrored).
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

CLOTH_POOL = (22, 110, 60)
CLOTH_CAROM = (28, 84, 150)
BOARD_NOVUS = (214, 186, 140)
RAIL_WOOD = (96, 58, 30)
CUSHION = (16, 86, 46)
CUSHION_CAROM = (20, 66, 120)
POCKET = (12, 12, 12)
LINE = (20, 20, 20)
MARK = (235, 235, 235)
BACKGROUND = (30, 32, 36)
PANEL = (42, 44, 50)
TEXT = (232, 232, 232)
DIM = (150, 150, 160)
ACCENT = (255, 210, 90)
GOOD = (110, 220, 120)
BAD = (240, 90, 80)
STRIKER = (150, 92, 48)  # the novus striker: a darker hardwood than the board
STRIKER_RING = (120, 70, 34)

POOL_COLOURS = {
    1: (250, 200, 20), 2: (20, 60, 200), 3: (210, 30, 30), 4: (90, 30, 140),
    5: (250, 120, 20), 6: (20, 130, 60), 7: (120, 20, 30), 8: (15, 15, 15),
}
PIECE_COLOURS = {
    "cue": (245, 245, 235), "white": (245, 245, 235), "yellow": (245, 210, 40),
    "red": (200, 30, 30), "black": (25, 25, 25), "striker": (226, 200, 150),
}


def piece_colour(piece_id: str, group: str = "") -> tuple[int, int, int]:
    """The colour of a piece: pool balls by number (9-15 as 1-7), others by group or id."""
    if piece_id.isdigit():
        n = int(piece_id)
        return POOL_COLOURS[n - 8 if n > 8 else n]
    for key in (group, piece_id):
        if key in PIECE_COLOURS:
            return PIECE_COLOURS[key]
    return (200, 200, 200)


@dataclass(frozen=True)
class Viewport:
    """Table metres to window pixels: an area (left, top, width, height), the table's surface
    size and the margin (m) drawn around it for rails."""

    left: int
    top: int
    width: int
    height: int
    table_width: float
    table_length: float
    margin: float
    rotated: bool

    @staticmethod
    def fit(area: pygame.Rect, table_width: float, table_length: float,
            margin: float) -> Viewport:
        rotated = table_length > 1.3 * table_width
        return Viewport(area.left, area.top, area.width, area.height, table_width,
                        table_length, margin, rotated)

    @property
    def scale(self) -> float:
        """Pixels per metre."""
        across = self.table_length if self.rotated else self.table_width
        down = self.table_width if self.rotated else self.table_length
        return min(self.width / (across + 2 * self.margin),
                   self.height / (down + 2 * self.margin))

    def _origin(self) -> tuple[float, float]:
        s = self.scale
        across = self.table_length if self.rotated else self.table_width
        down = self.table_width if self.rotated else self.table_length
        ox = self.left + (self.width - across * s) / 2
        oy = self.top + (self.height - down * s) / 2
        return ox, oy

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        s = self.scale
        ox, oy = self._origin()
        if self.rotated:
            return ox + y * s, oy + x * s
        return ox + x * s, oy + (self.table_length - y) * s

    def to_table(self, px: float, py: float) -> tuple[float, float]:
        s = self.scale
        ox, oy = self._origin()
        if self.rotated:
            return (py - oy) / s, (px - ox) / s
        return (px - ox) / s, self.table_length - (py - oy) / s

    def screen_side(self, dx: float, dy: float) -> str:
        """Where the direction (dx, dy) of the table's frame points on the screen: 'left',
        'right', 'top' or 'bottom' (the larger of its two screen components)."""
        x0, y0 = self.to_screen(0.0, 0.0)
        x1, y1 = self.to_screen(dx, dy)
        if abs(x1 - x0) >= abs(y1 - y0):
            return "right" if x1 > x0 else "left"
        return "bottom" if y1 > y0 else "top"

    def pixels(self, metres: float) -> float:
        return metres * self.scale

    def surface_rect(self, inflate: float = 0.0) -> pygame.Rect:
        """The playing surface (grown by `inflate` metres on each side) in pixels."""
        x0, y0 = self.to_screen(-inflate, -inflate)
        x1, y1 = self.to_screen(self.table_width + inflate, self.table_length + inflate)
        return pygame.Rect(round(min(x0, x1)), round(min(y0, y1)), round(abs(x1 - x0)),
                           round(abs(y1 - y0)))
