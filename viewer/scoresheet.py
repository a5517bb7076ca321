"""The score sheet shown at the end of a set, game or match: for each one finished, the score
of each side, their fouls, the innings and the article that decided it; drawn over the table's
final board."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from cuesim.rules.ruling import Ruling
from cuesim.rules.wording import ARTICLE, cite
from cuesim.viewer import view as V
from cuesim.viewer.session import Session

_CITED = re.compile(r"\b(novus|WPA|WCBS) (" + ARTICLE + r")")
_WIN = re.compile(r"\b(wins?|won|reach(es)?|legally pocketed|cleared)\b")
SHEET_PAD = 14  # px around the sheet's text


@dataclass
class FrameRow:
    """One finished set or game."""

    number: int
    scores: dict[str, str]
    winner: str | None
    fouls: dict[str, int]
    innings: int
    article: str


def deciding_article(ruling: Ruling) -> str:
    """The article that ended the frame: the violations' when a foul decided it (a loss of
    the game, set or match), else the article of the note that tells the win."""
    lost = [v.article for v in ruling.violations
            if v.consequence.startswith(("loss", "lose")) or "match" in v.consequence]
    if lost:
        return ", ".join(dict.fromkeys(cite(a) for a in lost))
    for note in reversed(ruling.notes):
        text = cite(note)
        if _WIN.search(text) and _CITED.search(text):
            if ruling.winner is None or ruling.winner.split(" & ")[0] in text \
                    or "set" in text or "reach" in text:
                return ", ".join(f"{b} {a}" for b, a in _CITED.findall(text))
    arts = [cite(v.article) for v in ruling.violations]
    for note in ruling.notes:
        arts += [f"{b} {a}" for b, a in _CITED.findall(cite(note))]
    return ", ".join(dict.fromkeys(arts))


def rows(session: Session) -> list[FrameRow]:
    """The finished frames of the session, in order."""
    out: list[FrameRow] = []
    sides = session.sides()
    fouls = {s: 0 for s in sides}
    start = 0
    for k, entry in enumerate(session.history):
        ruling: Ruling = entry["ruling"]
        side = session.side_of(entry["player"])
        if entry["kind"] in ("shot", "infraction") and not ruling.legal and side in fouls:
            fouls[side] += 1
        if ruling.frame_over:
            innings = len(session.visits(session.history[start:k + 1]))
            out.append(FrameRow(len(out) + 1, dict(entry["score"] or {}), ruling.winner,
                                dict(fouls), max(innings, 1), deciding_article(ruling)))
            fouls, start = {s: 0 for s in sides}, k + 1
    return out


def title(session: Session) -> str:
    r = session.last_ruling
    unit = session.unit.capitalize()
    if session.over():  # the referee's state says who won: a game carried on from a saved
        # table and score has no ruling of this sitting (it read "a draw" beside "Ann wins")
        winner = session.match_winner()
        return f"Match over: {winner} wins." if winner else "Match over: a draw."
    n = len(rows(session))
    who = r.winner if r is not None and r.winner else "nobody"
    return f"{unit} {n} over: {who} wins it." if who != "nobody" else f"{unit} {n} over."


def sheet_lines(session: Session) -> list[str]:
    """The sheet as plain lines (what tests and screen_text read)."""
    out = [title(session), f"Score sheet, {session.unit} by {session.unit}:"]
    for row in rows(session):
        scores = "; ".join(f"{s} {row.scores.get(s, '')}".rstrip() for s in session.sides())
        if not any(row.scores.values()):
            scores = "-"
        fouls = ", ".join(f"{s} {row.fouls.get(s, 0)}" for s in session.sides())
        result = f"{row.winner} wins" if row.winner else "no winner"
        out.append(f"{session.unit.capitalize()} {row.number}: {result}. Score: {scores}. "
                   f"Fouls: {fouls}. Innings: {row.innings}. "
                   f"Decided by {row.article or 'the rules'}.")
    return out


def sheet_place(area: pygame.Rect, size: tuple[int, int], avoid: Sequence[tuple[float, float]],
                table: pygame.Rect | None = None, bed: pygame.Rect | None = None) -> pygame.Rect:
    """Where the sheet's box of `size` goes in `area`: centred across, at one of a few heights
    (the middle, near the top or bottom, the area's edges, just above or below `table`), the
    one that covers the fewest `avoid` points (the final board's pieces), then wholly off
    `table` (the table with its rails and pockets: in the window's margin) if it can, else
    off `bed` (the playing surface: over a rail's edge at most), else the first in that order
    (the middle of the table)."""
    width, height = size
    tops = [round(area.top + fy * max(0, area.height - height)) for fy in (0.5, 0.2, 0.8, 0.0,
                                                                            1.0)]
    if table is not None:
        tops += [table.top - height - 4, table.bottom + 4]
    places = []
    for top in tops:
        b = pygame.Rect(0, 0, width, height)
        b.centerx = area.centerx
        b.top = min(max(top, area.top), max(area.top, area.bottom - height))
        places.append(b)

    def cost(b: pygame.Rect) -> tuple[int, int]:
        covered = sum(1 for p in avoid if b.inflate(24, 24).collidepoint(p))
        if table is None or not b.colliderect(table):
            return covered, 0
        return covered, 1 if bed is not None and not b.colliderect(bed) else 2

    return min(places, key=cost)


def draw_sheet(surface: pygame.Surface, area: pygame.Rect, session: Session, keys: list[str],
               font: pygame.font.Font, big: pygame.font.Font,
               avoid: Sequence[tuple[float, float]] = (), table: pygame.Rect | None = None,
               bed: pygame.Rect | None = None) -> pygame.Rect:
    """The sheet as a table in a box in `area`, placed by `sheet_place` (off the pieces of the
    final board, `avoid`, then off the `table` or its `bed` where it can); returns the box."""
    sides = session.sides()
    header = ["#", *sides, "Winner", "Fouls", "Innings", "Decided by"]
    body = []
    for row in rows(session):
        body.append([str(row.number), *[row.scores.get(s, "") for s in sides],
                     row.winner or "-", " / ".join(str(row.fouls.get(s, 0)) for s in sides),
                     str(row.innings), row.article or "-"])
    cols = len(header)
    widths = [max(font.size(r[k])[0] for r in [header, *body]) for k in range(cols)]
    gap = 18
    line = font.get_linesize() + 2
    title_img = big.render(title(session), True, V.ACCENT)
    key_imgs = [font.render(k, True, V.TEXT) for k in keys]
    width = max(sum(widths) + gap * (cols - 1), title_img.get_width(),
                *(i.get_width() for i in key_imgs)) + 2 * SHEET_PAD
    width = min(width, area.width - 8)
    height = (title_img.get_height() + 10 + line * (len(body) + 1) + 12 + line * len(keys)
              + 2 * SHEET_PAD)
    box = sheet_place(area, (width, height), avoid, table, bed)
    layer = pygame.Surface(box.size, pygame.SRCALPHA)
    layer.fill((*V.PANEL, 235))
    surface.blit(layer, box.topleft)
    pygame.draw.rect(surface, V.ACCENT, box, 2, border_radius=4)
    y = box.top + SHEET_PAD
    surface.blit(title_img, (box.left + SHEET_PAD, y))
    y += title_img.get_height() + 10
    for k, r in enumerate([header, *body]):
        x = box.left + SHEET_PAD
        colour = V.DIM if k == 0 else V.TEXT
        for c, cell in enumerate(r):
            surface.blit(font.render(cell, True, colour), (x, y))
            x += widths[c] + gap
        y += line
    y += 12
    for img in key_imgs:
        surface.blit(img, (box.left + SHEET_PAD, y))
        y += line
    return box
