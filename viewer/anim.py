"""Playing a ShotResult back: positions come from `ShotResult.positions_at(t)` at each frame's
time (the exact trajectories), never from a re-simulation. The clock is whatever the caller
passes as dt, so tests step it with a fake clock."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cuesim.sim.events import EventKind
from cuesim.sim.result import ShotResult

SPEEDS = (1.0, 0.25, 0.1)  # normal, slow motion, very slow


@dataclass
class Playback:
    """One shot being shown. `t` is the shot's own time (s); `rate` the slow-motion factor."""

    result: ShotResult
    t: float = 0.0
    rate: float = 1.0
    paused: bool = False
    tail: float = 0.25  # s shown at rest after the last event
    _pins: list[tuple[float, str]] = field(default_factory=list)

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
