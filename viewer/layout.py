"""Where everything goes in a window of a given size: the table area on the left, the side
panel on the right (text at the top, the tip and power widgets, the help at the bottom), and
the text scale. Recomputed whenever the window is resized or goes full screen."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

DEFAULT_SIZE = (1200, 760)
MIN_SIZE = (800, 520)  # below this the panel's text no longer fits beside a usable table
PANEL_SHARE = 350 / 1200  # of the width (350 px at the default size), within the limits below
PANEL_MIN, PANEL_MAX = 300, 460  # px
TOOLS_HEIGHT = 110  # px at scale 1: the tip widget (96 px) and the power bar (26 px)
HELP_LINE = 17  # px per help line at scale 1
TABLE_PAD = 10  # px kept free around the table


@dataclass(frozen=True)
class ScreenLayout:
    """The rects of one window size (pixels) and the scale of the panel's text."""

    size: tuple[int, int]
    scale: float
    table: pygame.Rect
    panel: pygame.Rect
    tools: pygame.Rect
    tip: pygame.Rect
    power: pygame.Rect
    help: pygame.Rect

    @staticmethod
    def for_size(size: tuple[int, int], help_lines: int = 6,
                 help_height: int | None = None) -> ScreenLayout:
        """The layout of a window of `size` px (at least MIN_SIZE), the help taking
        `help_height` px at the bottom of the panel (else `help_lines` lines' worth)."""
        w, h = max(size[0], MIN_SIZE[0]), max(size[1], MIN_SIZE[1])
        scale = max(0.85, min(1.5, h / DEFAULT_SIZE[1]))
        pw = max(PANEL_MIN, min(PANEL_MAX, round(w * PANEL_SHARE)))
        left = w - pw
        help_h = help_height if help_height is not None else \
            round((help_lines * HELP_LINE + 12) * scale)
        tools_h = round(TOOLS_HEIGHT * scale)  # the widgets grow with the text
        top_h = h - help_h - tools_h
        tools = pygame.Rect(left, top_h, pw, tools_h)
        tip_d = round(96 * scale)
        tip = pygame.Rect(left + 16, top_h + round(5 * scale), tip_d, tip_d)
        power_h = round(26 * scale)
        power = pygame.Rect(tip.right + 13, top_h + (tools_h - power_h) // 2,
                            pw - tip_d - 49, power_h)
        return ScreenLayout(
            size=(w, h), scale=scale,
            table=pygame.Rect(TABLE_PAD, TABLE_PAD, left - 2 * TABLE_PAD, h - 2 * TABLE_PAD),
            panel=pygame.Rect(left, 0, pw, top_h), tools=tools, tip=tip, power=power,
            help=pygame.Rect(left, h - help_h, pw, help_h))

    @property
    def panel_left(self) -> int:
        return self.panel.left
