"""A one-line progress report of a batch on stderr: shots done, shots/s, time left."""

from __future__ import annotations

import math
import sys
import time
from typing import TextIO


class Progress:
    """Progress of a run of `total` shots, `done` of them before it started. `note` (set by
    the executor, e.g. the workers of a cluster) is shown at the end of the line."""

    def __init__(self, total: int, done: int, enabled: bool = True,
                 stream: TextIO | None = None, every: float = 0.5) -> None:
        self.total, self.done, self.start_done = total, done, done
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self.every = every
        self.t0 = time.perf_counter()
        self.last = -math.inf
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.note = ""

    def rate(self) -> float:
        dt = time.perf_counter() - self.t0
        return (self.done - self.start_done) / dt if dt > 0 else 0.0

    def line(self) -> str:
        rate = self.rate()
        left = (self.total - self.done) / rate if rate > 0 else math.inf
        pct = 100.0 * self.done / self.total if self.total else 100.0
        eta = "?" if not math.isfinite(left) else duration(left)
        note = f" | {self.note}" if self.note else ""
        return (f"batch: {self.done}/{self.total} shots ({pct:.1f}%) | {rate:,.0f} shots/s | "
                f"{eta} left{note}")

    def say(self, text: str) -> None:
        """A message of its own line (when progress is shown)."""
        if self.enabled:
            print(f"batch: {text}", file=self.stream, flush=True)

    def update(self, shots: int) -> None:
        self.done += shots
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.last >= self.every or self.done >= self.total:
            self.last = now
            end = "\r" if self.tty and self.done < self.total else "\n"
            print(self.line(), end=end, file=self.stream, flush=True)

    def close(self) -> None:
        if self.enabled:
            dt = time.perf_counter() - self.t0
            print(f"batch: {shot_count(self.done - self.start_done)} in {duration(dt)} "
                  f"({self.rate():,.0f} shots/s)", file=self.stream, flush=True)


def shot_count(n: int) -> str:
    """'1 shot', '2000 shots'."""
    return f"{n} shot" if n == 1 else f"{n} shots"


def duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f} s"
    m, s = divmod(int(seconds), 60)
    h, m = divmod(m, 60)
    return f"{h}h{m:02d}m{s:02d}s" if h else f"{m}m{s:02d}s"
