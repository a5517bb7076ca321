"""Physical pieces: pucks, strikers (and later balls) as rigid bodies on the table plane."""

from __future__ import annotations

import math
from dataclasses import dataclass

from cuesim.tables.contact import IMPACT_STEPS


@dataclass(frozen=True)
class PieceSpec:
    """One kind of piece.

    radius, mass and the moment of inertia about the vertical axis are what the physics needs;
    thickness and hole_radius describe the real object (the hole decides dark/light, novus 11).
    """

    kind: str
    radius: float  # m
    mass: float  # kg
    inertia: float  # kg m^2 about the vertical axis through the centre
    thickness: float = 0.0  # m
    hole_radius: float = 0.0  # m, radius of the central hole (novus pucks and striker)

    @staticmethod
    def annulus(kind: str, radius: float, hole_radius: float, thickness: float,
                mass: float) -> PieceSpec:
        """A flat ring: I = m (R^2 + r^2) / 2."""
        inertia = 0.5 * mass * (radius**2 + hole_radius**2)
        return PieceSpec(kind, radius, mass, inertia, thickness, hole_radius)

    @staticmethod
    def annulus_mass(radius: float, hole_radius: float, thickness: float,
                     density: float) -> float:
        """Mass of a flat ring of the given density: rho * t * pi * (R^2 - r^2)."""
        return density * thickness * math.pi * (radius**2 - hole_radius**2)

    def friction_arm(self) -> float:
        """Mean moment arm of uniform Coulomb friction over the ring face.

        r_f = (2/3) (R^3 - r^3) / (R^2 - r^2); the friction torque is mu m g r_f.
        """
        r_out, r_in = self.radius, self.hole_radius
        return (2.0 / 3.0) * (r_out**3 - r_in**3) / (r_out**2 - r_in**2)


@dataclass(frozen=True)
class KindCoefficients:
    """Per-kind numbers the collision core consumes, indexed by kind number.

    decel[k]        sliding deceleration mu*g of kind k (m/s^2)
    spin_decel[k]   angular deceleration of the spin about the vertical (rad/s^2)
    e_pair[k, l]    normal restitution between kinds k and l
    mu_pair[k, l]   Coulomb friction of the tangential impulse between kinds k and l
    e_rail[k]       normal restitution of kind k on a rail
    mu_rail[k]      Coulomb friction of the tangential impulse of kind k on a rail
    v_stick         normal approach speed below which a contact is perfectly inelastic
    law[k]          motion law of kind k: 0 disc (Coulomb sliding), 1 ball (slide/roll)
    roll_decel[k]   rolling deceleration mu_r g of a ball kind (m/s^2)
    friction_fit    ball-ball friction mu(v) = a + b exp(-c v): (a, b, c)
    cushion_height  height of the cushion nose above the cloth (m), for balls
    thrown_radius[k] the contact radius of a knocked pin against a standing one (pins)
    pin_model       the standing-pin impact model's numbers (cuesim.sim.state PM_* order)
    stiffness_pair[k, l], exponent_pair[k, l]  normal contact law F = k delta^eta between
                    kinds k and l (N, m; tables.contact): Hertz 3/2 for balls, 1 for discs
    stiffness_rail[k], exponent_rail[k]  the same law for kind k on a rail or knuckle
    impact_steps    the multiple impact's steps per contact time scale (tables.contact)
    """

    kinds: tuple[str, ...]
    decel: tuple[float, ...]
    spin_decel: tuple[float, ...]
    e_pair: tuple[tuple[float, ...], ...]
    mu_pair: tuple[tuple[float, ...], ...]
    e_rail: tuple[float, ...]
    mu_rail: tuple[float, ...]
    v_stick: float
    law: tuple[int, ...] = ()
    roll_decel: tuple[float, ...] = ()
    friction_fit: tuple[float, float, float] = (0.0, 0.0, 0.0)
    cushion_height: float = 0.0
    thrown_radius: tuple[float, ...] = ()
    pin_model: tuple[float, ...] = ()
    stiffness_pair: tuple[tuple[float, ...], ...] = ()
    exponent_pair: tuple[tuple[float, ...], ...] = ()
    stiffness_rail: tuple[float, ...] = ()
    exponent_rail: tuple[float, ...] = ()
    impact_steps: float = IMPACT_STEPS
