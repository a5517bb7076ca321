"""The computer's 8-ball and 9-ball opening break: a plan, chosen by practice.

A plan is where the cue ball goes behind the head string (WPA 3.8: in the middle, or about a
diamond off a side rail) and the tip's height (stun-draw to follow); the cue ball is struck
full into the apex ball at the level's break speed. Which plan breaks best depends on the
table, the rack and the player's own stroke (bench/README.md, ai_levels, "The break"), so the
computer practises, as a player warms up on a new table: before its first break on a table at
a level it plays the plans under its own execution error and scores each outcome as it scores
any shot (`search.score`: a frame won, the turn kept and the position it leaves, balls made, a
foul and ball in hand). The practice halves its way down (PRACTICE_ROUNDS): every plan plays
a first set of breaks, the best few play more, and the best of those by all their breaks is
kept for the rest of the process. Break k of the practice has the same error draws and side
for every plan, so plans differ by the plan alone; the practice draws from its own seeded
generators, so a game's choices are the same whether or not a plan was practised earlier in
the process.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from cuesim.viewer.ai.execution import perturb
from cuesim.viewer.ai.levels import Level
from cuesim.viewer.session import Session

# (breaks each plan still in plays, plans kept after them): 8 x 40 + 3 x 120 = 680 breaks,
# 0.5-1.3 s once per table and level here; a plan's mean over 160 breaks is known to about +-10
PRACTICE_ROUNDS: tuple[tuple[int, int], ...] = ((40, 3), (120, 1))
PRACTICE_SEED = 2026  # the practice's own generator: [PRACTICE_SEED, break number]
SIDE_OFFSET = 0.25  # "a diamond off a side rail": a quarter of the width from it


@dataclass(frozen=True)
class BreakPlan:
    """Where the cue ball goes (`spot`: 'middle' or 'side', the side rail picked per break)
    and the tip's height (a fraction of the radius, + follow, - draw)."""

    spot: str
    height: float

    def label(self) -> str:
        return f"{self.spot}, tip {self.height:+.2f} R"


# stun-draw to follow, from both spots; -0.1 from a random spot was the computer's only plan
# (it scratched on 12-16 % of its breaks at every level)
PLANS: tuple[BreakPlan, ...] = tuple(
    BreakPlan(spot, h) for spot in ("middle", "side") for h in (-0.1, 0.0, 0.1, 0.2))
DEFAULT_PLAN = BreakPlan("middle", 0.1)  # before any practice: the best of the strong level's

_PRACTISED: dict[tuple[Any, ...], BreakPlan] = {}


def practice_key(session: Session, level: Level) -> tuple[Any, ...]:
    """What a practised plan holds for: the game, the whole table (its geometry and its
    physics, the multiple impact's resolution among them: `cuesim play --impact-steps`), the
    cue (its end mass and top speed) and the stroke (execution error and break speed); not
    the search's size. A plan practised on another table or with another cue is practised
    again, so a game's choices never depend on what the process played before."""
    return (session.game, session.table, session.cue_end_mass(), session.max_speed,
            level.aim_sigma_deg, level.speed_sigma, level.tip_sigma, level.break_speed)


def practised(session: Session, level: Level) -> BreakPlan | None:
    """The plan practised for this session's table at this level, or None before practice."""
    return _PRACTISED.get(practice_key(session, level))


def remember(session: Session, level: Level, plan: int) -> BreakPlan:
    """Keep PLANS[plan] as the one practised for this table and level, and return it."""
    _PRACTISED[practice_key(session, level)] = PLANS[plan]
    return PLANS[plan]


def best(totals: list[float], plans: list[int], keep: int) -> list[int]:
    """The `keep` plans of `plans` whose practice breaks scored most in all (every one of them
    played the same breaks), the first of equals first."""
    return sorted(plans, key=lambda p: (-totals[p], p))[:keep]


def break_action(session: Session, level: Level, rng: np.random.Generator,
                 plan: BreakPlan | None = None) -> dict[str, Any]:
    """The opening break of `plan` (by default the practised one, else DEFAULT_PLAN): the cue
    ball behind the head string in the middle or a diamond off the side rail the rng picks,
    hit full into the apex ball at the level's break speed."""
    plan = plan or practised(session, level) or DEFAULT_PLAN
    left = bool(rng.integers(2))
    return plan_action(session, level, plan, left)


def practice_size() -> int:
    """The breaks a whole practice plays (PRACTICE_ROUNDS over PLANS)."""
    total, plans = 0, len(PLANS)
    for count, keep in PRACTICE_ROUNDS:
        total += count * plans
        plans = min(plans, keep)
    return total


def practice_round(session: Session, level: Level, plans: list[int], first: int,
                   count: int) -> list[tuple[int, dict[str, Any]]]:
    """Practice breaks first .. first + count - 1 of each plan in `plans`: (plan index, the
    break as the level's stroke plays it); break k has the same error draws and side for
    every plan."""
    out = []
    for p in plans:
        for k in range(first, first + count):
            aim = plan_action(session, level, PLANS[p], left=k % 2 == 0)
            rng = np.random.default_rng([PRACTICE_SEED, k])
            out.append((p, perturb(aim, level, rng, session.max_speed, session.tip_vertical)))
    return out


def plan_action(session: Session, level: Level, plan: BreakPlan, left: bool
                ) -> dict[str, Any]:
    """The break of `plan` as meant (no error): the cue ball a diameter behind the head string
    (WPA 3.8), in the middle or SIDE_OFFSET of the width off the left or right rail (the
    session's default place if that one is refused), aimed at the apex ball's centre."""
    table = session.table
    w = table.geometry.width
    y = table.head_string_y - 2.0 * session.radius()
    x = w / 2
    if plan.spot == "side":
        x = SIDE_OFFSET * w if left else (1.0 - SIDE_OFFSET) * w
    if session.check_place(x, y) is not None:
        x, y = session.default_place()
    balls = [p for p in session.layout().pieces if p.id != session.struck_id()]
    apex = min(balls, key=lambda p: p.y) if balls else None
    angle = math.pi / 2 if apex is None else math.atan2(apex.y - y, apex.x - x)
    speed = min(level.break_speed, session.max_speed)
    return session.shot_action((x, y), angle, speed, 0.0, plan.height)
