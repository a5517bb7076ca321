"""What one shot's event log says, in the terms the WPA articles use: the first ball the cue
ball hits, what was pocketed and where, which balls reached a cushion after that contact,
head-string crossings, and whether a pocketed ball was driven in directly (an obvious shot)
or by a bank or a combination (4.2)."""

from __future__ import annotations

from dataclasses import dataclass, field

from cuesim.rules.pool.model import CUE
from cuesim.sim.events import EventKind
from cuesim.sim.result import Event
from cuesim.tables.layout import Layout
from cuesim.tables.pool_spots import HEAD_STRING_LINE, SIMULTANEOUS_S, rail_of


@dataclass
class ShotFacts:
    events: list[Event]
    struck: str | None = None  # the ball the cue tip struck (STRIKE)
    first_hits: list[str] = field(default_factory=list)  # balls the cue ball touched first
    first_hit_t: float | None = None
    pocketed: list[tuple[str, str]] = field(default_factory=list)  # (ball, pocket) in order
    off_table: list[str] = field(default_factory=list)  # declared (3.28)
    # balls touching a cushion at the start of the shot -> that cushion's table rail ('head',
    # 'foot', 'left', 'right'): the cue ball as it lies, object balls as announced (3.38)
    at_rail: dict[str, str] = field(default_factory=dict)
    # the layout before the shot and the balls announced frozen (declaration.frozen): what 2.16
    # reads (`general.met_unwarned`), only when a rail requirement is not met otherwise
    initial: Layout | None = None
    announced: dict[str, str] = field(default_factory=dict)

    @staticmethod
    def from_events(events: list[Event], off_table: list[str] | None = None) -> ShotFacts:
        evs = sorted(events, key=lambda e: e.t)
        f = ShotFacts(evs, off_table=list(off_table or []))
        for e in evs:
            if e.kind == EventKind.STRIKE and f.struck is None:
                f.struck = e.a
            elif e.kind == EventKind.POCKET:
                if e.a not in f.pocketed_ids:
                    f.pocketed.append((e.a, e.feature or ""))
        for e in evs:
            if e.kind == EventKind.COLLIDE and CUE in (e.a, e.b):
                other = e.b if e.a == CUE else e.a
                if f.first_hit_t is None:
                    f.first_hit_t = e.t
                if e.t - f.first_hit_t <= SIMULTANEOUS_S:
                    if other not in f.first_hits:
                        f.first_hits.append(other)
                else:
                    break
        return f

    # -- basic questions ------------------------------------------------------------------
    @property
    def stroke(self) -> bool:
        """A stroke was played (anything happened)."""
        return bool(self.events)

    @property
    def pocketed_ids(self) -> list[str]:
        return [b for b, _ in self.pocketed]

    @property
    def object_pocketed(self) -> list[str]:
        return [b for b, _ in self.pocketed if b != CUE]

    def pocket_of(self, ball: str) -> str | None:
        for b, p in self.pocketed:
            if b == ball:
                return p
        return None

    @property
    def cue_pocketed(self) -> bool:
        return CUE in self.pocketed_ids

    @property
    def cue_off_table(self) -> bool:
        return CUE in self.off_table

    @property
    def scratch(self) -> bool:
        """The cue ball was pocketed (3.20) or left the table (3.28)."""
        return self.cue_pocketed or self.cue_off_table

    @property
    def objects_off_table(self) -> list[str]:
        return [b for b in self.off_table if b != CUE]

    def first_legal_hit(self, legal: set[str]) -> str | None:
        """The ball the cue ball hit first; among simultaneous first hits, a legal one if any
        (2.10 / 1.16.4: the benefit of the doubt goes to the shooter)."""
        if not self.first_hits:
            return None
        for b in self.first_hits:
            if b in legal:
                return b
        return self.first_hits[0]

    def rail_after_contact(self, exclude: set[str] | None = None) -> set[str]:
        """Balls (cue or numbered) driven to a cushion at or after the first contact (a ball
        already touching that rail's cushion counts only by `driven`)."""
        if self.first_hit_t is None:
            return set()
        out = set()
        for e in self.events:
            if e.kind == EventKind.RAIL and e.t >= self.first_hit_t and self.driven(e):
                if not exclude or e.a not in exclude:
                    out.add(e.a)
        return out

    def driven(self, rail_event: Event) -> bool:
        """Whether a cushion contact drove the ball to that rail (3.38's note): a ball that
        touched a cushion of the same table rail at the start of the shot (`at_rail`) was
        driven to it only if it left the cushion, hit another ball and came back. Read from
        the log: it left before a collision at t_c when it was moving by then (after the
        stroke for the cue ball, after its first collision for an object ball) and was not
        being pressed into that rail at t_c (no contact of it with that rail at the same
        instant); the cushion's reaction to a ball pushed against it is no contact gained."""
        ball = rail_event.a
        rail = self.at_rail.get(ball)
        if rail is None or rail_of(rail_event.feature or "") != rail:
            return True
        hits = [e.t for e in self.events if e.kind == EventKind.COLLIDE and ball in (e.a, e.b)
                and e.t < rail_event.t - SIMULTANEOUS_S]
        moving_from = 0.0 if ball == CUE else (hits[0] if hits else rail_event.t)
        pressed = [e.t for e in self.events if e.kind == EventKind.RAIL and e.a == ball
                   and rail_of(e.feature or "") == rail]
        return any(t > moving_from + SIMULTANEOUS_S
                   and not any(abs(t - tp) <= SIMULTANEOUS_S for tp in pressed)
                   for t in hits)

    def balls_to_rail(self) -> set[str]:
        """Numbered balls that touched a cushion at any time in the shot (break counts)."""
        return {e.a for e in self.events if e.kind == EventKind.RAIL and e.a != CUE}

    def rails_of(self, ball: str, after: float = 0.0) -> list[Event]:
        return [e for e in self.events
                if e.kind == EventKind.RAIL and e.a == ball and e.t >= after]

    def cue_left_kitchen_before(self, t: float | None) -> bool:
        """The cue ball's centre crossed the head string toward the foot rail before time t
        (any time in the shot when t is None)."""
        for e in self.events:
            if t is not None and e.t > t:
                break
            if (e.kind == EventKind.LINE and e.a == CUE and e.feature == HEAD_STRING_LINE
                    and e.direction > 0):
                return True
        return False

    def cue_hit_pocketed_ball(self) -> str | None:
        """A ball the cue ball touched after that ball had been pocketed (3.20)."""
        down: dict[str, float] = {}
        for e in self.events:
            if e.kind == EventKind.POCKET:
                down.setdefault(e.a, e.t)
            elif e.kind == EventKind.COLLIDE and CUE in (e.a, e.b):
                other = e.b if e.a == CUE else e.a
                if other in down and e.t > down[other]:
                    return other
        return None

    def collided_after(self, ball: str, t: float, exclude: str | None = None) -> bool:
        """The ball collided with some ball other than `exclude` after time t."""
        for e in self.events:
            if e.kind == EventKind.COLLIDE and e.t > t and ball in (e.a, e.b):
                other = e.b if e.a == ball else e.a
                if other != exclude:
                    return True
        return False

    def is_direct(self, ball: str) -> bool:
        """The ball was pocketed by an obvious shot (4.2): the cue ball hit it first, and it
        touched no cushion and no other object ball before it dropped. Banks and combinations
        are not obvious and need a call. The jaws and knuckles of the pocket it drops into are
        part of that pocket (a ball rattling in and dropping is potted, not banked); a jaw or
        knuckle of another pocket is a cushion it came off."""
        if ball not in self.first_hits:
            return False
        dropped = self.pocket_of(ball)
        for e in self.events:
            if e.kind == EventKind.POCKET and e.a == ball:
                return True
            if e.kind == EventKind.RAIL and e.a == ball:
                if dropped and (e.feature or "").startswith(dropped + "_"):
                    continue
                return False
            if e.kind == EventKind.COLLIDE and ball in (e.a, e.b):
                other = e.b if e.a == ball else e.a
                if other != CUE:
                    return False
        return False
