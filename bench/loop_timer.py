"""Timing the compiled event loop inside `run_motion` (bench/): while a LoopTimer is entered,
engine.run_events_grid is wrapped, and each of its calls is timed (time.perf_counter)."""

from __future__ import annotations

import time
from typing import Any

import cuesim.sim.engine as engine


class LoopTimer:
    """Wraps engine.run_events_grid so that run_motion reports the time of its compiled loop:
    `times` holds each call's seconds. run_motion calls the loop again from the start, with
    buffers 4x larger, when the event or segment buffer fills, so a shot may take two calls:
    the last is its one complete simulation."""

    def __init__(self) -> None:
        self.inner = engine.run_events_grid
        self.times: list[float] = []

    @property
    def seconds(self) -> float:
        """The loop's time over every call so far."""
        return sum(self.times)

    @property
    def last(self) -> float:
        """The latest call's time (0 before any)."""
        return self.times[-1] if self.times else 0.0

    @property
    def calls(self) -> int:
        return len(self.times)

    def __call__(self, *args: Any) -> Any:
        t0 = time.perf_counter()
        out = self.inner(*args)
        self.times.append(time.perf_counter() - t0)
        return out

    def __enter__(self) -> LoopTimer:
        engine.run_events_grid = self
        return self

    def __exit__(self, *exc: object) -> None:
        engine.run_events_grid = self.inner
