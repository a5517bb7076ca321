"""The side panel: a column of text lines (whose turn, the scoreboard, the last ruling in plain
words with its articles, declarations, pending choices, the referee menu, the help), wrapped to
the panel's width at the window's text scale and rendered to a cached surface that is rebuilt
only when it changes. What the lines say: `panel_text`."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pygame

from cuesim.viewer import assets
from cuesim.viewer import view as V


@dataclass(frozen=True)
class Line:
    text: str
    colour: tuple[int, int, int] = V.TEXT
    size: int = 20


_CITATION = re.compile(r"\b(novus|WPA|WCBS) (?=\d)")
_KEEP = "\u00a0"  # joins a rulebook to its article number while wrapping


def wrap(text: str, font: pygame.font.Font, width: int) -> list[str]:
    """Greedy word wrap to a pixel width; a rulebook and its article number ('WPA 3.10')
    stay on one line."""
    kept = _CITATION.sub(lambda m: m.group(1) + _KEEP, text)
    return [line.replace(_KEEP, " ") for line in _wrap(kept, font, width)]


def _wrap(text: str, font: pygame.font.Font, width: int) -> list[str]:
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

    def __init__(self, rect: pygame.Rect, scale: float = 1.0) -> None:
        self.rect = rect
        self.scale = scale  # text sizes are given at scale 1 (the default window)
        self._key: tuple[Line, ...] | None = None
        self._surface: pygame.Surface | None = None
        self._fonts: dict[int, pygame.font.Font] = {}

    def font(self, size: int) -> pygame.font.Font:
        if size not in self._fonts:
            self._fonts[size] = assets.font(max(8, round(size * self.scale)))
        return self._fonts[size]

    def advance(self, line: Line) -> int:
        """The height (px) one laid-out line takes."""
        return round(line.size * self.scale * 0.85)

    def height(self, lines: list[Line]) -> int:
        """The height (px) the lines take once wrapped, the top margin included."""
        return 8 + sum(self.advance(line) for line in self.layout(lines))

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
                y += self.advance(line)
            self._surface, self._key = surf, key
        return self._surface

    def text_lines(self, lines: list[Line]) -> list[str]:
        """What the panel says, as plain strings (tests read the screen through this)."""
        return [line.text for line in self.layout(lines)]
