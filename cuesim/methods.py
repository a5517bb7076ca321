"""The research methods of `ShotResult` that live outside the collision core.

`ShotResult` is defined in `cuesim.sim.result`, which this layer does not edit; importing
`cuesim` (which every `cuesim.*` import does first) attaches these to it:

- `sample(times | dt=)` (cuesim.trajectory);
- `to_dict(trajectories=False, exact=False)`: the core's readable dict, plus with `exact=True`
  the raw arrays that `ShotResult.from_dict` reloads bit for bit (cuesim.shotfile);
- `save(path)` / `ShotResult.load(path, verify=False)`: `.json` or `.npz` files
  (cuesim.shotfile); `verify=True` plays the shot again and compares (cuesim.shotfile_replay).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cuesim.shotfile import from_exact_dict, load_result, save_result, to_exact_dict
from cuesim.sim.errors import SimulationError
from cuesim.sim.result import ShotResult
from cuesim.trajectory import sample

_core_to_dict = ShotResult.to_dict


def to_dict(self: ShotResult, trajectories: bool = False, *, exact: bool = False) -> dict[str, Any]:
    """The shot, event log and layouts as plain data (`trajectories`: the motion segments too);
    `exact=True` adds the raw arrays, so `ShotResult.from_dict` rebuilds the result exactly."""
    if not isinstance(exact, bool | np.bool_):  # 'yes' was read as true
        raise SimulationError(f"to_dict: exact must be True or False, got {exact!r:.60}")
    if exact:
        return to_exact_dict(self, trajectories=trajectories)
    return _core_to_dict(self, trajectories=trajectories)


def attach() -> None:
    """Give ShotResult its methods (idempotent)."""
    ShotResult.sample = sample  # type: ignore[attr-defined]
    ShotResult.to_dict = to_dict  # type: ignore[method-assign]
    ShotResult.from_dict = staticmethod(from_exact_dict)  # type: ignore[attr-defined]
    ShotResult.save = save_result  # type: ignore[attr-defined]
    ShotResult.load = staticmethod(load_result)  # type: ignore[attr-defined]
