"""The computer player's levels: how precisely it executes a shot and how widely it searches.

Execution error (every shot the computer plays; independent Gaussian draws from a seeded RNG):

| level    | aim σ  | speed σ    | tip σ     | break speed | candidates | finalists × samples |
|----------|--------|------------|-----------|-------------|------------|---------------------|
| beginner | 0.50°  | 12 % of v  | 0.072 R   | 7.0 m/s     | 60         | 3 × 3               |
| club     | 0.20°  | 6 % of v   | 0.036 R   | 9.0 m/s     | 150        | 6 × 6               |
| strong   | 0.08°  | 3 % of v   | 0.018 R   | 10.5 m/s    | 300        | 10 × 8              |

Sources and reasoning, figure by figure:

- **Aim.** The margin of a pot shrinks with the product of the two distances (Alciatore, "TP
  3.4: Margin of error based on distance and cut angle", billiards.colostate.edu/technical_proofs
  and the FAQ "cut/margin-for-error"): the cue-ball direction may be off by about
  w·2R/(d1·d2), w the pocket's half-margin for the object ball's centre. For a straight-in
  shot with 0.9 m cue ball to object ball and 0.9 m to a corner pocket (w ≈ 28 mm on a WPA
  4.5 in corner, R = 28.6 mm) that is ±0.11°. A strong player makes that shot most of the
  time, a club player about every other time, a beginner now and then; with the aim σ above
  alone the model makes it 84 %, 43 % and 18 % of the time (Gaussian, |e| < 0.11°); the tip
  error adds its squirt (about 0.08° at the strong level's 0.018 R, `cuesim.sim.cue`), and
  `bench/ai_levels.py` measures the whole through the simulator, whose corner accepts a
  little more (bench/README.md). For scale: the noise model of the
  ICGA computational-pool tournaments (Archibald, Altman & Shoham, "Analysis of a winning
  computational billiards player", IJCAI 2009; Leckie & Greenspan, ICGA Journal 2006) draws
  the cue direction with σ = 0.125°, the cue speed with σ = 0.075 m/s and the tip offsets with
  σ = 0.5 mm; our strong level is a little tighter in aim, the club and beginner levels
  looser, inside the 0.1-0.5° span the issue asks for.
- **Speed.** Relative, since people misjudge a soft shot by less in m/s than a hard one. The
  strong level's 3 % is the ICGA σ of 0.075 m/s at a typical 2.5 m/s pot; no published
  amateur figure was found, so club and beginner double and quadruple it.
- **Tip.** As a fraction of the ball radius R: the strong level the ICGA's 0.5 mm (0.018 R),
  club and beginner double and quadruple it as for the speed (1.0 and 2.1 mm). A side error
  also sends the ball off the line by its squirt (2° at half a tip), so the tip error adds to
  the aim's: the earlier 0.03 / 0.08 / 0.15 R, set before the cue strike had squirt, brought the
  strong level's make rate on the reference shot down from 97 % to 76 %.
  The error never takes the tip past the miscue limit the widget keeps (0.5 R for balls,
  0.9 of the striker's radius in novus).
- **Break speed.** Alciatore's FAQ "break/speed" (billiards.colostate.edu/faq/break/speed/):
  a good amateur's break is about 20 mph (8.9 m/s), a very powerful one approaches 30 mph;
  the viewer's cue tops out at 11 m/s (`PoolSession.max_speed`). The 8-ball and 9-ball break
  is played from a plan (the cue ball's spot, the tip's height), the one that scored best when
  the computer practised them all under its own error (`breaks`), not found by search.
- **Search.** `candidates` shots are simulated once as aimed; the best `finalists` of them
  are simulated `samples` times more, each with this level's execution error, and the one with
  the best mean outcome is played, so a shot that works only when hit exactly (a needle) loses
  to one that works under the level's own error.

The same figures apply in novus (the striker is flicked, not cued: no published precision, so
the cue figures are used as they are) and in 5-pins.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """One level of the computer player (see the module docstring for each figure's source)."""

    name: str
    aim_sigma_deg: float  # standard deviation of the direction error, degrees
    speed_sigma: float  # standard deviation of the speed error, a fraction of the speed
    tip_sigma: float  # standard deviation of each tip offset error, a fraction of the radius
    break_speed: float  # m/s, the 8-ball and 9-ball break
    candidates: int  # shots simulated once as aimed
    finalists: int  # of those, simulated again under execution error
    samples: int  # perturbed simulations per finalist

    @property
    def aim_sigma(self) -> float:
        """The direction error's standard deviation in radians."""
        return math.radians(self.aim_sigma_deg)

    def with_search(self, candidates: int | None = None, finalists: int | None = None,
                    samples: int | None = None) -> Level:
        """The same execution error with another search size (the bench and the tests use
        small searches)."""
        return Level(self.name, self.aim_sigma_deg, self.speed_sigma, self.tip_sigma,
                     self.break_speed,
                     self.candidates if candidates is None else max(1, int(candidates)),
                     self.finalists if finalists is None else max(1, int(finalists)),
                     self.samples if samples is None else max(1, int(samples)))


LEVELS: dict[str, Level] = {
    "beginner": Level("beginner", 0.50, 0.12, 0.072, 7.0, 60, 3, 3),
    "club": Level("club", 0.20, 0.06, 0.036, 9.0, 150, 6, 6),
    "strong": Level("strong", 0.08, 0.03, 0.018, 10.5, 300, 10, 8),
}
DEFAULT_LEVEL = "club"


def get_level(level: str | Level) -> Level:
    """A level by name (beginner, club, strong) or a Level as it is; ValueError otherwise."""
    if isinstance(level, Level):
        return level
    try:
        return LEVELS[level]
    except (KeyError, TypeError):
        raise ValueError(f"unknown computer level {level!r}; levels are "
                         f"{', '.join(LEVELS)}") from None
