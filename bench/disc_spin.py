"""Measurement: what the disc law's uncoupled sliding and spinning leave out, on novus shots.

    python bench/disc_spin.py [--shots 200] [--seed 1] [--plot FILE]

cuesim's disc law (sim/motion/disc.py, DESIGN.md) slows a novus disc at mu g along its velocity
and its spin at the full friction torque mu m g r_f / I, each as if the other motion were absent.
For a flat face under uniform pressure they are coupled (Farkas, Bartels, Unger and Wolf, Phys.
Rev. Lett. 90, 248302, 2003): each face element's friction opposes its own slip v + w x r, so a
spinning disc feels less sliding friction and a sliding one less torque, and both motions stop
at the same moment. This script measures how much that changes, without changing the core:
1. the force and torque of the puck's and the striker's annular faces against eps = |w| R / |v|,
   by quadrature over the face (with the homogeneous disc's fixed point as a check: the paper's
   v / (w R) = 0.653, 1 / 0.653 = 1.53 here);
2. how much spin the discs carry in real shots: eps at the start of every moving segment that an
   event opened, over random novus opening shots simulated by the core;
3. the coupled motion against the uncoupled law, from the same start: the sliding distance and
   how long the spin lasts.
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cuesim.api import game_table, start_layout  # noqa: E402
from cuesim.commands import positive_int  # noqa: E402
from cuesim.sim.state import (  # noqa: E402
    SEG_AX,
    SEG_AY,
    SEG_EVENT,
    SEG_OBJ,
    SEG_ON,
    SEG_T0,
    SEG_T1,
    SEG_VX,
    SEG_VY,
    SEG_W,
)
from cuesim.tables.pieces import PieceSpec  # noqa: E402

RADIAL, ANGULAR = 160, 320  # quadrature cells over the face (doubling both moves the figures
# below by less than 1e-3: `face_friction(..., cells=2)` in tests/test_bench_disc_spin.py)
EPS_TABLE = np.concatenate([[0.0], np.geomspace(1e-3, 1e3, 400)])  # where phi, tau are tabulated
EPS_STARTS = (0.1, 0.3, 0.5, 1.0, 1.5)  # eps of the compared starts (section 3)


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


def coupled_motion(face: Face, phi: np.ndarray, tau: np.ndarray, eps0: np.ndarray,
                   s_end: float = 30.0, n: int = 6_000) -> tuple[np.ndarray, np.ndarray]:
    """(distance, time) of the coupled slide from each eps0, in units of v0^2 / (mu g) and
    v0 / (mu g). With s = ln(v0 / v) the slide is autonomous in eps: d eps / ds = eps - c tau /
    phi, dt = v ds / (mu g phi), dx = v dt (RK4 in s; t and x step by step with the step's
    mean 1 / phi, exact where phi is constant; up to v = e^-30 v0; w R falls with v, so both
    motions stop together)."""
    def rate(e: np.ndarray) -> np.ndarray:
        return e - face.c * np.interp(e, EPS_TABLE, tau) / np.interp(e, EPS_TABLE, phi)

    h = s_end / n
    e = np.asarray(eps0, dtype=np.float64).copy()
    dist, time = np.zeros_like(e), np.zeros_like(e)
    p0 = np.interp(e, EPS_TABLE, phi)
    for k in range(n):
        s = k * h
        k1 = rate(e)
        k2 = rate(e + 0.5 * h * k1)
        k3 = rate(e + 0.5 * h * k2)
        k4 = rate(e + h * k3)
        e = e + h * (k1 + 2 * k2 + 2 * k3 + k4) / 6.0
        p1 = np.interp(e, EPS_TABLE, phi)
        mean = 0.5 * (1.0 / p0 + 1.0 / p1)  # 1 / phi over the step, the rest exact in s
        time += mean * math.exp(-s) * -math.expm1(-h)
        dist += mean * 0.5 * math.exp(-2 * s) * -math.expm1(-2 * h)
        p0 = p1
    return dist, time


def shot_spins(n_shots: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Over random novus opening shots (the striker anywhere on its strip, 60-120 degrees, 2-7
    m/s): eps = |w| R / |v| at the start of every moving segment an event opened, and of those
    that run to rest, the (eps, distance) pairs (the slide v^2 / (2 a) of the uncoupled law)."""
    from cuesim import NovusShot, simulate

    table, layout = game_table("novus"), start_layout("novus")
    radius = np.array([table.piece_spec(p.kind).radius for p in layout.pieces])
    (x_lo, x_hi), _ = table.striker_strip()
    rng = np.random.default_rng(seed)
    eps: list[np.ndarray] = []
    rests: list[np.ndarray] = []
    for _ in range(n_shots):
        shot = NovusShot(x=float(rng.uniform(x_lo, x_hi)),
                         angle=math.radians(float(rng.uniform(60.0, 120.0))),
                         speed=float(rng.uniform(2.0, 7.0)))
        seg = simulate(table, layout, shot).segments
        v = np.hypot(seg[:, SEG_VX], seg[:, SEG_VY])
        a = np.hypot(seg[:, SEG_AX], seg[:, SEG_AY])
        keep = (seg[:, SEG_EVENT] >= 0) & (v > 0.05) & (seg[:, SEG_T1] > seg[:, SEG_T0])
        e = np.abs(seg[:, SEG_W]) * radius[seg[:, SEG_OBJ].astype(np.int64)] / np.maximum(v, 1e-300)
        eps.append(e[keep])
        with np.errstate(divide="ignore", invalid="ignore"):
            to_rest = keep & (seg[:, SEG_ON] > 0) & np.isclose(
                seg[:, SEG_T1] - seg[:, SEG_T0], v / a, rtol=1e-9, atol=1e-12)
        rests.append(np.column_stack([e[to_rest], v[to_rest] ** 2 / (2.0 * a[to_rest])]))
    return np.concatenate(eps), np.concatenate(rests)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", type=positive_int, default=200, help="random opening shots")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--plot", type=Path, help="write the distance and spin-time ratios here")
    args = ap.parse_args(argv)
    table = game_table("novus")
    faces = {kind: Face.of(table.piece_spec(kind)) for kind in ("puck", "striker")}
    tables = {kind: tabulate(face) for kind, face in faces.items()}
    full = Face(1.0, 0.0, 4.0 / 3.0)  # homogeneous disc: r_f = 2R/3, I = m R^2 / 2
    star = fixed_point(full, *tabulate(full))
    print(f"1. fixed point of a homogeneous disc: eps* = {star:.3f}, v / (w R) = {1.0 / star:.3f} "
          "(Farkas et al. 2003, who write v / (w R): 0.653)")
    for kind, face in faces.items():
        phi, tau = tables[kind]
        print(f"   {kind} (R {face.radius * 1e3:.1f} mm, hole {face.hole * 1e3:.2f} mm, "
              f"c = {face.c:.3f}): eps* = {fixed_point(face, phi, tau):.3f}")
        row = ", ".join(f"eps {e:g}: force {face_friction(face, e)[0]:.3f}, torque "
                        f"{face_friction(face, e)[2]:.3f}" for e in (0.1, 0.3, 1.0, 3.0))
        print(f"     {row} (of the uncoupled law's)")
    eps, rests = shot_spins(args.shots, args.seed)
    q = np.percentile(eps, [50, 75, 90, 99])
    print(f"2. spin in {args.shots} random novus opening shots: {eps.size} moving segments "
          f"opened by an event; eps = |w| R / |v| median {q[0]:.3f}, 75 % {q[1]:.3f}, "
          f"90 % {q[2]:.3f}, 99 % {q[3]:.3f}, largest {eps.max():.2f}; "
          f"over 0.3: {np.mean(eps > 0.3):.0%}")
    if len(rests):
        _print_shifts(faces["puck"], tables["puck"], rests)
    else:
        print("   none of them slides to rest")
    print("3. the coupled motion against the uncoupled law, same start (ratios):")
    for kind, face in faces.items():
        for e0, far, spin, slide in compare(face, *tables[kind], EPS_STARTS):
            print(f"   {kind:7s} eps {e0:3g}: slides {far:.3f}x as far and {slide:.3f}x as long; "
                  f"spins {spin:.1f}x as long")
    if args.plot:
        _plot(args.plot, compare(faces["puck"], *tables["puck"], np.linspace(0.05, 1.5, 30)),
              eps)
        print(f"wrote {args.plot}")
    return 0


def _print_shifts(face: Face, table: tuple[np.ndarray, np.ndarray], rests: np.ndarray) -> None:
    """How much further the coupled law would stop the segments that slide to rest."""
    fine = np.linspace(0.0, max(1.5, float(rests[:, 0].max())), 60)
    far = np.array([r[1] for r in compare(face, *table, fine)])
    shift = (np.interp(rests[:, 0], fine, far) - 1.0) * rests[:, 1] * 1e3
    q = np.percentile(shift, [50, 90, 99])
    slide = np.median(rests[:, 1]) * 1e3
    print(f"   of those, {len(rests)} slide to rest ({slide:.0f} mm median); "
          f"the coupled law would stop them further by {q[0]:.1f} mm median, {q[1]:.1f} mm "
          f"(90 %), {q[2]:.1f} mm (99 %), {shift.max():.1f} mm at most; over 5 mm: "
          f"{np.mean(shift > 5.0):.0%}")


def compare(face: Face, phi: np.ndarray, tau: np.ndarray,
            starts: tuple[float, ...] | np.ndarray) -> list[tuple[float, float, float, float]]:
    """(eps0, distance, spin time, slide time) of the coupled motion over the uncoupled law's
    from each start: uncoupled, v stops after v0^2 / (2 mu g) at v0 / (mu g) and w R at
    eps0 v0 / (c mu g)."""
    e0 = np.asarray(starts, dtype=np.float64)
    dist, time = coupled_motion(face, phi, tau, e0)
    with np.errstate(divide="ignore", invalid="ignore"):
        spin = np.where(e0 > 0.0, time / (e0 / face.c), np.nan)  # no spin, no spin time
    return [(float(a), float(2.0 * d), float(w), float(t))
            for a, d, w, t in zip(e0, dist, spin, time, strict=True)]


def _plot(path: Path, rows: list[tuple[float, float, float, float]], eps: np.ndarray) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax, hist) = plt.subplots(1, 2, figsize=(9, 3.6))
    e = [r[0] for r in rows]
    ax.plot(e, [r[1] for r in rows], "-", label="sliding distance")
    ax.plot(e, [r[3] for r in rows], ":", label="sliding time")
    ax.plot(e, [r[2] for r in rows], "--", label="spin time")
    ax.set_xlabel("eps = |w| R / |v| at the start")
    ax.set_ylabel("coupled / cuesim's uncoupled law")
    ax.set_yscale("log")
    ax.axhline(1.0, color="grey", lw=0.8)
    ax.set_title("A puck's slide (the striker's within 1 %)", fontsize=10)
    ax.legend(fontsize=8)
    hist.hist(np.minimum(eps, 1.5), bins=30, range=(0.0, 1.5), color="tab:grey")
    hist.set_xlabel("eps at the start of a moving segment")
    hist.set_ylabel("segments")
    hist.set_title(f"Spin in random novus openings ({eps.size} segments)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    raise SystemExit(main())
