"""tables/pool_spots.py: the strings and spots, the rack area, and spotting on the long string
(WPA 3.32); the opening racks (4.3, 5.2, 6.4)."""

from __future__ import annotations

import math

import pytest

from cuesim.rules.pool import check_rack, rack_layout
from cuesim.tables import pool_spots as ps


def test_geometry_numbers_follow_the_wpa_table():
    assert ps.PLAYING_LENGTH == pytest.approx(2 * ps.PLAYING_WIDTH)
    assert ps.BALL_DIAMETER == pytest.approx(0.05715)
    assert ps.HEAD_STRING_Y == pytest.approx(0.635)
    assert ps.FOOT_SPOT == pytest.approx((0.635, 1.905))
    assert ps.HEAD_SPOT[1] == ps.HEAD_STRING_Y


def test_3_16_head_string_is_not_in_the_kitchen():
    assert ps.in_kitchen(ps.HEAD_STRING_Y - 1e-6)
    assert not ps.in_kitchen(ps.HEAD_STRING_Y)


def test_3_32_single_ball_goes_on_the_foot_spot():
    [(bid, x, y)] = ps.spot_balls(["9"], [("cue", 0.2, 0.3)])
    assert (bid, x, y) == ("9", *ps.FOOT_SPOT)


def test_3_32_several_balls_in_numerical_order_toward_the_foot_rail():
    placed = ps.spot_balls(["12", "3", "7"], [])
    assert [p[0] for p in placed] == ["3", "7", "12"]
    ys = [p[2] for p in placed]
    assert ys[0] == pytest.approx(ps.FOOT_SPOT[1])
    assert ys[1] == pytest.approx(ys[0] + ps.BALL_DIAMETER)
    assert ys[2] == pytest.approx(ys[1] + ps.BALL_DIAMETER)


def test_3_32_interfering_object_ball_spotted_ball_frozen_to_it():
    fx, fy = ps.FOOT_SPOT
    [(_, x, y)] = ps.spot_balls(["5"], [("2", fx, fy)])
    assert x == fx
    assert y == pytest.approx(fy + ps.BALL_DIAMETER)  # frozen, behind it


def test_3_32_cue_ball_exception_not_frozen_to_the_cue_ball():
    fx, fy = ps.FOOT_SPOT
    [(_, _, y)] = ps.spot_balls(["5"], [("cue", fx, fy)])
    assert y - fy > ps.BALL_DIAMETER  # as near as possible, but not touching the cue ball
    assert y - fy == pytest.approx(ps.BALL_DIAMETER + ps.SPOT_GAP_TO_CUE)


def test_3_32_no_room_behind_spots_in_front_lowest_nearest_the_foot_spot():
    fx, fy = ps.FOOT_SPOT
    # a wall of balls along the long string from the foot spot to the foot rail
    wall, y = [], fy
    while y < ps.PLAYING_LENGTH - ps.BALL_RADIUS:
        wall.append((f"w{len(wall)}", fx, y))
        y += ps.BALL_DIAMETER
    placed = ps.spot_balls(["9", "4"], wall)
    assert [p[0] for p in placed] == ["4", "9"]
    assert placed[0][2] == pytest.approx(fy - ps.BALL_DIAMETER)
    assert placed[1][2] == pytest.approx(fy - 2 * ps.BALL_DIAMETER)


def test_rack_area_and_spots():
    fx, fy = ps.FOOT_SPOT
    assert ps.in_rack_area(fx, fy)
    assert ps.in_rack_area(fx, fy - ps.BALL_DIAMETER * 0.9)  # overlaps the apex place
    assert not ps.in_rack_area(fx, fy - 2 * ps.BALL_DIAMETER)
    assert not ps.in_rack_area(0.1, 0.5)
    assert ps.near_spot(*ps.HEAD_SPOT, ps.HEAD_SPOT)
    assert not ps.near_spot(ps.HEAD_SPOT[0] + 0.06, ps.HEAD_SPOT[1], ps.HEAD_SPOT)


def test_rail_names():
    assert ps.rail_of("left_foot_rail") == "left"
    assert ps.rail_of("foot_rail") == "foot"
    assert ps.rail_of("right_jaw_side") == "right"


@pytest.mark.parametrize("game", ["eight_ball", "nine_ball", "straight_pool"])
def test_4_3_5_2_6_4_default_racks_are_legal(game):
    lay = rack_layout(game)
    assert check_rack(game, lay) == []
    apex = min(lay.pieces, key=lambda p: p.y)
    assert (apex.x, apex.y) == pytest.approx(ps.FOOT_SPOT)  # 3.2 apex on the foot spot
    pts = [(p.x, p.y) for p in lay.pieces]
    for i, a in enumerate(pts):  # 3.2: a tight rack, no overlaps
        for b in pts[i + 1:]:
            assert math.dist(a, b) >= ps.BALL_DIAMETER - 1e-9


def test_4_3_eight_must_be_in_the_centre():
    order = ("8", "9", "2", "10", "1", "3", "11", "4", "12", "5", "6", "13", "7", "14", "15")
    problems = check_rack("eight_ball", rack_layout("eight_ball", order))
    assert any("4.3" in p for p in problems)


def test_6_4_the_1_in_the_racker_s_right_corner_the_5_in_his_left():
    """WPA 6.4: "шар номер 1 в правом углу от ставящего пирамиду, шар номер 5 в левом углу":
    the two swapped (a mirrored rack) is not a legal 14.1 rack."""
    order = ("6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "5", "2", "3", "4", "1")
    problems = check_rack("straight_pool", rack_layout("straight_pool", order))
    assert any("6.4" in p for p in problems)


def test_5_2_nine_in_the_centre_one_at_apex():
    problems = check_rack("nine_ball", rack_layout("nine_ball", ("9", "2", "3", "4", "1", "5",
                                                                 "6", "7", "8")))
    assert any("5.2" in p for p in problems)


def test_rail_of_reads_jaw_and_knuckle_names_by_their_cushion():
    """A corner pocket's jaw b lies on the long rail, a side pocket's jaws on the long rail
    too: counting rails (3.38, 4.5) must not take 'foot_left_jaw_b' for the foot rail."""
    from cuesim.tables.pool_spots import rail_of

    assert rail_of("foot_left_jaw_b") == "left"
    assert rail_of("foot_left_jaw_a") == "foot"
    assert rail_of("side_left_jaw_a") == "left"
    assert rail_of("head_right_knuckle_b") == "right"
    assert rail_of("left_foot_rail") == "left"
    assert rail_of("foot") == "foot"  # hand-written logs may name the rail itself
