"""The same chunks on a local Dask cluster give the same results as the local run."""

from __future__ import annotations

import pytest

from cuesim.batch import BatchError, ShotSampler, read_results, simulate_many, simulate_to_file
from tests.batch_util import assert_same

distributed = pytest.importorskip("distributed")

SAMPLER = ShotSampler(24, {"angle": (1.3, 1.85), "speed": (2.0, 8.0)}, seed=9)


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def test_dask_cluster_equals_the_local_run(client, table, singles, tmp_path):
    local = simulate_many(table, singles, SAMPLER, workers=1, chunk_size=5)
    on_dask = simulate_many(table, singles, SAMPLER, chunk_size=5, cluster=client)
    assert_same(local, on_dask)
    address = client.scheduler.address
    out = tmp_path / "res.parquet"
    simulate_to_file(table, singles, SAMPLER, out, chunk_size=5, cluster=address)
    assert_same(local, read_results(out))


def test_dask_cluster_plays_the_physics_shot_by_shot(client, table, singles):
    """Each worker makes the shot's table from its coefficients (batch.core.shot_physics)."""
    sampler = ShotSampler(12, {"angle": (1.3, 1.85), "speed": (2.0, 8.0),
                               "mu_puck": (0.1, 0.2), "e_rail": (0.4, 0.8)}, seed=4)
    local = simulate_many(table, singles, sampler, workers=1, chunk_size=5)
    assert_same(local, simulate_many(table, singles, sampler, chunk_size=5, cluster=client))


def test_an_unreachable_cluster_is_a_clear_error(table, singles, monkeypatch, tmp_path):
    import cuesim.batch.cluster as run

    monkeypatch.setattr(run, "CLUSTER_TIMEOUT", 1.0)
    with pytest.raises(BatchError, match="cannot reach the Dask cluster at 'tcp://127.0.0.1:9'"):
        simulate_many(table, singles, SAMPLER, cluster="tcp://127.0.0.1:9")
    out = tmp_path / "x.npz"
    with pytest.raises(BatchError, match="cannot reach"):
        simulate_to_file(table, singles, SAMPLER, out, cluster="tcp://127.0.0.1:9")
    assert not out.exists()


def test_tasks_grow_to_the_measured_cost(client, table, singles):
    sampler = ShotSampler(400, {"angle": (1.3, 1.85), "speed": (2.0, 8.0)}, seed=3)
    local = simulate_many(table, singles, sampler, workers=1, chunk_size=5)
    with distributed.get_task_stream(client) as ts:
        on_dask = simulate_many(table, singles, sampler, chunk_size=5, cluster=client)
    assert_same(local, on_dask)
    tasks = [t for t in ts.data if str(t["key"]).startswith("cuesim-batch-")]
    assert len(tasks) < 80  # 80 chunks: later tasks took several each


def test_task_sizer():
    from cuesim.batch.cluster import MAX_GROUP, TaskSizer

    sizer = TaskSizer(chunk_size=100, target=2.0)
    assert sizer.group(1000, 4) == 1  # nothing measured yet
    sizer.add({"worker": "a", "shots": 100, "seconds": 5.0})  # a's first task: loading
    assert sizer.cost is None
    for seconds in (0.1, 0.2, 0.1):
        sizer.add({"worker": "a", "shots": 100, "seconds": seconds})
    assert sizer.cost == pytest.approx(1e-3)
    assert sizer.group(1000, 4) == 20  # 2 s / (1 ms x 100 shots)
    assert sizer.group(1000, 4, cap=3) == 3  # a table of shots: tasks of a few MiB
    assert sizer.group(40, 4) == 5  # near the end: two tasks per worker thread still
    assert sizer.group(10, 4) == 1
    for _ in range(32):  # the median of the last 32 tasks
        sizer.add({"worker": "a", "shots": 100, "seconds": 1e-7})
    assert sizer.group(10**9, 4) == MAX_GROUP


class _NoDashboard:
    def scheduler_info(self):
        return {"address": "tcp://10.0.0.5:8786", "services": {}}


def test_the_dashboard_link_and_a_closed_client(table, singles):
    from cuesim.batch.cluster import dashboard

    assert dashboard(_NoDashboard()) is None
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster:
        c = distributed.Client(cluster, set_as_default=False)
        port = c.scheduler_info()["services"]["dashboard"]
        assert dashboard(c) == f"http://localhost:{port}/status"
        c.close()
        with pytest.raises(BatchError, match="the Dask client is closed, not running"):
            simulate_many(table, singles, SAMPLER, cluster=c)


def test_a_bad_shot_on_the_cluster_is_one_clear_error(client, table, singles, tmp_path):
    import numpy as np

    from cuesim.batch.dataset import simulate_to_dataset

    shots = {"x": np.full(6, 0.5), "angle": np.full(6, 1.5),
             "speed": np.array([3.0, 3, 3, 40, 3, 3])}
    with pytest.raises(BatchError, match="^shot 3: ") as err:
        simulate_many(table, singles, shots, chunk_size=2, cluster=client)
    assert "\n" not in str(err.value)
    with pytest.raises(BatchError, match="^shot 3: "):
        simulate_to_dataset(table, singles, shots, tmp_path / "ds", chunk_size=2,
                            cluster=client)
