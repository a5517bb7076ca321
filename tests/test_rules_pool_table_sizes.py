"""The WPA referee's marks follow the table the layout is on (WPA 1.5, 3.16, 3.32): the head
string a quarter of the playing length from the head rail, the foot spot the middle of the foot
string (a quarter of the length from the foot rail) on the long string, the racks on that foot
spot. On the 8-ft and 7-ft tables a spotted ball, a 14.1 re-rack, the kitchen and the racks
use that table's own marks; the 9-ft marks are the module constants of `pool_spots`."""

from __future__ import annotations

import math

import pytest

from cuesim.rules.pool import check_rack, rack_layout
from cuesim.rules.pool.facts import ShotFacts
from cuesim.rules.pool.scenario import adjudicate_scenario
from cuesim.rules.pool.straight_pool import StraightPool, near_rail_ball, rerack_positions
from cuesim.tables import pool_spots as ps
from cuesim.tables.layout import Layout, Piece
from cuesim.tables.pool import PLAYING_SURFACES, check_pieces_inside_cushions, pool_table
from cuesim.tables.racks import eight_ball_rack, nine_ball_rack, straight_pool_rack
from tests.pool_util import hit, strike

SIZES = ["8ft", "7ft"]
S = {"t": 0.0, "kind": "strike", "a": "cue"}
R = ps.BALL_RADIUS


def marks(size: str) -> ps.PoolMarks:
    return ps.marks_for(f"pool_{size}")


def lay(size: str, balls: dict[str, tuple[float, float]]) -> dict:
    return {"table": f"pool_{size}",
            "pieces": [{"id": b, "kind": "ball", "x": x, "y": y} for b, (x, y) in balls.items()]}


def state(game: str, **kw: object) -> dict:
    return {"game": game, "players": ["Ann", "Bob"], "shooter": "Ann", "breaker": "Ann",
            "phase": "play", "ball_in_hand": None, **kw}


def on_table(size: str, layout: dict) -> Layout:
    """The layout as the referee left it, checked to lie on the table's bed (no ball over a
    cushion, none overlapping)."""
    out = Layout.from_dict(layout, source="outcome", table=f"pool_{size}")
    assert out.table == f"pool_{size}"
    check_pieces_inside_cushions(pool_table(size), out)
    return out


# --- the marks themselves ----------------------------------------------------------------------
def test_1_5_3_16_nine_foot_marks_are_the_module_constants():
    m = ps.marks_for("pool_9ft")
    assert m is ps.NINE_FOOT
    assert (m.length, m.width) == (ps.PLAYING_LENGTH, ps.PLAYING_WIDTH)
    assert m.head_string_y == ps.HEAD_STRING_Y
    assert m.head_spot == ps.HEAD_SPOT
    assert m.center_spot == ps.CENTER_SPOT
    assert m.foot_spot == ps.FOOT_SPOT
    assert m.long_string_x == ps.LONG_STRING_X
    assert m.pockets == ps.POCKETS
    assert m.triangle_positions(5) == ps.triangle_positions(5)
    assert m.diamond_positions() == ps.diamond_positions()
    assert m.rack_edges == ps._RACK_EDGES
    assert m.spot_balls(["9", "3"], [("cue", 0.2, 0.3)]) == ps.spot_balls(["9", "3"],
                                                                          [("cue", 0.2, 0.3)])


@pytest.mark.parametrize("size", ["9ft", *SIZES])
def test_1_5_3_16_marks_follow_the_table_size(size):
    """Each table's marks come from its own playing surface (cuesim.tables.pool), the same
    marks the table itself reports; the balls are the same on every size."""
    table, m = pool_table(size), marks(size)
    assert (m.width, m.length) == PLAYING_SURFACES[size] == (table.width, table.length)
    assert m.head_string_y == pytest.approx(table.head_string_y, abs=1e-12)
    assert m.head_spot == pytest.approx(table.head_spot, abs=1e-12)
    assert m.center_spot == pytest.approx(table.centre_spot, abs=1e-12)
    assert m.foot_spot == pytest.approx(table.foot_spot, abs=1e-12)
    assert m.long_string_x == pytest.approx(table.long_string_x, abs=1e-12)
    assert table.ball_radius == ps.BALL_RADIUS
    assert table.piece_spec("ball").radius == pytest.approx(ps.BALL_RADIUS, abs=1e-15)
    assert ps.marks_for(f"pool_{size}") is m  # cached


def test_marks_for_refuses_a_table_that_is_no_pool_table():
    for name in ("carom", "novus", "pool_6ft", "pool_"):
        with pytest.raises(ValueError, match="no pool table"):
            ps.marks_for(name)


# --- 3.32 spotting on the table's long string ---------------------------------------------
def nine_on_a_scratch(size: str, balls: dict[str, tuple[float, float]]) -> dict:
    """9-ball: Ann plays the 3, which pockets the 9; the cue ball scratches (5.7: the 9 is
    spotted, 3.32)."""
    return adjudicate_scenario({
        "game": "9-ball", "state": state("nine_ball"),
        "shot": {"initial": lay(size, balls),
                 "events": [S, {"t": 0.2, "kind": "collide", "a": "cue", "b": "3"},
                            {"t": 0.3, "kind": "collide", "a": "3", "b": "9"},
                            {"t": 0.5, "kind": "pocket", "a": "9", "feature": "foot_left"},
                            {"t": 0.6, "kind": "pocket", "a": "cue", "feature": "foot_right"}]}})


@pytest.mark.parametrize("size", SIZES)
def test_3_32_spotted_nine_goes_to_this_table_s_foot_spot(size):
    m = marks(size)
    w, length = m.width, m.length
    out = nine_on_a_scratch(size, {"cue": (w / 2, 0.3 * length), "3": (w / 2, 0.45 * length),
                                   "9": (0.3 * w, 0.6 * length)})
    [spotted] = out["steps"][0]["spotted"]
    assert spotted["id"] == "9" and spotted["article"] == "WPA 5.7"
    assert (spotted["x"], spotted["y"]) == pytest.approx(m.foot_spot, abs=1e-12)
    assert spotted["x"] == pytest.approx(m.long_string_x, abs=1e-12)  # on the long string
    assert spotted["y"] == pytest.approx(0.75 * length, abs=1e-12)  # second diamond from foot
    assert (spotted["x"], spotted["y"]) != pytest.approx(ps.FOOT_SPOT)  # not the 9-ft spot
    on_table(size, out["layout"])


@pytest.mark.parametrize("size", SIZES)
def test_3_32_foot_spot_taken_the_ball_goes_behind_it_on_this_table_s_long_string(size):
    """3.32: a ball on the foot spot; the 9 is spotted frozen behind it toward the foot rail,
    on the long string of the small table and on its bed."""
    m = marks(size)
    w, length = m.width, m.length
    fx, fy = m.foot_spot
    out = nine_on_a_scratch(size, {"cue": (w / 2, 0.3 * length), "3": (w / 2, 0.45 * length),
                                   "9": (0.3 * w, 0.6 * length), "5": (fx, fy)})
    [spotted] = out["steps"][0]["spotted"]
    assert spotted["x"] == pytest.approx(fx, abs=1e-12)
    assert spotted["y"] == pytest.approx(fy + ps.BALL_DIAMETER, abs=1e-9)
    on_table(size, out["layout"])


# --- 6.4 / 6.7.3 the 14.1 re-rack on the table's foot spot ---------------------------------
def fourteenth_ball(size: str, seven: tuple[float, float] | None,
                    cue: tuple[float, float] | None = None) -> dict:
    """14.1: Ann (13 points) pockets the 4, the 14th ball of the rack, on a called shot; the 7
    is the 15th ball: left at `seven`, or (None) pocketed with the 14th."""
    m = marks(size)
    w, length = m.width, m.length
    cue = cue or (0.3 * w, 0.45 * length)
    balls = {"cue": cue, "4": (0.3 * w, 0.6 * length),
             "7": seven or (0.7 * w, 0.6 * length)}
    events = [S, {"t": 0.2, "kind": "collide", "a": "cue", "b": "4"},
              {"t": 0.5, "kind": "pocket", "a": "4", "feature": "foot_left"}]
    if seven is None:
        events += [{"t": 0.55, "kind": "collide", "a": "cue", "b": "7"},
                   {"t": 0.6, "kind": "pocket", "a": "7", "feature": "foot_right"}]
    return adjudicate_scenario({
        "game": "14.1", "state": state("straight_pool", scores={"Ann": 13, "Bob": 0}),
        "shot": {"initial": lay(size, balls), "events": events,
                 "declaration": {"called_ball": "4", "called_pocket": "foot_left"}}})


def rack_places(size: str, layout: Layout, skip: str) -> dict[str, int]:
    """Which place of this table's 15-ball triangle each racked ball stands on (exactly)."""
    places = marks(size).triangle_positions(5)
    racked = {p.id: (p.x, p.y) for p in layout.pieces if p.id not in ("cue", skip)}
    on = {b: min(range(15), key=lambda k: math.dist(places[k], xy)) for b, xy in racked.items()}
    assert all(math.dist(places[on[b]], xy) < 1e-9 for b, xy in racked.items())
    assert len(set(on.values())) == len(on)
    return on


@pytest.mark.parametrize("size", SIZES)
def test_6_7_3_rerack_of_fourteen_stands_on_this_table_s_triangle(size):
    m = marks(size)
    seven = (0.7 * m.width, 0.6 * m.length)  # neither in the rack area nor the kitchen
    out = fourteenth_ball(size, seven)
    step = out["steps"][0]
    assert step["ruling"]["legal"] and any("6.7.3" in n for n in step["ruling"]["notes"])
    layout = on_table(size, out["layout"])
    assert len([p for p in layout.pieces if p.id != "cue"]) == 15
    on = rack_places(size, layout, "7")
    assert len(on) == 14 and 0 not in on.values()  # the apex place (the foot spot) left empty
    assert on["1"] == 10 and on["5"] == 14  # 6.4
    apex = m.triangle_positions(5)[0]
    assert apex == pytest.approx(m.foot_spot, abs=1e-12)
    racked = [p for p in layout.pieces if p.id not in ("cue", "7")]
    assert all(m.in_rack_area(p.x, p.y) for p in racked)
    assert max(p.y for p in racked) <= m.length - R  # inside the foot cushion
    assert (layout.get("7").x, layout.get("7").y) == pytest.approx(seven)


@pytest.mark.parametrize("size", SIZES)
def test_6_7_3_fifteenth_pocketed_with_the_fourteenth_goes_to_this_table_s_foot_spot(size):
    m = marks(size)
    out = fourteenth_ball(size, None)
    layout = on_table(size, out["layout"])
    seven = layout.get("7")
    assert (seven.x, seven.y) == pytest.approx(m.foot_spot, abs=1e-12)  # the apex place
    assert {"id": "7", "x": seven.x, "y": seven.y, "article": "WPA 6.7.3"} in \
        out["steps"][0]["spotted"]
    on = rack_places(size, layout, "7")
    assert len(on) == 14 and 0 not in on.values()
    assert len([p for p in layout.pieces if p.id != "cue"]) == 15


@pytest.mark.parametrize("size", SIZES)
def test_6_7_6_fifteenth_in_this_table_s_rack_area_goes_to_its_head_spot(size):
    """6.7.3's table (6.7.6): the 15th ball in the rack area, the cue ball elsewhere: the 15th
    goes to the head spot, both of the small table."""
    m = marks(size)
    fx, fy = m.foot_spot
    seven = (fx + 0.01, fy + 0.02)  # by the apex place
    assert m.in_rack_area(*seven) and not ps.in_rack_area(*seven)  # not the 9-ft rack area
    out = fourteenth_ball(size, seven)
    layout = on_table(size, out["layout"])
    assert (layout.get("7").x, layout.get("7").y) == pytest.approx(m.head_spot, abs=1e-12)
    assert len(rack_places(size, layout, "7")) == 14


@pytest.mark.parametrize("size", SIZES)
def test_6_4_rerack_positions_on_this_table(size):
    m = marks(size)
    balls = [str(n) for n in range(1, 16)]
    placed = rerack_positions(balls, with_apex=True, seed=7, marks=m)
    assert sorted((x, y) for _, x, y in placed) == sorted(m.triangle_positions(5))
    assert min(placed, key=lambda p: p[2])[1:] == pytest.approx(m.foot_spot, abs=1e-12)
    assert all(R <= x <= m.width - R and R <= y <= m.length - R for _, x, y in placed)


@pytest.mark.parametrize("size", SIZES)
def test_6_7_7_kitchen_request_uses_this_table_s_head_string_and_foot_spot(size):
    m = marks(size)
    game = StraightPool(players=("Ann", "Bob"))
    game.state.phase, game.state.ball_in_hand = "play", "kitchen"
    behind = Layout(f"pool_{size}", (Piece("3", "ball", 0.3, 0.2),
                                     Piece("7", "ball", 0.6, m.head_string_y - 0.05)))
    out = game.request_kitchen_spot(behind)
    assert (out.layout.get("7").x, out.layout.get("7").y) == pytest.approx(m.foot_spot)
    beyond = Layout(f"pool_{size}", (Piece("3", "ball", 0.3, 0.2),
                                     Piece("7", "ball", 0.6, m.head_string_y + 0.03)))
    assert m.head_string_y + 0.03 < ps.HEAD_STRING_Y  # in the 9-ft kitchen, not in this one
    with pytest.raises(ValueError, match="every object ball"):
        game.request_kitchen_spot(beyond)


@pytest.mark.parametrize("size", SIZES)
def test_6_7_2_ball_near_this_table_s_foot_cushion(size):
    """6.7.2: a ball within a ball's width of the small table's foot cushion (far from the
    9-ft one) is a ball near a cushion."""
    m = marks(size)
    initial = Layout(f"pool_{size}", (Piece("cue", "ball", m.width / 2, 0.3),
                                      Piece("4", "ball", m.width / 2, m.length - R - 0.02)))
    facts = ShotFacts.from_events([strike(), hit(0.3, "4")])
    assert near_rail_ball(facts, initial) == ("4", "foot_rail")


# --- 3.10 / 3.16 / 3.39 the table's head string -------------------------------------------
def kitchen_shot(size: str, cue_y: float, one_y: float, cross: bool = True) -> dict:
    """8-ball on the open table, Ann has the cue ball in hand behind the head string (after a
    scratch on a legal break, 4.6: 9-ball gives it only for the break, 5.2, 5.7) and plays the
    1 (to a cushion)."""
    m = marks(size)
    events = [S]
    if cross:
        events.append({"t": 0.1, "kind": "line", "a": "cue", "feature": "head_string",
                       "direction": 1})
    events += [{"t": 0.3, "kind": "collide", "a": "cue", "b": "1"},
               {"t": 0.6, "kind": "rail", "a": "1", "feature": "foot_rail"}]
    out = adjudicate_scenario({
        "game": "8-ball", "state": state("eight_ball", ball_in_hand="kitchen"),
        "shot": {"initial": lay(size, {"cue": (m.width / 2, cue_y), "1": (0.3 * m.width, one_y),
                                       "8": (0.7 * m.width, 0.8 * m.length)}),
                 "events": events}})
    return out["steps"][0]["ruling"]


def cited(ruling: dict) -> list[str]:
    return [v["article"] for v in ruling["violations"]]


@pytest.mark.parametrize("size", SIZES)
def test_3_16_cue_ball_behind_this_table_s_head_string_is_legal(size):
    m = marks(size)
    ruling = kitchen_shot(size, m.head_string_y - 0.05, 0.6 * m.length)
    assert ruling["legal"], ruling


@pytest.mark.parametrize("size", SIZES)
def test_3_16_cue_ball_beyond_this_table_s_head_string_is_a_foul(size):
    """Beyond the small table's head string (a quarter of its length), though short of the
    9-ft table's (0.635 m): the 3.16 foul."""
    m = marks(size)
    cue_y = m.head_string_y + 0.03
    assert cue_y < ps.HEAD_STRING_Y
    ruling = kitchen_shot(size, cue_y, 0.6 * m.length, cross=False)
    assert not ruling["legal"] and "WPA 3.16" in cited(ruling)


@pytest.mark.parametrize("size", SIZES)
def test_3_16_cue_ball_on_this_table_s_head_string_is_a_foul(size):
    m = marks(size)
    ruling = kitchen_shot(size, m.head_string_y, 0.6 * m.length, cross=False)
    assert "WPA 3.16" in cited(ruling)


@pytest.mark.parametrize("size", SIZES)
def test_3_39_ball_beyond_this_table_s_head_string_may_be_hit_at_once(size):
    """3.39: an object ball beyond the small table's head string (though where the 9-ft
    kitchen would be) is not in the kitchen: hitting it is legal."""
    m = marks(size)
    one_y = m.head_string_y + 0.04
    assert one_y < ps.HEAD_STRING_Y
    ruling = kitchen_shot(size, m.head_string_y - 0.1, one_y, cross=False)
    assert ruling["legal"], ruling


@pytest.mark.parametrize("size", SIZES)
def test_3_39_ball_behind_this_table_s_head_string_is_in_the_kitchen(size):
    m = marks(size)
    ruling = kitchen_shot(size, m.head_string_y - 0.25, m.head_string_y - 0.1, cross=False)
    assert "WPA 3.39" in cited(ruling)


# --- 3.2, 4.3, 5.2, 6.4 racks on the table's foot spot ----------------------------------------
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", ["eight_ball", "nine_ball", "straight_pool"])
def test_3_2_4_3_5_2_6_4_racks_sit_on_this_table_s_foot_spot(size, game):
    m = marks(size)
    layout = rack_layout(game, table=f"pool_{size}")
    assert layout.table == f"pool_{size}" and check_rack(game, layout) == []
    apex = min(layout.pieces, key=lambda p: p.y)
    assert (apex.x, apex.y) == pytest.approx(m.foot_spot, abs=1e-12)
    check_pieces_inside_cushions(pool_table(size), layout)
    # the 9-ft rack carried onto this table is not on its foot spot
    nine_foot = rack_layout(game)
    moved = Layout(f"pool_{size}", nine_foot.pieces)
    assert check_rack(game, moved) != []


@pytest.mark.parametrize("size", SIZES)
def test_3_2_the_tables_own_racks_pass_the_referee_s_check(size):
    table = pool_table(size)
    for seed in range(3):
        assert check_rack("eight_ball", eight_ball_rack(table, rng=seed, gap=1e-4)) == []
        assert check_rack("nine_ball", nine_ball_rack(table, rng=seed, gap=1e-4)) == []
        assert check_rack("straight_pool", straight_pool_rack(table, rng=seed)) == []
