"""The one door to the files in `assets/` (installed as the package `cuesim.assets`): the bundled
font, the window icon and the sounds. Nothing is written there; a missing file is a broken
installation and raises AssetError naming it."""

from __future__ import annotations

import io
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

import pygame

__all__ = ["AssetError", "SOUND_NAMES", "font", "icon", "resource", "sound_file"]

PACKAGE = "cuesim.assets"
FONTS = {False: "fonts/DejaVuSans.ttf", True: "fonts/DejaVuSans-Bold.ttf"}
ICON = "images/icon.png"
SOUND_NAMES = ("ball", "puck", "rail", "pocket", "pin", "knock", "cue")
# Sizes are given as for pygame's default font (`pygame.font.Font(None, size)`, which draws
# freesansbold at 0.6875 of the size asked for). DejaVu Sans is wider: at 0.65 of the size a
# line of text is as wide as before within a few per cent and as tall within a pixel
# (measured on the panel's sizes 17-28), so layouts made for the old font still fit.
FONT_SCALE = 0.65


class AssetError(RuntimeError):
    """A file of the installed assets is missing or unreadable (a broken installation)."""


def resource(name: str) -> Traversable:
    """The asset `name` (a path inside assets/, e.g. 'sounds/ball.wav')."""
    item = files(PACKAGE).joinpath(*name.split("/"))
    if not item.is_file():
        raise AssetError(f"the asset {name!r} is missing from {PACKAGE} (reinstall cuesim)")
    return item


def _source(name: str) -> str | io.BytesIO:
    """A file name pygame can open, or the bytes when the package is not on disk (a zip)."""
    item = resource(name)
    if isinstance(item, Path):
        return str(item)
    return io.BytesIO(item.read_bytes())


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The bundled DejaVu Sans at `size` (as pygame's default font would be sized; FONT_SCALE).
    Not cached here: callers keep the fonts they use."""
    if not pygame.font.get_init():
        pygame.font.init()
    px = max(1, round(size * FONT_SCALE))
    try:
        return pygame.font.Font(_source(FONTS[bold]), px)
    except (OSError, pygame.error) as exc:
        raise AssetError(f"cannot read the font {FONTS[bold]!r}: {exc}") from None


def icon() -> pygame.Surface:
    """The window icon (64 x 64, with transparency)."""
    try:
        return pygame.image.load(_source(ICON), "icon.png")
    except (OSError, pygame.error) as exc:
        raise AssetError(f"cannot read the icon {ICON!r}: {exc}") from None


def sound_file(name: str) -> str | io.BytesIO:
    """The WAV of the sound `name` (one of SOUND_NAMES), for pygame.mixer.Sound."""
    if name not in SOUND_NAMES:
        raise ValueError(f"unknown sound {name!r}; sounds are {', '.join(SOUND_NAMES)}")
    return _source(f"sounds/{name}.wav")
