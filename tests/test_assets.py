"""assets/: installed as package data (editable and in a wheel), read through the one module
cuesim.viewer.assets; the committed icon and sounds are what tools/make_assets.py makes; the
bundled font draws every text the viewer shows (Cyrillic rule articles included)."""

from __future__ import annotations

import fnmatch
import io
import shutil
import subprocess
import sys
import tomllib
import wave
import zipfile
from pathlib import Path

import numpy as np
import pygame
import pytest

from cuesim.viewer import assets
from tools import make_assets

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"


def _asset_files() -> list[str]:
    return sorted(p.relative_to(ASSETS).as_posix() for p in ASSETS.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts)


def test_every_asset_file_is_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert config["package-dir"]["cuesim.assets"] == "assets"
    assert "cuesim.assets" in config["packages"]
    # assets/ and each folder in it is a package (setuptools warns of a folder of data that is
    # not); a file is package data of its folder's package, by a glob of that package
    globs = {package.removeprefix("cuesim.assets").lstrip(".").replace(".", "/"): patterns
             for package, patterns in config["package-data"].items()
             if package.startswith("cuesim.assets")}
    for name in _asset_files():
        if name.endswith(".py"):
            continue  # the package's module, installed as such
        folder, _, base = name.rpartition("/")
        assert "cuesim.assets" + ("." + folder.replace("/", ".") if folder else "") \
            in config["packages"], f"{folder} is no package"
        assert any(fnmatch.fnmatch(base, g) for g in globs.get(folder, [])), \
            f"{name} is not package data"


def test_every_asset_file_is_readable_through_the_installed_package():
    """In this (editable) install the package `cuesim.assets` holds every file of assets/."""
    for name in _asset_files():
        assert assets.resource(name).read_bytes() == (ASSETS / name).read_bytes()


def test_the_wheel_holds_every_asset(tmp_path):
    """`pip wheel .` of the checkout puts every file of assets/ under cuesim/assets/."""
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".git", ".venv", ".xdgcache", "build", "*.egg-info", "__pycache__", ".pytest_cache",
        ".ruff_cache", ".hypothesis", "tests", "bench", "docs"))
    out = tmp_path / "wheel"
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                          str(out), str(src)], capture_output=True, text=True)
    if run.returncode != 0 and "setuptools" in run.stderr and "No matching distribution" in \
            run.stderr:
        pytest.skip("pip cannot fetch the build backend (offline)")
    assert run.returncode == 0, run.stderr[-2000:]
    # the build warns of nothing in the project's configuration: no folder of data missing
    # from `packages`, no deprecated `project.license` table
    assert "absent from the `packages` configuration" not in run.stderr, run.stderr[-2000:]
    assert "project.license` as a TOML table is deprecated" not in run.stderr, \
        run.stderr[-2000:]
    (wheel,) = out.glob("cuesim-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in _asset_files():
        assert f"cuesim/assets/{name}" in names


def test_the_committed_icon_and_sounds_are_what_the_script_makes():
    icon = pygame.image.load(str(ASSETS / "images" / "icon.png"))
    got = np.dstack([pygame.surfarray.pixels3d(icon).transpose(1, 0, 2),
                     pygame.surfarray.pixels_alpha(icon).T])
    assert np.abs(got.astype(int) - make_assets.icon_pixels().astype(int)).max() <= 1
    for name, spec in make_assets.SOUNDS.items():
        with wave.open(str(ASSETS / "sounds" / f"{name}.wav")) as w:
            assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (
                1, 2, make_assets.RATE)
            samples = np.frombuffer(w.readframes(w.getnframes()), "<i2")
        want = make_assets.synthesise(spec)
        assert len(samples) == len(want)
        assert np.abs(samples.astype(int) - want.astype(int)).max() <= 1, name


def test_the_sounds_are_the_ones_the_viewer_loads_and_short():
    assert set(make_assets.SOUNDS) == set(assets.SOUND_NAMES)
    for name in assets.SOUND_NAMES:
        data = assets.resource(f"sounds/{name}.wav").read_bytes()
        with wave.open(io.BytesIO(data)) as w:
            assert w.getnframes() / w.getframerate() <= 0.4


def test_every_asset_has_its_licence():
    readme = (ASSETS / "README.md").read_text()
    assert "Bitstream Vera" in (ASSETS / "fonts" / "LICENSE-DejaVu.txt").read_text()
    assert "CC0 1.0 Universal" in (ASSETS / "LICENSE-CC0-1.0.txt").read_text()
    for name in _asset_files():
        if name.endswith((".ttf", ".png", ".wav")):
            assert f"`{name}`" in readme or f"`{name.replace('-Bold', '')}`" in readme, name


def test_the_font_draws_the_rule_articles_and_keeps_the_old_line_widths():
    pygame.font.init()
    f = assets.font(20)
    for ch in "бвгд§":  # 5-pins articles (15.3.б) and novus ones (17.1.з) use Cyrillic letters
        assert f.metrics(ch)[0] is not None
    text = "Legal shot. Ann pocketed a ball and continues (WPA 5.5)."
    for size in (17, 20, 28):
        old, new = pygame.font.Font(None, size), assets.font(size)
        assert abs(new.size(text)[0] / old.size(text)[0] - 1.0) < 0.08
        assert abs(new.get_linesize() - old.get_linesize()) <= 2
    assert assets.font(20, bold=True).size("Bold")[0] > assets.font(20).size("Bold")[0]


def test_the_icon_is_a_64_pixel_square_with_transparent_corners():
    pygame.init()
    icon = assets.icon()
    assert icon.get_size() == (64, 64)
    assert icon.get_at((0, 0)).a == 0 and icon.get_at((32, 32)).a == 255


def test_a_missing_asset_is_a_clear_error():
    with pytest.raises(assets.AssetError, match="missing"):
        assets.resource("images/none.png")
    with pytest.raises(ValueError, match="unknown sound"):
        assets.sound_file("gong")
