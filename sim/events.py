"""The event log: the contract between the physics and the rules.

Every event is one row of 7 float64 columns: time, kind, a, b, index, speed, direction.
a and b are object indices into the layout (b = -1 when there is no second object); index is
the rail, hole, sensor line or sensor circle involved (-1 when none); speed is the relative
normal speed of an impact (m/s) or the object's speed at a capture or crossing; direction is
+1 / -1 for crossings (lines: along / against the line normal; circles: entering / leaving).
A collision may be a push (speed 0, or nearly): a slow group of pieces pressed into one at
rest took it along with no impulse (resolve.cluster), a contact all the same (a first ball hit).
"""

from __future__ import annotations

from enum import IntEnum

N_EVENT_COLUMNS = 7
COL_T, COL_KIND, COL_A, COL_B, COL_INDEX, COL_SPEED, COL_DIR = range(N_EVENT_COLUMNS)


class EventKind(IntEnum):
    """The kinds of event the core logs (column COL_KIND of `ShotResult.events`)."""

    STRIKE = 0  # the cue strike at t = 0 (a = the struck object)
    COLLIDE = 1  # object-object impact or push (a, b)
    RAIL = 2  # object-rail impact (a, index = rail, or n_rails + k for jaw knuckle k)
    POCKET = 3  # capture: the centre entered a hole or pocket circle (a, index = hole)
    LINE = 4  # the centre crossed a sensor line (a, index = line, direction)
    CIRCLE = 5  # the centre crossed a sensor circle (a, index = circle, direction +1 = entering)
    STOP = 6  # motion transition: the object came to rest (a)
    ROLL = 7  # motion transition: a ball stopped sliding and rolls (a)
    PIN = 8  # a standing pin was knocked down (a = the ball or thrown pin, b = the pin)


# Plain ints for the compiled code (numba reads module globals as constants).
EV_STRIKE = int(EventKind.STRIKE)
EV_COLLIDE = int(EventKind.COLLIDE)
EV_RAIL = int(EventKind.RAIL)
EV_POCKET = int(EventKind.POCKET)
EV_LINE = int(EventKind.LINE)
EV_CIRCLE = int(EventKind.CIRCLE)
EV_STOP = int(EventKind.STOP)
EV_ROLL = int(EventKind.ROLL)
EV_PIN = int(EventKind.PIN)
