"""The defaults users rely on, pinned as numbers.

Every physical default of the equipment (BallPhysics, NovusPhysics, the pins, the materials of
the contact laws, the pieces, the tables' WPA/UMB/novus dimensions and pockets) and the core's
numerical constants, written out here. Tests elsewhere compute their expectations from these
objects, so a changed default would move those expectations with it unnoticed (a cushion
restitution of 0.75 instead of 0.85 failed nothing): here it fails, and changing a default is a
deliberate edit of this file (and `python -m tests.golden.regenerate` for the golden shots).

Inputs are compared exactly; numbers derived from them (masses, inertias, the core's per-kind
coefficients) to 1e-12 relative.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import pytest

from cuesim.tables.balls import GRAVITY, MAX_CUE_SPEED, BallPhysics
from cuesim.tables.carom import carom_table, pin_contact, pin_model, pin_spacing
from cuesim.tables.contact import (
    BIRCH,
    CUSHION_RUBBER,
    HARDWOOD,
    HERTZ_EXPONENT,
    LINE_EXPONENT,
    PHENOLIC_RESIN,
    PIN_WOOD,
)
from cuesim.tables.novus import NovusPhysics, novus_table
from cuesim.tables.pool import PLAYING_SURFACES, pool_table

REL = 1e-12


def same(got: Any, want: Any, path: str = "") -> None:
    """got == want, numbers to REL (relative), recursing into tuples, lists and dicts."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and set(got) == set(want), (path, set(got) ^ set(want))
        for k in want:
            same(got[k], want[k], f"{path}.{k}")
    elif isinstance(want, tuple | list):
        assert len(got) == len(want), path
        for k, (g, w) in enumerate(zip(got, want, strict=True)):
            same(g, w, f"{path}[{k}]")
    elif isinstance(want, float):
        assert got == pytest.approx(want, rel=REL, abs=0.0), path
    else:
        assert got == want, path


# --- physics objects -----------------------------------------------------------------------
BALL_PHYSICS = {  # Alciatore, Mathavan et al. 2010, Han 2005, pooltool (tables/balls.py)
    "mu_slide": 0.20, "mu_roll": 0.010, "mu_spin": 0.0127, "e_ball": 0.95,
    "ball_friction_a": 9.951e-3, "ball_friction_b": 0.108, "ball_friction_c": 1.088,
    "e_cushion": 0.85, "mu_cushion": 0.20, "v_stick": 0.005, "g": 9.80665,
    "impact_steps": 20.0,  # a numerical resolution (tables/contact.py IMPACT_STEPS)
}
NOVUS_PHYSICS = {  # estimates (tables/novus.py)
    "mu_puck": 0.15, "mu_striker": 0.15, "e_puck_puck": 0.75, "e_striker_puck": 0.75,
    "e_rail": 0.60, "mu_impact": 0.15, "mu_rail_impact": 0.20, "v_stick": 0.01,
    "g": 9.80665, "impact_steps": 20.0,
}


def test_ball_physics_defaults():
    assert dataclasses.asdict(BallPhysics()) == BALL_PHYSICS
    assert dataclasses.asdict(pool_table().physics) == BALL_PHYSICS
    assert dataclasses.asdict(carom_table().physics) == BALL_PHYSICS
    assert GRAVITY == 9.80665 and MAX_CUE_SPEED == 15.0


def test_novus_physics_defaults():
    assert dataclasses.asdict(NovusPhysics()) == NOVUS_PHYSICS
    assert dataclasses.asdict(novus_table().physics) == NOVUS_PHYSICS


def test_pin_physics_defaults():
    from cuesim.tables import carom as c

    assert (c.PIN_HEIGHT, c.PIN_BASE_DIAMETER, c.PIN_WIDEST_DIAMETER, c.PIN_HEAD_DIAMETER,
            c.PIN_WIDEST_HEIGHT, c.PIN_NECK_HEIGHT) == (0.025, 0.007, 0.0095, 0.0065, 0.008,
                                                        0.01925)
    assert (c.PIN_DENSITY, c.PIN_PASS_CLEARANCE, c.PIN_MU_CLOTH, c.PIN_CLOTH_RESTITUTION,
            c.E_BALL_PIN, c.E_PIN_PIN, c.E_PIN_CUSHION) == (720.0, 0.0002, 0.3, 0.2, 0.7, 0.5,
                                                            0.5)
    # the ball-pin contact: the 3D distance of the ball and the pin's spherical head
    same(pin_contact(), (0.03278719262150344, 0.022610300000000003))
    assert pin_contact()[0] == pytest.approx(math.sqrt(0.034**2 - 0.009**2), abs=1e-9)
    same(pin_spacing(), 0.06577438524300688)
    # h_G, I_G, base radius, head-centre height, head radius, mu cloth, e cloth, lying
    # centre height, thrown contact height, g
    same(pin_model(9.80665), (0.010192997710153782, 3.258967146164519e-08, 0.0035, 0.02175,
                              0.00325, 0.3, 0.2, 0.00475, 0.00475, 9.80665))


def test_pin_integrals_are_the_same_bits_on_every_host():
    """The pin's mass, axial inertia, h_G, I_G and ball contact, to the last bit. They come from
    sums over the turned profile, so they must use only operations that round alike on every
    host and install (products, IEEE sqrt, an exactly rounded sum): NumPy's general power
    (`r**4`) runs SIMD code that differs by host, and on AVX-512 hosts it left the axial
    inertia one ulp lower, which changed where a thrown pin came to rest (the fingerprint of
    5-pins_random_5); NumPy's pairwise sum groups its terms by version (1.26 and 2.4 gave that
    inertia one ulp apart), so the trapezoid sums with `math.fsum`."""
    from cuesim.tables.carom import pin_mass_and_inertia, pin_tipping_properties

    got = [x.hex() for x in (*pin_mass_and_inertia(), *pin_tipping_properties(), *pin_contact())]
    assert got == ["0x1.7a54dc71d15d1p-11", "0x1.759f38cebd293p-28", "0x1.4e010fe81aa72p-7",
                   "0x1.17f17208067d5p-25", "0x1.0c97ba012f2f2p-5", "0x1.727278c3603c9p-6"]


def test_contact_materials():
    got = {m.name: (m.young, m.poisson) for m in (PHENOLIC_RESIN, BIRCH, HARDWOOD,
                                                   CUSHION_RUBBER, PIN_WOOD)}
    birch = math.sqrt(13.9e9 * 0.078 * 13.9e9)
    same(got, {"phenolic_resin": (5.4e9, 0.35), "birch": (birch, 0.35),
               "hardwood": (birch, 0.35), "cushion_rubber": (5.0e6, 0.49),
               "pin_wood": (11.9e9, 0.35)})
    assert (HERTZ_EXPONENT, LINE_EXPONENT) == (1.5, 1.0)


# --- pieces ----------------------------------------------------------------------------------
@pytest.mark.parametrize("table, kind, want", [
    (novus_table(), "striker", (0.02225, 0.014972937401159176, 3.897193579117213e-06, 0.0145,
                                0.00505)),
    (novus_table(), "puck", (0.015, 0.005042633200130048, 6.076373006156709e-07, 0.012, 0.004)),
    (pool_table(), "ball", (0.028575, 0.163, 5.323779675000001e-05, 0.05715, 0.0)),
    (carom_table(), "ball", (0.03075, 0.21, 7.942725e-05, 0.0615, 0.0)),
    (carom_table(), "pin", (0.002037192621503439, 0.0007216100477555558, 5.436915097595e-09,
                            0.025, 0.0)),
])
def test_piece_specs(table, kind, want):
    s = table.piece_spec(kind)
    same((s.radius, s.mass, s.inertia, s.thickness, s.hole_radius), want)


# --- the numbers the core consumes -------------------------------------------------------------
KIND_COEFFICIENTS = {
    "novus": {
        "kinds": ("striker", "puck"), "decel": (1.4709975, 1.4709975),
        "spin_decel": (87.3508277495335, 128.92778554269486),
        "e_pair": ((0.75, 0.75), (0.75, 0.75)), "mu_pair": ((0.15, 0.15), (0.15, 0.15)),
        "e_rail": (0.6, 0.6), "mu_rail": (0.2, 0.2), "v_stick": 0.01, "law": (),
        "roll_decel": (), "friction_fit": (0.0, 0.0, 0.0), "cushion_height": 0.0,
        "thrown_radius": (), "pin_model": (),
        "stiffness_pair": ((25190852.465789773, 20847602.040653605),
                           (20847602.040653605, 20847602.040653605)),
        "exponent_pair": ((1.0, 1.0), (1.0, 1.0)),
        "stiffness_rail": (25190852.465789773, 20847602.040653605),
        "exponent_rail": (1.0, 1.0),
        "impact_steps": 20.0,
    },
    "pool_9ft": {
        "kinds": ("ball",), "decel": (1.96133,), "spin_decel": (10.896277777777778,),
        "e_pair": ((0.95,),), "mu_pair": ((0.117951,),), "e_rail": (0.85,), "mu_rail": (0.2,),
        "v_stick": 0.005, "law": (1,), "roll_decel": (0.0980665,),
        "friction_fit": (0.009951, 0.108, 1.088), "cushion_height": 0.03629025,
        "thrown_radius": (), "pin_model": (),
        "stiffness_pair": ((490380844.6310531,),), "exponent_pair": ((1.5,),),
        "stiffness_rail": (1481430.5890312886,), "exponent_rail": (1.5,),
        "impact_steps": 20.0,
    },
    "carom": {
        "kinds": ("ball", "pin"), "decel": (1.96133, 2.941995),
        "spin_decel": (10.125565447154472, 353.0393999999999),
        "e_pair": ((0.95, 0.7), (0.7, 0.5)),
        "mu_pair": ((0.117951, 0.117951), (0.117951, 0.117951)),
        "e_rail": (0.85, 0.5), "mu_rail": (0.2, 0.2), "v_stick": 0.005, "law": (1, 2),
        "roll_decel": (0.0980665, 0.0), "friction_fit": (0.009951, 0.108, 1.088),
        "cushion_height": 0.037, "thrown_radius": (0.03075, 0.007462807378496561),
        "pin_model": (0.010192997710153782, 3.258967146164519e-08, 0.0035, 0.02175, 0.00325,
                      0.3, 0.2, 0.00475, 0.00475, 9.80665),
        "stiffness_pair": ((508701405.85178435, 362027380.4898667),
                           (362027380.4898667, 440595831.73115534)),
        "exponent_pair": ((1.5, 1.5), (1.5, 1.5)),
        "stiffness_rail": (1536776.6330249757, 604349.8742745975),
        "exponent_rail": (1.5, 1.5),
        "impact_steps": 20.0,
    },
}


@pytest.mark.parametrize("table", [novus_table(), pool_table(), carom_table()],
                         ids=lambda t: t.name)
def test_kind_coefficients(table):
    same(dataclasses.asdict(table.kind_coefficients()), KIND_COEFFICIENTS[table.name],
         table.name)


# --- tables ----------------------------------------------------------------------------------
def test_pool_table_dimensions_and_pockets():
    from cuesim.tables import pool as p

    inch = 0.0254
    assert PLAYING_SURFACES == {"9ft": (50 * inch, 100 * inch), "8ft": (46 * inch, 92 * inch),
                                "7ft": (39 * inch, 78 * inch)}
    same((p.BALL_DIAMETER, p.BALL_MASS, p.CUSHION_HEIGHT), (0.05715, 0.163, 0.03629025))
    assert (p.CORNER_MOUTH, p.SIDE_MOUTH, p.CORNER_SHELF, p.SIDE_SHELF) == (
        4.5625 * inch, 5.0625 * inch, 1.625 * inch, 0.1875 * inch)
    assert (p.CORNER_CUT_ANGLE, p.SIDE_CUT_ANGLE) == (math.radians(142.0), math.radians(104.0))
    assert (p.KNUCKLE_RADIUS, p.CAPTURE_RADIUS_FRACTION) == (0.005, 0.5)
    pockets = {q.name: q for q in pool_table().pockets}
    corner, side = pockets["foot_right"], pockets["side_left"]
    same((corner.lip_a, corner.lip_b, corner.capture.fall),
         ((1.188055162895244, 2.54), (1.27, 2.458055162895244),
          (1.2956022627784562, 2.490824564903737, 1.2208245649037373, 2.565602262778456)))
    same((side.lip_a, side.lip_b, side.capture.fall),
         ((0.0, 1.20570625), (0.0, 1.33429375),
          (-0.004762499999999999, 1.3331063253864595, -0.004762499999999999,
           1.2068936746135406)))


def test_novus_and_carom_dimensions():
    from cuesim.tables import carom as c
    from cuesim.tables import novus as n

    assert (n.BOARD_SIZE, n.RAIL_WIDTH, n.RAIL_HEIGHT, n.HOLE_DIAMETER, n.HOLE_EDGE_FROM_RAIL,
            n.ZONE_LINE_FROM_RAIL, n.LINE_WIDTH, n.CENTRE_CIRCLE_DIAMETER) == (
        1.0, 0.045, 0.025, 0.100, 0.015, 0.130, 0.001, 0.250)
    assert (n.PUCK_DIAMETER, n.PUCK_THICKNESS, n.PUCK_HOLE_DIAMETER, n.BIRCH_DENSITY) == (
        0.030, 0.012, 0.008, 640.0)
    assert (n.STRIKER_DIAMETER, n.STRIKER_THICKNESS, n.STRIKER_HOLE_DIAMETER,
            n.STRIKER_DENSITY, n.STRIKER_MAX_MASS) == (0.0445, 0.0145, 0.0101, 700.0, 0.022)
    assert (c.TABLE_LENGTH, c.TABLE_WIDTH, c.CUSHION_HEIGHT, c.BALL_DIAMETER, c.BALL_MASS,
            c.SPOT_FROM_SHORT_RAIL, c.LAG_FROM_LONG_RAIL) == (2.840, 1.420, 0.037, 0.0615, 0.210,
                                                              0.100, 0.300)


# --- the core's numerical constants ------------------------------------------------------------
def test_core_constants():
    from cuesim.sim import cue, engine, predict
    from cuesim.sim.detect import TOUCH, V_TOUCH
    from cuesim.sim.detect.rails import EXTENT_TOL
    from cuesim.sim.motion.ball import U_ROLL
    from cuesim.sim.resolve.multi_impact import MAX_STEPS, STICK_TIME
    from cuesim.tables.balls import BallPhysics
    from cuesim.tables.contact import IMPACT_STEPS
    from cuesim.tables.novus import NovusPhysics

    assert (cue.MISCUE_LIMIT, cue.CUE_MASS, cue.TIP_RESTITUTION, cue.CUE_END_MASS) == (
        0.5, 0.54, 0.81, 0.0057)
    assert engine.DEFAULT_MAX_EVENTS == 20_000 and predict.SIMULTANEOUS == 1e-12
    assert (TOUCH, V_TOUCH, EXTENT_TOL, U_ROLL) == (1e-9, 1e-10, 1e-9, 1e-9)
    assert (IMPACT_STEPS, STICK_TIME, MAX_STEPS) == (20.0, 0.2, 6_400_000)
    assert NovusPhysics().impact_steps == BallPhysics().impact_steps == IMPACT_STEPS
