"""Build cuesim's API reference (HTML, with pdoc) from the docstrings of its public modules.

    python docs/build_api.py              # rebuild docs/api/ (commit it with the change)
    python docs/build_api.py --out DIR    # build into DIR instead
    python docs/build_api.py --check      # exit 1 when docs/api/ differs from a fresh build

Built in a process with PYTHONHASHSEED=0 (the order of a set shown on a page depends on it).
Exits 1 on any warning while building (a docstring or annotation pdoc cannot read) and when a
name of `cuesim.__all__` has no entry on the package's page. The pages are plain files (no
source view, no search index), the same on every build; tests/test_api_docs.py builds them
into a temporary folder and compares them with docs/api/, so the committed reference cannot go
stale. Needs the test extra (pip install -e ".[test]").
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
import tempfile
import warnings
from html.parser import HTMLParser
from pathlib import Path

COMMITTED = Path(__file__).resolve().parent / "api"
# the public modules: what the README documents (the package's exports, the shot files, the
# plots, the Gymnasium environments, batch runs, the tables, the results and their events, the
# referee's files)
MODULES = (
    "cuesim",
    "cuesim.api",
    "cuesim.shot",
    "cuesim.trajectory",
    "cuesim.shotfile",
    "cuesim.shotfile_replay",
    "cuesim.plot",
    "cuesim.env",
    "cuesim.batch",
    "cuesim.tables",
    "cuesim.sim",
    "cuesim.sim.batch_parallel",
    "cuesim.sim.result",
    "cuesim.sim.events",
    "cuesim.rules.files",
    "cuesim.rules.event_log",
)


def page(out: Path, module: str) -> Path:
    """The HTML page of `module` in a reference built into `out`."""
    return out.joinpath(*module.split(".")).with_suffix(".html")


def build(out: Path, modules: tuple[str, ...] = MODULES) -> list[str]:
    """Write the reference of `modules` into `out` (a new or empty folder); returns the
    problems found (pdoc's warnings, names of cuesim.__all__ without an entry, modules without
    a page), empty when there are none."""
    import pdoc
    import pdoc.render

    problems: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # imported here first: what a module does on import (matplotlib's font cache, the
        # environments' registration) is no warning of pdoc's
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for name in modules:
                importlib.import_module(name)
        pdoc.render.configure(docformat="markdown", show_source=False, search=False)
        pdoc.pdoc(*modules, output_directory=out)
    problems += [f"pdoc: {w.category.__name__}: {w.message}" for w in caught]
    problems += [f"{name} has no page" for name in modules if not page(out, name).is_file()]
    if "cuesim" in modules and page(out, "cuesim").is_file():
        import cuesim

        text = page(out, "cuesim").read_text(encoding="utf-8")
        problems += [f"cuesim.{name} has no entry on {page(out, 'cuesim').name}"
                     for name in cuesim.__all__ if f'id="{name}"' not in text]
    return problems


def page_text(path: Path) -> str:
    """A page's words, markup and layout left out: what the reader sees does not change when
    pygments or jinja2 (pdoc's highlighter and templates, not pinned) mark it up otherwise."""
    parser = _Text()
    parser.feed(path.read_text(encoding="utf-8"))
    return " ".join(" ".join(parser.parts).split())


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._skip += tag in ("script", "style")

    def handle_endtag(self, tag: str) -> None:
        self._skip -= tag in ("script", "style") and self._skip > 0

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def differences(built: Path, committed: Path) -> list[str]:
    """The pages whose text differs between two builds (relative paths; missing on either
    side)."""
    def files(root: Path) -> set[str]:
        return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}

    a, b = files(built), files(committed) if committed.is_dir() else set()
    changed = [f for f in sorted(a & b) if page_text(built / f) != page_text(committed / f)]
    return sorted(a ^ b) + changed


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if os.environ.get("PYTHONHASHSEED") != "0":  # the order of sets (module constants' values
        # on the pages) depends on the hash seed: built again in a process with a fixed one
        env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"}
        return subprocess.run([sys.executable, __file__, *argv], env=env, check=False).returncode
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None,
                        help=f"folder to write (default: {COMMITTED})")
    parser.add_argument("--check", action="store_true",
                        help="build into a temporary folder and compare with docs/api/")
    args = parser.parse_args(argv)
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            problems = build(Path(tmp))
            stale = differences(Path(tmp), COMMITTED)
        if stale:
            more = ", ..." if len(stale) > 3 else ""
            problems.append(f"docs/api/ is stale ({', '.join(stale[:3])}{more}): run "
                            "`python docs/build_api.py` and commit docs/api/")
    else:
        out = args.out if args.out is not None else COMMITTED
        if out.exists() and not out.is_dir():
            parser.error(f"{os.fspath(out)!r} is not a folder")
        if out == COMMITTED and out.is_dir():  # a clean rebuild: pages of removed modules go
            for p in sorted(out.rglob("*"), reverse=True):
                p.rmdir() if p.is_dir() else p.unlink()
        problems = build(out)
    for line in problems:
        print(f"build_api: {line}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
