"""Running a batch on a Dask cluster: reaching the scheduler, and keeping its workers busy.

A task runs several consecutive chunks (job.run_group). The first tasks hold one chunk each;
from the compute time the workers report, later tasks take as many chunks as fill about
TASK_SECONDS (each worker's first task, which loads the compiled core, is not counted), fewer
near the end so the last tasks spread over every worker. At most IN_FLIGHT_PER_THREAD tasks
per worker thread are submitted at a time, so the client never holds more than a few
chunks' results, however long the run. A task whose worker dies is run again on another
worker by the scheduler (up to its `distributed.scheduler.allowed-failures` deaths, 3 by
default); after that the run stops with a BatchError naming the chunks. Chunks are computed
from their index alone, so a chunk run twice gives the same numbers.

The client here is never made the default (a run inside a program that has its own Dask
client leaves it alone); everything runs on the client's own event loop.
"""

from __future__ import annotations

import ipaddress
import os
import re
import statistics
import time
from collections import deque
from collections.abc import Collection, Iterator
from itertools import islice
from typing import Any

from cuesim.batch.job import Job, Payload, run_group
from cuesim.batch.params import BatchError
from cuesim.batch.progress import Progress

CLUSTER_TIMEOUT = 10.0  # s to reach a Dask scheduler, and for a first worker to be there
TASK_SECONDS = 2.0  # compute time aimed at per task
MAX_GROUP = 256  # chunks per task at most
IN_FLIGHT_PER_THREAD = 2  # tasks submitted per worker thread at a time
REFRESH = 2.0  # s between looks at the number of workers
PAYLOAD = 4 * 2**20  # bytes of shot parameters a task carries at most (tables of shots)

_HOST = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*\.?")
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")


def check_address(address: str) -> None:
    """Refuse, at once, a Dask scheduler address that cannot be one: [scheme://]host:port with
    a known scheme, a host name or IP address and a port in 1..65535 (distributed would try
    to resolve anything for its whole timeout). `inproc://` addresses pass as they are."""
    text = address.strip()
    if text.startswith("inproc://"):
        return
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    hint = "expected [scheme://]host:port, such as tcp://10.0.0.5:8786"
    if scheme not in SCHEMES:
        raise BatchError(f"cluster address {address!r}: unknown scheme {scheme!r}; {hint}")
    host, colon, port = rest.rpartition(":")
    if not colon or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise BatchError(f"cluster address {address!r} has no valid port; {hint}")
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        ipaddress.ip_address(bare)
    except ValueError:
        if not _HOST.fullmatch(host):
            raise BatchError(f"cluster address {address!r}: {host!r} is not a host name or IP "
                             f"address; {hint}") from None


def one_line(exc: BaseException) -> str:
    """An exception's message on one line (distributed's own messages span several)."""
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


def connect(cluster: Any, timeout: float | None = None) -> tuple[Any, bool]:
    """A dask.distributed Client for `cluster` (an address or a Client); True when it was
    opened here (and must be closed). A client opened here is not made the default."""
    try:
        import distributed
    except ImportError:
        raise BatchError("running on a cluster needs dask.distributed: "
                         "pip install 'cuesim[cluster]'") from None
    if isinstance(cluster, distributed.Client):
        if cluster.status not in ("running", "connecting"):
            raise BatchError(f"the Dask client is {cluster.status}, not running")
        return cluster, False
    if not isinstance(cluster, str) or not cluster.strip():
        raise BatchError(f"cluster must be a scheduler address such as tcp://host:8786 or a "
                         f"distributed.Client, got {cluster!r}")
    check_address(cluster)
    timeout = CLUSTER_TIMEOUT if timeout is None else timeout
    try:
        client = distributed.Client(cluster, timeout=timeout, set_as_default=False)
    except Exception as exc:  # OSError, TimeoutError, ValueError for a malformed address
        raise BatchError(f"cannot reach the Dask cluster at {cluster!r} "
                         f"(within {timeout:g} s): {one_line(exc)}") from None
    return client, True


def dashboard(client: Any) -> str | None:
    """The address of the scheduler's dashboard, or None when it runs none (the port the
    scheduler reports: a busy default port makes it serve on another one)."""
    try:
        info = client.scheduler_info()
        port = info.get("services", {}).get("dashboard")
        if not port:
            return None
        from distributed.utils import format_dashboard_link

        protocol, _, rest = str(info.get("address") or client.scheduler.address).partition("://")
        host = "localhost" if protocol == "inproc" else rest.rsplit(":", 1)[0]
        return str(format_dashboard_link(host.strip("[]"), port))
    except Exception:  # no scheduler information: no link rather than no run
        return None


def _threads(client: Any) -> int:
    return int(sum(client.nthreads().values()))


class TaskSizer:
    """Chunks per task from the measured compute cost per shot."""

    def __init__(self, chunk_size: int, target: float = TASK_SECONDS) -> None:
        self.chunk_size, self.target = chunk_size, target
        self.costs: deque[float] = deque(maxlen=32)
        self.seen: set[Any] = set()

    def add(self, report: dict[str, Any]) -> None:
        worker = report.get("worker")
        if worker not in self.seen:  # its first task also loaded the compiled core
            self.seen.add(worker)
            return
        if report["shots"] > 0:
            self.costs.append(report["seconds"] / report["shots"])

    @property
    def cost(self) -> float | None:
        """Median seconds per shot of the recent tasks (None before any was measured)."""
        return statistics.median(self.costs) if self.costs else None

    def group(self, remaining: int, threads: int, cap: int = MAX_GROUP) -> int:
        cost = self.cost
        if cost is None or cost <= 0:
            return 1
        size = round(self.target / (cost * self.chunk_size))
        spread = remaining // (IN_FLIGHT_PER_THREAD * max(1, threads))
        return max(1, min(size, cap, spread))


def run_dask(job: Job, chunks: Collection[int], client: Any, sink: Any = None,
             bar: Progress | None = None) -> Iterator[tuple[int, Payload]]:
    """Run `chunks` of `job` (a range or a Todo: read as they are submitted, never listed)
    on the cluster of `client`; yields (chunk, arrays), or (chunk, rows) with a `sink` (the
    workers then write the chunks themselves)."""
    import distributed

    if _threads(client) == 0:
        try:
            client.wait_for_workers(1, timeout=CLUSTER_TIMEOUT)
        except Exception:
            raise BatchError(f"the Dask cluster at {client.scheduler.address} has no workers "
                             f"(none joined within {CLUSTER_TIMEOUT:g} s)") from None
    todo, left = iter(chunks), len(chunks)
    sizer = TaskSizer(job.chunk_size)
    pending: dict[str, tuple[Any, list[int]]] = {}
    token = os.urandom(4).hex()
    ac = distributed.as_completed(loop=client.loop)
    threads, looked = max(1, _threads(client)), time.monotonic()
    cap = MAX_GROUP  # a table of shots travels with its tasks: keep them a few MiB
    if job.table is not None:
        cap = min(cap, max(1, PAYLOAD // (8 * len(job.table) * job.chunk_size)))

    def submit() -> None:
        nonlocal left
        group = list(islice(todo, min(sizer.group(left, threads, cap), left)))
        left -= len(group)
        parts = [job.task(c)[1:] for c in group]
        fut = client.submit(run_group, job.setup, parts, sink, job.threads, pure=False,
                            key=f"cuesim-batch-{token}-{group[0]}")
        pending[fut.key] = (fut, group)
        ac.add(fut)

    def fill() -> None:
        while left and len(pending) < IN_FLIGHT_PER_THREAD * threads:
            submit()

    try:
        fill()
        for fut in ac:
            _, group = pending.pop(fut.key)
            try:
                report = fut.result()
            except BatchError:
                raise
            except distributed.KilledWorker as exc:
                raise BatchError(f"chunks {group[0]}-{group[-1]}: their worker died each time "
                                 f"they ran ({one_line(exc)}); a run to a file or dataset "
                                 "resumes from the chunks done") from None
            except Exception as exc:
                raise BatchError(f"chunks {group[0]}-{group[-1]} failed on the cluster: "
                                 f"{type(exc).__name__}: {one_line(exc)}") from None
            fut.release()
            sizer.add(report)
            if time.monotonic() - looked > REFRESH:
                threads, looked = max(1, _threads(client)), time.monotonic()
            fill()
            if bar is not None:
                cost = sizer.cost
                bar.note = (f"{threads} worker thread{'s' if threads > 1 else ''}, "
                            f"{len(pending)} tasks in flight"
                            + (f", {1e3 * cost:.2f} ms/shot" if cost else ""))
            yield from report["chunks"]
    finally:
        if pending:
            try:
                client.cancel([f for f, _ in pending.values()])
            except Exception:  # the client is closing or gone; its tasks go with it
                pass
