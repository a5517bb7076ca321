"""Article 8: the value of the pins knocked and of the first carom in one shot."""

from __future__ import annotations

from collections.abc import Iterable

from cuesim.rules.fivepins.facts import CAROM_POINTS
from cuesim.rules.fivepins.model import CENTRE_PIN, PINS

SIDE_PIN_POINTS = 2  # 8.1: each side (white) pin
CENTRE_WITH_SIDE_POINTS = 4  # 8.1: the centre (red) pin knocked with a side pin
CENTRE_ALONE_POINTS = 8  # 8.1: the centre pin alone, the figure full or not
FOUL_POINTS = 2  # 11.2, 15.2, 15.3: each foul
RED_FIRST_POINTS = 4  # 15.3.б: 2 for the miss + 2 for the carom


def pin_points(pins: Iterable[str]) -> int:
    """8.1: 2 for each side pin; the centre pin 4 when a side pin falls with it, 8 alone."""
    knocked = set(pins)
    unknown = knocked - set(PINS)
    if unknown:
        raise ValueError(f"unknown pin(s) {sorted(unknown)}; pins are {list(PINS)}")
    sides = len(knocked - {CENTRE_PIN})
    points = SIDE_PIN_POINTS * sides
    if CENTRE_PIN in knocked:
        points += CENTRE_WITH_SIDE_POINTS if sides else CENTRE_ALONE_POINTS
    return points


def carom_points(carom: str | None) -> int:
    """8.2: the direct carom 4, the ricochet carom 3, none 0 (only the first carom counts)."""
    return CAROM_POINTS[carom] if carom else 0
