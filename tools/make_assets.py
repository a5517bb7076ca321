"""Draw the window icon and synthesise the viewer's sounds into `assets/` (the files are
committed; the viewer only reads them). Run from the checkout: `python tools/make_assets.py`.

Everything here is computed from numbers in this file (numpy and the standard library; noise
from a fixed linear congruential generator), so a rerun gives the same pixels and samples on
every machine (tests/test_assets.py checks the committed files against a rerun). The files are
dedicated to the public domain (CC0 1.0, assets/LICENSE-CC0-1.0.txt).

Sounds are modal syntheses: an impact excites a few decaying modes, each
a * exp(-t / tau) * sin(2 pi f t), after a contact pulse of a fraction of a millisecond, with a
little filtered noise for the contact itself. The frequencies and decay times were chosen by ear
to suggest each contact; they are sound design, not measurements.
"""

from __future__ import annotations

import argparse
import io
import struct
import wave
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

RATE = 22050  # Hz: every sound is under 6.5 kHz in content, so 22.05 kHz keeps it all
PEAK = 0.9  # of full scale: each sound is normalised to this peak, the viewer sets the volume
FADE = 0.005  # s: a linear fade at the end, so no sound ends with a click
ICON_SIZE = 64  # px, square
SUPERSAMPLE = 4  # icon coverage is computed on a grid this many times finer


# -- sounds ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hit:
    """One impact inside a sound: when (s), how loud (relative), its modes
    ((frequency Hz, amplitude, decay time s), ...) and its noise (amplitude, decay s)."""

    t: float
    gain: float
    modes: tuple[tuple[float, float, float], ...]
    noise: tuple[float, float] = (0.0, 0.001)


@dataclass(frozen=True)
class SoundSpec:
    duration: float  # s
    hits: tuple[Hit, ...]
    seed: int
    lowpass: float = 4000.0  # Hz, the corner of the one-pole filter on the noise


BALL_MODES = ((2860.0, 1.0, 0.018), (4310.0, 0.6, 0.010), (6120.0, 0.35, 0.007))
PUCK_MODES = ((1450.0, 1.0, 0.020), (2380.0, 0.55, 0.013), (3900.0, 0.3, 0.008))
RAIL_MODES = ((140.0, 1.0, 0.035), (310.0, 0.45, 0.020), (720.0, 0.15, 0.010))
POCKET_MODES = ((230.0, 1.0, 0.040), (520.0, 0.5, 0.020), (1330.0, 0.2, 0.010))
PIN_MODES = ((980.0, 1.0, 0.020), (1620.0, 0.6, 0.014), (2710.0, 0.35, 0.009))
CUE_MODES = ((900.0, 1.0, 0.008), (1850.0, 0.4, 0.005))

SOUNDS: dict[str, SoundSpec] = {
    # two phenolic resin balls (pool, carom): a short bright click
    "ball": SoundSpec(0.12, (Hit(0.0, 1.0, BALL_MODES, (0.5, 0.0015)),), seed=1, lowpass=6000.0),
    # two novus pucks (lacquered wood discs): a lower clack
    "puck": SoundSpec(0.14, (Hit(0.0, 1.0, PUCK_MODES, (0.4, 0.002)),), seed=2),
    # a piece into a rubber cushion or the board's rail: a dull thud
    "rail": SoundSpec(0.18, (Hit(0.0, 1.0, RAIL_MODES, (0.6, 0.012)),), seed=3, lowpass=900.0),
    # a piece falling into a pocket or a novus corner hole: a thunk and two smaller bounces
    "pocket": SoundSpec(0.35, (Hit(0.0, 1.0, POCKET_MODES, (0.5, 0.02)),
                               Hit(0.07, 0.45, POCKET_MODES, (0.3, 0.01)),
                               Hit(0.12, 0.2, POCKET_MODES, (0.2, 0.008))),
                        seed=4, lowpass=1500.0),
    # a wooden pin (5-pins) toppling: a clatter of three knocks
    "pin": SoundSpec(0.25, (Hit(0.0, 1.0, PIN_MODES, (0.4, 0.003)),
                            Hit(0.05, 0.5, PIN_MODES, (0.3, 0.002)),
                            Hit(0.085, 0.3, PIN_MODES, (0.2, 0.002))), seed=5),
    # a ball touching a pin that stays standing (5-pins): one wooden knock
    "knock": SoundSpec(0.1, (Hit(0.0, 1.0, PIN_MODES, (0.4, 0.003)),), seed=7),
    # the leather cue tip on a ball: a soft short tock
    "cue": SoundSpec(0.06, (Hit(0.0, 1.0, CUE_MODES, (0.6, 0.003)),), seed=6, lowpass=2500.0),
}


def lcg_noise(n: int, seed: int) -> np.ndarray:
    """n uniform values in [-1, 1) from the 32-bit LCG of Numerical Recipes (a = 1664525,
    c = 1013904223): the same on every machine and numpy version."""
    out = np.empty(n)
    x = seed & 0xFFFFFFFF
    for k in range(n):
        x = (1664525 * x + 1013904223) & 0xFFFFFFFF
        out[k] = x / 2.0**31 - 1.0
    return out


def _lowpass(x: np.ndarray, corner: float) -> np.ndarray:
    """A one-pole low-pass filter (y += a (x - y), a = 1 - exp(-2 pi fc / rate))."""
    a = 1.0 - np.exp(-2.0 * np.pi * corner / RATE)
    y = np.empty_like(x)
    acc = 0.0
    for k in range(len(x)):
        acc += a * (x[k] - acc)
        y[k] = acc
    return y


def synthesise(spec: SoundSpec) -> np.ndarray:
    """The sound as 16-bit samples at RATE."""
    n = round(spec.duration * RATE)
    t = np.arange(n) / RATE
    out = np.zeros(n)
    noise = _lowpass(lcg_noise(n, spec.seed), spec.lowpass)
    noise /= max(1e-12, float(np.abs(noise).max()))
    for hit in spec.hits:
        u = t - hit.t
        on = u >= 0.0
        # the contact pulse: a raised-cosine onset 0.3 ms long (a Hertzian contact lasts a
        # fraction of a millisecond), so no hit starts with a step
        onset = np.clip(u / 0.0003, 0.0, 1.0)
        env = 0.5 - 0.5 * np.cos(np.pi * onset)
        for f, a, tau in hit.modes:
            out += on * hit.gain * a * env * np.exp(-np.maximum(u, 0.0) / tau) * np.sin(
                2.0 * np.pi * f * np.maximum(u, 0.0))
        amp, tau = hit.noise
        out += on * hit.gain * amp * env * np.exp(-np.maximum(u, 0.0) / tau) * noise
    out *= PEAK / float(np.abs(out).max())
    fade = round(FADE * RATE)
    out[-fade:] *= np.linspace(1.0, 0.0, fade)
    return np.round(out * 32767.0).astype(np.int16)


def wav_bytes(samples: np.ndarray) -> bytes:
    """A mono 16-bit PCM WAV file."""
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(samples.astype("<i2").tobytes())
    return buf.getvalue()


# -- the icon --------------------------------------------------------------------------------
CLEAR = (0, 0, 0, 0)
WOOD = (110, 66, 34)
CLOTH = (24, 120, 66)
POCKET = (14, 14, 14)
RED = (200, 30, 30)
WHITE = (245, 245, 235)
CUE_WOOD = (222, 190, 130)
CUE_TIP = (60, 110, 190)


def _grid() -> tuple[np.ndarray, np.ndarray]:
    n = ICON_SIZE * SUPERSAMPLE
    c = (np.arange(n) + 0.5) / SUPERSAMPLE  # sample centres in icon pixels
    return np.meshgrid(c, c)  # x, y (y down)


def _rounded_rect(x: np.ndarray, y: np.ndarray, x0: float, y0: float, x1: float, y1: float,
                  r: float) -> np.ndarray:
    cx = np.clip(x, x0 + r, x1 - r)
    cy = np.clip(y, y0 + r, y1 - r)
    return (x >= x0) & (x <= x1) & (y >= y0) & (y <= y1) & ((x - cx) ** 2 + (y - cy) ** 2
                                                             <= r * r)


def _disc(x: np.ndarray, y: np.ndarray, cx: float, cy: float, r: float) -> np.ndarray:
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def _capsule(x: np.ndarray, y: np.ndarray, a: tuple[float, float], b: tuple[float, float],
             r: float) -> np.ndarray:
    """The points within r of the segment ab."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    s = np.clip(((x - a[0]) * dx + (y - a[1]) * dy) / (dx * dx + dy * dy), 0.0, 1.0)
    return (x - a[0] - s * dx) ** 2 + (y - a[1] - s * dy) ** 2 <= r * r


def icon_pixels() -> np.ndarray:
    """The icon, (ICON_SIZE, ICON_SIZE, 4) RGBA uint8: a table corner with its pocket, a red
    ball on the way in, the cue ball and the cue."""
    x, y = _grid()
    rgb = np.zeros((*x.shape, 3))
    alpha = np.zeros(x.shape)

    def paint(mask: np.ndarray, colour: tuple[int, int, int], opacity: float = 1.0) -> None:
        a = mask * opacity
        rgb[:] = rgb * (1.0 - a[..., None]) + np.array(colour) / 255.0 * a[..., None]
        alpha[:] = alpha * (1.0 - a) + a

    paint(_rounded_rect(x, y, 1.0, 1.0, 63.0, 63.0, 12.0), WOOD)
    paint(_rounded_rect(x, y, 8.0, 8.0, 56.0, 56.0, 6.0), CLOTH)
    paint(_disc(x, y, 53.0, 11.0, 7.5), POCKET)
    for k in range(6):  # the dotted path from the cue ball to the red ball
        s = (k + 0.5) / 6
        paint(_disc(x, y, 22.0 + s * (37.0 - 22.0), 42.0 + s * (27.0 - 42.0), 0.9), WHITE, 0.7)
    for (cx, cy), colour in (((37.0, 27.0), RED), ((22.0, 42.0), WHITE)):
        paint(_disc(x, y, cx, cy, 7.5), (10, 10, 10), 0.5)
        paint(_disc(x, y, cx, cy, 6.8), colour)
        paint(_disc(x, y, cx - 2.4, cy - 2.4, 1.9), (255, 255, 255), 0.75)
    paint(_capsule(x, y, (3.0, 61.0), (13.5, 50.5), 1.9), CUE_WOOD)
    paint(_capsule(x, y, (13.0, 51.0), (14.5, 49.5), 1.6), CUE_TIP)
    # average each SUPERSAMPLE x SUPERSAMPLE block (premultiplied colour, then divided)
    n, s = ICON_SIZE, SUPERSAMPLE
    pre = (rgb * alpha[..., None]).reshape(n, s, n, s, 3).mean(axis=(1, 3))
    a = alpha.reshape(n, s, n, s).mean(axis=(1, 3))
    colour = np.where(a[..., None] > 0, pre / np.maximum(a, 1e-12)[..., None], 0.0)
    out = np.concatenate([colour, a[..., None]], axis=2)
    return np.round(np.clip(out, 0.0, 1.0) * 255.0).astype(np.uint8)


def png_bytes(pixels: np.ndarray) -> bytes:
    """An RGBA PNG (8 bits per channel, no filtering) from an (h, w, 4) uint8 array."""
    h, w, _ = pixels.shape

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + pixels[row].tobytes() for row in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def write_all(out: Path) -> list[Path]:
    """Write images/icon.png and sounds/NAME.wav under `out`; the paths written."""
    written = []
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "sounds").mkdir(parents=True, exist_ok=True)
    icon = out / "images" / "icon.png"
    icon.write_bytes(png_bytes(icon_pixels()))
    written.append(icon)
    for name, spec in SOUNDS.items():
        path = out / "sounds" / f"{name}.wav"
        path.write_bytes(wav_bytes(synthesise(spec)))
        written.append(path)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent
                        / "assets", help="the assets folder (default: the checkout's)")
    for path in write_all(parser.parse_args().out):
        print(path)


if __name__ == "__main__":
    main()
