"""A hand-made event log given to a referee from Python: an event whose field has the wrong
type is an ArgumentTypeError (a ValueError, README Errors) naming the event and the field.
Before, `FivePinsGame.play` raised a bare TypeError ('<=' not supported between 'float' and
'str') for `Event(t="0")` and an AttributeError for `Event(kind="strike")`, and `t=True` was
taken as a shot one second long."""

from __future__ import annotations

from typing import Any

import pytest

from cuesim.rules.api_checks import ArgumentTypeError
from cuesim.rules.fivepins import FivePinsGame, FivePinsShot
from cuesim.rules.fivepins.scenario import parse_layout
from cuesim.rules.novus import NovusGame
from cuesim.rules.novus.shotlog import ShotRecord
from cuesim.rules.pool import NineBall, PoolShot
from cuesim.sim.events import EventKind
from cuesim.sim.result import Event
from cuesim.tables import (
    cue_ball_in_kitchen,
    nine_ball_rack,
    novus_singles_layout,
    novus_table,
    pool_table,
)

STRIKE = EventKind.STRIKE
BAD = [  # (event fields, the field named)
    ({"t": "0"}, "t"),
    ({"t": True}, "t"),
    ({"kind": "strike"}, "kind"),
    ({"speed": "1"}, "speed"),
    ({"speed": False}, "speed"),
    ({"feature": ["rail"]}, "feature"),
    ({"direction": 1.0}, "direction"),
]


def _event(a: str, **fields: Any) -> Event:
    return Event(**{"t": 0.0, "kind": STRIKE, "a": a, **fields})


@pytest.mark.parametrize(("fields", "name"), BAD)
def test_five_pins_refuses_an_event_field_of_the_wrong_type(fields: dict, name: str):
    layout = parse_layout({"white": [0.40, 0.70], "yellow": [0.71, 2.74], "red": [0.71, 2.13]},
                          "initial")
    shot = FivePinsShot([_event("white", **fields)], layout, layout)
    with pytest.raises(ArgumentTypeError, match=rf"shot\.events\[0\]\.{name} must be"):
        FivePinsGame(players=("Ann", "Bob")).play(shot)


@pytest.mark.parametrize(("fields", "name"), BAD)
def test_pool_refuses_an_event_field_of_the_wrong_type(fields: dict, name: str):
    table = pool_table()
    layout = nine_ball_rack(table, cue=cue_ball_in_kitchen(table))
    with pytest.raises(ArgumentTypeError, match=rf"shot\.events\[0\]\.{name} must be"):
        NineBall(players=("A", "B")).play(PoolShot([_event("cue", **fields)], layout, layout))


@pytest.mark.parametrize(("fields", "name"), BAD)
def test_novus_refuses_an_event_field_of_the_wrong_type(fields: dict, name: str):
    layout = novus_singles_layout(novus_table())
    record = ShotRecord(layout, layout, [_event("striker", **fields)])
    with pytest.raises(ArgumentTypeError, match=rf"shot\.events\[0\]\.{name} must be"):
        NovusGame(["A", "B"]).adjudicate(record)


def test_an_event_that_is_no_event_is_named():
    table = pool_table()
    layout = nine_ball_rack(table, cue=cue_ball_in_kitchen(table))
    with pytest.raises(ArgumentTypeError, match=r"shot\.events.* must be"):
        NineBall(players=("A", "B")).play(PoolShot([{"t": 0}], layout, layout))  # type: ignore


@pytest.mark.parametrize(("kind", "direction"), [("collide", "x"), ("collide", [1]),
                                                 ("collide", 1.7), ("collide", True),
                                                 ("line", True), ("line", 0)])
def test_a_novus_file_event_direction_is_a_side(kind: str, direction: Any):
    """A novus scenario's event `direction` is +1 or -1 on a crossing and 0, +1 or -1 on
    another event, never a boolean: 'x' and [1] failed with int()'s own message, naming no
    field, and 1.7 and true were taken."""
    from cuesim.rules.novus.shotlog import event_from_dict

    data = {"t": 0.1, "kind": kind, "a": "striker", "direction": direction,
            **({"b": "red1"} if kind == "collide" else {"feature": "zone_south"})}
    with pytest.raises(ValueError, match=r"events\[1\]\.direction must be"):
        event_from_dict(data, 1)
