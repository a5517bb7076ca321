"""Rewards from the referee's rulings.

`sparse`: +1 to the winner of the match and -1 to the loser when it ends (0 for a draw and
for every other shot).

`shaped`: for each shot, the shooter gains

    point * P  +  foul * (1 if the ruling is a foul)  +  win * (+1 won, -1 lost at the end)

with P the points the ruling gives the shooter less those it gives the others (14.1, 5-pins),
or else, on a legal shot, the pieces the shot pocketed (novus: the shooter's own pucks; pool:
every object ball). Default weights: point 1, foul -1, win 10. Against an opponent the
agent's reward for a step is its own gains less the opponent's in the shots of that step (a
zero-sum view); in self-play it is the gain of the player who acted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cuesim.rules.ruling import Ruling
from cuesim.sim.events import COL_A
from cuesim.sim.result import ShotResult

REWARDS = ("sparse", "shaped")


@dataclass(frozen=True)
class RewardWeights:
    """The weights of the shaped reward."""

    point: float = 1.0
    foul: float = -1.0
    win: float = 10.0


POINT_GAMES = ("14.1", "5-pins")  # games scored by points: P is the ruling's points alone


def _points(session: Any, shooter: str, ruling: Ruling, result: ShotResult | None) -> float:
    if ruling.points or session.game in POINT_GAMES:
        # a 14.1 shot whose called ball missed spots what it pocketed for no points (WPA
        # 6.8): the ruling's empty points are its worth, not the balls pocketed
        return float(ruling.points.get(shooter, 0)
                     - sum(v for k, v in ruling.points.items() if k != shooter))
    if result is None or not ruling.legal:
        return 0.0
    struck = result.events[0] if len(result.events) else None
    pocketed = [p for p in result.pocketed
                if struck is None or p != result.initial.pieces[int(struck[COL_A])].id]
    if session.game == "novus":
        colour = session.ref.colour_of(shooter)
        groups = {p.id: p.group for p in result.initial.pieces}
        return float(sum(1 for p in pocketed if groups.get(p) == colour))
    return float(len(pocketed))


def gain(kind: str, weights: RewardWeights, session: Any, shooter: str, ruling: Ruling,
         result: ShotResult | None, winner: str | None, over: bool) -> float:
    """What one shot (or choice) is worth to the player who made it."""
    end = 0.0
    if over and winner is not None:
        end = 1.0 if winner == shooter else -1.0
    if kind == "sparse":
        return end
    return (weights.point * _points(session, shooter, ruling, result)
            + weights.foul * (0.0 if ruling.legal else 1.0) + weights.win * end)
