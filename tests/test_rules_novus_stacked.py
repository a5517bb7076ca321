"""Novus 12, stacked pucks: a puck that comes to rest on another is put beside it on the side
it overhangs (declared: 2D physics cannot see one puck on top of another)."""

from __future__ import annotations

import math

import pytest

from tests.novus_util import hit, moved, puck, rule, striker

BEFORE = [striker(), puck("red1", 0.30, 0.70), puck("red2", 0.50, 0.60),
          puck("black1", 0.40, 0.30)]


def _after(x: float, y: float) -> list:
    return moved(BEFORE, "red1", x, y)


def test_12_stacked_puck_is_put_beside_on_the_side_it_overhangs():
    """red1 came to rest on red2, overhanging to the east: it goes beside red2, touching it,
    to the east; not a violation."""
    out = rule(BEFORE, _after(0.51, 0.60), [hit(0.1, "red1")],
               infractions=[{"code": "stacked_puck", "pieces": ["red1", "red2"]}])
    assert out["ruling"]["violations"] == []
    (spot,) = [s for s in out["ruling"]["spotted"] if s["id"] == "red1"]
    assert spot["article"] == "novus 12"
    assert spot["x"] == pytest.approx(0.53) and spot["y"] == pytest.approx(0.60)
    red2 = next(p for p in out["layout"]["pieces"] if p["id"] == "red2")
    assert math.hypot(spot["x"] - red2["x"], spot["y"] - red2["y"]) == pytest.approx(0.03)


def test_12_concentric_stack_goes_toward_the_named_rail_or_the_next_free_place():
    """A puck exactly on top of another goes toward the rail the declaration names; if that
    place is taken, to the nearest free place around the lower puck."""
    out = rule(BEFORE, _after(0.50, 0.60), [hit(0.1, "red1")],
               infractions=[{"code": "stacked_puck", "pieces": ["red1", "red2"],
                             "note": "north"}])
    (spot,) = [s for s in out["ruling"]["spotted"] if s["id"] == "red1"]
    assert (spot["x"], spot["y"]) == pytest.approx((0.50, 0.63))
    blocked = [*_after(0.50, 0.60), puck("black2", 0.50, 0.64)]
    out = rule([*BEFORE, puck("black2", 0.50, 0.64)], blocked, [hit(0.1, "red1")],
               infractions=[{"code": "stacked_puck", "pieces": ["red1", "red2"],
                             "note": "north"}])
    (spot,) = [s for s in out["ruling"]["spotted"] if s["id"] == "red1"]
    assert math.hypot(spot["x"] - 0.50, spot["y"] - 0.60) == pytest.approx(0.03)
    assert math.hypot(spot["x"] - 0.50, spot["y"] - 0.64) >= 0.03 - 1e-9


def test_12_stacked_puck_declaration_must_name_two_pucks_on_the_board():
    with pytest.raises(ValueError, match="must name two pieces"):
        rule(BEFORE, _after(0.51, 0.60), [hit(0.1, "red1")],
             infractions=[{"code": "stacked_puck", "pieces": ["red1"]}])
    with pytest.raises(ValueError, match="not on the board"):
        rule(BEFORE, _after(0.51, 0.60), [hit(0.1, "red1")],
             infractions=[{"code": "stacked_puck", "pieces": ["red1", "red9"]}])

