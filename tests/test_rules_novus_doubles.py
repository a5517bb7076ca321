"""Novus 21 (doubles): seats and clockwise order, the penalised player, where penalty pucks go,
the first-series clearance of 16, and the doubles form of the rear-zone rule."""

from __future__ import annotations

import pytest

from cuesim.rules.novus import NovusGame
from cuesim.rules.novus.placement import start_row
from tests.novus_util import articles, drop, hit, moved, pocket, puck, rule, striker

PLAYERS = ["a1", "a2", "b1", "b2"]
D = {"mode": "doubles", "players": PLAYERS, "sets": 3}


def test_21_1_seats_clockwise_order_and_rotation_after_a_set():
    """novus 21.1: partners opposite, shots clockwise, everyone one seat clockwise per set,
    the first strike stays with the south seat; 16 pucks per pair."""
    g = NovusGame(PLAYERS, doubles=True, sets=3)
    assert g.seats == {"south": "a1", "west": "b1", "north": "a2", "east": "b2"}
    assert [g.next_after(p) for p in ("a1", "b1", "a2", "b2")] == ["b1", "a2", "b2", "a1"]
    assert sum(p.group == "red" for p in g.layout.pieces) == 16
    g._end_set("a1 & a2", "test")
    assert g.seats == {"west": "a1", "north": "b1", "east": "a2", "south": "b2"}
    assert g.shooter == "b2"


def test_21_1_partners_sit_opposite_a_state_seating_them_side_by_side_is_refused():
    """novus 21.1: partners stand opposite each other, so the pairs strike in turn; a state
    seating a1 and a2 side by side cannot have happened and is refused, naming the field."""
    import pytest

    before = [striker(), puck("red1", 0.3, 0.7), puck("black1", 0.4, 0.3)]
    seats = {"south": "a1", "west": "a2", "north": "b1", "east": "b2"}
    with pytest.raises(ValueError, match=r"doubles partners sit opposite .*state\.seats"):
        rule(before, before, [hit(0.1, "red1")], state={**D, "seats": seats})


def test_22_3_first_is_for_singles_in_doubles_the_order_of_the_players_gives_it():
    """novus 22.3: in doubles the pair with the first strike says who starts, which the order
    of the players gives; 'first' (the singles protocol index) is refused, not ignored."""
    import pytest

    with pytest.raises(ValueError, match="'first' is for singles"):
        NovusGame(PLAYERS, doubles=True, sets=3, first=1)


def test_21_6_no_penalty_puck_until_pucks_on_the_opposite_side_moved():
    """novus 21.6: a1's own row at the north rail untouched: the penalty puck is owed."""
    row = [{"id": p.id, "kind": "puck", "group": "red", "x": p.x, "y": p.y}
           for p in start_row("south", "red", 1)]
    before = [striker(), *row, puck("black1", 0.3, 0.5)]
    out = rule(before, before, [], state=D)
    assert out["ruling"]["spotted"] == [] and out["state"]["debt"]["red"] == 1
    assert out["ruling"]["next_player"] == "b1"
    assert any("1 penalty puck owed" in n for n in out["ruling"]["notes"])  # not 'puck(s)'


def test_21_6_penalty_puck_on_the_side_opposite_the_penalised_player():
    """novus 21.6, 17.3: pucks moved on the opposite side: the penalty puck at the north rail."""
    before = [striker(), puck("red1", 0.3, 0.7), puck("black1", 0.3, 0.5)]
    out = rule(before, before, [], state=D)
    s = out["ruling"]["spotted"]
    assert len(s) == 1 and abs(s[0]["y"] - 0.985) < 1e-9 and abs(s[0]["x"] - 0.5) < 1e-9


def test_21_5_violation_by_the_pair_without_the_turn_penalises_their_next_player():
    """novus 21.5, 17.1.п: b2 touches a puck during a1's turn: b1 (next of that pair) is
    penalised and misses his turn; the penalty puck stands opposite b1 (east rail)."""
    before = [striker(), puck("red1", 0.3, 0.7), puck("black1", 0.3, 0.5)]
    out = rule(before, before, [], state=D,
               infractions=[{"code": "touched_puck", "player": "b2"}])
    assert "novus 17.1.п" in articles(out)
    assert out["ruling"]["next_player"] == "a2"  # b1 skipped
    east = [s for s in out["ruling"]["spotted"] if s["id"].startswith("black")]
    assert len(east) == 1 and abs(east[0]["x"] - 0.985) < 1e-9


def test_17_1_p_21_5_two_violations_in_one_series_two_pucks_one_missed_turn():
    """novus 17.1.п, 21.5: b2 touched a puck in two shots of a1's series, each time penalising
    b1 (the next of his pair to strike). When the series ends b1 takes two penalty pucks and
    misses his next turn, once: a2 plays now, and no second skip waits for b1's turn after."""
    before = [striker(), puck("red1", 0.3, 0.62), puck("black1", 0.4, 0.72),
              puck("black2", 0.6, 0.3), puck("black3", 0.8, 0.3)]
    after = moved(moved(before, "red1", 0.32, 0.66), "striker", 0.5, 0.3)
    pending = [{"player": "b1", "article": "novus 17.1.п"}] * 2
    out = rule(before, after, [hit(0.1, "red1")], state={**D, "pending": pending})
    assert out["ruling"]["next_player"] == "a2"
    assert out["state"]["skip"] == [] and out["state"]["pending"] == []
    blacks = [p for p in out["layout"]["pieces"] if p.get("group") == "black"]
    assert len(blacks) == 5


def test_21_7_first_series_clearance_of_16_answered_by_one_opponent():
    """novus 21.7: a1 clears all 16 in his first series: only b1 answers; b1 fails: pair a."""
    before = [striker(), puck("red1", 0.3, 0.7), puck("black1", 0.3, 0.5)]
    out = rule(before, drop(before, "red1"), [hit(0.1, "red1"), pocket(0.3, "red1")], state=D)
    assert out["ruling"]["next_player"] == "b1" and out["state"]["responder"] == "b1"
    state = dict(out["state"])
    state.pop("history")
    before2 = [{"id": "striker", "kind": "striker", "x": 0.07, "y": 0.5},
               puck("black1", 0.3, 0.5)]
    out = rule(before2, before2, [], state=state)
    assert out["ruling"]["frame_over"] and out["ruling"]["winner"] == "a1 & a2"


def test_21_1_both_pairs_clear_in_first_series_replay_seats_stay():
    """novus 21.1, 21.7: b1 clears too: replay, seats stay, b1 strikes first."""
    state = dict(D, shooter="b1", series={"a1": 1, "b1": 1}, first_clear={"a1": "clean"},
                 responder="b1")
    before = [{"id": "striker", "kind": "striker", "x": 0.07, "y": 0.5},
              puck("black1", 0.3, 0.5)]
    out = rule(before, drop(before, "black1"), [hit(0.1, "black1"), pocket(0.3, "black1")],
               state=state)
    assert out["ruling"]["frame_over"] and out["ruling"]["winner"] is None
    assert out["state"]["seats"]["south"] == "a1" and out["state"]["shooter"] == "b1"
    assert out["state"]["start_side"] == "west"


def test_17_1_f_doubles_direct_punishable_shot_into_opponent_rear_zone_not_restored():
    """novus 17.1.ф, 21.3: in doubles only a penalty puck; the puck is not put back."""
    before = [striker(), puck("red1", 0.3, 0.7), puck("black1", 0.3, 0.3)]
    after = moved(before, "black1", 0.05, 0.3)
    out = rule(before, after, [hit(0.1, "black1")], state=D)
    assert "novus 17.1.ф" in articles(out)
    black1 = [p for p in out["layout"]["pieces"] if p["id"] == "black1"][0]
    assert black1["x"] == 0.05


def test_21_4_doubles_opponent_puck_into_the_centre_circle_is_put_back():
    """novus 21.4: the prohibition stays for the centre circle: the puck is put back."""
    before = [striker(), puck("red1", 0.3, 0.7), puck("black1", 0.5, 0.3)]
    after = moved(before, "black1", 0.5, 0.5)
    out = rule(before, after, [hit(0.1, "black1")], state=D)
    assert any(s["article"] == "novus 21.4" for s in out["ruling"]["spotted"])


def test_16_1_z_doubles_shot_out_of_turn_loses_the_set():
    """novus 16.1.з: in doubles a shot by the wrong player ("право на удар было у другого
    игрока") loses the set, even noticed late: a2 struck when his partner a1 had the turn, or
    b1 when a1 had it. a1 himself, who has the turn, cannot have struck out of it."""
    before = [striker(), puck("red1", 0.3, 0.7), puck("black1", 0.5, 0.3)]
    out = rule(before, None, state=D,
               infractions=[{"code": "shot_out_of_turn", "player": "a2", "note": "late"}])
    assert articles(out) == ["novus 16.1.з"] and out["ruling"]["winner"] == "b1 & b2"
    out = rule(before, None, state=D,
               infractions=[{"code": "shot_out_of_turn", "player": "b1"}])
    assert articles(out) == ["novus 16.1.з"] and out["ruling"]["winner"] == "a1 & a2"
    with pytest.raises(ValueError, match="a1 has it"):
        rule(before, None, state=D, infractions=[{"code": "shot_out_of_turn", "player": "a1"}])


def test_22_3_pair_without_first_strike_may_swap_seats_again_in_the_deciding_set():
    """novus 22.3: in the deciding odd set (played to a win), the pair without the first
    strike may change places again; the opening pair keeps its seats."""
    from cuesim.rules.novus import NovusGame

    players = ["a1", "a2", "b1", "b2"]
    plain = NovusGame(players, doubles=True, sets=3, set_number=3)
    swapped = NovusGame(players, doubles=True, sets=3, set_number=3, deciding_swap=True)
    opener = plain.seats["south"]
    assert swapped.seats["south"] == opener
    same_team = [s for s, p in plain.seats.items() if plain.team_of(p) == plain.team_of(opener)]
    other = [s for s in plain.seats if s not in same_team]
    assert all(swapped.seats[s] == plain.seats[s] for s in same_team)
    assert swapped.seats[other[0]] == plain.seats[other[1]]
    assert swapped.seats[other[1]] == plain.seats[other[0]]
    # not in a set that does not decide the match
    assert NovusGame(players, doubles=True, sets=3, set_number=2,
                     deciding_swap=True).seats == NovusGame(players, doubles=True, sets=3,
                                                             set_number=2).seats
