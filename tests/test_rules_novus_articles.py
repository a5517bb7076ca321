"""Novus articles the referee cites that no other test names: 14.2, 14.3 (exclusion),
16.1.в/е/к (loss of the set), 17.1.с/у (penalty puck), 18.1.з (loss of turn), declared as
infractions; and 21.2 (doubles: a pair clears its partner's pucks too and wins the set when all
16 are gone). Hand-written layouts and event logs; each test asserts the consequence the
rulebook gives and that the ruling cites the article."""

from __future__ import annotations

import pytest

from tests.novus_util import articles, drop, hit, pocket, puck, rule, striker

RED = [puck("red1", 0.30, 0.70), puck("red2", 0.70, 0.70)]
BLACK = [puck("black1", 0.40, 0.30), puck("black2", 0.60, 0.30)]
BASE = [striker(), *RED, *BLACK]
POT_RED1 = [hit(0.1, "red1"), pocket(0.3, "red1")]  # a correct shot pocketing an own puck
SETS = {"sets": 3}


def violation(out, article):
    return next(v for v in out["ruling"]["violations"] if v["article"] == f"novus {article}")


def penalty_pucks(out):
    return [(round(s["x"], 4), round(s["y"], 4)) for s in out["ruling"]["spotted"]
            if s["article"] == "novus 17.3"]


# -- 14: exclusion from the competition ----------------------------------------------------------

@pytest.mark.parametrize("code,article", [("second_unsporting_loss", "14.2"),
                                          ("second_no_show_loss", "14.3")])
def test_14_2_14_3_second_loss_for_unsporting_or_no_show_excludes(code, article):
    """novus 14.2 (two losses for unsporting behaviour), 14.3 (two losses for not coming to
    the table within two minutes): the participant is excluded, so the game ends at once, won
    by the opponent whatever the sets stand at. In set 2 B has the first strike: A, leading
    1-0 and without the turn, is excluded: B wins and B's side committed nothing."""
    state = {"sets": 3, "set_number": 2, "sets_won": {"A": 1, "B": 0}}
    out = rule(BASE, None, state=state, infractions=[{"code": code, "player": "A"}])
    r = out["ruling"]
    assert articles(out) == [f"novus {article}"]
    assert "excluded" in violation(out, article)["text"]
    assert violation(out, article)["consequence"] == "disqualification"  # not only the match
    assert r["match_over"] and r["frame_over"] and r["winner"] == "B" and r["next_player"] == ""
    assert r["legal"] and f"match won by B (novus {article})" in r["notes"]
    assert out["state"]["match_over"] and out["state"]["winner"] == "B"
    out = rule(BASE, None, state=state, infractions=[{"code": code, "player": "B"}])
    assert articles(out) == [f"novus {article}"]
    assert out["ruling"]["winner"] == "A" and not out["ruling"]["legal"]


# -- 16.1: loss of the set -----------------------------------------------------------------------

def test_16_1_v_shot_after_stop_loses_the_set():
    """novus 16.1.в: a shot after the command 'stop' (a deliberate violation) loses the set,
    even one that pocketed an own puck; the next set starts with B (first strike by the
    protocol alternates, 22.1)."""
    out = rule(BASE, drop(BASE, "red1"), POT_RED1, state=SETS,
               infractions=[{"code": "deliberate_violation", "note": "struck after 'stop'"}])
    r = out["ruling"]
    assert articles(out) == ["novus 16.1.в"]
    assert violation(out, "16.1.в")["consequence"] == "loss_of_set"
    assert not r["legal"] and r["frame_over"] and not r["match_over"] and r["winner"] == "B"
    assert out["state"]["sets_won"] == {"A": 0, "B": 1} and out["state"]["set_number"] == 2
    assert r["next_player"] == "B" and out["state"]["history"][-1]["article"] == "novus 16.1.в"


def test_16_1_v_opponent_disobeying_the_referee_loses_him_the_set():
    """novus 16.1.в: B, without the turn, disobeys the referee: the set is B's loss, A's
    side committed nothing."""
    out = rule(BASE, None, state=SETS,
               infractions=[{"code": "deliberate_violation", "player": "B"}])
    r = out["ruling"]
    assert articles(out) == ["novus 16.1.в"] and r["legal"]
    assert r["frame_over"] and r["winner"] == "A" and out["state"]["sets_won"]["A"] == 1


def test_16_1_e_hand_in_a_pocket_while_the_opponent_has_the_turn_loses_the_set():
    """novus 16.1.е: B puts a hand into a pocket while A has the turn: B loses the set."""
    out = rule(BASE, drop(BASE, "red1"), POT_RED1, state=SETS,
               infractions=[{"code": "picked_up_puck", "player": "B", "note": "hand in pocket"}])
    r = out["ruling"]
    assert articles(out) == ["novus 16.1.е"]
    assert violation(out, "16.1.е")["consequence"] == "loss_of_set"
    assert r["legal"] and r["frame_over"] and r["winner"] == "A"
    assert out["state"]["sets_won"] == {"A": 1, "B": 0}


def test_16_1_e_puck_taken_off_the_table_in_the_last_set_loses_the_match():
    """novus 16.1.е, 23.1: A takes a puck off the table in the deciding set: the set and so
    the match go to B."""
    out = rule(BASE, None, state={"sets": 3, "set_number": 3, "sets_won": {"A": 1, "B": 1}},
               infractions=[{"code": "picked_up_puck", "player": "A", "pieces": ["red2"]}])
    r = out["ruling"]
    assert articles(out) == ["novus 16.1.е"]
    assert r["frame_over"] and r["match_over"] and r["winner"] == "B"
    assert out["state"]["sets_won"] == {"A": 1, "B": 2}


def test_16_1_k_changing_an_undamaged_striker_or_cue_loses_the_set():
    """novus 16.1.к: changing an undamaged striker or cue during the set loses it, whether
    the player has the turn (A) or not (B)."""
    out = rule(BASE, None, state=SETS, infractions=[{"code": "changed_equipment"}])
    r = out["ruling"]
    assert articles(out) == ["novus 16.1.к"]
    assert violation(out, "16.1.к")["consequence"] == "loss_of_set"
    assert not r["legal"] and r["frame_over"] and r["winner"] == "B"
    assert out["state"]["sets_won"] == {"A": 0, "B": 1} and r["next_player"] == "B"
    out = rule(BASE, None, state=SETS, infractions=[{"code": "changed_equipment",
                                                     "player": "B"}])
    assert articles(out) == ["novus 16.1.к"] and out["ruling"]["winner"] == "A"


# -- 17.1: loss of turn and a penalty puck --------------------------------------------------------

def test_17_1_s_broken_striker_in_a_pocket_one_penalty_puck():
    """novus 17.1.с: the striker broke and its larger part fell into a pocket: the turn is lost
    and a penalty puck placed on the middle line at the opponent's rail (17.3), although an
    own puck was pocketed; with 17.1.г (striker in a pocket) only one penalty puck (17.2)."""
    after = drop(BASE, "red1", "striker")
    out = rule(BASE, after, [*POT_RED1, pocket(0.5, "striker", "north_east")],
               infractions=[{"code": "striker_broken"}])
    r = out["ruling"]
    assert "novus 17.1.с" in articles(out) and "novus 17.1.г" in articles(out)
    assert violation(out, "17.1.с")["consequence"] == "penalty_puck"
    assert not r["legal"] and r["turn_passes"] and r["next_player"] == "B"
    assert penalty_pucks(out) == [(0.5, 0.985)]
    out = rule(BASE, drop(BASE, "red1", "striker"), POT_RED1,
               infractions=[{"code": "striker_broken"},
                            {"code": "puck_off_table", "pieces": ["striker"]}])
    assert "novus 17.1.с" in articles(out) and penalty_pucks(out) == [(0.5, 0.985)]


def test_17_1_s_broken_striker_needs_the_stroke():
    """novus 17.1.с: the striker breaks in a stroke: declared with no shot it is refused."""
    with pytest.raises(ValueError, match=r"'striker_broken' \(novus 17\.1\.с\) happens in a "
                                         "stroke"):
        rule(BASE, None, infractions=[{"code": "striker_broken"}])


def test_17_1_u_side_or_butt_of_the_cue_costs_turn_and_penalty_puck():
    """novus 17.1.у: struck with the side or the thick end of the cue: a correct shot that
    pocketed an own puck still loses the turn, and a penalty puck goes to the opponent's rail
    (17.3); the debt is untouched (a free puck exists)."""
    out = rule(BASE, drop(BASE, "red1"), POT_RED1, infractions=[{"code": "not_tip"}])
    r = out["ruling"]
    assert articles(out) == ["novus 17.1.у"]
    assert violation(out, "17.1.у")["consequence"] == "penalty_puck"
    assert not r["legal"] and r["turn_passes"] and r["next_player"] == "B"
    assert not r["frame_over"] and penalty_pucks(out) == [(0.5, 0.985)]
    assert out["state"]["debt"] == {"red": 0, "black": 0}


# -- 18.1: loss of turn --------------------------------------------------------------------------

def test_18_1_z_striker_put_down_before_the_referee_finished_loses_the_turn():
    """novus 18.1.з: A puts the striker down to shoot before the referee has finished: the
    turn passes to B, with no penalty puck; only the player about to shoot can do it, so it
    is refused for B."""
    out = rule(BASE, None, infractions=[{"code": "striker_placed_early"}])
    r = out["ruling"]
    assert articles(out) == ["novus 18.1.з"]
    assert violation(out, "18.1.з")["consequence"] == "loss_of_turn"
    assert not r["legal"] and r["turn_passes"] and r["next_player"] == "B"
    assert r["spotted"] == [] and out["state"]["debt"] == {"red": 0, "black": 0}
    with pytest.raises(ValueError, match=r"18\.1\.з.*B does not have the turn"):
        rule(BASE, None, infractions=[{"code": "striker_placed_early", "player": "B"}])


# -- 21.2: doubles, the pair clears both partners' pucks ------------------------------------------

D = {"mode": "doubles", "players": ["a1", "a2", "b1", "b2"], "sets": 3}
D_SERIES = dict(D, series={"a1": 2})  # a1 not in his first series (no 21.7 interruption)


def test_21_2_a_partners_puck_is_played_as_ones_own():
    """novus 21.2: a1 strikes his partner a2's puck (red9) first and pockets it: a correct
    shot, the turn is kept; the opponents' puck struck first is 17.1.б."""
    before = [striker(), puck("red9", 0.3, 0.7), puck("red1", 0.7, 0.7),
              puck("black9", 0.4, 0.5), puck("black10", 0.6, 0.5)]
    out = rule(before, drop(before, "red9"), [hit(0.1, "red9"), pocket(0.3, "red9")],
               state=D_SERIES)
    r = out["ruling"]
    assert r["legal"] and articles(out) == [] and not r["turn_passes"]
    assert r["next_player"] == "a1" and out["analysis"]["correct"]
    out = rule(before, drop(before, "black9"), [hit(0.1, "black9"), pocket(0.3, "black9")],
               state=D_SERIES)
    assert "novus 17.1.б" in articles(out) and out["ruling"]["next_player"] == "b1"


def test_21_2_the_pair_wins_the_set_when_all_sixteen_are_pocketed():
    """novus 21.2: the set goes to the pair that first pockets its own and its partner's
    pucks: a1's last puck gone, a2's red9 left, play goes on; a1 then pockets red9, the last
    of the pair's 16: the set is won by a1 & a2 (cited), and the seats move on (21.1)."""
    before = [striker(), puck("red1", 0.3, 0.7), puck("red9", 0.7, 0.7),
              puck("black1", 0.4, 0.3)]
    out = rule(before, drop(before, "red1"), POT_RED1, state=D_SERIES)
    assert not out["ruling"]["frame_over"] and out["ruling"]["next_player"] == "a1"
    before = drop(before, "red1")
    out = rule(before, drop(before, "red9"), [hit(0.1, "red9"), pocket(0.3, "red9")],
               state=D_SERIES)
    r = out["ruling"]
    assert r["legal"] and r["frame_over"] and not r["match_over"] and r["winner"] == "a1 & a2"
    assert "set 1 won by a1 & a2 (novus 21.2)" in r["notes"]
    assert out["state"]["history"][-1]["article"] == "novus 21.2"
    assert out["state"]["sets_won"] == {"a1 & a2": 1, "b1 & b2": 0}
    assert out["state"]["seats"]["south"] == "b2" and r["next_player"] == "b2"
