"""Hand-written pool event logs and layouts for the WPA referee tests."""

from __future__ import annotations

from cuesim.rules.pool import Declaration, NineBall, PoolShot
from cuesim.rules.ruling import Infraction
from cuesim.sim.events import EventKind
from cuesim.sim.result import Event
from cuesim.tables.layout import Layout, Piece
from cuesim.tables.pool_spots import FOOT_SPOT, PLAYING_WIDTH

W = PLAYING_WIDTH
KITCHEN_CUE = (W / 2, 0.40)  # behind the head string (0.635)
MID = (W / 2, 1.20)  # a free spot beyond the head string
ASIDE = (0.2, 2.0)  # another, out of the way (the 9 a 9-ball shot needs on the table)
NINE = [str(n) for n in range(1, 10)]  # the 9-ball rack's balls


def nine_in_play(**kw) -> NineBall:
    """A 9-ball game between Ann and Bob past its break, Ann to shoot the ball where it lies;
    `kw` sets state fields."""
    g = NineBall(players=("Ann", "Bob"))
    g.state.phase = "play"
    g.state.ball_in_hand = None
    for k, v in kw.items():
        setattr(g.state, k, v)
    return g


def strike(t: float = 0.0, a: str = "cue") -> Event:
    return Event(t, EventKind.STRIKE, a)


def hit(t: float, b: str, a: str = "cue") -> Event:
    return Event(t, EventKind.COLLIDE, a, b)


def wave(t: float, first: str, ids: list[str]) -> list[Event]:
    """A frozen rack set in motion at the instant the cue ball hits its first ball: the
    multiple impact logs a contact into each of the others (the referee's checks refuse a
    ball that moves with nothing touching it)."""
    return [hit(t, b, first) for b in ids if b not in (first, "cue")]


def rail(t: float, a: str, cushion: str = "foot_rail") -> Event:
    return Event(t, EventKind.RAIL, a, feature=cushion)


def pocket(t: float, a: str, name: str = "foot_left") -> Event:
    return Event(t, EventKind.POCKET, a, feature=name)


def cross(t: float, a: str = "cue", direction: int = 1, line: str = "head_string") -> Event:
    return Event(t, EventKind.LINE, a, feature=line, direction=direction)


def layout(positions: dict[str, tuple[float, float]]) -> Layout:
    return Layout("pool_9ft", tuple(Piece(b, "ball", x, y) for b, (x, y) in positions.items()))


def spread(ids: list[str], cue: tuple[float, float] | None = MID) -> dict:
    """Balls in a loose grid beyond the head string, far from the long string and spots."""
    out = {} if cue is None else {"cue": cue}
    for k, b in enumerate(ids):
        out[b] = (0.15 + 0.12 * (k % 4), 0.9 + 0.15 * (k // 4))
    return out


def shot(events: list[Event], positions: dict, final: dict | None = None,
         infractions: list[Infraction] | None = None, **decl: object) -> PoolShot:
    initial = layout(positions)
    if final is None:
        gone = {e.a for e in events if e.kind == EventKind.POCKET}
        gone |= {p for i in infractions or [] if i.code == "off_table" for p in i.pieces}
        final_layout = initial.without(gone)
    else:
        final_layout = layout(final)
    return PoolShot(events, initial, final_layout, Declaration(**decl), list(infractions or []))


def choice(option: str) -> PoolShot:
    return PoolShot(declaration=Declaration(choice=option))


def foul(code: str, *pieces: str, player: str = "") -> Infraction:
    return Infraction(code, player, tuple(pieces))


def articles(outcome: object) -> list[str]:
    return [v.article for v in outcome.ruling.violations]


def rack_positions(ids: list[str]) -> dict:
    """Balls near the foot spot region but not on the long string (for breaks)."""
    fx, fy = FOOT_SPOT
    return {b: (fx - 0.3 + 0.06 * (k % 10), fy + 0.1 + 0.06 * (k // 10)) for k, b in
            enumerate(ids)}
