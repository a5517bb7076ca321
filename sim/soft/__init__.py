"""The soft-contact (discrete-element) reference: an independent time-stepped simulation of
the same tables and pieces, the ground truth for touching contacts (issue 12, item 3).

Every contact is compliant, F = k delta^eta with the stiffness of tables.contact, damped so
that each pair's binary impact has the table's restitution (sim.soft.damping; or, with
`dissipation="hysteretic"`, spending it by the event core's rate-independent unloading law,
sim.soft.hysteresis: both give a binary impact the table's restitution, they part in chains),
with Coulomb friction at the contact point; the bed laws are the core's (or, with
`spin_coupling=True`, the discs' coupled law of sim.soft.disc_face); rails are segments of
their real extent plus the jaw knuckles; a piece is captured when its centre enters a hole circle.
Nothing here uses the event core (sim/loop.py, sim/detect, sim/resolve). The kernel and its
integration scheme are described in sim.soft.step.

    result = soft_simulate(table, layout, {"striker": (0.0, 6.0, 0.0)})
    result.final_positions, result.final_on, result.pocketed

Limits: pins (5-pins) are not modelled (a layout with pins is refused); a rail is a segment
in the plane with its nose at the cushion height (a ball is free vertically while it presses
the nose, as in Han's model; the slate takes the vertical motion when it leaves); the cloth's
load and friction do not change during an impact (as in the core).
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from cuesim.sim.soft.damping import (  # compiled code caches in the user's cache (compiled.py)
    contact_duration,
    damping_coefficient,
    damping_ratio,
    time_scale,
)
from cuesim.sim.soft.disc_face import EPS_TABLE, Face, tabulate
from cuesim.sim.soft.hysteresis import N_MEM
from cuesim.sim.soft.step import STATUS_PAUSED, STATUS_TIME_LIMIT, run_soft
from cuesim.tables.base import PieceTable
from cuesim.tables.layout import Layout
from cuesim.tables.numbers import finite_numbers, finite_real, shown

STEPS_PER_CONTACT = 40  # contact step: the shortest elastic contact duration / this (>= 30)
FREE_STEP_MAX = 1e-3  # s, the longest step between contacts
FREE_TRAVEL = 2e-3  # m, the farthest a piece moves in one step between contacts
T_MAX = 120.0  # s, time limit (a rolling ball from 10 m/s stops within ~100 s)
# sanity bounds of the settings (a run past them would not end in any useful time, or fill the
# memory with samples): an hour of motion, 100x the default contact resolution, stiffness
# scaled by at most 10^4 either way, a step of at least a nanosecond, 10^7 samples
T_MAX_LIMIT = 3600.0
STEPS_PER_CONTACT_RANGE = (1, 100 * STEPS_PER_CONTACT)
STIFFNESS_SCALE_RANGE = (1e-4, 1e4)
DT_RANGE = (1e-9, FREE_STEP_MAX)
MAX_SAMPLES = 10_000_000
# how a contact spends its restitution: by its compression rate (Tsuji's damping,
# sim.soft.damping) or by its largest compression (the event core's law, sim.soft.hysteresis)
DISSIPATION_LAWS = ("viscous", "hysteretic")


@dataclass(frozen=True)
class SoftResult:
    """Outcome of a soft-contact run. Positions of pocketed pieces are where they were
    captured; `pocketed` lists (id, hole name) in the order of capture."""

    ids: tuple[str, ...]
    final_positions: np.ndarray  # (n, 2) m
    final_on: np.ndarray  # (n,) bool
    final_velocities: np.ndarray  # (n, 2) m/s (zero at rest)
    final_spins: np.ndarray  # (n, 3) rad/s: wx, wy (balls), wz
    pocketed: tuple[tuple[str, str], ...]
    t_end: float  # s
    at_rest: bool  # False when the time limit stopped the run
    dt: float  # s, the contact step
    steps: int
    times: np.ndarray  # (s,) sample times: 0, the first step end at or after each multiple of
    #                    sample_dt, and t_end (empty without sampling)
    trajectory: np.ndarray  # (s, n, 2) positions at the sample times

    def position(self, pid: str) -> tuple[float, float]:
        k = self.ids.index(pid)
        return float(self.final_positions[k, 0]), float(self.final_positions[k, 1])

    def pocketed_ids(self) -> frozenset[str]:
        return frozenset(pid for pid, _ in self.pocketed)


def _cushion_sin(height: float, r: float) -> float:
    """sin(theta) of a ball's contact with a nose at `height` (Han 2005); 0 without a nose."""
    if height <= 0.0:
        return 0.0
    return min(max((height - r) / r, -1.0), 1.0)


def _unloading_share(e: float, hyst: bool) -> float:
    """The hysteretic law unloads along a stiffer curve, K e^(-2 eta): its release lasts about
    e of the loading (exactly e for a line contact), and the step shrinks with it (at most to
    a tenth: a plastic contact releases nothing)."""
    return max(min(e, 1.0), 0.1) if hyst else 1.0


def _bed_tables(kinds: list[str], laws: list[int], specs: dict[str, Any],
                coupled: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(eps, phi, tau) of the coupled bed law, a row of phi and tau per kind (ones for balls,
    which keep their own law), or an empty eps table for the uncoupled law."""
    if not coupled:
        return np.zeros(0), np.zeros((len(kinds), 0)), np.zeros((len(kinds), 0))
    phi = np.ones((len(kinds), EPS_TABLE.size))
    tau = np.ones((len(kinds), EPS_TABLE.size))
    for k, name in enumerate(kinds):
        if laws[k] == 0:
            phi[k], tau[k] = tabulate(Face.of(specs[name]))
    return EPS_TABLE.copy(), phi, tau


def _check_settings(table: Any, layout: Any, initial: Any, t_max: Any, sample_dt: Any,
                    steps_per_contact: Any, stiffness_scale: Any, dt: Any, bed_friction: Any,
                    spin_coupling: Any, check: Any, dissipation: Any = "viscous") -> None:
    """soft_simulate's arguments, each a ValueError naming it when it does not fit."""
    if not isinstance(table, PieceTable):
        raise ValueError(f"soft_simulate needs a table (novus_table(), pool_table(), ...), got "
                         f"{type(table).__name__}")
    if not isinstance(layout, Layout):
        raise ValueError(f"soft_simulate needs a Layout, got {type(layout).__name__}")
    if not isinstance(initial, Mapping):
        raise ValueError(f"initial must map piece ids to motions, got {type(initial).__name__}")
    for pid, value in initial.items():
        if not isinstance(pid, str) or pid not in layout.ids():
            raise ValueError(f"initial names no piece of the layout: {pid!r}")
        numbers_given = finite_numbers(value)
        if numbers_given is None or len(numbers_given) not in (3, 5):
            raise ValueError(f"initial motion of {pid!r} must be 3 or 5 finite numbers, got "
                             f"{value!r}")
    for name, value, low, high in (("t_max", t_max, 0.0, T_MAX_LIMIT),
                                   ("stiffness_scale", stiffness_scale, *STIFFNESS_SCALE_RANGE)):
        if not finite_real(value) or not low < value <= high:
            raise ValueError(f"{name} must be a number in ({low:g}, {high:g}], got {shown(value)}")
    for name, value, low, high in (("sample_dt", sample_dt, t_max / MAX_SAMPLES, t_max),
                                   ("dt", dt, *DT_RANGE)):
        if value is not None and (not finite_real(value) or not low <= value <= high):
            raise ValueError(f"{name} must be None or a number of seconds in [{low:g}, "
                             f"{high:g}], got {shown(value)}")
    low, high = STEPS_PER_CONTACT_RANGE
    if isinstance(steps_per_contact, bool) or not isinstance(steps_per_contact, numbers.Integral) \
            or not low <= steps_per_contact <= high:
        raise ValueError(f"steps_per_contact must be a whole number in [{low}, {high}], got "
                         f"{shown(steps_per_contact)}")
    if not isinstance(dissipation, str) or dissipation not in DISSIPATION_LAWS:
        raise ValueError(f"dissipation must be one of {', '.join(DISSIPATION_LAWS)}, got "
                         f"{dissipation!r}")
    for name, flag in (("bed_friction", bed_friction), ("spin_coupling", spin_coupling),
                       ("check", check)):
        if not isinstance(flag, bool):
            raise ValueError(f"{name} must be True or False, got {flag!r}")


def soft_simulate(table: Any, layout: Layout, initial: Mapping[str, tuple[float, ...]], *,
                  t_max: float = T_MAX, sample_dt: float | None = None,
                  steps_per_contact: int = STEPS_PER_CONTACT, stiffness_scale: float = 1.0,
                  dt: float | None = None, bed_friction: bool = True,
                  spin_coupling: bool = False, check: bool = True,
                  dissipation: str = "viscous") -> SoftResult:
    """Run the soft-contact reference from `layout` with the initial motions `initial` (as
    `cuesim.sim.run_motion`: (vx, vy, w) or, for balls, (vx, vy, wx, wy, wz)) until every
    piece rests or `t_max` s. `sample_dt` records positions every so often; `dt` overrides the
    contact step; `stiffness_scale` multiplies every contact stiffness (same exponents and
    ratios); `bed_friction=False` switches off the cloth (for closed-form checks).
    `spin_coupling=True` slows the discs by the coupled bed law of their faces
    (`sim.soft.disc_face`: a spinning disc slides further, and both motions stop together)
    instead of the core's uncoupled one; `bench/disc_spin.py --soft N` compares the two.
    `dissipation="hysteretic"` spends each contact's restitution by the event core's law (its
    largest compression sets what unloading gives back, sim.soft.hysteresis) instead of
    viscous damping ("viscous"): the same binary impacts, other chains, so that the core's
    integration of its own law through rows and racks can be checked (bench/agreement.py).
    Arguments that do not fit (the sanity bounds above included) raise a ValueError naming
    them."""
    _check_settings(table, layout, initial, t_max, sample_dt, steps_per_contact,
                    stiffness_scale, dt, bed_friction, spin_coupling, check, dissipation)
    hyst = dissipation == "hysteretic"
    if check:
        table.check_layout(layout)
    c = table.kind_coefficients()
    kinds = list(c.kinds)
    if not c.stiffness_pair:
        raise ValueError(f"table {table.name!r} gives no contact stiffness")
    n = len(layout)
    specs = {k: table.piece_spec(k) for k in kinds}
    laws = list(c.law) if c.law else [0] * len(kinds)
    kind = np.array([kinds.index(p.kind) for p in layout.pieces], dtype=np.int64)
    if any(laws[k] not in (0, 1) for k in kind):
        raise ValueError("the soft reference models discs and balls, not pins")
    X = layout.positions().astype(np.float64).copy()
    V = np.zeros((n, 2))
    W = np.zeros((n, 3))
    for pid, value in initial.items():
        k = layout.index(pid)
        value = tuple(float(v) for v in value)
        V[k] = value[:2]
        W[k, 2] = value[-1]
        if len(value) == 5:
            W[k, :2] = value[2:4]
    rad = np.array([specs[kinds[k]].radius for k in kind])
    mass = np.array([specs[kinds[k]].mass for k in kind])
    inertia = np.array([specs[kinds[k]].inertia for k in kind])
    law = np.array([laws[k] for k in kind], dtype=np.int64)
    decel = np.array([c.decel[k] for k in kind])
    sdecel = np.array([c.spin_decel[k] for k in kind])
    rdecel = np.array([(c.roll_decel[k] if c.roll_decel else 0.0) for k in kind])
    eps_t, phi_t, tau_t = _bed_tables(kinds, laws, specs, spin_coupling)

    nk = len(kinds)
    present = sorted(set(int(k) for k in kind))
    kp = np.array(c.stiffness_pair, dtype=np.float64) * stiffness_scale
    ep = np.array(c.exponent_pair, dtype=np.float64)
    kr = np.array(c.stiffness_rail, dtype=np.float64) * stiffness_scale
    er = np.array(c.exponent_rail, dtype=np.float64)
    mup = np.array(c.mu_pair, dtype=np.float64)
    mur = np.array(c.mu_rail, dtype=np.float64)
    sinr = np.array([_cushion_sin(c.cushion_height, specs[k].radius) if laws[i] == 1 else 0.0
                     for i, k in enumerate(kinds)])
    m_kind = [specs[k].mass for k in kinds]
    m_pair = [[m_kind[a] * m_kind[b] / (m_kind[a] + m_kind[b]) for b in range(nk)]
              for a in range(nk)]
    # a ball on a nose is free along the contact normal (Han): its mass there is m
    m_rail = list(m_kind)
    e_rail = [float(e) for e in c.e_rail]

    speed = max([1.0] + [float(np.linalg.norm(V[i]) + rad[i] * np.linalg.norm(W[i]))
                         for i in range(n)])
    v_ref = 2.0 * speed
    if dt is None:
        steps = []
        for a in present:
            for b in present:
                ts = time_scale(ep[a, b], kp[a, b], m_pair[a][b], v_ref)
                steps.append(contact_duration(1.0, ep[a, b]) * ts / steps_per_contact
                             * _unloading_share(c.e_pair[a][b], hyst))
                if not hyst:
                    steps.append(0.3 * ts / max(damping_ratio(c.e_pair[a][b], ep[a, b]), 1e-9))
            if kr[a] > 0.0:
                ts = time_scale(er[a], kr[a], m_rail[a], v_ref)
                steps.append(contact_duration(1.0, er[a]) * ts / steps_per_contact
                             * _unloading_share(e_rail[a], hyst))
                if not hyst:
                    steps.append(0.3 * ts / max(damping_ratio(e_rail[a], er[a]), 1e-9))
        dt = min(steps)
    cp = np.array([[damping_coefficient(c.e_pair[a][b], ep[a, b], kp[a, b], m_pair[a][b])
                    for b in range(nk)] for a in range(nk)])
    cr = np.array([damping_coefficient(e_rail[a], er[a], kr[a], m_rail[a]) for a in range(nk)])
    fit = np.array(c.friction_fit, dtype=np.float64)
    e_pair_arr = np.array(c.e_pair, dtype=np.float64).reshape(nk, nk)
    e_rail_arr = np.array(e_rail, dtype=np.float64)

    geo = table.geometry
    rails, knuckles, holes = geo.rail_array(), geo.knuckle_array(), geo.hole_array()
    on = np.ones(n)
    F = np.zeros((n, 3))
    Z = np.zeros((n, 2))
    T = np.zeros((n, 3))
    cap_t = np.full(n, np.inf)
    cap_hole = np.full(n, -1, dtype=np.int64)
    clock = np.array([0.0, 1.0, dt, 0.0])
    # each contact's memory (hysteretic law): pairs, then rails, then knuckles
    mem = np.zeros((N_MEM, n, n + rails.shape[0] + knuckles.shape[0]) if hyst
                   else (N_MEM, 0, 0))
    times, frames = [], []
    while True:
        if sample_dt is not None:
            times.append(clock[0])
            frames.append(X.copy())
            until = clock[0] + sample_dt
        else:
            until = t_max
        status = run_soft(X, V, W, Z, on, rad, mass, inertia, law, kind, decel, sdecel, rdecel,
                          kp, ep, cp, mup, kr, er, cr, mur, sinr, fit, rails, knuckles, holes,
                          F, T, cap_t, cap_hole, clock, dt, FREE_STEP_MAX, FREE_TRAVEL,
                          min(until, t_max), t_max, bed_friction, eps_t, phi_t, tau_t, hyst,
                          e_pair_arr, e_rail_arr, mem)
        if status != STATUS_PAUSED or clock[0] >= t_max:
            break
    if sample_dt is not None:
        times.append(clock[0])
        frames.append(X.copy())
    order = sorted((cap_t[i], i) for i in range(n) if on[i] == 0.0)
    ids = layout.ids()
    return SoftResult(
        ids=tuple(ids), final_positions=X, final_on=on != 0.0, final_velocities=V,
        final_spins=W,
        pocketed=tuple((ids[i], geo.holes[int(cap_hole[i])].name) for _, i in order),
        t_end=float(clock[0]), at_rest=status not in (STATUS_TIME_LIMIT, STATUS_PAUSED),
        dt=float(dt), steps=int(clock[3]), times=np.array(times),
        trajectory=np.array(frames) if frames else np.zeros((0, n, 2)),
    )


__all__ = ["SoftResult", "soft_simulate"]
