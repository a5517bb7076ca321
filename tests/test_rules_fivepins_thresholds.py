"""Both sides of every numeric threshold of the 5-pins referee: the points that end a game (2),
the 1 mm of "exactly on the middle line" (13.4), the 0.1 mm of balls and a ball and a cushion
in contact (10), the 1 mm of a ball on its spot (4.1), a ball wholly in its half (4.2), and a
ball covering a pin's mark (12.7). The numbers are written here, not imported from the referee,
so a changed constant or comparison fails a test."""

from __future__ import annotations

import math

import pytest

from cuesim.rules.fivepins import FivePinsGame
from tests.fivepins_util import game_in_play, hit, layout, pin, play, position, rail, strike

TABLE_WIDTH, TABLE_LENGTH = 1.420, 2.840  # m, the match table between the noses
HALF_Y = TABLE_LENGTH / 2  # the middle line (1.5)
R = 0.0615 / 2  # m, ball radius
TOP_SPOT = (TABLE_WIDTH / 2, TABLE_LENGTH - 0.100)  # 1.1
RED_SPOT = (TABLE_WIDTH / 2, 3 * TABLE_LENGTH / 4)  # 1.2
ON_LINE = 0.001  # m: "exactly on the middle line" (13.4; the referee's choice)
CONTACT = 1e-4  # m: balls or a ball and a cushion in contact (10; the referee's choice)
ON_SPOT = 0.001  # m: a ball on its spot (4.1; the referee's choice)
# a ball touches a standing pin at the 3D sphere-sphere distance of the ball and the pin's
# spherical head (tables.carom.pin_contact): sqrt((R + a)^2 - (R - c)^2), a = 3.25 mm,
# c = 25 - 3.25 mm
PIN_REACH = math.sqrt((R + 0.00325) ** 2 - (R - (0.025 - 0.00325)) ** 2)


# --- 2: the game ends at the points set, not one short ------------------------------------------
@pytest.mark.parametrize("before, over", [(7, False), (8, True)])
def test_2_reaching_the_points_set_wins_one_short_does_not(before, over):
    g = game_in_play(points_to=10)
    g.state.scores = {"A": before, "B": 3}
    out = play(g, strike(), hit(0.3, "white", "yellow"), pin(0.5, "yellow", "pin_top"))
    assert out.ruling.points == {"A": 2}
    assert out.ruling.frame_over is over
    assert (out.ruling.winner == "A") is over


# --- 13.4: the offender's ball exactly on the middle line (within 1 mm) --------------------------
@pytest.mark.parametrize("below, placement", [(0.9 * ON_LINE, "bottom_half"),
                                              (1.1 * ON_LINE, "top_half")])
def test_13_4_offender_ball_within_a_millimetre_of_the_middle_line(below, placement):
    """On the line: the incoming ball goes in the bottom half (13.4); just inside the bottom
    half: in the half opposite it, the top (13.2)."""
    g = game_in_play()
    out = play(g, strike(), rail(0.3, "white", "top_rail"),
               final=position(white=[0.2, HALF_Y - below]))
    assert out.ruling.placement == placement


@pytest.mark.parametrize("below, cited", [(0.9 * ON_LINE, "(5-pins 13.3, 13.4)"),
                                          (1.1 * ON_LINE, "(5-pins 13.2, 13.3)")])
def test_13_2_13_4_the_ball_in_hand_note_cites_its_half_and_13_3(below, cited):
    """The ruling's "has ball in hand in the ... half" cites the article that chose the half
    (13.4 on the middle line, else 13.2) with 13.3 (placed wholly inside it), as the viewer's
    header does for the same fact."""
    g = game_in_play()
    out = play(g, strike(), rail(0.3, "white", "top_rail"),
               final=position(white=[0.2, HALF_Y - below]))
    note = next(n for n in out.ruling.notes if "has ball in hand in the" in n)
    assert f"half {cited} or may have" in note, note


# --- 10.1 / 10.2: in contact within 0.1 mm -------------------------------------------------------
@pytest.mark.parametrize("gap, touching", [(0.5 * CONTACT, True), (0.99 * CONTACT, True),
                                           (1.01 * CONTACT, False), (2.0 * CONTACT, False)])
def test_10_1_balls_in_contact_within_the_tolerance(gap, touching):
    before = position(white=[0.50, 2.30 - 2 * R - gap])
    out = play(game_in_play(), strike(), hit(0.0, "white", "yellow"), initial=before)
    assert (out.ruling.articles == ["5-pins 15.3.л"]) is touching
    assert out.ruling.legal is not touching


@pytest.mark.parametrize("gap, touching", [(0.5 * CONTACT, True), (1.01 * CONTACT, False)])
def test_10_2_ball_and_cushion_in_contact_within_the_tolerance(gap, touching):
    before = position(white=[R + gap, 0.6])
    out = play(game_in_play(), strike(), rail(0.0, "white", "left_rail"),
               hit(0.5, "white", "yellow"), initial=before)
    assert (out.ruling.articles == ["5-pins 15.3.л"]) is touching


# --- 4.1: the opponent's ball and the red on their spots within 1 mm -----------------------------
@pytest.mark.parametrize("off, accepted", [(0.9 * ON_SPOT, True), (1.1 * ON_SPOT, False)])
def test_4_1_opponent_ball_within_a_millimetre_of_its_spot(off, accepted):
    opening = {"white": [0.4, 0.7], "yellow": [TOP_SPOT[0] + off, TOP_SPOT[1]],
               "red": list(RED_SPOT)}
    g = FivePinsGame(players=("A", "B"))
    if accepted:
        out = play(g, strike(), hit(0.4, "white", "yellow"), initial=layout(**opening))
        assert out.ruling.legal
    else:
        with pytest.raises(ValueError, match="4.1"):
            play(g, strike(), hit(0.4, "white", "yellow"), initial=layout(**opening))


# --- 4.2: no part of the breaker's ball over the middle line -------------------------------------
@pytest.mark.parametrize("over, fouled", [(-1e-6, False), (0.0, False), (1e-6, True)])
def test_4_2_breaker_ball_touching_the_middle_line_from_below(over, fouled):
    opening = {"white": [0.4, HALF_Y - R + over], "yellow": list(TOP_SPOT),
               "red": list(RED_SPOT)}
    out = play(FivePinsGame(players=("A", "B")), strike(), hit(0.4, "white", "yellow"),
               initial=layout(**opening))
    assert (out.ruling.articles == ["5-pins 4.2"]) is fouled


# --- 12.7: a ball on or near a pin's mark keeps the pin off --------------------------------------
@pytest.mark.parametrize("gap, removed", [(0.5 * CONTACT, True), (2.0 * CONTACT, False)])
def test_12_7_ball_near_a_pin_mark_within_the_contact_tolerance(gap, removed):
    from cuesim.tables.carom import pin_spots

    cx, cy = pin_spots()["pin_top"]
    final = position(yellow=[cx, cy + PIN_REACH + gap])
    out = play(game_in_play(), strike(), hit(0.3, "white", "yellow"),
               pin(0.5, "yellow", "pin_top"), final=final)
    assert ("pin_top" in out.removed_pins) is removed
    assert ("pin_top" in out.layout.ids()) is not removed
