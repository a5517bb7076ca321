"""Execution error: the shot a player means to play and the shot the stroke delivers differ in
direction, speed and tip offsets, by independent Gaussian draws of the level's sizes
(`levels.py`, with their sources). The struck piece's placement (ball in hand, the novus
striker) is put down by hand and taken as exact."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from cuesim.viewer.ai.levels import Level

BALL_TIP_LIMIT = 0.5  # |tip| <= 0.5 R for balls: the viewer's miscue limit (App.set_tip)
DISC_TIP_LIMIT = 0.9  # the novus striker's side offset limit, a fraction of its radius
MIN_SPEED = 0.05  # m/s: a stroke never delivers less (a stroke, not a touch)


def clip_tip(side: float, height: float, vertical: bool) -> tuple[float, float]:
    """The tip offsets kept inside the miscue limit, as the viewer's widget keeps them."""
    if not vertical:
        return max(-DISC_TIP_LIMIT, min(DISC_TIP_LIMIT, side)), 0.0
    n = math.hypot(side, height)
    if n > BALL_TIP_LIMIT:
        side, height = side * BALL_TIP_LIMIT / n, height * BALL_TIP_LIMIT / n
    return side, height


def perturb(action: dict[str, Any], level: Level, rng: np.random.Generator,
            max_speed: float, vertical: bool = True) -> dict[str, Any]:
    """A copy of a shot action as the level's stroke delivers it: the direction, the speed
    (relative error, kept in [MIN_SPEED, max_speed]) and the tip offsets drawn around the
    intended ones; four normal draws from `rng` in a fixed order, so a seeded game repeats."""
    da, ds, dx, dy = rng.standard_normal(4)
    out = dict(action)
    out["angle"] = float(action["angle"] + level.aim_sigma * da)
    speed = float(action["speed"]) * (1.0 + level.speed_sigma * ds)
    out["speed"] = float(min(max_speed, max(MIN_SPEED, speed)))
    side = float(action.get("side", 0.0)) + level.tip_sigma * dx
    height = float(action.get("height", 0.0)) + (level.tip_sigma * dy if vertical else 0.0)
    out["side"], out["height"] = (float(v) for v in clip_tip(side, height, vertical))
    return out
