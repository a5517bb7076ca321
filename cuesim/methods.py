"""The research methods of `ShotResult` that live outside the collision core.

`ShotResult` is defined in `cuesim.sim.result`, which this layer does not edit; importing
`cuesim` (which every `cuesim.*` import does first) attaches these methods to it:
`sample` (cuesim.trajectory).
"""

from __future__ import annotations

from cuesim.sim.result import ShotResult
from cuesim.trajectory import sample


def attach() -> None:
    """Give ShotResult its methods (idempotent)."""
    ShotResult.sample = sample  # type: ignore[attr-defined]
