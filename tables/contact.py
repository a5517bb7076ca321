"""Contact stiffness: the materials of the pieces and rails and the normal contact laws
F = k * delta**eta (delta the overlap in m, F in N) that the soft-contact reference and the
multi-impact model (the stiffness ratios of Liu-Zhao-Brogliato) use.

Laws
- Two spheres (Hertz 1882; Johnson, Contact Mechanics, 1985, eq. 4.22):
      F = 4/3 E* sqrt(R*) delta^(3/2),  1/E* = (1 - nu1^2)/E1 + (1 - nu2^2)/E2,
      1/R* = 1/R1 + 1/R2 (a flat face: R2 = inf, so R* = R1).
- A sphere on a cushion: a sphere on a flat rubber half-space (the same law, R* = R_ball); the
  rounded knuckles of the pocket jaws use the same number (the nose is rubber either way).
- Two discs edge to edge (parallel cylinders of axial length L in line contact), and a disc on a
  flat rail: the Hertz line contact has an approach that depends on the load only through a
  logarithm (Johnson 1985, eq. 4.45); we take the usual linear approximation of 2-D
  discrete-element codes, F = (pi/4) E* L delta (eta = 1), with L the thinner of the two
  faces in contact. The approximation is within a factor ~2 of the logarithmic law over the
  loads of play; the soft reference depends on the stiffness only weakly (its outcomes do not
  change when every stiffness is scaled by 4, tests/test_soft_reference.py).

Every modulus below is a handbook value for the material, not a measurement of the pieces:
they set contact durations (~0.1-1 ms between pieces, ~5 ms on a cushion) and the RATIOS of
stiffness between contacts, which is what a multi-impact outcome depends on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# The multiple impact's resolution (sim.resolve.multi_impact): integration steps per contact time
# scale delta*/v (a contact lasts about three). A numerical setting, not a property of the
# pieces: measured against 1,280 steps (bench/README.md, "What fewer impact steps would buy";
# `python bench/impact_steps.py`), the outgoing velocities at 20 are within 1.4-1.9 mm/s of the
# converged limit on the pool racks and 4.5 mm/s on the novus opening's first impact, and the
# error grows about as the cube of the step (10 steps: 11-39 mm/s, for 1.3-1.45x faster shots).
IMPACT_STEPS = 20.0
# below 2 a linear contact's Verlet step nears instability; 320 (16x finer) is the reference of
# the measurements, its error a thousandth of the default's
IMPACT_STEPS_RANGE = (2.0, 320.0)


@dataclass(frozen=True)
class Material:
    """An isotropic elastic material: Young's modulus E (Pa) and Poisson ratio nu."""

    name: str
    young: float  # Pa
    poisson: float


# Cast phenolic resin (pool and carom balls: Aramith-type phenolic). Handbook range of cast,
# unfilled phenolics 3-7 GPa (e.g. MatWeb "Phenolic, cast"); estimate 5.4 GPa, nu 0.35.
PHENOLIC_RESIN = Material("phenolic_resin", 5.4e9, 0.35)
# Birch (novus pucks, novus 25.1 "preferably birch"). Wood Handbook (USDA FPL-GTR-190,
# tables 5-1, 5-3a) yellow birch at 12 % moisture: E_L 13.9 GPa, E_R/E_L 0.078, E_T/E_L 0.050.
# A puck's edge is loaded along the grain on one side and across it on another; estimate:
# the geometric mean of E_L and E_R, 3.9 GPa; nu 0.35 (Wood Handbook nu_LR 0.43, nu_RT 0.70,
# nu_LT 0.43 for yellow birch; a single isotropic value is an estimate).
BIRCH = Material("birch", math.sqrt(13.9e9 * 0.078 * 13.9e9), 0.35)
# Hardwood of the striker (novus 26.1, unpainted solid hardwood) and the glued rails (24.4):
# estimate: the same birch-like hardwood, loaded the same way.
HARDWOOD = Material("hardwood", BIRCH.young, 0.35)
# Cushion rubber (pool and carom cushions: vulcanised gum rubber profiles). Natural rubber has
# E ~ 1-10 MPa at small strain (e.g. Gent, Engineering with Rubber, 3rd ed., ch. 1); estimate
# 5 MPa; nearly incompressible, nu 0.49.
CUSHION_RUBBER = Material("cushion_rubber", 5.0e6, 0.49)
# 5-pins pins: turned hardwood (beech/boxwood). Wood Handbook American beech E_L 11.9 GPa;
# estimate 11.9 GPa, nu 0.35 (the pins are loaded across their axis, near E_L along the grain
# of a turned pin's surface only approximately).
PIN_WOOD = Material("pin_wood", 11.9e9, 0.35)

HERTZ_EXPONENT = 1.5  # sphere-sphere and sphere-flat (Hertz)
LINE_EXPONENT = 1.0  # parallel cylinders, linearised (see the module docstring)


def effective_modulus(a: Material, b: Material) -> float:
    """E*: 1/E* = (1 - nu_a^2)/E_a + (1 - nu_b^2)/E_b (Pa)."""
    return 1.0 / ((1.0 - a.poisson**2) / a.young + (1.0 - b.poisson**2) / b.young)


def hertz_spheres(r_a: float, mat_a: Material, r_b: float, mat_b: Material) -> tuple[float, float]:
    """(k, eta) of two spheres of radii r_a, r_b (m; math.inf for a flat face):
    k = 4/3 E* sqrt(R*), eta = 3/2."""
    r_star = 1.0 / (1.0 / r_a + (0.0 if math.isinf(r_b) else 1.0 / r_b))
    return 4.0 / 3.0 * effective_modulus(mat_a, mat_b) * math.sqrt(r_star), HERTZ_EXPONENT


def sphere_on_cushion(r: float, ball: Material,
                      cushion: Material = CUSHION_RUBBER) -> tuple[float, float]:
    """(k, eta) of a ball against a cushion nose (a rubber half-space): Hertz with R* = r."""
    return hertz_spheres(r, ball, math.inf, cushion)


def line_contact(length: float, mat_a: Material, mat_b: Material) -> tuple[float, float]:
    """(k, eta) of parallel cylinders (or a cylinder on a flat) touching along `length` m:
    F = (pi/4) E* L delta, eta = 1 (linearised line contact, see the module docstring)."""
    return math.pi / 4.0 * effective_modulus(mat_a, mat_b) * length, LINE_EXPONENT


def disc_pair(thickness_a: float, mat_a: Material, thickness_b: float,
              mat_b: Material) -> tuple[float, float]:
    """(k, eta) of two discs edge to edge: a line contact along the thinner disc's thickness."""
    return line_contact(min(thickness_a, thickness_b), mat_a, mat_b)


def disc_on_rail(thickness: float, disc: Material, rail_height: float,
                 rail: Material) -> tuple[float, float]:
    """(k, eta) of a disc against a flat rail face: a line contact along the shorter of the
    disc's thickness and the rail's height."""
    return line_contact(min(thickness, rail_height), disc, rail)
