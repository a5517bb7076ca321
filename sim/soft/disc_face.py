"""The friction of a disc's flat face sliding and spinning at once (the coupled bed law).

Under uniform pressure every element of an annular face (outer radius R, hole r) feels
Coulomb friction against its own slip v + w x r (Farkas, Bartels, Unger and Wolf, Phys. Rev.
Lett. 90, 248302, 2003). With eps = |w| R / |v| the net force is mu m g phi(eps) against v
(nothing across it, by symmetry) and the torque mu m g r_f tau(eps) against w, r_f the mean
arm of `PieceSpec.friction_arm`: phi(0) = 1, tau(0) = 0; phi -> 0 and tau -> 1 as eps grows.
The uncoupled law (sim/motion/disc.py) takes phi = tau = 1 whatever eps. `tabulate` gives
both on `EPS_TABLE` for linear interpolation; the soft-contact reference uses them when asked
(`soft_simulate(spin_coupling=True)`), and `bench/disc_spin.py` measures the difference.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from cuesim.tables.pieces import PieceSpec

RADIAL, ANGULAR = 160, 320  # quadrature cells over the face (doubling both moves the figures
# phi and tau by less than 1e-3: `face_friction(..., cells=2)`, tests/test_bench_disc_spin.py)
EPS_TABLE = np.concatenate([[0.0], np.geomspace(1e-3, 1e3, 400)])  # where phi, tau are tabulated


@dataclass(frozen=True)
class Face:
    """A disc's annular face: outer radius R, hole radius r, and c = R r_f m / I, the ratio of
    the full friction torque's spin-down of w R to the full force's slow-down of v."""

    radius: float
    hole: float
    c: float

    @classmethod
    def of(cls, spec: PieceSpec) -> Face:
        return cls(spec.radius, spec.hole_radius,
                   spec.radius * spec.friction_arm() * spec.mass / spec.inertia)


def face_friction(face: Face, eps: float, cells: int = 1) -> tuple[float, float, float]:
    """(phi, lateral, tau): the friction force along -v in units of mu m g, its part across v,
    and the torque against w in units of mu m g r_f, of a face sliding at v = 1 (along x) and
    spinning at w = eps / R, under uniform pressure (midpoint quadrature in polar cells)."""
    nr, nt = RADIAL * cells, ANGULAR * cells
    dr = (face.radius - face.hole) / nr
    r = face.hole + (np.arange(nr) + 0.5) * dr
    th = (np.arange(nt) + 0.5) * (2.0 * math.pi / nt)
    rr, tt = np.meshgrid(r, th, indexing="ij")
    x, y = rr * np.cos(tt), rr * np.sin(tt)
    w = eps / face.radius
    ux, uy = 1.0 - w * y, w * x  # slip of each face element
    s = np.hypot(ux, uy)
    s[s == 0.0] = 1.0
    weight = rr / rr.sum()  # area of each cell over the face's
    r_f = (2.0 / 3.0) * (face.radius**3 - face.hole**3) / (face.radius**2 - face.hole**2)
    phi = float((ux / s * weight).sum())
    lateral = float((uy / s * weight).sum())
    tau = float(((x * uy - y * ux) / s * weight).sum()) / r_f
    return phi, lateral, tau


@lru_cache(maxsize=8)
def tabulate(face: Face) -> tuple[np.ndarray, np.ndarray]:
    """phi and tau of `face` on EPS_TABLE (made once per face: 401 quadratures)."""
    rows = [face_friction(face, e) for e in EPS_TABLE]
    return np.array([r[0] for r in rows]), np.array([r[2] for r in rows])


def fixed_point(face: Face, phi: np.ndarray, tau: np.ndarray) -> float:
    """The eps both motions approach: eps phi(eps) = c tau(eps), where d eps / ds (below)
    turns from growing to shrinking (eps = 0 is the other, unstable, root)."""
    g = EPS_TABLE * phi - face.c * tau
    k = int(np.nonzero((g[:-1] > 0.0) & (g[1:] <= 0.0))[0][0])
    return float(EPS_TABLE[k] - g[k] * (EPS_TABLE[k + 1] - EPS_TABLE[k]) / (g[k + 1] - g[k]))


