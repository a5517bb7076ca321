"""The side panel: whose turn, the scoreboard, the last ruling in plain words with its
articles, declarations, pending choices, the referee menu and the help line. Text is laid out
into lines once and rendered to a cached surface that is rebuilt only when it changes."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from cuesim.viewer import assets
from cuesim.viewer import view as V

HELP = [
    "mouse: aim | drag: power, release to shoot",
    "drag / right-click the white piece: place it",
    "click the small ball: tip offset | arrows too",
    "C call  S safety  P push-out  F referee  K request",
    "Space pause  M slow  R replay  Enter skip",
    "U undo  F5 save  F9 load  F12 screenshot",
    "G save the last shot as a GIF  V sound on/off",
]


@dataclass(frozen=True)
class Line:
    text: str
    colour: tuple[int, int, int] = V.TEXT
    size: int = 20


def wrap(text: str, font: pygame.font.Font, width: int) -> list[str]:
    """Greedy word wrap to a pixel width."""
    out: list[str] = []
    for para in text.split("\n"):
        words, line = para.split(" "), ""
        for w in words:
            trial = w if not line else f"{line} {w}"
            if font.size(trial)[0] <= width or not line:
                line = trial
            else:
                out.append(line)
                line = w
        out.append(line)
    return out


class Panel:
    """A column of text lines in a rect, cached by content."""

    def __init__(self, rect: pygame.Rect) -> None:
        self.rect = rect
        self._key: tuple[Line, ...] | None = None
        self._surface: pygame.Surface | None = None
        self._fonts: dict[int, pygame.font.Font] = {}

    def font(self, size: int) -> pygame.font.Font:
        if size not in self._fonts:
            self._fonts[size] = assets.font(size)
        return self._fonts[size]

    def layout(self, lines: list[Line]) -> list[Line]:
        """The lines wrapped to the panel width."""
        out = []
        for line in lines:
            for part in wrap(line.text, self.font(line.size), self.rect.width - 16):
                out.append(Line(part, line.colour, line.size))
        return out

    def render(self, lines: list[Line]) -> pygame.Surface:
        key = tuple(lines)
        if key != self._key or self._surface is None:
            surf = pygame.Surface(self.rect.size)
            surf.fill(V.PANEL)
            y = 8
            for line in self.layout(lines):
                if line.text:
                    img = self.font(line.size).render(line.text, True, line.colour)
                    surf.blit(img, (8, y))
                y += round(line.size * 0.85)
            self._surface, self._key = surf, key
        return self._surface

    def text_lines(self, lines: list[Line]) -> list[str]:
        """What the panel says, as plain strings (tests read the screen through this)."""
        return [line.text for line in self.layout(lines)]
