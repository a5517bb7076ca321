"""WPA articles the pool referee cites and no other test names, one by one on hand-written
event logs: 1.16.2 and 4.18 (a ball moved by a jump or masse attempt), 1.16.4 (a hit on a legal
and an illegal ball at once), 3.5 (the miss), 3.26 (the scooped jump), 3.37 (innings), 4.12
(the declared safety), 4.13 (continuing on the group), 4.16 (improperly pocketed balls), 4.19
(playing the 8) and 6.7.4 (the 14.1 safety)."""

from __future__ import annotations

import pytest

from cuesim.rules.pool import EightBall, NineBall, Outcome, PoolGame, PoolState, StraightPool
from cuesim.tables.layout import Layout
from cuesim.tables.pool_spots import FOOT_SPOT, SIMULTANEOUS_S
from tests.pool_util import (
    MID,
    articles,
    foul,
    hit,
    pocket,
    rail,
    shot,
    spread,
    strike,
)

ALL = [str(n) for n in range(1, 16)]
NINE = [str(n) for n in range(1, 10)]
STRIPES = [str(n) for n in range(9, 16)]
ON_EIGHT = ["8", *STRIPES]  # Ann (solids) has pocketed her group: she is on the 8
ANN_SOLIDS = {"Ann": "solids", "Bob": "stripes"}
# cue ball -> 3 -> a cushion: a legal miss for a player on the solids
MISS_3 = [strike(), hit(0.2, "3"), rail(0.4, "3")]


def in_play(game: type[PoolGame], groups: dict[str, str] | None = None,
            **state: object) -> PoolGame:
    """A game of `game` between Ann and Bob after its break: Ann to shoot, no ball in hand."""
    g = game(players=("Ann", "Bob"))
    g.state.phase, g.state.ball_in_hand, g.state.shooter = "play", None, "Ann"
    if groups:
        g.state.groups = dict(groups)
    for key, value in state.items():
        setattr(g.state, key, value)
    return g


def where(layout: Layout, cue: tuple[float, float] | None = None
          ) -> dict[str, tuple[float, float]]:
    """The positions of a layout (the next shot's initial table), the cue ball placed at `cue`
    when it is in hand."""
    out = {p.id: (p.x, p.y) for p in layout.pieces}
    if cue is not None:
        out["cue"] = cue
    return out


def noted(out: Outcome, article: str) -> bool:
    return any(article in n for n in out.ruling.notes)


def check_ball_in_hand(state: PoolState, out: Outcome, player: str,
                       place: str | None) -> None:
    """Who plays next and from where, in the state and in the ruling."""
    assert state.shooter == player and out.ruling.next_player == player
    assert state.ball_in_hand == place and out.ruling.placement == place


# --- 1.16.2 / 4.18: a ball moved by a jump, curve or masse attempt -------------------------
def test_1_16_2_jump_or_masse_moving_the_impeding_ball_is_a_foul_in_14_1():
    """WPA 1.16.2: a ball being jumped or curved around that moves is a foul (14.1 has no
    article of its own, so the general one is cited): one point (6.11), the turn passes and
    the incoming player takes the cue ball where it lies."""
    g = in_play(StraightPool)
    out = g.play(shot(MISS_3, spread(ALL), infractions=[foul("jump_masse_moved_ball", "5")]))
    assert articles(out) == ["WPA 1.16.2"] and not out.ruling.legal
    assert out.ruling.points == {"Ann": -1} and g.state.scores["Ann"] == -1
    assert g.state.fouls["Ann"] == 1
    check_ball_in_hand(g.state, out, "Bob", None)
    assert out.layout.get("cue").y == pytest.approx(MID[1])


def test_1_16_2_is_a_foul_of_the_stroke_not_between_shots():
    """WPA 1.16.2 speaks of an attempt to jump or curve the cue ball: declared with no stroke
    it is refused, and nothing is booked."""
    g = in_play(StraightPool)
    with pytest.raises(ValueError, match=r"jump_masse_moved_ball.*WPA 1\.16\.2.*in a stroke"):
        g.play(shot([], spread(ALL), infractions=[foul("jump_masse_moved_ball", "5")]))
    assert g.state.shooter == "Ann" and g.state.scores["Ann"] == 0


@pytest.mark.parametrize("game,article", [(EightBall, "WPA 4.18"), (NineBall, "WPA 5.12"),
                                          (StraightPool, "WPA 1.16.2")])
def test_1_16_2_4_18_each_game_cites_its_own_jump_and_masse_article(game, article):
    """WPA 4.18 (8-ball) and 5.12 (9-ball) restate 1.16.2 for their game: each referee cites its
    own article for the same declared foul."""
    ids = NINE if game is NineBall else ALL
    ev = [strike(), hit(0.2, "1"), rail(0.4, "1")]
    out = in_play(game).play(shot(ev, spread(ids),
                                  infractions=[foul("jump_masse_moved_ball", "2")]))
    assert articles(out) == [article]


def test_4_18_jump_or_masse_moving_a_numbered_ball_gives_ball_in_hand():
    """WPA 4.18: a numbered ball the cue ball is curved or jumped around moves: a cue-ball foul;
    the incoming player has ball in hand anywhere (4.14). On the 8 (4.19) with the 8 still up
    the foul does not lose the game."""
    g = in_play(EightBall, ANN_SOLIDS)
    ev = [strike(), hit(0.2, "8"), rail(0.4, "8")]
    out = g.play(shot(ev, spread(ON_EIGHT), infractions=[foul("jump_masse_moved_ball", "12")]))
    assert articles(out) == ["WPA 4.18"] and not out.ruling.legal
    assert not out.ruling.frame_over and g.state.phase == "play"
    check_ball_in_hand(g.state, out, "Bob", "table")
    assert "cue" not in out.layout.ids()


# --- 1.16.4: a legal and an illegal ball hit at once -----------------------------------------
def test_1_16_4_simultaneous_hit_on_a_legal_and_an_illegal_ball_favours_the_shooter():
    """WPA 1.16.4 (2.10): the cue ball hits a ball of the shooter's group and one of the
    opponent's at (about) the same instant: the shot is ruled for the shooter, a legal hit.
    A hit clearly first on the opponent's ball is a foul (4.11)."""
    both = [strike(), hit(0.2, "12"), hit(0.2, "3"), rail(0.4, "3")]
    out = in_play(EightBall, ANN_SOLIDS).play(shot(both, spread(ALL)))
    assert out.ruling.legal and articles(out) == []
    assert out.ruling.turn_passes and out.state.ball_in_hand is None  # a legal miss
    later = [strike(), hit(0.2, "12"), hit(0.2 + 1000 * SIMULTANEOUS_S, "3"), rail(0.4, "3")]
    out = in_play(EightBall, ANN_SOLIDS).play(shot(later, spread(ALL)))
    assert articles(out) == ["WPA 4.11"]


def test_1_16_4_simultaneous_hit_on_the_lowest_ball_in_9_ball_pockets_and_continues():
    """WPA 1.16.4: in 9-ball the 1 and the 2 hit at the same instant: the hit counts as on the
    1, the 2 it pockets is legal and the shooter continues."""
    ev = [strike(), hit(0.2, "2"), hit(0.2, "1"), pocket(0.5, "2", "foot_left"),
          rail(0.6, "1")]
    g = in_play(NineBall)
    out = g.play(shot(ev, spread(NINE)))
    assert out.ruling.legal and not out.ruling.turn_passes and g.state.shooter == "Ann"


# --- 3.26: the scooped jump --------------------------------------------------------------------
def test_3_26_scooped_jump_is_a_foul_balls_stay_down_ball_in_hand():
    """WPA 3.26: scooping under the cue ball to jump an obstructing ball is a foul; in 8-ball
    the ball it pocketed stays down (4.16) and the incoming player has ball in hand (4.14)."""
    ev = [strike(), hit(0.2, "3"), pocket(0.5, "3", "foot_left")]
    g = in_play(EightBall, ANN_SOLIDS)
    out = g.play(shot(ev, spread(ALL), infractions=[foul("illegal_jump")]))
    assert articles(out) == ["WPA 3.26"] and not out.ruling.legal
    check_ball_in_hand(g.state, out, "Bob", "table")
    assert "3" not in out.layout.ids()


def test_3_26_a_jump_not_judged_a_scoop_is_no_foul_by_itself():
    """WPA 3.26: an accidental jump is not a foul by itself: the same shot with no declared
    infraction is legal, and the shooter continues after pocketing his ball."""
    ev = [strike(), hit(0.2, "3"), pocket(0.5, "3", "foot_left")]
    out = in_play(EightBall, ANN_SOLIDS).play(shot(ev, spread(ALL)))
    assert out.ruling.legal and not out.ruling.turn_passes


def test_3_26_in_14_1_costs_a_point():
    """WPA 3.26 in 14.1: a foul, one point (6.11), the turn passes."""
    g = in_play(StraightPool)
    out = g.play(shot(MISS_3, spread(ALL), infractions=[foul("illegal_jump")]))
    assert articles(out) == ["WPA 3.26"] and out.ruling.points == {"Ann": -1}
    assert g.state.shooter == "Bob"


# --- 3.37: innings ------------------------------------------------------------------------------
def test_3_37_inning_goes_on_with_each_pocket_and_ends_on_a_miss_or_a_foul():
    """WPA 3.37: players alternate innings; an inning ends when the player fails to pocket a ball
    legally or fouls; after a legal end the incoming player takes the table as it is (cue ball
    where it stopped), after a foul what the game's foul gives (9-ball: ball in hand, 5.7)."""
    g = in_play(NineBall)
    start = g.state.inning
    out = g.play(shot([strike(), hit(0.2, "1"), pocket(0.5, "1", "foot_left")], spread(NINE)))
    assert out.ruling.legal and not out.ruling.turn_passes
    assert g.state.shooter == "Ann" and g.state.inning == start  # the inning goes on

    before = where(out.layout)
    after = {**before, "cue": (0.9, 1.6)}
    out = g.play(shot([strike(), hit(0.2, "2"), rail(0.4, "2")], before, final=after))
    assert out.ruling.legal and out.ruling.turn_passes and articles(out) == []
    assert noted(out, "no ball pocketed: the inning ends (WPA 3.5)")  # the miss, cited
    assert g.state.inning == start + 1
    check_ball_in_hand(g.state, out, "Bob", None)  # no foul: the table as it lies
    assert (out.layout.get("cue").x, out.layout.get("cue").y) == pytest.approx((0.9, 1.6))

    out = g.play(shot([strike(), hit(0.2, "3"), rail(0.4, "3")], where(out.layout)))
    assert articles(out) == ["WPA 5.8"] and out.ruling.turn_passes
    assert g.state.inning == start + 2
    check_ball_in_hand(g.state, out, "Ann", "table")


@pytest.mark.parametrize("game", [EightBall, NineBall, StraightPool])
def test_3_5_a_legal_miss_ends_the_inning_and_is_cited(game):
    """WPA 3.5: a legal shot that pockets no ball ends the inning and the opponent plays: the
    ruling cites it (it said only "A legal shot. Bob plays next."). A legal shot that pockets
    a ball and goes on cites nothing of it, and a foul cites its own article instead."""
    g = in_play(game, ANN_SOLIDS if game is EightBall else None)
    if game is NineBall:  # the 1 is the lowest: the 3 first is a foul (5.8), not a miss
        out = in_play(NineBall).play(shot(MISS_3, spread(NINE)))
        assert articles(out) == ["WPA 5.8"] and not noted(out, "WPA 3.5")
        miss = [strike(), hit(0.2, "1"), rail(0.4, "1")]
        out = g.play(shot(miss, spread(NINE)))
    else:
        out = g.play(shot(MISS_3, spread(ALL)))
    assert out.ruling.legal and out.ruling.turn_passes and g.state.shooter == "Bob"
    assert noted(out, "no ball pocketed: the inning ends (WPA 3.5)")
    assert "No ball pocketed: the inning ends (WPA 3.5)." in out.ruling.describe()


# --- 4.12: the declared safety in 8-ball -------------------------------------------------------
def test_4_12_declared_safety_pocketing_an_obvious_ball_ends_the_inning():
    """WPA 4.12: a player who declares a safety may pocket an obvious ball and end his inning;
    the safety is a legal shot and the ball stays down. Undeclared, the same shot pockets his
    ball and he must shoot again."""
    ev = [strike(), hit(0.2, "3"), pocket(0.5, "3", "foot_left")]
    g = in_play(EightBall, ANN_SOLIDS)
    out = g.play(shot(ev, spread(ALL), safety=True))
    assert out.ruling.legal and articles(out) == [] and noted(out, "WPA 4.12")
    assert out.ruling.turn_passes
    check_ball_in_hand(g.state, out, "Bob", None)
    assert "3" not in out.layout.ids()
    out = in_play(EightBall, ANN_SOLIDS).play(shot(ev, spread(ALL)))
    assert out.ruling.legal and not out.ruling.turn_passes
    assert out.state.shooter == "Ann"


def test_4_12_safety_on_the_open_table_chooses_no_group():
    """WPA 4.12 with 4.10 and 4.16 (3): a ball pocketed on a declared safety is improperly
    pocketed, so it does not choose a group: the table stays open."""
    ev = [strike(), hit(0.2, "3"), pocket(0.5, "3", "foot_left")]
    out = in_play(EightBall).play(shot(ev, spread(ALL), called_ball="3",
                                       called_pocket="foot_left", safety=True))
    assert out.ruling.legal and out.ruling.turn_passes
    assert out.state.groups == {} and "3" not in out.layout.ids()


def test_4_12_a_safety_must_still_be_a_legal_shot():
    """WPA 4.12 calls the safety a legal shot: one that hits the opponent's ball first is a
    foul all the same (4.11), with ball in hand for the incoming player (4.14)."""
    g = in_play(EightBall, ANN_SOLIDS)
    out = g.play(shot([strike(), hit(0.2, "12"), rail(0.4, "12")], spread(ALL), safety=True))
    assert articles(out) == ["WPA 4.11"] and not noted(out, "WPA 4.12")
    check_ball_in_hand(g.state, out, "Bob", "table")


# --- 4.13: continuing on the group, then the 8 -------------------------------------------------
def test_4_13_shooter_continues_while_legally_pocketing_his_group():
    """WPA 4.13: a player continues as long as he legally pockets balls of his group; a ball
    of the opponent's group dropped by his shot does not keep him at the table."""
    g = in_play(EightBall, ANN_SOLIDS)
    start = g.state.inning
    out = g.play(shot([strike(), hit(0.2, "3"), pocket(0.5, "3", "side_left")], spread(ALL)))
    assert out.ruling.legal and noted(out, "WPA 4.13")
    assert not out.ruling.turn_passes and g.state.shooter == "Ann" and g.state.inning == start
    ev = [strike(), hit(0.2, "4"), hit(0.3, "12", "4"), pocket(0.6, "12", "foot_left")]
    out = g.play(shot(ev, where(out.layout)))
    assert out.ruling.legal and not noted(out, "WPA 4.13")
    assert out.ruling.turn_passes and g.state.shooter == "Bob" and g.state.inning == start + 1


def test_4_13_after_pocketing_his_group_the_shooter_plays_the_eight():
    """WPA 4.13: once his whole group is legally pocketed the player shoots to pocket the 8:
    the 8 is then his legal first ball, and a stripe first is a foul (4.19)."""
    g = in_play(EightBall, ANN_SOLIDS)
    out = g.play(shot([strike(), hit(0.2, "3"), pocket(0.5, "3", "foot_left")],
                      spread(["3", *ON_EIGHT])))
    assert out.ruling.legal and not out.ruling.turn_passes and noted(out, "WPA 4.13")
    table = where(out.layout)
    out = g.play(shot([strike(), hit(0.2, "8"), rail(0.4, "8")], table))
    assert out.ruling.legal and articles(out) == [] and not out.ruling.frame_over
    g = in_play(EightBall, ANN_SOLIDS)
    out = g.play(shot([strike(), hit(0.2, "12"), rail(0.4, "12")], table))
    assert articles(out) == ["WPA 4.19"]


# --- 4.16: improperly pocketed balls -----------------------------------------------------------
@pytest.mark.parametrize("events,decl,article", [
    # (1) pocketed on a foul: the 12 (Bob's) hit first sends the 3 in
    ([strike(), hit(0.2, "12"), hit(0.3, "3", "12"), pocket(0.6, "3", "foot_left")], {},
     "WPA 4.11"),
    # (2) the called ball in another pocket
    ([strike(), hit(0.2, "3"), pocket(0.5, "3", "foot_right")],
     {"called_ball": "3", "called_pocket": "foot_left"}, None),
    # (3) a safety declared before the shot
    ([strike(), hit(0.2, "3"), pocket(0.5, "3", "foot_left")], {"safety": True}, None),
])
def test_4_16_improperly_pocketed_ball_stays_down_and_the_inning_ends(events, decl, article):
    """WPA 4.16: a ball pocketed on a foul (1), the called ball in another pocket (2), a ball
    pocketed on a declared safety (3) is improperly pocketed: it stays down, counts for its
    group's owner, and does not keep the shooter at the table."""
    g = in_play(EightBall, ANN_SOLIDS)
    out = g.play(shot(events, spread(ALL), **decl))
    assert articles(out) == ([article] if article else [])
    assert out.ruling.turn_passes and g.state.shooter == "Bob"
    assert "3" not in out.layout.ids() and out.spotted == []
    assert g.state.groups == ANN_SOLIDS
    if decl.get("called_ball"):
        assert noted(out, "WPA 4.16")


def test_4_16_improperly_pocketed_ball_counts_for_its_groups_owner():
    """WPA 4.16: Ann fouls and drops Bob's last stripe; it stays down and counts for Bob, who
    with ball in hand is now on the 8: the 8 first is his legal shot, a solid first a foul."""
    g = in_play(EightBall, ANN_SOLIDS)
    ev = [strike(), hit(0.2, "12"), pocket(0.5, "12", "foot_left")]
    out = g.play(shot(ev, spread(["1", "2", "8", "12"])))
    assert articles(out) == ["WPA 4.11"] and "12" not in out.layout.ids()
    check_ball_in_hand(g.state, out, "Bob", "table")
    table = where(out.layout, cue=MID)
    saved = g.state.copy()
    out = g.play(shot([strike(), hit(0.2, "8"), rail(0.4, "8")], table))
    assert out.ruling.legal and articles(out) == []
    g = EightBall(state=saved)
    out = g.play(shot([strike(), hit(0.2, "1"), rail(0.4, "1")], table))
    assert articles(out) == ["WPA 4.19"]


# --- 4.19: playing the 8 -------------------------------------------------------------------
@pytest.mark.parametrize("events,infractions,article", [
    ([strike(), hit(0.2, "12"), rail(0.4, "12")], [], "WPA 4.19"),  # wrong ball first
    ([strike(), hit(0.2, "8"), rail(0.3, "8"), pocket(0.6, "cue", "side_left")], [],
     "WPA 3.20"),  # scratch
    ([strike(), hit(0.2, "8"), rail(0.3, "8")], [("off_table", "cue")], "WPA 3.28"),
    ([strike(), hit(0.2, "8")], [], "WPA 4.11"),  # no cushion after the contact
])
def test_4_19_foul_on_the_eight_is_not_loss_of_game(events, infractions, article):
    """WPA 4.19: with the 8 his legal object ball, a scratch or a foul does not lose the game
    while the 8 is neither pocketed nor off the table; the incoming player has ball in hand."""
    g = in_play(EightBall, ANN_SOLIDS)
    out = g.play(shot(events, spread(ON_EIGHT), infractions=[foul(c, b) for c, b in infractions]))
    assert articles(out) == [article] and not out.ruling.legal
    assert not out.ruling.frame_over and out.ruling.winner is None
    assert g.state.phase == "play" and "8" in out.layout.ids()
    check_ball_in_hand(g.state, out, "Bob", "table")


def test_4_19_eight_by_combination_only_when_it_is_hit_first():
    """WPA 4.19 (note): the 8 can be legally pocketed in a combination only if it is the first
    ball the cue ball touches: the 8 hit first, kissing off the 12 into the called pocket, wins;
    the 12 hit first driving the 8 in is a foul with the 8 down, loss of game (4.20.1)."""
    kiss = [strike(), hit(0.2, "8"), hit(0.3, "12", "8"), pocket(0.6, "8", "foot_left")]
    out = in_play(EightBall, ANN_SOLIDS).play(shot(kiss, spread(ON_EIGHT), called_ball="8",
                                                   called_pocket="foot_left"))
    assert out.ruling.legal and out.ruling.frame_over and out.ruling.winner == "Ann"
    combo = [strike(), hit(0.2, "12"), hit(0.3, "8", "12"), pocket(0.6, "8", "foot_left")]
    out = in_play(EightBall, ANN_SOLIDS).play(shot(combo, spread(ON_EIGHT), called_ball="8",
                                                   called_pocket="foot_left"))
    assert articles(out) == ["WPA 4.19", "WPA 4.20.1"]
    assert out.ruling.frame_over and out.ruling.winner == "Bob"


# --- 6.7.4: the safety in 14.1 ---------------------------------------------------------------
def test_6_7_4_safety_ends_the_inning_pocketed_balls_are_spotted_not_scored():
    """WPA 6.7.4: a declared safety ends the inning; balls pocketed on it do not score (even the
    ball called into its pocket) and are spotted (3.32: on the foot spot); the incoming player
    takes the table as it is. A legal safety clears the shooter's foul count (6.12)."""
    g = in_play(StraightPool, fouls={"Ann": 1, "Bob": 0})
    ev = [strike(), hit(0.2, "4"), pocket(0.5, "4", "side_left")]
    out = g.play(shot(ev, spread(ALL), called_ball="4", called_pocket="side_left",
                      safety=True))
    assert out.ruling.legal and articles(out) == [] and noted(out, "WPA 6.7.4")
    assert out.ruling.points == {} and g.state.scores == {"Ann": 0, "Bob": 0}
    assert out.ruling.turn_passes
    check_ball_in_hand(g.state, out, "Bob", None)
    assert [(s["id"], s["article"]) for s in out.spotted] == [("4", "WPA 6.7.4")]
    four = out.layout.get("4")
    assert (four.x, four.y) == pytest.approx(FOOT_SPOT)
    assert g.state.fouls["Ann"] == 0


def test_6_7_4_a_safety_must_meet_the_rules_of_a_legal_shot():
    """WPA 6.7.4: safeties must follow the rules: one that sends no ball to a cushion after the
    contact is a foul (6.7.2), one point (6.11), and the turn passes."""
    g = in_play(StraightPool)
    out = g.play(shot([strike(), hit(0.2, "4")], spread(ALL), safety=True))
    assert articles(out) == ["WPA 6.7.2"] and not noted(out, "WPA 6.7.4")
    assert out.ruling.points == {"Ann": -1} and g.state.shooter == "Bob"
