"""Where the end-of-game score sheet goes (viewer.scoresheet.sheet_place): off the final
board's pieces first, then wholly off the table (rails and pockets included) where the
window's margin has room, else off its playing surface, else in the middle of the table."""

from __future__ import annotations

import pygame

from cuesim.viewer.scoresheet import sheet_place

AREA = pygame.Rect(0, 0, 850, 760)  # the window's table area, 1200 x 760 (the 5-pins window)
CAROM = pygame.Rect(15, 158, 820, 445)  # the carom table drawn across it, rails included
CAROM_BED = pygame.Rect(36, 179, 778, 403)  # its playing surface
NOVUS = pygame.Rect(62, 17, 727, 727)  # the square novus board, rails included
NOVUS_BED = pygame.Rect(92, 47, 667, 667)
SHEET = (460, 150)
MIDDLE = (AREA.centerx, round(AREA.top + 0.5 * (AREA.height - 150)) + 75)


def test_the_sheet_goes_in_the_margin_beside_the_table_when_it_fits():
    """The carom table leaves 158 px above it: a 150 px sheet sits there, wholly off the table
    (it sat 20 % down the area, over the top rail and 100 px of the bed)."""
    box = sheet_place(AREA, SHEET, [(420.0, 380.0), (360.0, 505.0)], CAROM, CAROM_BED)
    assert AREA.contains(box) and box.bottom <= CAROM.top


def test_a_sheet_too_tall_for_the_margin_stays_off_the_playing_surface():
    """A 165 px sheet cannot leave the table: it takes the area's top, over the rail's outer
    edge only."""
    box = sheet_place(AREA, (460, 165), [], CAROM, CAROM_BED)
    assert AREA.contains(box) and box.top == AREA.top
    assert box.colliderect(CAROM) and not box.colliderect(CAROM_BED)


def test_pieces_come_before_the_table():
    """Pieces where the margins' places are push the sheet onto the table, where none is."""
    box = sheet_place(AREA, SHEET, [(425.0, 80.0), (425.0, 690.0)], CAROM, CAROM_BED)
    assert box.colliderect(CAROM_BED)
    assert not any(box.inflate(24, 24).collidepoint(p) for p in [(425.0, 80.0), (425.0, 690.0)])


def test_a_table_filling_the_area_takes_the_sheet_in_its_middle():
    """The novus board fills the area's height: every place covers its playing surface, and
    the sheet is centred (not over the top holes) unless a piece is there."""
    box = sheet_place(AREA, SHEET, [(700.0, 165.0)], NOVUS, NOVUS_BED)
    assert box.center == MIDDLE
    moved = sheet_place(AREA, SHEET, [MIDDLE], NOVUS, NOVUS_BED)
    assert not moved.inflate(24, 24).collidepoint(MIDDLE)
