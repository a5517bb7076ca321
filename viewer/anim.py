"""Playing a ShotResult back: positions come from `ShotResult.positions_at(t)` at each frame's
time (the exact trajectories), never from a re-simulation. The clock is whatever the caller
passes as dt, so tests step it with a fake clock."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from cuesim.sim.events import EventKind
from cuesim.sim.result import ShotResult

SPEEDS = (1.0, 0.25, 0.1)  # normal, slow motion, very slow
PIN_LOOK_AHEAD = 0.02  # s after a knock over which a thrown pin's motion gives its direction


@dataclass
class Playback:
    """One shot being shown. `t` is the shot's own time (s); `rate` the slow-motion factor."""

    result: ShotResult
    t: float = 0.0
    rate: float = 1.0
    paused: bool = False
    tail: float = 0.25  # s shown at rest after the last event
    _pins: list[tuple[float, str]] = field(default_factory=list)
    _angles: dict[str, float] | None = None

    def __post_init__(self) -> None:
        self._pins = [(e.t, e.b) for e in self.result.event_log()
                      if e.kind == EventKind.PIN and e.b is not None]

    @property
    def end(self) -> float:
        return self.result.duration + self.tail

    @property
    def done(self) -> bool:
        return self.t >= self.end

    def advance(self, dt: float) -> None:
        if not self.paused:
            self.t = min(self.end, self.t + dt * self.rate)

    def finish(self) -> None:
        self.t = self.end

    def restart(self) -> None:
        self.t = 0.0
        self.paused = False

    def frame(self) -> tuple[np.ndarray, np.ndarray]:
        """(positions (n, 2), on the table (n,)) at the current time."""
        return self.result.positions_at(min(self.t, self.result.duration))

    def fallen(self) -> list[str]:
        """Pins knocked down by now."""
        return [pin for t, pin in self._pins if t <= self.t]

    def fallen_angles(self) -> dict[str, float]:
        """Pins knocked down by now -> the direction (rad, table frame) each lies in."""
        if self._angles is None:
            self._angles = pin_fall_angles(self.result)
        return {pin: self._angles[pin] for t, pin in self._pins if t <= self.t}

    def pocketed(self) -> list[str]:
        """Pieces captured by a hole or pocket by now, in order."""
        return [e.a for e in self.result.event_log()
                if e.kind == EventKind.POCKET and e.t <= self.t]


def pin_fall_angles(result: ShotResult) -> dict[str, float]:
    """The direction each knocked pin falls in, from the shot's physics: the way the pin was
    thrown (its motion just after the knock) or, for a pin that does not slide, the way it
    was pushed (from the centre of what hit it through its own centre). The same shot gives
    the same angles on every run."""
    ids = result.initial.ids()
    out: dict[str, float] = {}
    for e in result.event_log():
        if e.kind != EventKind.PIN or e.b is None or e.b in out:
            continue
        k = ids.index(e.b)
        at, _ = result.positions_at(e.t)
        later, _ = result.positions_at(e.t + PIN_LOOK_AHEAD)
        dx, dy = later[k] - at[k]
        if math.hypot(dx, dy) < 1e-6 and e.a in ids:
            dx, dy = at[k] - at[ids.index(e.a)]
        out[e.b] = math.atan2(dy, dx) if math.hypot(dx, dy) > 0 else math.pi / 2
    return out
