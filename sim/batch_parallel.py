"""Many shots, each from its own starting state, in one compiled call parallel over cores.

`run_inputs` takes MotionInputs (`cuesim.sim.engine.motion_input`, `cuesim.api.simulate_input`)
of one table, stacks their initial states S and static properties P row after row, and runs
`run_many` on several threads at once (`sim.threads`), each shot calling the same
`run_events` as `simulate` on its own rows; the shots go in blocks, each block in its own
event and segment buffers, copied out shot after shot into one compact array. Every other work array
`run_events` uses it allocates itself, and the core keeps no module-level state, so the shots
share nothing but the read-only table arrays. A shot whose buffer filled up (STATUS_FULL:
rare, the buffers are as large as `simulate`'s first ones) is run again alone with larger
buffers; the loop's result does not depend on the buffer size, so every ShotResult is bit for
bit the one `simulate` gives.

The number of threads is numba's setting: `NUMBA_NUM_THREADS` or `numba.set_num_threads`
(`threads.default_threads`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cuesim.sim.compiled import njit_core
from cuesim.sim.engine import MotionInput, first_capacity, motion_result, run_input
from cuesim.sim.errors import SimulationError
from cuesim.sim.events import N_EVENT_COLUMNS
from cuesim.sim.loop import STATUS_FULL, STATUS_RUNAWAY, run_events
from cuesim.sim.result import ShotResult
from cuesim.sim.state import N_SEG_COLUMNS
from cuesim.sim.threads import KeptThreads, default_threads, run_on_threads, take_next

# shots per compiled call: bounds the buffers (about 50 kB of reserved rows per piece and
# shot, untouched until written) whatever the number of shots
CHUNK = 1024
# blocks of shots per numba thread in a call: each block runs its shots in one pair of work
# buffers, hot in cache (a shot per block would touch fresh memory for each); several per
# thread even out blocks of long shots
BLOCKS_PER_THREAD = 4


@njit_core(nogil=True)
def run_many(counter: np.ndarray, S: np.ndarray, P: np.ndarray, rows: np.ndarray,
             struck: np.ndarray, max_events: np.ndarray, rails: np.ndarray, holes: np.ndarray,
             lines: np.ndarray, circles: np.ndarray, e_pair: np.ndarray, mu_pair: np.ndarray,
             e_rail: np.ndarray, mu_rail: np.ndarray, v_stick: float, knuckles: np.ndarray,
             ball_params: np.ndarray, stiffness: np.ndarray, exponent: np.ndarray,
             blocks: np.ndarray, cap_ev: np.ndarray, cap_seg: np.ndarray, ev: np.ndarray,
             ev_at: np.ndarray, seg: np.ndarray, seg_at: np.ndarray, n_ev: np.ndarray,
             n_seg: np.ndarray, status: np.ndarray) -> None:
    """Shot s runs on S[rows[s]:rows[s+1]] (updated in place to its final state) and
    P[rows[s]:rows[s+1]]; n_ev[s], n_seg[s], status[s] are what run_events returned, and its
    events and segments are copied to ev[ev_at[s]:ev_at[s]+n_ev[s]] and seg[seg_at[s]:...].
    The blocks of shots blocks[k]:blocks[k+1] are taken one at a time from `counter`
    (`take_next`) by every thread running this at once (`threads.run_on_threads`); a block
    runs its shots one after the other in its own work buffers (cap_ev[s], cap_seg[s] rows at
    least, as `simulate`'s first ones), kept hot in cache, and copies each shot's rows out
    after the previous shot's: block k writes from row ev_at[blocks[k]] of ev (and of seg),
    where the caller reserved the sum of its shots' capacities."""
    n_blocks = blocks.shape[0] - 1
    while True:
        k = take_next(counter)
        if k >= n_blocks:
            break
        s0, s1 = blocks[k], blocks[k + 1]
        ce, cs = 0, 0
        for s in range(s0, s1):
            ce = max(ce, cap_ev[s])
            cs = max(cs, cap_seg[s])
        work_ev = np.empty((ce, ev.shape[1]))
        work_seg = np.empty((cs, seg.shape[1]))
        e_at, g_at = ev_at[s0], seg_at[s0]
        for s in range(s0, s1):
            a, b = rows[s], rows[s + 1]
            ne, ng, st = run_events(
                S[a:b], P[a:b], rails, holes, lines, circles, e_pair, mu_pair, e_rail,
                mu_rail, v_stick, struck[s], max_events[s], work_ev, work_seg, knuckles,
                ball_params, stiffness, exponent,
            )
            if ne > cap_ev[s] or ng > cap_seg[s]:  # beyond its share of the block's rows
                st = STATUS_FULL
            n_ev[s], n_seg[s], status[s] = ne, ng, st
            ev_at[s], seg_at[s] = e_at, g_at
            if st == STATUS_FULL:  # run again alone by the caller
                continue
            for r in range(ne):  # copies by element: slice assignment compiles numba's
                for c in range(ev.shape[1]):  # shape check and its error, ~2 s of a cold start
                    ev[e_at + r, c] = work_ev[r, c]
            for r in range(ng):
                for c in range(seg.shape[1]):
                    seg[g_at + r, c] = work_seg[r, c]
            e_at += ne
            g_at += ng


def run_inputs(inputs: Sequence[MotionInput]) -> list[ShotResult]:
    """The ShotResult of every input, in order, computed in compiled calls of up to CHUNK
    shots run on several threads at once (numba's thread count). All inputs must be on one
    table (the same table arrays); each is exactly what `run_motion` of it gives, with its
    RuntimeWarning when the event limit truncates it."""
    inputs = list(inputs)
    if not inputs:
        return []
    arr = inputs[0].arr
    for inp in inputs:
        if not isinstance(inp, MotionInput):
            raise SimulationError(f"run_inputs needs MotionInputs, got {type(inp).__name__}")
        if inp.arr is not arr:
            raise SimulationError("run_inputs needs the shots of one table; got "
                                  f"{inputs[0].table.name!r} and {inp.table.name!r}")
    out: list[ShotResult] = []
    with KeptThreads() as kept:  # one set of helper threads for every chunk
        for k in range(0, len(inputs), CHUNK):
            out.extend(kept.call(_run_chunk, inputs[k:k + CHUNK]))
    return out


def _run_chunk(inputs: list[MotionInput]) -> list[ShotResult]:
    arr = inputs[0].arr
    m = len(inputs)
    n = np.array([inp.S.shape[0] for inp in inputs], dtype=np.int64)
    caps = np.array([first_capacity(int(k)) for k in n], dtype=np.int64).reshape(m, 2)
    cap_ev, cap_seg = caps[:, 0].copy(), caps[:, 1].copy()
    rows = np.zeros(m + 1, np.int64)
    np.cumsum(n, out=rows[1:])
    # blocks of consecutive shots, a few per thread so that long shots even out
    n_threads = default_threads()
    n_blocks = min(m, BLOCKS_PER_THREAD * n_threads)
    blocks = np.linspace(0, m, n_blocks + 1).round().astype(np.int64)
    ev_at = np.zeros(m + 1, np.int64)  # each block's first row: its shots' capacities before
    seg_at = np.zeros(m + 1, np.int64)
    np.cumsum(cap_ev, out=ev_at[1:])
    np.cumsum(cap_seg, out=seg_at[1:])
    ev = np.empty((int(ev_at[-1]), N_EVENT_COLUMNS))
    seg = np.empty((int(seg_at[-1]), N_SEG_COLUMNS))
    S = np.concatenate([inp.S for inp in inputs])
    P = np.concatenate([inp.P for inp in inputs])
    P.setflags(write=False)  # as `simulate`'s: the same compiled run_events serves both
    struck = np.array([inp.struck for inp in inputs], dtype=np.int64)
    max_events = np.array([inp.max_events for inp in inputs], dtype=np.int64)
    n_ev = np.zeros(m, np.int64)
    n_seg = np.zeros(m, np.int64)
    status = np.zeros(m, np.int64)
    run_on_threads(min(n_threads, n_blocks), run_many, np.zeros(1, np.int64), S, P, rows,
                   struck, max_events, arr.rails, arr.holes, arr.lines, arr.circles,
                   arr.e_pair, arr.mu_pair, arr.e_rail, arr.mu_rail, arr.v_stick, arr.knuckles,
                   arr.ball_params, arr.stiffness, arr.exponent, blocks, cap_ev, cap_seg, ev,
                   ev_at, seg, seg_at, n_ev, n_seg, status)
    out = []
    for s, inp in enumerate(inputs):
        if status[s] == STATUS_FULL:  # the buffers filled: alone, with `run_motion`'s next size
            out.append(run_input(inp, int(cap_ev[s]) * 4, int(cap_seg[s]) * 4))
            continue
        e0, s0 = int(ev_at[s]), int(seg_at[s])
        out.append(motion_result(inp, S[rows[s]:rows[s + 1]], ev[e0:e0 + n_ev[s]],
                                 seg[s0:s0 + n_seg[s]], bool(status[s] == STATUS_RUNAWAY),
                                 stacklevel=3))
    return out
