"""The API reference (docs/api/, built by docs/build_api.py with pdoc) builds without a warning,
has an entry for every name of cuesim.__all__, and is the one committed: the suite is how CI
builds it, so it cannot go stale (issue 15)."""

from __future__ import annotations

import runpy
import subprocess
import sys
from pathlib import Path

import pytest

import cuesim

pytest.importorskip("pdoc")

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "docs" / "build_api.py"
TOOL = runpy.run_path(str(SCRIPT), run_name="build_api")  # no bytecode left in docs/


def test_the_reference_builds_clean_and_is_the_committed_one(tmp_path):
    out = tmp_path / "api"
    run = subprocess.run([sys.executable, str(SCRIPT), "--out", str(out)], cwd=tmp_path,
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0 and "build_api:" not in run.stderr, run.stderr
    text = (out / "cuesim.html").read_text(encoding="utf-8")
    assert [n for n in cuesim.__all__ if f'id="{n}"' not in text] == []
    for module in TOOL["MODULES"]:
        assert TOOL["page"](out, module).is_file(), module
    stale = TOOL["differences"](out, TOOL["COMMITTED"])
    assert stale == [], ("docs/api/ is stale: run `python docs/build_api.py` and commit "
                         f"docs/api/ (differs: {', '.join(stale[:5])})")


def test_a_pdoc_warning_or_an_unresolved_public_name_fails_the_build(tmp_path, monkeypatch):
    (tmp_path / "badmod.py").write_text(
        '"""A module pdoc warns about."""\n\n\ndef f(x: "NoSuchType") -> None:\n'
        '    """An annotation that names nothing."""\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    problems = TOOL["build"](tmp_path / "out", ("badmod",))
    assert any(p.startswith("pdoc:") and "NoSuchType" in p for p in problems), problems
    monkeypatch.setattr(cuesim, "__all__", [*cuesim.__all__, "no_such_name"])
    problems = TOOL["build"](tmp_path / "out2", ("cuesim",))
    assert any("no_such_name" in p for p in problems), problems
