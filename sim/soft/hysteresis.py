"""The reference's second dissipation law: rate-independent hysteresis, the law the event
core's multiple impact spends each contact's restitution by (its `multi_impact` module, after
Liu, Zhao and Brogliato 2008), written here from the law itself, not from the core's code.

A contact loads along F = K x^eta (x its compression beyond its dent, x = delta - dent) and,
once it unloads from its largest compression x_m, along the law that gives back e^2 of the
energy stored:
    F = K e^(-2 eta) (x - x_r)^eta,   x_r = (1 - e^2) x_m,
zero below x_r; closing again it reloads along the same curve up to x_m, then the loading law.
A perfectly plastic contact (e = 0) keeps nothing: once it unloads, x_m becomes a dent, and
closing again it loads from the dent with the stiffness it had there,
F = max(K_t x, K x^eta), K_t = eta K x_m^(eta - 1) at its first dent.
Both laws give a binary impact the table's restitution e (the energetic coefficient); they
part where a third body keeps a contact loaded (rows, racks, a puck pressed to a rail): the
viscous law (sim.soft.damping) loses energy by the compression rate all along, this one by
the largest compression (bench/README.md, "agreement.py").

Each contact keeps its memory (x_m, the dent, K_t) while its pieces stay within their deepest
overlap of each other; once they part farther, the next touch is a new contact (the core's
impact ends long before: its memory lasts one multiple impact)."""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_core

# rows of a contact's memory (mem[row, a, b])
MEM_XMAX, MEM_DENT, MEM_KDENT = range(3)
N_MEM = 3


@njit_core
def _power(x: float, eta: float) -> float:
    if eta == 1.0:
        return x
    if eta == 1.5:
        return x * math.sqrt(x)
    return x**eta


@njit_core
def hysteretic_force(d: float, k: float, eta: float, e: float, mem: np.ndarray, a: int,
                     b: int) -> float:
    """The normal force of contact (a, b) at the overlap d (<= 0: apart), updating its memory
    mem[:, a, b] (module docstring)."""
    xm, dent, kd = mem[MEM_XMAX, a, b], mem[MEM_DENT, a, b], mem[MEM_KDENT, a, b]
    if d <= -(dent + xm):  # parted beyond the deepest overlap: the contact is forgotten
        mem[MEM_XMAX, a, b] = mem[MEM_DENT, a, b] = mem[MEM_KDENT, a, b] = 0.0
        return 0.0
    x = d - dent
    if x > xm:
        xm = x
    elif e <= 0.0 and 0.0 < xm and x < xm:  # plastic, unloading: x_m becomes a dent
        if kd == 0.0:
            kd = eta * k * xm ** (eta - 1.0)
        dent += xm
        x -= xm
        xm = 0.0
    mem[MEM_XMAX, a, b], mem[MEM_DENT, a, b], mem[MEM_KDENT, a, b] = xm, dent, kd
    if x <= 0.0:
        return 0.0
    if x >= xm:
        f = k * _power(x, eta)
        return max(kd * x, f) if e <= 0.0 else f
    x_r = (1.0 - e * e) * xm
    if x <= x_r:
        return 0.0
    return k * e ** (-2.0 * eta) * _power(x - x_r, eta)


@njit_core
def forget_if_apart(d: float, mem: np.ndarray, a: int, b: int) -> None:
    """Forget contact (a, b) when its pieces, at the overlap d (< 0: a gap), have parted
    beyond their deepest overlap (`hysteretic_force` does the same while they touch)."""
    if d <= -(mem[MEM_DENT, a, b] + mem[MEM_XMAX, a, b]):
        mem[MEM_XMAX, a, b] = mem[MEM_DENT, a, b] = mem[MEM_KDENT, a, b] = 0.0
