"""The 5-pins referee's checks of a shot that cannot have happened: pieces of the wrong kind
for their event or their id, a pin knocked down by a standing pin, a standing pin gone, a ball
off the table that nothing moved, hand-written layouts off the bed (each a ValueError naming
the field)."""

from __future__ import annotations

import itertools
from collections.abc import Collection
from typing import Any

from cuesim.rules.event_log import pieces_set_moving
from cuesim.rules.files import check_shot_layouts, hand_moved
from cuesim.rules.fivepins.fouls import HAND_MOVES
from cuesim.rules.fivepins.model import BALLS, PINS, FivePinsShot
from cuesim.rules.fivepins.placement import covered_marks
from cuesim.rules.ruling import Infraction
from cuesim.sim.events import EventKind
from cuesim.tables.layout import Layout


def check_carom_layouts(shot: FivePinsShot) -> None:
    """The shot's hand-written layouts are for the carom table and legal on it (5-pins 1: the
    balls and standing pins on the bed, no two overlapping), as the scenario loader requires."""
    from cuesim.tables.carom import CaromTable

    for name in ("initial", "final"):
        layout = getattr(shot, name)
        if layout is not None and layout.table != "carom":
            raise ValueError(f"{name} layout is for table {layout.table!r}; 5-pins is played on "
                             "the carom table ('carom')")
    check_shot_layouts(CaromTable(), shot.initial, shot.final, shot.events, "shot",
                       ("initial", "final"), hand_moved(shot.infractions, HAND_MOVES))


def check_piece_kinds(events: list[Any], where: str) -> None:
    """Each event's pieces are of the kind the event takes: a cue strikes a ball (a wrong one
    is the 15.3.а foul), and a `pin` event knocks down a pin (`b`; `a` is the ball or a
    thrown pin), each pin once a shot (5-pins 12.2: a knocked pin that comes back to its
    spot still counts as knocked, once). Ids that are neither are refused as unknown
    elsewhere."""
    felled: dict[str, int] = {}
    for k, e in enumerate(events):
        if e.kind == EventKind.STRIKE and e.a in PINS:
            raise ValueError(f"{where}.events[{k}].a: a strike is of a ball {list(BALLS)}, "
                             f"not the pin {e.a!r}")
        if e.kind == EventKind.PIN and e.b in BALLS:
            raise ValueError(f"{where}.events[{k}].b: a pin event knocks down a pin "
                             f"{list(PINS)}, not the ball {e.b!r}")
        if e.kind == EventKind.PIN and e.b in felled:
            raise ValueError(f"{where}.events[{k}].b: {e.b!r} is knocked down a second time; "
                             f"events[{felled[e.b]}] knocked it already, and a pin is knocked "
                             "once a shot (5-pins 12.2)")
        if e.kind == EventKind.PIN:
            felled[e.b] = k
    check_knockers(events, where)


def check_knockers(events: list[Any], where: str) -> None:
    """A pin is knocked down (a `pin` event's `a`) by a ball or a thrown pin: one a `pin` event
    knocked down earlier in the shot or at the same instant (events at one instant are logged
    in any order); a standing pin, even one touched and rocking, knocks none and touches no
    standing pin (5-pins 12.3; `cuesim.sim.resolve.pin`, `sim.motion.dispatch.interacts`)."""
    down: set[str] = set()
    for _, group in itertools.groupby(enumerate(events), key=lambda ke: ke[1].t):
        instant = list(group)
        waiting = [(k, e) for k, e in instant if e.kind == EventKind.PIN]
        while True:  # the instant's knocks, each once its knocker is down (or a ball)
            ready = [(k, e) for k, e in waiting if e.a not in PINS or e.a in down]
            if not ready:
                break
            down.update(e.b for _, e in ready)
            done = {k for k, _ in ready}
            waiting = [(k, e) for k, e in waiting if k not in done]
        if waiting:
            k, e = waiting[0]
            raise ValueError(f"{where}.events[{k}].a: {e.a!r} knocks down {e.b!r} at {e.t} s, "
                             f"but no pin event knocked {e.a!r} down by then: a standing pin, "
                             "even one touched and rocking, knocks no pin; a ball or a thrown "
                             "pin does (5-pins 12.3)")
        for k, e in instant:
            if e.kind == EventKind.COLLIDE and e.a in PINS and e.b in PINS and \
                    e.a not in down and e.b not in down:
                raise ValueError(f"{where}.events[{k}]: the pins {e.a!r} and {e.b!r} collide "
                                 f"at {e.t} s, but no pin event knocked either down by then: "
                                 "a standing pin is reached only by a ball or a thrown pin "
                                 "(5-pins 12.3)")


def check_layout_kinds(layout: Layout, where: str) -> None:
    """Each ball id is a ball and each pin id a pin (5-pins 1: three balls, five pins); other
    ids are refused as unknown elsewhere."""
    for k, p in enumerate(layout.pieces):
        want = "pin" if p.id in PINS else "ball" if p.id in BALLS else None
        if want is not None and p.kind != want:
            raise ValueError(f"{where}.pieces[{k}].kind: {p.id!r} is a {want}, got kind "
                             f"{p.kind!r}")


def check_pins_kept(events: list[Any], initial: Layout | None, final: Layout | None,
                    where: str, names: tuple[str, str] = ("initial", "final"),
                    by_hand: Collection[str] = ()) -> None:
    """A pin standing before the shot is on the table after it unless a `pin` event knocks it
    down (5-pins 12.1; a knocked pin may fly off), a declared infraction moved it by hand
    (`by_hand`), or a ball after the shot covers its mark (12.7: the referee removes it; the
    short form sets no pin there, 12.4: a pin pushed off its mark may stand elsewhere)."""
    if initial is None or final is None:
        return
    knocked = {e.b for e in events if e.kind == EventKind.PIN}
    before, after = set(initial.ids()), set(final.ids())
    lost = [p for p in PINS if p in before and p not in after and p not in knocked
            and p not in by_hand]
    lost = [p for p in lost if p not in covered_marks(final)] if lost else lost
    if lost:
        raise ValueError(f"{where}.{names[1]}: pin {lost[0]!r} stood before the shot "
                         f"({where}.{names[0]}) and is missing after it, but no pin event "
                         "knocks it down and no ball covers its mark: a pin leaves the table "
                         "only knocked down (5-pins 12.1)")


def check_off_table(events: list[Any], infractions: list[Infraction], where: str,
                    by_hand: Collection[str] = ()) -> None:
    """A ball declared off the table (15.3.д, 11.1) by a shot with events was set in motion:
    struck, or in a collision (or moved by a hand, `by_hand`). Shots without events are
    refused elsewhere for a stroke's infraction."""
    if not events:
        return
    moved = pieces_set_moving(events)
    for k, inf in enumerate(infractions):
        if inf.code != "off_table":
            continue
        for p in inf.pieces:
            if p in BALLS and p not in moved and p not in by_hand:
                raise ValueError(f"{where}.infractions[{k}].pieces: infraction off_table "
                                 f"names {p!r}, but nothing set it in motion (no strike of "
                                 "it, no collision with it in the events): a ball leaves the "
                                 "table only moving (5-pins 11.1, 15.3.д)")
