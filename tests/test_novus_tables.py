"""The novus board, pieces, coefficients and starting layouts against the rulebook."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest

from cuesim import Layout, LayoutError, NovusPhysics, Piece
from cuesim.tables import novus as nv


def test_board_dimensions_article_24_1(table):
    geo = table.geometry
    assert (geo.width, geo.length) == (1.0, 1.0)
    assert nv.RAIL_WIDTH == 0.045 and nv.RAIL_HEIGHT == 0.025
    for hole in geo.holes:
        assert hole.radius == pytest.approx(0.05)
        # the hole's edge is 15 mm from both rails
        assert min(hole.x, 1 - hole.x) - hole.radius == pytest.approx(0.015)
        assert min(hole.y, 1 - hole.y) - hole.radius == pytest.approx(0.015)


def test_zone_lines_and_centre_circle_article_24_2(table):
    lines = {s.name: s for s in table.geometry.lines}
    assert lines["zone_south"].c == pytest.approx(0.13)
    assert lines["zone_north"].c == pytest.approx(0.87)
    assert lines["zone_west"].c == pytest.approx(0.13)
    assert lines["zone_east"].c == pytest.approx(0.87)
    (circle,) = table.geometry.circles
    assert (circle.x, circle.y, circle.radius) == (0.5, 0.5, 0.125)


def test_pieces_articles_25_1_and_26_1(table):
    puck, striker = table.piece_spec("puck"), table.piece_spec("striker")
    assert puck.radius == 0.015 and puck.thickness == 0.012 and puck.hole_radius == 0.004
    assert 0.0045 < puck.mass < 0.0055  # ~5 g, estimate from volume and birch density
    assert 0.022 <= 2 * striker.radius <= 0.045 and 0.0140 <= striker.thickness <= 0.015
    assert striker.mass <= nv.STRIKER_MAX_MASS
    assert striker.inertia == pytest.approx(0.5 * striker.mass * (striker.radius**2
                                                                  + striker.hole_radius**2))


def test_singles_layout_article_10(table, singles):
    assert len(singles) == 17
    red = [p for p in singles.pieces if p.group == "red"]
    black = [p for p in singles.pieces if p.group == "black"]
    assert len(red) == len(black) == 8
    # the first player's (south) pucks stand against the opposite (north) rail, touching
    assert all(p.y == pytest.approx(1 - 0.015) for p in red)
    assert all(p.y == pytest.approx(0.015) for p in black)
    xs = sorted(p.x - 0.5 for p in red)
    assert np.allclose(xs, [-0.105, -0.075, -0.045, -0.015, 0.015, 0.045, 0.075, 0.105])
    table.check_layout(singles)


def test_doubles_layout_article_10_and_21_1(table, doubles):
    assert len(doubles) == 33
    assert sum(p.group == "red" for p in doubles.pieces) == 16
    east = [p for p in doubles.pieces if p.x == pytest.approx(1 - 0.015)]
    west = [p for p in doubles.pieces if p.x == pytest.approx(0.015)]
    assert len(east) == len(west) == 8
    table.check_layout(doubles)


def test_striker_strip_article_12(table):
    (u0, u1), (w0, w1) = table.striker_strip()
    hole = table.piece_spec("striker").hole_radius
    assert u0 == pytest.approx(0.13 + hole + 0.0005)
    assert u1 == pytest.approx(0.87 - hole - 0.0005)
    assert w0 == pytest.approx(table.piece_spec("striker").radius)
    assert w1 == pytest.approx(0.13 - hole - 0.0005)


def test_side_frames_round_trip(table):
    for side in nv.NOVUS_SIDES:
        x, y = table.to_table(side, 0.3, 0.1)
        assert table.from_table(side, x, y) == pytest.approx((0.3, 0.1))
    assert table.to_table("north", 0.3, 0.1) == pytest.approx((0.7, 0.9))
    assert table.to_table("east", 0.3, 0.1) == pytest.approx((0.9, 0.3))
    assert table.to_table("west", 0.3, 0.1) == pytest.approx((0.1, 0.7))


def test_physics_calibration_from_a_stopping_distance():
    phys = NovusPhysics.calibrated(speed=2.0, distance=1.5)
    assert phys.stop_distance(2.0) == pytest.approx(1.5)
    assert phys.mu_puck == pytest.approx(4.0 / (2 * 9.80665 * 1.5))
    with pytest.raises(ValueError, match="e_rail"):
        NovusPhysics(e_rail=1.5)
    with pytest.raises(ValueError, match="mu_puck"):
        NovusPhysics(mu_puck=float("nan"))


def test_spin_deceleration_from_the_ring_friction_torque(table):
    c = table.kind_coefficients()
    spec = table.piece_spec("puck")
    k = c.kinds.index("puck")
    expected = c.decel[k] * spec.friction_arm() / ((spec.radius**2 + spec.hole_radius**2) / 2)
    assert c.spin_decel[k] == pytest.approx(expected)


def test_overlapping_layout_is_refused(table):
    lay = Layout("novus", (Piece("a", "puck", 0.5, 0.5), Piece("b", "puck", 0.52, 0.5)))
    with pytest.raises(LayoutError, match="'a' and 'b' overlap by 10.000 mm"):
        table.check_layout(lay)


def test_piece_off_the_board_or_over_a_hole_is_refused(table):
    with pytest.raises(LayoutError, match="not wholly on the board"):
        table.check_layout(Layout("novus", (Piece("a", "puck", 0.01, 0.5),)))
    with pytest.raises(LayoutError, match="over hole 'south_west'"):
        table.check_layout(Layout("novus", (Piece("a", "puck", 0.07, 0.07),)))
    with pytest.raises(LayoutError, match="no piece kind 'ball'"):
        table.check_layout(Layout("novus", (Piece("a", "ball", 0.5, 0.5),)))


def test_layout_json_round_trip_and_errors(tmp_path, singles):
    path = tmp_path / "layout.json"
    singles.save(path)
    assert Layout.load(path) == singles
    path.write_text("{not json")
    with pytest.raises(LayoutError, match="not valid JSON"):
        Layout.load(path)
    path.write_text(json.dumps({"table": "novus", "pieces": [{"id": "a", "kind": "puck",
                                                              "x": 0.5}]}))
    with pytest.raises(LayoutError, match="missing field 'y'"):
        Layout.load(path)
    path.write_text(json.dumps({"table": "novus", "pieces": [{"id": "a", "kind": "puck",
                                                              "x": "left", "y": 0.5}]}))
    with pytest.raises(LayoutError, match="must be a number"):
        Layout.load(path)
    with pytest.raises(LayoutError, match="cannot read"):
        Layout.load(tmp_path / "missing.json")
    with pytest.raises(LayoutError, match="duplicate piece ids"):
        Layout("novus", (Piece("a", "puck", 0.5, 0.5), Piece("a", "puck", 0.3, 0.5)))
    path.write_text(json.dumps({"table": "novus", "pieces": [  # a file's error names the file
        {"id": "a", "kind": "puck", "x": 0.3, "y": 0.5}, {"id": "b", "kind": "puck", "x": 0.5,
                                                          "y": 0.5},
        {"id": "a", "kind": "puck", "x": 0.7, "y": 0.5}]}))
    twice = re.escape(f"{path}: pieces[2].id 'a' is pieces[0]'s id too")
    with pytest.raises(LayoutError, match=f"^{twice}"):
        Layout.load(path)
    with pytest.raises(LayoutError, match="non-finite"):
        Layout("novus", (Piece("a", "puck", math.nan, 0.5),))


@pytest.mark.parametrize("make,message", [
    (lambda: Layout("novus", (Piece(1, "puck", 0.5, 0.5),)), "id, kind and group must be str"),
    (lambda: Layout("novus", (Piece("a", None, 0.5, 0.5),)), "id, kind and group must be str"),
    (lambda: Layout("novus", (Piece("a", "puck", "0.5", 0.5),)), "x and y must be numbers"),
    (lambda: Layout("novus", (Piece("a", "puck", True, 0.5),)), "x and y must be numbers"),
    (lambda: Layout("novus", ({"id": "a"},)), "must be Piece objects"),
    (lambda: Layout("novus", "ab"), "must be a tuple of Piece"),
    (lambda: Layout(None, ()), "table must be a table name"),
])
def test_a_layout_built_in_python_checks_its_pieces(make, message):
    """The Layout door checks what a caller builds by hand, as Layout.from_dict checks a file:
    an int id would reach the event log and the JSON files; a string x the compiled core."""
    with pytest.raises(LayoutError, match=message):
        make()


def test_a_list_of_pieces_is_taken_as_a_tuple():
    import numpy as np

    layout = Layout("novus", [Piece("a", "puck", np.float32(0.5), np.int64(0))])
    assert isinstance(layout.pieces, tuple) and hash(layout) == hash(layout)


@pytest.mark.parametrize("motion", [("1", 0, 0), (True, 0.0, 0.0), "abc", (1.0, None, 0.0)])
def test_run_motion_takes_numbers_only(motion):
    """A string or a bool would read as a number through float(); refused, naming the piece."""

    from cuesim import novus_table, start_layout
    from cuesim.sim import run_motion
    from cuesim.sim.errors import SimulationError

    table, layout = novus_table(), start_layout("novus")
    with pytest.raises(SimulationError, match="initial motion of 'red1' must be numbers"):
        run_motion(table, layout, {"red1": motion})
    assert run_motion(table, layout, {"red1": np.array([1.0, 0.0, 0.0])}).n_events > 0
