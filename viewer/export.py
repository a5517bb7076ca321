"""A shot as an animated GIF, drawn by the viewer's own code (`draw.background` for the table,
`draw.draw_pieces` for the pieces at `Playback` times, as `App.render` draws an animation).

Frames are taken at a fixed rate of the shot's own time, from the strike to the rest after the
last event (`Playback.end`), so a GIF of `n` frames at `fps` lasts n / fps seconds and then
holds the final board for HOLD seconds before it loops. GIF frame delays are whole hundredths
of a second (GIF89a, "Delay Time"), so only rates that divide 100 play at their true speed:
those are the rates offered (GIF_FPS). Writing needs Pillow (the `gif` extra).
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame

from cuesim.output import check_writable, write_atomic
from cuesim.sim.result import ShotResult
from cuesim.tables.jsonfile import file_path
from cuesim.viewer import assets, draw
from cuesim.viewer import view as V
from cuesim.viewer.anim import Playback
from cuesim.viewer.view import Viewport

__all__ = ["DEFAULT_FPS", "DEFAULT_WIDTH", "GIF_FPS", "HOLD", "ExportError", "check_options",
           "frame_times", "gif_bytes", "pillow_available", "render_frames", "save_gif",
           "save_last_shot", "save_last_shot_file", "viewport"]

GIF_FPS = (1, 2, 4, 5, 10, 20, 25, 50)  # frames per second whose delay is whole 1/100 s
DEFAULT_FPS = 25
DEFAULT_WIDTH = 720  # px
MIN_WIDTH, MAX_WIDTH = 160, 1920  # px
HOLD = 1.0  # s the final board is shown before the GIF starts again
# Pillow holds every frame (one byte a pixel) until it writes the file: an export of more
# pixels than this (about 400 MB) is refused
MAX_PIXELS = 400_000_000
CAPTION_PX = 26  # px: the band under the table with the game and the shot's time
CAPTION_SIZE = 26  # the caption's font size (as assets.font sizes it)
PILLOW_MISSING = ("exporting a shot as a GIF needs Pillow, an optional extra: pip install "
                  "\"cuesim[gif]\"")


class ExportError(ValueError):
    """An export that cannot be made (options, Pillow missing, nothing to export); the
    message is one line."""


def pillow_available() -> bool:
    """Whether Pillow can be imported."""
    try:
        import PIL.Image  # noqa: F401
    except ImportError:
        return False
    return True


def check_options(fps: int, width: int, what: str = "--gif") -> None:
    """ExportError unless fps is one of GIF_FPS and width within MIN_WIDTH..MAX_WIDTH."""
    if isinstance(fps, bool) or not isinstance(fps, int) or fps not in GIF_FPS:
        raise ExportError(f"{what}-fps must be one of {', '.join(map(str, GIF_FPS))} (GIF delays "
                          f"are whole hundredths of a second), got {fps!r}")
    if isinstance(width, bool) or not isinstance(width, int) or not \
            MIN_WIDTH <= width <= MAX_WIDTH:
        raise ExportError(f"{what}-width must be a whole number of pixels in "
                          f"{MIN_WIDTH}..{MAX_WIDTH}, got {width!r}")


def frame_times(result: ShotResult, fps: int) -> list[float]:
    """The shot times of the frames: k / fps from 0, and the end of the animation last."""
    end = Playback(result).end
    n = math.ceil(end * fps - 1e-9)
    return [min(k / fps, end) for k in range(n + 1)]


def viewport(table: Any, width: int) -> tuple[Viewport, tuple[int, int]]:
    """The table fitted to `width` pixels as the viewer fits it, and the frame size (the
    table's height plus the caption band)."""
    margin = draw.table_margin(table)
    w, l = table.geometry.width, table.geometry.length
    probe = Viewport.fit(pygame.Rect(0, 0, width, 10**6), w, l, margin)
    height = math.ceil(probe.scale * ((w if probe.rotated else l) + 2 * margin))
    view = Viewport.fit(pygame.Rect(0, 0, width, height), w, l, margin)
    return view, (width, height + CAPTION_PX)


def render_frames(result: ShotResult, table: Any, fps: int = DEFAULT_FPS,
                  width: int = DEFAULT_WIDTH, title: str = "") -> Iterator[pygame.Surface]:
    """The frames, one Surface each (the same Surface, redrawn: copy it to keep one)."""
    view, size = viewport(table, width)
    background = draw.background(size, view, table)
    caption = assets.font(CAPTION_SIZE)
    frame = pygame.Surface(size)
    pb = Playback(result)
    pieces = result.initial.pieces
    for t in frame_times(result, fps):
        pb.t = t
        pos, on = pb.frame()
        frame.blit(background, (0, 0))
        draw.draw_pieces(frame, view, table, pieces, [tuple(p) for p in pos], list(on),
                         pb.fallen())
        text = f"{title}   t = {t:.2f} s" if title else f"t = {t:.2f} s"
        img = caption.render(text, True, V.DIM)
        frame.blit(img, img.get_rect(midleft=(8, size[1] - CAPTION_PX // 2)))
        yield frame


def gif_bytes(result: ShotResult, table: Any, fps: int = DEFAULT_FPS,
              width: int = DEFAULT_WIDTH, title: str = "", what: str = "--gif") -> bytes:
    """The shot as an animated GIF file (looping), in memory."""
    check_options(fps, width, what)
    n = len(frame_times(result, fps))
    size = viewport(table, width)[1]
    if n * size[0] * size[1] > MAX_PIXELS:
        raise ExportError(f"{what}: the shot lasts {Playback(result).end:.1f} s, {n} frames of "
                          f"{size[0]} x {size[1]} pixels at {fps} per second, more than "
                          f"{MAX_PIXELS // 10**6} million pixels in all; give a lower {what}-fps "
                          f"or {what}-width")
    try:
        from PIL import Image
    except ImportError:
        raise ExportError(PILLOW_MISSING) from None

    frames = render_frames(result, table, fps, width, title)

    def image(surface: pygame.Surface) -> Image.Image:
        return Image.frombytes("RGB", surface.get_size(), pygame.image.tobytes(surface, "RGB"))

    first = image(next(frames))
    # one palette for every frame (the first frame holds every piece and colour), so colours
    # do not flicker from frame to frame
    palette = first.quantize(colors=255, method=Image.Quantize.MEDIANCUT)
    rest = (image(f).quantize(palette=palette, dither=Image.Dither.NONE) for f in frames)
    delay = 1000 // fps  # ms, a whole number of hundredths for every rate in GIF_FPS
    buf = io.BytesIO()
    palette.save(buf, format="GIF", save_all=True, append_images=rest, loop=0,
                 duration=[delay] * (n - 1) + [delay + round(HOLD * 1000)])
    return buf.getvalue()


def save_gif(result: ShotResult, table: Any, path: str | os.PathLike[str],
             fps: int = DEFAULT_FPS, width: int = DEFAULT_WIDTH, title: str = "",
             what: str = "--gif") -> Path:
    """Write the shot as an animated GIF to `path`, whole or not at all (OutputError for a
    path that cannot be written, ExportError for the options or a missing Pillow)."""
    p = file_path(path, what, ExportError)
    if p.suffix.lower() != ".gif":
        raise ExportError(f"{what} {os.fspath(path)!r}: give a file name ending in .gif")
    check_writable(p, what)
    write_atomic(p, gif_bytes(result, table, fps, width, title, what))
    return p


def save_last_shot_file(session: Any, folder: str | os.PathLike[str]) -> Path:
    """The viewer's J key: the session's last shot as a shot file, cuesim-GAME-shot-N.json in
    `folder` (N as for the GIF), exact and with the physics it was played with, for `cuesim
    show FILE` (`--verify`, `--rule GAME`) and `ShotResult.load`."""
    result = session.last_result
    if result is None:
        raise ExportError("no shot has been played yet")
    path = Path(folder) / f"cuesim-{session.game}-shot-{len(session.actions)}.json"
    result.save(path)
    return path


def save_last_shot(session: Any, folder: str | os.PathLike[str], fps: int = DEFAULT_FPS,
                   width: int = DEFAULT_WIDTH) -> Path:
    """The viewer's G key: the session's last shot as cuesim-GAME-shot-N.gif in `folder`
    (N counts the session's actions, so the same shot is always the same file)."""
    result = session.last_result
    if result is None:
        raise ExportError("no shot has been played yet")
    path = Path(folder) / f"cuesim-{session.game}-shot-{len(session.actions)}.gif"
    return save_gif(result, session.table, path, fps, width, f"cuesim {session.game}",
                    "GIF")
