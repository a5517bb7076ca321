"""Outputs that cannot be written are refused before the work, in one line with exit status 2;
batch runs leave no orphans, no temporaries, no damaged chunks, and a finished run is left as
it is."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from cuesim.batch import BatchError, ShotSampler, read_results, simulate_many, simulate_to_file
from cuesim.batch.store import chunk_ok, parts_dir, remove_stale_temporaries
from cuesim.cli import main
from cuesim.output import OutputError, check_writable
from tests.batch_util import assert_same

SAMPLER = ShotSampler(25, {"angle": (1.3, 1.85), "speed": (2.0, 8.0)}, seed=4)
DEAD_PID = 2**22 + 12345  # above Linux's pid_max default: no process has it


def _writable_by_probe(folder: Path) -> bool:
    try:
        with tempfile.NamedTemporaryFile(dir=folder):
            return True
    except OSError:
        return False


@pytest.fixture
def read_only_dir(tmp_path):
    """A folder no file can be created in: chmod 555, or for root (who ignores modes) /sys."""
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    if _writable_by_probe(folder):
        folder = Path("/sys")
        if not folder.is_dir() or _writable_by_probe(folder):
            pytest.skip("no read-only folder available to this user")
    yield folder
    (tmp_path / "ro").chmod(0o755)


def one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture
def bad_targets(tmp_path, read_only_dir):
    return {
        "missing folder": (tmp_path / "nowhere" / "f", "does not exist"),
        "read-only folder": (read_only_dir / "f", "cannot write in the folder"),
        "a folder": (tmp_path, "is a folder"),
    }


@pytest.mark.parametrize("case", ["missing folder", "read-only folder", "a folder"])
def test_screenshot_into_an_unwritable_place(case, bad_targets, capsys):
    base, message = bad_targets[case]
    target = base if case == "a folder" else base.with_suffix(".png")
    if case == "a folder":
        target = base / "dir.png"
        target.mkdir()
    assert main(["play", "novus", "--screenshot", str(target)]) == 2
    assert message in one_error_line(capsys.readouterr().err)


@pytest.mark.parametrize("case", ["missing folder", "read-only folder"])
def test_batch_out_into_an_unwritable_place_writes_nothing(case, bad_targets, capsys):
    base, message = bad_targets[case]
    out = base.with_suffix(".npz")
    assert main(["batch", "novus", "--shots", "5", "--out", str(out)]) == 2
    line = one_error_line(capsys.readouterr().err)
    assert message in line and "--out" in line
    assert not out.exists() and not parts_dir(out).exists()


@pytest.mark.parametrize("case", ["missing folder", "read-only folder"])
def test_bench_json_and_plots_are_checked_before_measuring(case, bad_targets, capsys):
    base, message = bad_targets[case]
    assert main(["bench", "--quick", "--json", str(base.with_suffix(".json"))]) == 2
    assert message in one_error_line(capsys.readouterr().err)
    plots = base / "plots"
    if case == "missing folder":  # folders are made with their parents; a file is no folder
        plots.parent.mkdir(parents=True)
        plots.write_text("a file")
    assert main(["bench", "--quick", "--plots", str(plots)]) == 2
    line = one_error_line(capsys.readouterr().err)
    assert "--plots" in line and ("is not a folder" in line or "cannot write" in line)


def test_an_empty_plots_folder_is_refused_not_read_as_none(capsys):
    """`bench --plots ""` passed the check (Path('') is '.') and the suite then wrote no
    plots, silently, as if the option were absent; `--json ""` was refused already."""
    assert main(["bench", "--quick", "--plots", ""]) == 2
    assert "--plots '': give a folder name" in one_error_line(capsys.readouterr().err)


def test_an_existing_device_or_read_only_file_is_not_an_output(tmp_path):
    with pytest.raises(OutputError, match="is not a regular file"):
        check_writable("/dev/null", "--json")
    locked = tmp_path / "locked.json"
    locked.write_text("{}")
    locked.chmod(0o444)
    if os.access(locked, os.W_OK):  # root
        return
    with pytest.raises(OutputError, match="read-only"):
        check_writable(locked, "--json")


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_a_folder_that_takes_no_files_is_named_so(capsys):
    """/proc exists and answers "no such file" to a new file in it: the message says the folder
    takes no new files instead of repeating that misleading reason."""
    with pytest.raises(OutputError, match=r"cannot write in the folder '/proc' \(it takes no new "
                                          r"files\)"):
        check_writable("/proc/shot.json", "--json")
    assert main(["shoot", "novus", "--speed", "3", "--save", "/proc/shot.json"]) == 2
    assert "it takes no new files" in one_error_line(capsys.readouterr().err)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_shoot_json_onto_a_full_disk_is_one_line():
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "cuesim", "shoot", "novus", "--speed", "3", "--json"],
            stdout=full, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 2
    assert "No space left on device" in one_error_line(done.stderr)


def test_a_screenshot_that_fails_midway_leaves_no_file(tmp_path, capsys, monkeypatch):
    import errno

    from cuesim.viewer.app import App

    def fill_disk(self, path):
        Path(path).write_bytes(b"\x89PNG half")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(App, "screenshot", fill_disk)
    target = tmp_path / "shot.png"
    assert main(["play", "novus", "--screenshot", str(target)]) == 2
    assert "nothing was saved" in one_error_line(capsys.readouterr().err)
    assert not target.exists()


# -- batch runs ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def reference(table, singles):
    return simulate_many(table, singles, SAMPLER, workers=1, chunk_size=6)


def _interrupted(table, singles, out, chunks=2):
    seen: list[int] = []

    def stop(c):
        seen.append(c)
        if len(seen) == chunks:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate_to_file(table, singles, SAMPLER, out, workers=1, chunk_size=6, on_chunk=stop)
    return parts_dir(out)


def test_a_finished_batch_run_again_has_nothing_to_do(tmp_path, capsys):
    out = tmp_path / "o.npz"
    args = ["batch", "novus", "--shots", "6", "--vary", "speed=2:6", "--out", str(out),
            "--quiet", "--workers", "1"]
    assert main(args) == 0
    stamp = out.stat().st_mtime_ns
    capsys.readouterr()
    assert main(args) == 0
    assert "nothing to do" in capsys.readouterr().out
    assert out.stat().st_mtime_ns == stamp
    other = ["batch", "novus", "--shots", "7", "--vary", "speed=2:6", "--out", str(out)]
    assert main(other) == 2  # a different run is still refused
    assert "exists; pass --overwrite" in capsys.readouterr().err


@pytest.mark.parametrize("ext", [".npz", ".parquet"])
def test_temporaries_left_by_a_kill_are_removed_on_resume(tmp_path, table, singles, reference,
                                                          ext):
    out = tmp_path / f"res{ext}"
    parts = _interrupted(table, singles, out)
    left = [tmp_path / f".{out.name}.tmp-{DEAD_PID}", parts / f".chunk-000003{ext}.tmp-{DEAD_PID}"]
    for p in left:
        p.write_bytes(b"half a file")
    simulate_to_file(table, singles, SAMPLER, out, workers=1, chunk_size=6)
    assert not any(p.exists() for p in left)
    assert_same(reference, read_results(out))
    assert sorted(p.name for p in tmp_path.iterdir()) == [out.name]


def test_a_live_runs_temporary_is_left_alone(tmp_path):
    out = tmp_path / "res.npz"
    mine = tmp_path / f".res.npz.tmp-{os.getppid()}"  # a process that is alive
    mine.write_bytes(b"being written")
    dead = tmp_path / f".res.npz.tmp-{DEAD_PID}"
    dead.write_bytes(b"left by a kill")
    assert remove_stale_temporaries(out) == [dead]
    assert mine.exists()


@pytest.mark.parametrize("ext", [".npz", ".parquet"])
def test_a_truncated_chunk_is_done_again(tmp_path, table, singles, reference, ext):
    out = tmp_path / f"res{ext}"
    parts = _interrupted(table, singles, out, chunks=3)
    chunk = parts / f"chunk-000001{ext}"
    assert chunk_ok(chunk, 6, 6)
    data = chunk.read_bytes()
    chunk.write_bytes(data[: len(data) // 2])  # what a crash before the data hit the disk leaves
    assert not chunk_ok(chunk, 6, 6)
    again: list[int] = []
    simulate_to_file(table, singles, SAMPLER, out, workers=1, chunk_size=6, on_chunk=again.append)
    assert sorted(again) == [1, 3, 4]
    assert_same(reference, read_results(out))


@pytest.mark.parametrize("ext", [".npz", ".parquet"])
def test_a_chunk_copied_over_another_index_is_done_again(tmp_path, table, singles, reference,
                                                         ext):
    """A whole chunk in the wrong place (chunk 0 copied as chunk 1) holds shots 0-5, not
    6-11: resuming with it would give shots 0-5 twice. It is removed and simulated again."""
    out = tmp_path / f"res{ext}"
    parts = _interrupted(table, singles, out, chunks=3)
    chunk = parts / f"chunk-000001{ext}"
    chunk.write_bytes((parts / f"chunk-000000{ext}").read_bytes())
    assert not chunk_ok(chunk, 6, 6) and chunk_ok(parts / f"chunk-000000{ext}", 0, 6)
    again: list[int] = []
    simulate_to_file(table, singles, SAMPLER, out, workers=1, chunk_size=6, on_chunk=again.append)
    assert sorted(again) == [1, 3, 4]
    assert_same(reference, read_results(out))


@pytest.mark.parametrize("text", ["[]", "5", '"manifest"', "null"])
def test_a_resume_manifest_that_is_no_object_is_refused(tmp_path, table, singles, reference,
                                                        text):
    """Valid JSON that is no manifest (a list, a number) is no interrupted run of this batch:
    refused without --overwrite, naming the folder, as an unreadable manifest is."""
    out = tmp_path / "res.npz"
    parts = _interrupted(table, singles, out, chunks=3)
    (parts / "manifest.json").write_text(text)
    with pytest.raises(BatchError, match="holds no readable manifest"):
        simulate_to_file(table, singles, SAMPLER, out, workers=1, chunk_size=6)
    simulate_to_file(table, singles, SAMPLER, out, workers=1, chunk_size=6, overwrite=True)
    assert_same(reference, read_results(out))


def test_a_malformed_cluster_address_fails_at_once(tmp_path, capsys, table, singles):
    out = tmp_path / "o.npz"
    for address in ("not an address", "tcp://host", "http://h:1", "tcp://h:99999"):
        assert main(["batch", "novus", "--shots", "5", "--cluster", address, "--out",
                     str(out)]) == 2
        line = one_error_line(capsys.readouterr().err)
        assert f"cluster address {address!r}" in line and "host:port" in line
    assert not out.exists() and not parts_dir(out).exists()
    with pytest.raises(BatchError, match="cluster address"):
        simulate_to_file(table, singles, SAMPLER, out, cluster="not an address")


WORKERS = """
import sys
from cuesim.cli import main
sys.exit(main(["batch", "novus", "--shots", "200000", "--vary", "speed=2:8", "--workers", "2",
               "--chunk-size", "50", "--quiet", "--out", sys.argv[1]]))
"""


def test_batch_workers_die_with_their_parent(tmp_path):
    psutil = pytest.importorskip("psutil")
    parent = subprocess.Popen([sys.executable, "-c", WORKERS, str(tmp_path / "o.npz")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: list = []
    try:
        proc = psutil.Process(parent.pid)
        while len(workers) < 2 and parent.poll() is None:
            workers = proc.children()
            psutil.wait_procs([proc], timeout=0.1)  # a short pause that also sees it end
        assert len(workers) >= 2, "the batch ended before its workers started"
        os.kill(parent.pid, signal.SIGKILL)  # no clean-up of any kind runs
        parent.wait()
        gone, alive = psutil.wait_procs(workers, timeout=30)
        assert not alive, f"workers outlived their parent: {[p.pid for p in alive]}"
    finally:
        if parent.poll() is None:
            parent.kill()
        for worker in workers:  # never leave orphans behind, even when the test fails
            if worker.is_running():
                worker.kill()
