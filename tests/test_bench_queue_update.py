"""bench/queue_update.py: the event queue's two mends timed side by side (issue 16)."""

from __future__ import annotations

import pytest

from bench import queue_update


def test_prints_a_row_per_size_with_both_mends(capsys: pytest.CaptureFixture[str]) -> None:
    assert queue_update.main(["--updates", "2000"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "update_path ns" in lines[0] and "update ns" in lines[0]
    assert [int(line.split()[0]) for line in lines[1:]] == [64, 256, 1024]
    for line in lines[1:]:
        path_ns, early_ns, ratio = line.split()[1:]
        assert float(path_ns) > 0.0 and float(early_ns) > 0.0 and ratio.endswith("x")


def test_a_count_that_is_not_positive_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        queue_update.main(["--updates", "0"])
    assert exit_info.value.code == 2
    assert "--updates: expected a positive count" in capsys.readouterr().err
