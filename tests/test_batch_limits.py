"""How many shots a batch can hold: a grid or sample too large for its output is refused in one
line before anything is allocated, the rest streams chunk by chunk; and an output that is one
of the run's input files is refused before anything is simulated."""

from __future__ import annotations

import contextlib
import json
import math
import os
import resource
import tracemalloc
from collections.abc import Iterator

import numpy as np
import pyarrow.parquet  # noqa: F401  (loaded before the address-space guard below)
import pytest

from cuesim.batch import BatchError, ShotGrid, ShotSampler, simulate_many, simulate_to_file
from cuesim.batch.chunks import ChunkRanges, Todo
from cuesim.batch.dataset import simulate_to_dataset
from cuesim.batch.limits import MAX_SHOTS, physical_memory
from cuesim.batch.sources import axis_values
from cuesim.batch.store import parts_dir
from cuesim.cli import main

HUGE = ["--grid", "speed=2:8:1000000", "--grid", "angle=80:100:1000000"]  # 10^12 shots
HUGE_GRID = ShotGrid({"angle": (1.55, 1.6, 10**6), "speed": (3.0, 6.0, 10**6)})
SMALL_PEAK = 64 * 2**20  # bytes: what refusing may allocate, far below any result's size


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["batch", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@contextlib.contextmanager
def allocating_little() -> Iterator[None]:
    """Fail if the block allocates more than SMALL_PEAK (Python and numpy memory, traced); its
    address space is capped too, so a regression fails at once instead of filling memory."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/status") as fh:
        vm = next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmSize:"))
    cap = vm + 3 * 2**30
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    tracemalloc.start()
    try:
        yield
        peak = tracemalloc.get_traced_memory()[1]
        assert peak < SMALL_PEAK, f"refusing allocated {peak} bytes"
    finally:
        tracemalloc.stop()
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


needs_memory_size = pytest.mark.skipif(physical_memory() is None or not os.path.exists(
    "/proc/self/status"), reason="the machine's memory size is not known here")


@needs_memory_size
def test_a_grid_too_large_for_an_npz_is_refused_before_anything(tmp_path, capsys):
    out = tmp_path / "g.npz"
    with allocating_little():
        code, stdout, err = run(["novus", *HUGE, "--out", str(out)], capsys)
    assert code == 2 and stdout == ""
    assert err.count("\n") == 1 and err.startswith("cuesim: error: ")
    assert "--grid speed=2:8:1000000 --grid angle=80:100:1000000: 1,000,000,000,000 shots" in err
    assert ".npz" in err and "memory" in err and "at most" in err
    assert not out.exists() and not parts_dir(out).exists()


@needs_memory_size
def test_a_sample_too_large_for_an_npz_names_shots(tmp_path, capsys):
    out = tmp_path / "s.npz"
    with allocating_little():
        code, _, err = run(["novus", "--shots", str(10**11), "--vary", "speed=2:8", "--out",
                            str(out)], capsys)
    assert code == 2 and "--shots 100000000000: 100,000,000,000 shots in an .npz" in err
    assert not parts_dir(out).exists()


@needs_memory_size
def test_simulate_many_refuses_a_result_larger_than_memory(table, singles):
    with allocating_little(), pytest.raises(BatchError) as info:
        simulate_many(table, singles, HUGE_GRID, workers=1)
    message = str(info.value)
    assert message.startswith("grid: 1,000,000,000,000 shots held in memory by simulate_many")
    assert "bytes a shot" in message and "memory" in message


def test_one_parquet_file_cannot_describe_so_many_row_groups(tmp_path, table, singles):
    """Its footer, one entry a row group, would pass the 4 GiB its 4-byte length can say."""
    out = tmp_path / "g.parquet"
    with allocating_little(), pytest.raises(BatchError, match="1,000,000,000,000 shots in one "
                                             "Parquet file.*row groups"):
        simulate_to_file(table, singles, HUGE_GRID, out, workers=1)
    assert not out.exists() and not parts_dir(out).exists()


class Stop(Exception):
    pass


def test_a_dataset_streams_a_huge_grid(tmp_path, table, singles):
    """A dataset has a file per chunk: the 10^12-shot grid starts at once and resumes."""
    out = tmp_path / "run"

    def stop(c: int) -> None:
        raise Stop

    for _ in range(2):
        with pytest.raises(Stop):
            simulate_to_dataset(table, singles, HUGE_GRID, out, workers=1, threads=1,
                                chunk_size=3, on_chunk=stop)
    info = json.loads((out / "_cuesim.json").read_text())
    assert info["done"] == [[0, 2]] and info["n_chunks"] == math.ceil(10**12 / 3)


def test_more_shots_than_64_bit_numbers_are_refused(table, singles):
    with pytest.raises(BatchError, match="64-bit integers, so a run has at most "
                                         f"{MAX_SHOTS:,} shots"):
        simulate_many(table, singles, ShotSampler(MAX_SHOTS + 1, {"speed": (2.0, 8.0)}))
    grid = ShotGrid({"speed": (2.0, 8.0, 2**32), "angle": (1.4, 1.7, 2**32)})
    with pytest.raises(BatchError, match="18,446,744,073,709,551,616 shots"):
        simulate_many(table, singles, grid)


def test_a_grid_axis_is_made_from_its_indices_alone():
    """linspace's values bit for bit, without the whole axis."""
    for lo, hi, n in [(math.radians(80), math.radians(100), 41), (2.0, 8.0, 1_000_001),
                      (0.0, 5e-324, 7), (1.55, 1.6, 3)]:
        full = np.linspace(lo, hi, n)
        picks = np.unique(np.r_[0, n - 1, np.random.default_rng(1).integers(0, n, 50)])
        assert np.array_equal(axis_values(lo, hi, n, picks), full[picks])
    values = HUGE_GRID.chunk("novus", 0, 10**12 - 2, 10**12)
    assert list(values["angle"]) == [1.6, 1.6] and values["speed"][-1] == 6.0


def test_a_normal_grid_still_runs(tmp_path, capsys):
    out = tmp_path / "g.npz"
    code, stdout, err = run(["novus", "--grid", "angle=85:95:3", "--grid", "speed=2:8:2",
                             "--workers", "1", "--quiet", "--out", str(out)], capsys)
    assert code == 0 and stdout == "", err
    with np.load(out) as data:
        angles = np.linspace(math.radians(85), math.radians(95), 3)
        assert np.array_equal(data["param.angle"], np.repeat(angles, 2))
        assert list(data["param.speed"]) == [2.0, 8.0] * 3
        assert (data["status"] == 0).all()


def test_chunk_ranges_hold_what_is_done_as_ranges():
    done = ChunkRanges([(5, 7), (0, 2)])
    for c in (2, 9, 4, 7, 3, 8):
        done.add(c)
    assert done.ranges() == [[0, 10]] and len(done) == 10 and 9 in done and 10 not in done
    gaps = ChunkRanges([(1, 3), (6, 7)])
    assert list(gaps.gaps(9)) == [0, 3, 4, 5, 7, 8] and gaps.count_below(2) == 1
    todo = Todo(10**15, ChunkRanges([(0, 10**15 - 1)]))
    assert len(todo) == 1 and list(todo) == [10**15 - 1]


# -- an output that is an input --------------------------------------------------------------
@pytest.fixture
def params(tmp_path):
    path = tmp_path / "shots.csv"
    path.write_text("angle,speed\n90,4\n91,5\n")
    return path


def test_out_may_not_be_the_params_file(tmp_path, params, capsys):
    before = params.read_bytes()
    link = tmp_path / "link.csv"
    link.symlink_to(params)
    (tmp_path / "sub").mkdir()
    for out in (params, link, tmp_path / "sub" / ".." / "shots.csv"):
        code, _, err = run(["novus", "--params", str(params), "--out", str(out),
                            "--overwrite"], capsys)
        assert code == 2 and f"--out {str(out)!r} is the --params file" in err, err
        assert err.count("\n") == 1
    code, _, err = run(["novus", "--params", str(link), "--out", str(params), "--overwrite"],
                       capsys)
    assert code == 2 and "is the --params file" in err
    assert params.read_bytes() == before


def test_out_may_not_be_the_parquet_params_file(tmp_path, capsys):
    import pyarrow as pa

    path = tmp_path / "same.parquet"
    pa.parquet.write_table(pa.table({"angle": [90.0], "speed": [4.0]}), path)
    before = path.read_bytes()
    code, _, err = run(["novus", "--params", str(path), "--out", str(path), "--overwrite"],
                       capsys)
    assert code == 2 and "is the --params file: writing it would replace the input" in err
    assert path.read_bytes() == before


def test_out_may_not_be_the_state_file(tmp_path, capsys):
    state = tmp_path / "state.npz"  # any name: the state is JSON whatever the file is called
    state.write_text(json.dumps({"game": "nine_ball", "players": ["A", "B"], "shooter": "B",
                                 "breaker": "A", "phase": "play", "ball_in_hand": None}))
    link = tmp_path / "out.npz"
    link.symlink_to(state)
    for out in (state, link):
        code, _, err = run(["9-ball", "--state", str(state), "--ruling", "--grid",
                            "angle=85:95:2", "--out", str(out), "--overwrite"], capsys)
        assert code == 2 and "is the --state file" in err, err
    assert json.loads(state.read_text())["shooter"] == "B"
