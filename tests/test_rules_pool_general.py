"""WPA section 3, the general rules, article by article on hand-written event logs."""

from __future__ import annotations

import json

import pytest

from cuesim.rules.pool import EightBall, NineBall, StraightPool, adjudicate_lag
from cuesim.rules.pool.general import (
    BETWEEN_SHOTS,
    INFRACTIONS,
    ON_THE_BREAK,
    WITH_BALL_IN_HAND,
    next_breaker,
)
from cuesim.rules.pool.model import Declaration, PoolShot, PoolState
from cuesim.tables.pool_spots import BALL_DIAMETER, FOOT_SPOT
from tests.pool_util import (
    ASIDE,
    KITCHEN_CUE,
    MID,
    NINE,
    articles,
    cross,
    foul,
    hit,
    layout,
    nine_in_play,
    pocket,
    rail,
    shot,
    spread,
    strike,
)


# --- 3.6 the lag -------------------------------------------------------------------------
def lag_events(ball, extra=()):
    return [strike(0, ball), rail(1.0, ball, "foot_rail"), *extra]


def test_3_6_lag_nearest_the_head_cushion_wins():
    ev = lag_events("cue") + lag_events("9")
    res = adjudicate_lag(ev, layout({"cue": (0.3, 0.10), "9": (0.9, 0.20)}),
                         {"Ann": "cue", "Bob": "9"})
    assert res.winner == "Ann"
    assert res.ruling.winner == "Ann"


@pytest.mark.parametrize("extra,article", [
    ([cross(0.5, "cue", -1, "long_string")], "WPA 3.6 (a)"),
    ([rail(1.5, "cue", "left_head_rail")], "WPA 3.6 (e)"),
    ([rail(2.0, "cue", "foot_rail")], "WPA 3.6 (g)"),
])
def test_3_6_lag_losing_conditions(extra, article):
    ev = lag_events("cue", extra) + lag_events("9")
    res = adjudicate_lag(ev, layout({"cue": (0.3, 0.05), "9": (0.9, 0.50)}),
                         {"Ann": "cue", "Bob": "9"})
    assert res.winner == "Bob"
    assert article in [v.article for v in res.faults["Ann"]]


def test_3_6_lag_no_foot_rail_pocketed_and_jaws():
    ev = [strike(0, "cue"), strike(0, "9"), rail(1, "9", "foot_rail"), pocket(2, "9",
                                                                                "head_left")]
    res = adjudicate_lag(ev, layout({"cue": (0.3, 0.05)}), {"Ann": "cue", "Bob": "9"})
    assert [v.article for v in res.faults["Ann"]] == ["WPA 3.6 (b)"]
    assert [v.article for v in res.faults["Bob"]] == ["WPA 3.6 (c)"]
    assert res.winner is None  # both lose: lag again
    ev = lag_events("cue") + lag_events("9")
    res = adjudicate_lag(ev, layout({"cue": (0.02, 0.01), "9": (0.9, 0.5)}),
                         {"Ann": "cue", "Bob": "9"})
    assert "WPA 3.6 (f)" in [v.article for v in res.faults["Ann"]]


def test_3_6_lag_tie_is_relagged():
    ev = lag_events("cue") + lag_events("9")
    res = adjudicate_lag(ev, layout({"cue": (0.3, 0.2), "9": (0.9, 0.2)}),
                         {"Ann": "cue", "Bob": "9"})
    assert res.winner is None


# --- 3.18, 3.19, 3.20, 3.21, 3.28 -------------------------------------------------------
def test_3_18_no_contact_is_a_foul():
    out = nine_in_play().play(shot([strike(), rail(0.5, "cue")], spread(NINE)))
    assert articles(out) == ["WPA 3.18"]
    assert out.ruling.placement == "table"


def test_3_19_rail_after_contact_needed_in_14_1():
    g = StraightPool(players=("Ann", "Bob"))
    g.state.phase, g.state.ball_in_hand = "play", None
    out = g.play(shot([strike(), rail(0.1, "cue"), hit(0.5, "4")], spread(["4", "5"])))
    assert "WPA 6.7.2" in articles(out)  # 14.1's version of 3.19 (b)
    g = StraightPool(players=("Ann", "Bob"))
    g.state.phase, g.state.ball_in_hand = "play", None
    out = g.play(shot([strike(), hit(0.5, "4"), hit(0.6, "5", "4"),
                       rail(0.9, "5", "left_foot_rail")],
                      spread(["4", "5"])))
    assert out.ruling.legal


def test_3_20_scratch_and_touching_a_pocketed_ball():
    g = nine_in_play()
    out = g.play(shot([strike(), hit(0.2, "1"), pocket(0.5, "cue")], spread(NINE)))
    assert "WPA 3.20" in articles(out)
    g = nine_in_play()
    ev = [strike(), hit(0.2, "1"), pocket(0.4, "1"), hit(0.5, "1"), rail(0.6, "cue")]
    out = g.play(shot(ev, spread(NINE)))
    assert "WPA 3.20" in articles(out)


def test_3_21_striking_an_object_ball_with_the_tip():
    out = nine_in_play().play(shot([strike(0, "1"), rail(0.3, "1")], spread(NINE)))
    assert "WPA 3.21" in articles(out)


def test_3_28_ball_off_the_table_is_a_foul():
    out = nine_in_play().play(shot([strike(), hit(0.2, "1"), rail(0.3, "1")], spread(NINE),
                                   infractions=[foul("off_table", "1")]))
    assert "WPA 3.28" in articles(out) and "WPA 5.11" in articles(out)


def test_3_28_a_ball_gone_from_the_table_was_pocketed_or_declared_off_it():
    """3.28: a ball leaves the bed into a pocket (an event) or off the table (the declared
    off_table). One on the table before the shot and missing after it with neither cannot have
    happened: refused, naming it, and the game is left as it was."""
    g = nine_in_play()
    positions = spread(NINE)
    final = {k: v for k, v in positions.items() if k != "9"}
    with pytest.raises(ValueError, match="ball '9' is on the table before the shot .* and not "
                                         "after it .* neither a pocket event nor infraction "
                                         "off_table"):
        g.play(shot([strike(), hit(0.2, "1"), rail(0.3, "1")], positions, final=final))
    assert g.state.shooter == "Ann" and g.state.phase == "play"
    out = g.play(shot([strike(), hit(0.2, "1"), hit(0.25, "9", "1"), rail(0.3, "1")],
                      positions, final=final, infractions=[foul("off_table", "9")]))
    assert "WPA 3.28" in articles(out)


ALL15 = [str(n) for n in range(1, 16)]


@pytest.mark.parametrize("game,ids,game_article", [
    (NineBall, NINE, "WPA 5.11"),
    (EightBall, ALL15, "WPA 4.17"),
    (StraightPool, ALL15, "WPA 6.9"),
])
def test_3_28_ball_off_the_table_cited_once(game, ids, game_article):
    """3.28: a ball driven off the table is one foul under 3.28, cited once (not once for the
    declaration and again for the ball), with the game's own article for object balls off the
    table (4.17, 5.11, 6.9); two balls off in one shot, declared apart, are still one 3.28."""
    g = game(players=("Ann", "Bob"))
    g.state.phase, g.state.ball_in_hand = "play", None
    if game is EightBall:
        g.state.groups = {"Ann": "solids", "Bob": "stripes"}
    out = g.play(shot([strike(), hit(0.2, "1"), hit(0.25, "2", "1"), hit(0.26, "3", "1"),
                       rail(0.3, "1")], spread(ids),
                      infractions=[foul("off_table", "2"), foul("off_table", "3")]))
    arts = articles(out)
    assert arts.count("WPA 3.28") == 1 and game_article in arts
    v = next(v for v in out.ruling.violations if v.article == "WPA 3.28")
    assert v.text == "balls 2, 3 off the table"


def test_3_28_cue_ball_off_the_table_cited_once():
    """3.28: the cue ball off the table is a foul cited once; the incoming player has ball in
    hand (9-ball 5.7)."""
    out = nine_in_play().play(shot([strike(), hit(0.2, "1"), rail(0.3, "1")], spread(NINE),
                                   infractions=[foul("off_table", "cue")]))
    assert articles(out) == ["WPA 3.28"]
    assert out.state.ball_in_hand == "table" and out.state.shooter == "Bob"


@pytest.mark.parametrize("code", sorted(set(INFRACTIONS) - {"interference",
                                                             "deliberate_interference"}))
def test_declared_infractions_are_fouls_with_their_article(code):
    """3.3, 3.13, 3.14, 3.21-3.27, 3.29, 3.40, 3.42, 3.43 (and 1.11, 3.9, 3.28): fouls physics
    cannot see come in declared (3.22 and 3.40 on a shot from ball in hand, 3.9 on the
    break, from the kitchen: the cue ball crossed the head string, 3.8, 3.9)."""
    breaking = code in ON_THE_BREAK
    g = nine_in_play(ball_in_hand="table" if code in WITH_BALL_IN_HAND else
                     "kitchen" if breaking else None, phase="break" if breaking else "play")
    events = [strike(), hit(0.2, "1"), rail(0.4, "1")]
    pos = spread(NINE, cue=KITCHEN_CUE if breaking else MID)
    out = g.play(shot(events[:1] + [cross(0.1)] * breaking + events[1:], pos,
                      infractions=[foul(code)]))
    assert not out.ruling.legal
    expected = {"jump_masse_moved_ball": "WPA 5.12"}.get(code, INFRACTIONS[code][0])
    assert expected in articles(out)
    assert out.state.shooter == "Bob" and out.state.ball_in_hand == "table"


@pytest.mark.parametrize("code", [*WITH_BALL_IN_HAND, *ON_THE_BREAK])
def test_3_22_3_40_3_9_need_ball_in_hand_or_the_break(code):
    """3.22 (an object ball touched while placing the cue ball) and 3.40 (a forward stroke
    touching it while placing it) happen only with ball in hand, 3.9 (the cue ball stopped or
    deflected on the break) only on the break: declared otherwise, with a shot or between
    shots, they cannot have happened and are refused, naming the code and the article."""
    article = INFRACTIONS[code][0].replace(".", r"\.")
    for events in ([strike(), hit(0.2, "1"), rail(0.4, "1")], []):
        g = nine_in_play()
        with pytest.raises(ValueError, match=f"'{code}' \\({article}\\) happens "):
            g.play(shot(events, spread(NINE), infractions=[foul(code)]))
        assert g.state.phase == "play" and g.state.shooter == "Ann"  # nothing booked


def test_3_28_off_table_names_a_ball_that_was_on_the_table_and_is_not_after():
    """3.28: a ball that left the table was on it before the shot and is not on it after;
    naming another (the 9 not on the table: it would be spotted out of nothing, 5.7) cannot
    have happened and is refused, naming the ball and the layout."""
    balls = [b for b in NINE if b != "9"]
    before = layout(spread(balls))
    events = [strike(), hit(0.2, "1"), rail(0.4, "1")]
    with pytest.raises(ValueError, match="off_table names ball '9', which is not on the table "
                                         "before the shot"):
        nine_in_play().play(PoolShot(events, before, before,
                                     infractions=[foul("off_table", "9")]))
    with pytest.raises(ValueError, match="off_table names ball '2', which is on the table "
                                         "after the shot"):
        nine_in_play().play(PoolShot(events, before, before,
                                     infractions=[foul("off_table", "2")]))


def test_3_21_a_ball_disturbed_by_the_foul_goes_back_where_it_was():
    """3.21: "any object ball disturbed in an ordinary foul is returned as close as possible to
    its original position", with no option for the incoming player: the shooter's hand moved
    the 3 between shots and it goes back; if another ball now covers its place it stays (a
    note says so); one the stroke moved as well stays where the stroke left it."""
    pos = {"cue": (0.6, 0.5), "1": (0.3, 1.5), "3": (0.8, 1.8), "4": (0.8, 1.5), "9": (0.3, 2.2)}
    moved = dict(pos, **{"3": (1.0, 2.0)})
    touched = [foul("touched_ball", "3")]
    out = nine_in_play().play(shot([], pos, final=moved, infractions=touched))
    assert (out.layout.get("3").x, out.layout.get("3").y) == pos["3"]
    assert out.ruling.spotted == [{"id": "3", "x": 0.8, "y": 1.8, "article": "WPA 3.21"}]
    ev = [strike(), hit(0.2, "4"), rail(0.5, "cue")]  # the stroke sends the 4 into its place
    out = nine_in_play().play(shot(ev, pos, final=dict(moved, **{"4": pos["3"]}),
                                   infractions=touched))
    assert (out.layout.get("3").x, out.layout.get("3").y) == moved["3"]
    assert any("place of ball 3 is taken" in n for n in out.ruling.notes)
    ev = [strike(), hit(0.2, "1"), hit(0.4, "1", "3")]  # the stroke moved the 3 too
    out = nine_in_play().play(shot(ev, pos, final=dict(moved, **{"1": (0.5, 1.6)}),
                                   infractions=touched))
    assert (out.layout.get("3").x, out.layout.get("3").y) == moved["3"]
    assert any("moved by the stroke as well" in n for n in out.ruling.notes)


def test_3_21_a_touched_ball_was_on_the_table():
    """3.21: the ball an infraction names as touched was on the table before the shot."""
    before = layout(spread([b for b in NINE if b != "9"]))
    with pytest.raises(ValueError, match="touched_ball names ball '9', which is not on the "
                                         "table before the shot"):
        nine_in_play().play(PoolShot([], before, before,
                                     infractions=[foul("touched_ball", "9")]))


def test_3_21_a_ball_touched_by_hand_may_lie_elsewhere_after_the_shot():
    """3.21: a ball moved by hand has no event of its own; the layout after the shot may show
    it where the hand left it when the declared infraction names it (was: refused as a ball
    that moved with nothing touching it). Not named, it is still refused."""
    before = layout(spread(NINE))
    pushed = spread(NINE)
    pushed["7"] = (pushed["7"][0] + 0.05, pushed["7"][1])
    after = layout(pushed)
    events = [strike(), hit(0.2, "1"), rail(0.4, "1")]
    out = nine_in_play().play(PoolShot(events, before, after,
                                       infractions=[foul("touched_ball", "7")]))
    assert articles(out) == ["WPA 3.21"]
    assert (out.layout.get("7").x, out.layout.get("7").y) == spread(NINE)["7"]  # put back
    with pytest.raises(ValueError, match=r"shot\.final moves \['7'\], which no event touches "
                                         "and no declared infraction moves by hand"):
        nine_in_play().play(PoolShot(events, before, after))


def test_3_4_3_33_3_38_a_declaration_names_balls_on_the_table():
    """A called ball (3.4: an object ball, on the table before the shot), balls announced
    frozen to a cushion (3.38: on the table before it) and a ball jammed in a pocket's jaws
    (3.33: on the table before and after it): a ball not there cannot have been called, frozen
    or jammed (a jammed 9 off the table would be ruled pocketed and win the game, 5.14); each is
    refused, naming the field and the ball."""
    from cuesim.rules.pool.model import Declaration

    before = layout(spread([b for b in NINE if b != "9"]))
    events = [strike(), hit(0.2, "1"), rail(0.4, "1")]
    for decl, message in [
            (Declaration(frozen={"9": "foot_rail"}),
             "declaration.frozen names ball '9', which is not on the table before the shot"),
            (Declaration(jammed={"9": "foot_left"}), "declaration.jammed names ball '9'"),
            (Declaration(called_ball="9", called_pocket="foot_left"),
             "declaration.called_ball names ball '9'"),
            (Declaration(called_ball="cue", called_pocket="foot_left"),
             "names the cue ball; a call names an object ball")]:
        g = nine_in_play()
        with pytest.raises(ValueError, match=message):
            g.play(PoolShot(events, before, before, declaration=decl))
        assert g.state.phase == "play" and g.state.shooter == "Ann"
    with pytest.raises(ValueError, match="declaration.jammed names ball '2', which is not on "
                                         "the table after the shot"):
        nine_in_play().play(PoolShot(events, before, before.without(["2"]),
                                     declaration=Declaration(jammed={"2": "foot_left"})))


def test_unknown_infraction_code_is_named():
    with pytest.raises(ValueError, match="unknown infraction code 'sneeze'"):
        nine_in_play().play(shot([strike()], spread(NINE), infractions=[foul("sneeze")]))


# --- 3.29 and 3.9: warning once, then loss of the match ------------------------------------
def test_3_29_intentional_foul_warning_then_match_loss():
    g = nine_in_play()
    ev = [strike(), hit(0.2, "1"), rail(0.4, "1")]
    out = g.play(shot(ev, spread(NINE), infractions=[foul("intentional_foul")]))
    assert not out.ruling.match_over
    assert any("3.29" in n for n in out.ruling.notes)
    out = g.play(shot(ev, spread(NINE), infractions=[foul("intentional_foul", player="Bob")],
                      ))
    # Bob's first one: a warning only
    assert not out.ruling.match_over
    g.state.shooter = "Ann"
    out = g.play(shot(ev, spread(NINE), infractions=[foul("intentional_foul")]))
    assert out.ruling.match_over and out.ruling.winner == "Bob"


def test_3_29_a_match_lost_in_a_race_saves_a_state_that_loads() -> None:
    """3.29 ends a race to 3 in its first frame: the frames won stay those played (the frame
    ends unfinished with the match; they were set to race_to, 3 frames won in frame 1, which
    `PoolState.from_dict` refused), and the saved state loads again, the match over."""
    g = nine_in_play(race_to=3)
    ev = [strike(), hit(0.2, "1"), rail(0.4, "1")]
    g.play(shot(ev, spread(NINE), infractions=[foul("intentional_foul")]))
    g.state.shooter = "Ann"
    out = g.play(shot(ev, spread(NINE), infractions=[foul("intentional_foul")]))
    assert out.ruling.match_over and out.ruling.winner == "Bob"
    assert out.state.frames_won == {"Ann": 0, "Bob": 0} and out.state.frame == 1
    back = PoolState.from_dict(json.loads(json.dumps(out.state.to_dict())))
    assert back.phase == "match_over" and back.winner == "Bob"


# --- 3.30: one foul per shot ---------------------------------------------------------------
def test_3_30_several_fouls_count_once():
    g = nine_in_play()
    ev = [strike(), hit(0.2, "2"), pocket(0.5, "cue")]
    out = g.play(shot(ev, spread(NINE), infractions=[foul("double_hit")]))
    assert len(out.ruling.violations) >= 3
    assert out.state.fouls["Ann"] == 1


# --- 2.10: simultaneous hit goes to the shooter --------------------------------------------
def test_2_10_simultaneous_contact_favours_the_shooter():
    ev = [strike(), hit(0.2, "2"), hit(0.2 + 1e-9, "1"), rail(0.4, "1")]
    out = nine_in_play().play(shot(ev, spread(NINE)))
    assert out.ruling.legal


# --- 3.33 jammed balls -------------------------------------------------------------------
def in_the_jaws(pocket_name: str, size: str = "9ft") -> tuple[tuple[float, float], ...]:
    """Two balls side by side just past the mouth line of a pocket, clear of its jaws."""
    from cuesim.tables import pool_table

    p = pool_table(size).pocket(pocket_name)
    mx, my = (p.lip_a[0] + p.lip_b[0]) / 2, (p.lip_a[1] + p.lip_b[1]) / 2
    ax, ay = p.axis
    side = BALL_DIAMETER / 2 + 1e-4
    return tuple((mx - ay * s * side + ax * 0.001, my + ax * s * side + ay * 0.001)
                 for s in (1, -1))


def jam_shot(jammed: dict, where: tuple | None = None) -> PoolShot:
    """1 and 2 end in the foot left pocket's jaws (or at `where`) after the cue ball hits 1."""
    pos = spread(NINE)
    final = dict(pos)
    final["1"], final["2"] = where or in_the_jaws("foot_left")
    ev = [strike(), hit(0.2, "1"), hit(0.3, "2", "1"), rail(0.4, "1", "left_foot_rail")]
    return shot(ev, pos, final=final, jammed=jammed)


def test_3_33_jammed_ball_judged_pocketed_counts():
    g = nine_in_play()
    out = g.play(jam_shot({"1": "foot_left"}))
    assert out.ruling.legal and not out.ruling.turn_passes
    assert "1" not in out.layout.ids() and "2" in out.layout.ids()


def test_3_33_jammed_ball_must_be_in_the_jaws_of_that_pocket():
    """3.33 is about balls jammed in a pocket's jaws: a ball elsewhere, or in another pocket's
    jaws, cannot be judged pocketed there."""
    with pytest.raises(ValueError, match="not in the jaws of pocket 'foot_right'"):
        nine_in_play().play(jam_shot({"1": "foot_right"}))
    with pytest.raises(ValueError, match="not in the jaws of pocket 'foot_left'"):
        nine_in_play().play(jam_shot({"1": "foot_left"}, where=((0.3, 2.0), (0.4, 2.0))))


def test_3_33_needs_two_or_more_balls_jammed():
    """3.33: 'two or more balls jammed in the pocket's jaws'; a lone ball on the lip is not
    pocketed by the referee's judgement."""
    (x1, y1), _ = in_the_jaws("foot_left")
    with pytest.raises(ValueError, match="only ball in the jaws"):
        nine_in_play().play(jam_shot({"1": "foot_left"}, where=((x1, y1), (0.4, 2.0))))


def test_3_33_jammed_in_a_side_pocket_of_an_8ft_table():
    from cuesim.tables.layout import Layout, Piece

    a, b = in_the_jaws("side_right", "8ft")
    before = Layout("pool_8ft", (Piece("cue", "ball", 0.6, 0.4), Piece("1", "ball", 0.9, 1.1),
                                 Piece("2", "ball", 0.9, 1.2), Piece("9", "ball", 0.3, 1.5)))
    after = Layout("pool_8ft", (Piece("cue", "ball", 0.6, 0.9), Piece("1", "ball", *a),
                                Piece("2", "ball", *b), Piece("9", "ball", 0.3, 1.5)))
    ev = [strike(), hit(0.2, "1"), hit(0.3, "2", "1"), rail(0.5, "1", "right_foot_rail")]
    out = nine_in_play().play(PoolShot(ev, before, after, Declaration(jammed={"1": "side_right"})))
    assert out.ruling.legal and "1" not in out.layout.ids()


@pytest.mark.parametrize("where,match", [
    ({"1": (0.15, 0.9), "2": (0.16, 0.9)}, "overlap"),
    ({"1": (-0.2, 0.9)}, "not wholly"),
])
def test_3_28_hand_written_layouts_must_be_legal_on_the_table(where, match):
    """A layout with overlapping balls or a ball off the bed cannot have happened: the
    referee refuses it (as the scenario loader does), before and after the shot."""
    ev = [strike(), hit(0.2, "1")]
    bad = {**spread(NINE), **where}
    with pytest.raises(ValueError, match=match):
        nine_in_play().play(shot(ev, bad))
    with pytest.raises(ValueError, match=f"final.*{match}|{match}"):
        nine_in_play().play(shot(ev, spread(NINE), final=bad))


def test_layouts_for_another_table_are_refused():
    from cuesim.tables.layout import Layout, Piece

    carom = Layout("carom", (Piece("cue", "ball", 0.5, 0.5), Piece("1", "ball", 0.7, 0.5)))
    with pytest.raises(ValueError, match="pool is played on"):
        nine_in_play().play(PoolShot([strike(), hit(0.2, "1")], carom, carom))


# --- 3.36 breaks in successive games -----------------------------------------------------
@pytest.mark.parametrize("order,won,expected", [
    ("winner", {"Ann": 1, "Bob": 0}, "Ann"),
    ("loser", {"Ann": 1, "Bob": 0}, "Bob"),
    ("alternate", {"Ann": 1, "Bob": 0}, "Bob"),
    ("trailing", {"Ann": 2, "Bob": 3}, "Ann"),
])
def test_3_36_break_order(order, won, expected):
    g = NineBall(players=("Ann", "Bob"), break_order=order, race_to=5)
    g.state.frames_won = dict(won)
    assert next_breaker(g.state, "Ann") == expected


# --- 3.41 a foul by the non-shooting player -----------------------------------------------
def test_3_41_interference_by_the_non_shooter():
    g = nine_in_play()
    out = g.play(shot([], spread(NINE), infractions=[foul("interference", player="Bob")]))
    assert articles(out) == ["WPA 3.41"]
    assert out.state.shooter == "Ann" and out.state.ball_in_hand == "table"
    g = StraightPool(players=("Ann", "Bob"))
    g.state.phase = "play"
    out = g.play(shot([], spread(["1", "2"]), infractions=[foul("interference", player="Bob")]))
    assert out.state.scores == {"Ann": 0, "Bob": -1}


# --- 3.17: a foul between shots (declared, no stroke) -------------------------------------
GAMES_IN_PLAY = [(NineBall, NINE), (EightBall, [str(n) for n in range(1, 16)]),
                 (StraightPool, [str(n) for n in range(1, 16)])]


@pytest.mark.parametrize(("game", "ids"), GAMES_IN_PLAY)
def test_3_17_a_foul_between_shots_is_only_the_declared_infraction(game, ids):
    """3.17 (a) and 1.11: the shooter's foul with no stroke (an empty event log) ends the
    inning with the game's penalty, and is only what was declared: no stroke was played, so
    no 3.18 'no contact' (nor 3.19's rail) is added to it."""
    g = game(players=("Ann", "Bob"))
    g.state.phase, g.state.ball_in_hand = "play", None
    out = g.play(shot([], spread(ids), infractions=[foul("slow_play")]))
    assert articles(out) == ["WPA 1.11"]
    assert not out.ruling.legal and out.ruling.turn_passes and out.state.shooter == "Bob"
    if game is StraightPool:  # 6.11: a point, the cue ball taken where it lies
        assert out.state.scores == {"Ann": -1, "Bob": 0} and out.state.ball_in_hand is None
        assert out.state.fouls["Ann"] == 1  # 6.12 counts it
    else:  # 4.14, 5.7: ball in hand anywhere
        assert out.state.ball_in_hand == "table"
    if game is NineBall:  # 5.13: "... or if he commits a foul between shots"
        assert out.state.fouls["Ann"] == 1


def test_6_11_a_foul_between_shots_with_the_cue_ball_in_hand_leaves_it_in_hand():
    """6.11: the incoming player takes the cue ball where it lies; in hand and never placed
    (a foul between shots after the opponent's scratch) it lies nowhere, so he has it in hand
    behind the head string (6.10)."""
    g = StraightPool(players=("Ann", "Bob"))
    g.state.phase, g.state.ball_in_hand = "play", "kitchen"
    out = g.play(shot([], spread(["1", "2"], cue=None), infractions=[foul("slow_play")]))
    assert out.state.ball_in_hand == "kitchen" and out.ruling.placement == "kitchen"
    assert out.state.shooter == "Bob" and out.state.scores["Ann"] == -1


def test_5_13_fouls_between_shots_count_toward_three():
    g = nine_in_play()
    for _ in range(2):
        g.state.shooter = "Ann"
        out = g.play(shot([], spread(NINE), infractions=[foul("touched_ball")]))
    assert out.state.fouls["Ann"] == 2 and out.state.warned["Ann"]  # warned at the second
    g.state.shooter = "Ann"
    out = g.play(shot([], spread(NINE), infractions=[foul("touched_ball")]))
    assert "WPA 5.13" in articles(out) and out.ruling.frame_over and out.ruling.winner == "Bob"


@pytest.mark.parametrize(("game", "ids"), GAMES_IN_PLAY)
def test_5_14_a_foul_before_the_opening_break_passes_the_break(game, ids):
    """5.14: the game begins with the break's stroke. A foul declared before it is not an
    illegal break (4.5, 5.4, 6.6 need a stroke): the opponent breaks instead, from behind the
    head string; no consecutive foul is counted; 14.1 takes its point (6.11)."""
    g = game(players=("Ann", "Bob"))
    out = g.play(shot([], spread(ids, cue=None), infractions=[foul("slow_play")]))
    assert articles(out) == ["WPA 1.11"]
    st = out.state
    assert st.phase == "break" and st.shooter == st.breaker == "Bob"
    assert st.ball_in_hand == "kitchen" and st.pending is None
    assert st.fouls == {"Ann": 0, "Bob": 0}
    assert st.scores["Ann"] == (-1 if game is StraightPool else 0)
    assert any("breaks instead" in n for n in out.ruling.notes)


@pytest.mark.parametrize("code", sorted(set(INFRACTIONS) - {"interference"}))
def test_3_17_only_fouls_that_need_no_stroke_are_ruled_between_shots(code):
    """A double hit (3.23), a push shot (3.24), a shot with balls moving (3.14), the 3.29
    special foul... describe a stroke: declared with no events they are refused, naming the
    code, instead of ruled on a stroke that was not played. The time limit (1.11), a touched
    ball (3.21, 3.22), a dropped object (3.25), a stroke while placing (3.40) and 3.42-3.43
    are ruled (3.22 and 3.40 with ball in hand)."""
    g = nine_in_play(ball_in_hand="table" if code in WITH_BALL_IN_HAND else None,
                     phase="break" if code in ON_THE_BREAK else "play")
    infraction = foul(code, "2") if code == "off_table" else foul(code)
    if code in BETWEEN_SHOTS:
        out = g.play(shot([], spread(NINE), infractions=[infraction]))
        assert articles(out) == [INFRACTIONS[code][0]] and out.state.shooter == "Bob"
    else:
        with pytest.raises(ValueError, match=f"infraction '{code}' .* happens in a stroke"):
            g.play(shot([], spread(NINE), infractions=[infraction]))
        assert g.state.shooter == "Ann"  # nothing ruled


# --- 8-ball does not count consecutive fouls (4.21 note) -----------------------------------
def test_4_21_note_three_fouls_do_not_lose_in_eight_ball():
    g = EightBall(players=("Ann", "Bob"))
    g.state.phase, g.state.ball_in_hand = "play", None
    ids = [str(n) for n in range(1, 16)]
    for _ in range(3):
        g.state.shooter = "Ann"
        out = g.play(shot([strike(), rail(0.5, "cue")], spread(ids)))
    assert not out.ruling.frame_over


def test_foot_spot_constant_used_for_spotting_layouts():
    g = nine_in_play()
    out = g.play(shot([strike(), hit(0.2, "1"), hit(0.4, "9", "1"), pocket(0.6, "9"),
                       pocket(0.7, "cue")],
                      spread(NINE)))
    assert out.layout.get("9").y == pytest.approx(FOOT_SPOT[1])


@pytest.mark.parametrize("game,change,message", [
    ("nine_ball", {"frames_won": {"Ann": 3, "Bob": 0}, "race_to": 3, "frame": 4},
     "state.frames_won: Ann has 3 of race_to 3, so the match is over"),
    ("nine_ball", {"frames_won": {"Ann": 2, "Bob": 1}, "race_to": 5, "frame": 3},
     r"state.frame 3 with 3 frames won .* so the frame is 4"),
    ("nine_ball", {"frame": 3}, r"state.frame 3 with 0 frames won .* so the frame is 1"),
    ("nine_ball", {"fouls": {"Ann": 3}}, "state.fouls: Ann on 3 consecutive fouls"),
    ("straight_pool", {"scores": {"Ann": 150, "Bob": 0}},
     "state.scores: Ann has 150 of points_to 150"),
    ("nine_ball", {"phase": "bogus"}, "state.phase must be one of"),
    ("eight_ball", {"groups": {"Ann": "solids", "Bob": "solids"}}, "state.groups must be"),
    ("eight_ball", {"groups": {"Ann": "reds", "Bob": "stripes"}}, "state.groups must be"),
    ("eight_ball", {"groups": {"Ann": "solids"}}, "state.groups must be"),
    ("nine_ball", {"winner": "Bob"}, "state.winner is 'Bob' but the match is on"),
    ("nine_ball", {"phase": "match_over"}, "state.winner must name the player"),
    ("nine_ball", {"fouls": {"Ann": -1}}, "state.fouls must give"),
    ("nine_ball", {"frames_won": {"Eve": 1}}, "state.frames_won must give"),
    ("straight_pool", {"ball_in_hand": "table"}, "in 14.1 the cue ball in hand is always"),
    ("nine_ball", {"scores": {"Ann": 5, "Bob": 0}}, "only 14.1 scores points"),
    ("eight_ball", {"phase": "break", "groups": {"Ann": "solids", "Bob": "stripes"}},
     "before the opening break: the table is open"),
])
def test_a_resumed_state_is_one_a_match_can_reach(game, change, message):
    """A resumed state past the race (race_to frames), a frame number other than the one
    that follows the frames won (3.36: every frame has a winner),
    past 14.1's points_to (6.1), on a third
    foul that was never ruled (5.13, 6.12), with an unknown phase, groups that are not one each
    of solids and stripes (4.10), or a winner while the match is on cannot have happened: it
    is refused, naming the field, by `PoolState.from_dict` and by a referee given it."""
    data = {"game": game, "players": ["Ann", "Bob"], "shooter": "Ann", "breaker": "Ann",
            "phase": "play", "ball_in_hand": None, **change}
    with pytest.raises(ValueError, match=message):
        PoolState.from_dict(data)
    referee = {"nine_ball": NineBall, "eight_ball": EightBall, "straight_pool": StraightPool}
    with pytest.raises(ValueError, match=message):
        referee[game](state=PoolState(**data))
    over_is_fine = (set(change) & {"frames_won", "scores"} and "Eve" not in str(change)
                    and not (game != "straight_pool" and "scores" in change))
    if over_is_fine:  # the same numbers with the match over can be
        PoolState.from_dict({**data, "phase": "match_over", "winner": "Ann"})


@pytest.mark.parametrize("game", [NineBall, EightBall])
def test_3_8_a_foul_of_the_other_player_before_the_break_keeps_the_kitchen(game):
    """3.8, 4.14, 5.2: the opening break is played with the cue ball in hand behind the head
    string. A foul of the non-shooting player (3.41) before it does not give the breaker the
    whole table: he still breaks from the kitchen."""
    g = game(players=("Ann", "Bob"))
    out = g.play(shot([], {}, infractions=[foul("interference", player="Bob")]))
    assert "WPA 3.41" in articles(out)
    assert g.state.phase == "break" and g.state.shooter == "Ann"
    assert g.state.ball_in_hand == "kitchen" and out.ruling.placement == "kitchen"


def test_6_10_a_foul_between_shots_with_the_cue_ball_in_hand_passes_it_in_hand():
    """14.1 (6.10, 6.11): a foul between shots by a player who had the cue ball in hand behind
    the head string, with no layout given, leaves the cue ball off the table: the incoming
    player has it in hand behind the head string, not a cue ball "where it lies"."""
    g = StraightPool(players=("Ann", "Bob"))
    g.state.phase, g.state.ball_in_hand, g.state.shooter = "play", "kitchen", "Bob"
    out = g.play(PoolShot([], None, None, Declaration(), [foul("slow_play")]))
    assert out.ruling.points == {"Bob": -1} and g.state.shooter == "Ann"
    assert g.state.ball_in_hand == "kitchen" and out.ruling.placement == "kitchen"


def test_3_28_a_ball_pocketed_is_not_also_off_the_table():
    """3.28: a ball leaves the table one way: a pocket event and off_table for the same ball
    cannot both have happened (it was cited under 3.28 and 5.11 as well as pocketed)."""
    g = nine_in_play()
    with pytest.raises(ValueError, match="off_table names ball '1', which a pocket event puts"):
        g.play(shot([strike(), hit(0.2, "1"), pocket(0.5, "1", "foot_left")], spread(NINE),
                    infractions=[foul("off_table", "1")]))


@pytest.mark.parametrize("game", [EightBall, StraightPool])
def test_5_6_a_push_out_is_refused_outside_9_ball(game):
    """5.6: the push-out is a 9-ball rule; declared in 8-ball or 14.1 it was silently ignored
    and the shot ruled as an ordinary one."""
    g = game(players=("Ann", "Bob"))
    g.state.phase, g.state.ball_in_hand = "play", None
    ev = [strike(), hit(0.2, "1"), rail(0.4, "1")]
    with pytest.raises(ValueError, match="push-out is 9-ball's"):
        g.play(shot(ev, spread([str(n) for n in range(1, 16)]), push_out=True))


@pytest.mark.parametrize("make, pos, message", [
    (nine_in_play, {"cue": MID, "1": ASIDE}, "no 9: the 9-ball game is over once the 9 is down"),
    (lambda: _in_play(EightBall), {"cue": MID, "1": ASIDE}, "no 8: the 8-ball game is over"),
    (lambda: _in_play(StraightPool), {"cue": MID}, "no object ball"),
    (nine_in_play, {"cue": MID}, "no object ball"),
])
def test_4_1_5_3_a_shot_on_a_table_where_no_game_goes_on_is_refused(make, pos, message):
    """4.1 / 5.3: the game ends when the 8 / the 9 is down (a 9 pocketed on a foul is spotted,
    5.7), and no game goes on with the cue ball alone: a shot from such a table cannot have
    happened, so the referee refuses it instead of ruling (a 'lowest ball' of none)."""
    g = make()
    before = g.state.copy()
    with pytest.raises(ValueError, match=message):
        g.play(shot([strike(), rail(0.5, "cue")], pos))
    assert g.state == before


def _in_play(cls):
    g = cls(players=("Ann", "Bob"))
    g.state.phase, g.state.ball_in_hand = "play", None
    return g
