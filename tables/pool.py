"""WPA pool tables (9, 8 and 7 ft): the playing surface, six cushions with their pocket jaws,
the pockets' capture circles, the strings and spots, and the balls.

Sources: WPA Equipment Specifications (table sizes, ball, cushion nose height, pocket mouths,
cut angles, shelf) and the WPA rulebook `pool_wpa_ru.txt` (1.5, 3.16 strings and spots).
Frame (as in `pool_spots`): metres, origin at the head-left corner of the playing surface (the
corner at the head rail on the left of a player standing behind the head rail), x across the
table (the width), y from the head rail toward the foot rail (the length). The playing surface
is the rectangle between the cushion noses; the pockets open outside it.

Pocket model (2D). Each cushion is a straight segment (its nose line) that ends at a pocket.
Where the cushion nose "changes direction into the pocket" (WPA: the pointed lip) the rubber
turns by 180 deg - cut angle and runs on as the jaw (the facing), a straight segment at the
WPA cut angle to the nose line, so the rubber wedge at the lip has the cut angle. The lip is
rounded by a small knuckle circle tangent to both the nose line and the jaw, so a ball can
rattle between the jaws. The WPA mouth is measured between the two lips (the sharp corners
where the extended nose line meets the extended jaw line).

Fall line. A ball rests on the slate until its centre passes the edge of the slate's pocket
cut: beyond it nothing supports its centre of mass and it drops (WPA 3.33 judges a ball in the
jaws the same way: project it straight down; if it would fall, it is pocketed). The WPA (and
BCA) specifications fix that edge by one number, the shelf: from the middle of the mouth line
to the vertical cut of the slate. We model the cut as the straight fall line parallel to the
mouth line at the shelf depth, running from jaw face to jaw face (the pocket's `Hole.fall`):
a ball is pocketed the moment its centre crosses it (an exact quadratic root in the core), so
no ball rests in a throat beyond it, and one whose centre stops short of it hangs on the
shelf. The specifications give no plan shape of the cut; a straight edge needs no number they
do not give, and a ball centre only ever meets it within +-24 mm (corner) and +-34 mm (side) of
the axis, where any slate arc that keeps the shelf depth on the axis would differ by
millimetres. The drop-point rounding of the slate edge (BCA: 1/8-1/4 in radius) is not
modelled: it would move the fall line that much toward the mouth. Behind the fall line the
pocket's circle (front point at the shelf depth on the axis, radius half the mouth) only marks
the opening for drawing and aiming; the jaws run back to its centre, past the fall line by
more than a ball radius, so a ball cannot slip behind a jaw before it drops.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

from cuesim.tables.balls import BallPhysics, ball_kind_coefficients, ball_spec
from cuesim.tables.base import PieceTable, check_pieces, physics_or_default
from cuesim.tables.geometry import Hole, Knuckle, Rail, SensorLine, TableGeometry
from cuesim.tables.layout import LayoutError
from cuesim.tables.pieces import KindCoefficients, PieceSpec
from cuesim.tables.pool_spots import CUSHION_RAIL, HEAD_STRING_LINE, LONG_STRING_LINE, cushion_of

INCH = 0.0254  # m, exact

# --- Playing surfaces between the cushion noses (WPA Equipment Specifications) -------------
# WPA: 9 ft 100 x 50 in (+-1/8 in); 8 ft 92 x 46 in (+-1/8 in). The WPA names no 7-ft table;
# 78 x 39 in is the usual 7-ft ("bar box") playing surface (estimate: manufacturers' and BCA
# practice). Every size is twice as long as it is wide.
PLAYING_SURFACES: dict[str, tuple[float, float]] = {  # size -> (width, length), m
    "9ft": (50 * INCH, 100 * INCH),  # 1.270 x 2.540 m, WPA
    "8ft": (46 * INCH, 92 * INCH),  # 1.1684 x 2.3368 m, WPA (the "pro 8"; see POOL_SIZES_NOTE)
    "7ft": (39 * INCH, 78 * INCH),  # 0.9906 x 1.9812 m, estimate (no WPA number)
}
POOL_SIZES_NOTE = (
    "The WPA specifications give the 8-ft table as 92 x 46 in; the common home 8-ft table is "
    "88 x 44 in (2.235 x 1.118 m): pass PoolTable(size='8ft') for the WPA one."
)

# --- Balls (WPA Equipment Specifications) ---------------------------------------------------
BALL_DIAMETER = 2.25 * INCH  # m, 2 1/4 in (57.15 mm) +-0.005 in, WPA
BALL_MASS_RANGE = (0.156, 0.170)  # kg, 5.5-6 oz, WPA
BALL_MASS = 0.163  # kg, the middle of the WPA range (a choice: real sets weigh 160-170 g)
BALL_RADIUS = BALL_DIAMETER / 2

# --- Cushions (WPA Equipment Specifications) ------------------------------------------------
CUSHION_HEIGHT_FRACTION = (0.625, 0.645)  # nose height, fraction of the ball diameter, WPA
CUSHION_HEIGHT = 0.635 * BALL_DIAMETER  # m, 36.3 mm, the middle of the WPA range

# --- Pockets (WPA Equipment Specifications) -------------------------------------------------
# Mouth: measured between the opposing cushion noses where the direction changes into the
# pocket (lip to lip). Corner 4.5-4.625 in, side 5-5.125 in; we take the middle of each range.
CORNER_MOUTH_RANGE = (4.5 * INCH, 4.625 * INCH)  # m, WPA
SIDE_MOUTH_RANGE = (5.0 * INCH, 5.125 * INCH)  # m, WPA
CORNER_MOUTH = 4.5625 * INCH  # m, 115.9 mm, middle of the WPA range
SIDE_MOUTH = 5.0625 * INCH  # m, 128.6 mm, middle of the WPA range
# Horizontal cut angle of the rubber and its rail liner at each side of the entrance, WPA:
# corner 142 deg (+-1), side 104 deg (+-1). It is the angle of the rubber wedge at the lip,
# between the cushion nose line and the jaw facing: corner jaws turn 38 deg away from the nose
# line (they converge 7 deg toward the pocket axis), side jaws 76 deg (they converge 14 deg).
CORNER_CUT_ANGLE = math.radians(142.0)  # WPA
SIDE_CUT_ANGLE = math.radians(104.0)  # WPA
# Shelf: from the middle of the mouth line to the vertical cut of the slate's pocket radius
# (the fall line, see the module docstring). WPA: corner 1-2.25 in, side 0-0.375 in; BCA
# Equipment Specifications ("Shelf Measurements"): corner 1 5/8-1 7/8 in, side 0-3/8 in.
# Middle of the WPA ranges; the corner value also lies in the BCA range.
CORNER_SHELF = 1.625 * INCH  # m, 41.3 mm
SIDE_SHELF = 0.1875 * INCH  # m, 4.8 mm
# Side pockets: WPA requires the playing surface to be symmetrical with the pocket
# configurations included, so the side mouths are centred at the middle of the long cushions
# (y = L/2), their lips on the cushion nose line.
# Knuckle (the rounded lip, a jaw's nose): estimate. The WPA calls the lip pointed; the rubber
# nose and its 1/16-1/4 in facing round it over a few mm. 5 mm keeps the mouth measured at the
# lips (the tangent points are 1.7 mm (corner) and 3.9 mm (side) from the sharp lip).
KNUCKLE_RADIUS = 0.005  # m, estimate
# Opening circle radius: half the mouth (estimate; drawing and aiming only, captures happen at
# the fall line). Its front point touches the fall line on the pocket axis.
CAPTURE_RADIUS_FRACTION = 0.5  # of the mouth, estimate

# --- Strings and spots (WPA 1.5, 3.16; Equipment Specifications) ---------------------------
HEAD_STRING_FRACTION = 0.25  # the head string joins the second diamonds: L/4 from the head rail
FOOT_SPOT_FRACTION = 0.75  # the foot spot: middle of the foot string, L/4 from the foot rail

POCKET_NAMES = ("head_left", "head_right", "side_left", "side_right", "foot_left", "foot_right")
CUSHION_NAMES = tuple(CUSHION_RAIL)  # head_rail, foot_rail, left_head_rail, ... (pool_spots)


@dataclass(frozen=True)
class Pocket:
    """One pocket: its lips (where the cushion noses turn into the pocket, a on the short rail
    for a corner pocket and on the head-side cushion for a side pocket), the unit axis into
    the pocket, the WPA numbers it was built from, and its hole (`capture`: the fall line,
    where balls drop, and the opening circle behind it)."""

    name: str
    kind: str  # "corner" | "side"
    lip_a: tuple[float, float]
    lip_b: tuple[float, float]
    axis: tuple[float, float]
    mouth: float
    cut_angle: float  # rad
    shelf: float
    capture: Hole

    def depth(self, x: float, y: float) -> float:
        """How far (x, y) lies behind the mouth line, along the pocket axis (m)."""
        mx = (self.lip_a[0] + self.lip_b[0]) / 2
        my = (self.lip_a[1] + self.lip_b[1]) / 2
        return (x - mx) * self.axis[0] + (y - my) * self.axis[1]

    def beyond_fall_line(self, x: float, y: float) -> bool:
        """Whether a ball centred at (x, y) is over this pocket: on or past its fall line,
        between the jaws (it drops)."""
        return self.capture.contains(x, y)


def _unit(x: float, y: float) -> tuple[float, float]:
    n = math.hypot(x, y)
    return x / n, y / n


def _rot(v: tuple[float, float], angle: float) -> tuple[float, float]:
    """v rotated counter-clockwise by angle."""
    c, s = math.cos(angle), math.sin(angle)
    return c * v[0] - s * v[1], s * v[0] + c * v[1]


def _add(p: tuple[float, float], v: tuple[float, float], t: float) -> tuple[float, float]:
    return p[0] + t * v[0], p[1] + t * v[1]


@lru_cache(maxsize=8)
def pool_geometry(width: float, length: float,
                  knuckle_radius: float = KNUCKLE_RADIUS) -> tuple[TableGeometry,
                                                                    tuple[Pocket, ...]]:
    """The table geometry and its pockets for a playing surface of width x length.

    The boundary runs counter-clockwise (the surface on the left of every rail): head rail
    (+x), right head and foot cushions (+y), foot rail (-x), left foot and head cushions (-y),
    each cushion ending at a knuckle, then a jaw into the pocket and back out of it.
    """
    w, l = width, length
    a = CORNER_MOUTH / math.sqrt(2.0)  # corner lips sit a from the corner on each nose line
    s = SIDE_MOUTH / 2
    # cushions in counter-clockwise order: (name, start lip, end lip)
    cushions = (
        ("head_rail", (a, 0.0), (w - a, 0.0)),
        ("right_head_rail", (w, a), (w, l / 2 - s)),
        ("right_foot_rail", (w, l / 2 + s), (w, l - a)),
        ("foot_rail", (w - a, l), (a, l)),
        ("left_foot_rail", (0.0, l - a), (0.0, l / 2 + s)),
        ("left_head_rail", (0.0, l / 2 - s), (0.0, a)),
    )
    # the pocket after each cushion (between its end lip and the next cushion's start lip)
    after = ("head_right", "side_right", "foot_right", "foot_left", "side_left", "head_left")
    rails: list[Rail] = []
    knuckles: list[Knuckle] = []
    holes: list[Hole] = []
    pockets: list[Pocket] = []
    # the cushion segments run between knuckle tangent points; collect jaws per pocket first
    trim: dict[tuple[str, str], tuple[float, float]] = {}  # (cushion, "start"|"end") -> point
    jaws: dict[str, tuple[Rail, Rail]] = {}
    for k, pname in enumerate(after):
        cin_name, _, lip_in = cushions[k]
        cout_name, lip_out, _ = cushions[(k + 1) % 6]
        side = pname.startswith("side")
        cut = SIDE_CUT_ANGLE if side else CORNER_CUT_ANGLE
        mouth = SIDE_MOUTH if side else CORNER_MOUTH
        shelf = SIDE_SHELF if side else CORNER_SHELF
        turn = math.pi - cut  # the boundary turns right (away from the surface) by this
        u_in = _unit(lip_in[0] - cushions[k][1][0], lip_in[1] - cushions[k][1][1])
        nxt = cushions[(k + 1) % 6]
        u_out = _unit(nxt[2][0] - nxt[1][0], nxt[2][1] - nxt[1][1])
        jaw_in = _rot(u_in, -turn)  # from the in-lip into the pocket
        jaw_out = _rot(u_out, turn)  # from deep in the pocket out to the out-lip
        # pocket axis: perpendicular to the mouth line, away from the surface
        mx, my = (lip_in[0] + lip_out[0]) / 2, (lip_in[1] + lip_out[1]) / 2
        ax, ay = _unit(-(lip_out[1] - lip_in[1]), lip_out[0] - lip_in[0])  # left normal
        if ax * (w / 2 - mx) + ay * (l / 2 - my) > 0:  # make it point away from the surface
            ax, ay = -ax, -ay
        # the fall line: where the shelf depth meets each jaw face (the surface on its left)
        fall_in = _add(lip_in, jaw_in, shelf / (jaw_in[0] * ax + jaw_in[1] * ay))
        fall_out = _add(lip_out, jaw_out, shelf / (jaw_out[0] * ax + jaw_out[1] * ay))
        r_cap = CAPTURE_RADIUS_FRACTION * mouth
        capture = Hole(pname, mx + ax * (shelf + r_cap), my + ay * (shelf + r_cap), r_cap,
                       fall=(*fall_in, *fall_out))
        depth_end = shelf + r_cap  # the jaws run back to the opening circle's centre
        tangent = knuckle_radius / math.tan(cut / 2)  # lip to tangent point
        centre_off = knuckle_radius / math.sin(cut / 2)  # lip to knuckle centre
        # in-lip: the cushion arrives along u_in, the jaw leaves along jaw_in
        t_in = depth_end / (jaw_in[0] * ax + jaw_in[1] * ay)
        t_out = depth_end / -(jaw_out[0] * ax + jaw_out[1] * ay)
        in_start = _add(lip_in, jaw_in, tangent)
        in_end = _add(lip_in, jaw_in, t_in)
        out_start = _add(lip_out, jaw_out, -t_out)
        out_end = _add(lip_out, jaw_out, -tangent)
        trim[(cin_name, "end")] = _add(lip_in, u_in, -tangent)
        trim[(cout_name, "start")] = _add(lip_out, u_out, tangent)
        bis_in = _unit(-u_in[0] + jaw_in[0], -u_in[1] + jaw_in[1])
        bis_out = _unit(-jaw_out[0] + u_out[0], -jaw_out[1] + u_out[1])
        # jaw a: the short-rail side of a corner pocket, the head side of a side pocket
        in_is_a = cin_name in ("head_rail", "foot_rail") or (side and "head" in cin_name)
        la, lb = ("a", "b") if in_is_a else ("b", "a")
        rail_in = Rail(f"{pname}_jaw_{la}", *in_start, *in_end)
        rail_out = Rail(f"{pname}_jaw_{lb}", *out_start, *out_end)
        jaws[pname] = (rail_in, rail_out)
        kn_in = Knuckle(f"{pname}_knuckle_{la}", *_add(lip_in, bis_in, centre_off),
                        knuckle_radius)
        kn_out = Knuckle(f"{pname}_knuckle_{lb}", *_add(lip_out, bis_out, centre_off),
                         knuckle_radius)
        knuckles += [kn_in, kn_out]
        holes.append(capture)
        lip_a, lip_b = (lip_in, lip_out) if in_is_a else (lip_out, lip_in)
        pockets.append(Pocket(pname, "side" if side else "corner", lip_a, lip_b, (ax, ay),
                              mouth, cut, shelf, capture))
    for k, (cname, _, _) in enumerate(cushions):
        start, end = trim[(cname, "start")], trim[(cname, "end")]
        rails.append(Rail(cname, *start, *end))
        rails += list(jaws[after[k]])
    lines = (
        SensorLine(HEAD_STRING_LINE, 0.0, 1.0, HEAD_STRING_FRACTION * l),  # +1 toward the foot
        SensorLine(LONG_STRING_LINE, 1.0, 0.0, w / 2),  # +1 toward the right cushions
    )
    order = {name: k for k, name in enumerate(POCKET_NAMES)}
    holes.sort(key=lambda h: order[h.name])
    pockets.sort(key=lambda p: order[p.name])
    geo = TableGeometry(w, l, tuple(rails), holes=tuple(holes), knuckles=tuple(knuckles),
                        lines=lines)
    return geo, tuple(pockets)


@lru_cache(maxsize=8)
def _outline(geo: TableGeometry) -> tuple[tuple[float, float], ...]:
    """The cloth's outline: the rails' ends in their counter-clockwise order (cushion noses and
    jaw faces; across each knuckle and the back of each pocket a straight chord)."""
    return tuple(pt for rail in geo.rails for pt in ((rail.x0, rail.y0), (rail.x1, rail.y1)))


def _inside(x: float, y: float, polygon: tuple[tuple[float, float], ...]) -> bool:
    """Point in polygon (crossing number)."""
    inside = False
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def _segment_distance(x: float, y: float, rail: Rail) -> float:
    """Distance from (x, y) to the rail's segment."""
    ex, ey = rail.x1 - rail.x0, rail.y1 - rail.y0
    f = ((x - rail.x0) * ex + (y - rail.y0) * ey) / (ex * ex + ey * ey)
    f = min(max(f, 0.0), 1.0)
    return math.hypot(x - rail.x0 - f * ex, y - rail.y0 - f * ey)


def rail_of_feature(feature: str) -> str:
    """The table rail ('head', 'foot', 'left', 'right') a cushion, jaw or knuckle is part of."""
    return CUSHION_RAIL[cushion_of(feature)]


@dataclass(frozen=True)
class PoolTable(PieceTable):
    """A WPA pool table of one size with its balls and physics.

    name is 'pool_<size>' (e.g. 'pool_9ft', the name the pool referee's layouts carry), so a
    layout made for one size is not taken for another.
    """

    physics: BallPhysics = field(default_factory=BallPhysics)
    size: str = "9ft"
    name: str = field(init=False)
    geometry: TableGeometry = field(init=False, repr=False)
    kinds: tuple[str, ...] = ("ball",)
    cushion_height: float = field(init=False)
    pockets: tuple[Pocket, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.physics, BallPhysics):
            raise ValueError(f"PoolTable.physics must be a BallPhysics, got "
                             f"{type(self.physics).__name__}")
        if not isinstance(self.size, str) or self.size not in PLAYING_SURFACES:
            raise ValueError(f"unknown pool table size {self.size!r}; sizes are "
                             f"{list(PLAYING_SURFACES)}")
        if self.kinds != ("ball",):
            raise ValueError(f"a pool table has the piece kinds ('ball',), got {self.kinds}")
        w, l = PLAYING_SURFACES[self.size]
        geo, pockets = pool_geometry(w, l)
        object.__setattr__(self, "name", f"pool_{self.size}")
        object.__setattr__(self, "geometry", geo)
        object.__setattr__(self, "cushion_height", CUSHION_HEIGHT)
        object.__setattr__(self, "pockets", pockets)

    __hash__ = PieceTable.__hash__
    hole_word = "pocket"
    cue_balls = (("cue", "cue"),)  # the cue ball, in hand after a scratch (WPA 3.40, 4.14)

    def kind_coefficients(self) -> KindCoefficients:
        """The core's per-kind coefficients of this table (restitution, friction, compliance)."""
        return ball_kind_coefficients(self.physics, self.piece_spec("ball"), self.cushion_height)

    @property
    def surface_phrase(self) -> str:  # type: ignore[override]
        """How messages name the playing surface ('inside the cushion noses of pool_9ft')."""
        return f"inside the cushion noses of {self.name}"

    def in_throat(self, x: float, y: float, r: float, tol: float = 1e-9) -> bool:
        """Whether a piece of radius r centred at (x, y) rests in a pocket's mouth or throat,
        reaching past the line of the cushion noses (where the playing-surface rectangle does
        not hold): its centre on the cloth (inside the outline of cushion noses and jaw faces)
        and short of every fall line (on the shelf), the piece clear of every cushion, jaw and
        knuckle. A ball can stop there without falling: it is still on the table."""
        geo = self.geometry
        if any(p.beyond_fall_line(x, y) for p in self.pockets):
            return False  # over the pocket: it drops
        if not _inside(x, y, _outline(geo)):
            return False
        if any(_segment_distance(x, y, rail) < r - tol for rail in geo.rails):
            return False
        return all(math.hypot(x - k.x, y - k.y) >= r + k.radius - tol for k in geo.knuckles)

    def cushion_gap(self, x: float, y: float, cushion: str) -> float:
        """The gap between a ball centred at (x, y) and a cushion (its nose and the jaw of a
        pocket it turns into, `cushion_of`), or a whole table rail ('head', 'foot', 'left',
        'right'): 0 when the ball touches it (WPA 3.38 'frozen'). ValueError for an unknown
        name."""
        rails = [r for r in self.geometry.rails
                 if cushion in (cushion_of(r.name), CUSHION_RAIL[cushion_of(r.name)])]
        if not rails:
            raise ValueError(f"{cushion!r} is no cushion of a pool table; cushions are "
                             f"{list(CUSHION_NAMES)}, rails head, foot, left, right")
        return min(_segment_distance(x, y, r) for r in rails) - self.ball_radius

    def in_jaws(self, x: float, y: float, pocket: str, tol: float = 1e-9) -> bool:
        """Whether a ball centred at (x, y) reaches into a pocket's mouth (WPA 3.33, balls
        jammed in the jaws): part of it past the mouth line between the lips, its centre
        between them."""
        p = self.pocket(pocket)
        mx, my = (p.lip_a[0] + p.lip_b[0]) / 2, (p.lip_a[1] + p.lip_b[1]) / 2
        across = abs((x - mx) * -p.axis[1] + (y - my) * p.axis[0])
        return p.depth(x, y) > -self.ball_radius - tol and across <= p.mouth / 2 + tol

    # -- dimensions and marks ---------------------------------------------------------------
    @property
    def width(self) -> float:
        """The bed's width between the cushion noses, m (WPA Equipment Specifications)."""
        return self.geometry.width

    @property
    def length(self) -> float:
        """The bed's length between the cushion noses, m (WPA Equipment Specifications)."""
        return self.geometry.length

    @property
    def ball_radius(self) -> float:
        """The balls' radius, m (WPA Equipment Specifications)."""
        return BALL_RADIUS

    @property
    def head_string_y(self) -> float:
        """y of the head string, m: a quarter of the length from the head rail (WPA 3.16)."""
        return HEAD_STRING_FRACTION * self.length

    @property
    def long_string_x(self) -> float:
        """x of the long string, m: the table's middle (WPA 3.16)."""
        return self.width / 2

    @property
    def head_spot(self) -> tuple[float, float]:
        """The head spot (x, y), m (WPA 3.16)."""
        return self.width / 2, HEAD_STRING_FRACTION * self.length

    @property
    def centre_spot(self) -> tuple[float, float]:
        """The centre spot (x, y), m (WPA 3.16)."""
        return self.width / 2, self.length / 2

    @property
    def foot_spot(self) -> tuple[float, float]:
        """The foot spot (x, y), m: where the rack's apex ball stands (WPA 3.16)."""
        return self.width / 2, FOOT_SPOT_FRACTION * self.length

    def pocket(self, name: str) -> Pocket:
        """The pocket with this name (KeyError naming the pockets if absent)."""
        for p in self.pockets:
            if p.name == name:
                return p
        raise KeyError(f"no pocket {name!r}; pockets are {list(POCKET_NAMES)}")

    # -- pieces -------------------------------------------------------------------------------
    def piece_spec(self, kind: str) -> PieceSpec:
        """Radius, mass and inertia of a piece kind on this table ('ball')."""
        if kind == "ball":
            return ball_spec("ball", BALL_DIAMETER, BALL_MASS)
        raise LayoutError(f"{self.name} has no piece kind {kind!r}; kinds are {list(self.kinds)}")



def pool_table(size: str = "9ft", physics: BallPhysics | None = None) -> PoolTable:
    """A WPA pocket-billiards table ('9ft', '8ft' or '7ft') with its balls' physics: a
    BallPhysics, or None for the defaults (anything else: a ValueError naming `physics`)."""
    return PoolTable(physics_or_default(physics, BallPhysics, "pool_table"), size)


check_pieces_inside_cushions = check_pieces  # the name the pool tests and carom use
