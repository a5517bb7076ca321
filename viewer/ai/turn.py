"""The computer's turn in the viewer, frame by frame: it thinks (a `Thinker` stepped for a
slice of each frame, so the window keeps drawing and answering), then shows the shot it will
play (aim, call, tip and power) for a moment of animation time, then hands the shot over.

Python threads would not help: the simulator's compiled loop holds the GIL (numba's `nogil`
is off in `sim/loop.py`), and the referee is Python; slices keep the window responsive
without a second thread or process, and keep a seeded game reproducible.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cuesim.viewer.ai.levels import DEFAULT_LEVEL, Level, get_level
from cuesim.viewer.ai.search import Choice, Thinker
from cuesim.viewer.session import Session

THINK_SLICE_S = 0.025  # thinking per frame: at 60 Hz the frame rate stays above ~20 Hz
SHOW_S = 1.0  # animation seconds the chosen aim, call, tip and power are shown before the shot
DOTS_PER_S = 3.0  # the "thinking" indicator's dots advance this often


@dataclass
class ComputerTurn:
    """One computer shot in the making. `advance(dt)` moves it on by one frame and returns
    the action to play once the showing time is over (None before)."""

    session: Session
    level: Level
    candidates: int | None = None
    seed: int = 0
    slice_s: float = THINK_SLICE_S
    show_s: float = SHOW_S
    key: tuple[int, int, str] = field(init=False)
    thinker: Thinker = field(init=False)
    shown: float = 0.0  # animation seconds the choice has been shown
    clock: float = 0.0  # animation seconds since the turn began (the indicator's dots)
    played: bool = False

    def __post_init__(self) -> None:
        self.key = turn_key(self.session)
        lv = self.level
        if self.candidates is not None:
            lv = lv.with_search(candidates=self.candidates)
        self.thinker = Thinker(self.session, lv, self.seed)

    @property
    def thinking(self) -> bool:
        """The search is still running."""
        return not self.thinker.done

    @property
    def progress(self) -> float:
        """The fraction of the search done, 0..1."""
        return self.thinker.progress

    @property
    def choice(self) -> Choice | None:
        """The search's result once it is done, else None."""
        return self.thinker.choice

    def stuck(self) -> bool:
        """Nothing at all could be played from this position."""
        return self.thinker.done and (self.choice is None or self.choice.action is None)

    def advance(self, dt: float) -> dict[str, Any] | None:
        """One frame: think for a slice, or count the showing time; the action to shoot when
        it is due (once)."""
        self.clock += max(0.0, dt)
        if self.played or self.stuck():
            return None
        if self.thinking:
            self.thinker.step(self.slice_s)
            return None
        self.shown += max(0.0, dt)
        if self.shown < self.show_s:
            return None
        self.played = True
        assert self.choice is not None and self.choice.action is not None
        return self.choice.action

    def indicator(self, name: str) -> str:
        """The animated thinking line, e.g. 'Computer is thinking, 40 % done..' (one to three
        dots, changing DOTS_PER_S times a second)."""
        dots = "." * (1 + int(self.clock * DOTS_PER_S) % 3)
        return f"{name} is thinking, {round(100 * self.progress)} % done{dots}"


def turn_key(session: Session) -> tuple[int, int, str]:
    """What a computer turn belongs to: the session, its revision (every action played or
    taken back: the count of actions came back after an undo, and the turn already played
    was reused, so the computer found no shot), who shoots. A changed key (undo, load, a new
    game) makes the turn stale."""
    return (id(session), session.revision, session.shooter())


def new_turn(session: Session, level: str | Level = DEFAULT_LEVEL,
             candidates: int | None = None, seed: int = 0) -> ComputerTurn:
    """A computer turn for the session's shooter."""
    return ComputerTurn(session, get_level(level), candidates, seed)
