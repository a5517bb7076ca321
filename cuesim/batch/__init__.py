"""Batch shot simulation: many shots on one table, on every local core or a Dask cluster.

>>> import numpy as np, cuesim
>>> from cuesim.batch import simulate_many
>>> table = cuesim.novus_table()
>>> shots = {"x": np.full(3, 0.5), "angle": np.full(3, 1.5708), "speed": np.array([3., 5, 7])}
>>> res = simulate_many(table, cuesim.start_layout("novus"), shots, workers=1)
>>> res["final_xy"].shape
(3, 17, 2)

See cuesim.batch.run (simulate_many, simulate_to_file, BatchResult), cuesim.batch.dataset
(simulate_to_dataset: a partitioned Parquet dataset the workers write), cuesim.batch.params
(parameter names, ShotSampler), cuesim.batch.sources (ShotGrid, lists of shots, game states),
cuesim.batch.store (the files, resume), cuesim.batch.results_file (read_results) and
cuesim.batch.cluster (Dask).
"""

from cuesim.batch.dataset import simulate_to_dataset
from cuesim.batch.params import BatchError, ShotSampler
from cuesim.batch.results_file import read_results
from cuesim.batch.run import BatchResult, simulate_many, simulate_to_file
from cuesim.batch.sources import ShotGrid

__all__ = [
    "BatchError",
    "BatchResult",
    "ShotGrid",
    "ShotSampler",
    "read_results",
    "simulate_many",
    "simulate_to_dataset",
    "simulate_to_file",
]
