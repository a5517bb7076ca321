"""Running one compiled kernel on several threads: Python threads calling a `nogil` kernel.

The batch kernels (`batch_kernel.run_block`, `batch_parallel.run_many`) take their work (the
shots) one item at a time from a shared counter (`take_next`, an atomic add),
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

A run of many calls (a batch's chunks, one after the other) keeps its helper threads from call
to call (`KeptThreads`) and ends them when it ends: starting a Python thread for each call cost
about half a millisecond of a chunk of 200 breaks (alternating runs: 2 threads 1.37-1.40 s ->
1.34 s on 16,000 9-ball breaks, chunks of 200), while its main thread prepared the next chunk.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Any, TypeVar

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


@intrinsic
def take(typingctx: Any, counter: Any, amount: Any) -> Any:
    """Atomically counter[0] += amount, returning the value before (counter: int64 array,
    amount: int64): the first of `amount` rows of a shared output for the thread that asks."""
    if not (isinstance(counter, types.Array) and counter.dtype == types.int64
            and isinstance(amount, types.Integer)):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        arr = context.make_array(signature.args[0])(context, builder, args[0])
        step = context.cast(builder, args[1], signature.args[1], types.int64)
        return builder.atomic_rmw("add", arr.data, step, "monotonic")

    return types.int64(counter, amount), codegen


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


T = TypeVar("T")
_LOCAL = threading.local()  # .kept: the KeptThreads this thread runs in (`with`, `call`)


class KeptThreads:
    """Helper threads kept from one `run_on_threads` call to the next, for the calls made in
    its `with` block (by the thread that entered it) and inside `call` (in whichever thread
    runs it): started when a call first needs them, ended by `close` (or the end of the
    `with` block), so no thread outlives the run that used them (a process with a thread left
    running would no longer fork its batch workers)."""

    def __init__(self) -> None:
        self._jobs: list[queue.SimpleQueue[Callable[[], None] | None]] = []
        self._threads: list[threading.Thread] = []
        self._entered: list[KeptThreads | None] = []  # what the entering thread had before
        self._lock = threading.Lock()  # two threads may call at once: they share the helpers

    def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """fn(*args, **kwargs), its `run_on_threads` calls on these helper threads."""
        before = getattr(_LOCAL, "kept", None)
        _LOCAL.kept = self
        try:
            return fn(*args, **kwargs)
        finally:
            _LOCAL.kept = before

    def run(self, n: int, work: Callable[[], None]) -> None:
        """work() on n threads at once: this one and n - 1 kept helpers; returns when all
        are done (work records its own errors)."""
        done = threading.Semaphore(0)

        def job() -> None:
            try:
                work()
            finally:
                done.release()

        with self._lock:
            while len(self._threads) < n - 1:
                jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
                thread = threading.Thread(target=_serve, args=(jobs,), daemon=True,
                                          name=f"cuesim-kept-{len(self._threads) + 1}")
                thread.start()
                self._jobs.append(jobs)
                self._threads.append(thread)
            for jobs in self._jobs[:n - 1]:  # a helper given two jobs runs them in turn
                jobs.put(job)
        work()
        for _ in range(n - 1):
            done.acquire()

    def close(self) -> None:
        """End the helper threads (after the work they were given) and wait for them."""
        for jobs in self._jobs:
            jobs.put(None)
        for thread in self._threads:
            thread.join()
        self._jobs.clear()
        self._threads.clear()

    def __enter__(self) -> KeptThreads:
        self._entered.append(getattr(_LOCAL, "kept", None))
        _LOCAL.kept = self
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        _LOCAL.kept = self._entered.pop()
        self.close()


def _serve(jobs: queue.SimpleQueue[Callable[[], None] | None]) -> None:
    """A kept helper thread: run each job handed to it until it is handed None."""
    while (job := jobs.get()) is not None:
        job()


def run_on_threads(n: int, kernel: Callable[..., Any], *args: Any) -> None:
    """kernel(*args) on n threads at once (this one included), returning when all are done;
    the first exception raised in any of them is raised here after all have finished. In a
    `KeptThreads` (its `with` block or its `call`) the other n - 1 are its kept helpers, else
    threads started for the call and joined before it returns."""
    errors: list[BaseException] = []

    def work() -> None:
        try:
            kernel(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller below
            errors.append(exc)

    kept = getattr(_LOCAL, "kept", None)
    if kept is not None:
        kept.run(n, work)
        if errors:
            raise errors[0]
        return
    helpers = [threading.Thread(target=work, name=f"cuesim-kernel-{k}", daemon=True)
               for k in range(1, n)]
    for helper in helpers:
        helper.start()
    work()
    for helper in helpers:
        helper.join()
    if errors:
        raise errors[0]
