"""Balls (pool and carom): the piece and its friction and restitution.

Typical values for phenolic balls on worsted cloth; every one is a default to override.
Sources: Alciatore, "The Illustrated Principles of Pool and Billiards" and its technical
proofs (TP A-4 sliding and rolling, TP A-14 ball-ball friction fit), Mathavan et al. 2010
(cushion restitution), Han 2005 (cushion model), and the defaults of pooltool (an event-based
pool simulator), which agree with these references.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

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
    IMPACT_STEPS,
    IMPACT_STEPS_RANGE,
    PHENOLIC_RESIN,
    hertz_spheres,
    sphere_on_cushion,
)
from cuesim.tables.pieces import KindCoefficients, PieceSpec

GRAVITY = 9.80665  # m/s^2, standard gravity
MAX_CUE_SPEED = 15.0  # m/s, sanity bound (estimate: a hard break is 8-12 m/s of cue speed)
# the cue (cuesim.sim.cue: the strike and its squirt)
CUE_MASS = 0.54  # kg, a typical 19 oz cue (estimate; WPA does not limit cue weight)
TIP_RESTITUTION = 0.81  # Alciatore TP A-30 estimate for a leather tip (e of cue and ball)
# kg, the effective end mass of a standard shaft, which sets its squirt (Shepard 2001; estimate:
# a ball's mass / 30, pooltool's default; squirt 2.0 deg for a pool ball at half-tip english,
# 0.5 R, 1.6 deg for a carom ball; low-deflection shafts have less)
CUE_END_MASS = 0.0057
# a fraction of the ball's radius: a tip offset farther from the centre miscues (Alciatore: a
# chalked leather tip holds to about half the radius)
MISCUE_LIMIT = 0.5


@lru_cache(maxsize=32)
def ball_spec(kind: str, diameter: float, mass: float) -> PieceSpec:
    """A solid sphere: I = 2/5 m R^2."""
    r = diameter / 2
    return PieceSpec(kind, r, mass, 0.4 * mass * r * r, thickness=diameter)


# The physical range of each BallPhysics field (cuesim.tables.coefficients): restitutions from
# perfectly inelastic to perfectly elastic, impact frictions from frictionless up; the cloth's
# decelerations must be positive, or a piece would never stop.
BALL_PHYSICS_RANGES: dict[str, Range] = {
    "mu_slide": Range(0.0, low_open=True, why="sliding ends after 2|u0| / (7 mu_slide g)"),
    "mu_roll": Range(0.0, low_open=True, why="a rolling ball stops after v / (mu_roll g)"),
    "mu_spin": Range(0.0, low_open=True,
                     why="with none, a ball spinning on the spot never stops"),
    "e_ball": UNIT,
    "ball_friction_a": NON_NEGATIVE,  # mu(v) = a + b exp(-c v) >= 0 for every v
    "ball_friction_b": NON_NEGATIVE,
    "ball_friction_c": NON_NEGATIVE,  # s/m; 0: a constant a + b
    "e_cushion": UNIT,
    "mu_cushion": NON_NEGATIVE,
    "v_stick": Range(0.0, low_open=True, why="model rule: the speed below which a contact is "
                                             "perfectly inelastic"),
    "g": Range(0.0, low_open=True, why="pieces are pressed onto the cloth"),
    "impact_steps": Range(*IMPACT_STEPS_RANGE),
}

# Sanity bounds above the physical ranges, checked after them (as NovusPhysics's, whose comment
# gives the sources): a friction coefficient far above any pair of real materials, gravity of
# ten thousand standard gravities. 1e308 of mu_slide or mu_roll overflowed into NaN positions.
BALL_PHYSICS_SANITY: dict[str, Range] = {
    "mu_slide": SLIDING_BOUND,
    "mu_roll": SLIDING_BOUND,
    "mu_spin": SLIDING_BOUND,
    "ball_friction_a": FRICTION_BOUND,
    "ball_friction_b": FRICTION_BOUND,
    "mu_cushion": FRICTION_BOUND,
    "g": GRAVITY_BOUND,
}


@dataclass(frozen=True)
class BallPhysics:
    """Friction and restitution of balls on cloth, against each other and the cushions.

    Sliding: the contact-point slip u falls at 7/2 mu_slide g; sliding lasts 2|u0|/(7 mu_slide g).
    Rolling: the ball decelerates at mu_roll g. Spin about the vertical decays at
    5 mu_spin g / (2 R) (the contact patch's friction torque over I = 2/5 m R^2).
    Ball-ball friction: mu(v) = a + b exp(-c v), v the relative surface speed (Alciatore TP A-14).
    """

    mu_slide: float = 0.20  # Alciatore TP A-4: 0.2 for cloth (pooltool u_s = 0.2)
    mu_roll: float = 0.010  # Alciatore: 0.005-0.015 (pooltool u_r = 0.01)
    # pooltool's u_sp = (10 * 2/5 / 9) R = 0.0127 at R = 28.575 mm, with the same law: spin
    # about the vertical decays at 10.9 rad/s^2 (Alciatore, "physical properties": about 10
    # rad/s^2). It was 0.044 (37.8 rad/s^2: a side spin gone before the first rail)
    mu_spin: float = 0.0127
    e_ball: float = 0.95  # Alciatore: 0.92-0.98 for phenolic balls
    # Alciatore TP A-14 fit (derived in TP A.28) through the ball-ball friction Marlow measured
    # at sliding speeds 0.07, 0.71, 7.1 m/s: 0.11, 0.06, 0.01 ("The Physics of Pocket
    # Billiards", 1995, table 10)
    ball_friction_a: float = 9.951e-3
    ball_friction_b: float = 0.108
    ball_friction_c: float = 1.088  # s/m
    e_cushion: float = 0.85  # Mathavan et al. 2010 (pooltool e_c = 0.85)
    mu_cushion: float = 0.20  # Mathavan et al. 2010 (pooltool f_c = 0.2)
    v_stick: float = 0.005  # m/s, model rule: slower contacts are perfectly inelastic
    g: float = GRAVITY
    impact_steps: float = IMPACT_STEPS  # the multiple impact's resolution (tables.contact)

    def __post_init__(self) -> None:
        check_coefficients(self, BALL_PHYSICS_RANGES)
        check_coefficients(self, BALL_PHYSICS_SANITY)

    def __repr__(self) -> str:
        return repr_quiet_defaults(self, {"impact_steps": IMPACT_STEPS})

    def ball_friction(self, v_rel: float) -> float:
        """mu(v) = a + b exp(-c v)."""
        return self.ball_friction_a + self.ball_friction_b * math.exp(-self.ball_friction_c
                                                                      * v_rel)

    def with_(self, **changes: float) -> BallPhysics:
        """A copy with the named coefficients changed (each validated as on construction; an
        unknown name is refused with the names there are)."""
        return with_changes(self, changes)

    def rolling_stop_distance(self, speed: float) -> float:
        """v^2 / (2 mu_roll g)."""
        return speed**2 / (2.0 * self.mu_roll * self.g)


def ball_kind_coefficients(physics: BallPhysics, spec: PieceSpec,
                           cushion_height: float) -> KindCoefficients:
    """The core's numbers for a table whose only piece kind is one ball: sliding deceleration
    mu_s g, rolling mu_r g, spin about the vertical 5 mu_sp g / (2 R); contacts Hertz
    (phenolic on phenolic, phenolic on cushion rubber: tables.contact)."""
    k_pair, eta_pair = hertz_spheres(spec.radius, PHENOLIC_RESIN, spec.radius, PHENOLIC_RESIN)
    k_rail, eta_rail = sphere_on_cushion(spec.radius, PHENOLIC_RESIN)
    return KindCoefficients(
        kinds=(spec.kind,),
        decel=(physics.mu_slide * physics.g,),
        spin_decel=(2.5 * physics.mu_spin * physics.g / spec.radius,),
        e_pair=((physics.e_ball,),),
        mu_pair=((physics.ball_friction_a + physics.ball_friction_b,),),
        e_rail=(physics.e_cushion,),
        mu_rail=(physics.mu_cushion,),
        v_stick=physics.v_stick,
        law=(1,),
        roll_decel=(physics.mu_roll * physics.g,),
        friction_fit=(physics.ball_friction_a, physics.ball_friction_b,
                      physics.ball_friction_c),
        cushion_height=cushion_height,
        stiffness_pair=((k_pair,),),
        exponent_pair=((eta_pair,),),
        stiffness_rail=(k_rail,),
        exponent_rail=(eta_rail,),
        impact_steps=physics.impact_steps,
    )
