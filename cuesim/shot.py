"""Shots: what the player does with the cue, checked before anything is simulated."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from cuesim.tables.balls import CUE_END_MASS, CUE_MASS, MAX_CUE_SPEED
from cuesim.tables.layout import Layout, LayoutError, Piece
from cuesim.tables.novus import MAX_STRIKE_SPEED, NOVUS_SIDES, STRIKER_TOUCH_GAP, NovusTable
from cuesim.tables.numbers import MAX_AIM_ANGLE, finite_real


class ShotError(ValueError):
    """A shot that cannot be played as given (the message says why and how to fix it)."""


class ShotLayoutError(ShotError, LayoutError):
    """A shot that cannot be played because its layout does not fit the table (a piece off the
    board, on a hole or overlapping another): both a ShotError and the table check's
    LayoutError, so either `except` catches it."""


def _check_numbers(shot: Any, names: tuple[str, ...]) -> None:
    """Each named field a finite real number, kept as a Python float (numpy's are taken)."""
    for name in names:
        value = getattr(shot, name)
        if type(value) is float and value - value == 0.0:  # the common case, finite
            continue
        if not _finite_real(value):
            raise ShotError(f"shot {name} must be a finite number, got {value!r}")
        object.__setattr__(shot, name, float(value))


def _check_angle(angle: float) -> None:
    if abs(angle) > MAX_AIM_ANGLE:
        raise ShotError(f"shot angle {angle!r} rad is more than a thousand turns; give the aim "
                        f"within [-{MAX_AIM_ANGLE:.1f}, {MAX_AIM_ANGLE:.1f}] rad (one turn is "
                        "2 pi)")


def _check_speed(what: str, speed: float, limit: float, beyond: str) -> None:
    if speed <= 0.0:
        raise ShotError(f"{what} speed must be positive, got {speed} m/s")
    if speed > limit:
        raise ShotError(f"{what} speed {speed} m/s is beyond {beyond} (at most {limit} m/s)")


def _finite_real(value: Any) -> bool:
    """A finite real number of any numeric type (numpy's too), not a bool."""
    return finite_real(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and finite_real(value)


def _fields(data: Any, source: str, required: tuple[str, ...], optional: tuple[str, ...],
            schema: str) -> dict[str, float]:
    """The numeric fields of a shot dict as floats (optional ones may be null or absent)."""
    if not isinstance(data, dict):
        raise ShotError(f"{source} must be an object with {schema}, got {type(data).__name__}")
    out = {}
    for name in required + optional:
        value = data.get(name)
        if value is None and name in optional:
            continue
        if name not in data:
            raise ShotError(f"{source} is missing field {name!r} (needs {schema})")
        if not _is_number(value):
            raise ShotError(f"{source}.{name} must be a finite number, got {value!r}")
        out[name] = float(value)
    return out


def striker_others(layout: Layout) -> Layout:
    """The novus layout's pieces other than the struck striker (id 'striker'), checked: the
    piece 'striker', where present, is of kind 'striker' and is the layout's only striker
    (26.1); ShotError otherwise. `NovusShot.place` and the batch's setup share it."""
    has_striker = "striker" in layout.ids()
    if has_striker and layout.get("striker").kind != "striker":
        raise ShotError(f"the layout's piece 'striker' is of kind "
                        f"{layout.get('striker').kind!r}; the shot strikes the striker "
                        "(kind 'striker')")
    others = layout.without(["striker"]) if has_striker else layout
    extra = [p.id for p in others.pieces if p.kind == "striker"]
    if extra:
        raise ShotError(f"the layout has a striker {extra[0]!r} besides the one the shot "
                        "strikes (id 'striker'): a novus layout has one striker (26.1)")
    return others


def check_struck_ball(layout: Layout, ball: str, in_hand: tuple[tuple[str, str], ...] = ()
                      ) -> None:
    """ShotError unless `ball` is a ball of the layout: the cue strikes a ball, never a pin.
    A ball of `in_hand` (the table's `cue_balls`) the layout lacks is put down by a shot with a
    position, so the message says so. `CueShot.place` and the batch's setup share it."""
    balls = [p.id for p in layout.pieces if p.kind == "ball"]
    if ball not in layout.ids():
        hint = ("; give its position (ball in hand) to put it down"
                if ball in dict(in_hand) else "")
        raise ShotError(f"no ball {ball!r} on the table; balls are {balls}{hint}")
    if layout.get(ball).kind != "ball":
        raise ShotError(f"the cue strikes a ball, and {ball!r} is a "
                        f"{layout.get(ball).kind}; balls are {balls}")


@dataclass(frozen=True)
class NovusShot:
    """A novus shot, in the frame of the player on `side` (novus 12).

    x: where the striker's centre stands along the player's rail, from his left corner (m);
    y: its distance from his rail (m); None puts it in the middle of the legal strip;
    angle: direction of the shot (rad), 0 = to the player's right, pi/2 = straight ahead
        (within a thousand turns either way, tables.numbers.MAX_AIM_ANGLE);
    speed: the striker's speed just after the cue (m/s);
    offset: where the cue meets the striker, to the right of its centre line (m); it gives
    the spin w = m v offset / I (counter-clockwise for a positive offset).
    """

    x: float
    angle: float
    speed: float
    y: float | None = None
    offset: float = 0.0
    side: str = "south"

    def __post_init__(self) -> None:
        """What needs no table is checked here (ShotError naming the field); the striker's
        place in the zone and the tip offset against its radius when it is played."""
        _check_numbers(self, ("x", "angle", "speed", "offset"))
        _check_angle(self.angle)
        if self.y is not None:
            _check_numbers(self, ("y",))
        if not isinstance(self.side, str) or self.side not in NOVUS_SIDES:
            raise ShotError(f"unknown side {self.side!r}; sides are {list(NOVUS_SIDES)}")
        _check_speed("shot", self.speed, MAX_STRIKE_SPEED, "what a cue gives a striker")

    def to_dict(self) -> dict[str, Any]:
        """The shot as plain JSON types (`NovusShot.from_dict` reads it back)."""
        return {"game": "novus", "side": self.side, "x": self.x, "y": self.y,
                "angle": self.angle, "speed": self.speed, "offset": self.offset}

    @staticmethod
    def from_dict(data: Any, source: str = "shot") -> NovusShot:
        """The shot of `to_dict`, checked: ShotError naming `source` and the field."""
        fields = _fields(data, source, ("x", "angle", "speed"), ("y", "offset"),
                         "x, angle, speed; optional y, offset, side")
        side = data.get("side", "south")
        if not isinstance(side, str):
            raise ShotError(f"{source}.side must be one of {list(NOVUS_SIDES)}, got {side!r}")
        try:
            return NovusShot(x=fields["x"], angle=fields["angle"], speed=fields["speed"],
                             y=fields.get("y"), offset=fields.get("offset", 0.0), side=side)
        except ShotError as exc:
            raise ShotError(f"{source}: {exc}") from None

    def striker_position(self, table: NovusTable) -> tuple[float, float]:
        """The striker's centre in the table frame, checked against the legal strip."""
        (u0, u1), (w0, w1) = table.striker_strip()
        y = (w0 + w1) / 2 if self.y is None else self.y
        if not (u0 - 1e-12 <= self.x <= u1 + 1e-12 and w0 - 1e-12 <= y <= w1 + 1e-12):
            raise ShotError(
                f"novus 12: the striker at x={self.x:.4f}, y={y:.4f} m is outside the "
                f"{self.side} player's zone; its hole must lie wholly inside the rail zone "
                f"between the side zone lines: x in [{u0:.4f}, {u1:.4f}], "
                f"y in [{w0:.4f}, {w1:.4f}] m from his rail"
            )
        return table.to_table(self.side, self.x, y)

    def striker_motion(self, table: NovusTable) -> tuple[float, float, float]:
        """(vx, vy, w) of the striker in the table frame."""
        spec = table.piece_spec("striker")
        if abs(self.offset) >= spec.radius:
            raise ShotError(f"tip offset {self.offset} m misses the striker: it must be smaller "
                            f"than its radius {spec.radius} m")
        heading = table.direction_to_table(self.side, self.angle)
        vx, vy = self.speed * math.cos(heading), self.speed * math.sin(heading)
        w = spec.mass * self.speed * self.offset / spec.inertia
        return vx, vy, w

    def place(self, table: NovusTable, layout: Layout) -> Layout:
        """The layout with the striker put where this shot plays it (added if absent).
        The striker must not touch a puck when placed (novus 12): a gap under
        STRIKER_TOUCH_GAP is refused."""
        x, y = self.striker_position(table)
        has_striker = "striker" in layout.ids()
        others = striker_others(layout)
        try:
            table.check_layout(others)
        except LayoutError as exc:
            raise ShotLayoutError(str(exc)) from None
        if len(others):
            pos, radii = table.layout_arrays(others)
            gaps = (np.hypot(pos[:, 0] - x, pos[:, 1] - y) - radii
                    - table.piece_spec("striker").radius)
            k = int(np.argmin(gaps))
            if gaps[k] < STRIKER_TOUCH_GAP:
                how = (f"overlap {-gaps[k] * 1000:.2f} mm" if gaps[k] <= 0.0 else
                       f"{gaps[k] * 1e6:.2f} um apart, under {STRIKER_TOUCH_GAP * 1e6:g} um")
                raise ShotError(f"novus 12: the striker at ({x:.4f}, {y:.4f}) touches "
                                f"{others.pieces[k].id!r} ({how}); move it along the zone to "
                                "a free place")
        if has_striker:
            return layout.moved("striker", x, y)
        return layout.with_piece(Piece("striker", "striker", x, y))


def novus_shot_arrays(table: NovusTable, side: str, x: np.ndarray, y: np.ndarray,
                      angle: np.ndarray, speed: np.ndarray, offset: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Many novus shots from one side at once (float64 arrays; y NaN: the middle of the
    strip): (place, motion, plain), the striker's centre (n, 2) and its (vx, vy, 0, 0, w)
    (n, 5) in the table frame, with the same operations in the same order as
    `NovusShot.striker_position` and `striker_motion` (so the same bytes; the sine and cosine
    from the same libm), and where every check of `NovusShot` plainly passes. A row that is
    not plain is left to `NovusShot`, which says what is wrong with it (or plays it, on the
    edge of a bound). The striker's gap to the pucks is the caller's (novus 12)."""
    (u0, u1), (w0, w1) = table.striker_strip()
    spec = table.piece_spec("striker")
    c, sn, ox, oy = table.side_frame(side)
    y = np.where(np.isnan(y), (w0 + w1) / 2, y)
    plain = (np.isfinite(x) & np.isfinite(y) & np.isfinite(angle) & np.isfinite(offset)
             & (np.abs(angle) <= MAX_AIM_ANGLE) & (speed > 0.0) & (speed <= MAX_STRIKE_SPEED)
             & (u0 - 1e-12 <= x) & (x <= u1 + 1e-12) & (w0 - 1e-12 <= y) & (y <= w1 + 1e-12)
             & (np.abs(offset) < spec.radius))
    n = len(x)
    place = np.empty((n, 2))
    place[:, 0] = ox + c * x - sn * y
    place[:, 1] = oy + sn * x + c * y
    heading = angle + table.direction_to_table(side, 0.0)
    heading[~plain] = 0.0
    motion = np.zeros((n, 5))
    motion[:, 0] = speed * np.fromiter(map(math.cos, heading), np.float64, n)
    motion[:, 1] = speed * np.fromiter(map(math.sin, heading), np.float64, n)
    motion[:, 4] = spec.mass * speed * offset / spec.inertia
    return place, motion, plain


@dataclass(frozen=True)
class CueShot:
    """A cue shot on a ball table (pool, carom).

    ball: the id of the struck ball ('cue' in pool, 'white' or 'yellow' in carom);
    angle: aim direction in the table frame (rad, 0 = +x, pi/2 = toward the foot rail; within
    a thousand turns either way): the cue's line; with side english the ball leaves off it by
    the squirt angle, away from the side struck (about 2 degrees on a pool ball at side 0.5:
    `cuesim.sim.cue.squirt_angle`);
    speed: the cue's speed at impact (m/s);
    side, height: tip offsets right of and above the ball's centre, as fractions of its
    radius (|(side, height)| <= 0.5: beyond that the cue miscues);
    elevation: the cue's elevation (rad, butt raised);
    position: (x, y) to place the ball first (ball in hand; a cue ball the layout lacks, as
    after a scratch, is put down there), or None to play it where it lies;
    end_mass: the cue's effective end mass (kg), which sets its squirt: a standard shaft's
    5.7 g by default (tables.balls.CUE_END_MASS), less for a low-deflection shaft, 0 for a cue
    without squirt; at most the cue's mass.
    """

    angle: float
    speed: float
    side: float = 0.0
    height: float = 0.0
    elevation: float = 0.0
    ball: str = "cue"
    position: tuple[float, float] | None = None
    end_mass: float = CUE_END_MASS

    def __post_init__(self) -> None:
        """What needs no table is checked here (ShotError naming the field); the miscue
        limit and the ball's place when it is played. A position is kept as a tuple of two
        floats (a numpy pair is taken)."""
        _check_numbers(self, ("angle", "speed", "side", "height", "elevation", "end_mass"))
        _check_angle(self.angle)
        if not 0.0 <= self.end_mass <= CUE_MASS:
            raise ShotError(f"shot end_mass must lie in [0, {CUE_MASS}] kg (0: a cue without "
                            f"squirt; at most the cue's mass), got {self.end_mass!r}")
        if not isinstance(self.ball, str) or not self.ball:
            raise ShotError(f"shot ball must be the id of the struck ball, got {self.ball!r}")
        pos = self.position
        if pos is not None:
            if not (isinstance(pos, list | tuple | np.ndarray) and len(pos) == 2
                    and all(_finite_real(v) for v in pos)):
                raise ShotError(f"shot position must be None or (x, y) in metres, got {pos!r}")
            if type(pos) is not tuple or type(pos[0]) is not float or type(pos[1]) is not float:
                object.__setattr__(self, "position", (float(pos[0]), float(pos[1])))
        _check_speed("cue", self.speed, MAX_CUE_SPEED, "a human stroke")

    def to_dict(self) -> dict[str, Any]:
        """The shot as plain JSON types (`CueShot.from_dict` reads it back); `end_mass` only
        when it is not the standard cue's."""
        out = {"ball": self.ball, "angle": self.angle, "speed": self.speed, "side": self.side,
               "height": self.height, "elevation": self.elevation,
               "position": list(self.position) if self.position else None}
        if self.end_mass != CUE_END_MASS:
            out["end_mass"] = self.end_mass
        return out

    @staticmethod
    def from_dict(data: Any, source: str = "shot") -> CueShot:
        """The shot of `to_dict`, checked: ShotError naming `source` and the field."""
        fields = _fields(data, source, ("angle", "speed"),
                         ("side", "height", "elevation", "end_mass"),
                         "angle, speed; optional side, height, elevation, ball, position, "
                         "end_mass")
        ball = data.get("ball", "cue")
        if not isinstance(ball, str) or not ball:
            raise ShotError(f"{source}.ball must be the id of the struck ball, got {ball!r}")
        position = data.get("position")
        if position is not None:
            if not (isinstance(position, list | tuple) and len(position) == 2
                    and all(_is_number(v) for v in position)):
                raise ShotError(f"{source}.position must be null or [x, y] in metres, got "
                                f"{position!r}")
            position = (float(position[0]), float(position[1]))
        try:
            return CueShot(angle=fields["angle"], speed=fields["speed"],
                           side=fields.get("side", 0.0), height=fields.get("height", 0.0),
                           elevation=fields.get("elevation", 0.0), ball=ball,
                           position=position, end_mass=fields.get("end_mass", CUE_END_MASS))
        except ShotError as exc:
            raise ShotError(f"{source}: {exc}") from None

    def ball_motion(self, table: Any) -> tuple[float, float, float, float, float]:
        """(vx, vy, wx, wy, wz) of the struck ball (cuesim.sim.cue)."""
        from cuesim.sim.cue import MiscueError, strike

        spec = table.piece_spec("ball")
        try:
            return strike(spec, self.speed, self.angle, self.side * spec.radius,
                          self.height * spec.radius, self.elevation, end_mass=self.end_mass)
        except (MiscueError, ValueError) as exc:
            raise ShotError(str(exc)) from None

    def place(self, table: Any, layout: Layout) -> Layout:
        """The layout with the struck ball where this shot plays it, checked. A cue ball the
        layout lacks (pocketed: `ShotResult.final` leaves it out) is put down at the
        shot's position, as ball in hand does (the table's `cue_balls`)."""
        in_hand = dict(getattr(table, "cue_balls", ()))
        if self.position is not None and self.ball in in_hand \
                and self.ball not in layout.ids():
            placed = layout.with_piece(Piece(self.ball, "ball", *self.position,
                                             in_hand[self.ball]))
        else:
            check_struck_ball(layout, self.ball, tuple(in_hand.items()))
            placed = layout
            if self.position is not None:
                placed = layout.moved(self.ball, *self.position)
        try:
            table.check_layout(placed)
        except LayoutError as exc:
            raise ShotLayoutError(str(exc)) from None
        return placed
