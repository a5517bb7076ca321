"""Real simulated 5-pins shots refereed from their event logs (8, 12, 15), and a short game
between two scripted players (2, 4, 13)."""

from __future__ import annotations

import math

import cuesim
from cuesim.rules.fivepins import FivePinsGame, shot_from_result
from cuesim.rules.fivepins.placement import HALF_Y
from cuesim.tables.carom import BALL_RADIUS, SPOTS, carom_table, five_pins_layout, pin_spots
from tests.fivepins_util import game_in_play, layout

TABLE = carom_table()
PINS = pin_spots()
CX, CY = PINS["pin_centre"]
SPACING = PINS["pin_top"][1] - CY


def sim(lay, angle, speed, **kw):
    return cuesim.simulate(TABLE, lay, cuesim.CueShot(ball="white", angle=angle, speed=speed,
                                                      **kw))


def test_white_aimed_through_the_pins_at_the_yellow_hits_the_red_first():
    """The opening: the white on the long middle line aimed at the yellow on the top spot
    knocks the bottom, centre and top pins, then meets the red on its spot and never touches
    the yellow: 15.3.б (4 points, 7.2), and the pins go to the opponent too (7.5). 15.3.в needs
    the opponent's ball touched after the pins, which does not happen here."""
    lay = five_pins_layout(TABLE, breaker="white", breaker_xy=(CX, 0.5))
    res = sim(lay, math.pi / 2, 3.0)
    g = FivePinsGame(players=("A", "B"))
    out = g.play(shot_from_result(res))
    assert out.ruling.articles == ["5-pins 15.3.б"]
    knocked = {e.b for e in res.event_log() if e.kind.name == "PIN"}
    assert knocked == {"pin_bottom", "pin_centre", "pin_top"}
    assert out.ruling.points == {"B": 4 + (2 + 4 + 2)}
    assert out.ruling.next_player == "B" and out.ruling.placement in ("bottom_half", "top_half")
    assert {s["id"] for s in out.spotted} >= knocked  # knocked pins set up again (12)


def test_straight_shot_of_the_opponent_ball_through_the_centre():
    """The yellow driven straight through the pin cross knocks the bottom pin, which throws the
    centre pin onto the top one (12.3): 2 + 4 + 2 = 8 for A (5.1)."""
    g = game_in_play()
    lay = layout(white=[CX, 0.4], yellow=[CX, 0.9], red=[1.2, 2.5])
    out = g.play(shot_from_result(sim(lay, math.pi / 2, 3.0, height=-0.4)))
    assert out.ruling.legal and out.ruling.points == {"A": 8}


def test_ball_between_two_pins_at_the_rules_spacing_knocks_neither():
    """Rolling midway between the centre pin and the right one (and the top and bottom
    pins' neighbours) at the pin spacing: no pin falls (15.3.о note)."""
    g = game_in_play()
    x = CX + SPACING / 2
    lay = layout(white=[x, 0.5], yellow=[x, 2.3], red=[1.2, 2.5])
    res = sim(lay, math.pi / 2, 2.0)
    assert not any(e.kind.name == "PIN" for e in res.event_log())
    out = g.play(shot_from_result(res))
    assert out.ruling.legal and out.ruling.points == {}


def _aim(lay, own, target):
    a, b = lay.get(own), lay.get(target)
    return math.atan2(b.y - a.y, b.x - a.x)


def _place(lay, ball, half):
    """A scripted player puts the ball in hand 0.4 m from the middle line, clear of others."""
    y = HALF_Y - 0.4 if half == "bottom_half" else HALF_Y + 0.4
    for x in (0.35, 0.71, 1.05, 0.2, 1.2):
        if all(math.hypot(p.x - x, p.y - y) > 0.08 for p in lay.pieces):
            break
    assert (y + BALL_RADIUS <= HALF_Y) if half == "bottom_half" else (y - BALL_RADIUS >= HALF_Y)
    from cuesim.tables.layout import Piece
    return lay.with_piece(Piece(ball, "ball", x, y, ball))


def test_scripted_game_between_two_players():
    """Each player drives his ball at the opponent's; the referee alternates the shots (2), the
    scores are the sums of the rulings' points and a ball in hand is placed in its half (13)."""
    g = FivePinsGame(players=("Ann", "Bob"), points_to=20)
    lay = g.layout
    totals = {"Ann": 0, "Bob": 0}
    shooter = "Ann"
    for k in range(6):
        st = g.state
        assert st.shooter == shooter
        own = st.balls[shooter]
        other = st.balls[st.opponent(shooter)]
        if st.placement is not None:
            lay = _place(lay, own, st.placement)
        speed = 2.0 + 0.3 * k
        res = cuesim.simulate(TABLE, lay, cuesim.CueShot(ball=own, angle=_aim(lay, own, other)
                                                         + 0.02, speed=speed))
        out = g.play(shot_from_result(res))
        for p, pts in out.ruling.points.items():
            totals[p] += pts
        if out.ruling.frame_over:
            break
        assert out.ruling.next_player == st.opponent(shooter)
        assert g.state.scores == totals
        shooter = out.ruling.next_player
        lay = out.layout
        assert lay is not None
    assert g.state.shot > 1
    assert SPOTS["top_spot"]
