"""A real Dask cluster (scheduler and workers as separate processes): the same numbers as the
local run through an address or a client that is not the default, from the CLI too, and a
worker killed in the middle of a run whose chunks run again on the other worker."""

from __future__ import annotations

import os
import signal
import threading
import time

import numpy as np
import pytest

from cuesim.batch import ShotSampler, read_results, simulate_many
from cuesim.cli import main
from tests.batch_util import assert_same
from tests.cluster_util import subprocess_cluster

SAMPLER = ShotSampler(40, {"angle": (1.3, 1.85), "speed": (2.0, 8.0)}, seed=5)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with subprocess_cluster(tmp_path_factory.mktemp("cluster")) as (cl, client):
        yield cl, client


@pytest.fixture(scope="module")
def local(table, singles):
    return simulate_many(table, singles, SAMPLER, workers=1, chunk_size=7)


def test_an_address_and_a_client_not_the_default(cluster, table, singles, local):
    import distributed

    cl, client = cluster
    with pytest.raises(ValueError):
        distributed.default_client()  # nothing here made itself the default
    assert_same(local, simulate_many(table, singles, SAMPLER, chunk_size=7, cluster=cl.address))
    assert_same(local, simulate_many(table, singles, SAMPLER, chunk_size=7, cluster=client))


def test_the_command_line_on_a_cluster(cluster, tmp_path, capsys):
    cl, _ = cluster
    args = ["batch", "9-ball", "--shots", "30", "--vary", "speed=3:9", "--chunk-size", "8",
            "--quiet"]
    assert main([*args, "--workers", "1", "--out", str(tmp_path / "local.parquet")]) == 0
    assert main([*args, "--cluster", cl.address, "--out", str(tmp_path / "dist.parquet")]) == 0
    a, b = read_results(tmp_path / "local.parquet"), read_results(tmp_path / "dist.parquet")
    assert_same(a, b)
    assert b.manifest["cluster"] == cl.address
    # progress names the cluster and its dashboard, and counts shots per second
    out = tmp_path / "p.npz"
    code = main(["batch", "novus", "--shots", "20", "--vary", "speed=3:9", "--cluster",
                 cl.address, "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 0
    assert f"on the Dask cluster at {cl.address} (2 workers); dashboard: http://" in err
    assert "shots/s" in err and "left" in err


def _story(client, keys):
    def story(dask_scheduler, keys=keys):
        return [[str(x) for x in entry] for entry in dask_scheduler.story(*keys)]

    return client.run_on_scheduler(story)


def test_a_worker_killed_mid_run_has_its_chunks_run_again(cluster, table, singles):
    cl, client = cluster
    victim = cl.add_worker("victim")
    try:
        client.wait_for_workers(3, timeout=90)
        addresses = {w["name"]: a for a, w in client.scheduler_info(n_workers=-1)["workers"]
                     .items()}
        sampler = ShotSampler(3000, {"angle": (1.3, 1.85), "speed": (2.0, 8.0)}, seed=6)
        result: dict[str, object] = {}

        def run() -> None:
            try:
                result["res"] = simulate_many(table, singles, sampler, chunk_size=100,
                                              cluster=cl.address)
            except BaseException as exc:  # noqa: BLE001 (reported below)
                result["error"] = exc

        thread = threading.Thread(target=run)
        thread.start()
        killed: list[str] = []
        while thread.is_alive() and not killed:
            on_victim = [k for k in client.processing().get(addresses["victim"], ())
                         if str(k).startswith("cuesim-batch-")]
            if on_victim:
                os.kill(victim.pid, signal.SIGKILL)
                killed = [str(k) for k in on_victim]
            else:
                time.sleep(0.01)
        thread.join()
        assert "error" not in result, result.get("error")
        if not killed:
            pytest.skip("the run ended before the victim worker was given a task")
        victim.wait()
        # the tasks the dead worker held were given to a worker again and finished there
        story = _story(client, killed)
        for key in killed:
            steps = [e[2] for e in story if e[0] == key]
            assert steps.count("processing") >= 2 and "memory" in steps, (key, steps)
        local = simulate_many(table, singles, sampler, workers=1, chunk_size=100)
        assert_same(local, result["res"])
        assert np.array_equal(result["res"]["shot"], np.arange(3000))
    finally:
        if victim.poll() is None:
            victim.kill()
            victim.wait()


def test_workers_write_a_dataset_and_a_killed_client_resumes(cluster, tmp_path):
    import subprocess
    import sys

    cl, _ = cluster
    args = ["batch", "novus", "--shots", "3000", "--vary", "speed=3:9", "--vary",
            "angle=80:100", "--chunk-size", "50", "--quiet", "--dataset", "--events"]
    out = tmp_path / "ds"
    proc = subprocess.Popen([sys.executable, "-m", "cuesim", *args, "--cluster", cl.address,
                             "--out", str(out)], stderr=subprocess.PIPE)
    try:
        while proc.poll() is None and not list(out.glob("part-*.parquet")):
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    assert main([*args, "--cluster", cl.address, "--out", str(out)]) == 0
    local = tmp_path / "local.parquet"
    assert main([*args[:-2], "--events", "--workers", "1", "--out", str(local)]) == 0
    a, b = read_results(local), read_results(out)
    assert_same(a, b)
    assert b.manifest["complete"] and b.manifest["done"] == [[0, 60]]
