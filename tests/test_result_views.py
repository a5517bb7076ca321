"""`ShotResult.event_log()` and `ShotResult.final`, read once per shot by every referee: each
event is the `Event` its row defines (made through the dataclass's own constructor here), frozen
and hashed alike, and the final layout holds every piece still on the table at its final
position, across the games' shots (novus, pool with pockets and sensors, 5-pins with pins)."""

from __future__ import annotations

import dataclasses
import math

import pytest

import cuesim
from cuesim import CueShot, NovusShot, start_layout
from cuesim.api import game_table
from cuesim.sim import events as ev
from cuesim.sim.events import EventKind
from cuesim.sim.result import Event
from cuesim.tables.layout import Layout


def _shots() -> list[cuesim.ShotResult]:
    out = []
    table = cuesim.novus_table()
    for angle in (80.0, 90.0, 97.0):
        out.append(cuesim.simulate(table, cuesim.novus_doubles_layout(table),
                                   NovusShot(x=0.5, angle=math.radians(angle), speed=6.0)))
    for game in ("9-ball", "8-ball", "5-pins"):
        t = game_table(game)
        lay = start_layout(game, t)
        ball = "cue" if game != "5-pins" else lay.pieces[0].id
        for angle in (1.4, 1.57, 1.75):
            out.append(cuesim.simulate(t, lay, CueShot(ball=ball, angle=angle, speed=7.0)))
    return out


@pytest.fixture(scope="module")
def shots() -> list[cuesim.ShotResult]:
    return _shots()


def test_every_event_is_the_one_its_row_defines(shots):
    for r in shots:
        ids = r.initial.ids()
        log = r.event_log()
        assert len(log) == r.n_events
        for e, row in zip(log, r.events, strict=True):
            kind = EventKind(int(row[ev.COL_KIND]))
            names = r.feature_names.get(int(kind), [])
            idx, b = int(row[ev.COL_INDEX]), int(row[ev.COL_B])
            want = Event(t=float(row[ev.COL_T]), kind=kind, a=ids[int(row[ev.COL_A])],
                         b=ids[b] if b >= 0 else None,
                         feature=names[idx] if 0 <= idx < len(names) else None,
                         speed=float(row[ev.COL_SPEED]), direction=int(row[ev.COL_DIR]))
            assert e == want and hash(e) == hash(want) and repr(e) == repr(want)
            assert type(e.t) is float and type(e.speed) is float and type(e.direction) is int
            with pytest.raises(dataclasses.FrozenInstanceError):
                e.t = 0.0  # type: ignore[misc]
    kinds = {e.kind for r in shots for e in r.event_log()}
    assert {EventKind.COLLIDE, EventKind.RAIL, EventKind.STOP} <= kinds


def test_the_final_layout_is_every_piece_left_where_it_stopped(shots):
    pocketed = 0
    for r in shots:
        want = Layout(r.initial.table, tuple(
            dataclasses.replace(p, x=float(r.final_positions[k, 0]),
                                y=float(r.final_positions[k, 1]))
            for k, p in enumerate(r.initial.pieces) if r.final_on[k]))
        assert r.final == want
        assert all(type(p.x) is float and type(p.y) is float for p in r.final.pieces)
        pocketed += len(r.initial) - len(r.final)
    assert pocketed > 0  # some shots took pieces off the table


def test_an_unknown_event_kind_is_refused_as_before(shots):
    r = shots[0]
    events = r.events.copy()
    events[1, ev.COL_KIND] = 99.0
    broken = dataclasses.replace(r, events=events)
    with pytest.raises(ValueError, match="99 is not a valid EventKind"):
        broken.event_log()
