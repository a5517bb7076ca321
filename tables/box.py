"""A plain rectangular box: four straight rails, no holes, no lines, holding one kind of piece,
novus pucks or pool balls, with the coefficients of their own game. Not a game's table: the
collision core's benchmarks use it to scale the number of pieces (bench/, the box series).

Sources: every number comes from the table whose pieces the box holds.
- Pucks: the novus puck of `cuesim.tables.novus` (novus 25.1: 30 mm, 12 mm thick, 8 mm hole;
  mass from the birch density estimate) with `NovusPhysics` (sliding friction, puck-puck
  restitution, impact friction, sticking speed: all estimates documented there). The rails
  are the novus rails' restitution and impact friction (`NovusPhysics.e_rail`,
  `mu_rail_impact`): the box has the board's hardwood rails, only longer.
- Balls: the WPA pool ball of `cuesim.tables.pool` (57.15 mm, 163 g) with `BallPhysics`
  (Alciatore, Mathavan et al. 2010, Han 2005) and the WPA cushion nose height
  (`cuesim.tables.pool.CUSHION_HEIGHT`, 0.635 ball diameters): the box has pool cushions,
  straight and without pockets.
Frame: metres, origin at a corner of the playing surface, x along the width, y along the length.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np

from cuesim.tables.balls import BallPhysics, ball_kind_coefficients, ball_spec
from cuesim.tables.base import PieceTable
from cuesim.tables.geometry import TableGeometry
from cuesim.tables.layout import Layout, LayoutError, Piece
from cuesim.tables.novus import (
    PUCK_DIAMETER,
    PUCK_HOLE_DIAMETER,
    PUCK_MASS,
    PUCK_THICKNESS,
    NovusPhysics,
    NovusTable,
)
from cuesim.tables.numbers import finite_real, shown
from cuesim.tables.pieces import KindCoefficients, PieceSpec
from cuesim.tables.pool import BALL_DIAMETER, BALL_MASS
from cuesim.tables.pool import CUSHION_HEIGHT as POOL_CUSHION_HEIGHT

BOX_PIECES = ("puck", "ball")  # what a box can hold: novus pucks or pool balls
MIN_SIDE = 0.1  # m, a sanity bound (a box narrower than a few pieces is no box)
MAX_SIDE = 1000.0  # m, a sanity bound on the box's sides
MAX_MISSES = 5000  # overlapping draws in a row before random placement gives up


@dataclass(frozen=True)
class BoxTable(PieceTable):
    """A width x length box of novus pucks (piece='puck') or pool balls (piece='ball').

    name is 'box'; kinds is (piece,). The pucks use `novus` (their friction, restitution and
    the novus rails), the balls `balls` (cloth, ball and cushion) and the WPA cushion height.
    The layout check (and its cache) and the hash are PieceTable's.
    """

    surface_phrase = "inside the box"
    __hash__ = PieceTable.__hash__

    width: float
    length: float
    piece: str = "puck"
    novus: NovusPhysics = field(default_factory=NovusPhysics)
    balls: BallPhysics = field(default_factory=BallPhysics)
    name: str = field(default="box", init=False)
    geometry: TableGeometry = field(init=False, repr=False)
    kinds: tuple[str, ...] = field(init=False)
    spec: PieceSpec = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.piece not in BOX_PIECES:
            raise ValueError(f"a box holds one of {list(BOX_PIECES)}, not {self.piece!r}")
        for side in ("width", "length"):
            value = getattr(self, side)
            if not (math.isfinite(value) and MIN_SIDE <= value <= MAX_SIDE):
                raise ValueError(f"box {side} must lie in [{MIN_SIDE}, {MAX_SIDE}] m, "
                                 f"got {value}")
        object.__setattr__(self, "geometry", TableGeometry.rectangle(self.width, self.length))
        object.__setattr__(self, "kinds", (self.piece,))
        if self.piece == "puck":  # the novus puck (novus 25.1)
            spec = PieceSpec.annulus("puck", PUCK_DIAMETER / 2, PUCK_HOLE_DIAMETER / 2,
                                     PUCK_THICKNESS, PUCK_MASS)
        else:  # the WPA pool ball
            spec = ball_spec("ball", BALL_DIAMETER, BALL_MASS)
        object.__setattr__(self, "spec", spec)

    def piece_spec(self, kind: str) -> PieceSpec:
        if kind != self.piece:
            raise LayoutError(f"this box holds {self.piece!r} pieces, not {kind!r}")
        return self.spec

    def kind_coefficients(self) -> KindCoefficients:
        if self.piece == "ball":
            return ball_kind_coefficients(self.balls, self.piece_spec("ball"),
                                          POOL_CUSHION_HEIGHT)
        novus = NovusTable(self.novus).kind_coefficients()  # the board's numbers, puck row
        k = novus.kinds.index("puck")
        return KindCoefficients(
            kinds=("puck",),
            decel=(novus.decel[k],),
            spin_decel=(novus.spin_decel[k],),
            e_pair=((novus.e_pair[k][k],),),
            mu_pair=((novus.mu_pair[k][k],),),
            e_rail=(novus.e_rail[k],),
            mu_rail=(novus.mu_rail[k],),
            v_stick=novus.v_stick,
            stiffness_pair=((novus.stiffness_pair[k][k],),),
            exponent_pair=((novus.exponent_pair[k][k],),),
            stiffness_rail=(novus.stiffness_rail[k],),
            exponent_rail=(novus.exponent_rail[k],),
            impact_steps=novus.impact_steps,
        )

    @property
    def radius(self) -> float:
        """The radius of the box's pieces (m)."""
        return self.spec.radius


def box_for(n: int, piece: str = "puck", area_fraction: float = 0.10) -> BoxTable:
    """A square box whose n pieces cover `area_fraction` of its floor (the same density for
    every n, so each piece meets as many others whatever n is)."""
    if not finite_real(area_fraction) or not 0.0 < area_fraction <= 0.5:
        raise ValueError(f"area_fraction must lie in (0, 0.5], got {shown(area_fraction)}")
    r = BoxTable(1.0, 1.0, piece).radius
    most = int(MAX_SIDE * MAX_SIDE * area_fraction / (math.pi * r * r))  # within MAX_SIDE
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or not 1 <= n <= most:
        raise ValueError(f"a box of {piece}s covering {area_fraction:g} of its floor holds 1 to "
                         f"{most:,} pieces, got n = {shown(n)}")
    side = max(MIN_SIDE, math.sqrt(n * math.pi * r * r / area_fraction))
    return BoxTable(side, side, piece)


def random_box_layout(table: BoxTable, n: int, rng: np.random.Generator,
                      gap: float = 1e-4) -> Layout:
    """n pieces at uniformly random places, wholly inside the box and at least `gap` m apart
    (random sequential addition: a draw that overlaps a placed piece is drawn again)."""
    r = table.radius
    lo = r + gap
    hi_x, hi_y = table.width - r - gap, table.length - r - gap
    if hi_x <= lo or hi_y <= lo:
        raise LayoutError(f"a {table.width} x {table.length} m box cannot hold a piece of "
                          f"radius {r} m")
    pos = np.empty((n, 2))
    placed, misses = 0, 0
    min_d2 = (2 * r + gap) ** 2
    while placed < n:
        if misses > MAX_MISSES:
            raise LayoutError(f"could not place {n} pieces without overlap in a "
                              f"{table.width:.3f} x {table.length:.3f} m box (placed {placed}):"
                              " make it larger")
        x, y = rng.uniform(lo, hi_x), rng.uniform(lo, hi_y)
        if placed and np.min((pos[:placed, 0] - x) ** 2 + (pos[:placed, 1] - y) ** 2) < min_d2:
            misses += 1
            continue
        pos[placed] = x, y
        placed += 1
        misses = 0
    pieces = tuple(Piece(f"{table.piece}{k}", table.piece, float(x), float(y))
                   for k, (x, y) in enumerate(pos))
    layout = Layout(table.name, pieces)
    table.check_layout(layout)
    return layout


def random_box_motion(layout: Layout, rng: np.random.Generator, max_speed: float,
                      ball: bool = False) -> dict[str, tuple[float, ...]]:
    """Every piece launched in a uniformly random direction at a speed uniform in
    [0, max_speed] m/s, without spin: (vx, vy, w) for pucks, (vx, vy, 0, 0, 0) for balls
    (a ball so launched slides, then rolls)."""
    out: dict[str, tuple[float, ...]] = {}
    for p in layout.pieces:
        speed = float(rng.uniform(0.0, max_speed))
        angle = float(rng.uniform(0.0, 2 * math.pi))
        vx, vy = speed * math.cos(angle), speed * math.sin(angle)
        out[p.id] = (vx, vy, 0.0, 0.0, 0.0) if ball else (vx, vy, 0.0)
    return out
