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


def test_an_unreachable_cluster_is_a_clear_error(table, singles, monkeypatch, tmp_path):
    import cuesim.batch.cluster as run

    monkeypatch.setattr(run, "CLUSTER_TIMEOUT", 1.0)
    with pytest.raises(BatchError, match="cannot reach the Dask cluster at 'tcp://127.0.0.1:9'"):
        simulate_many(table, singles, SAMPLER, cluster="tcp://127.0.0.1:9")
    out = tmp_path / "x.npz"
    with pytest.raises(BatchError, match="cannot reach"):
        simulate_to_file(table, singles, SAMPLER, out, cluster="tcp://127.0.0.1:9")
    assert not out.exists()
