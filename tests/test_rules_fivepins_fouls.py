"""5-pins article 15 (fouls), 10 (balls in contact), 11 (balls off the table), 12.7 (pins
whose mark a ball covers) and 13 (ball in hand), on hand-written event logs."""

from __future__ import annotations

import pytest

from cuesim.rules.fivepins import INFRACTIONS
from cuesim.rules.fivepins.fouls import AT_PLACED_SHOT, WITH_BALL_IN_HAND
from cuesim.rules.fivepins.placement import HALF_Y
from cuesim.tables.carom import BALL_RADIUS, SPOTS, TABLE_WIDTH, pin_spots
from tests.fivepins_util import game_in_play, hit, pin, play, position, rail, strike

R = BALL_RADIUS


# -- 15.1 several fouls add up ----------------------------------------------------------------
def test_15_1_fouls_add_up():
    g = game_in_play()
    out = play(g, strike(), rail(0.5, "white", "top_rail"),
               infractions=["double_hit", "push_shot"])
    assert sorted(out.ruling.articles) == ["5-pins 15.3.г", "5-pins 15.3.з", "5-pins 15.3.р"]
    assert out.ruling.points == {"B": 6}


# -- 15.2 the striker's ball knocks pins after a correct hit ----------------------------------
def test_15_2_points_only_no_ball_in_hand():
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "yellow"), hit(0.5, "white", "red"),
               pin(0.7, "white", "pin_centre"))
    assert out.ruling.articles == ["5-pins 15.2"]
    assert out.ruling.points == {"B": 2 + 8 + 4}
    assert out.ruling.next_player == "B" and out.ruling.placement is None
    assert "yellow" in out.layout.ids()  # B plays his ball where it lies


# -- 15.3 б в г ---------------------------------------------------------------------------------
def test_15_3_b_red_first_is_four_points_and_ball_in_hand():
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "red"), hit(0.6, "white", "yellow"))
    assert out.ruling.articles == ["5-pins 15.3.б"]
    assert out.ruling.points == {"B": 4}
    assert out.ruling.placement == "top_half"  # the white lies in the bottom half (13.2)


def test_15_3_v_pins_before_the_opponent_ball():
    g = game_in_play()
    out = play(g, strike(), pin(0.3, "white", "pin_bottom"), hit(0.6, "white", "yellow"))
    assert out.ruling.articles == ["5-pins 15.3.в"]
    assert out.ruling.points == {"B": 2 + 2}
    assert out.ruling.placement == "top_half"


@pytest.mark.parametrize("t_pin", [0.3, 0.3 - 0.5e-6, 0.3 + 0.5e-6])
def test_15_2_15_3_v_a_pin_knocked_as_the_opponent_ball_is_touched_is_not_before_it(t_pin):
    """Contacts within 1 us are simultaneous (as 7.2 reads the red): a pin the striker's ball
    knocks at the instant it touches the opponent's ball is not knocked before it (15.3.в),
    so it is knocked after the correct hit (15.2). At exactly the same time it was neither:
    the shot was ruled correct, the pin's points to the shooter."""
    knock, touch = pin(t_pin, "white", "pin_bottom"), hit(0.3, "white", "yellow")
    out = play(game_in_play(), strike(), *sorted([knock, touch], key=lambda e: e.t))
    assert out.ruling.articles == ["5-pins 15.2"]
    assert out.ruling.points == {"B": 2 + 2} and out.ruling.placement is None


def test_15_3_g_pins_without_touching_the_opponent_ball_is_a_miss():
    g = game_in_play()
    out = play(g, strike(), pin(0.3, "white", "pin_bottom"), rail(0.6, "white", "top_rail"))
    assert out.ruling.articles == ["5-pins 15.3.г"]
    assert out.ruling.points == {"B": 2 + 2}


def test_15_3_b_and_v_together():
    g = game_in_play()
    out = play(g, strike(), pin(0.2, "white", "pin_bottom"), hit(0.4, "white", "red"),
               hit(0.6, "white", "yellow"))
    assert sorted(out.ruling.articles) == ["5-pins 15.3.б", "5-pins 15.3.в"]
    assert out.ruling.points == {"B": 4 + 2 + 2}


@pytest.mark.parametrize("code", [c for c, v in INFRACTIONS.items() if v[2] == "ball_in_hand"])
def test_15_3_declared_fouls_give_two_points_and_ball_in_hand(code):
    g = game_in_play()
    if code in (*WITH_BALL_IN_HAND, *AT_PLACED_SHOT):  # 15.3.н, м: a shot from ball in hand
        g.state.placement = "bottom_half"
    out = play(g, strike(), hit(0.3, "white", "yellow"), infractions=[code])
    assert len(out.ruling.violations) == 1
    assert out.ruling.violations[0].article.startswith("5-pins 15.3.")
    assert out.ruling.points == {"B": 2}
    assert out.ruling.placement in ("bottom_half", "top_half")


def test_15_3_d_off_table_is_two_points_whatever_the_number_of_balls():
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "yellow"),
               infractions=[{"code": "off_table", "pieces": ["white", "yellow"]}])
    assert out.ruling.articles == ["5-pins 15.3.д"]
    assert out.ruling.points == {"B": 2}


def test_15_3_o_jumping_the_pins_is_declared_passing_between_them_is_not_a_foul():
    g = game_in_play()
    out = play(g, strike(), hit(0.5, "white", "yellow"))  # rolled between the pins
    assert out.ruling.legal
    out = play(g, strike("yellow"), hit(0.5, "yellow", "white"), infractions=["jumped_pins"])
    assert out.ruling.articles == ["5-pins 15.3.о"]


# -- 10 balls in contact (15.3.л) -----------------------------------------------------------
def test_10_1_straight_onto_a_touching_ball_is_a_foul():
    g = game_in_play()
    before = position(white=[0.50, 2.30 - 2 * R])
    out = play(g, strike(), hit(0.0, "white", "yellow"), initial=before)
    assert out.ruling.articles == ["5-pins 15.3.л"]
    assert out.ruling.points == {"B": 2}


def test_10_1_15_3_l_15_2_no_correct_touch_when_played_straight_onto_the_touching_ball():
    """15.2 follows a correct touch of the opponent's ball; played straight onto it in contact
    (15.3.л) the touch is not one, so the pins the striker's ball knocks then go with the
    15.3.л foul (its 2 points and ball in hand, 15.1), not with a second foul's 2."""
    from cuesim.tables.carom import BALL_RADIUS
    touching = position(white=[0.50, 2.30 - 2 * BALL_RADIUS - 0.00005])
    g = game_in_play()
    g.layout = touching
    out = play(g, strike(), hit(0.01, "white", "yellow"), pin(0.5, "white", "pin_left"),
               initial=touching)
    assert out.ruling.articles == ["5-pins 15.3.л"]
    assert out.ruling.points == {"B": 2 + 2} and out.ruling.placement is not None


def test_10_3_leaving_the_touching_ball_by_a_cushion_first_is_correct():
    g = game_in_play()
    before = position(white=[0.50, 2.30 - 2 * R])
    out = play(g, strike(), rail(0.2, "white", "left_rail"), hit(0.5, "white", "yellow"),
               initial=before)
    assert out.ruling.legal


def test_10_2_straight_onto_the_cushion_in_contact_is_a_foul():
    g = game_in_play()
    before = position(white=[R, 0.6])
    out = play(g, strike(), rail(0.0, "white", "left_rail"), hit(0.5, "white", "yellow"),
               initial=before)
    assert out.ruling.articles == ["5-pins 15.3.л"]


def test_10_1_declared_contact():
    g = game_in_play()
    out = play(g, strike(), rail(0.0, "white", "bottom_rail"), hit(0.5, "white", "yellow"),
               in_contact=["bottom_rail"], initial=position(white=[0.71, R]))
    assert out.ruling.articles == ["5-pins 15.3.л"]


def _wedged_in_the_corner(g):
    """The white against the bottom and left cushions with the yellow touching it on the
    diagonal: every direction away from the cushions (10.2) goes onto the yellow (10.1)."""
    d = 2 * R / 2 ** 0.5
    g.layout = position(white=[R, R], yellow=[R + d, R + d])
    return g


def test_10_4_reset_gives_a_shot_that_cannot_score():
    """5-pins 10.4: balls in contact and no shot possible without a foul: the referee resets
    the three balls; that shot cannot score, the opponent's next one can."""
    g = _wedged_in_the_corner(game_in_play())
    out = g.contact_reset()
    assert out.ruling.placement == "bottom_half" and out.ruling.next_player == "A"
    ids = {p.id: (p.x, p.y) for p in out.layout.pieces}
    assert "white" not in ids and ids["yellow"] == SPOTS["top_spot"]
    assert ids["red"] == SPOTS["red_spot"]
    out = play(g, strike(), hit(0.3, "white", "yellow"), hit(0.6, "white", "red"),
               initial=position(white=[0.71, 0.4], yellow=list(SPOTS["top_spot"]),
                                red=list(SPOTS["red_spot"])))
    assert out.ruling.legal and out.ruling.points == {}
    assert any("10.4" in n for n in out.ruling.notes)
    # what the shot made is said as not scored (the carom's line read as 4 points scored)
    assert "carom: 4 points (5-pins 8.2), not scored (5-pins 10.4)" in out.ruling.notes
    out = play(g, strike("yellow"), hit(0.3, "yellow", "white"), hit(0.6, "yellow", "red"))
    assert out.ruling.points == {"B": 4}  # the opponent scores again


def test_10_4_no_reset_when_the_balls_are_not_in_contact():
    """5-pins 10.4 applies only to balls in contact ("в случае положения «шар в контакте»"):
    asked for after an ordinary shot it is refused and nothing changes."""
    g = game_in_play()
    before = g.layout
    with pytest.raises(ValueError, match=r"10\.4.*not in contact"):
        g.contact_reset()
    assert g.layout == before and g.state.placement is None and not g.state.no_score


def test_10_4_no_reset_in_contact_only_with_a_cushion_or_with_the_ball_in_hand():
    """5-pins 10.4: a ball touching only a cushion (10.2) can always be played away; a ball in
    hand is not in contact at all."""
    g = game_in_play()
    g.layout = position(white=[R, 0.60])
    with pytest.raises(ValueError, match=r"10\.4"):
        g.contact_reset()
    g = _wedged_in_the_corner(game_in_play())
    g.state.placement = "bottom_half"
    with pytest.raises(ValueError, match=r"10\.4.*in hand"):
        g.contact_reset()


def test_10_4_no_reset_when_a_shot_without_a_foul_is_possible():
    """5-pins 10.4: in contact, but the referee found a shot without a foul (10.3): no reset."""
    g = game_in_play()
    g.layout = position(white=[0.71, 0.60], yellow=[0.71 + 2 * R, 0.60])
    with pytest.raises(ValueError, match=r"10\.4.*without a foul is possible"):
        g.contact_reset(foul_free_shot=True)
    assert g.contact_reset().ruling.placement == "bottom_half"


# -- 11 balls off the table -------------------------------------------------------------------
def test_11_3_a_offender_ball_on_the_spot_opposite_the_opponent_ball():
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "yellow"),
               infractions=[{"code": "off_table", "pieces": ["white"]}])
    white = out.layout.get("white")
    assert (white.x, white.y) == SPOTS["bottom_spot"]  # the yellow lay in the top half
    assert out.ruling.placement == "top_half"  # 13.2: opposite the offender's ball
    assert "yellow" not in out.layout.ids()


def test_11_3_v_red_back_on_its_spot_or_on_the_occupier_spot():
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "yellow"), hit(0.6, "yellow", "red"),
               infractions=[{"code": "off_table", "pieces": ["red"]}])
    red = out.layout.get("red")
    assert (red.x, red.y) == SPOTS["red_spot"]
    g = game_in_play()
    before = position(white=[0.5, 2.0])
    # the offender's ball stays where it is
    final = position(white=list(SPOTS["red_spot"])).without(["red"])
    out = play(g, strike(), hit(0.3, "white", "yellow"), hit(0.6, "yellow", "red"),
               initial=before, final=final,
               infractions=[{"code": "off_table", "pieces": ["red"]}])
    red = out.layout.get("red")
    assert (red.x, red.y) == SPOTS["top_spot"]
    assert out.spotted[0]["article"] == "5-pins 11.3.в"


def test_11_3_v_13_2_the_ball_taken_in_hand_does_not_cover_the_red_spot():
    """13.2: at the end of the incorrect shot the referee takes the incoming player's ball in
    hand, so where it lay is free: the red goes on its own spot (11.3.в), not on another."""
    g = game_in_play()
    final = position(yellow=list(SPOTS["red_spot"])).without(["red"])
    out = play(g, strike(), hit(0.3, "white", "yellow"), hit(0.6, "yellow", "red"), final=final,
               infractions=[{"code": "off_table", "pieces": ["red"]}])
    red = out.layout.get("red")
    assert (red.x, red.y) == SPOTS["red_spot"]
    assert "yellow" not in out.layout.ids() and out.ruling.placement == "top_half"


def test_11_3_a_13_2_the_ball_taken_in_hand_does_not_cover_a_spot_of_the_offender_ball():
    """11.3.а with 13.2: the white left the table, the yellow (the incoming player's, taken in
    hand at the end of the shot) stopped on the red spot and the red on the bottom spot, the
    white's spot opposite the yellow: the white goes on the spot of the ball occupying it, the
    red spot, which the yellow in hand no longer covers (not on the top spot)."""
    g = game_in_play()
    before = position(red=list(SPOTS["bottom_spot"]))
    final = position(yellow=list(SPOTS["red_spot"]),
                     red=list(SPOTS["bottom_spot"])).without(["white"])
    out = play(g, strike(), hit(0.3, "white", "yellow"), initial=before, final=final,
               infractions=[{"code": "off_table", "pieces": ["white"]}])
    white = out.layout.get("white")
    assert (white.x, white.y) == SPOTS["red_spot"]
    assert out.spotted[-1]["article"] == "5-pins 11.3.а"


# -- 12.7 pins removed while a ball covers their mark ----------------------------------------
def test_12_7_pin_under_a_ball_is_removed_and_comes_back_when_free():
    g = game_in_play()
    cx, cy = pin_spots()["pin_top"]
    out = play(g, strike(), hit(0.3, "white", "yellow"), final=position(yellow=[cx, cy + 0.01]))
    assert out.removed_pins == ["pin_top"] and "pin_top" not in out.layout.ids()
    out = play(g, strike("yellow"), hit(0.3, "yellow", "white"), initial=out.layout,
               final=position(yellow=[0.3, 2.0]).without(["pin_top"]))  # still off its spot
    assert "pin_top" in out.layout.ids()
    assert {"id": "pin_top", "article": "5-pins 12.7"}.items() <= out.spotted[0].items()


# -- 13 ball in hand ---------------------------------------------------------------------------
def test_13_2_ball_in_hand_in_the_half_opposite_the_offender_ball():
    g = game_in_play()
    out = play(g, strike(), rail(0.3, "white", "top_rail"), final=position(white=[0.7, 2.0]))
    assert out.ruling.placement == "bottom_half" and out.ruling.next_player == "B"
    assert "yellow" not in out.layout.ids()
    assert g.state.pending["options"]["in_hand"] == {"placement": "bottom_half"}


def test_13_4_offender_ball_exactly_on_the_middle_line():
    g = game_in_play()
    out = play(g, strike(), rail(0.3, "white", "top_rail"), final=position(white=[0.2, HALF_Y]))
    assert out.ruling.placement == "bottom_half"


def test_13_5_option_to_spot_the_offender_ball():
    g = game_in_play()
    play(g, strike(), rail(0.3, "white", "top_rail"))
    out = g.choose("spot_offender")
    white = out.layout.get("white")
    assert (white.x, white.y) == SPOTS["top_spot"]
    assert out.ruling.placement == "bottom_half" and g.state.placement == "bottom_half"


def test_13_5_top_spot_taken_by_the_red():
    g = game_in_play()
    g.layout = position(red=[TABLE_WIDTH / 2, SPOTS["top_spot"][1]])  # the red lies there
    play(g, strike(), rail(0.3, "white", "top_rail"), initial=g.layout, final=g.layout)
    out = g.choose("spot_offender")
    white = out.layout.get("white")
    assert (white.x, white.y) == SPOTS["bottom_spot"]
    assert out.ruling.placement == "top_half"


def test_13_3_ball_in_hand_over_the_middle_line_is_a_foul():
    g = game_in_play()
    play(g, strike(), rail(0.3, "white", "top_rail"))  # B in hand in the top half
    out = play(g, strike("yellow"), hit(0.3, "yellow", "white"),
               initial=position(yellow=[0.5, HALF_Y + R / 2]))
    assert out.ruling.articles == ["5-pins 13.3"]
    assert out.ruling.points == {"A": 2}


def test_13_6_touching_the_ball_before_it_is_placed():
    g = game_in_play()
    play(g, strike(), rail(0.3, "white", "top_rail"))  # B in hand in the top half
    out = play(g, infractions=["touched_ball_in_hand"], initial=g.layout)
    assert out.ruling.articles == ["5-pins 15.3.н"]
    assert out.ruling.points == {"A": 2} and out.ruling.next_player == "A"
    yellow = out.layout.get("yellow")  # the referee puts it on the spot of its half
    assert (yellow.x, yellow.y) == SPOTS["top_spot"]
    assert out.ruling.placement == "bottom_half"


@pytest.mark.parametrize("code", WITH_BALL_IN_HAND)
def test_15_3_n_needs_a_ball_in_hand(code):
    """5-pins 15.3.н (the ball in hand placed with something other than the cue, 4.2 / 13.3;
    touched before the referee placed it, 13.6): with no ball in hand it cannot have happened,
    with a shot or between shots; refused, naming the code and the article."""
    for events in ([strike(), hit(0.3, "white", "yellow")], []):
        g = game_in_play()
        with pytest.raises(ValueError, match=f"'{code}' \\(5-pins 15\\.3\\.н\\) concerns "
                                             "the ball in hand, and A has none"):
            play(g, *events, infractions=[code])
        assert g.state.shooter == "A" and g.state.scores == {"A": 0, "B": 0}


def test_15_3_m_the_foot_rule_needs_an_opening_or_a_ball_in_hand():
    """5-pins 15.3.м, 4.3: the foot rule holds "при начальном ударе или ударе с руки"; declared
    on a ball played where it lies it cannot have happened and is refused; at the opening and
    from ball in hand it is a foul."""
    g = game_in_play()
    with pytest.raises(ValueError, match="'foot' \\(5-pins 15\\.3\\.м\\) concerns an opening "
                                         "or in-hand shot, and A plays the ball where it lies"):
        play(g, strike(), hit(0.3, "white", "yellow"), infractions=["foot"])
    assert g.state.shooter == "A" and g.state.scores == {"A": 0, "B": 0}
    g.state.placement = "bottom_half"  # from ball in hand
    out = play(g, strike(), hit(0.3, "white", "yellow"), infractions=["foot"])
    assert out.ruling.articles == ["5-pins 15.3.м"] and out.ruling.points == {"B": 2}
    g = game_in_play()
    g.state.phase, g.state.placement = "break", "bottom_half"  # the opening
    out = play(g, strike(), hit(0.3, "white", "yellow"), infractions=["foot"],
               initial=position(white=[0.4, 0.5], yellow=list(SPOTS["top_spot"]),
                                red=list(SPOTS["red_spot"])))
    assert out.ruling.articles == ["5-pins 15.3.м"]


def test_15_3_d_off_table_names_a_ball_that_was_on_the_table():
    """5-pins 15.3.д, 11: only a ball leaves the table, one that was on it before the shot; a
    red not on the table (it would be put on its spot out of nothing, 11.3.в) or a pin is
    refused."""
    events = (strike(), hit(0.3, "white", "yellow"))
    with pytest.raises(ValueError, match="off_table names 'red', which is not on the "
                                         "table before the shot"):
        play(game_in_play(), *events, infractions=[{"code": "off_table", "pieces": ["red"]}],
             initial=position().without(["red"]))
    with pytest.raises(ValueError, match="only a ball can leave the table"):
        play(game_in_play(), *events,
             infractions=[{"code": "off_table", "pieces": ["pin_centre"]}])
    with pytest.raises(ValueError, match="touched_piece names 'red', which is not on the "
                                         "table before the shot"):  # 15.3.п likewise
        play(game_in_play(), infractions=[{"code": "touched_piece", "pieces": ["red"]}],
             initial=position().without(["red"]))


def test_11_1_15_3_d_a_ball_gone_from_the_table_is_declared_off_table():
    """5-pins 11.1, 15.3.д: a ball leaves the bed only by jumping off it, a foul the log declares
    as off_table. A ball on the table before the shot and missing after it, undeclared, is
    refused (the game would go on without it). A ball declared off_table that lies on the bed
    after the shot touched the rail's frame, which 11.1 counts as leaving the table: the same
    foul, and the ball is put back as one that left (11.3.а), not left where it fell back."""
    events = (strike(), hit(0.3, "white", "yellow"))
    g = game_in_play()
    with pytest.raises(ValueError, match="ball 'white' is on the table before the shot .* and "
                                         "not after it .* declared as infraction off_table"):
        play(g, *events, final=position().without(["white"]))
    assert g.state.shooter == "A" and g.state.scores == {"A": 0, "B": 0}
    gone = play(game_in_play(), *events, infractions=[{"code": "off_table", "pieces": ["white"]}],
                final=position().without(["white"]))
    assert gone.ruling.articles == ["5-pins 15.3.д"] and "white" in gone.layout.ids()  # 11.3
    fell_back = play(game_in_play(), *events, final=position(white=[0.4, 1.0]),
                     infractions=[{"code": "off_table", "pieces": ["white"]}])
    assert fell_back.ruling.articles == ["5-pins 15.3.д"]
    white = fell_back.layout.get("white")
    assert (white.x, white.y) == (gone.layout.get("white").x, gone.layout.get("white").y)


def test_12_4_10_1_a_declaration_names_pieces_on_the_table():
    """Pins the referee saw only moved (12.4, 12.5) and balls declared in contact with the
    striker's ball (10.1) stood on the table before the shot; a removed pin (12.7) or a ball
    not there is refused, naming the field."""
    before = position().without(["pin_left", "red"])
    events = (strike(), hit(0.3, "white", "yellow"))
    for decl, message in [({"moved_pins": ["pin_left"]}, "declaration.moved_pins names "
                                                          "'pin_left'"),
                          ({"in_contact": ["red"]}, "declaration.in_contact names 'red'")]:
        g = game_in_play()
        with pytest.raises(ValueError, match=message + ", which is not on the table before"):
            play(g, *events, initial=before, **decl)
        assert g.state.shooter == "A"


def test_only_article_9_may_name_the_other_player():
    g = game_in_play()
    with pytest.raises(ValueError, match="only 9.1"):
        play(g, strike(), infractions=[{"code": "double_hit", "player": "B"}])


@pytest.mark.parametrize("code", sorted(set(INFRACTIONS) - {"lag_late_start", "lag_crossed",
                                                            "left_game", "refused_to_continue"}))
def test_15_3_only_fouls_that_need_no_stroke_are_ruled_between_shots(code):
    """FivePinsShot: "an empty event log with infractions is a foul or a declared event between
    shots (13.6, 15.3.и/к/п, 9)". A wrong ball (15.3.а), a double hit (15.3.з), a push shot
    (15.3.р)... describe a stroke: declared with no events they are refused, naming the code;
    touching, cleaning or moving a piece and the ball in hand placed or touched are ruled."""
    from cuesim.rules.fivepins.fouls import BETWEEN_SHOTS

    g = game_in_play()
    if code in WITH_BALL_IN_HAND:  # 15.3.н: with the ball in hand
        g.state.placement = "bottom_half"
    if code in BETWEEN_SHOTS:
        out = play(g, infractions=[code])
        assert not out.ruling.legal and g.state.shooter == "B"
    else:
        with pytest.raises(ValueError, match=f"infraction '{code}' .* happens in a stroke"):
            play(g, infractions=[code])
        assert g.state.shooter == "A"
