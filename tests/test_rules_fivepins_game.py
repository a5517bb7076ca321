"""5-pins articles 2 (game to the points set, winner capped, odd match, alternate shots), 3 (the
lag), 4 (the opening position, alternating openings 4.5) and 9 (leaving or refusing)."""

from __future__ import annotations

import pytest

from cuesim.rules.fivepins import FivePinsGame, adjudicate_lag
from cuesim.rules.ruling import Infraction
from cuesim.tables.carom import SPOTS
from tests.fivepins_util import game_in_play, hit, layout, pin, play, position, rail, strike

OPENING = {"white": [0.4, 0.7], "yellow": list(SPOTS["top_spot"]),
           "red": list(SPOTS["red_spot"])}


# -- 2 the game and the match ----------------------------------------------------------------
def test_2_shots_alternate_even_after_points():
    g = game_in_play()
    out = play(g, strike(), hit(0.3, "white", "yellow"), pin(0.5, "yellow", "pin_top"))
    assert out.ruling.turn_passes and out.ruling.next_player == "B"


def test_2_game_won_at_the_points_set_and_the_total_capped():
    g = game_in_play(points_to=10)
    g.state.scores = {"A": 6, "B": 3}
    out = play(g, strike(), hit(0.3, "white", "yellow"), pin(0.5, "yellow", "pin_centre"))
    assert out.ruling.frame_over and out.ruling.match_over and out.ruling.winner == "A"
    assert g.state.game_scores == [{"A": 10, "B": 3}]
    assert out.ruling.points == {"A": 4}  # the 8 of the centre pin alone, 4 of them counted
    assert "capped at 10 (5-pins 2): 4 of the 8 points count" in " ".join(out.ruling.notes)
    assert g.state.phase == "match_over"
    with pytest.raises(ValueError, match="match is over"):
        play(g, strike("yellow"), hit(0.3, "yellow", "white"))


def test_2_points_from_the_opponent_foul_can_win():
    g = game_in_play(points_to=10)
    g.state.scores = {"A": 3, "B": 9}
    out = play(g, strike(), rail(0.3, "white", "top_rail"))
    assert out.ruling.winner == "B" and g.state.game_scores == [{"A": 3, "B": 10}]
    assert out.ruling.points == {"B": 1}  # the foul's 2 points, 1 of them counted
    # the game is over: no ball in hand (13.2-13.5) is offered for it
    assert g.state.pending is None and g.state.placement is None
    assert not any("13.5" in n or "ball in hand" in n for n in out.ruling.notes)


def test_2_match_of_three_games_and_4_5_openings_alternate():
    g = game_in_play(points_to=4, games=3)
    out = play(g, strike(), hit(0.3, "white", "yellow"), hit(0.5, "white", "red"))
    assert out.ruling.frame_over and not out.ruling.match_over
    assert g.state.game == 2 and g.state.breaker == "B" and g.state.shooter == "B"
    assert out.ruling.placement == "bottom_half"
    assert "yellow" not in out.layout.ids()  # B's ball in hand for the opening
    assert out.layout.get("white").y == SPOTS["top_spot"][1]
    assert g.state.scores == {"A": 0, "B": 0}
    out = play(g, strike("yellow"), hit(0.3, "yellow", "white"), hit(0.5, "yellow", "red"),
               initial=layout(yellow=[0.4, 0.7], white=list(SPOTS["top_spot"]),
                              red=list(SPOTS["red_spot"])))
    assert out.ruling.winner == "B" and g.state.breaker == "A" and g.state.game == 3
    out = play(g, strike(), hit(0.3, "white", "yellow"), hit(0.5, "white", "red"),
               initial=layout(**OPENING))
    assert out.ruling.match_over and out.ruling.winner == "A"
    assert g.state.games_won == {"A": 2, "B": 1}


def test_2_even_number_of_games_is_refused():
    with pytest.raises(ValueError, match="odd"):
        FivePinsGame(games=2)


# -- 4 the opening ---------------------------------------------------------------------------
def test_4_1_opening_layout_and_breaker_in_hand():
    g = FivePinsGame(players=("A", "B"))
    assert g.state.phase == "break" and g.state.placement == "bottom_half"
    ids = {p.id: (p.x, p.y) for p in g.layout.pieces}
    assert ids["yellow"] == SPOTS["top_spot"] and ids["red"] == SPOTS["red_spot"]
    assert "white" not in ids


def test_4_3_break_must_hit_the_opponent_ball_first():
    g = FivePinsGame(players=("A", "B"))
    out = play(g, strike(), hit(0.4, "white", "red"), initial=layout(**OPENING))
    assert out.ruling.articles == ["5-pins 15.3.б"]
    g = FivePinsGame(players=("A", "B"))
    out = play(g, strike(), hit(0.4, "white", "yellow"), pin(0.7, "yellow", "pin_right"),
               initial=layout(**OPENING))
    assert out.ruling.legal and out.ruling.points == {"A": 2}  # 4.5: the opening scores


def test_4_2_breaker_ball_over_the_middle_line():
    g = FivePinsGame(players=("A", "B"))
    bad = dict(OPENING, white=[0.4, 1.40])
    out = play(g, strike(), hit(0.4, "white", "yellow"), initial=layout(**bad))
    assert out.ruling.articles == ["5-pins 4.2"]


def test_4_1_opponent_ball_off_its_spot_is_refused():
    g = FivePinsGame(players=("A", "B"))
    bad = dict(OPENING, yellow=[0.3, 2.5])
    with pytest.raises(ValueError, match="4.1"):
        play(g, strike(), hit(0.4, "white", "yellow"), initial=layout(**bad))


def test_2_a_resumed_state_has_a_game_in_play():
    """2: a game ends when a player reaches the points set and the match at a majority of its
    games; a state in play past either (or with scores that are not whole, non-negative points
    of the two players) cannot have happened and is refused, naming the field."""
    from cuesim.rules.fivepins.model import FivePinsState

    base = {"players": ["Ann", "Bob"], "shooter": "Ann", "phase": "play", "placement": None,
            "points_to": 60}
    for extra, message in [({"scores": {"Ann": 64, "Bob": 10}}, "state.scores: Ann has 64 of "
                            "points_to 60"),
                           ({"scores": {"Ann": -1, "Bob": 0}}, "state.scores must give"),
                           ({"scores": {"Ann": 1}}, "state.scores must give"),
                           ({"games": 3, "games_won": {"Ann": 2, "Bob": 0}},
                            "state.games_won: Ann has won 2 of 3 games")]:
        with pytest.raises(ValueError, match=message):
            FivePinsState.from_dict({**base, **extra})
    FivePinsState.from_dict({**base, "scores": {"Ann": 59, "Bob": 0}})
    FivePinsState.from_dict({**base, "phase": "match_over", "scores": {"Ann": 60, "Bob": 3},
                             "games_won": {"Ann": 1, "Bob": 0}, "winner": "Ann"})


# -- 3 the lag -----------------------------------------------------------------------------------
LAG_BEFORE = {"white": [0.3, 0.71], "yellow": [1.12, 0.71], "red": list(SPOTS["red_spot"])}
BALLS = {"A": "white", "B": "yellow"}


def lag_events(late=0.0):
    return [strike("white"), strike("yellow", late), rail(1.0, "white", "top_rail"),
            rail(1.05, "yellow", "top_rail")]


def test_3_nearer_the_bottom_rail_wins():
    res = adjudicate_lag(lag_events(), layout(**LAG_BEFORE),
                         layout(**dict(LAG_BEFORE, white=[0.3, 0.2], yellow=[1.1, 0.25])), BALLS)
    assert res.winner == "A" and not res.replay


def test_3_equal_distance_replays():
    res = adjudicate_lag(lag_events(), layout(**LAG_BEFORE),
                         layout(**dict(LAG_BEFORE, white=[0.3, 0.2], yellow=[1.1, 0.2])), BALLS)
    assert res.replay and res.winner is None


def test_3_touching_a_long_rail_or_the_red_loses():
    evs = [*lag_events(), rail(1.5, "white", "left_rail")]
    res = adjudicate_lag(evs, layout(**LAG_BEFORE),
                         layout(**dict(LAG_BEFORE, white=[0.3, 0.1], yellow=[1.1, 0.25])), BALLS)
    assert res.winner == "B" and res.losers == ["A"]
    evs = [*lag_events(), hit(0.5, "yellow", "red")]
    res = adjudicate_lag(evs, layout(**LAG_BEFORE),
                         layout(**dict(LAG_BEFORE, white=[0.3, 0.3], yellow=[1.1, 0.25])), BALLS)
    assert res.winner == "A"


@pytest.mark.parametrize("felled", [False, True, "pin named first"])
def test_3_a_pin_touched_loses_the_lag_whether_or_not_it_falls(felled):
    """3: "шар игрока сталкивается ... с одной или несколькими фишками": a collide with a pin
    left standing loses as a pin knocked down does, though the ball stops nearer the rail,
    whichever of the two the log names first."""
    touch = (pin(0.5, "white", "pin_left") if felled is True
             else hit(0.5, "pin_left", "white") if felled else hit(0.5, "white", "pin_left"))
    res = adjudicate_lag([*lag_events(), touch], layout(**LAG_BEFORE),
                         layout(**dict(LAG_BEFORE, white=[0.3, 0.2], yellow=[1.1, 0.25])), BALLS)
    assert res.winner == "B" and res.losers == ["A"]
    assert "pin_left" in res.violations[0].text


@pytest.mark.parametrize("code", ["lag_crossed", "lag_late_start"])
def test_3_a_lag_infraction_names_its_player(code):
    """3: a lag fault is one player's; declared with neither a player nor his ball it would be
    silently ignored, so it is refused, naming the code."""
    g = FivePinsGame(players=("A", "B"), lag=True)
    with pytest.raises(ValueError, match=f"'{code}' \\(5-pins 3\\) must name the player"):
        play(g, *lag_events(), initial=layout(**LAG_BEFORE),
             final=layout(**dict(LAG_BEFORE, white=[0.3, 0.2], yellow=[1.1, 0.25])),
             infractions=[{"code": code, "pieces": ["red"]}])
    assert g.state.phase == "lag"
    out = play(g, *lag_events(), initial=layout(**LAG_BEFORE),
               final=layout(**dict(LAG_BEFORE, white=[0.3, 0.2], yellow=[1.1, 0.25])),
               infractions=[{"code": "lag_crossed", "pieces": ["white"]}])
    assert out.lag["winner"] == "B"


def test_3_entering_the_opponent_half_loses():
    res = adjudicate_lag(lag_events(), layout(**LAG_BEFORE),
                         layout(**dict(LAG_BEFORE, white=[0.9, 0.1], yellow=[1.1, 0.25])), BALLS)
    assert res.winner == "B"


def test_3_late_start_replays_and_twice_loses():
    res = adjudicate_lag(lag_events(late=1.02), layout(**LAG_BEFORE), None, BALLS)
    assert res.replay and res.faults == {"A": 0, "B": 1}
    res = adjudicate_lag(lag_events(late=1.02), layout(**LAG_BEFORE), None, BALLS,
                         faults=res.faults)
    assert res.winner == "A" and res.losers == ["B"]


def test_3_lag_then_the_winner_gives_the_break():
    g = FivePinsGame(players=("A", "B"), lag=True)
    out = play(g, *lag_events(), initial=layout(**LAG_BEFORE),
               final=layout(**dict(LAG_BEFORE, white=[0.3, 0.2], yellow=[1.1, 0.25])))
    assert out.lag["winner"] == "A" and g.state.pending["player"] == "A"
    with pytest.raises(ValueError, match="must choose"):
        play(g, strike(), hit(0.4, "white", "yellow"), initial=layout(**OPENING))
    out = g.choose("pass")
    assert g.state.breaker == "B" and g.state.first_breaker == "B"
    assert out.ruling.next_player == "B" and "yellow" not in out.layout.ids()


# -- 9 leaving or refusing -------------------------------------------------------------------
def test_9_1_leaving_loses_the_game():
    g = game_in_play(games=3)
    out = g.play(_declared("left_game", "B"))
    assert out.ruling.articles == ["5-pins 9.1"] and out.ruling.winner == "A"
    assert g.state.games_won == {"A": 1, "B": 0} and g.state.game == 2


def test_9_2_refusing_ends_the_match():
    g = game_in_play(games=3)
    out = g.play(_declared("refused_to_continue", "A"))
    assert out.ruling.match_over and out.ruling.winner == "B" and g.state.excluded == "A"


def _declared(code, player):
    from cuesim.rules.fivepins import FivePinsShot
    return FivePinsShot(infractions=[Infraction(code, player)], initial=position())


@pytest.mark.parametrize("where,field,match", [
    ({"yellow": [0.72, 0.61]}, "initial", "overlap"),
    ({"red": [1.60, 1.0]}, "initial", "not wholly"),
    ({"yellow": [0.72, 0.61]}, "final", "overlap"),
])
def test_1_hand_written_layouts_must_be_legal_on_the_carom_table(where, field, match):
    """5-pins 1: balls and standing pins lie on the bed, none overlapping; a hand-written
    layout that cannot have happened is refused through the API, as the scenario loader
    refuses it."""
    bad = position(**where)
    kw = {field: bad}
    with pytest.raises(ValueError, match=f"shot.{field}: .*{match}"):
        play(game_in_play(), strike(), hit(0.3, "white", "yellow"), **kw)


def test_layouts_for_another_table_are_refused():
    from cuesim.tables.layout import Layout, Piece

    pool = Layout("pool_9ft", (Piece("white", "ball", 0.5, 0.5), Piece("yellow", "ball", 0.7, 0.5)))
    with pytest.raises(ValueError, match="played on the carom table"):
        play(game_in_play(), strike(), hit(0.3, "white", "yellow"), initial=pool)
