"""The Python around the core, as people meet it, timed in the suite's run (`cuesim bench`):
a Gymnasium env step against itself (bench/env_steps.py), the viewer's frame at rest with the
aim line (bench/viewer_frames.py) and the computer's turn (bench/computer_turn.py).

These have no targets: they are figures to compare between runs, beside the core's, so that a
slow Python path shows in the run that is made anyway. Two did go unseen for a day: the novus
env's default place (9x fewer steps a second) and the first-contact label (a frame at rest
4x slower), both found on 2026-12-04 by running their own benchmarks."""

from __future__ import annotations

import os
import statistics
from typing import Any

ENV_GAMES = ("novus", "9-ball")
FRAME_GAMES = ("novus-doubles", "8-ball")
TURN_GAMES = ("novus", "9-ball")


def measure(repeats: int) -> dict[str, Any]:
    """Env steps a second (`repeats` steps of one CueEnv per game), the median viewer frame at
    rest (`repeats` frames per game) and the computer's best turn (club level, `repeats` // 20
    turns, at least 1). A part that cannot run here (gymnasium not installed) says why."""
    out: dict[str, Any] = {}
    for name, part in (("env_steps_per_s", _env_steps), ("frame_ms", _frames),
                       ("turn_ms", _turns)):
        try:
            out[name] = part(repeats)
        except ImportError as exc:  # an optional extra (gymnasium): never stops the suite
            out[name] = {"error": f"{type(exc).__name__}: {exc}"}
    return out


def _env_steps(repeats: int) -> dict[str, float]:
    from bench.env_steps import _kwargs, one_env

    return {game: one_env(game, _kwargs(game, "self", 16), repeats, seed=0)
            for game in ENV_GAMES}


def _frames(repeats: int) -> dict[str, float]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from bench.viewer_frames import frame_times, opening_app

    out = {}
    for game in FRAME_GAMES:
        app = opening_app(game)
        out[game] = statistics.median(frame_times(app, repeats, animate=False))
    return out


def _turns(repeats: int) -> dict[str, float]:
    from bench.computer_turn import time_turns

    return {game: time_turns(game, "club", max(1, repeats // 20))["best_ms"]
            for game in TURN_GAMES}


def report_lines(python: dict[str, Any] | None) -> list[str]:
    """The report's section for `measure`'s figures ([] when the run skipped them)."""
    if not python:
        return []
    lines = ["", "the Python around the core (no targets: figures to compare between runs; "
                 "bench/env_steps.py,\n  viewer_frames.py and computer_turn.py measure them "
                 "fully)"]
    parts = (("env_steps_per_s", "env steps/s, one CueEnv against itself", "{:.0f}"),
             ("frame_ms", "viewer frame at rest with the aim line, median", "{:.2f} ms"),
             ("turn_ms", "the computer's turn, club level, best", "{:.0f} ms"))
    for key, label, fmt in parts:
        figures = python.get(key) or {}
        if not figures:
            continue
        if "error" in figures:
            lines.append(f"  {label}: not measured: {figures['error']}")
        else:
            lines.append(f"  {label}: " + ", ".join(f"{game} {fmt.format(value)}"
                                                    for game, value in figures.items()))
    return lines
