"""Running one compiled kernel on several threads: Python threads calling a `nogil` kernel.

The batch kernels (`batch_kernel.run_block`, `batch_parallel.run_many_blocks`) take their work
(shots, blocks of shots) one item at a time from a shared counter (`take_next`, an atomic add),
so a thread that finishes early takes more and none waits for a slow one. `run_on_threads`
calls such a kernel on n threads at once: this thread and n - 1 started for the call and
joined before it returns. The kernel is compiled with `nogil=True`, so the threads run its
machine code in parallel.

This replaces numba's `parallel=True` loops (`prange`), which compiled a second and a third
copy of the whole event loop (the parallel function and its gufunc): 14 s of the batch path's
cold compile. It also never starts numba's threading layer, so a process that ran a batch can
still fork workers (GNU OpenMP's threads do not survive a fork) and Dask's worker threads may
run batches side by side (numba's workqueue layer is not thread safe).

The thread count follows numba's setting (`numba.set_num_threads`, NUMBA_NUM_THREADS), read
without starting its threading layer (`default_threads`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numba
from numba import types
from numba.extending import intrinsic


@intrinsic
def take_next(typingctx: Any, counter: Any) -> Any:
    """Atomically counter[0] += 1, returning the value before (counter: int64 array): the
    index of the next item of work for the thread that asks."""
    if not (isinstance(counter, types.Array) and counter.dtype == types.int64):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        arr = context.make_array(signature.args[0])(context, builder, args[0])
        one = context.get_constant(types.int64, 1)
        return builder.atomic_rmw("add", arr.data, one, "monotonic")

    return types.int64(counter), codegen


def max_threads() -> int:
    """The most threads a call can use in this process (NUMBA_NUM_THREADS, by default the
    number of cores)."""
    return int(numba.config.NUMBA_NUM_THREADS)


def default_threads() -> int:
    """numba's thread count for this thread: `numba.get_num_threads()` once numba's threading
    layer has started (`numba.set_num_threads` starts it), else NUMBA_NUM_THREADS. Asking
    numba before it has started would start it (and its OpenMP threads) for nothing."""
    try:
        from numba.np.ufunc import parallel
    except ImportError:  # pragma: no cover - numba without the module
        return max_threads()
    if getattr(parallel, "_is_initialized", True):
        return int(numba.get_num_threads())
    return max_threads()


def run_on_threads(n: int, kernel: Callable[..., Any], *args: Any) -> None:
    """kernel(*args) on n threads at once (this one included), returning when all are done;
    the first exception raised in any of them is raised here after all have finished."""
    errors: list[BaseException] = []

    def work() -> None:
        try:
            kernel(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller below
            errors.append(exc)

    helpers = [threading.Thread(target=work, name=f"cuesim-kernel-{k}", daemon=True)
               for k in range(1, n)]
    for helper in helpers:
        helper.start()
    work()
    for helper in helpers:
        helper.join()
    if errors:
        raise errors[0]
