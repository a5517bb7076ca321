"""Novus 20 (singles sets), 21 (doubles), 22 (first strike), 23 (match result), 14, 15, 19
(loss of the game, warnings)."""

from __future__ import annotations

import pytest

from cuesim.rules.novus import NovusGame
from tests.novus_util import articles, drop, hit, moved, pocket, puck, rule, striker

BLACK = [puck("black1", 0.40, 0.30), puck("black2", 0.60, 0.30)]


def last_red(before, *extra_pockets, striker_in=False):
    after = drop(before, "red1", *extra_pockets, *(["striker"] if striker_in else []))
    events = [hit(0.1, "red1"), pocket(0.3, "red1")]
    for p in extra_pockets:  # each set in motion by the striker first
        events += [hit(0.35, p), pocket(0.4, p)]
    if striker_in:
        events.append(pocket(0.6, "striker"))
    return after, events


ONE_RED = [striker(), puck("red1", 0.3, 0.7), *BLACK]


def test_20_3_first_to_pocket_all_own_pucks_wins_the_set():
    """novus 20.3, 20.2, 22.1: A pockets his last puck; set 2 is opened by B from the south."""
    after, events = last_red(ONE_RED)
    out = rule(ONE_RED, after, events, state={"sets": 3, "series": {"A": 2}})
    r = out["ruling"]
    assert r["frame_over"] and r["winner"] == "A" and not r["match_over"]
    assert out["state"]["sets_won"] == {"A": 1, "B": 0}
    assert out["state"]["seats"] == {"south": "B", "north": "A"}
    assert r["next_player"] == "B" and out["state"]["set_number"] == 2
    assert len(out["layout"]["pieces"]) == 17  # the new set's start layout


def test_20_3_pocketing_the_opponents_last_puck_gives_him_the_set():
    """novus 20.3 (choice): the opponent's last puck left the table: his set."""
    before = [striker(), puck("red1", 0.3, 0.7), puck("red2", 0.7, 0.7), puck("black1", 0.4, 0.3)]
    after = drop(before, "black1")
    out = rule(before, after, [hit(0.1, "red1"), hit(0.2, "black1", "red1"),
                               pocket(0.3, "black1")], state={"sets": 3, "series": {"A": 2}})
    assert out["ruling"]["frame_over"] and out["ruling"]["winner"] == "B"


def test_17_5_last_puck_with_penalty_does_not_win():
    """novus 17.5, 20.3: last puck pocketed but the striker fell in: a penalty puck, play on."""
    after, events = last_red(ONE_RED, striker_in=True)
    out = rule(ONE_RED, after, events, state={"series": {"A": 2}})
    assert not out["ruling"]["frame_over"] and "novus 17.1.г" in articles(out)
    assert [s["article"] for s in out["ruling"]["spotted"]] == ["novus 17.3"]


def test_20_4_first_series_clearance_interrupted_and_answered():
    """novus 20.4: the opener clears in his first series: the turn passes to the opponent."""
    after, events = last_red(ONE_RED)
    out = rule(ONE_RED, after, events, state={"sets": 3})
    assert not out["ruling"]["frame_over"] and out["ruling"]["next_player"] == "B"
    assert out["state"]["first_clear"] == {"A": "clean"} and out["state"]["responder"] == "B"


def test_20_4_answer_fails_opener_wins():
    """novus 20.4: the opponent does not clear in his first series: the opener wins."""
    before = [striker(0.5, 0.93), *BLACK]
    state = {"sets": 3, "shooter": "B", "series": {"A": 1, "B": 1},
             "first_clear": {"A": "clean"}, "responder": "B"}
    out = rule(before, before, [hit(0.1, "black1")], state=state)
    assert out["ruling"]["frame_over"] and out["ruling"]["winner"] == "A"


def test_20_4_both_clear_set_replayed_with_sides_and_first_strike_changed():
    """novus 20.4, 20.2: both clear in the first series: replay, sides and first strike swap."""
    before = [striker(0.5, 0.93), puck("black1", 0.4, 0.3)]
    after = drop(before, "black1")
    state = {"sets": 3, "shooter": "B", "series": {"A": 1, "B": 1},
             "first_clear": {"A": "clean"}, "responder": "B"}
    out = rule(before, after, [hit(0.1, "black1"), pocket(0.3, "black1")], state=state)
    r = out["ruling"]
    assert r["frame_over"] and r["winner"] is None
    assert out["state"]["seats"] == {"south": "B", "north": "A"}
    assert out["state"]["set_number"] == 1 and out["state"]["replays"] == 1


def test_20_4_both_clear_but_last_stroke_lost_the_turn_loses_the_set():
    """novus 20.4: both clear, the opener's last stroke lost the turn (return slide): he loses."""
    before = [striker(0.5, 0.93), puck("black1", 0.4, 0.3)]
    after = drop(before, "black1")
    state = {"sets": 3, "shooter": "B", "series": {"A": 1, "B": 1},
             "first_clear": {"A": "violated"}, "responder": "B"}
    out = rule(before, after, [hit(0.1, "black1"), pocket(0.3, "black1")], state=state)
    assert out["ruling"]["frame_over"] and out["ruling"]["winner"] == "B"
    assert "novus 20.4" in articles(out)


def test_20_5_both_last_pucks_with_a_correct_shot_annul_the_set():
    """novus 20.5: own last and opponent's last with one correct shot: the set starts again."""
    before = [striker(), puck("red1", 0.3, 0.7), puck("black1", 0.4, 0.3)]
    after, events = last_red(before, "black1")
    out = rule(before, after, events, state={"sets": 3, "series": {"A": 2}})
    r = out["ruling"]
    assert r["frame_over"] and r["winner"] is None
    assert out["state"]["set_number"] == 1 and out["state"]["replays"] == 1
    assert out["state"]["seats"] == {"south": "A", "north": "B"}


def test_20_5_both_last_pucks_with_a_penalty_loses_the_set():
    """novus 20.5: the same with a penalty (striker pocketed): the set is lost."""
    before = [striker(), puck("red1", 0.3, 0.7), puck("black1", 0.4, 0.3)]
    after, events = last_red(before, "black1", striker_in=True)
    out = rule(before, after, events, state={"sets": 3, "series": {"A": 2}})
    assert out["ruling"]["frame_over"] and out["ruling"]["winner"] == "B"


def test_20_5_17_1_p_the_opponent_owing_a_penalty_puck_has_not_lost_his_last():
    """novus 20.5, 17.1.п, 20.3: B owes a 17.1.п penalty puck (placed when A's series ends),
    so the black puck A pockets with his own last one is not B's last: no annulment, A has
    cleared first and wins the set (as with a 17.4 debt)."""
    before = [striker(), puck("red1", 0.3, 0.7), puck("black1", 0.4, 0.3)]
    after, events = last_red(before, "black1")
    for owed in ({"pending": [{"player": "B", "article": "novus 17.1.п"}]},
                 {"debt": {"red": 0, "black": 1}}):
        out = rule(before, after, events, state={"sets": 3, "series": {"A": 2}, **owed})
        r = out["ruling"]
        assert r["frame_over"] and r["winner"] == "A", owed
        assert "novus 20.5" not in " ".join(r["notes"]), owed


def test_20_5_17_1_p_with_a_penalty_both_take_penalty_pucks_and_play_on():
    """novus 20.5, 17.1.п, 17.5: the same with the striker pocketed: A takes a penalty puck,
    B his 17.1.п one and misses his turn, so A plays on; nobody has cleared."""
    before = [striker(), puck("red1", 0.3, 0.7), puck("black1", 0.4, 0.3)]
    after, events = last_red(before, "black1", striker_in=True)
    out = rule(before, after, events, state={
        "sets": 3, "series": {"A": 2}, "pending": [{"player": "B", "article": "novus 17.1.п"}]})
    r = out["ruling"]
    assert not r["frame_over"] and r["next_player"] == "A"
    groups = sorted(p["group"] for p in out["layout"]["pieces"] if p["kind"] == "puck")
    assert groups == ["black", "red"]


def test_20_4_17_1_p_a_responder_owing_a_penalty_puck_cannot_answer():
    """novus 20.4, 17.1.п: B touches a puck during the shot with which A clears in his first
    series; B's penalty puck comes as the series ends and he misses his next turn, which was
    the answer: the set is A's, not replayed after B clears."""
    after, events = last_red(ONE_RED)
    out = rule(ONE_RED, after, events, state={"sets": 3},
               infractions=[{"code": "touched_puck", "player": "B", "pieces": []}])
    r = out["ruling"]
    assert r["frame_over"] and r["winner"] == "A"
    assert any("misses his turn" in n and "novus 20.4" in n for n in r["notes"])
    assert out["state"]["sets_won"] == {"A": 1, "B": 0}


def test_20_4_17_1_p_a_state_with_the_owing_responder_answering_is_refused():
    """novus 20.4, 17.1.п: a state where B answers a first-series clearance while he owes a
    17.1.п penalty puck cannot have happened (he missed that turn): refused, naming it."""
    before = [striker(0.5, 0.93), *BLACK]
    state = {"sets": 3, "shooter": "B", "series": {"A": 1, "B": 1},
             "first_clear": {"A": "clean"}, "responder": "B",
             "pending": [{"player": "B", "article": "novus 17.1.п"}]}
    with pytest.raises(ValueError, match="state.pending: B owes a 17.1.п penalty puck"):
        rule(before, drop(before, "black1", "black2"),
             [hit(0.1, "black1"), pocket(0.2, "black1"), hit(0.3, "black2", "black1"),
              pocket(0.4, "black2")], state=state)


def test_20_6_only_dark_pucks_three_misses_each_replay():
    """novus 20.6: both only dark pucks, three misses each: replay, first strike unchanged."""
    before = [striker(0.3, 0.07), puck("red1", 0.6, 0.1), puck("black1", 0.5, 0.9)]
    out = rule(before, before, [], state={"sets": 3, "misses": {"A": 2, "B": 3}})
    r = out["ruling"]
    assert r["frame_over"] and r["winner"] is None
    assert out["state"]["seats"]["south"] == "A" and out["state"]["replays"] == 1
    out = rule(before, before, [], state={"sets": 3, "misses": {"A": 1, "B": 3}})
    assert not out["ruling"]["frame_over"] and out["state"]["misses"]["A"] == 2


def test_22_1_first_strike_alternates_by_protocol_and_sides_change():
    """novus 22.1, 20.2: players[first] opens set 1 from the south; sets alternate."""
    g = NovusGame(["A", "B"], sets=3)
    assert g.shooter == "A" and g.seats == {"south": "A", "north": "B"}
    g._end_set("A", "test")
    assert g.shooter == "B" and g.seats == {"south": "B", "north": "A"}
    g = NovusGame(["A", "B"], sets=3, first=1)
    assert g.shooter == "B"


def test_23_1_more_than_half_of_the_sets_wins_the_match():
    """novus 23.1: 2 of 3 sets: match over."""
    after, events = last_red(ONE_RED)
    out = rule(ONE_RED, after, events, state={"sets": 3, "set_number": 2,
                                              "sets_won": {"A": 1, "B": 0}, "series": {"A": 2}})
    r = out["ruling"]
    assert r["match_over"] and r["winner"] == "A" and r["next_player"] == ""


def test_23_1_draw_with_an_even_number_of_sets():
    """novus 23.1: 1-1 after 2 sets is a draw."""
    g = NovusGame(["A", "B"], sets=2)
    g._end_set("A", "test")
    g._end_set("B", "test")
    assert g.match_over and g.winner is None


def test_23_1_play_all_sets_when_the_event_says_so():
    """novus 23.1: with play_all_sets the decided match goes on to the last set."""
    g = NovusGame(["A", "B"], sets=3, play_all_sets=True)
    g._end_set("A", "test")
    g._end_set("A", "test")
    assert not g.match_over
    g._end_set("B", "test")
    assert g.match_over and g.winner == "A"


def test_15_and_14_loss_of_the_game():
    """novus 15.1, 15.2, 14.1: the game is lost at once."""
    for code, article in [("no_show", "15.1"), ("unsporting", "15.2"),
                          ("gross_misconduct", "14.1"), ("refused_greeting", "14.4")]:
        out = rule(ONE_RED, None, state={"sets": 3},
                   infractions=[{"code": code, "player": "B"}])
        assert out["ruling"]["match_over"] and out["ruling"]["winner"] == "A"
        assert articles(out) == [f"novus {article}"]


def test_19_warnings_third_loses_unplayed_sets():
    """novus 19.1, 19.3, 15.3: warnings are counted; the third loses the unplayed sets."""
    out = rule(ONE_RED, None, state={"sets": 5},
               infractions=[{"code": "warning", "player": "A", "note": "19.1.и"}])
    assert articles(out) == ["novus 19.1.и"] and out["ruling"]["legal"]
    assert out["state"]["warnings"]["A"] == 1
    out = rule(ONE_RED, None, state={"sets": 5, "set_number": 2, "sets_won": {"A": 1, "B": 0},
                                     "warnings": {"A": 2}},
               infractions=[{"code": "time_warning", "player": "A"}])
    assert out["ruling"]["match_over"] and out["ruling"]["winner"] == "B"
    assert out["state"]["sets_won"] == {"A": 1, "B": 4}


@pytest.mark.parametrize("sets, set_number, won, winner, final", [
    (2, 2, {"A": 1, "B": 0}, None, {"A": 1, "B": 1}),  # set 2 given away: 1-1
    (4, 3, {"A": 2, "B": 0}, None, {"A": 2, "B": 2}),  # sets 3 and 4 given away: 2-2
    (4, 4, {"A": 2, "B": 1}, None, {"A": 2, "B": 2}),
    (3, 2, {"A": 1, "B": 0}, "B", {"A": 1, "B": 2}),
    (5, 4, {"A": 3, "B": 0}, "A", {"A": 3, "B": 2}),  # all sets played (play_all_sets)
])
def test_15_3_23_1_third_warning_then_the_sets_decide(sets, set_number, won, winner, final):
    """novus 15.3: the third warning loses the sets not yet played; the match then ends on the
    sets as 23.1 counts them: more sets wins, and with an even number equal sets are a draw."""
    out = rule(ONE_RED, None, state={"sets": sets, "set_number": set_number, "sets_won": won,
                                     "play_all_sets": True, "warnings": {"A": 2}},
               infractions=[{"code": "time_warning", "player": "A"}])
    assert "novus 15.3" in articles(out)
    assert out["ruling"]["match_over"] and out["ruling"]["winner"] == winner
    assert out["state"]["sets_won"] == final and out["state"]["winner"] == winner
    if winner is None:
        assert any("drawn" in n and "novus 23.1" in n for n in out["ruling"]["notes"])


def test_21_3_singles_opponent_puck_driven_into_his_dark_zone_is_put_back():
    """novus 21.3 (singles side of the rule): a punishable shot drives the opponent's puck into
    his dark zone: it is put back, plus a penalty puck."""
    before = [striker(), puck("red1", 0.3, 0.7), puck("black1", 0.5, 0.8)]
    after = moved(before, "black1", 0.5, 0.95)
    out = rule(before, after, [hit(0.1, "black1")])
    black1 = [p for p in out["layout"]["pieces"] if p["id"] == "black1"][0]
    assert black1["y"] == 0.8 and "novus 17.1.б" in articles(out)
