"""Both sides of every numeric threshold of the novus referee: the hole clearances that make a
puck dark (11), the 1e-12 s that makes two contacts simultaneous (17.1.б), the 0.1 mm that
makes a puck moved (16.1.г), the counts of 16.1.а, 16.1.г, 16.1.д, 19/15.3 and 23.1, and the
1 mm of the doubles row (21.6). The numbers are written here, not imported from the referee, so
a changed constant or comparison fails a test."""

from __future__ import annotations

import pytest

from cuesim.rules.novus.placement import start_row
from cuesim.rules.novus.terms import centre_in_circle, hole_in_circle, hole_in_zone
from tests.novus_util import articles, hit, moved, puck, rule, striker

ZONE_LINE = 0.130  # m from the rail (24.2)
CIRCLE_RADIUS = 0.125  # m (24.2)
HOLE_CLEAR = 0.004 + 0.0005  # m: the 8 mm hole's radius plus half the 1 mm line (11)
SIMULTANEOUS = 1e-12  # s (17.1.б; the referee's choice)
MOVE_TOL = 1e-4  # m: displaced by more is moved (16.1.г; the referee's choice)
ROW_TOL = 1e-3  # m: a start-row puck this close to its place has not moved (21.6)
EPS = 1e-7  # m: one step either side of a geometric boundary

BLACK = [puck("black1", 0.40, 0.30), puck("black2", 0.60, 0.30)]


# --- 11: dark and light ------------------------------------------------------------------------
def test_11_hole_in_the_own_zone_either_side_of_the_boundary():
    y = ZONE_LINE - HOLE_CLEAR  # south zone: the hole's edge on the line's far edge
    assert hole_in_zone("south", 0.5, y - EPS) and not hole_in_zone("south", 0.5, y + EPS)
    x = 1.0 - ZONE_LINE + HOLE_CLEAR  # east zone
    assert hole_in_zone("east", x + EPS, 0.5) and not hole_in_zone("east", x - EPS, 0.5)


def test_11_hole_in_the_centre_circle_either_side_of_the_boundary():
    r = CIRCLE_RADIUS - HOLE_CLEAR
    assert hole_in_circle(0.5, 0.5 + r - EPS) and not hole_in_circle(0.5, 0.5 + r + EPS)
    assert hole_in_circle(0.5 - r + EPS, 0.5) and not hole_in_circle(0.5 - r - EPS, 0.5)


def test_13_3_centre_in_the_circle_either_side_of_the_boundary():
    assert centre_in_circle(0.5, 0.5 + CIRCLE_RADIUS - EPS)
    assert not centre_in_circle(0.5, 0.5 + CIRCLE_RADIUS + EPS)


# --- 17.1.б: own light puck and an opponent's puck at once ---------------------------------------
OWN_LIGHT = puck("red1", 0.485, 0.70)  # light: outside the centre circle and the south zone
OPP = puck("black1", 0.515, 0.70)


def _direct(dt: float, first: str = "red1", second: str = "black1") -> dict:
    before = [striker(), OWN_LIGHT, OPP, puck("red2", 0.2, 0.8)]
    return rule(before, before, [hit(0.05, first), hit(0.05 + dt, second)])


def test_17_1_b_own_light_and_opponent_puck_at_once_is_punishable():
    out = _direct(0.0)
    assert out["analysis"]["light_before"] == ["red1", "red2"]
    assert out["analysis"]["first_pucks"] == ["red1", "black1"]
    assert not out["analysis"]["correct"]
    assert "novus 17.1.б" in articles(out) and "novus 17.1.а" in articles(out)


def test_17_1_b_two_own_light_pucks_at_once_is_correct():
    out = _direct(0.0, second="red2")
    assert out["analysis"]["correct_by"] == "13.1" and out["ruling"]["legal"]


@pytest.mark.parametrize("dt, punished", [(0.5 * SIMULTANEOUS, True), (SIMULTANEOUS, True),
                                          (1e3 * SIMULTANEOUS, False)])
def test_17_1_b_opponent_puck_within_the_simultaneity_window(dt, punished):
    out = _direct(dt)
    assert ("novus 17.1.б" in articles(out)) is punished
    assert out["analysis"]["correct"] is not punished


# --- 16.1.а: two own pucks knocked out of the dark area, not one ---------------------------------
@pytest.mark.parametrize("knocked, lost", [(1, False), (2, True)])
def test_16_1_a_one_dark_puck_knocked_out_is_not_the_set(knocked, lost):
    before = [striker(0.3, 0.07), puck("red1", 0.45, 0.1), puck("red2", 0.48, 0.1),
              puck("red3", 0.5, 0.8), *BLACK]
    after = moved(before, "red1", 0.45, 0.3)
    if knocked == 2:
        after = moved(after, "red2", 0.55, 0.3)
    out = rule(before, after, [hit(0.05, "black1"), hit(0.1, "red1", "black1"),
                               hit(0.12, "red1", "red2")], state={"sets": 3})
    assert ("novus 16.1.а" in articles(out)) is lost
    assert out["ruling"]["frame_over"] is lost
    assert "novus 17.1.б" in articles(out)  # punishable either way


# --- 16.1.г: first on an own dark puck, then two pucks moved (by more than 0.1 mm) --------------
@pytest.mark.parametrize("shift, lost", [(0.0, False), (0.5 * MOVE_TOL, False),
                                         (0.99 * MOVE_TOL, False), (1.01 * MOVE_TOL, True),
                                         (2.0 * MOVE_TOL, True)])
def test_16_1_g_second_puck_moved_by_more_than_the_tolerance(shift, lost):
    before = [striker(0.3, 0.07), puck("red1", 0.45, 0.1), puck("red2", 0.5, 0.8), *BLACK]
    after = moved(moved(before, "red1", 0.42, 0.25), "black1", 0.40, 0.30 + shift)
    out = rule(before, after, [hit(0.05, "red1"), hit(0.1, "red1", "black1")],
               state={"sets": 3})
    assert ("novus 16.1.г" in articles(out)) is lost
    if lost:
        assert "(red1, black1)" in out["ruling"]["violations"][-1]["text"]
    else:
        assert out["analysis"]["moved"] == ["red1"]


# --- 16.1.д: two or more pucks moved without a shot, not one (one is 17.1.о) ---------------------
@pytest.mark.parametrize("code, pieces, article, lost", [
    ("touched_puck", ["red1"], "novus 17.1.о", False),
    ("touched_puck", ["red1", "red2"], "novus 17.1.о", False),
    ("moved_pucks", ["red1", "red2"], "novus 16.1.д", True)])
def test_16_1_d_two_moved_pucks_lose_the_set_touched_ones_cost_a_penalty(code, pieces, article,
                                                                        lost):
    base = [striker(), puck("red1", 0.3, 0.7), puck("red2", 0.7, 0.7), *BLACK]
    out = rule(base, None, state={"sets": 3}, infractions=[{"code": code, "pieces": pieces}])
    assert articles(out) == [article]
    assert out["ruling"]["frame_over"] is lost


# --- 19 / 15.3: the third warning, not the second ------------------------------------------------
@pytest.mark.parametrize("earlier, over", [(1, False), (2, True)])
def test_19_second_warning_plays_on_third_loses(earlier, over):
    base = [striker(), puck("red1", 0.3, 0.7), *BLACK]
    out = rule(base, None, state={"sets": 5, "warnings": {"A": earlier}},
               infractions=[{"code": "time_warning", "player": "A"}])
    if not over:
        assert out["state"]["warnings"]["A"] == earlier + 1
    assert out["ruling"]["match_over"] is over


# --- 23.1: more than half of the sets ----------------------------------------------------------
@pytest.mark.parametrize("sets, won_before, over", [(3, 1, True), (4, 1, False), (4, 2, True),
                                                    (5, 1, False)])
def test_23_1_more_than_half_of_the_sets_ends_the_match(sets, won_before, over):
    before = [striker(), puck("red1", 0.3, 0.7), *BLACK]
    after = [p for p in before if p["id"] != "red1"]
    events = [hit(0.1, "red1"), {"t": 0.3, "kind": "pocket", "a": "red1",
                                 "feature": "north_west"}]
    out = rule(before, after, events, state={
        "sets": sets, "set_number": won_before + 1, "sets_won": {"A": won_before, "B": 0},
        "series": {"A": 2}})
    assert out["state"]["sets_won"]["A"] == won_before + 1
    assert out["ruling"]["frame_over"] and out["ruling"]["match_over"] is over


# --- 21.6: the doubles row counts as moved when a puck left its place by more than 1 mm -------
@pytest.mark.parametrize("shift, placed", [(0.5 * ROW_TOL, False), (0.99 * ROW_TOL, False),
                                           (1.01 * ROW_TOL, True), (2.0 * ROW_TOL, True)])
def test_21_6_row_puck_moved_by_more_than_a_millimetre(shift, placed):
    row = [{"id": p.id, "kind": "puck", "group": "red", "x": p.x, "y": p.y}
           for p in start_row("south", "red", 1)]
    row[3] = dict(row[3], y=row[3]["y"] - shift)  # away from the north rail
    before = [striker(), *row, puck("black1", 0.3, 0.5)]
    out = rule(before, before, [], state={"mode": "doubles", "players": ["a1", "a2", "b1", "b2"],
                                          "sets": 3})
    assert out["state"]["debt"]["red"] == (0 if placed else 1)
    assert bool(out["ruling"]["spotted"]) is placed
