"""Helpers for the 5-pins referee tests: hand-written events, short layouts, a game in play."""

from __future__ import annotations

from cuesim.rules.fivepins import Declaration, FivePinsGame, FivePinsShot
from cuesim.rules.fivepins.scenario import parse_layout
from cuesim.rules.ruling import Infraction
from cuesim.sim.events import EventKind
from cuesim.sim.result import Event

# A position in play: the white in the bottom half, the yellow and the red in the top half.
POSITION = {"white": [0.71, 0.60], "yellow": [0.50, 2.30], "red": [1.00, 2.50]}


def strike(ball="white", t=0.0):
    return Event(t, EventKind.STRIKE, ball)


def hit(t, a, b):
    return Event(t, EventKind.COLLIDE, a, b)


def pin(t, by, p):
    return Event(t, EventKind.PIN, by, p)


def rail(t, ball, name):
    return Event(t, EventKind.RAIL, ball, feature=name)


def layout(**xy):
    return parse_layout({k: list(v) for k, v in xy.items()}, "test")


def position(**changes):
    data = dict(POSITION)
    data.update(changes)
    return layout(**data)


def game_in_play(shooter="A", points_to=60, games=1, **kw):
    """A's white against B's yellow, after the opening; `shooter` to play the ball as it lies."""
    g = FivePinsGame(players=("A", "B"), points_to=points_to, games=games, **kw)
    g.state.phase = "play"
    g.state.placement = None
    g.state.shooter = shooter
    g.layout = position()
    return g


def shot(*events, initial=None, final=None, infractions=(), **decl):
    initial = initial if initial is not None else position()
    return FivePinsShot(list(events), initial, final, Declaration(**decl),
                        [_infraction(i) for i in infractions])


def _infraction(item):
    if isinstance(item, Infraction):
        return item
    if isinstance(item, dict):
        return Infraction.from_dict(item)
    return Infraction(item)


def play(g, *events, **kw):
    return g.play(shot(*events, **kw))
