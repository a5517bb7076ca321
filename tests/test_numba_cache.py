"""The stale-cache guard: a change in any core source clears the compiled cache."""

from __future__ import annotations

from cuesim.sim.numba_cache import refresh


def test_changed_sources_clear_the_cached_machine_code(tmp_path):
    (tmp_path / "loop.py").write_text("x = 1\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    stamp = cache / "stamp"
    assert refresh(tmp_path, stamp) is False  # nothing cached yet, stamp written
    (cache / "loop.run-1.py311.nbi").write_text("index")
    (cache / "loop.run-1.py311.1.nbc").write_text("code")
    assert refresh(tmp_path, stamp) is False  # same sources: the cache stays
    assert (cache / "loop.run-1.py311.nbi").exists()
    (tmp_path / "loop.py").write_text("x = 2\n")  # a callee changed
    assert refresh(tmp_path, stamp) is True
    assert not list(cache.glob("*.nb*"))
