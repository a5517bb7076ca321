"""The sounds of a shot, played as its animation passes the events: contacts between pieces,
cushions and rails, pockets and holes, pins, the cue tip. Each sound's volume comes from the
impact speed the core logged. Without an audio device (no mixer can be opened) everything here
is silent and raises nothing; the dummy audio driver (SDL_AUDIODRIVER=dummy) plays to nowhere.

`cues(result)` is what a shot sounds like, as data (tests read it); `SoundPlayer` plays the
part of it between two animation times.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import pygame

from cuesim.sim.events import COL_A, COL_B, COL_KIND, COL_SPEED, COL_T, EventKind
from cuesim.sim.result import ShotResult
from cuesim.viewer import assets

__all__ = ["LOUDNESS", "Loudness", "Cues", "SoundPlayer", "cues", "volume"]


# Volume = floor + (1 - floor) * min(1, speed / full) ** exponent, per sound. The radiated sound
# pressure of an impact follows the peak contact force, which grows as v ** (6/5) for a
# Hertzian contact (K. L. Johnson, Contact Mechanics, 1985, section 11.4); cushions and pockets
# are not Hertzian contacts and follow the speed linearly. A piece falling into a pocket or a
# toppling pin sounds even when slow (the fall makes the noise): hence their floors. The speeds
# at full volume are a hard shot of each game (a 9-ball break sends the cue ball at ~8 m/s).
@dataclass(frozen=True)
class Loudness:
    """How one sound's volume follows the impact speed (see above)."""

    full: float  # m/s: this speed or more plays at full volume
    exponent: float = 1.2
    floor: float = 0.0


LOUDNESS = {
    "ball": Loudness(6.0),
    "puck": Loudness(5.0),
    "rail": Loudness(5.0, 1.0),
    "pocket": Loudness(4.0, 1.0, 0.5),
    "pin": Loudness(4.0, 1.0, 0.5),
    "knock": Loudness(3.0),
    "cue": Loudness(8.0),
}
MIN_VOLUME = 0.02  # quieter contacts (a rack settling, pieces pressing) are not played
MAX_VOICES = 6  # the loudest this many sounds of one animation step are played
CHANNELS = 16  # mixer channels, so sounds of consecutive steps overlap


@dataclass(frozen=True)
class Cues:
    """A shot's sounds in time order: times (s), sound names and volumes (0..1]."""

    t: np.ndarray
    names: tuple[str, ...]
    volume: np.ndarray

    def between(self, t0: float, t1: float) -> list[tuple[str, float]]:
        """The sounds an animation step from t0 to t1 passes: t0 < t <= t1, and t = 0 too
        when the step starts at 0 (the strike); none when the step does not move forward.
        The loudest MAX_VOICES, loudest first."""
        if not t1 > t0:
            return []
        lo = 0 if t0 <= 0.0 else int(np.searchsorted(self.t, t0, side="right"))
        hi = int(np.searchsorted(self.t, t1, side="right"))
        out = [(self.names[k], float(self.volume[k])) for k in range(lo, hi)]
        out.sort(key=lambda nv: -nv[1])
        return out[:MAX_VOICES]


def volume(name: str, speed: float) -> float:
    """The volume (0..1) of sound `name` for an impact at `speed` m/s (LOUDNESS)."""
    spec = LOUDNESS[name]
    x = min(1.0, max(0.0, speed) / spec.full) ** spec.exponent
    return spec.floor + (1.0 - spec.floor) * x


def _sound_of(kind: int, a_kind: str, b_kind: str | None) -> str | None:
    if kind == EventKind.COLLIDE:
        if "pin" in (a_kind, b_kind):
            return "knock"
        return "puck" if a_kind in ("puck", "striker") else "ball"
    if kind == EventKind.RAIL:
        return "rail"
    if kind == EventKind.POCKET:
        return "pocket"
    if kind == EventKind.PIN:
        return "pin"
    if kind == EventKind.STRIKE and a_kind == "ball":
        return "cue"  # the novus striker is flicked by a finger: no sound of its own
    return None


def cues(result: ShotResult) -> Cues:
    """Every sound of the shot, from its event log."""
    kinds = [p.kind for p in result.initial.pieces]
    t, names, vol = [], [], []
    for row in result.events:
        b = int(row[COL_B])
        name = _sound_of(int(row[COL_KIND]), kinds[int(row[COL_A])], kinds[b] if b >= 0 else None)
        if name is None:
            continue
        v = volume(name, float(row[COL_SPEED]))
        if v >= MIN_VOLUME:
            t.append(float(row[COL_T]))
            names.append(name)
            vol.append(v)
    return Cues(np.array(t), tuple(names), np.array(vol))


@contextmanager
def _c_stderr_silenced() -> Iterator[None]:
    """File descriptor 2 sent to the null device for the block: C libraries under pygame (ALSA
    with no sound card) write their errors there directly, around Python's sys.stderr. The
    error pygame raises is kept (`SoundPlayer.reason`). Where fd 2 cannot be redirected, the
    block runs as it is."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):
        yield
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, 2)
        finally:
            os.close(null)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


class SoundPlayer:
    """Plays shots' sounds through pygame's mixer, or stays silent: `available` says whether a
    mixer could be opened (`reason` why not), `muted` whether the player muted it."""

    def __init__(self, enabled: bool = True) -> None:
        self.muted = False
        self.available = False
        self.reason = "sound is off"
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        self._result: ShotResult | None = None
        self._cues: Cues | None = None
        if enabled:
            self._open()

    def _open(self) -> None:
        try:
            if pygame.mixer.get_init() is None:
                with _c_stderr_silenced():  # ALSA prints a dozen lines where there is no card
                    pygame.mixer.init()
            pygame.mixer.set_num_channels(CHANNELS)
            self._sounds = {name: pygame.mixer.Sound(assets.sound_file(name))
                            for name in assets.SOUND_NAMES}
        except (pygame.error, OSError) as exc:  # no audio device, or no mixer in this pygame
            self.reason = f"no sound: {exc}"
            self._sounds = {}
            return
        self.available, self.reason = True, ""

    def toggle_mute(self) -> bool:
        """Mute or unmute; whether it is muted now."""
        self.muted = not self.muted
        if self.muted and self.available:
            try:
                pygame.mixer.stop()
            except pygame.error:
                pass
        return self.muted

    def cues_for(self, result: ShotResult) -> Cues:
        """The shot's sounds (computed once per shot)."""
        if result is not self._result or self._cues is None:
            self._result, self._cues = result, cues(result)
        return self._cues

    def play_between(self, result: ShotResult, t0: float, t1: float) -> list[tuple[str, float]]:
        """Play the sounds an animation step from t0 to t1 passes; what was played."""
        if self.muted or not self.available:
            return []
        played = []
        for name, v in self.cues_for(result).between(t0, t1):
            try:
                channel = pygame.mixer.find_channel()
                if channel is None:  # every channel is busy
                    break
                channel.set_volume(v)
                channel.play(self._sounds[name])
            except pygame.error:  # the device went away: stay silent from now on
                self.available, self.reason = False, "no sound: the audio device was lost"
                break
            played.append((name, v))
        return played
