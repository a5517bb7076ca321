"""Measurement: what the disc law's uncoupled sliding and spinning leave out, on novus shots.

    python bench/disc_spin.py [--shots 200] [--seed 1] [--plot FILE] [--soft N [--openings]]

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
   how long the spin lasts;
4. with --soft N, whole shots: N random mid-game shots (--openings: openings into the doubles
   layout) played by the soft-contact reference with either law
   (`soft_simulate(spin_coupling=...)`), how often they end otherwise, and how the means of
   pieces pocketed differ (a bias of batch statistics);
5. what taking the coupled law into the event core would cost: the slide cut into pieces of
   constant deceleration, how many pieces a slide needs for how small an error.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cuesim.api import game_table, start_layout  # noqa: E402
from cuesim.commands import positive_int  # noqa: E402
from cuesim.sim.soft import SoftResult, soft_simulate  # noqa: E402
from cuesim.sim.soft.disc_face import (  # noqa: E402
    EPS_TABLE,
    Face,
    face_friction,
    fixed_point,
    tabulate,
)
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

EPS_STARTS = (0.1, 0.3, 0.5, 1.0, 1.5)  # eps of the compared starts (section 3)


def coupled_motion(face: Face, phi: np.ndarray, tau: np.ndarray, eps0: np.ndarray,
                   s_end: float = 30.0, n: int = 6_000) -> tuple[np.ndarray, np.ndarray]:
    """(distance, time) of the coupled slide from each eps0, in units of v0^2 / (mu g) and
    v0 / (mu g). With s = ln(v0 / v) the slide is autonomous in eps: d eps / ds = eps - c tau /
    phi, dt = v ds / (mu g phi), dx = v dt (RK4 in s; t and x step by step with the step's
    mean 1 / phi, exact where phi is constant; up to v = e^-30 v0; w R falls with v, so both
    motions stop together)."""
    e = np.asarray(eps0, dtype=np.float64).copy()
    last = (0.0, e, np.zeros_like(e), np.zeros_like(e))
    for last in _coupled_steps(face, phi, tau, e, s_end, n):  # noqa: B007 (the last step's)
        pass
    return last[2], last[3]


def coupled_path(face: Face, phi: np.ndarray, tau: np.ndarray, eps0: float,
                 s_end: float = 30.0, n: int = 6_000) -> np.ndarray:
    """Rows (s, eps, t, x) along the coupled slide from eps0, every step of `coupled_motion`
    (v = e^-s, w R = eps v; units v0, v0 / (mu g), v0^2 / (mu g))."""
    rows = [(0.0, eps0, 0.0, 0.0)]
    for s, e, x, t in _coupled_steps(face, phi, tau, np.array([eps0]), s_end, n):
        rows.append((s, float(e[0]), float(t[0]), float(x[0])))
    return np.array(rows)


def _coupled_steps(face: Face, phi: np.ndarray, tau: np.ndarray, e: np.ndarray, s_end: float,
                   n: int) -> Iterator[tuple[float, np.ndarray, np.ndarray, np.ndarray]]:
    """`coupled_motion`'s steps: (s, eps, distance, time) after each."""
    def rate(e: np.ndarray) -> np.ndarray:
        return e - face.c * np.interp(e, EPS_TABLE, tau) / np.interp(e, EPS_TABLE, phi)

    h = s_end / n
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
        time = time + mean * math.exp(-s) * -math.expm1(-h)
        dist = dist + mean * 0.5 * math.exp(-2 * s) * -math.expm1(-2 * h)
        p0 = p1
        yield s + h, e, dist, time


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
    ap.add_argument("--soft", type=positive_int, metavar="N",
                    help="also play N random novus mid-game shots in the soft-contact reference "
                         "with each law (section 4; 400 take about a minute)")
    ap.add_argument("--openings", action="store_true",
                    help="section 4 plays random openings into the doubles layout instead of "
                         "mid-game shots (about 1.5 s an opening for the three runs)")
    args = ap.parse_args(argv)
    if args.plot is not None:
        folder = args.plot.parent
        if not os.access(folder, os.W_OK):
            ap.error(f"argument --plot: cannot write {args.plot}: its folder {folder} is missing "
                     "or read-only")
        if importlib.util.find_spec("matplotlib") is None:
            ap.error("argument --plot: needs matplotlib (pip install -e '.[bench]')")
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
    if args.soft:
        soft_outcomes(args.soft, args.seed, args.openings)
    elif args.openings:
        ap.error("argument --openings: it chooses section 4's shots; give --soft N as well")
    print("5. the coupled slide cut into pieces of constant deceleration (an event core's "
          "way), a 2 m/s slide:")
    for q, e0, pieces, err, n_end, departure, jump in piece_errors(faces["puck"],
                                                                   *tables["puck"]):
        print(f"   each piece to {q:g} of its start speed, eps {e0:g}: rates at the middle "
              f"{pieces} pieces, the slide's length off by {err:.3f} mm; ends on the exact "
              f"slide {n_end} pieces, within {departure:.3f} mm of it, speed jumps up to "
              f"{jump:.2f} mm/s")
    for delta, e0, pieces, departure, jump in rate_piece_errors(faces["puck"], *tables["puck"]):
        print(f"   each piece until phi or tau has changed by {delta:g}, eps {e0:g}: ends on the "
              f"exact slide {pieces} pieces, within {departure:.3f} mm of it, speed jumps up "
              f"to {jump:.2f} mm/s")
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


def soft_outcomes(n: int, seed: int, openings: bool = False) -> None:
    """Section 4: n random novus mid-game shots (bench/scenarios.py: 4-24 pucks, the striker
    anywhere in its zone, struck off its centre line up to 10 mm), or with `openings` n random
    openings into the doubles layout (bench/novus_opening.py's spread, also struck up to 10 mm
    off the centre line), played to rest by the soft-contact reference with the uncoupled law,
    with the coupled one, and, as a yardstick of what any small change does to these chaotic
    shots, with the uncoupled law at 1 % less sliding friction; each against the first."""
    from bench import scenarios as sc

    what = "openings into the doubles layout" if openings else "mid-game shots"
    if openings:  # the scenario's first case is the fixed opening: the random ones after it
        cases = sc.novus_opening(n + 1, seed).cases[1:]
    else:
        cases = sc.novus_midgame(n, seed).cases
    table = cases[0].table
    p = table.physics
    softer = table.with_physics(mu_puck=0.99 * p.mu_puck, mu_striker=0.99 * p.mu_striker)
    runs = {"uncoupled": [], "coupled": [], "uncoupled, mu -1 %": []}
    for case in cases:
        for name, tab, coupled in (("uncoupled", table, False), ("coupled", table, True),
                                   ("uncoupled, mu -1 %", softer, False)):
            runs[name].append(soft_simulate(tab, case.layout, case.initial, check=False,
                                            spin_coupling=coupled))
    print(f"4. {n} random novus {what} in the soft-contact reference, against the "
          "uncoupled law:")
    base = runs["uncoupled"]
    for name in ("coupled", "uncoupled, mu -1 %"):
        other = runs[name]
        differ = np.mean([a.pocketed_ids() != b.pocketed_ids() for a, b in zip(base, other,
                                                                               strict=True)])
        shift = np.array([_largest_shift(a, b) for a, b in zip(base, other, strict=True)])
        print(f"   {name:18s}: another set pocketed in {differ:.1%} of the shots; the piece "
              f"that moved most, per shot, {np.median(shift):.1f} mm median, "
              f"{np.percentile(shift, 90):.0f} mm (90 %); shots with one over 5 mm "
              f"{np.mean(shift > 5):.0%}, over 20 mm {np.mean(shift > 20):.0%}")
    print("   what statistics of many shots are made of, each law's mean and its paired "
          "difference from the uncoupled law (standard error):")
    for name, rows in runs.items():
        print("   " + _statistics_line(name, base, rows))


def paired(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """The mean of b - a over the same shots and its standard error."""
    d = np.asarray(b, dtype=float) - np.asarray(a, dtype=float)
    return float(d.mean()), float(d.std(ddof=1) / np.sqrt(len(d))) if len(d) > 1 else 0.0


def _statistics_line(name: str, base: list[SoftResult], rows: list[SoftResult]) -> str:
    """Pieces pocketed per shot and the share of shots that pocket any, with their paired
    differences from `base` (a study of many shots would see a bias in these means)."""
    pocketed = np.array([len(r.pocketed_ids()) for r in rows])
    first = np.array([len(r.pocketed_ids()) for r in base])
    d, se = paired(first, pocketed)
    d_any, se_any = paired(first > 0, pocketed > 0)
    return (f"{name:18s}: {pocketed.mean():.4f} pieces pocketed a shot ({d:+.4f}, "
            f"{se:.4f}); a share of {np.mean(pocketed > 0):.4f} pocket any ({d_any:+.4f}, "
            f"{se_any:.4f})")


def _largest_shift(a: SoftResult, b: SoftResult) -> float:
    """The largest distance, mm, between where a piece on the board in both runs rests."""
    both = a.final_on & b.final_on
    if not both.any():
        return 0.0
    d = np.hypot(*(a.final_positions - b.final_positions).T)
    return float(d[both].max() * 1e3)


def piecewise_slide(face: Face, phi: np.ndarray, tau: np.ndarray, eps0: float, q: float,
                    v_end: float) -> tuple[float, int]:
    """(distance in v0^2 / (mu g), pieces) of the coupled slide from v0 = 1 and eps0 cut into
    pieces of constant deceleration, as an event core could take it: each piece ends when v has
    fallen to q times its start (the last, from v_end, runs to rest) and slows v and w R at the
    rates of its predicted middle (second order). If the spin stops within a piece, the piece
    goes on sliding alone."""
    def rates(v: float, u: float) -> tuple[float, float]:  # u = w R; mu g = 1
        if v <= 0.0:
            return 0.0, face.c
        if u <= 0.0:
            return 1.0, 0.0
        return (float(np.interp(u / v, EPS_TABLE, phi)),
                face.c * float(np.interp(u / v, EPS_TABLE, tau)))

    v, u, x, pieces = 1.0, eps0, 0.0, 0
    while v > 0.0:
        pieces += 1
        last = v <= v_end
        a0, b0 = rates(v, u)
        h = v / a0 if last else v * (1.0 - q) / a0
        a, b = rates(v - 0.5 * a0 * h, max(u - 0.5 * b0 * h, 0.0))
        h = v / a if last else v * (1.0 - q) / a
        v_next = 0.0 if last else q * v
        if b > 0.0 and u / b < h:  # the spin stops first: slide alone from there
            t1 = u / b
            x += v * t1 - 0.5 * a * t1 * t1
            v1 = v - a * t1
            x += 0.5 * (v1 * v1 - v_next * v_next)
            v, u = v_next, 0.0
            continue
        x += v * h - 0.5 * a * h * h
        v, u = v_next, u - b * h
    return x, pieces


def speed_cuts(path: np.ndarray, q: float, v_end: float) -> list[int]:
    """Rows of `coupled_path` where pieces end: each when the speed has fallen to q of its
    start; the last from v_end to rest (the path's end)."""
    s = path[:, 0]
    cuts, step = [0], math.log(1.0 / q)
    while math.exp(-s[cuts[-1]]) > v_end and cuts[-1] < len(s) - 1:
        cuts.append(min(int(np.searchsorted(s, s[cuts[-1]] + step)), len(s) - 1))
    if cuts[-1] != len(s) - 1:
        cuts.append(len(s) - 1)
    return cuts


def rate_cuts(path: np.ndarray, face: Face, phi: np.ndarray, tau: np.ndarray,
              delta: float) -> list[int]:
    """Rows of `coupled_path` where pieces end: each when phi or tau has changed by delta since
    its start (a piece at constant rates is exact however long)."""
    f = np.interp(path[:, 1], EPS_TABLE, phi)
    g = np.interp(path[:, 1], EPS_TABLE, tau)
    cuts = [0]
    for k in range(1, len(path)):
        if abs(f[k] - f[cuts[-1]]) > delta or abs(g[k] - g[cuts[-1]]) > delta:
            cuts.append(k)
    if cuts[-1] != len(path) - 1:
        cuts.append(len(path) - 1)
    return cuts


def exact_end_pieces(path: np.ndarray, cuts: list[int]) -> tuple[int, float, float]:
    """The other way for an event core: pieces of constant deceleration whose ends lie on the
    exact slide (`coupled_path`, cut at the rows `cuts`: each piece runs from one point of it
    to the next in the same time). (pieces, the largest distance of a piece's quadratic from
    the exact slide within it, the largest jump of the speed at a piece's end), in
    v0^2 / (mu g) and v0."""
    s, t, x = path[:, 0], path[:, 2], path[:, 3]
    departure = jump = 0.0
    for ia, ib in zip(cuts[:-1], cuts[1:], strict=True):
        va, dt = math.exp(-s[ia]), t[ib] - t[ia]
        acc = 2.0 * (x[ib] - x[ia] - va * dt) / (dt * dt)
        tau_ = t[ia:ib + 1] - t[ia]
        quad = x[ia] + va * tau_ + 0.5 * acc * tau_ * tau_
        departure = max(departure, float(np.abs(quad - x[ia:ib + 1]).max()))
        jump = max(jump, abs(va + acc * dt - math.exp(-s[ib])))
    return len(cuts) - 1, departure, jump


def piece_errors(face: Face, phi: np.ndarray, tau: np.ndarray, v0: float = 2.0,
                 tolerance: float = 1e-5) -> list[tuple[float, float, int, float, int, float,
                                                        float]]:
    """Section 5: (q, eps0, pieces, error in mm) of `piecewise_slide` against the coupled slide,
    and (pieces, largest departure in mm, largest speed jump in mm/s) of `exact_end_pieces`,
    for a v0 m/s slide (the last piece from the speed whose remaining slide is under
    `tolerance` m)."""
    physics = game_table("novus").physics
    mu_g = physics.mu_puck * physics.g
    v_end = math.sqrt(2.0 * mu_g * tolerance) / v0
    starts = (0.3, 1.0)
    exact, _ = coupled_motion(face, phi, tau, np.array(starts))
    paths = [coupled_path(face, phi, tau, e0, n=30_000) for e0 in starts]
    mm = v0 * v0 / mu_g * 1e3
    rows = []
    for q in (0.5, 0.7, 0.8, 0.9, 0.95):
        for e0, ex, path in zip(starts, exact, paths, strict=True):
            x, pieces = piecewise_slide(face, phi, tau, e0, q, v_end)
            n_end, departure, jump = exact_end_pieces(path, speed_cuts(path, q, v_end))
            rows.append((q, e0, pieces, abs(x - ex) * mm, n_end, departure * mm,
                         jump * v0 * 1e3))
    return rows


def rate_piece_errors(face: Face, phi: np.ndarray, tau: np.ndarray,
                      v0: float = 2.0) -> list[tuple[float, float, int, float, float]]:
    """Section 5, the pieces cut where phi or tau has changed by delta (`rate_cuts`), ends on
    the exact slide: (delta, eps0, pieces, largest departure in mm, largest speed jump in
    mm/s) for a v0 m/s slide."""
    physics = game_table("novus").physics
    mm = v0 * v0 / (physics.mu_puck * physics.g) * 1e3
    rows = []
    for e0 in (0.3, 1.0):
        path = coupled_path(face, phi, tau, e0, n=30_000)
        for delta in (0.05, 0.02, 0.01):
            pieces, departure, jump = exact_end_pieces(path, rate_cuts(path, face, phi, tau,
                                                                       delta))
            rows.append((delta, e0, pieces, departure * mm, jump * v0 * 1e3))
    return rows


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
