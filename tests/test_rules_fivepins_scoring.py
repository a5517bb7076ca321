"""5-pins articles 5, 6, 7 and 8 (correct shots, shots worth nothing, incorrect shots, the value
of pins and caroms) and 12 (which pins count), on hand-written event logs."""

from __future__ import annotations

import pytest

from cuesim.rules.fivepins import ShotFacts, carom_points, pin_points
from tests.fivepins_util import game_in_play, hit, pin, play, rail, strike


# -- 8.1 pins ------------------------------------------------------------------------------
def test_8_1_side_pins_two_points_each():
    assert pin_points(["pin_top"]) == 2
    assert pin_points(["pin_top", "pin_left", "pin_right"]) == 6


def test_8_1_centre_pin_with_a_side_pin_is_four():
    assert pin_points(["pin_centre", "pin_top"]) == 6
    assert pin_points(["pin_centre", "pin_top", "pin_left", "pin_right", "pin_bottom"]) == 12


def test_8_1_centre_pin_alone_is_eight():
    assert pin_points(["pin_centre"]) == 8


def test_8_1_unknown_pin_is_refused():
    with pytest.raises(ValueError, match="unknown pin"):
        pin_points(["pin_middle"])


# -- 8.2 caroms ----------------------------------------------------------------------------
def test_8_2_carom_values():
    assert carom_points("direct") == 4 and carom_points("ricochet") == 3
    assert carom_points(None) == 0


def test_8_2_only_the_first_carom_counts():
    evs = [strike(), hit(0.2, "white", "yellow"), hit(0.4, "yellow", "red"),
           hit(0.6, "white", "red")]
    f = ShotFacts.from_events(evs, "white", "yellow")
    assert f.carom == "ricochet"
    evs = [strike(), hit(0.2, "white", "yellow"), hit(0.4, "white", "red"),
           hit(0.6, "yellow", "red")]
    assert ShotFacts.from_events(evs, "white", "yellow").carom == "direct"


def test_8_2_pin_and_carom_points_add():
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "yellow"), pin(0.6, "yellow", "pin_left"),
               hit(0.9, "white", "red"))
    assert out.ruling.legal and out.ruling.points == {"A": 6}


# -- 5 correct shots -------------------------------------------------------------------------
def test_5_1_opponent_ball_knocks_pins():
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "yellow"), pin(0.6, "yellow", "pin_top"),
               pin(0.62, "pin_top", "pin_centre"))
    assert out.ruling.legal and out.ruling.points == {"A": 6}
    assert any("5.1" in n for n in out.ruling.notes)
    assert g.state.scores == {"A": 6, "B": 0}


def test_5_2_carom_then_pins_by_the_red():
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "yellow"), hit(0.6, "white", "red"),
               pin(0.9, "red", "pin_centre"))
    assert out.ruling.legal and out.ruling.points == {"A": 12}  # 4 + 8


def test_5_3_ricochet_then_pins():
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "yellow"), hit(0.6, "yellow", "red"),
               pin(0.9, "yellow", "pin_right"))
    assert out.ruling.points == {"A": 5}
    assert any("5.3" in n for n in out.ruling.notes)


def test_5_5_and_5_6_caroms_alone():
    g = game_in_play()
    assert play(g, strike(), hit(0.3, "white", "yellow"),
                hit(0.6, "white", "red")).ruling.points == {"A": 4}
    out = play(g, strike("yellow"), hit(0.3, "yellow", "white"), hit(0.6, "white", "red"))
    assert out.ruling.points == {"B": 3}


def test_5_7_both_balls_on_the_red_at_once_is_the_direct_carom():
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "yellow"), hit(0.6, "white", "red"),
               hit(0.6, "yellow", "red"))
    assert out.ruling.legal and out.ruling.points == {"A": 4}
    assert any("5.7" in n for n in out.ruling.notes)


# -- 6 correct, worth nothing ----------------------------------------------------------------
def test_6_only_the_opponent_ball_touched():
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "yellow"), rail(0.6, "yellow", "top_rail"))
    assert out.ruling.legal and out.ruling.points == {}
    assert out.ruling.turn_passes and out.ruling.next_player == "B"  # 2: shots alternate
    assert out.ruling.placement is None
    assert any("5-pins 6" in n for n in out.ruling.notes)


# -- 7 incorrect shots: the points go to the opponent ----------------------------------------
def test_7_1_miss_gives_two_to_the_opponent():
    g = game_in_play()
    out = play(g, strike(), rail(0.5, "white", "top_rail"))
    assert not out.ruling.legal and out.ruling.points == {"B": 2}
    assert out.ruling.articles == ["5-pins 15.3.г"]


def test_7_2_red_first_then_pins_all_to_the_opponent():
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "red"), pin(0.6, "red", "pin_centre"))
    assert out.ruling.articles == ["5-pins 15.3.б"]
    assert out.ruling.points == {"B": 4 + 8}


def test_7_3_striker_and_opponent_ball_both_knock_pins():
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "yellow"), pin(0.5, "yellow", "pin_top"),
               pin(0.7, "white", "pin_left"))
    assert out.ruling.articles == ["5-pins 15.2"]
    assert out.ruling.points == {"B": 2 + 4}
    assert out.ruling.placement is None  # 15.2: no ball in hand


def test_7_4_wrong_ball():
    g = game_in_play()
    out = play(g, strike("yellow"), hit(0.3, "yellow", "white"))
    assert out.ruling.articles == ["5-pins 15.3.а"]
    assert out.ruling.points == {"B": 2}
    assert out.ruling.placement is not None


def test_7_5_positive_points_with_a_foul_go_to_the_opponent():
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "yellow"), pin(0.5, "yellow", "pin_centre"),
               infractions=["double_hit"])
    assert out.ruling.articles == ["5-pins 15.3.з"]
    assert out.ruling.points == {"B": 8 + 2}
    assert g.state.scores == {"A": 0, "B": 10}


# -- 12 pins -----------------------------------------------------------------------------------
def test_12_3_pins_knocked_by_pins_count():
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "yellow"), pin(0.5, "yellow", "pin_bottom"),
               pin(0.52, "pin_bottom", "pin_centre"), pin(0.55, "pin_centre", "pin_top"))
    assert out.ruling.points == {"A": 8}


def test_12_3_chain_is_traced_to_the_striker_ball():
    evs = [strike(), hit(0.3, "white", "yellow"), pin(0.5, "white", "pin_bottom"),
           pin(0.52, "pin_bottom", "pin_centre")]
    f = ShotFacts.from_events(evs, "white", "yellow")
    assert [k.origin for k in f.pins] == ["white", "white"]


def test_12_2_a_knocked_pin_back_on_its_spot_counts():
    """In the physics a knocked pin is thrown; wherever it ends (even on its mark) its PIN
    event counts it."""
    from tests.fivepins_util import position
    g = game_in_play()
    before = position()
    out = play(g, strike(), hit(0.3, "white", "yellow"), pin(0.5, "yellow", "pin_left"),
               initial=before, final=before)
    assert out.ruling.points == {"A": 2}
    assert [s["id"] for s in out.spotted] == ["pin_left"]


def test_12_4_a_pin_only_moved_does_not_count_and_is_reset():
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "yellow"), pin(0.5, "yellow", "pin_left"),
               pin(0.5, "yellow", "pin_top"), moved_pins=["pin_left"])
    assert out.ruling.points == {"A": 2}
    arts = {s["id"]: s["article"] for s in out.spotted}
    assert arts["pin_left"] == "5-pins 12.4"


def test_12_4_15_2_15_3_v_a_pin_only_moved_is_no_foul_either():
    """12.4: a pin moved with its base on the cloth is not knocked down, so the fouls that
    name knocked pins (15.2 after the opponent's ball, 15.3.в before it) do not apply."""
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "yellow"), pin(0.6, "white", "pin_left"),
               moved_pins=["pin_left"])
    assert out.ruling.legal and out.ruling.points == {}
    assert any("5-pins 6" in n for n in out.ruling.notes)
    out = play(g, strike("yellow"), pin(0.3, "yellow", "pin_bottom"),
               hit(0.6, "yellow", "white"), moved_pins=["pin_bottom"])
    assert out.ruling.legal and out.ruling.articles == []
    out = play(g, strike(), hit(0.3, "white", "yellow"), pin(0.5, "yellow", "pin_top"),
               pin(0.6, "white", "pin_left"), moved_pins=["pin_left"])
    assert out.ruling.legal and out.ruling.points == {"A": 2}  # 5.1: yellow's pin only


def test_7_4_8_2_a_wrong_ball_plays_the_carom_of_the_ball_struck():
    """8.2 read from the ball the cue struck: the yellow struck by A (7.4) on the white and
    then on the red is a direct carom (4), the white sent on the red a ricochet (3); both go
    to the opponent with the foul's 2 (7, 15.3.а)."""
    g = game_in_play()
    out = play(g, strike("yellow"), hit(0.3, "yellow", "white"), hit(0.6, "yellow", "red"))
    assert out.ruling.articles == ["5-pins 15.3.а"] and out.ruling.points == {"B": 2 + 4}
    g = game_in_play()
    out = play(g, strike("yellow"), hit(0.3, "yellow", "white"), hit(0.6, "white", "red"))
    assert out.ruling.points == {"B": 2 + 3}
    g = game_in_play()  # the red struck: no carom (8.2 names the red as the third ball)
    out = play(g, strike("red"), hit(0.3, "red", "white"), hit(0.6, "white", "yellow"),
               pin(0.8, "red", "pin_top"))
    assert out.ruling.points == {"B": 2 + 2}


def test_5_7_8_2_the_red_touched_within_the_same_instant_before_the_opponent_ball():
    """The red touched 0.5 us before the opponent's ball is touched at the same time (the
    referee's window, facts.SIMULTANEOUS_S): not the red first (15.3.б), and the carom counts
    as it does when the log lists the red second."""
    from cuesim.rules.fivepins.facts import SIMULTANEOUS_S
    dt = 0.5 * SIMULTANEOUS_S
    results = []
    for t_red in (0.3 - dt, 0.3, 0.3 + dt):
        g = game_in_play()
        out = play(g, strike(), *sorted([hit(0.3, "white", "yellow"), hit(t_red, "white", "red")],
                                        key=lambda e: e.t))
        results.append((out.ruling.legal, out.ruling.points))
    assert results == [(True, {"A": 4})] * 3


def test_15_3_b_the_red_first_alone_is_noted_as_7_5_and_with_pins_as_7_2():
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "red"), rail(0.6, "white", "top_rail"))
    assert any("incorrect shot (5-pins 7.5)" in n for n in out.ruling.notes)
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "red"), pin(0.6, "red", "pin_top"))
    assert any("incorrect shot (5-pins 7.2)" in n for n in out.ruling.notes)


def test_15_2_the_striker_ball_alone_knocking_pins_is_noted_as_7_5_with_the_other_7_3():
    """7.3 needs the opponent's ball or the red to knock pins too; the striker's ball alone
    after a correct touch is the 15.2 foul of 7.5."""
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "yellow"), pin(0.6, "white", "pin_left"))
    assert out.ruling.articles == ["5-pins 15.2"]
    assert any("incorrect shot (5-pins 7.5)" in n for n in out.ruling.notes)
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "yellow"), pin(0.5, "yellow", "pin_top"),
               pin(0.7, "white", "pin_left"))
    assert any("incorrect shot (5-pins 7.3)" in n for n in out.ruling.notes)
