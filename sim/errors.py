"""The core's one public exception."""

from __future__ import annotations


class SimulationError(ValueError):
    """Input the core cannot simulate or answer (non-finite or impossible velocity, unknown
    piece, a time that is not a number >= 0, ...); the message says what was expected."""
