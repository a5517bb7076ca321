"""What one shot's event log says in the terms of 5-pins articles 5-8, 12 and 15: the ball the
cue struck, when the striker's ball first touched the opponent's ball and the red, the first
carom (8.2), every pin knocked with the ball whose chain of thrown pins knocked it (12.1,
12.3), the pins touched but left standing (12.4, 12.5: a `collide` event with a pin and no
`pin` event for it), and the striker's first contact (10.1, 10.2)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from cuesim.rules.fivepins.model import BALLS, PINS, RED
from cuesim.sim.events import EventKind
from cuesim.sim.result import Event

SIMULTANEOUS_S = 1e-6  # s: contacts closer in time than this happen "at the same time" (5.7)
DIRECT = "direct"  # 8.2: the striker's ball on the opponent's ball, then on the red (4)
RICOCHET = "ricochet"  # 8.2: the striker's ball on the opponent's, that one on the red (3)
CAROM_POINTS = {DIRECT: 4, RICOCHET: 3}


@dataclass(frozen=True)
class KnockedPin:
    """A pin knocked down (12.1) at time t by `by` (a ball or a thrown pin); `origin` is the
    ball at the start of the chain of thrown pins (12.3), or the thrown pin when the log does
    not say who threw it."""

    pin: str
    t: float
    by: str
    origin: str


@dataclass
class ShotFacts:
    events: list[Event]
    striker: str  # the player's own ball
    opponent: str  # the opponent's ball
    struck: str | None = None  # the ball the cue struck (STRIKE)
    t_opponent: float | None = None  # the striker's ball first touches the opponent's ball
    t_red: float | None = None  # the striker's ball first touches the red
    pins: list[KnockedPin] = field(default_factory=list)
    carom: str | None = None  # DIRECT, RICOCHET or None: the first carom (8.2)
    carom_t: float | None = None
    both_on_red: bool = False  # 5.7: the direct carom and the opponent's ball on the red at once
    first_contact: Event | None = None  # the striker's ball's first collision or cushion
    touched: list[str] = field(default_factory=list)  # pins hit but left standing (12.4, 12.5)

    @staticmethod
    def from_events(events: list[Event], striker: str, opponent: str) -> ShotFacts:
        evs = sorted(events, key=lambda e: e.t)
        f = ShotFacts(evs, striker, opponent)
        origin: dict[str, str] = {}
        for e in evs:
            if e.kind == EventKind.STRIKE and f.struck is None:
                f.struck = e.a
            elif e.kind == EventKind.COLLIDE and e.a in BALLS and e.b in BALLS:
                pair = {e.a, e.b}
                if striker in pair and f.first_contact is None:
                    f.first_contact = e
                if pair == {striker, opponent} and f.t_opponent is None:
                    f.t_opponent = e.t
                elif pair == {striker, RED} and f.t_red is None:
                    f.t_red = e.t
            elif e.kind == EventKind.RAIL and e.a == striker and f.first_contact is None:
                f.first_contact = e
            elif e.kind == EventKind.PIN and e.b in PINS and e.b not in origin:
                by = e.a
                origin[e.b] = origin.get(by, by) if by in PINS else by
                f.pins.append(KnockedPin(e.b, e.t, by, origin[e.b]))
            elif e.kind == EventKind.COLLIDE and (e.a in PINS or e.b in PINS):
                for pid in (e.a, e.b):
                    if pid in PINS and pid not in f.touched:
                        f.touched.append(pid)
        f.touched = [p for p in f.touched if p not in origin]
        f._trace_origins(origin)
        f._find_carom()
        return f

    def _trace_origins(self, origin: dict[str, str]) -> None:
        """12.3: a pin knocked by a thrown pin whose own knock is logged after it, at the same
        instant (the log's order within an instant is free), gets that pin's origin too."""
        for _ in self.pins:
            stale = [k for k, p in enumerate(self.pins)
                     if p.origin in PINS and origin.get(p.origin, p.origin) != p.origin]
            if not stale:
                return
            for k in stale:
                p = self.pins[k]
                origin[p.pin] = origin[p.origin]
                self.pins[k] = replace(p, origin=origin[p.origin])

    def _find_carom(self) -> None:
        """8.2: only the first carom after the striker's ball has touched the opponent's ball,
        and none when the striker's ball touched the red first (15.3.б)."""
        t0 = self.t_opponent
        if t0 is None or self.red_first:
            return
        direct = ricochet = None
        for e in self.events:
            # the red touched at the same time as the opponent's ball (within SIMULTANEOUS_S,
            # as red_first reads it) is a carom too, whichever event the log has first
            if e.kind != EventKind.COLLIDE or e.t < t0 - SIMULTANEOUS_S \
                    or RED not in (e.a, e.b):
                continue
            other = e.b if e.a == RED else e.a
            if other == self.striker and direct is None:
                direct = e.t
            elif other == self.opponent and ricochet is None:
                ricochet = e.t
        if direct is None and ricochet is None:
            return
        if ricochet is None or (direct is not None and direct <= ricochet + SIMULTANEOUS_S):
            self.carom, self.carom_t = DIRECT, direct
            self.both_on_red = ricochet is not None and abs(ricochet - direct) <= SIMULTANEOUS_S
        else:
            self.carom, self.carom_t = RICOCHET, ricochet

    def without_pins(self, names: set[str]) -> ShotFacts:
        """The same facts with the named pins not knocked down: pins the referee saw only
        moved (12.4, 12.5) count for no foul either (15.2, 15.3.в only name pins knocked)."""
        if not names:
            return self
        return replace(self, pins=[k for k in self.pins if k.pin not in names])

    def as_played(self) -> ShotFacts:
        """The facts of a wrong-ball shot (7.4, 15.3.а) with the ball the cue struck in the
        striker's place: its first carom (8.2) is the struck ball's, on the other player's
        ball and then the red (4) or a ricochet of that ball on the red (3). A struck red
        plays no carom (8.2 names the red as the third ball); its pins still count."""
        if self.struck is None or self.struck == self.striker:
            return self
        if self.struck == self.opponent:
            return ShotFacts.from_events(self.events, self.opponent, self.striker)
        return replace(self, carom=None, carom_t=None, both_on_red=False)

    # -- questions ------------------------------------------------------------------------
    @property
    def stroke(self) -> bool:
        return bool(self.events)

    @property
    def hit_opponent(self) -> bool:
        return self.t_opponent is not None

    @property
    def red_first(self) -> bool:
        """The striker's ball touched the red before the opponent's ball (7.2, 15.3.б)."""
        return self.t_red is not None and (self.t_opponent is None
                                           or self.t_red < self.t_opponent - SIMULTANEOUS_S)

    def knocked(self, exclude: set[str] | None = None) -> list[str]:
        return [k.pin for k in self.pins if not exclude or k.pin not in exclude]

    def pins_by(self, ball: str, before: float | None = None,
                after: float | None = None) -> list[KnockedPin]:
        """Pins whose chain started at `ball`, knocked before / after the given times."""
        return [k for k in self.pins if k.origin == ball
                and (before is None or k.t < before) and (after is None or k.t > after)]

    def striker_pins_before_opponent(self) -> list[KnockedPin]:
        """15.3.в: pins the striker's ball knocked before it touched the opponent's ball (a
        pin knocked at the same time, within SIMULTANEOUS_S, is not before it: as the red in
        `red_first`)."""
        if self.t_opponent is None:
            return self.pins_by(self.striker)
        return self.pins_by(self.striker, before=self.t_opponent - SIMULTANEOUS_S)

    def striker_pins_after_opponent(self) -> list[KnockedPin]:
        """15.2, 7.3: pins the striker's ball knocked after a correct hit, or at the same time
        (within SIMULTANEOUS_S); every pin of the striker's chain is one or the other."""
        if self.t_opponent is None:
            return []
        before = {id(k) for k in self.striker_pins_before_opponent()}
        return [k for k in self.pins_by(self.striker) if id(k) not in before]
