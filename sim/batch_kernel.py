"""A compiled loop over many shots on one table and one layout (cuesim.batch).

The shots share the table's geometry; each may be played on its own physics (a batch that
varies a coefficient, `--vary mu_slide=...`): the arrays the physics sets come stacked, one
slice for each physics, and shot s reads the slice phys[s].

Every shot moves one piece (the struck one) to its place and gives it its initial motion; all
the others start where the layout has them, at rest. The state of each shot is built exactly
as `build_state` builds it, the event loop is the same `run_events`, and only a summary of the
result is kept: final positions, what was pocketed, the struck piece's first contact, the
event counts per kind, the duration and whether the event limit stopped the shot. So a batch
gives the same numbers as a loop of `simulate`, without Python between shots.

`run_shots` runs the shots of one call on one thread or several (`sim.threads`): `run_block`
on each, in its own work buffers, taking shot after shot from a shared atomic counter; each
shot writes only its own row of the results. A shot's numbers do not depend on the thread it
ran on, so they are bit for bit the same for any number of threads.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from cuesim.sim.compiled import njit_core
from cuesim.sim.events import (
    COL_A,
    COL_B,
    COL_INDEX,
    COL_KIND,
    COL_T,
    EV_COLLIDE,
    EV_PIN,
    EV_POCKET,
    EV_RAIL,
    N_EVENT_COLUMNS,
)
from cuesim.sim.loop import STATUS_FULL, STATUS_RUNAWAY, run_events
from cuesim.sim.state import (
    DECEL,
    KSEG,
    N_SEG_COLUMNS,
    NS,
    ON,
    TEND,
    VX,
    VY,
    W0,
    WX,
    WY,
    X,
    Y,
)
from cuesim.sim.threads import default_threads, max_threads, run_on_threads, take_next

N_KINDS = 9  # EventKind values 0..8

# first_kind values
FIRST_NONE, FIRST_PIECE, FIRST_RAIL = 0, 1, 2


@njit_core(nogil=True)
def summarize(final_xy: np.ndarray, final_on: np.ndarray, ev: np.ndarray, n_ev: int,
              struck: int, runaway: bool, s: int, out_xy: np.ndarray, out_on: np.ndarray,
              pocketed: np.ndarray, first_kind: np.ndarray, first_index: np.ndarray,
              first_t: np.ndarray, counts: np.ndarray, n_events: np.ndarray,
              duration: np.ndarray, truncated: np.ndarray) -> None:
    """Write row s of the summary arrays from one shot's final state and event log. The first
    contact follows ShotResult.first_contact: the first collision involving the struck piece
    (a pin it knocks down included) or the first rail event of it."""
    n = final_xy.shape[0]
    for i in range(n):
        out_xy[s, i, 0] = final_xy[i, 0]
        out_xy[s, i, 1] = final_xy[i, 1]
        out_on[s, i] = final_on[i] != 0.0
        pocketed[s, i] = False
    for k in range(counts.shape[1]):
        counts[s, k] = 0
    first_kind[s] = FIRST_NONE
    first_index[s] = -1
    first_t[s] = np.nan
    t_max = 0.0
    for e in range(n_ev):
        kind = int(ev[e, COL_KIND])
        a = int(ev[e, COL_A])
        b = int(ev[e, COL_B])
        if 0 <= kind < counts.shape[1]:
            counts[s, kind] += 1
        if e == 0 or ev[e, COL_T] > t_max:
            t_max = ev[e, COL_T]
        if kind == EV_POCKET:
            pocketed[s, a] = True
        if first_kind[s] == FIRST_NONE:
            if (kind == EV_COLLIDE or kind == EV_PIN) and (a == struck or b == struck):
                first_kind[s] = FIRST_PIECE
                first_index[s] = b if a == struck else a
                first_t[s] = ev[e, COL_T]
            elif kind == EV_RAIL and a == struck:
                first_kind[s] = FIRST_RAIL
                first_index[s] = int(ev[e, COL_INDEX])
                first_t[s] = ev[e, COL_T]
    n_events[s] = n_ev
    duration[s] = t_max if n_ev > 0 else 0.0
    truncated[s] = runaway


@njit_core(nogil=True)
def run_block(counter: np.ndarray, base_pos: np.ndarray, struck: int, place: np.ndarray,
              motion: np.ndarray, todo: np.ndarray, phys: np.ndarray, P: np.ndarray,
              table: tuple[np.ndarray, ...], physics: tuple[np.ndarray, ...],
              v_stick: np.ndarray, max_events: int, out: tuple[np.ndarray, ...], cap_ev: int,
              cap_seg: int) -> None:
    """Simulate shot s = take_next(counter) while s < len(motion), if todo[s], one after the
    other in one set of work buffers (threads sharing `counter` share the shots out as they
    come free; alone, from counter [0], it runs every shot in order): the struck piece placed
    at place[s] and given motion[s] = (vx, vy, wx, wy, w) (w the spin about the vertical),
    every other piece at rest at base_pos, on physics number q = phys[s]. `table`: the
    table's geometry arrays (rails, holes, lines, circles, knuckles); `physics`: the arrays
    its physics sets, each stacked over the physics the shots are played on (e_pair, mu_pair,
    e_rail, mu_rail, model_params, stiffness, exponent), as P (the pieces' static properties)
    and v_stick are: shot s runs on P[q], e_pair[q], ..., v_stick[q]. `out`: the summary
    arrays, of which it writes row s (see summarize) and nothing else. Its work buffers start
    with cap_ev event and cap_seg segment rows (`block_capacity`); a shot that fills one runs
    again from its start with 4x both, and the thread keeps the larger buffers for its later
    shots."""
    rails, holes, lines, circles, knuckles = table
    e_pairs, mu_pairs, e_rails, mu_rails, model_params, stiffness, exponent = physics
    out_xy, out_on, pocketed, first_kind, first_index, first_t = out[:6]
    counts, n_events, duration, truncated = out[6:]
    n = base_pos.shape[0]
    ev = np.empty((cap_ev, N_EVENT_COLUMNS))
    seg = np.empty((cap_seg, N_SEG_COLUMNS))
    S = np.zeros((n, NS))
    m = motion.shape[0]
    while True:
        s = take_next(counter)
        if s >= m:
            break
        if not todo[s]:
            continue
        q = phys[s]
        Pq = P[q]
        while True:
            # exactly build_state(positions, velocities, spins, P, spins_xy)
            S[:, :] = 0.0
            for i in range(n):
                S[i, X] = base_pos[i, 0]
                S[i, Y] = base_pos[i, 1]
                S[i, TEND] = np.inf
                S[i, ON] = 1.0
                S[i, KSEG] = Pq[i, DECEL]
            S[struck, X] = place[s, 0]
            S[struck, Y] = place[s, 1]
            S[struck, VX] = motion[s, 0]
            S[struck, VY] = motion[s, 1]
            S[struck, WX] = motion[s, 2]
            S[struck, WY] = motion[s, 3]
            S[struck, W0] = motion[s, 4]
            n_ev, n_seg, status = run_events(
                S, Pq, rails, holes, lines, circles, e_pairs[q], mu_pairs[q], e_rails[q],
                mu_rails[q], v_stick[q], struck, max_events, ev, seg, knuckles,
                model_params[q], stiffness[q], exponent[q],
            )
            if status != STATUS_FULL:
                break
            cap_ev *= 4
            cap_seg *= 4
            ev = np.empty((cap_ev, N_EVENT_COLUMNS))
            seg = np.empty((cap_seg, N_SEG_COLUMNS))
        summarize(S[:, X:Y + 1], S[:, ON], ev, n_ev, struck, status == STATUS_RUNAWAY, s,
                  out_xy, out_on, pocketed, first_kind, first_index, first_t, counts, n_events,
                  duration, truncated)


def block_capacity(n: int) -> tuple[int, int]:
    """The event and segment rows of a thread's first buffers for n pieces: enough for most
    shots (a break of 16 balls logs about 200 events) without reserving per-shot memory."""
    return 256 + 8 * n, 256 + 16 * n


def fork_unsafe() -> bool:
    """Whether a child forked from this process now could not run numba's parallel code:
    numba's threading layer has started here and is GNU OpenMP, which is not fork safe (numba
    ends such a child when it runs a parallel loop). cuesim's batches never start it (they
    run on Python threads, `sim.threads`); other numba code in the process may."""
    try:
        layer = numba.threading_layer()
    except ValueError:  # not started
        return False
    if layer != "omp":
        return False
    try:
        from numba.np.ufunc import omppool
    except ImportError:
        return True
    return getattr(omppool, "openmp_vendor", "GNU") == "GNU"


def stacked(arrays: list[np.ndarray]) -> np.ndarray:
    """One array of equal-shaped arrays, the first axis numbering them (C order, as each)."""
    return np.ascontiguousarray(np.stack([np.asarray(a, dtype=np.float64) for a in arrays]))


def run_shots(base_pos: np.ndarray, struck: int, place: np.ndarray, motion: np.ndarray,
              todo: np.ndarray, P: list[np.ndarray], arrays: list[Any], out_xy: np.ndarray,
              out_on: np.ndarray, pocketed: np.ndarray, first_kind: np.ndarray,
              first_index: np.ndarray, first_t: np.ndarray, counts: np.ndarray,
              n_events: np.ndarray, duration: np.ndarray, truncated: np.ndarray,
              max_events: int, phys: np.ndarray | None = None,
              threads: int | None = None) -> None:
    """Simulate shot s for every s with todo[s] (see run_block) on `threads` threads (None:
    numba's number, `threads.default_threads()`; at most max_threads()): run_block on this
    thread alone, or on that many at once (`threads.run_on_threads`), sharing the shots out.
    The shots are played on one table's geometry and on physics number phys[s] (None: all on
    the first): `P[q]`, the pieces' static properties, and `arrays[q]`, the table's arrays
    (`sim.engine.Arrays`), for each physics q. Every shot is computed alone in the same
    compiled code, so the numbers are bit for bit the same for any number of threads, and
    those of `simulate` on the table of its physics."""
    first = arrays[0]
    P_stack = stacked(P)
    P_stack.setflags(write=False)  # read-only as each table's P (sim.engine): the same types
    physics = tuple(stacked([getattr(a, name) for a in arrays]) for name in (
        "e_pair", "mu_pair", "e_rail", "mu_rail", "model_params", "stiffness", "exponent"))
    v_stick = np.array([a.v_stick for a in arrays], dtype=np.float64)
    m = motion.shape[0]
    phys = np.zeros(m, np.int64) if phys is None else np.ascontiguousarray(phys, np.int64)
    args = (base_pos, struck, place, motion, todo, phys, P_stack,
            (first.rails, first.holes, first.lines, first.circles, first.knuckles),
            physics, v_stick, max_events,
            (out_xy, out_on, pocketed, first_kind, first_index, first_t, counts, n_events,
             duration, truncated), *block_capacity(base_pos.shape[0]))
    n = min(default_threads() if threads is None else int(threads), max_threads(), m)
    counter = np.zeros(1, np.int64)
    if n <= 1:
        run_block(counter, *args)
        return
    run_on_threads(n, run_block, counter, *args)
