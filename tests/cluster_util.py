"""A real Dask cluster for the tests: a scheduler and workers as separate processes on free
ports, each started by this test process and always stopped by it."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

START_TIMEOUT = 90.0  # s for the processes to come up on a loaded machine (not a test limit)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class SubprocessCluster:
    """`python -m distributed.cli.dask_scheduler` and `n` workers of one thread each, with
    no nanny (killing a worker's process is a worker death, not a restart)."""

    def __init__(self, folder: Path, n_workers: int = 2) -> None:
        self.folder = folder
        self.procs: list[subprocess.Popen[bytes]] = []
        self.workers: list[subprocess.Popen[bytes]] = []
        self.port = free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.n_workers = n_workers

    def _start(self, args: list[str], name: str) -> subprocess.Popen[bytes]:
        log = open(self.folder / f"{name}.log", "wb")  # noqa: SIM115 (closed with the process)
        proc = subprocess.Popen([sys.executable, "-m", *args], cwd=self.folder, stdout=log,
                                stderr=subprocess.STDOUT, env=dict(os.environ))
        log.close()
        self.procs.append(proc)
        return proc

    def start(self) -> None:
        self._start(["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port",
                     str(self.port), "--dashboard-address", f"127.0.0.1:{free_port()}"],
                    "scheduler")
        for k in range(self.n_workers):
            self.add_worker(f"w{k}")

    def add_worker(self, name: str) -> subprocess.Popen[bytes]:
        proc = self._start(["distributed.cli.dask_worker", self.address, "--nthreads", "1",
                            "--no-nanny", "--name", name, "--no-dashboard", "--memory-limit",
                            "0", "--local-directory", str(self.folder / "scratch"),
                            "--death-timeout", "60"], name)
        self.workers.append(proc)
        return proc

    def client(self):  # noqa: ANN201
        """A client of this cluster (not the default one) once every worker is there."""
        import distributed

        deadline = time.monotonic() + START_TIMEOUT
        while True:
            dead = [p for p in self.procs if p.poll() is not None]
            if dead:
                raise RuntimeError(f"a cluster process ended with {dead[0].returncode}: "
                                   f"{self.logs()}")
            try:
                client = distributed.Client(self.address, timeout=5, set_as_default=False)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        client.wait_for_workers(self.n_workers, timeout=max(1.0, deadline - time.monotonic()))
        return client

    def logs(self) -> str:
        return " | ".join(p.read_text(errors="replace")[-500:]
                          for p in sorted(self.folder.glob("*.log")))

    def stop(self) -> None:
        """The workers first, then the scheduler: a worker told to stop while the scheduler
        closes can hang in its close (distributed's batched stream) until it is killed."""
        workers = [p for p in self.procs if p in self.workers]
        for group in (workers, [p for p in self.procs if p not in workers]):
            for p in group:
                if p.poll() is None:
                    p.send_signal(signal.SIGTERM)
            for p in group:
                try:
                    p.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()


@contextlib.contextmanager
def subprocess_cluster(folder: Path, n_workers: int = 2):  # noqa: ANN201
    """A started SubprocessCluster and a client of it; the test is skipped when the
    processes cannot start here, and every process started is stopped at the end."""
    pytest.importorskip("distributed")
    cluster = SubprocessCluster(folder, n_workers)
    client = None
    try:
        try:
            cluster.start()
            client = cluster.client()
        except Exception as exc:  # no sockets, no subprocesses, a cluster that never came up
            pytest.skip(f"cannot start a Dask cluster of subprocesses here: {exc}")
        yield cluster, client
    finally:
        if client is not None:
            client.close()
        cluster.stop()
