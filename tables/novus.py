"""The novus board, pucks, striker, their coefficients and the starting layouts.

Sources: the federation rulebook `novus_ru.txt` (articles 24-26, equipment) and
`novus_basics_en.md` (articles 10-12: starting position, zones, striker placement).
Frame: origin at the playing-surface corner on the first player's left, x to his right,
y away from him. The first player sits on the south side (y = 0).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import ClassVar

from cuesim.tables.base import PieceTable, physics_or_default, table_or_default
from cuesim.tables.coefficients import (
    FRICTION_BOUND,
    GRAVITY_BOUND,
    NON_NEGATIVE,
    SLIDING_BOUND,
    UNIT,
    Range,
    check_coefficients,
    repr_quiet_defaults,
    with_changes,
)
from cuesim.tables.contact import (
    BIRCH,
    HARDWOOD,
    IMPACT_STEPS,
    IMPACT_STEPS_RANGE,
    disc_on_rail,
    disc_pair,
)
from cuesim.tables.geometry import Hole, SensorCircle, SensorLine, TableGeometry
from cuesim.tables.layout import Layout, LayoutError, Piece
from cuesim.tables.numbers import finite_real, shown
from cuesim.tables.pieces import KindCoefficients, PieceSpec

# --- Board (novus 24.1, 24.2) --------------------------------------------------------------
BOARD_SIZE = 1.000  # m, playing surface 1 x 1 m (24.1)
RAIL_WIDTH = 0.045  # m, wooden rails 45 mm wide (24.1)
RAIL_HEIGHT = 0.025  # m, rail 25 mm above the surface (24.1)
HOLE_DIAMETER = 0.100  # m, four round holes of 100 mm (24.1)
HOLE_EDGE_FROM_RAIL = 0.015  # m, hole edge 15 mm from both rails (24.1)
HOLE_CENTRE_FROM_RAIL = HOLE_EDGE_FROM_RAIL + HOLE_DIAMETER / 2  # 65 mm, derived
ZONE_LINE_FROM_RAIL = 0.130  # m, rail-zone line 130 mm from the rail (24.2)
LINE_WIDTH = 0.001  # m, black lines 1 mm wide (24.2)
CENTRE_CIRCLE_DIAMETER = 0.250  # m, centre circle 250 mm (24.2)

# --- Pucks (novus 25.1) and striker (26.1) -------------------------------------------------
PUCK_DIAMETER = 0.030  # m (25.1)
PUCK_THICKNESS = 0.012  # m (25.1)
PUCK_HOLE_DIAMETER = 0.008  # m (25.1)
BIRCH_DENSITY = 640.0  # kg/m^3, estimate: birch 600-700 kg/m^3 (25.1 says "preferably birch")
PUCK_MASS = PieceSpec.annulus_mass(PUCK_DIAMETER / 2, PUCK_HOLE_DIAMETER / 2, PUCK_THICKNESS,
                                   BIRCH_DENSITY)  # ~5.0 g, estimate from volume and density

STRIKER_DIAMETER = 0.0445  # m, 44-45 mm (26.1): the middle of the range
STRIKER_THICKNESS = 0.0145  # m, 14-15 mm (26.1): the middle of the range
STRIKER_HOLE_DIAMETER = 0.0101  # m, 10-10.2 mm (26.1): the middle of the range
STRIKER_DENSITY = 700.0  # kg/m^3, estimate: unpainted solid hardwood (26.1)
STRIKER_MASS = PieceSpec.annulus_mass(STRIKER_DIAMETER / 2, STRIKER_HOLE_DIAMETER / 2,
                                      STRIKER_THICKNESS, STRIKER_DENSITY)  # ~15 g; 26.1: <= 22 g
STRIKER_MAX_MASS = 0.022  # kg (26.1)

# The striker placed closer to a puck than this touches it (12: placing it so is refused; a
# shot struck from such a placement is 17.1.л). A micron: far below what eye or hand tells apart.
STRIKER_TOUCH_GAP = 1e-6  # m
PUCKS_PER_PLAYER = 8  # novus 10: 8 pucks per player in one touching row
MAX_STRIKE_SPEED = 15.0  # m/s, sanity bound (estimate: hard novus shots reach 6-8 m/s)
GRAVITY = 9.80665  # m/s^2, standard gravity

# Sides of the board, as the rotation (degrees) from the first player's frame to that side's.
NOVUS_SIDES: dict[str, int] = {"south": 0, "east": 90, "north": 180, "west": 270}
OPPOSITE_SIDE = {"south": "north", "north": "south", "east": "west", "west": "east"}


# The physical range of each NovusPhysics field (cuesim.tables.coefficients): restitutions from
# perfectly inelastic to perfectly elastic, impact frictions from frictionless (0) up; the
# board's sliding friction must be positive, or a disc would never stop.
NOVUS_PHYSICS_RANGES: dict[str, Range] = {
    "mu_puck": Range(0.0, low_open=True, why="a disc stops after v / (mu g)"),
    "mu_striker": Range(0.0, low_open=True, why="a disc stops after v / (mu g)"),
    "e_puck_puck": UNIT,
    "e_striker_puck": UNIT,
    "e_rail": UNIT,
    "mu_impact": NON_NEGATIVE,
    "mu_rail_impact": NON_NEGATIVE,
    "v_stick": Range(0.0, low_open=True, why="model rule: the speed below which a contact is "
                                             "perfectly inelastic"),
    "g": Range(0.0, low_open=True, why="pieces are pressed onto the board"),
    "impact_steps": Range(*IMPACT_STEPS_RANGE),
}

# Sanity bounds above the physical ranges, checked after them: the physics has no upper bound
# for a friction coefficient or for g, but the core multiplies them (a deceleration mu g) and
# 1e308 of either overflowed into NaN positions, reported as a broken layout. Every value up to
# these bounds simulates to rest without NaN (tests/test_api_doors_types.py).
NOVUS_PHYSICS_SANITY: dict[str, Range] = {
    "mu_puck": SLIDING_BOUND,
    "mu_striker": SLIDING_BOUND,
    "mu_impact": FRICTION_BOUND,
    "mu_rail_impact": FRICTION_BOUND,
    "g": GRAVITY_BOUND,
}


@dataclass(frozen=True)
class NovusPhysics:
    """Friction and restitution of novus. No published measurements exist for boric acid on
    lacquered plywood, so every default is an estimate; override any field, or calibrate the
    sliding friction from one observation with `calibrated`.

    Discs slide with Coulomb friction: deceleration mu*g, stopping distance v^2 / (2 mu g).
    """

    mu_puck: float = 0.15  # estimate: powdered lacquer is very slippery (carrom: 0.1-0.3)
    mu_striker: float = 0.15  # estimate: same board, unpainted striker (26.1)
    e_puck_puck: float = 0.75  # estimate: lacquered birch on birch
    e_striker_puck: float = 0.75  # estimate: hardwood on lacquered birch
    e_rail: float = 0.60  # estimate: glued hardwood rails (24.4) absorb more than pucks
    mu_impact: float = 0.15  # estimate: tangential friction of disc-disc impacts
    mu_rail_impact: float = 0.20  # estimate: tangential friction of disc-rail impacts
    v_stick: float = 0.01  # m/s, model rule: slower contacts are perfectly inelastic (the pieces
    #                       then move on together); their stopping distance is < 0.04 mm
    g: float = GRAVITY
    impact_steps: float = IMPACT_STEPS  # the multiple impact's resolution (tables.contact)

    def __post_init__(self) -> None:
        check_coefficients(self, NOVUS_PHYSICS_RANGES)
        check_coefficients(self, NOVUS_PHYSICS_SANITY)

    def __repr__(self) -> str:
        return repr_quiet_defaults(self, {"impact_steps": IMPACT_STEPS})

    @classmethod
    def calibrated(cls, speed: float, distance: float, **overrides: float) -> NovusPhysics:
        """Physics whose pucks and striker, launched at `speed` m/s, stop after `distance` m.

        mu = v^2 / (2 g d).
        """
        g = overrides.get("g", GRAVITY)
        for name, value in (("speed", speed), ("distance", distance), ("g", g)):
            if not finite_real(value) or value <= 0:
                raise ValueError(f"calibration needs a positive speed and a positive distance: "
                                 f"{name} must be a finite number > 0, got {shown(value)}")
        mu = speed**2 / (2.0 * g * distance)
        return cls(**{"mu_puck": mu, "mu_striker": mu, **overrides})

    def with_(self, **changes: float) -> NovusPhysics:
        """A copy with the named coefficients changed (each validated as on construction; an
        unknown name is refused with the names there are)."""
        return with_changes(self, changes)

    def stop_distance(self, speed: float, kind: str = "puck") -> float:
        """v^2 / (2 mu g)."""
        return speed**2 / (2.0 * self.mu(kind) * self.g)

    def mu(self, kind: str) -> float:
        """The sliding friction coefficient of a piece kind ('puck' or 'striker')."""
        return self.mu_striker if kind == "striker" else self.mu_puck


def _board_geometry() -> TableGeometry:
    s, h = BOARD_SIZE, HOLE_CENTRE_FROM_RAIL
    holes = (
        Hole("south_west", h, h, HOLE_DIAMETER / 2),
        Hole("south_east", s - h, h, HOLE_DIAMETER / 2),
        Hole("north_east", s - h, s - h, HOLE_DIAMETER / 2),
        Hole("north_west", h, s - h, HOLE_DIAMETER / 2),
    )
    z = ZONE_LINE_FROM_RAIL
    lines = (  # the four rail-zone lines (24.2); direction +1 = crossing along the normal
        SensorLine("zone_south", 0.0, 1.0, z),
        SensorLine("zone_east", 1.0, 0.0, s - z),
        SensorLine("zone_north", 0.0, 1.0, s - z),
        SensorLine("zone_west", 1.0, 0.0, z),
    )
    circles = (SensorCircle("centre_circle", s / 2, s / 2, CENTRE_CIRCLE_DIAMETER / 2),)
    return TableGeometry.rectangle(s, s, holes=holes, lines=lines, circles=circles)


@lru_cache(maxsize=2)
def _disc_spec(kind: str) -> PieceSpec:
    """The striker's or a puck's PieceSpec (made once: a batch asks for it at every shot)."""
    if kind == "striker":
        return PieceSpec.annulus("striker", STRIKER_DIAMETER / 2, STRIKER_HOLE_DIAMETER / 2,
                                 STRIKER_THICKNESS, STRIKER_MASS)
    return PieceSpec.annulus("puck", PUCK_DIAMETER / 2, PUCK_HOLE_DIAMETER / 2,
                             PUCK_THICKNESS, PUCK_MASS)


@lru_cache(maxsize=1)
def _striker_strip() -> tuple[tuple[float, float], tuple[float, float]]:
    """NovusTable.striker_strip (novus 12), computed once."""
    striker = _disc_spec("striker")
    clear = striker.hole_radius + LINE_WIDTH / 2
    z = ZONE_LINE_FROM_RAIL
    return (z + clear, BOARD_SIZE - z - clear), (striker.radius, z - clear)


@dataclass(frozen=True)
class NovusTable(PieceTable):
    """The novus board with its pieces and physics."""

    surface_phrase = "on the board"
    __hash__ = PieceTable.__hash__

    physics: NovusPhysics = field(default_factory=NovusPhysics)
    name: str = "novus"
    geometry: TableGeometry = field(default_factory=_board_geometry)

    kinds: tuple[str, ...] = ("striker", "puck")
    single_kinds: ClassVar[tuple[str, ...]] = ("striker",)  # one striker is shot (26.1)

    def __post_init__(self) -> None:
        if not isinstance(self.physics, NovusPhysics):  # its fields check their own ranges
            raise ValueError(f"NovusTable.physics must be a NovusPhysics, got "
                             f"{shown(self.physics):.60} ({type(self.physics).__name__})")

    def piece_spec(self, kind: str) -> PieceSpec:
        """Radius, mass and inertia of a piece kind on the board ('puck' or 'striker')."""
        if kind in ("striker", "puck"):
            return _disc_spec(kind)
        raise LayoutError(f"novus has no piece kind {kind!r}; kinds are {list(self.kinds)}")

    def kind_coefficients(self) -> KindCoefficients:
        """The core's per-kind coefficients of the board (restitution, friction, compliance)."""
        p = self.physics
        decel, spin = [], []
        for kind in self.kinds:
            spec = self.piece_spec(kind)
            a = p.mu(kind) * p.g
            decel.append(a)
            # torque mu m g r_f over inertia m (R^2 + r^2)/2 (uniform pressure on the ring)
            spin.append(a * spec.friction_arm() / (spec.inertia / spec.mass))
        e_sp = p.e_striker_puck
        k_pair, eta_pair, k_rail, eta_rail = self.contact_laws()
        return KindCoefficients(
            kinds=self.kinds,
            decel=tuple(decel),
            spin_decel=tuple(spin),
            e_pair=((e_sp, e_sp), (e_sp, p.e_puck_puck)),
            mu_pair=((p.mu_impact, p.mu_impact), (p.mu_impact, p.mu_impact)),
            e_rail=(p.e_rail, p.e_rail),
            mu_rail=(p.mu_rail_impact, p.mu_rail_impact),
            v_stick=p.v_stick,
            stiffness_pair=k_pair,
            exponent_pair=eta_pair,
            stiffness_rail=k_rail,
            exponent_rail=eta_rail,
            impact_steps=p.impact_steps,
        )

    def contact_laws(self) -> tuple[tuple[tuple[float, ...], ...], tuple[tuple[float, ...], ...],
                                    tuple[float, ...], tuple[float, ...]]:
        """(k_pair, eta_pair, k_rail, eta_rail) of the kinds: disc edges in line contact
        (tables.contact.disc_pair) and disc on the hardwood rail (RAIL_HEIGHT, 24.1)."""
        mats = {"striker": HARDWOOD, "puck": BIRCH}
        specs = [self.piece_spec(k) for k in self.kinds]
        laws = [[disc_pair(a.thickness, mats[a.kind], b.thickness, mats[b.kind]) for b in specs]
                for a in specs]
        rail = [disc_on_rail(a.thickness, mats[a.kind], RAIL_HEIGHT, HARDWOOD) for a in specs]
        return (tuple(tuple(k for k, _ in row) for row in laws),
                tuple(tuple(e for _, e in row) for row in laws),
                tuple(k for k, _ in rail), tuple(e for _, e in rail))

    # -- frames and zones ---------------------------------------------------------------------
    def to_table(self, side: str, u: float, w: float) -> tuple[float, float]:
        """A point given in the frame of the player on `side` (u to his right, w away from his
        rail) in the table frame."""
        c, sn, ox, oy = _side_frame(side)
        return ox + c * u - sn * w, oy + sn * u + c * w

    def side_frame(self, side: str) -> tuple[float, float, float, float]:
        """(cos, sin, ox, oy) of the frame of the player on `side`: to_table(side, u, w) =
        (ox + cos u - sin w, oy + sin u + cos w)."""
        return _side_frame(side)

    def from_table(self, side: str, x: float, y: float) -> tuple[float, float]:
        """Inverse of to_table."""
        c, sn, ox, oy = _side_frame(side)
        dx, dy = x - ox, y - oy
        return c * dx + sn * dy, -sn * dx + c * dy

    def direction_to_table(self, side: str, angle: float) -> float:
        """An angle in the player's frame (radians, 0 = to his right, pi/2 = straight ahead)
        as an angle in the table frame."""
        return angle + math.radians(_side_rotation(side))

    def striker_strip(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """Where the striker's centre may stand, in the player's frame (novus 12): its hole
        wholly inside the own rail zone between the side zone lines, no line showing through
        it, and the striker on the board. Returns ((u_min, u_max), (w_min, w_max))."""
        return _striker_strip()


def _frame_of(side: str) -> tuple[float, float, float, float]:
    """(cos, sin) of the side's rotation and its frame's origin, the board corner at the
    player's left."""
    rot, s = NOVUS_SIDES[side], BOARD_SIZE
    ox, oy = {"south": (0, 0), "east": (s, 0), "north": (s, s), "west": (0, s)}[side]
    return math.cos(math.radians(rot)), math.sin(math.radians(rot)), ox, oy


_SIDE_FRAMES = {side: _frame_of(side) for side in NOVUS_SIDES}  # made once: a referee's
# zone checks turn every puck into each player's frame, several thousand times a second


def _side_frame(side: str) -> tuple[float, float, float, float]:
    try:
        return _SIDE_FRAMES[side]
    except (KeyError, TypeError):
        raise ValueError(f"unknown novus side {side!r}; sides are {list(NOVUS_SIDES)}") from None


def _side_rotation(side: str) -> int:
    try:
        return NOVUS_SIDES[side]
    except KeyError:
        raise ValueError(f"unknown novus side {side!r}; sides are {list(NOVUS_SIDES)}") from None


def _row(table: NovusTable, player_side: str, colour: str, first: int) -> list[Piece]:
    """The player's 8 pucks in a touching row against the rail opposite him, 4 each side of its
    middle line (novus 10): centres 15 mm from the rail at +-15, 45, 75, 105 mm."""
    r = PUCK_DIAMETER / 2
    pieces = []
    for k in range(PUCKS_PER_PLAYER):
        u = BOARD_SIZE / 2 + (k - (PUCKS_PER_PLAYER - 1) / 2) * PUCK_DIAMETER
        x, y = table.to_table(player_side, u, BOARD_SIZE - r)
        pieces.append(Piece(f"{colour}{first + k}", "puck", x, y, colour))
    return pieces


def _striker(table: NovusTable, side: str) -> Piece:
    (u0, u1), (w0, w1) = table.striker_strip()
    x, y = table.to_table(side, (u0 + u1) / 2, (w0 + w1) / 2)
    return Piece("striker", "striker", x, y)


def novus_singles_layout(table: NovusTable | None = None, first_colour: str = "red",
                         second_colour: str = "black") -> Layout:
    """Singles start (novus 10): the first player (south) shoots at his 8 pucks on the north
    rail; the second player's 8 stand on the south rail. The striker waits in the south zone."""
    table = table_or_default(table, NovusTable, NovusTable, "novus_singles_layout")
    pieces = [_striker(table, "south")]
    pieces += _row(table, "south", first_colour, 1)
    pieces += _row(table, "north", second_colour, 1)
    return Layout("novus", tuple(pieces))


def novus_doubles_layout(table: NovusTable | None = None, first_colour: str = "red",
                         second_colour: str = "black") -> Layout:
    """Doubles start (novus 10, 21.1): partners sit opposite; each player's 8 pucks stand at his
    partner's rail. Pair one (south, north) has 16 pucks of the first colour, pair two (east,
    west) 16 of the second. The striker waits in the south zone."""
    table = table_or_default(table, NovusTable, NovusTable, "novus_doubles_layout")
    pieces = [_striker(table, "south")]
    pieces += _row(table, "south", first_colour, 1)
    pieces += _row(table, "north", first_colour, 1 + PUCKS_PER_PLAYER)
    pieces += _row(table, "east", second_colour, 1)
    pieces += _row(table, "west", second_colour, 1 + PUCKS_PER_PLAYER)
    return Layout("novus", tuple(pieces))


def novus_table(physics: NovusPhysics | None = None) -> NovusTable:
    """The 1 m novus board (novus 24.1, 24.2) with its pieces' physics (25.1, 26.1)."""
    return NovusTable(physics_or_default(physics, NovusPhysics, "novus_table"))
