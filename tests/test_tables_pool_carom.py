"""Pool and carom equipment: dimensions and their sources, pocket geometry measured from the
table's rails, racks by the WPA rules, the 5-pins spots and the derived pin numbers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cuesim.tables import carom as cr
from cuesim.tables import pool as pl
from cuesim.tables import pool_spots as ps
from cuesim.tables import racks as rk
from cuesim.tables.layout import Layout, LayoutError, Piece

INCH = 0.0254
D = pl.BALL_DIAMETER
R = D / 2


@pytest.fixture(scope="module")
def pool9():
    return pl.pool_table("9ft")


@pytest.fixture(scope="module")
def carom():
    return cr.carom_table()


def _rails(table):
    return {r.name: r for r in table.geometry.rails}


def _dir(rail):
    dx, dy = rail.x1 - rail.x0, rail.y1 - rail.y0
    n = math.hypot(dx, dy)
    return dx / n, dy / n


def _intersect(r1, r2):
    """Intersection of the infinite lines through two rails."""
    (x1, y1), (dx1, dy1) = (r1.x0, r1.y0), _dir(r1)
    (x2, y2), (dx2, dy2) = (r2.x0, r2.y0), _dir(r2)
    den = dx1 * dy2 - dy1 * dx2
    t = ((x2 - x1) * dy2 - (y2 - y1) * dx2) / den
    return x1 + t * dx1, y1 + t * dy1


def _line_distance(rail, x, y):
    nx, ny = rail.normal()
    return (x - rail.x0) * nx + (y - rail.y0) * ny


# --- pool: dimensions ------------------------------------------------------------------------
@pytest.mark.parametrize("size, inches", [("9ft", (50, 100)), ("8ft", (46, 92)),
                                          ("7ft", (39, 78))])
def test_playing_surfaces(size, inches):
    t = pl.pool_table(size)
    assert t.name == f"pool_{size}"
    assert (t.width, t.length) == pytest.approx((inches[0] * INCH, inches[1] * INCH))
    assert t.length == pytest.approx(2 * t.width)
    assert t.foot_spot == pytest.approx((t.width / 2, 0.75 * t.length))
    assert t.head_spot == pytest.approx((t.width / 2, 0.25 * t.length))


def test_nine_foot_matches_the_referee_marks(pool9):
    assert (pool9.width, pool9.length) == pytest.approx((ps.PLAYING_WIDTH, ps.PLAYING_LENGTH))
    assert pool9.name == "pool_9ft"  # the table name of the referee's layouts
    assert pool9.foot_spot == pytest.approx(ps.FOOT_SPOT)
    assert pool9.head_spot == pytest.approx(ps.HEAD_SPOT)
    assert pool9.centre_spot == pytest.approx(ps.CENTER_SPOT)
    lines = {s.name: s for s in pool9.geometry.lines}
    head = lines[ps.HEAD_STRING_LINE]
    assert (head.nx, head.ny, head.c) == pytest.approx((0.0, 1.0, ps.HEAD_STRING_Y))
    long = lines[ps.LONG_STRING_LINE]
    assert (long.nx, long.ny, long.c) == pytest.approx((1.0, 0.0, ps.LONG_STRING_X))


def test_ball_and_cushion_wpa(pool9):
    ball = pool9.piece_spec("ball")
    assert 2 * ball.radius == pytest.approx(0.05715)
    assert pl.BALL_MASS_RANGE[0] <= ball.mass <= pl.BALL_MASS_RANGE[1]
    assert ball.mass == 0.163
    assert ball.inertia == pytest.approx(0.4 * ball.mass * ball.radius**2)
    lo, hi = pl.CUSHION_HEIGHT_FRACTION
    assert lo * D <= pool9.cushion_height <= hi * D
    assert pool9.cushion_height == pytest.approx(0.635 * D)


def test_bad_size_and_kind_refused(pool9):
    with pytest.raises(ValueError, match="unknown pool table size '6ft'"):
        pl.pool_table("6ft")
    with pytest.raises(LayoutError, match="no piece kind 'pin'"):
        pool9.piece_spec("pin")


def test_tables_hash_and_compare():
    a, b = pl.pool_table(), pl.pool_table()
    assert a == b and hash(a) == hash(b)
    assert a != pl.pool_table("8ft")


# --- pool: cushions, jaws, knuckles, pockets ----------------------------------------------------
def test_names_are_the_referees(pool9):
    names = [r.name for r in pool9.geometry.rails]
    cushions = [n for n in names if "_jaw_" not in n]
    assert sorted(cushions) == sorted(ps.CUSHION_RAIL)
    assert sorted(h.name for h in pool9.geometry.holes) == sorted(ps.POCKETS)
    jaws = sorted(n for n in names if "_jaw_" in n)
    assert jaws == sorted(f"{p}_jaw_{s}" for p in ps.POCKETS for s in "ab")
    knuckles = sorted(k.name for k in pool9.geometry.knuckles)
    assert knuckles == sorted(f"{p}_knuckle_{s}" for p in ps.POCKETS for s in "ab")


def test_cushion_of_features():
    assert pl.cushion_of("foot_left_jaw_a") == "foot_rail"
    assert pl.cushion_of("foot_left_jaw_b") == "left_foot_rail"
    assert pl.cushion_of("head_right_knuckle_b") == "right_head_rail"
    assert pl.cushion_of("side_left_jaw_a") == "left_head_rail"
    assert pl.cushion_of("side_right_jaw_b") == "right_foot_rail"
    assert pl.rail_of_feature("side_right_knuckle_a") == "right"
    assert pl.rail_of_feature("head_rail") == "head"
    with pytest.raises(ValueError, match="no cushion"):
        pl.cushion_of("middle_jaw_c")


def test_every_jaw_belongs_to_the_cushion_it_touches(pool9):
    rails = _rails(pool9)
    for name, rail in rails.items():
        if "_jaw_" in name:
            cushion = rails[pl.cushion_of(name)]
            # the jaw starts or ends at the cushion's lip: the lines meet within a few mm
            lip = _intersect(cushion, rail)
            ends = [(cushion.x0, cushion.y0), (cushion.x1, cushion.y1)]
            assert min(math.dist(lip, e) for e in ends) < 0.005


@pytest.mark.parametrize("size", ["9ft", "8ft", "7ft"])
def test_rails_have_the_surface_on_their_left(size):
    t = pl.pool_table(size)
    cx, cy = t.width / 2, t.length / 2
    pockets = {p.name: p for p in t.pockets}
    for rail in t.geometry.rails:
        nx, ny = rail.normal()
        mx, my = (rail.x0 + rail.x1) / 2, (rail.y0 + rail.y1) / 2
        if "_jaw_" not in rail.name:
            assert (cx - mx) * nx + (cy - my) * ny > 0, rail.name
            continue
        # a jaw faces the pocket's axis (the channel the ball falls through)
        p = pockets[rail.name.rsplit("_jaw_", 1)[0]]
        hx, hy = p.capture.x, p.capture.y
        ax, ay = p.axis
        t_ = (mx - hx) * ax + (my - hy) * ay
        px, py = hx + t_ * ax, hy + t_ * ay  # foot of the perpendicular on the axis
        assert (px - mx) * nx + (py - my) * ny > 0, rail.name
    # the boundary runs counter-clockwise: positive signed area of the rail chain
    pts = [(r.x0, r.y0) for r in t.geometry.rails]
    area = 0.5 * sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1],
                                                                     strict=True))
    assert area > 0.9 * t.width * t.length


def test_cushion_noses_are_the_playing_surface(pool9):
    rails = _rails(pool9)
    w, l = pool9.width, pool9.length
    assert rails["head_rail"].y0 == rails["head_rail"].y1 == 0.0
    assert rails["foot_rail"].y0 == rails["foot_rail"].y1 == l
    for n in ("left_head_rail", "left_foot_rail"):
        assert rails[n].x0 == rails[n].x1 == 0.0
    for n in ("right_head_rail", "right_foot_rail"):
        assert rails[n].x0 == rails[n].x1 == w


@pytest.mark.parametrize("size", ["9ft", "8ft", "7ft"])
def test_pocket_mouths_and_cut_angles_from_the_geometry(size):
    t = pl.pool_table(size)
    rails = _rails(t)
    for pocket in t.pockets:
        lips = []
        for s in "ab":
            jaw = rails[f"{pocket.name}_jaw_{s}"]
            cushion = rails[pl.cushion_of(jaw.name)]
            lip = _intersect(cushion, jaw)
            lips.append(lip)
            # the wedge of rubber at the lip, between the nose line and the jaw facing
            cu, ju = _dir(cushion), _dir(jaw)
            into = 1.0 if math.dist(lip, (jaw.x0, jaw.y0)) < math.dist(lip, (jaw.x1, jaw.y1)) \
                else -1.0  # the jaw direction pointing away from the lip
            back = 1.0 if math.dist(lip, (cushion.x0, cushion.y0)) > math.dist(
                lip, (cushion.x1, cushion.y1)) else -1.0  # the nose line pointing away
            v1 = (-back * cu[0], -back * cu[1])
            v2 = (into * ju[0], into * ju[1])
            wedge = math.degrees(math.acos(v1[0] * v2[0] + v1[1] * v2[1]))
            assert wedge == pytest.approx(142.0 if pocket.kind == "corner" else 104.0, abs=1e-9)
        mouth = math.dist(*lips)
        lo, hi = pl.CORNER_MOUTH_RANGE if pocket.kind == "corner" else pl.SIDE_MOUTH_RANGE
        assert lo <= mouth <= hi, pocket.name
        assert mouth == pytest.approx(pocket.mouth)
        assert np.allclose(sorted(lips), sorted([pocket.lip_a, pocket.lip_b]), atol=1e-12)
    assert pl.CORNER_MOUTH / INCH == pytest.approx(4.5625)
    assert pl.SIDE_MOUTH / INCH == pytest.approx(5.0625)


def test_side_pockets_centred_on_the_long_cushions(pool9):
    for name in ("side_left", "side_right"):
        p = pool9.pocket(name)
        assert (p.lip_a[1] + p.lip_b[1]) / 2 == pytest.approx(pool9.length / 2)
        assert p.lip_a[1] < p.lip_b[1]  # a on the head side
        assert p.lip_a[0] == p.lip_b[0] == (0.0 if name == "side_left" else pool9.width)


def test_knuckles_round_the_lips(pool9):
    rails = _rails(pool9)
    for k in pool9.geometry.knuckles:
        assert k.radius == pl.KNUCKLE_RADIUS
        pocket, s = k.name.split("_knuckle_")
        jaw = rails[f"{pocket}_jaw_{s}"]
        cushion = rails[pl.cushion_of(jaw.name)]
        for rail in (jaw, cushion):
            # tangent to the face from behind it, touching at one end of the segment
            assert _line_distance(rail, k.x, k.y) == pytest.approx(-k.radius, abs=1e-12)
            ends = [(rail.x0, rail.y0), (rail.x1, rail.y1)]
            assert min(math.dist((k.x, k.y), e) for e in ends) == pytest.approx(k.radius)


def test_capture_circles_behind_the_mouths(pool9):
    for p in pool9.pockets:
        hole = p.capture
        # the circle's nearest point lies the WPA shelf behind the middle of the mouth line
        assert p.depth(hole.x, hole.y) - hole.radius == pytest.approx(p.shelf)
        lo, hi = (1.0 * INCH, 2.25 * INCH) if p.kind == "corner" else (0.0, 0.375 * INCH)
        assert lo <= p.shelf <= hi
        # a ball frozen to a cushion nose next to the pocket is not over it
        for lip in (p.lip_a, p.lip_b):
            assert math.dist(lip, (hole.x, hole.y)) > hole.radius
    # a corner ball whose centre just crossed the line between the cushion noses still rests
    p = pool9.pocket("head_left")
    mx, my = (p.lip_a[0] + p.lip_b[0]) / 2, (p.lip_a[1] + p.lip_b[1]) / 2
    x, y = mx + 0.001 * p.axis[0], my + 0.001 * p.axis[1]
    assert p.depth(x, y) == pytest.approx(0.001)
    assert math.hypot(x - p.capture.x, y - p.capture.y) > p.capture.radius


def test_jaws_close_the_pocket_up_to_the_capture_circle(pool9):
    """Between the jaw ends every reachable ball centre lies inside the capture circle, so a
    ball cannot get behind the jaws without being pocketed."""
    rails = _rails(pool9)
    for p in pool9.pockets:
        ends = []
        for s in "ab":
            jaw = rails[f"{p.name}_jaw_{s}"]
            ends.append(max([(jaw.x0, jaw.y0), (jaw.x1, jaw.y1)], key=lambda q: p.depth(*q)))
        (x0, y0), (x1, y1) = ends
        assert p.depth(x0, y0) == pytest.approx(p.capture.radius + p.shelf)
        half = math.dist(ends[0], ends[1]) / 2
        assert half > R  # a ball fits through
        for f in np.linspace(0, 1, 21):
            # centres on the end line, at least one ball radius from both jaws
            x, y = x0 + f * (x1 - x0), y0 + f * (y1 - y0)
            if min(math.dist((x, y), ends[0]), math.dist((x, y), ends[1])) < R:
                continue
            assert math.hypot(x - p.capture.x, y - p.capture.y) < p.capture.radius


def test_rail_ball_past_a_side_pocket_is_not_pocketed(pool9):
    hole = pool9.pocket("side_left").capture
    assert math.hypot(R - hole.x, pool9.length / 2 - hole.y) > hole.radius


# --- pool: layouts ----------------------------------------------------------------------------
def _pool_layout(table, *pieces):
    return Layout(table.name, tuple(Piece(i, "ball", x, y) for i, x, y in pieces))


def test_check_layout_accepts_and_measures(pool9):
    lay = _pool_layout(pool9, ("cue", 0.6, 0.4), ("1", 0.6, 1.9))
    pool9.check_layout(lay)
    centres, radii = pool9.layout_arrays(lay)
    assert centres.shape == (2, 2) and np.allclose(radii, R)


@pytest.mark.parametrize("pieces, message", [
    ([("cue", 0.6, 0.4), ("1", 0.6 + D - 1e-4, 0.4)], r"'cue' and '1' overlap by 0\.100 mm"),
    ([("cue", R - 1e-3, 0.4)], "not wholly inside the cushion noses"),
    ([("cue", 0.6, pl.pool_table().length - R + 1e-3)], "not wholly inside the cushion noses"),
])
def test_bad_layouts_refused(pool9, pieces, message):
    with pytest.raises(LayoutError, match=message):
        pool9.check_layout(_pool_layout(pool9, *pieces))


def test_layout_for_another_table_or_kind_refused(pool9):
    with pytest.raises(LayoutError, match="layout is for table 'pool_8ft', not 'pool_9ft'"):
        pool9.check_layout(Layout("pool_8ft", (Piece("cue", "ball", 0.6, 0.4),)))
    with pytest.raises(LayoutError, match="no piece kind 'puck'"):
        pool9.check_layout(Layout("pool_9ft", (Piece("cue", "puck", 0.6, 0.4),)))


def test_over_a_pocket_refused():
    """With a capture circle reaching the surface (a test-only table), a ball over it is
    refused by name."""
    from cuesim.tables.geometry import Hole

    t = pl.pool_table()
    geo = t.geometry
    hole = Hole("centre_hole", 0.6, 1.2, 0.05)
    fake = type("T", (), {"name": t.name, "piece_spec": t.piece_spec, "hole_word": "pocket",
                          "geometry": type(geo)(geo.width, geo.length, geo.rails, (hole,))})()
    with pytest.raises(LayoutError, match="stands over pocket 'centre_hole'"):
        pl.check_pieces_inside_cushions(fake, _pool_layout(t, ("1", 0.61, 1.2)))


# --- racks ----------------------------------------------------------------------------------
def _at(layout, k, places):
    x, y = places[k]
    return min(layout.pieces, key=lambda p: math.hypot(p.x - x, p.y - y))


def _neighbour_distances(layout):
    pos = layout.positions()
    d = np.hypot(pos[:, None, 0] - pos[None, :, 0], pos[:, None, 1] - pos[None, :, 1])
    return d[(d > 0) & (d < 1.2 * D)]


def test_nine_foot_racks_match_the_referee_places(pool9):
    assert np.allclose(rk.eight_ball_rack(pool9).positions(), ps.triangle_positions())
    assert np.allclose(rk.nine_ball_rack(pool9).positions(), ps.diamond_positions())
    assert rk.eight_ball_rack(pool9).table == "pool_9ft"


def test_racks_pass_the_referee_check(pool9):
    from cuesim.rules.pool.racks import check_rack

    for seed in range(5):
        assert check_rack("eight_ball", rk.eight_ball_rack(pool9, rng=seed, gap=1e-4)) == []
        assert check_rack("nine_ball", rk.nine_ball_rack(pool9, rng=seed, gap=1e-4)) == []
        assert check_rack("straight_pool", rk.straight_pool_rack(pool9, rng=seed)) == []


@pytest.mark.parametrize("seed", [None, 0, 1, 2, 7, 11])
def test_eight_ball_rack_article_4_3(pool9, seed):
    lay = rk.eight_ball_rack(pool9, rng=seed)
    places = rk.triangle_places(pool9)
    assert sorted(lay.ids(), key=int) == [str(n) for n in range(1, 16)]
    assert _at(lay, 4, places).id == "8"
    corners = {rk.ball_group(_at(lay, k, places).id) for k in (10, 14)}
    assert corners == {"solids", "stripes"}
    apex = _at(lay, 0, places)
    assert (apex.x, apex.y) == pytest.approx(pool9.foot_spot, abs=1e-12)
    assert np.allclose(_neighbour_distances(lay), D)  # frozen: every neighbour touches
    pool9.check_layout(lay)


def test_random_orders_are_seeded_and_vary(pool9):
    a = rk.eight_ball_rack(pool9, rng=3).ids()
    assert a == rk.eight_ball_rack(pool9, rng=3).ids()
    assert len({tuple(rk.eight_ball_rack(pool9, rng=s).ids()) for s in range(10)}) > 5
    assert len({tuple(rk.nine_ball_rack(pool9, rng=s).ids()) for s in range(10)}) > 5


@pytest.mark.parametrize("seed", [None, 0, 5])
def test_nine_ball_rack_article_5_2(pool9, seed):
    lay = rk.nine_ball_rack(pool9, rng=seed)
    places = rk.diamond_places(pool9)
    assert len(lay) == 9
    assert _at(lay, 0, places).id == "1"
    assert (lay.get("1").x, lay.get("1").y) == pytest.approx(pool9.foot_spot)
    assert _at(lay, 4, places).id == "9"
    assert lay.get("9").y == pytest.approx(pool9.foot_spot[1] + 2 * D * math.sqrt(3) / 2)
    pool9.check_layout(lay)


@pytest.mark.parametrize("seed", [None, 0, 5])
def test_straight_pool_rack_article_6_4(pool9, seed):
    lay = rk.straight_pool_rack(pool9, rng=seed)
    back = sorted((p for p in lay.pieces if p.y > pool9.foot_spot[1] + 3.9 * D * 0.866),
                  key=lambda p: p.x)
    assert len(back) == 5
    # the racker stands behind the foot rail facing the head rail: his right is small x
    assert back[0].id == "1" and back[-1].id == "5"


def test_straight_pool_rerack_apex_empty(pool9):
    cue = rk.cue_ball_in_kitchen(pool9)
    fifteenth = Piece("7", "ball", 0.3, 1.0, "solids")
    lay = rk.straight_pool_rerack(pool9, rng=4, gap=1e-4, others=[cue, fifteenth])
    balls = [p for p in lay.pieces if p.id not in ("cue", "7")]
    assert len(balls) == 14 and "7" not in [p.id for p in balls]
    fx, fy = pool9.foot_spot
    assert min(math.hypot(p.x - fx, p.y - fy) for p in balls) > 0.9 * D
    places = rk.triangle_places(pool9)[1:]
    for p in balls:
        assert min(math.hypot(p.x - x, p.y - y) for x, y in places) < 1e-3
    # a 15th ball in the way is refused (6.7.6 says where it goes instead)
    with pytest.raises(LayoutError, match="overlap"):
        rk.straight_pool_rerack(pool9, others=[Piece("7", "ball", fx, fy + D, "solids")])


@pytest.mark.parametrize("make", [rk.eight_ball_rack, rk.nine_ball_rack, rk.straight_pool_rack])
def test_gap_option(pool9, make):
    gap = 1e-4
    lay = make(pool9, rng=9, gap=gap)
    d = _neighbour_distances(lay)
    assert d.min() > D + 0.04 * gap and d.max() < D + 0.96 * gap
    again = make(pool9, rng=9, gap=gap)
    assert np.array_equal(lay.positions(), again.positions())
    # without a generator the gaps are still reproducible (seed 0)
    assert np.array_equal(make(pool9, gap=gap).positions(), make(pool9, gap=gap).positions())
    with pytest.raises(ValueError, match="rack gap"):
        make(pool9, gap=-1e-4)


@pytest.mark.parametrize("size", ["8ft", "7ft"])
def test_racks_fit_every_size(size):
    t = pl.pool_table(size)
    cue = rk.cue_ball_in_kitchen(t, rng=1)
    for make in (rk.eight_ball_rack, rk.nine_ball_rack, rk.straight_pool_rack):
        lay = make(t, rng=2, gap=1e-4, cue=cue)
        assert lay.table == t.name and "cue" in lay.ids()
        t.check_layout(lay)


@pytest.mark.parametrize("make, order, message", [
    (rk.eight_ball_rack, ("8", *rk.EIGHT_BALL_ORDER[1:4], "1", *rk.EIGHT_BALL_ORDER[5:]),
     r"8 must stand in the centre of the triangle \(4\.3\)"),
    (rk.eight_ball_rack, tuple(str(n) for n in (1, 9, 2, 10, 8, 3, 11, 4, 12, 5, 6, 13, 14, 15,
                                                 7)), r"a stripe and a solid .*\(4\.3\)"),
    (rk.eight_ball_rack, rk.EIGHT_BALL_ORDER[:14], "8-ball racks the balls"),
    (rk.nine_ball_rack, ("2", "1", *rk.NINE_BALL_ORDER[2:]), r"the 1 must stand .*\(5\.2\)"),
    (rk.nine_ball_rack, ("1", "9", "3", "4", "2", "5", "6", "7", "8"),
     r"the 9 must stand .*\(5\.2\)"),
    (rk.straight_pool_rack, tuple(reversed(rk.STRAIGHT_POOL_ORDER)), r"\(6\.4"),
])
def test_bad_orders_refused(pool9, make, order, message):
    with pytest.raises(LayoutError, match=message):
        make(pool9, order=order)


def test_rerack_bad_balls_refused(pool9):
    with pytest.raises(LayoutError, match="14 different balls"):
        rk.straight_pool_rerack(pool9, ball_ids=[str(n) for n in range(1, 14)])
    with pytest.raises(LayoutError, match="object balls"):
        rk.straight_pool_rerack(pool9, ball_ids=["cue", *[str(n) for n in range(1, 14)]])


def test_cue_ball_in_kitchen(pool9):
    cue = rk.cue_ball_in_kitchen(pool9)
    assert (cue.id, cue.group) == ("cue", "cue")
    assert cue.y == pytest.approx(pool9.head_string_y - R) and ps.in_kitchen(cue.y)
    for seed in range(50):
        c = rk.cue_ball_in_kitchen(pool9, rng=seed)
        assert ps.in_kitchen(c.y) and R <= c.x <= pool9.width - R and c.y >= R
    assert rk.cue_ball_in_kitchen(pool9, x=0.3, rng=1).x == 0.3
    with pytest.raises(LayoutError, match=r"not behind the head string .*3\.16"):
        rk.cue_ball_in_kitchen(pool9, y=pool9.head_string_y)
    with pytest.raises(LayoutError, match="not wholly inside the cushion noses"):
        rk.cue_ball_in_kitchen(pool9, x=0.01)


# --- carom / 5-pins -------------------------------------------------------------------------
def test_carom_table_dimensions(carom):
    geo = carom.geometry
    assert (geo.width, geo.length) == (1.42, 2.84)
    assert carom.cushion_height == 0.037
    ball = carom.piece_spec("ball")
    assert 2 * ball.radius == 0.0615 and ball.mass == 0.210
    assert not geo.holes
    assert {r.name for r in geo.rails} == {"bottom_rail", "right_rail", "top_rail", "left_rail"}
    for rail in geo.rails:
        nx, ny = rail.normal()
        mx, my = (rail.x0 + rail.x1) / 2, (rail.y0 + rail.y1) / 2
        assert (0.71 - mx) * nx + (1.42 - my) * ny > 0


def test_carom_spots_and_lines_article_1(carom):
    s = carom.spots
    assert s["top_spot"] == pytest.approx((0.710, 2.840 - 0.100))  # 1.1: 100 mm, 710 mm
    assert s["bottom_spot"] == pytest.approx((0.710, 0.100))  # 1.4
    assert s["lag_spot"] == pytest.approx((0.710, 0.710))  # 1.3: 710 mm from the bottom rail
    assert s["red_spot"] == pytest.approx((0.710, 2.130))  # 1.2: centre of the top half
    assert s["centre_spot"] == pytest.approx((0.710, 1.420))
    lines = {x.name: x for x in carom.geometry.lines}
    assert (lines["middle_line"].ny, lines["middle_line"].c) == pytest.approx((1.0, 1.42))
    assert (lines["lag_line"].ny, lines["lag_line"].c) == pytest.approx((1.0, 0.71))


def test_pin_profile_dimensions():
    h = np.linspace(0, cr.PIN_HEIGHT, 100_001)
    r = cr.pin_radius_at(h)
    assert r[0] == pytest.approx(0.0035)  # base 7 mm
    assert 2 * r.max() == pytest.approx(0.0095)  # widest 9-10 mm
    assert 0.009 <= 2 * r.max() <= 0.010
    head = r[h > cr.PIN_NECK_HEIGHT]
    assert 0.006 <= 2 * head.max() <= 0.007  # head 6-7 mm
    assert r[-1] == pytest.approx(0.0, abs=1e-6)  # the rounded top
    assert cr.pin_radius_at(0.03) == 0.0 and cr.pin_radius_at(-0.001) == 0.0


def test_pin_contact_derived_near_the_head():
    d, h = cr.pin_contact()
    a = cr.PIN_HEAD_DIAMETER / 2
    c = cr.PIN_HEIGHT - a
    Rb = cr.BALL_RADIUS
    assert d == pytest.approx(math.sqrt((Rb + a) ** 2 - (Rb - c) ** 2), abs=1e-7)
    assert d == pytest.approx(0.03279, abs=1e-5)
    assert cr.PIN_NECK_HEIGHT < h < cr.PIN_HEIGHT  # touches the head, not the belly
    belly = cr.ball_section_radius(cr.PIN_WIDEST_HEIGHT) + cr.PIN_WIDEST_DIAMETER / 2
    assert belly < d - 0.005
    # the naive 2D sum with the widest radius would overstate it
    assert Rb + cr.PIN_WIDEST_DIAMETER / 2 > d


def test_pin_spacing_lets_a_ball_just_pass(carom):
    s = cr.pin_spacing()
    assert 0.065 <= s <= 0.066  # issue 3: about 65-66 mm
    d = cr.pin_contact()[0]
    assert s / 2 > d and s / 2 - d < 0.0005  # midway a ball clears both pins, but barely
    spots = cr.pin_spots()
    c = spots["pin_centre"]
    for pid in ("pin_top", "pin_right", "pin_bottom", "pin_left"):
        assert math.dist(c, spots[pid]) == pytest.approx(s)
    # a ball rolling along the line midway between the centre pin and the right one
    x = c[0] + s / 2
    for y in np.linspace(c[1] - 0.1, c[1] + 0.1, 401):
        assert math.dist((x, y), c) >= d and math.dist((x, y), spots["pin_right"]) >= d


def test_pin_piece_spec(carom):
    pin = carom.piece_spec("pin")
    assert pin.radius == pytest.approx(cr.pin_contact()[0] - cr.BALL_RADIUS)
    assert 0.0003 < pin.mass < 0.002  # about a gram: the ball (210 g) is barely deflected
    assert pin.thickness == 0.025
    assert carom.contact_distance("ball", "pin") == pytest.approx(cr.pin_contact()[0])
    assert carom.contact_distance("pin", "pin") == cr.PIN_WIDEST_DIAMETER
    with pytest.raises(LayoutError, match="no piece kind 'puck'"):
        carom.contact_distance("ball", "puck")


def test_five_pins_opening_article_4(carom):
    lay = cr.five_pins_layout(carom)
    assert lay.table == "carom"
    assert set(lay.ids()) == {"white", "yellow", "red", *cr.PIN_IDS}
    assert (lay.get("yellow").x, lay.get("yellow").y) == pytest.approx(carom.spots["top_spot"])
    assert (lay.get("red").x, lay.get("red").y) == pytest.approx(carom.spots["red_spot"])
    assert lay.get("white").y + cr.BALL_RADIUS <= 1.42
    assert lay.get("pin_centre").group == "red"
    assert {lay.get(p).group for p in cr.PIN_IDS[1:]} == {"white"}
    carom.check_layout(lay)
    y = cr.five_pins_layout(carom, breaker="yellow", breaker_xy=(1.0, 0.4))
    assert (y.get("white").x, y.get("white").y) == pytest.approx(carom.spots["top_spot"])
    carom.check_layout(cr.five_pins_lag_layout(carom))


def test_five_pins_bad_layouts_refused(carom):
    with pytest.raises(LayoutError, match=r"over the middle line.*4\.2"):
        cr.five_pins_layout(carom, breaker_xy=(0.3, 1.42 - 0.02))
    with pytest.raises(LayoutError, match="white or the yellow"):
        cr.five_pins_layout(carom, breaker="red")
    # a ball closer to a pin than the contact distance overlaps it
    d = cr.pin_contact()[0]
    with pytest.raises(LayoutError, match=r"'white' and 'pin_centre' overlap"):
        cr.five_pins_layout(carom, breaker_xy=(0.71, 1.42 - d + 1e-4))
    lay = Layout("carom", (Piece("white", "ball", 0.71, 1.42 - d - 1e-4),
                           Piece("pin_centre", "pin", 0.71, 1.42)))
    carom.check_layout(lay)
    with pytest.raises(LayoutError, match="not wholly inside the cushion noses of carom"):
        carom.check_layout(Layout("carom", (Piece("red", "ball", 0.02, 1.0),)))
    with pytest.raises(LayoutError, match="layout is for table 'pool_9ft'"):
        carom.check_layout(Layout("pool_9ft", (Piece("red", "ball", 0.5, 1.0),)))


def test_tables_pickle_without_their_cached_hash(carom):
    import pickle

    for t in (pl.pool_table("7ft"), carom):
        hash(t)
        state = pickle.dumps(t)
        assert b"_hash" not in state
        u = pickle.loads(state)
        assert u == t and hash(u) == hash(t)
