"""Frames of an environment through the viewer's drawing code (cuesim.viewer.draw): the table
and the pieces where they lie, as an RGB array or in a window."""

from __future__ import annotations

import os
from typing import Any

import numpy as np

SIZES = {"novus": (480, 480), "pool": (640, 360)}  # pixels: square board, long tables


class Renderer:
    """Draws one session's table and pieces; `human` opens a window on first use."""

    def __init__(self, table: Any, human: bool) -> None:
        if not human:
            os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        from cuesim.viewer import draw
        from cuesim.viewer.view import Viewport

        pygame.font.init()
        self.pygame, self.draw, self.table, self.human = pygame, draw, table, human
        self.size = SIZES["novus" if table.name == "novus" else "pool"]
        area = pygame.Rect(0, 0, *self.size).inflate(-12, -12)
        self.view = Viewport.fit(area, table.geometry.width, table.geometry.length,
                                 draw.table_margin(table))
        self.background = draw.background(self.size, self.view, table)
        self.window: Any = None

    def frame(self, layout: Any) -> np.ndarray:
        """(height, width, 3) uint8 of the table with `layout`'s pieces."""
        surface = self.background.copy()
        self.draw.draw_pieces(surface, self.view, self.table, layout.pieces)
        if self.human:
            if self.window is None:
                self.pygame.display.init()
                self.window = self.pygame.display.set_mode(self.size)
                self.pygame.display.set_caption("cuesim")
            self.pygame.event.pump()
            self.window.blit(surface, (0, 0))
            self.pygame.display.flip()
        return np.ascontiguousarray(
            np.transpose(self.pygame.surfarray.array3d(surface), (1, 0, 2)), dtype=np.uint8)

    def close(self) -> None:
        if self.window is not None:
            self.pygame.display.quit()
            self.window = None
