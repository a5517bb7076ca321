"""What each event of a shot file may name (cuesim.shotfile calls this after the columns'
ranges are checked): the event log's contract (cuesim.sim.events), one row per event as the
core logs it. A row that breaks it cannot have come from a shot and is a `ShotFileError`
naming the file, the row and what was expected.

- a collision or a pin event has a second piece, not the first one again; every other event
  has none (b = -1);
- a cushion, pocket, line or circle event names its feature (index >= 0; that a strike,
  collision, pin, stop or roll names none is checked with the feature names);
- a line or circle crossing has a direction (+1 or -1); every other event has 0;
- a pin event knocks down a standing pin: its b is a piece of kind 'pin', and a pin falls
  once (a felled pin never stands again within a shot);
- a piece drops into a pocket or hole once (it is off the table after it).
"""

from __future__ import annotations

import numpy as np

from cuesim.shotfile_motion import ShotFileError, _fail
from cuesim.sim.events import EventKind
from cuesim.tables.layout import Layout

_PAIRED = (EventKind.COLLIDE, EventKind.PIN)
_FEATURED = (EventKind.RAIL, EventKind.POCKET, EventKind.LINE, EventKind.CIRCLE)
_CROSSINGS = (EventKind.LINE, EventKind.CIRCLE)


def _of(kind: np.ndarray, kinds: tuple[EventKind, ...]) -> np.ndarray:
    return np.isin(kind, [int(k) for k in kinds])


def check_event_roles(ev: np.ndarray, initial: Layout, source: str) -> None:
    """Refuse rows whose pieces, feature or direction their kind cannot have (module
    docstring); ev holds whole numbers in range already (cuesim.shotfile._check_events)."""
    where = f"{source}: events"
    kind, a, b, index, direction = ev[:, 1], ev[:, 2], ev[:, 3], ev[:, 4], ev[:, 6]
    paired, featured, crossing = _of(kind, _PAIRED), _of(kind, _FEATURED), _of(kind, _CROSSINGS)
    _fail(where, np.flatnonzero(paired & (b < 0)),
          "b must name the second piece of a collide or pin event", b)
    _fail(where, np.flatnonzero(paired & (b == a)),
          "b must be another piece than a: a piece cannot collide with itself", b)
    _fail(where, np.flatnonzero(~paired & (b >= 0)),
          "b must be -1: only a collide or pin event has a second piece", b)
    _fail(where, np.flatnonzero(featured & (index < 0)),
          "index must name the cushion, pocket, line or circle of the event", index)
    _fail(where, np.flatnonzero(crossing & (direction == 0)),
          "direction must be +1 or -1 for a line or circle crossing", direction)
    _fail(where, np.flatnonzero(~crossing & (direction != 0)),
          "direction must be 0: only a line or circle crossing has one", direction)
    kinds = np.array([p.kind for p in initial.pieces])
    pins = np.flatnonzero(kind == int(EventKind.PIN))
    if len(pins):
        felled = b[pins].astype(int)
        not_pin = pins[kinds[felled] != "pin"]
        if len(not_pin):
            k = int(not_pin[0])
            raise ShotFileError(f"{where}[{k}]: b must be a pin (a pin event knocks one down), "
                                f"got {initial.pieces[int(b[k])].id!r} of kind "
                                f"{str(kinds[int(b[k])])!r}")
        _once(where, pins, felled, initial, "is knocked down a second time: a pin falls once")
    drops = np.flatnonzero(kind == int(EventKind.POCKET))
    _once(where, drops, a[drops].astype(int), initial,
          "drops a second time: a piece leaves the table once")


def _once(where: str, rows: np.ndarray, pieces: np.ndarray, initial: Layout, what: str) -> None:
    """Refuse the first row whose piece an earlier row already named."""
    _, first = np.unique(pieces, return_index=True)
    again = np.setdiff1d(np.arange(len(rows)), first)
    if len(again):
        k = int(rows[int(again.min())])
        i = int(pieces[int(again.min())])
        raise ShotFileError(f"{where}[{k}]: {initial.pieces[i].id!r} {what}")
