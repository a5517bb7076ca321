"""5-pins articles the referee cites that no other test names: 11.2 (a ball off the table is a
foul), 11.3.а (the striker's ball off the table put back on a short-rail spot), 15.3.е (shot
before the balls stopped), 15.3.ж (not struck with the tip), 15.3.к (a piece moved other than
by the shot); on hand-written event logs."""

from __future__ import annotations

import pytest

from cuesim.rules.fivepins.scoring import FOUL_POINTS
from cuesim.tables.carom import BALL_RADIUS, SPOTS, pin_spots
from tests.fivepins_util import game_in_play, hit, pin, play, position, rail, strike

R = BALL_RADIUS
CAROM = (strike(), hit(0.3, "white", "yellow"), hit(0.6, "white", "red"))  # 5.5: 4 points


def _foul_to_b(out, articles, points, placement):
    """A's foul: the articles cited, the points to B, B to play with the ball in hand."""
    r = out.ruling
    assert not r.legal and r.articles == articles
    assert r.points == {"B": points}
    assert r.next_player == "B" and r.placement == placement
    assert "yellow" not in out.layout.ids()  # B's ball is in hand (13.2)


# -- 11.2 a ball off the table ---------------------------------------------------------------
@pytest.mark.parametrize("ball", ["white", "yellow", "red"])
def test_11_2_a_ball_off_the_table_is_a_two_point_foul(ball):
    """5-pins 11.2: "Сам факт выскакивания шара считается ошибкой (2 очка)", whichever ball
    leaves the table; the shot's own points (carom 4, a side pin 2) go to the opponent with
    it (7.5) and he plays from hand (15.3.д). The ruling cites 15.3.д and 11.2."""
    assert FOUL_POINTS == 2
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "yellow"), pin(0.5, "yellow", "pin_left"),
               hit(0.7, "white", "red"), final=position().without([ball]),
               infractions=[{"code": "off_table", "pieces": [ball]}])
    _foul_to_b(out, ["5-pins 15.3.д"], 2 + 4 + 2, "top_half")  # the white lies bottom
    assert "11.2" in out.ruling.violations[0].text
    assert g.state.scores == {"A": 0, "B": 8} and g.state.shooter == "B"


# -- 11.3.а the striker's ball off the table --------------------------------------------------
@pytest.mark.parametrize("changes, spot, placement", [
    ({"yellow": [0.50, 1.00]}, "top_spot", "bottom_half"),  # the yellow in the bottom half
    ({}, "bottom_spot", "top_half"),  # the yellow in the top half
    ({"yellow": [0.50, 1.00], "red": list(SPOTS["top_spot"])}, "red_spot", "bottom_half"),
    ({"red": [SPOTS["bottom_spot"][0] + R, SPOTS["bottom_spot"][1] + R]}, "red_spot",
     "bottom_half"),  # the red covers the bottom spot without standing on it
], ids=["opposite-bottom", "opposite-top", "spot-taken-by-red", "spot-covered-by-red"])
def test_11_3_a_striker_ball_off_the_table_goes_on_a_short_rail_spot(changes, spot, placement):
    """5-pins 11.3.а: the striker's ball that left the table goes on the spot by the short rail
    opposite the half of the opponent's ball, who plays from hand; if a ball occupies or
    covers that spot (here the red), on the spot of that ball (the red spot). B then has the
    ball in hand in the half opposite A's ball where it was put (13.2)."""
    g = game_in_play()
    before = position(**changes)
    out = play(g, strike(), hit(0.3, "white", "yellow"), initial=before,
               final=before.without(["white"]),
               infractions=[{"code": "off_table", "pieces": ["white"]}])
    _foul_to_b(out, ["5-pins 15.3.д"], 2, placement)
    white = out.layout.get("white")
    assert (white.x, white.y) == SPOTS[spot]
    assert out.spotted[0] == {"id": "white", "x": white.x, "y": white.y, "spot": spot,
                              "article": "5-pins 11.3.а"}


# -- 15.3.е shot before all balls stopped -----------------------------------------------------
def test_15_3_e_shot_before_the_balls_stopped():
    """5-pins 15.3.е ("шары в движении"): a shot played before all three balls stopped is a
    foul: 2 points plus the shot's carom (7.5) to the opponent, who has the ball in hand in
    the half opposite the offender's ball (13.2) or may have it put on the top spot (13.5)."""
    g = game_in_play()
    out = play(g, *CAROM, infractions=["balls_moving"])
    _foul_to_b(out, ["5-pins 15.3.е"], 2 + 4, "top_half")
    assert g.state.pending["player"] == "B" and g.state.pending["article"] == "5-pins 13.5"
    assert set(g.state.pending["options"]) == {"in_hand", "spot_offender"}


def test_15_3_e_ball_in_hand_opposite_the_offender_ball_in_the_top_half():
    """5-pins 15.3.е, 13.2: the offender's ball lies in the top half: B in hand in the bottom
    half."""
    g = game_in_play()
    before = position(white=[0.30, 2.00])
    out = play(g, strike(), hit(0.3, "white", "yellow"), initial=before,
               infractions=["balls_moving"])
    _foul_to_b(out, ["5-pins 15.3.е"], 2, "bottom_half")


# -- 15.3.ж not struck with the tip -----------------------------------------------------------
def test_15_3_zh_struck_with_the_cue_not_the_tip():
    """5-pins 15.3.ж ("наклейка"; 2: shots only with the tip): a foul even on a carom: 2 points
    plus the carom's 4 to the opponent (7.5), ball in hand (13.2)."""
    g = game_in_play()
    out = play(g, *CAROM, infractions=["cue_not_tip"])
    _foul_to_b(out, ["5-pins 15.3.ж"], 2 + 4, "top_half")
    assert g.state.scores == {"A": 0, "B": 6}


def test_15_3_zh_adds_to_a_miss():
    """5-pins 15.3.ж with 15.3.г in one shot: the fouls add up (15.1), 2 + 2."""
    g = game_in_play()
    out = play(g, strike(), rail(0.3, "white", "top_rail"), infractions=["cue_not_tip"])
    _foul_to_b(out, ["5-pins 15.3.г", "5-pins 15.3.ж"], 4, "top_half")


# -- 15.3.к a piece moved other than by the shot -----------------------------------------------
def _pin_left_nudged():
    x, y = pin_spots()["pin_left"]
    return position().moved("pin_left", x - 0.01, y), (x, y)


def test_15_3_k_pin_moved_with_the_chalk_between_shots():
    """5-pins 15.3.к ("туш"): A moves a pin off its mark with the chalk before his shot: 2
    points to B, who plays from hand (13.2); the pin goes back on its mark (12.4)."""
    g = game_in_play()
    before, mark = _pin_left_nudged()
    out = play(g, initial=before, infractions=[{"code": "moved_piece", "pieces": ["pin_left"]}])
    _foul_to_b(out, ["5-pins 15.3.к"], 2, "top_half")
    assert "pin_left" in out.ruling.violations[0].text
    p = out.layout.get("pin_left")
    assert (p.x, p.y) == mark
    assert g.state.scores == {"A": 0, "B": 2} and g.state.placement == "top_half"


def test_15_3_k_ball_moved_during_a_scoring_shot():
    """5-pins 15.3.к: the red moved by the player, not by the shot, during a carom: the carom's
    4 points go to the opponent with the 2 of the foul (7.5), ball in hand."""
    g = game_in_play()
    out = play(g, *CAROM, infractions=[{"code": "moved_piece", "pieces": ["red"]}])
    _foul_to_b(out, ["5-pins 15.3.к"], 2 + 4, "top_half")


def test_15_3_k_the_moved_piece_shown_in_the_final_layout():
    """5-pins 15.3.к: the red moved with the chalk between shots, the layout after it showing
    the red where it was pushed: still the 15.3.к foul, 2 points and ball in hand to B (was:
    refused as a ball that moved with no event touching it)."""
    g = game_in_play()
    out = play(g, initial=position(), final=position(red=[1.00, 2.45]),
               infractions=[{"code": "moved_piece", "pieces": ["red"]}])
    _foul_to_b(out, ["5-pins 15.3.к"], 2, "top_half")


def test_15_3_k_moved_pin_set_back_under_12_4():
    """5-pins 15.3.к, 12.4: a pin moved off its mark but standing is not knocked down; the
    referee puts it back before the next shot, under 12.4 (12.1 is for a knocked pin; was:
    cited 12.1)."""
    g = game_in_play()
    before, mark = _pin_left_nudged()
    out = play(g, initial=before, infractions=[{"code": "moved_piece", "pieces": ["pin_left"]}])
    entry = next(s for s in out.spotted if s["id"] == "pin_left")
    assert (entry["x"], entry["y"]) == mark and entry["article"] == "5-pins 12.4"
