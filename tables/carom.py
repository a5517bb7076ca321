"""The 5-pins (Italian carom with skittles) match table, its balls, spots, lines and pins.

Sources: the WCBS/UMB 5-pins rules `five_pins_ru.txt` (article 1: spots and lines; article 3:
the lag; article 4: the opening position) and the project's issue 3 (table 2840 x 1420 mm,
cushion nose 37 mm, balls 61.5 mm ~210 g, pin dimensions).
Frame: metres, origin at the left corner of the playing surface at the bottom short rail
("нижний короткий борт", the end the breaker plays from: the head), x across the table
(1.42 m), y along it toward the top short rail ("верхний короткий борт", the foot). The
playing surface is the rectangle between the cushion noses; the table has no pockets.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from cuesim.tables.balls import BallPhysics, ball_kind_coefficients, ball_spec
from cuesim.tables.base import PieceTable, physics_or_default, table_or_default
from cuesim.tables.contact import PHENOLIC_RESIN, PIN_WOOD, hertz_spheres, sphere_on_cushion
from cuesim.tables.geometry import Rail, SensorLine, TableGeometry
from cuesim.tables.layout import Layout, LayoutError, Piece
from cuesim.tables.numbers import finite_numbers, shown
from cuesim.tables.pieces import KindCoefficients, PieceSpec

# --- Table (issue 3; the UMB match table for carom) ------------------------------------------
TABLE_LENGTH = 2.840  # m, playing surface between the cushion noses (match table)
TABLE_WIDTH = 1.420  # m
CUSHION_HEIGHT = 0.037  # m, cushion nose above the cloth (issue 3; 0.60 of the ball diameter)

# --- Balls (issue 3; UMB carom balls 61-61.5 mm, 205-220 g) ----------------------------------
BALL_DIAMETER = 0.0615  # m
BALL_RADIUS = BALL_DIAMETER / 2
BALL_MASS = 0.210  # kg, "about 210 g" (issue 3): the middle of the UMB range
BALL_IDS = ("white", "yellow", "red")  # the two cue balls and the red (5-pins 3, 4)

# --- Spots and lines (5-pins article 1) -------------------------------------------------------
SPOT_FROM_SHORT_RAIL = 0.100  # m, top and bottom spots 100 mm from their short rails (1.1, 1.4)
LAG_LINE_Y = TABLE_LENGTH / 4  # m, the lag line through the centre of the bottom half, 710 mm
#                               from the bottom short rail (1.3); 710 mm = L/4
LAG_FROM_LONG_RAIL = 0.300  # m, the referee sets the lag balls 30 cm from the long rails (3)
SPOTS: dict[str, tuple[float, float]] = {
    # 1.1: 100 mm from the top short rail on the long middle line (710 mm from a long rail);
    # the opponent's ball stands here at the break (4.1 б)
    "top_spot": (TABLE_WIDTH / 2, TABLE_LENGTH - SPOT_FROM_SHORT_RAIL),
    # 1.2: the centre of the top half; the red stands here at the lag and the break (3, 4.1 в)
    "red_spot": (TABLE_WIDTH / 2, 3 * TABLE_LENGTH / 4),
    # 1.3: the centre of the bottom half, on the lag line (710 mm from the bottom short rail)
    "lag_spot": (TABLE_WIDTH / 2, LAG_LINE_Y),
    # 1.4: 100 mm from the bottom short rail (the ball in hand when the top spot is taken, 13.5)
    "bottom_spot": (TABLE_WIDTH / 2, SPOT_FROM_SHORT_RAIL),
    # the centre of the table: the red (centre) pin's spot (1: five pin marks)
    "centre_spot": (TABLE_WIDTH / 2, TABLE_LENGTH / 2),
}
MIDDLE_LINE = "middle_line"  # y = L/2, splits the surface into halves (1.5); +1 toward the top
LAG_LINE = "lag_line"  # y = L/4 (1.3, 3); +1 toward the top rail

# --- Pins (skittles; issue 3) -----------------------------------------------------------------
# Turned pins: 25 mm tall, a 7 mm base, a belly 9-10 mm wide, a thin neck and a round head
# 6-7 mm wide at the top. Heights of the belly and neck are estimates of the usual shape.
PIN_HEIGHT = 0.025  # m (issue 3)
PIN_BASE_DIAMETER = 0.007  # m (issue 3)
PIN_WIDEST_DIAMETER = 0.0095  # m, 9-10 mm (issue 3): the middle of the range
PIN_HEAD_DIAMETER = 0.0065  # m, 6-7 mm (issue 3): the middle of the range
PIN_WIDEST_HEIGHT = 0.008  # m, estimate: the belly a third of the way up
PIN_NECK_HEIGHT = 0.01925  # m, estimate: the neck just under the head (its width is derived)
# The rules and the sources found give the pin's shape (25 mm tall on a 7 mm flat round base:
# the UMB 5-pin rules as quoted by Wikipedia, "Five-pin billiards") but no mass: the mass is
# the turned profile's volume times the density of air-dry beech, the usual turned hardwood:
# 45 lb/ft^3 = 721 kg/m^3 for American beech (air-dried weight; USDA Forest Products
# Laboratory, Wood Handbook, as quoted by Keim's domestic wood library): 0.72 g (the earlier
# comment's "~1 g" / "~0.9 g" overstated it).
PIN_DENSITY = 720.0  # kg/m^3
PIN_PASS_CLEARANCE = 0.0002  # m, estimate: "just passes" = 0.1 mm to spare on each side
PIN_IDS = ("pin_centre", "pin_top", "pin_right", "pin_bottom", "pin_left")
# A touched pin (the model of cuesim.sim.resolve.pin): a rigid pin standing on its base rim,
# struck on its head; it topples or rocks back (Housner 1963), a toppled one is thrown, flies,
# lands and slides to rest, knocking the standing pins it reaches (12.3).
PIN_MU_CLOTH = 0.3  # estimate, no measurement found: dry hardwood sliding on worsted cloth,
#                     a little above a phenolic ball's 0.2 on the same cloth (Alciatore TP A-4,
#                     BallPhysics.mu_slide). It must stay below the base's r_b / h_G = 0.34 for
#                     a pin pushed low to slide upright (a sliding block tips when mu h_G > r_b);
#                     a ball's hit on the head slips the base (the rim would need 0.43 to stick)
PIN_CLOTH_RESTITUTION = 0.2  # estimate: a light wooden pin landing on cloth over slate (it
#                              only bounds the landing's friction impulse, mu (1 + e) v_z)
# a lying pin spinning about the vertical (a thrown pin glancing off a cushion or a pin) stops as
# a rod of length PIN_HEIGHT pressed evenly on the cloth: friction torque mu m g L / 4 against
# I = m L^2 / 12, so w falls at 3 mu g / L (353 rad/s^2); with none it spun forever at rest
PIN_SPIN_DECEL_PER_G = 3.0 * PIN_MU_CLOTH / PIN_HEIGHT  # 1/m: times g gives rad/s^2
E_BALL_PIN = 0.7  # estimate: hardwood pin against a phenolic ball
E_PIN_PIN = 0.5  # estimate: wood on wood, glancing
E_PIN_CUSHION = 0.5  # estimate


def pin_radius_at(h: float | np.ndarray) -> np.ndarray:
    """The pin's radius at height h above the cloth (m), from its dimensions.

    Base (radius 3.5 mm at h = 0) widening linearly to the belly (4.75 mm at
    PIN_WIDEST_HEIGHT), narrowing linearly to the neck at PIN_NECK_HEIGHT, then the head: a
    sphere of diameter PIN_HEAD_DIAMETER whose top is the pin's top (centre at
    PIN_HEIGHT - head radius). The neck radius is the head sphere's section at the neck height,
    so the profile is continuous. Zero outside [0, PIN_HEIGHT].
    """
    h = np.asarray(h, dtype=np.float64)
    rb, rw, a = PIN_BASE_DIAMETER / 2, PIN_WIDEST_DIAMETER / 2, PIN_HEAD_DIAMETER / 2
    c = PIN_HEIGHT - a
    rn = math.sqrt(a * a - (PIN_NECK_HEIGHT - c) ** 2)
    hw, hn = PIN_WIDEST_HEIGHT, PIN_NECK_HEIGHT
    body_low = rb + (rw - rb) * h / hw
    body_high = rw + (rn - rw) * (h - hw) / (hn - hw)
    head = np.sqrt(np.clip(a * a - (h - c) ** 2, 0.0, None))
    r = np.where(h <= hw, body_low, np.where(h <= hn, body_high, head))
    return np.where((h >= 0.0) & (h <= PIN_HEIGHT), r, 0.0)


def ball_section_radius(h: float | np.ndarray, radius: float = BALL_RADIUS) -> np.ndarray:
    """The radius of a ball's horizontal section at height h above the cloth."""
    h = np.asarray(h, dtype=np.float64)
    return np.sqrt(np.clip(radius * radius - (radius - h) ** 2, 0.0, None))


@lru_cache(maxsize=8)
def pin_contact(ball_radius: float = BALL_RADIUS, samples: int = 250_001) -> tuple[float, float]:
    """(contact distance, contact height): the horizontal distance between a ball's centre and a
    standing pin's axis at which they touch, and the height of the touching point.

    Both are bodies of revolution about vertical axes, so they touch when, at some height h,
    their horizontal sections touch: d = max over 0 <= h <= pin height of
    (ball section radius at h) + (pin radius at h). The ball's centre (30.75 mm up) is above
    the pin's top (25 mm), so its section grows with h all the way up the pin; the maximum lies
    on the pin's head (~22.6 mm up), not at its 9.5 mm belly (~24 mm there against ~33 mm).
    For a spherical head (radius a, centre at height c) this is the 3D sphere-sphere contact
    sqrt((R + a)^2 - (R - c)^2) = 32.79 mm for R = 30.75 mm; the sampled maximum agrees.
    """
    h = np.linspace(0.0, PIN_HEIGHT, samples)
    d = ball_section_radius(h, ball_radius) + pin_radius_at(h)
    k = int(np.argmax(d))
    return float(d[k]), float(h[k])


def pin_spacing(ball_radius: float = BALL_RADIUS) -> float:
    """Distance between neighbouring pins (the centre pin and each white one) so that a ball
    rolling midway between them just passes (15 о, note): twice the contact distance plus
    PIN_PASS_CLEARANCE. 2 x 32.79 + 0.2 = 65.8 mm, inside the 65-66 mm the issue quotes
    for the real pin cross."""
    return 2.0 * pin_contact(ball_radius)[0] + PIN_PASS_CLEARANCE


@lru_cache(maxsize=8)
def pin_mass_and_inertia(samples: int = 25_001) -> tuple[float, float]:
    """(mass, moment of inertia about the pin's axis) of a solid pin of PIN_DENSITY:
    m = rho pi int r^2 dh, I = rho pi / 2 int r^4 dh (0.72 g). r^4 is (r r)(r r): NumPy's
    `r**4` is its general power, whose SIMD code differs by host (on AVX-512 it left I one ulp
    lower, and a 5-pins shot that throws two pins ended differently from other hosts')."""
    h = np.linspace(0.0, PIN_HEIGHT, samples)
    r = pin_radius_at(h)
    r2 = r * r
    mass = PIN_DENSITY * math.pi * _trapezoid(r2, h)
    inertia = 0.5 * PIN_DENSITY * math.pi * _trapezoid(r2 * r2, h)
    return mass, inertia


@lru_cache(maxsize=8)
def pin_tipping_properties(samples: int = 25_001) -> tuple[float, float]:
    """(h_G, I_G): the height of the pin's centre of mass and its moment of inertia about a
    horizontal axis through it, from the turned profile (slices: dI = dm (r^2 / 4 + (h -
    h_G)^2)): 10.2 mm and 45 mm^2 times its mass."""
    h = np.linspace(0.0, PIN_HEIGHT, samples)
    r = pin_radius_at(h)
    dm = PIN_DENSITY * math.pi * r**2
    mass = _trapezoid(dm, h)
    hg = _trapezoid(dm * h, h) / mass
    return hg, _trapezoid(dm * (r**2 / 4 + (h - hg) ** 2), h)


def pin_model(g: float) -> tuple[float, ...]:
    """The numbers of the standing-pin impact model, in the order of the PM_* columns of
    cuesim.sim.state: h_G, I_G, base radius, head-centre height, head radius, wood-on-cloth
    friction, the cloth's restitution for a landing pin, the centre-of-mass height of a pin
    lying on its belly (its widest radius), the height at which a thrown (lying) pin strikes a
    standing one (its belly's radius), and g."""
    hg, ig = pin_tipping_properties()
    a = PIN_HEAD_DIAMETER / 2
    belly = PIN_WIDEST_DIAMETER / 2
    return (hg, ig, PIN_BASE_DIAMETER / 2, PIN_HEIGHT - a, a, PIN_MU_CLOTH,
            PIN_CLOTH_RESTITUTION, belly, belly, g)


def _trapezoid(y: np.ndarray, x: np.ndarray) -> float:
    """The trapezoid rule, its terms summed exactly rounded (`math.fsum`): NumPy's pairwise
    sum groups the terms by its SIMD blocks, which differ by NumPy version (1.26 and 2.4 gave
    the axial inertia one ulp apart), so the pin's numbers would depend on the install."""
    return math.fsum((y[1:] + y[:-1]) * np.diff(x)) / 2


def pin_spots(spacing: float | None = None) -> dict[str, tuple[float, float]]:
    """The five pin marks (article 1): the red pin on the centre spot and the four white pins
    on the two centre lines around it, one pin spacing away."""
    s = pin_spacing() if spacing is None else spacing
    cx, cy = SPOTS["centre_spot"]
    return {
        "pin_centre": (cx, cy),
        "pin_top": (cx, cy + s),
        "pin_right": (cx + s, cy),
        "pin_bottom": (cx, cy - s),
        "pin_left": (cx - s, cy),
    }


def _carom_geometry() -> TableGeometry:
    w, l = TABLE_WIDTH, TABLE_LENGTH
    rails = (  # counter-clockwise, the surface on the left
        Rail("bottom_rail", 0.0, 0.0, w, 0.0),
        Rail("right_rail", w, 0.0, w, l),
        Rail("top_rail", w, l, 0.0, l),
        Rail("left_rail", 0.0, l, 0.0, 0.0),
    )
    lines = (
        SensorLine(MIDDLE_LINE, 0.0, 1.0, l / 2),
        SensorLine(LAG_LINE, 0.0, 1.0, LAG_LINE_Y),
    )
    return TableGeometry(w, l, rails, lines=lines)


@dataclass(frozen=True)
class CaromTable(PieceTable):
    """The 5-pins match table with its balls, pins and physics."""

    physics: BallPhysics = field(default_factory=BallPhysics)
    name: str = "carom"
    geometry: TableGeometry = field(default_factory=_carom_geometry)
    kinds: tuple[str, ...] = ("ball", "pin")
    cushion_height: float = CUSHION_HEIGHT

    __hash__ = PieceTable.__hash__

    def __post_init__(self) -> None:
        if not isinstance(self.physics, BallPhysics):  # its fields check their own ranges
            raise ValueError(f"CaromTable.physics must be a BallPhysics, got "
                             f"{type(self.physics).__name__}")

    # the two cue balls, in hand after a foul (5-pins 13; the red is never struck)
    cue_balls = (("white", "white"), ("yellow", "yellow"))

    @property
    def surface_phrase(self) -> str:  # type: ignore[override]
        """How messages name the playing surface ('inside the cushion noses of carom')."""
        return f"inside the cushion noses of {self.name}"

    @property
    def spots(self) -> dict[str, tuple[float, float]]:
        """The named spots of the 5-pins table (x, y), m (5-pins article 1)."""
        return dict(SPOTS)

    def piece_spec(self, kind: str) -> PieceSpec:
        """A ball, or a standing pin. The pin's radius is its 2D contact radius against a ball
        (contact distance - ball radius, ~2.0 mm), so ball-pin contact in the plane happens at
        the derived distance; `contact_distance('pin', 'pin')` gives the pin-pin distance."""
        if kind == "ball":
            return ball_spec("ball", BALL_DIAMETER, BALL_MASS)
        if kind == "pin":
            mass, inertia = pin_mass_and_inertia()
            return PieceSpec("pin", pin_contact()[0] - BALL_RADIUS, mass, inertia,
                             thickness=PIN_HEIGHT)
        raise LayoutError(f"{self.name} has no piece kind {kind!r}; kinds are {list(self.kinds)}")

    def kind_coefficients(self) -> KindCoefficients:
        """Balls as on every ball table; pins standing until touched (then felled and thrown,
        or rocked and moved: cuesim.sim.resolve.pin, with `pin_model`); a thrown pin slides
        with the wood-on-cloth deceleration PIN_MU_CLOTH g after its first bounce and meets
        any other pin, standing, thrown or lying, at the widest pin diameter."""
        balls = ball_kind_coefficients(self.physics, self.piece_spec("ball"),
                                       self.cushion_height)
        pin = self.piece_spec("pin")
        p = self.physics
        e_bp, mu_bp = E_BALL_PIN, balls.mu_pair[0][0]
        # pins: Hertz with the pin's belly as a sphere of its widest radius (an approximation:
        # the belly is a barrel, its curvature along the axis is of the same order)
        r_pin = PIN_WIDEST_DIAMETER / 2
        k_bp, eta_bp = hertz_spheres(BALL_RADIUS, PHENOLIC_RESIN, r_pin, PIN_WOOD)
        k_pp, eta_pp = hertz_spheres(r_pin, PIN_WOOD, r_pin, PIN_WOOD)
        k_pr, eta_pr = sphere_on_cushion(r_pin, PIN_WOOD)
        return replace(
            balls,
            kinds=("ball", "pin"),
            decel=(*balls.decel, PIN_MU_CLOTH * p.g),
            spin_decel=(*balls.spin_decel, PIN_SPIN_DECEL_PER_G * p.g),
            e_pair=((p.e_ball, e_bp), (e_bp, E_PIN_PIN)),
            mu_pair=((mu_bp, mu_bp), (mu_bp, mu_bp)),
            e_rail=(p.e_cushion, E_PIN_CUSHION),
            mu_rail=(p.mu_cushion, p.mu_cushion),
            law=(1, 2),
            roll_decel=(*balls.roll_decel, 0.0),
            thrown_radius=(self.piece_spec("ball").radius, PIN_WIDEST_DIAMETER - pin.radius),
            pin_model=pin_model(p.g),
            stiffness_pair=((balls.stiffness_pair[0][0], k_bp), (k_bp, k_pp)),
            exponent_pair=((balls.exponent_pair[0][0], eta_bp), (eta_bp, eta_pp)),
            stiffness_rail=(balls.stiffness_rail[0], k_pr),
            exponent_rail=(balls.exponent_rail[0], eta_pr),
        )

    def contact_distance(self, kind_a: str, kind_b: str) -> float:
        """Centre distance at which two pieces touch in the plane: balls 2R, a ball and a
        standing pin the derived contact distance, two standing pins their widest diameter."""
        kinds = {kind_a, kind_b}
        for kind in kinds:
            self.piece_spec(kind)  # refuse unknown kinds
        if kinds == {"pin"}:
            return PIN_WIDEST_DIAMETER
        if kinds == {"ball"}:
            return BALL_DIAMETER
        return pin_contact()[0]


def carom_table(physics: BallPhysics | None = None) -> CaromTable:
    """The 5-pins match table with its balls' physics: a BallPhysics, or None for the defaults
    (anything else: a ValueError naming `physics`)."""
    return CaromTable(physics_or_default(physics, BallPhysics, "carom_table"))


def _pins() -> list[Piece]:
    return [Piece(pid, "pin", x, y, "red" if pid == "pin_centre" else "white")
            for pid, (x, y) in pin_spots().items()]


def five_pins_layout(table: CaromTable | None = None, breaker: str = "white",
                     breaker_xy: tuple[float, float] | None = None) -> Layout:
    """The opening position (5-pins 4.1, 4.2): the breaker's ball anywhere in the bottom half
    with no part of it over the middle line (default: on the lag line 300 mm from the left
    long rail, where article 3 sets the balls), the opponent's ball on the top spot, the red on
    the red spot, the five pins on their marks."""
    table = table_or_default(table, CaromTable, carom_table, "five_pins_layout")
    if breaker not in ("white", "yellow"):
        raise LayoutError(f"the breaker plays the white or the yellow ball, not {breaker!r}")
    opponent = "yellow" if breaker == "white" else "white"
    x, y = LAG_FROM_LONG_RAIL, LAG_LINE_Y
    if breaker_xy is not None:
        xy = finite_numbers(breaker_xy)
        if xy is None or len(xy) != 2:
            raise LayoutError(f"five_pins_layout: breaker_xy must be two finite numbers (x, y) "
                              f"in metres, got {shown(breaker_xy):.60}")
        x, y = xy
    if y + BALL_RADIUS > TABLE_LENGTH / 2 + 1e-12:
        raise LayoutError(
            f"the breaker's ball at y = {y:.4f} m reaches over the middle line: at the break no "
            f"part of it may cross it (5-pins 4.2), so y <= {TABLE_LENGTH / 2 - BALL_RADIUS:.4f}")
    pieces = [
        Piece(breaker, "ball", float(x), float(y), breaker),
        Piece(opponent, "ball", *SPOTS["top_spot"], opponent),
        Piece("red", "ball", *SPOTS["red_spot"], "red"),
        *_pins(),
    ]
    layout = Layout(table.name, tuple(pieces))
    table.check_layout(layout)
    return layout


def five_pins_lag_layout(table: CaromTable | None = None) -> Layout:
    """The lag (5-pins 3): the white and the yellow on the lag line 30 cm from the left and the
    right long rail, the red on the red spot, the pins on their marks."""
    table = table_or_default(table, CaromTable, carom_table, "five_pins_lag_layout")
    pieces = [
        Piece("white", "ball", LAG_FROM_LONG_RAIL, LAG_LINE_Y, "white"),
        Piece("yellow", "ball", TABLE_WIDTH - LAG_FROM_LONG_RAIL, LAG_LINE_Y, "yellow"),
        Piece("red", "ball", *SPOTS["red_spot"], "red"),
        *_pins(),
    ]
    layout = Layout(table.name, tuple(pieces))
    table.check_layout(layout)
    return layout
