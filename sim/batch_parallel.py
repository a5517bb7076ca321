"""Many shots, each from its own starting state, in one compiled call parallel over cores.

`run_inputs` takes MotionInputs (`cuesim.sim.engine.motion_input`, `cuesim.api.simulate_input`)
of one table, stacks their initial states S and static properties P row after row, and runs
`run_many` on several threads at once (`sim.threads`), each shot calling the same
`run_events` as `simulate` on its own rows; the shots are handed out one at a time, each
thread runs its shots in its own event and segment buffers and packs each finished shot's rows
into one output. Every other work array `run_events` uses it allocates itself, and the core
keeps no module-level state, so the shots share nothing but the read-only table arrays. A shot
whose buffer filled up (STATUS_FULL: rare, the buffers are as large as `simulate`'s first
ones) is run again alone with larger buffers; the loop's result does not depend on the buffer
size, so every ShotResult is bit for bit the one `simulate` gives.

The number of threads is numba's setting: `NUMBA_NUM_THREADS` or `numba.set_num_threads`
(`threads.default_threads`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cuesim.sim.compiled import njit_core
from cuesim.sim.engine import MotionInput, first_capacity, run_input, shot_result
from cuesim.sim.errors import SimulationError
from cuesim.sim.events import N_EVENT_COLUMNS
from cuesim.sim.loop import STATUS_FULL, STATUS_RUNAWAY, run_events
from cuesim.sim.result import ShotResult
from cuesim.sim.state import N_SEG_COLUMNS, ON, X, Y
from cuesim.sim.threads import (
    KeptThreads,
    default_threads,
    run_on_threads,
    take,
    take_next,
)

# shots per compiled call: bounds the buffers (about 50 kB of reserved rows per piece and
# shot, untouched until written) whatever the number of shots
CHUNK = 1024


@njit_core(nogil=True)
def run_many(counter: np.ndarray, S: np.ndarray, P: np.ndarray, rows: np.ndarray,
             struck: np.ndarray, max_events: np.ndarray, rails: np.ndarray, holes: np.ndarray,
             lines: np.ndarray, circles: np.ndarray, e_pair: np.ndarray, mu_pair: np.ndarray,
             e_rail: np.ndarray, mu_rail: np.ndarray, v_stick: float, knuckles: np.ndarray,
             model_params: np.ndarray, stiffness: np.ndarray, exponent: np.ndarray,
             cap_ev: np.ndarray, cap_seg: np.ndarray, ev: np.ndarray, ev_at: np.ndarray,
             seg: np.ndarray, seg_at: np.ndarray, n_ev: np.ndarray, n_seg: np.ndarray,
             status: np.ndarray) -> None:
    """Shot s runs on S[rows[s]:rows[s+1]] (updated in place to its final state) and
    P[rows[s]:rows[s+1]]; n_ev[s], n_seg[s], status[s] are what run_events returned, and its
    events and segments are copied to ev[ev_at[s]:ev_at[s]+n_ev[s]] and seg[seg_at[s]:...].
    The shots are taken one at a time from counter[0] (`take_next`) by every thread running
    this at once (`threads.run_on_threads`), so a thread that finishes early takes more and
    none waits for a slow one. Each thread runs its shots in one pair of work buffers (the
    call's largest capacities), kept hot in cache, and copies a finished shot's rows to the
    next free rows of ev and seg, claimed from counter[1] and counter[2] (`take`): the rows
    are packed in the order the shots finish, and ev_at, seg_at say where each went (the
    caller makes ev and seg as long as all the shots' capacities)."""
    m = struck.shape[0]
    ce, cs = 0, 0
    for s in range(m):
        ce = max(ce, cap_ev[s])
        cs = max(cs, cap_seg[s])
    work_ev = np.empty((ce, ev.shape[1]))
    work_seg = np.empty((cs, seg.shape[1]))
    while True:
        s = take_next(counter)
        if s >= m:
            break
        a, b = rows[s], rows[s + 1]
        ne, ng, st = run_events(
            S[a:b], P[a:b], rails, holes, lines, circles, e_pair, mu_pair, e_rail, mu_rail,
            v_stick, struck[s], max_events[s], work_ev, work_seg, knuckles, model_params,
            stiffness, exponent,
        )
        if ne > cap_ev[s] or ng > cap_seg[s]:  # beyond the rows reserved for it
            st = STATUS_FULL
        n_ev[s], n_seg[s], status[s] = ne, ng, st
        if st == STATUS_FULL:  # run again alone by the caller
            continue
        e_at, g_at = take(counter[1:2], ne), take(counter[2:3], ng)
        ev_at[s], seg_at[s] = e_at, g_at
        for r in range(ne):  # copies by element: slice assignment compiles numba's
            for c in range(ev.shape[1]):  # shape check and its error, ~2 s of a cold start
                ev[e_at + r, c] = work_ev[r, c]
        for r in range(ng):
            for c in range(seg.shape[1]):
                seg[g_at + r, c] = work_seg[r, c]


def run_inputs(inputs: Sequence[MotionInput]) -> list[ShotResult]:
    """The ShotResult of every input, in order, computed in compiled calls of up to CHUNK
    shots run on several threads at once (numba's thread count). All inputs must be on one
    table (the same table arrays); each is exactly what `run_motion` of it gives, with its
    RuntimeWarning when the event limit truncates it."""
    # SimulationError naming `inputs` for anything but an iterable of MotionInputs ([1] and
    # 'abc' were an AttributeError on `inputs[0].arr`, None a TypeError)
    if isinstance(inputs, MotionInput | str | bytes | dict):  # one input, or no list of them
        raise SimulationError(f"run_inputs: inputs must be a sequence of MotionInputs, got a "
                              f"{type(inputs).__name__}")
    try:
        inputs = list(inputs)
    except TypeError:  # None, a number: nothing to iterate
        raise SimulationError(f"run_inputs: inputs must be a sequence of MotionInputs, got "
                              f"{inputs!r:.60}") from None
    for k, inp in enumerate(inputs):
        if not isinstance(inp, MotionInput):
            raise SimulationError(f"run_inputs: inputs[{k}] must be a MotionInput "
                                  f"(cuesim.sim.engine.motion_input), got "
                                  f"{type(inp).__name__}")
    if not inputs:
        return []
    arr = inputs[0].arr
    for inp in inputs:
        if inp.arr is not arr:
            raise SimulationError("run_inputs needs the shots of one table; got "
                                  f"{inputs[0].table.name!r} and {inp.table.name!r}")
    out: list[ShotResult] = []
    with KeptThreads():  # one set of helper threads for every chunk
        for k in range(0, len(inputs), CHUNK):
            out.extend(_run_chunk(inputs[k:k + CHUNK]))
    return out


def _run_chunk(inputs: list[MotionInput]) -> list[ShotResult]:
    arr = inputs[0].arr
    m = len(inputs)
    sizes = [inp.S.shape[0] for inp in inputs]
    n = np.array(sizes, dtype=np.int64)
    caps = np.array([first_capacity(k) for k in sizes], dtype=np.int64).reshape(m, 2)
    cap_ev, cap_seg = caps[:, 0].copy(), caps[:, 1].copy()
    rows = np.zeros(m + 1, np.int64)
    np.cumsum(n, out=rows[1:])
    n_threads = default_threads()
    ev_at = np.zeros(m, np.int64)  # where run_many packs each shot's rows
    seg_at = np.zeros(m, np.int64)
    # room for every shot's capacity; np.empty reserves it, only the packed rows are touched
    ev = np.empty((int(cap_ev.sum()), N_EVENT_COLUMNS))
    seg = np.empty((int(cap_seg.sum()), N_SEG_COLUMNS))
    S = np.concatenate([inp.S for inp in inputs])
    P = np.concatenate([inp.P for inp in inputs])
    P.setflags(write=False)  # as `simulate`'s: the same compiled run_events serves both
    struck = np.fromiter((inp.struck for inp in inputs), np.int64, m)
    max_events = np.fromiter((inp.max_events for inp in inputs), np.int64, m)
    n_ev = np.zeros(m, np.int64)
    n_seg = np.zeros(m, np.int64)
    status = np.zeros(m, np.int64)
    counter = np.zeros(3, np.int64)  # the next shot, event row and segment row
    run_on_threads(min(n_threads, m), run_many, counter, S, P, rows,
                   struck, max_events, arr.rails, arr.holes, arr.lines, arr.circles,
                   arr.e_pair, arr.mu_pair, arr.e_rail, arr.mu_rail, arr.v_stick, arr.knuckles,
                   arr.model_params, arr.stiffness, arr.exponent, cap_ev, cap_seg, ev,
                   ev_at, seg, seg_at, n_ev, n_seg, status)
    # the packed rows kept, the untouched rest of the reservation handed back (a shrinking
    # realloc: no copy, no new pages), each result a view of its own rows: a copy per array
    # of each shot was half of the chunk's Python, one copy of all the rows a third of the rest
    ev.resize((int(counter[1]), N_EVENT_COLUMNS), refcheck=False)  # nothing else refers to
    seg.resize((int(counter[2]), N_SEG_COLUMNS), refcheck=False)  # them: run_many returned
    xy, on = S[:, X:Y + 1].copy(), S[:, ON] != 0.0
    out = []
    bounds, ev_from, seg_from = rows.tolist(), ev_at.tolist(), seg_at.tolist()  # Python ints:
    ev_n, seg_n, done = n_ev.tolist(), n_seg.tolist(), status.tolist()  # cheaper to index
    for s, inp in enumerate(inputs):
        if done[s] == STATUS_FULL:  # the buffers filled: alone, with `run_motion`'s next size
            out.append(run_input(inp, int(cap_ev[s]) * 4, int(cap_seg[s]) * 4))
            continue
        a, b, e0, s0 = bounds[s], bounds[s + 1], ev_from[s], seg_from[s]
        out.append(shot_result(inp, xy[a:b], on[a:b], ev[e0:e0 + ev_n[s]],
                               seg[s0:s0 + seg_n[s]], done[s] == STATUS_RUNAWAY, stacklevel=3))
    return out
