"""Shared fixtures: one table and one set of layouts for the whole run, so the compiled
kernels (cached on disk by numba) are loaded once per test process."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from cuesim import novus_doubles_layout, novus_singles_layout, novus_table  # noqa: E402


@pytest.fixture(scope="session")
def table():
    return novus_table()


@pytest.fixture(scope="session")
def singles(table):
    return novus_singles_layout(table)


@pytest.fixture(scope="session")
def doubles(table):
    return novus_doubles_layout(table)


@pytest.fixture(scope="session")
def doubles_layout(doubles):
    return doubles


@pytest.fixture(scope="session")
def pool():
    from cuesim.tables import pool_table

    return pool_table()


@pytest.fixture(scope="session")
def carom():
    from cuesim.tables.carom import carom_table

    return carom_table()
