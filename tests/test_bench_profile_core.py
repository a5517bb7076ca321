"""bench/profile_core.py: numba's compiled functions named for perf, from their object code.
No timing is asserted: the script profiles, the tests check that the names and addresses it
writes are numba's own, and that a run without perf says so in one line."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bench import profile_core as pc

ROOT = Path(__file__).resolve().parents[1]

MANGLED = ("_ZN6cuesim3sim7predict12predict_nearB3v64B48c8tJTIeFIjxB2IKSgI4CrvQClUaPLCRh1KgFS2"
           "gCAA_3d_3dE5ArrayIdLi2E1C7mutable7alignedE")


def test_a_numba_symbol_reads_as_its_module_and_function():
    assert pc.short_name(MANGLED) == "cuesim.sim.predict.predict_near"
    assert pc.short_name("_PyEval_EvalFrameDefault") == "_PyEval_EvalFrameDefault"


def test_an_object_that_is_no_elf_is_refused():
    with pytest.raises(ValueError, match="not a 64-bit little-endian ELF object"):
        pc.elf_functions(b"not an object file")


# a fresh process (the function is cached by the one before it): the recorder sees the code
# numba loads, and each function's address in the map is the one numba's engine gives
LOADED = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    sys.path.insert(0, sys.argv[1])
    from bench import profile_core as pc
    recorder = pc.ObjectRecorder()
    recorder.install()
    from cuesim.sim.roots import quadratic_roots
    quadratic_roots(1.0, -3.0, 2.0)
    found = recorder.write(Path(sys.argv[2]))
    from numba.core.registry import cpu_target
    engine = cpu_target.target_context.codegen()._engine._ee
    import os
    mapped = Path(f"/tmp/perf-{os.getpid()}.map").read_text().splitlines()
    Path(f"/tmp/perf-{os.getpid()}.map").unlink()
    print(json.dumps({"found": [[f["name"], f["address"], f["size"]] for f in found],
                      "engine": {f["name"]: engine.get_function_address(f["name"])
                                 for f in found},
                      "mapped": mapped}))
    """
)


def test_the_map_names_each_loaded_function_at_numbas_own_address(tmp_path):
    run = [sys.executable, "-c", "from cuesim.sim.roots import quadratic_roots; "
           "quadratic_roots(1.0, -3.0, 2.0)"]
    subprocess.run(run, check=True, cwd=tmp_path)  # compiled and cached, if it was not
    done = subprocess.run([sys.executable, "-c", LOADED, str(ROOT), str(tmp_path)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    names = {pc.short_name(name): (name, address, size) for name, address, size in out["found"]}
    assert "cuesim.sim.roots.quadratic_roots" in names
    name, address, size = names["cuesim.sim.roots.quadratic_roots"]
    assert size > 0 and out["engine"][name] == address
    assert f"{address:x} {size:x} {name}" in out["mapped"]
    index = json.loads((tmp_path / "index.json").read_text())
    obj = (tmp_path / f"object_{index[0]['object']}.o").read_bytes()
    assert obj[:4] == b"\x7fELF"


def test_without_perf_it_says_so_in_one_line(monkeypatch, capsys):
    monkeypatch.setattr(shutil, "which", lambda _tool: None)
    assert pc.main(["five-pins"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs perf" in err


@pytest.mark.parametrize("argv, message", [
    (["pool"], "scenario: expected one of"),
    (["five-pins", "--seconds", "0"], "--seconds: expected 0.1 to 600"),
])
def test_wrong_arguments_are_refused(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        pc.main(argv)
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def _perf_works() -> bool:
    if shutil.which("perf") is None or shutil.which("objdump") is None:
        return False
    done = subprocess.run(["perf", "record", "-q", "-o", "/dev/null", "--", "true"],
                          capture_output=True)
    return done.returncode == 0


@pytest.mark.skipif(not _perf_works(), reason="Linux perf cannot record here")
def test_a_short_profile_names_the_event_loop(capsys):
    assert pc.main(["five-pins", "--seconds", "0.5", "--top", "40",
                    "--function", "run_events_grid"]) == 0
    out = capsys.readouterr().out
    assert "cuesim.sim.loop.run_events_grid" in out
    assert "samples of the warm loop" in out
