"""The first-contact label's place (`cuesim.viewer.aim.label_place`): every ring's places tested
against all the circles at once gives the place the one-by-one test gave, on random scenes."""

from __future__ import annotations

import math
import random

import pygame
import pytest

from cuesim.viewer.aim import LABEL_PLACES_PER_RING, LABEL_RINGS, label_place


def one_by_one(text_size, anchor, circles, bounds, avoid=()):
    """The label's place as the viewer found it before: each place tested against each circle
    in Python (the reference)."""
    def hits(rect, circle):
        x, y, r = circle
        nx = min(max(x, rect.left), rect.right)
        ny = min(max(y, rect.top), rect.bottom)
        return math.hypot(nx - x, ny - y) < r + 3

    w, h = text_size
    best = None
    for ring in LABEL_RINGS:
        for k in range(LABEL_PLACES_PER_RING):
            a = 2 * math.pi * k / LABEL_PLACES_PER_RING
            cx = anchor[0] + ring * math.cos(a)
            cy = anchor[1] + ring * math.sin(a)
            rect = pygame.Rect(round(cx - w / 2), round(cy - h / 2), w, h)
            if not bounds.contains(rect):
                continue
            if any(hits(rect, c) for c in circles) or rect.collidelist(list(avoid)) >= 0:
                continue
            d = math.hypot(cx - anchor[0], cy - anchor[1])
            if best is None or d < best[0]:
                best = (d, rect.topleft)
        if best is not None:
            return best[1]
    x = min(max(bounds.left, round(anchor[0] + 12)), bounds.right - w)
    return x, min(max(bounds.top, round(anchor[1] - h - 12)), bounds.bottom - h)


@pytest.mark.parametrize("seed", range(40))
def test_label_place_is_the_one_by_one_place(seed):
    """Random tables of pieces (big circles) and aim lines (rows of small ones), crowded or
    sparse, with rects to avoid: the same corner as the reference, including the fallback
    when no ring has a free place."""
    rng = random.Random(seed)
    bounds = pygame.Rect(40, 30, rng.randint(300, 900), rng.randint(200, 600))
    anchor = (rng.uniform(bounds.left, bounds.right), rng.uniform(bounds.top, bounds.bottom))
    circles = [(rng.uniform(0, 1000), rng.uniform(0, 700), rng.uniform(5, 40))
               for _ in range(rng.choice([0, 3, 30, 200]))]
    x0, y0 = anchor
    for _ in range(rng.randint(0, 3)):  # aim lines: a circle of 2 px every 6 px
        a, n = rng.uniform(0, 2 * math.pi), rng.randint(10, 300)
        circles += [(x0 + 6 * k * math.cos(a), y0 + 6 * k * math.sin(a), 2.0) for k in range(n)]
    avoid = [pygame.Rect(rng.randint(0, 900), rng.randint(0, 600), rng.randint(10, 200),
                         rng.randint(10, 100)) for _ in range(rng.randint(0, 3))]
    size = (rng.randint(40, 260), rng.randint(12, 30))
    assert label_place(size, anchor, circles, bounds, avoid) == \
        one_by_one(size, anchor, circles, bounds, avoid)
