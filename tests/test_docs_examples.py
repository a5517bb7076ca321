"""The examples in docs/examples run as written, in their reduced form (`--quick`), and do
what they say."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(f"example_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def test_every_example_is_tested():
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == ["cem_nine_ball_break.py"]


def test_cem_learns_better_breaks_than_a_random_policy(capsys):
    rates = _load(EXAMPLES / "cem_nine_ball_break.py").main(["--quick"])
    out = capsys.readouterr().out
    assert "random policy" in out and "learned policy" in out
    assert rates["after"] >= rates["before"] + 0.25  # seeded: the same numbers every run


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.py")), ids=lambda p: p.name)
def test_examples_have_a_docstring_and_a_quick_mode(path):
    text = path.read_text()
    assert text.startswith('"""') and "--quick" in text


def test_the_package_is_marked_typed():
    import tomllib

    import cuesim

    assert (Path(cuesim.__file__).parent / "py.typed").is_file()
    pyproject = tomllib.loads((EXAMPLES.parent.parent / "pyproject.toml").read_text())
    assert "py.typed" in pyproject["tool"]["setuptools"]["package-data"]["cuesim"]
