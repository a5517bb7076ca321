"""Outputs written onto a really full disk: one clean line, exit status 2, nothing partial
under the output's name and no temporaries left; a batch resumes once there is room again.

The full disk is a small tmpfs mounted in a private mount namespace (`unshare -rm`) and filled
up, so the real write calls (pygame's PNG through `write_atomic`, the bench JSON, numpy's chunk
and zip writes, the manifest) fail with ENOSPC where they would on a full disk. Where user
namespaces or tmpfs mounts are not allowed the tests skip; the monkeypatched writer in
test_outputs_and_processes and the /dev/full tests below still cover the same paths. Standard
output goes to /dev/full (`shoot --json`, `adjudicate`), whose writes fail with ENOSPC too.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest

from cuesim.batch import read_results
from cuesim.cli import main
from tests.batch_util import assert_same

ROOT = Path(__file__).resolve().parent.parent
MIB = 1 << 20
PAGE = 4096  # tmpfs charges whole pages
NO_SPACE = "No space left on device"

# Mount a 1 MiB tmpfs on $1, fill it but $2 bytes, run the command with stderr, status and
# the folder's listing ("name size" lines) in $3; with RESUME=1 remove the filler and run it
# again (err2, rc2, ls2); files named in KEEP are copied to $3.
FULL_DISK_SH = r"""
dir=$1; free=$2; out=$3; shift 3
mount -t tmpfs -o size=1m tmpfs "$dir" || exit 99
head -c $((1048576 - free)) /dev/zero > "$dir/.filler" 2>/dev/null
"$@" 2> "$out/err1"; echo $? > "$out/rc1"
find "$dir" -mindepth 1 ! -name .filler -printf '%P %s\n' > "$out/ls1"
if [ -n "$RESUME" ]; then
    rm "$dir/.filler"
    "$@" 2> "$out/err2"; echo $? > "$out/rc2"
    find "$dir" -mindepth 1 -printf '%P %s\n' > "$out/ls2"
fi
for f in $KEEP; do cp "$dir/$f" "$out/" 2>/dev/null; done
exit 0
"""


@lru_cache(maxsize=1)
def _full_disk_available() -> str:
    """'' when a tmpfs can be mounted in a private mount namespace here, else why not."""
    if sys.platform != "linux" or shutil.which("unshare") is None:
        return "needs Linux and unshare"
    where = tempfile.mkdtemp(prefix="cuesim-full-disk-")
    try:
        probe = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k "
                                f"tmpfs {where} && echo ok"], capture_output=True, text=True)
    finally:
        os.rmdir(where)
    return "" if probe.stdout.strip() == "ok" else "no private tmpfs mounts here " \
        f"({probe.stderr.strip()[:80]})"


@pytest.fixture
def full_disk(tmp_path):
    """run(free, *cmd, resume=False, keep=()) -> results of `cmd` on a full 1 MiB disk mounted
    at tmp_path/'disk' with `free` bytes left (paths under DISK in cmd are placed there)."""
    why = _full_disk_available()
    if why:
        pytest.skip(why)
    disk, out = tmp_path / "disk", tmp_path / "result"
    disk.mkdir()
    out.mkdir()
    script = tmp_path / "full_disk.sh"
    script.write_text(FULL_DISK_SH)

    def run(free: int, *cmd: str, resume: bool = False, keep: tuple[str, ...] = ()) -> dict:
        cmd = tuple(c.replace("DISK", str(disk)) for c in cmd)
        env = dict(os.environ, RESUME="1" if resume else "", KEEP=" ".join(keep),
                   PYTHONPATH=str(ROOT))
        subprocess.run(["unshare", "-rm", "sh", str(script), str(disk), str(free), str(out),
                        *cmd], env=env, check=True, timeout=300)
        res: dict = {"out": out}
        for k in ("1", "2") if resume else ("1",):
            res["rc" + k] = int((out / ("rc" + k)).read_text())
            res["err" + k] = (out / ("err" + k)).read_text()
            res["files" + k] = dict(line.rsplit(" ", 1) for line in
                                    (out / ("ls" + k)).read_text().splitlines())
        return res

    return run


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def no_temporaries(files: dict) -> None:
    assert not [f for f in files if ".tmp" in f], files


def test_screenshot_onto_a_full_disk(full_disk):
    """`play --screenshot` on a full disk: pygame writes no PNG and says nothing (it left an
    empty file and cuesim said 'saved'); now one line, exit 2, no file."""
    res = full_disk(0, sys.executable, "-m", "cuesim", "play", "novus", "--screenshot",
                    "DISK/shot.png")
    line = one_line(res["err1"])
    assert res["rc1"] == 2 and NO_SPACE in line and "nothing was saved" in line
    assert res["files1"] == {}


BENCH_STUB = """
import sys
sys.path.insert(0, {root!r})
import bench.suite as suite
suite.run_suite = lambda cfg: {{"figures": [{{"n": k, "ms": k / 7}} for k in range(3000)]}}
suite.format_report = lambda results: "report"
from cuesim.cli import main
sys.exit(main(["bench", "--quick", "--json", sys.argv[1]]))
"""


def test_bench_json_onto_a_full_disk(full_disk):
    """`bench --json` on a full disk (the measurements stubbed, the real JSON write kept): one
    line, exit 2, no file; with room the same write gives the whole JSON."""
    code = BENCH_STUB.format(root=str(ROOT))
    res = full_disk(0, sys.executable, "-c", code, "DISK/bench.json", resume=True,
                    keep=("bench.json",))
    line = one_line(res["err1"])
    assert res["rc1"] == 2 and NO_SPACE in line and "--json" in line
    assert res["files1"] == {}
    assert res["rc2"] == 0 and len(json.loads((res["out"] / "bench.json").read_text())[
        "figures"]) == 3000


def test_saved_game_onto_a_full_disk_keeps_the_earlier_save(full_disk):
    """The viewer's save (F5) on a full disk raises OSError naming the file and leaves the
    earlier save whole (it writes through a temporary file); the viewer says so."""
    code = ("import sys\nfrom cuesim.viewer.session import new_session\n"
            "path = sys.argv[1]\n"
            "with open(path, 'w') as fh:\n    fh.write('earlier save')\n"
            "try:\n    new_session('novus').save(path)\nexcept OSError as e:\n"
            "    kept = open(path).read() == 'earlier save'\n"
            "    print(e.filename, e.strerror, 'kept' if kept else 'LOST', file=sys.stderr)\n"
            "    sys.exit(2)\n")
    res = full_disk(PAGE, sys.executable, "-c", code, "DISK/game.json")
    line = one_line(res["err1"])
    assert res["rc1"] == 2 and NO_SPACE in line and line.endswith("kept")
    assert "game.json" in line and list(res["files1"]) == ["game.json"]


# -- batch --out: chunks and the final file ------------------------------------------------------
BATCH = ["batch", "novus", "--shots", "12", "--chunk-size", "3", "--vary", "speed=2:6",
         "--workers", "1", "--quiet"]


@pytest.fixture(scope="module")
def batch_sizes(tmp_path_factory):
    """Bytes on a tmpfs (whole pages) of the run's manifest, its chunks and the final file,
    and the final result, from an ordinary run of the same command."""
    import cuesim.batch.run as run

    folder = tmp_path_factory.mktemp("ref")
    out = folder / "o.npz"
    finish = run.finish_run

    def stop(*args, **kwargs):
        raise KeyboardInterrupt

    run.finish_run = stop
    try:
        assert main([*BATCH, "--out", str(out)]) == 130
    finally:
        run.finish_run = finish
    parts = out.with_name(out.name + ".parts")

    def pages(p: Path) -> int:
        return math.ceil(p.stat().st_size / PAGE) * PAGE

    sizes = {"manifest": pages(parts / "manifest.json"),
             "chunks": sorted(pages(p) for p in parts.glob("chunk-*"))}
    assert main([*BATCH, "--out", str(out)]) == 0
    sizes["final"] = pages(out)
    return sizes, read_results(out)


@pytest.mark.parametrize("phase", ["manifest", "chunks", "assembly"])
def test_batch_out_onto_a_full_disk_then_resume(full_disk, batch_sizes, phase):
    """`batch --out` on a disk that fills up while the manifest, a chunk or the final file is
    written: one line naming --out and the file, exit 2, no output file and no temporaries;
    whole chunks stay, and the same command with room finishes the same result."""
    sizes, reference = batch_sizes
    free = {"manifest": 0,
            "chunks": sizes["manifest"] + sizes["chunks"][0],
            "assembly": sizes["manifest"] + sum(sizes["chunks"]) + sizes["final"] - PAGE}[phase]
    res = full_disk(free, sys.executable, "-m", "cuesim", *BATCH, "--out", "DISK/o.npz",
                    resume=True, keep=("o.npz",))
    line = one_line(res["err1"])
    assert res["rc1"] == 2 and NO_SPACE in line and "--out" in line
    files = res["files1"]
    assert "o.npz" not in files
    no_temporaries(files)
    chunks = [f for f in files if "/chunk-" in f]
    assert len(chunks) == {"manifest": 0, "chunks": 1, "assembly": 4}[phase], files
    if phase == "manifest":
        assert files == {}  # no chunk folder no run could resume
    assert res["rc2"] == 0, res["err2"]
    assert [f for f in res["files2"] if f != ".filler"] == ["o.npz"]
    assert_same(read_results(res["out"] / "o.npz"), reference)


# -- standard output onto /dev/full --------------------------------------------------------------
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_adjudicate_json_onto_a_full_disk_is_one_line():
    """`cuesim adjudicate` prints its ruling as JSON: onto a full disk (/dev/full) one line,
    exit 2."""
    scenario = ROOT / "tests" / "scenarios" / "pool" / "straight_pool_rerack.json"
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "cuesim", "adjudicate", str(scenario),
                               "--json"],
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=300)
    assert done.returncode == 2
    assert NO_SPACE in one_line(done.stderr)


# -- standard output closed ------------------------------------------------------------------
def _closed_stdout() -> None:
    os.close(1)


@pytest.mark.parametrize("args", [["shoot", "novus", "--angle", "90", "--speed", "3"],
                                  ["layout", "novus"]])
def test_a_command_started_with_stdout_closed_says_so_in_one_line(args):
    """`cuesim ... >&-`: Python sets sys.stdout to None, and the final flush raised an
    AttributeError traceback. Now the first write fails: one line naming standard output,
    exit 2."""
    done = subprocess.run([sys.executable, "-m", "cuesim", *args], preexec_fn=_closed_stdout,
                          stderr=subprocess.PIPE, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    assert one_line(done.stderr) == "cuesim: error: cannot write standard output: it is closed"


def test_a_batch_to_a_file_with_stdout_closed_writes_its_file(tmp_path):
    """The shots go to the file before the closing report, which alone is lost: its line says
    so, and the file is whole."""
    out = tmp_path / "b.npz"
    done = subprocess.run([sys.executable, "-m", "cuesim", "batch", "novus", "--shots", "4",
                           "--out", str(out)], preexec_fn=_closed_stdout,
                          stderr=subprocess.PIPE, text=True, timeout=300)
    assert done.returncode == 2 and "cannot write standard output" in done.stderr
    assert len(read_results(out)["shot"]) == 4
