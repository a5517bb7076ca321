"""Shared fixtures: one table and one set of layouts for the whole run, so the compiled
kernels (cached on disk by numba) are loaded once per test process.

Two guards apply to every test:
- Hypothesis runs derandomized (the `ci` profile of tests/profiles.py); `pytest
  --hypothesis-profile=explore` runs random seeds and more examples.
- No shot may stop at the event limit unnoticed: a truncated ShotResult, PymunkResult or a
  BatchResult holding a truncated shot fails the test the moment it is made, unless the test is
  marked `@pytest.mark.truncation` (it truncates on purpose and asserts so itself).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from hypothesis import settings  # noqa: E402

from cuesim import novus_doubles_layout, novus_singles_layout, novus_table  # noqa: E402
from cuesim.batch.run import BatchResult  # noqa: E402
from cuesim.sim.pymunk_backend import PymunkResult  # noqa: E402
from cuesim.sim.result import ShotResult  # noqa: E402
from tests.profiles import register  # noqa: E402

register()
settings.load_profile("ci")  # `--hypothesis-profile NAME` loads another one after this


def _refuse_truncated(cls: type, is_truncated: Any, what: str,
                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Wrap cls.__init__ so that an instance for which is_truncated(instance) holds fails the
    running test (pytest.fail raises a BaseException: no `except Exception` swallows it)."""
    init = cls.__init__

    def checked_init(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        if is_truncated(self):
            pytest.fail(f"{what} (mark the test @pytest.mark.truncation if it truncates on "
                        "purpose and asserts it)", pytrace=True)

    monkeypatch.setattr(cls, "__init__", checked_init)


@pytest.fixture(autouse=True)
def no_truncated_shots(request: pytest.FixtureRequest,
                       monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    if request.node.get_closest_marker("truncation") is None:
        _refuse_truncated(ShotResult, lambda r: r.truncated,
                          "a shot stopped at the event limit", monkeypatch)
        _refuse_truncated(PymunkResult, lambda r: r.truncated,
                          "a pymunk run ran out of time before everything rested", monkeypatch)
        _refuse_truncated(BatchResult, lambda r: "truncated" in r.arrays
                          and bool(r.arrays["truncated"].any()),
                          "a batch holds a shot that stopped at the event limit", monkeypatch)
    yield


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
