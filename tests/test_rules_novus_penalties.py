"""Novus 12 and 17.3-17.7 (placing penalty pucks, debt, pucks off the table), 18.1 (loss of
turn) and the declared infractions of 17.1, 18.1 and 16.1."""

from __future__ import annotations

import pytest

from cuesim.rules.novus.placement import circle_spot, rail_spot
from cuesim.tables.layout import Layout
from tests.novus_util import (
    articles,
    drop,
    hit,
    layout,
    line,
    moved,
    pocket,
    puck,
    rail,
    row,
    rule,
    striker,
)

RED = [puck("red1", 0.30, 0.70), puck("red2", 0.70, 0.70)]
BLACK = [puck("black1", 0.40, 0.30), puck("black2", 0.60, 0.30)]
BASE = [striker(), *RED, *BLACK]
MISS: list = []


def spotted(out, article="novus 17.3"):
    return [(s["id"], round(s["x"], 4), round(s["y"], 4)) for s in out["ruling"]["spotted"]
            if s["article"] == article]


def test_17_3_penalty_puck_on_middle_line_against_opponent_rail():
    """novus 17.3: on the middle line against the opponent's rail."""
    out = rule(BASE, BASE, MISS)
    assert spotted(out) == [("red3", 0.5, 0.985)]


def test_17_3_middle_taken_nearest_free_place_without_moving_pucks():
    """novus 17.3: the middle is taken: as near to it as possible, touching the blocker."""
    before = [*BASE, puck("black3", 0.51, 0.985)]
    out = rule(before, before, MISS)
    assert spotted(out) == [("red3", 0.48, 0.985)]


def test_17_3_tie_goes_to_the_side_with_fewer_of_the_players_pucks():
    """novus 17.3: equal distance: the side with fewer of the penalised player's pucks."""
    before = [*BASE, puck("black3", 0.5, 0.985), puck("red3", 0.3, 0.95)]
    out = rule(before, before, MISS)
    assert spotted(out) == [("red4", 0.53, 0.985)]


def test_17_3_tie_then_fewer_pucks_then_shot_side():
    """novus 17.3: then the side with fewer pucks in all, then the side the shot came from."""
    before = [*BASE, puck("black3", 0.5, 0.985), puck("black4", 0.7, 0.95)]
    assert spotted(rule(before, before, MISS)) == [("red3", 0.47, 0.985)]
    before = [striker(0.3), *RED, *BLACK, puck("black3", 0.5, 0.985)]
    assert spotted(rule(before, before, MISS)) == [("red3", 0.47, 0.985)]
    before = [striker(0.7), *RED, *BLACK, puck("black3", 0.5, 0.985)]
    assert spotted(rule(before, before, MISS)) == [("red3", 0.53, 0.985)]


def test_17_3_several_at_once_first_in_the_middle():
    """novus 17.3, 17.6: several penalty pucks (debt too): the first in the middle."""
    out = rule(BASE, BASE, MISS, state={"debt": {"red": 2}})
    xs = sorted(x for _, x, _ in spotted(out))
    assert xs == [0.47, 0.5, 0.53] and out["state"]["debt"]["red"] == 0


def test_17_3_rail_spot_full_rail_returns_none():
    """novus 17.6: no free place on the rail: the puck stays as debt."""
    full = Layout.from_dict(layout(*[puck(f"b{k}", 0.11 + 0.03 * k, 0.985, "black")
                                     for k in range(27)]))
    assert rail_spot(full, "north", "red", None) is None


def test_17_4_all_eight_on_the_table_penalty_becomes_debt():
    """novus 17.4: all eight on the table: no puck placed, one owed."""
    before = [striker(), *row("red", 0.7), *BLACK]
    out = rule(before, before, MISS)
    assert spotted(out) == [] and out["state"]["debt"]["red"] == 1


def test_17_4_forgotten_penalty_puck_annuls_debt():
    """novus 17.4: a penalty puck forgotten is not placed later: the debt is annulled."""
    out = rule(BASE, None, state={"debt": {"red": 2}},
               infractions=[{"code": "penalty_forgotten", "player": "A"}])
    assert out["state"]["debt"]["red"] == 0


def test_17_4_no_debt_no_forgotten_penalty_puck():
    """novus 17.4: a forgotten penalty puck annuls a debt; declared for a player who owes
    none it cannot have happened, and is refused (naming the article and the player)."""
    with pytest.raises(ValueError, match=r"penalty_forgotten' \(novus 17\.4\): A \(red\) owes no"):
        rule(BASE, None, infractions=[{"code": "penalty_forgotten", "player": "A"}])


def test_a_refused_declaration_leaves_the_game_as_it_was():
    """A list of declared infractions refused part-way (18.1.е declared for the player
    without the turn, 17.4 with no debt, an unknown code) books nothing: not the warning
    (19.1) nor the debt annulled (17.4) of the infractions before it."""
    from cuesim.rules.novus import NovusGame
    from cuesim.rules.ruling import Infraction

    game = NovusGame(["A", "B"])
    game.debt["red"] = 2
    before = game.to_dict()
    for bad in (Infraction("out_of_zone", "B"), Infraction("penalty_forgotten", "B"),
                Infraction("no_such_code", "A")):
        with pytest.raises(ValueError):
            game.adjudicate(None, [Infraction("warning", "A"),
                                   Infraction("penalty_forgotten", "A"), bad])
        assert game.to_dict() == before, bad.code
    out = game.adjudicate(None, [Infraction("warning", "A"), Infraction("penalty_forgotten", "A")])
    assert game.warnings["A"] == 1 and game.debt["red"] == 0 and out.ruling is not None


def test_17_5_debt_placed_at_once_when_all_pocketed_in_a_series():
    """novus 17.5: the last puck pocketed without losing the turn: debt placed, play on."""
    before = [striker(), puck("red1", 0.3, 0.7), *BLACK]
    after = drop(before, "red1")
    out = rule(before, after, [hit(0.1, "red1"), pocket(0.3, "red1")],
               state={"debt": {"red": 1}, "series": {"A": 3}})
    assert not out["ruling"]["frame_over"] and not out["ruling"]["turn_passes"]
    assert len(spotted(out)) == 1 and out["state"]["debt"]["red"] == 0


def test_17_6_debt_placed_as_far_as_free_pucks_allow():
    """novus 17.6: 7 on the table, penalty + 2 debt: one placed, two owed."""
    before = [striker(), *row("red", 0.7, n=7), *BLACK]
    out = rule(before, before, MISS, state={"debt": {"red": 2}})
    assert len(spotted(out)) == 1 and out["state"]["debt"]["red"] == 2


def test_12_own_puck_off_the_table_to_the_centre_of_the_circle():
    """novus 12, 17.7, 18.1.в: an own puck over the rail goes to the circle centre; no penalty
    puck; the turn passes."""
    out = rule(BASE, BASE, [hit(0.1, "red1")],
               infractions=[{"code": "puck_off_table", "pieces": ["red1"], "note": "west"}])
    assert spotted(out, "novus 17.7") == [("red1", 0.5, 0.5)]
    assert articles(out) == ["novus 18.1.в"] and out["ruling"]["turn_passes"]


def test_12_a_piece_gone_from_the_board_fell_or_went_over_the_rail():
    """novus 12, 17.7: a puck leaves the board by a hole (a pocket event) or over the rail (the
    declared puck_off_table; the striker: 17.1.д). One missing after the shot with neither
    cannot have happened: refused, naming it."""
    with pytest.raises(ValueError, match="piece 'black2' is on the board before the shot and "
                                         "not after it"):
        rule(BASE, drop(BASE, "black2"), [hit(0.1, "red1")])
    with pytest.raises(ValueError, match="piece 'striker' is on the board before"):
        rule(BASE, drop(BASE, "striker"), [hit(0.1, "red1")])
    out = rule(BASE, drop(BASE, "black2"), [hit(0.1, "red1"), hit(0.2, "black2", "red1")],
               infractions=[{"code": "puck_off_table", "pieces": ["black2"]}])
    assert "novus 18.1.в" in articles(out)


def test_12_circle_centre_taken_goes_to_border_on_exit_side_then_clockwise():
    """novus 12: centre taken: inside the circle touching its border toward the exit rail;
    taken too: the next free place clockwise."""
    lay = Layout.from_dict(layout(puck("black9", 0.5, 0.5)))
    assert circle_spot(lay, "north") == (0.5, 0.5 + 0.11)
    lay = Layout.from_dict(layout(puck("black9", 0.5, 0.5), puck("black8", 0.5, 0.61)))
    x, y = circle_spot(lay, "north")
    assert x > 0.5 and y < 0.61  # clockwise from north is toward east


def test_17_1_r_opponent_puck_driven_off_by_punishable_shot_is_put_back():
    """novus 17.1.р: the opponent's puck goes back and a penalty puck is placed."""
    after = moved(BASE, "black1", 0.2, 0.1)
    out = rule(BASE, after, [hit(0.1, "black1")],
               infractions=[{"code": "puck_off_table", "pieces": ["black1"]}])
    assert "novus 17.1.р" in articles(out)
    assert spotted(out, "novus 17.1.р") == [("black1", 0.4, 0.3)]
    assert len(spotted(out)) == 1


def test_18_1_b_opponent_puck_pocketed_with_own():
    """novus 18.1.б: own and opponent's puck pocketed: turn lost, no penalty puck."""
    after = drop(BASE, "red1", "black2")
    out = rule(BASE, after, [hit(0.1, "red1"), hit(0.2, "black2", "red1"), pocket(0.3, "red1"),
                             pocket(0.4, "black2")])
    assert articles(out) == ["novus 18.1.б"] and out["ruling"]["turn_passes"]
    assert spotted(out) == []


def test_18_1_d_return_over_own_zone_line_without_dark_pucks():
    """novus 18.1.д: no dark pucks and the striker came back over the own zone line."""
    after = drop(BASE, "red1")
    events = [line(0.01, "zone_south", 1), hit(0.1, "red1"), pocket(0.3, "red1"),
              line(0.5, "zone_south", -1)]
    out = rule(BASE, after, events)
    assert articles(out) == ["novus 18.1.д"] and out["ruling"]["turn_passes"]


def test_18_1_d_a_hand_written_return_is_judged_where_the_striker_rests():
    """novus 18.1.д in a hand-written log: the inward `line` event is the striker's centre
    crossing its zone line, as a simulation logs it. Meeting nothing after it, the striker
    slides on into the zone and rests at its deepest point, so the layout after the shot
    tells whether the line left its hole (5.55 mm past the line: hole radius and half the
    line), as the trajectory tells it for a simulated shot. Back 2.9 mm only: no 18.1.д; 10 mm:
    18.1.д; meeting a rail after the crossing: taken as the return (the author's call)."""
    events = [line(0.01, "zone_south", 1), hit(0.1, "red1"), pocket(0.3, "red1"),
              line(0.5, "zone_south", -1)]
    for rest_y, slide in ((0.130 - 0.0029, False), (0.130 - 0.010, True)):
        after = [striker(0.5, rest_y), *drop(BASE, "red1", "striker")]
        out = rule(BASE, after, events)
        assert ("novus 18.1.д" in articles(out)) is slide, rest_y
    after = [striker(0.5, 0.130 - 0.0029), *drop(BASE, "red1", "striker")]
    out = rule(BASE, after, [*events, rail(0.6, "west")])
    assert "novus 18.1.д" in articles(out)


def test_18_1_d_return_allowed_with_a_dark_puck():
    """novus 18.1.д: the player has a dark puck: the return is allowed."""
    before = [*BASE, puck("red3", 0.8, 0.1)]
    after = drop(before, "red1")
    events = [line(0.01, "zone_south", 1), hit(0.1, "red1"), pocket(0.3, "red1"),
              line(0.5, "zone_south", -1)]
    out = rule(before, after, events)
    assert out["ruling"]["legal"] and not out["ruling"]["turn_passes"]


def test_17_1_declared_infractions_penalty_puck():
    """novus 17.1.д/ж/к/л/м/н/о/с/т/у: declared, each costs a penalty puck and the turn."""
    for code, letter in [("striker_off_table", "д"), ("refused_shot", "ж"),
                         ("double_hit", "к"), ("striker_touched_puck_placing", "л"),
                         ("took_striker_early", "м"), ("touched_moving", "н"),
                         ("touched_puck", "о"), ("striker_broken", "с"), ("time_30s", "т"),
                         ("not_tip", "у")]:
        after = drop(BASE, "red1")
        out = rule(BASE, after, [hit(0.1, "red1"), pocket(0.3, "red1")],
                   state={"time_warned": ["A"]}, infractions=[{"code": code}])
        assert f"novus 17.1.{letter}" in articles(out), code
        assert out["ruling"]["turn_passes"] and len(spotted(out)) == 1, code


def test_18_1_declared_loss_of_turn_without_penalty():
    """novus 18.1.е/ж/з: declared, the turn passes without a penalty puck."""
    for code, letter in [("out_of_zone", "е"), ("time_5s", "ж"), ("striker_placed_early", "з")]:
        after = drop(BASE, "red1")
        out = rule(BASE, after, [hit(0.1, "red1"), pocket(0.3, "red1")],
                   state={"time_warned": ["A"]}, infractions=[{"code": code}])
        assert articles(out) == [f"novus 18.1.{letter}"] and out["ruling"]["turn_passes"]
        assert spotted(out) == []


@pytest.mark.parametrize("code,article", [("time_5s", "18.1.ж"), ("time_30s", "17.1.т")])
def test_18_1_zh_17_1_t_follow_a_warning_for_delay(code, article):
    """novus 19.3, 18.1.ж, 17.1.т: a player who delays is warned (19.3); only then do the 5 s
    (18.1.ж, the turn) and the 30 s (17.1.т, a penalty puck) limits apply. Declared with no
    such warning they are refused; after one (earlier, or first in the same declaration) they
    are ruled, and the warning is kept in the state for the rest of the game."""
    after = drop(BASE, "red1")
    shot = [hit(0.1, "red1"), pocket(0.3, "red1")]
    with pytest.raises(ValueError, match=f"'{code}' \\(novus {article}\\) follows a warning "
                                         "for delay \\(novus 19.3\\), and A has none"):
        rule(BASE, after, shot, infractions=[{"code": code}])
    with pytest.raises(ValueError, match="and A has none"):  # B's warning is not A's
        rule(BASE, after, shot, state={"time_warned": ["B"]}, infractions=[{"code": code}])
    out = rule(BASE, after, shot, infractions=[{"code": "time_warning"}, {"code": code}])
    assert f"novus {article}" in articles(out) and out["ruling"]["turn_passes"]
    assert out["state"]["time_warned"] == ["A"]
    out = rule(BASE, after, shot, state={"time_warned": ["A"]}, infractions=[{"code": code}])
    assert f"novus {article}" in articles(out)


def test_19_3_a_partners_warning_for_delay_binds_the_pair():
    """novus 19.3: in doubles the time limit binds both partners, so after one partner's
    warning for delay the other's 5 s is ruled (18.1.ж)."""
    from cuesim.rules.novus import NovusGame
    from cuesim.rules.ruling import Infraction

    game = NovusGame(["a1", "b1", "a2", "b2"], doubles=True)
    partner = next(p for p in game.players
                   if p != game.shooter and game.team_of(p) == game.team_of(game.shooter))
    game.adjudicate(None, [Infraction("time_warning", partner)])
    out = game.adjudicate(None, [Infraction("time_5s", game.shooter)])
    assert "novus 18.1.ж" in [v.article for v in out.ruling.violations]


def test_19_3_time_warned_in_a_state_file_is_checked():
    """The state's time_warned lists players of the game (19.3); anything else is refused."""
    with pytest.raises(ValueError, match="state.time_warned must list players"):
        rule(BASE, None, state={"time_warned": ["Z"]}, infractions=[{"code": "refused_shot"}])
    with pytest.raises(ValueError, match="state.time_warned must list players"):
        rule(BASE, None, state={"time_warned": "A"}, infractions=[{"code": "refused_shot"}])


def test_16_1_declared_loss_of_set():
    """novus 16.1.б/в/д/е/к/л/м: declared, the set is lost (16.1.м, a moving puck touched on
    purpose, with the shot during which the pieces moved)."""
    for code, letter in [("shook_table", "б"), ("deliberate_violation", "в"),
                         ("moved_pucks", "д"), ("picked_up_puck", "е"),
                         ("changed_equipment", "к"), ("absent_between_sets", "л")]:
        out = rule(BASE, None, state={"sets": 3, "set_number": 2},
                   infractions=[{"code": code, "player": "A"}])
        assert f"novus 16.1.{letter}" in articles(out), code
        assert out["ruling"]["frame_over"] and out["ruling"]["winner"] == "B"
    out = rule(BASE, drop(BASE, "red1"), [hit(0.1, "red1"), pocket(0.3, "red1")],
               state={"sets": 3}, infractions=[{"code": "touched_moving_deliberately"}])
    assert "novus 16.1.м" in articles(out)
    assert out["ruling"]["frame_over"] and out["ruling"]["winner"] == "B"


def test_16_1_l_absence_between_sets_needs_a_break_between_sets():
    """novus 16.1.л: away more than three minutes in the break between sets; in the first set,
    before any set has ended, there was no such break: refused."""
    with pytest.raises(ValueError, match=r"16\.1\.л\) happens in a break between sets"):
        rule(BASE, None, state={"sets": 3}, infractions=[{"code": "absent_between_sets"}])


@pytest.mark.parametrize("code,article", [("took_striker_early", "17.1.м"),
                                          ("touched_moving", "17.1.н"),
                                          ("touched_moving_deliberately", "16.1.м")])
def test_17_1_m_n_16_1_m_need_pieces_in_motion(code, article):
    """novus 17.1.м (the striker taken before every piece stopped), 17.1.н and 16.1.м (a
    moving puck or striker touched) happen while pieces move: declared with no shot, when
    every piece is at rest, they are refused (naming the code and the article), not ruled.
    With the shot they are ruled, also for the player without the turn (17.1.п)."""
    with pytest.raises(ValueError, match=f"'{code}' \\(novus {article}\\) needs pieces in motion"):
        rule(BASE, None, state={"sets": 3}, infractions=[{"code": code}])
    with pytest.raises(ValueError, match="needs pieces in motion"):
        rule(BASE, None, state={"sets": 3}, infractions=[{"code": code, "player": "B"}])
    out = rule(BASE, drop(BASE, "red1"), [hit(0.1, "red1"), pocket(0.3, "red1")],
               state={"sets": 3}, infractions=[{"code": code, "player": "B"}])
    if article.startswith("17"):
        assert "novus 17.1.п" in articles(out) and not out["ruling"]["turn_passes"]
    else:
        assert "novus 16.1.м" in articles(out) and out["ruling"]["winner"] == "A"


def test_16_1_d_moving_two_pucks_without_a_shot_loses_the_set():
    """novus 16.1.д: two or more pucks moved ("сдвинул") without a shot lose the set."""
    out = rule(BASE, None, state={"sets": 3},
               infractions=[{"code": "moved_pucks", "pieces": ["red1", "red2"]}])
    assert articles(out) == ["novus 16.1.д"] and out["ruling"]["winner"] == "B"


def test_17_1_o_touching_two_pucks_is_one_penalty_puck_not_a_lost_set():
    """novus 17.1.о against 16.1.д: a touch ("прикоснулся к какой-либо пешке") of two pucks
    is still a touch, a penalty puck (one for the shot, 17.2), not the set: 16.1.д needs them
    moved (`moved_pucks`). Was: ruled 16.1.д whenever two pucks were named."""
    out = rule(BASE, None, state={"sets": 3},
               infractions=[{"code": "touched_puck", "pieces": ["red1", "red2"]}])
    assert articles(out) == ["novus 17.1.о"]
    assert not out["ruling"]["frame_over"] and out["ruling"]["turn_passes"]


def test_16_1_d_moved_pucks_naming_one_puck_is_refused():
    """novus 16.1.д is two or more pucks moved; `moved_pucks` naming one cannot be that (one
    puck moved by hand is 17.1.о, `touched_puck`): refused, the game as it was. Named with
    none, the declaration stands as given; its pucks must be pucks on the board."""
    for pieces in (["red1"], ["red1", "red1"]):
        with pytest.raises(ValueError, match=r"moved_pucks \(novus 16\.1\.д\) is two or "
                                             r"more pucks .* names one \('red1'\).*"
                                             r"'touched_puck' \(novus 17\.1\.о\)"):
            rule(BASE, None, state={"sets": 3},
                 infractions=[{"code": "moved_pucks", "pieces": pieces}])
    out = rule(BASE, None, state={"sets": 3}, infractions=[{"code": "moved_pucks"}])
    assert articles(out) == ["novus 16.1.д"]
    with pytest.raises(ValueError, match="moved_pucks names 'red9', which is not a puck"):
        rule(BASE, None, state={"sets": 3},
             infractions=[{"code": "moved_pucks", "pieces": ["red9", "red1"]}])


def test_17_1_o_a_puck_moved_by_hand_may_lie_elsewhere_after_the_shot():
    """novus 17.1.о: a puck the player touched and moved has no event of its own; the layout
    after the shot may show it where the hand left it when the declared infraction names it
    (was: refused as a puck moved with nothing touching it). Not named, it is refused."""
    after = moved(drop(BASE, "red1"), "black2", 0.60, 0.35)
    events = [hit(0.1, "red1"), pocket(0.3, "red1")]
    out = rule(BASE, after, events, state={"sets": 3},
               infractions=[{"code": "touched_puck", "pieces": ["black2"]}])
    assert articles(out) == ["novus 17.1.о"]
    with pytest.raises(ValueError, match=r"scenario\.after moves \['black2'\], which no "
                                         "event touches and no declared infraction moves by "
                                         "hand"):
        rule(BASE, after, events, state={"sets": 3})


def test_17_1_o_16_1_d_touched_pucks_are_pucks_on_the_board():
    """novus 17.1.о / 16.1.д: the pucks named as touched or moved were on the board; a puck
    that is not (nor the striker, which is no puck) is refused, not ruled as a lost set."""
    for pieces in (["red9"], ["red9", "black9"], ["striker"]):
        with pytest.raises(ValueError, match=f"touched_puck names '{pieces[0]}', which is not "
                                             "a puck on the board"):
            rule(BASE, None, state={"sets": 3},
                 infractions=[{"code": "touched_puck", "pieces": pieces}])


def test_16_1_zh_shot_out_of_turn_and_late_notice():
    """novus 16.1.ж: a shot out of turn ("сделал удар ..., а право на удар было у соперника")
    loses the set, unless noticed after the next shot. Declared for the player who has the
    turn it is refused: it cost him the set he was to play."""
    out = rule(BASE, None, state={"sets": 3},
               infractions=[{"code": "shot_out_of_turn", "player": "B"}])
    assert articles(out) == ["novus 16.1.ж"] and out["ruling"]["frame_over"]
    assert out["ruling"]["winner"] == "A"
    out = rule(BASE, None, state={"sets": 3},
               infractions=[{"code": "shot_out_of_turn", "player": "B", "note": "late"}])
    assert not out["ruling"]["frame_over"]
    for declared in ({}, {"player": "A"}):
        with pytest.raises(ValueError, match="A has it: name the player who struck out of turn"):
            rule(BASE, None, state={"sets": 3},
                 infractions=[{"code": "shot_out_of_turn", **declared}])


def test_17_1_p_violation_while_opponent_has_the_turn():
    """novus 17.1.п: B touches a puck during A's series: A keeps shooting; when A's series
    ends B's penalty puck is placed and B misses his turn."""
    after = drop(BASE, "red1")
    out = rule(BASE, after, [hit(0.1, "red1"), pocket(0.3, "red1")],
               infractions=[{"code": "touched_puck", "player": "B"}])
    assert "novus 17.1.п" in articles(out) and not out["ruling"]["turn_passes"]
    assert out["state"]["pending"][0]["player"] == "B"
    out = rule(BASE, BASE, MISS, state={"pending": [{"player": "B", "article": "novus 17.1.п"}]})
    assert out["ruling"]["next_player"] == "A"  # B misses his turn
    ids = [s[0] for s in spotted(out)]
    assert "black3" in ids and "red3" in ids


def test_17_1_p_the_puck_moved_by_the_offender_is_put_back_at_once():
    """novus 17.1.п: "the moved puck's position is restored at once": B moved black1 by hand
    during A's shot; it goes back where it was, and B's penalty waits for A's series."""
    after = moved(drop(BASE, "red1"), "black1", 0.45, 0.35)
    out = rule(BASE, after, [hit(0.1, "red1"), pocket(0.3, "red1")],
               infractions=[{"code": "touched_puck", "player": "B", "pieces": ["black1"]}])
    assert spotted(out, "novus 17.1.п") == [("black1", 0.4, 0.3)]
    black1 = next(p for p in out["layout"]["pieces"] if p["id"] == "black1")
    assert (black1["x"], black1["y"]) == (0.4, 0.3)
    assert out["state"]["pending"] == [{"player": "B", "article": "novus 17.1.п"}]
    # a puck the shot moved too (its own event) stays where the shot left it
    after = moved(drop(BASE, "red1"), "black1", 0.45, 0.35)
    out = rule(BASE, after, [hit(0.1, "red1"), pocket(0.3, "red1"), hit(0.4, "black1")],
               infractions=[{"code": "touched_puck", "player": "B", "pieces": ["black1"]}])
    assert spotted(out, "novus 17.1.п") == []
    assert any("moved by the shot as well" in n for n in out["ruling"]["notes"])


def test_17_2_17_1_p_several_violations_of_one_shot_cost_one_puck_and_one_turn():
    """novus 17.2: several violations in one shot earn one penalty puck; 17.1.п: the offender
    misses his next turn (one turn)."""
    out = rule(BASE, BASE, MISS,
               infractions=[{"code": "touched_moving", "player": "B"},
                            {"code": "took_striker_early", "player": "B"}])
    assert articles(out).count("novus 17.1.п") == 2
    # A missed: his own penalty, then B's single one, and B misses one turn
    ids = sorted(s[0] for s in spotted(out))
    assert ids == ["black3", "red3"]
    assert out["ruling"]["next_player"] == "A" and out["state"]["skip"] == []
    out = rule(BASE, BASE, MISS, state=out["state"])
    assert out["ruling"]["next_player"] == "B"  # A missed again: now B plays


def test_17_1_p_17_5_20_3_a_pending_penalty_puck_keeps_the_set_going():
    """novus 17.5 with 17.1.п: B's last puck is pocketed by A while B owes a 17.1.п penalty
    puck. As with a debt (17.4), that puck comes onto the board when A's series ends: the set
    is not B's yet, and B misses his turn."""
    before = [striker(), *RED, puck("black1", 0.5, 0.4)]
    after = [striker(0.5, 0.3), *RED]
    for pending in ([], [{"player": "B", "article": "novus 17.1.п"}]):
        infractions = [] if pending else [{"code": "touched_moving", "player": "B"}]
        out = rule(before, after, [hit(0.1, "black1"), pocket(0.3, "black1")],
                   state={"pending": pending}, infractions=infractions)
        assert not out["ruling"]["frame_over"]
        assert "black1" in [s[0] for s in spotted(out)]
        assert out["ruling"]["next_player"] == "A"


def test_12_striker_outside_the_zone_strip_is_refused():
    """novus 12: the striker outside the own zone strip: refused, nothing is ruled."""
    before = [striker(0.5, 0.2), *RED, *BLACK]
    out = rule(before, before, MISS)
    assert articles(out) == ["novus 12"] and out["ruling"]["next_player"] == "A"
    assert not out["ruling"]["turn_passes"]


def test_17_1_l_shot_struck_with_the_striker_touching_a_puck():
    """novus 17.1.л: the striker touched a puck while being placed. A shot whose layout has the
    striker touching a puck was struck from there: the shot is ruled, with 17.1.л (a penalty
    puck and the turn) naming the puck; not refused as a placement (the shot was played)."""
    before = [striker(0.5, 0.07), puck("red1", 0.5, 0.10725), puck("red2", 0.3, 0.7), *BLACK]
    after = moved(moved(before, "red2", 0.3, 0.8), "striker", 0.3, 0.6)
    out = rule(before, after, [hit(0.1, "red2")])
    assert articles(out) == ["novus 17.1.л"]
    assert "red1" in out["ruling"]["violations"][0]["text"]
    assert out["ruling"]["turn_passes"] and out["ruling"]["next_player"] == "B"
    assert len(spotted(out)) == 1 and out["state"]["debt"]["red"] == 0
    # declared as well: one violation, not two
    out = rule(before, after, [hit(0.1, "red2")],
               infractions=[{"code": "striker_touched_puck_placing"}])
    assert articles(out) == ["novus 17.1.л"]
    # a micron clear of it: no violation
    clear = moved(before, "red1", 0.5, 0.10725 + 2e-6)
    assert articles(rule(clear, moved(clear, "striker", 0.3, 0.6), [hit(0.1, "red2")])) == []


def test_17_1_l_declared_naming_a_piece_not_on_the_board_is_refused():
    """novus 17.1.л declared with pieces: each must be a puck on the board before the shot."""
    with pytest.raises(ValueError, match="red9"):
        rule(BASE, BASE, MISS, infractions=[{"code": "striker_touched_puck_placing",
                                             "pieces": ["red9"]}])


def test_17_1_d_striker_over_the_rail_cites_17_1_d_not_18_1_v():
    """novus 17.1.д: the striker declared over the rail costs a penalty puck (and so the turn,
    18.1.г); 18.1.в is about pucks and is not cited. Declared both ways, 17.1.д is cited once."""
    after = drop(BASE, "red1", "striker")
    events = [hit(0.1, "red1"), pocket(0.3, "red1")]
    for infractions in ([{"code": "puck_off_table", "pieces": ["striker"]}],
                        [{"code": "striker_off_table"}],
                        [{"code": "striker_off_table"},
                         {"code": "puck_off_table", "pieces": ["striker"]}]):
        out = rule(BASE, after, events, infractions=infractions)
        assert articles(out) == ["novus 17.1.д"], infractions
        assert out["ruling"]["turn_passes"] and len(spotted(out)) == 1
    # a puck and the striker over the rail: 17.1.д and 18.1.в
    out = rule(BASE, drop(BASE, "red1", "red2", "striker"),
               [hit(0.1, "red2"), hit(0.2, "red1"), pocket(0.3, "red1")],
               infractions=[{"code": "puck_off_table", "pieces": ["striker", "red2"]}])
    assert sorted(articles(out)) == ["novus 17.1.д", "novus 18.1.в"]


def test_17_1_p_opponent_infraction_alone_leaves_the_shot_legal():
    """novus 17.1.п: a correct shot that pockets an own puck, with only the opponent's
    infraction declared, is legal; the opponent's violation is listed under 17.1.п and ruled
    on its own (his penalty puck when the series ends); the shooter keeps the turn."""
    after = drop(BASE, "red1")
    out = rule(BASE, after, [hit(0.1, "red1"), pocket(0.3, "red1")],
               infractions=[{"code": "touched_moving", "player": "B"}])
    assert out["ruling"]["legal"] and not out["ruling"]["turn_passes"]
    assert articles(out) == ["novus 17.1.п"]
    # the shooter's own infraction still makes the shot illegal
    out = rule(BASE, after, [hit(0.1, "red1"), pocket(0.3, "red1")],
               infractions=[{"code": "touched_moving", "player": "B"}, {"code": "not_tip"}])
    assert not out["ruling"]["legal"] and out["ruling"]["turn_passes"]


def test_16_1_opponent_loss_of_set_leaves_the_shooter_legal():
    """novus 16.1.б: the opponent shook the table: the set is his loss; the shooter committed
    nothing, so his shot is legal."""
    out = rule(BASE, None, state={"sets": 3},
               infractions=[{"code": "shook_table", "player": "B"}])
    assert articles(out) == ["novus 16.1.б"] and out["ruling"]["winner"] == "A"
    assert out["ruling"]["legal"]


def test_18_1_loss_of_turn_declared_for_the_opponent_is_refused():
    """novus 18.1: the turn is lost by the player who has it; 18.1.е declared for the opponent
    is refused rather than taken from the shooter."""
    after = drop(BASE, "red1")
    with pytest.raises(ValueError, match=r"18\.1\.е.*B does not have the turn"):
        rule(BASE, after, [hit(0.1, "red1"), pocket(0.3, "red1")],
             infractions=[{"code": "out_of_zone", "player": "B"}])


@pytest.mark.parametrize("code", ["double_hit", "not_tip", "striker_off_table", "striker_broken"])
def test_17_1_a_strokes_infraction_needs_the_stroke(code):
    """novus 17.1.к, у, д, с describe a stroke or what it did: declared with no shot they are
    refused (naming the code), not ruled as a penalty puck for a stroke never played; with the
    shot they cost the turn and a penalty puck. Infractions that need no stroke (17.1.ж refusing
    to shoot, 17.1.о touching a puck) are still ruled between shots."""
    import math

    from cuesim.api import game_table, simulate, start_layout
    from cuesim.rules.novus import NovusGame
    from cuesim.rules.ruling import Infraction
    from cuesim.shot import NovusShot

    game = NovusGame(["A", "B"])
    with pytest.raises(ValueError, match=f"infraction '{code}' .* happens in a stroke"):
        game.adjudicate(None, [Infraction(code, "A")])
    table = game_table("novus")
    shot = simulate(table, start_layout("novus", table), NovusShot(x=0.5, angle=math.pi / 2,
                                                                    speed=2.0))
    out = game.adjudicate(shot, [Infraction(code, "A")])
    assert out.ruling.turn_passes and not out.ruling.legal
    for between in ("refused_shot", "touched_puck"):
        ruled = NovusGame(["A", "B"]).adjudicate(None, [Infraction(between, "A", ("red1",))])
        assert not ruled.ruling.legal


@pytest.mark.parametrize("player", ["A", "B"])
def test_18_1_v_a_puck_over_the_rail_needs_a_stroke(player):
    """novus 18.1.в: the turn is lost when a puck flies over the rail "в результате удара", as
    a result of the stroke. Declared with no shot it cost A his turn, even with B named; it is
    refused: a puck a hand or cue knocked off is 'touched_puck' or 'moved_pucks'."""
    from cuesim.rules.novus import NovusGame
    from cuesim.rules.ruling import Infraction

    with pytest.raises(ValueError, match="infraction 'puck_off_table' .* happens in a stroke"):
        NovusGame(["A", "B"]).adjudicate(None, [Infraction("puck_off_table", player,
                                                           ("red1",))])
