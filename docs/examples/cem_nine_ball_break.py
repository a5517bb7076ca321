"""The cross-entropy method learns a 9-ball break in the refereed environment.

A break is good when the referee finds it legal (no scratch, enough balls to the rails: WPA
5.4) and it pockets at least one ball, so the breaker keeps the table. The policy is a
Gaussian over the normalised action of `cuesim/NineBall-v0` (aim, speed, tip side and height,
the cue ball's place behind the head string); each break is played with a little stroke noise
(the same hand never hits exactly the same shot twice), and the method keeps the best fifth of
each population to refit the Gaussian, starting from a hit on the apex ball with everything
else left wide open. It prints the rate of good breaks of a random policy
and of the learned one.

    python docs/examples/cem_nine_ball_break.py            # about ten seconds on a laptop
    python docs/examples/cem_nine_ball_break.py --quick    # seconds (the test suite runs this)
"""

from __future__ import annotations

import argparse

import numpy as np

from cuesim.env import CueEnv

STROKE_NOISE = 0.002  # of each normalised action component (aim: 0.36 degrees)


def good_break(env: CueEnv, action: np.ndarray, rng: np.random.Generator) -> bool:
    """Play one break with stroke noise; True when it was legal and pocketed a ball."""
    env.reset(seed=int(rng.integers(2**31 - 1)))
    noisy = np.clip(action + rng.normal(0.0, STROKE_NOISE, action.shape), -1.0, 1.0)
    _, _, _, _, info = env.step(noisy.astype(np.float32))
    shot = info["shots"][0]
    return bool(shot["legal"] and [b for b in shot["pocketed"] if b != "cue"])


def rate(env: CueEnv, actions: np.ndarray, rng: np.random.Generator) -> float:
    return float(np.mean([good_break(env, a, rng) for a in actions]))


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a small run (seconds)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    iterations, population, tests = (4, 16, 24) if args.quick else (12, 60, 200)
    rng = np.random.default_rng(args.seed)
    env = CueEnv("9-ball", opponent="self", agent_first=True)
    n = env.action_space.shape[0]

    before = rate(env, rng.uniform(-1.0, 1.0, (tests, n)), rng)
    # start at the apex ball (aim 0 from the middle of the kitchen), every other part wide open
    mean, std = np.zeros(n), np.array([0.01, 0.6, 0.6, 0.6, 0.05, 0.6])
    elite = max(2, population // 5)
    for k in range(iterations):
        actions = np.clip(rng.normal(mean, std, (population, n)), -1.0, 1.0)
        scores = np.array([good_break(env, a, rng) + good_break(env, a, rng) for a in actions])
        best = actions[np.argsort(-scores, kind="stable")[:elite]]
        mean, std = best.mean(axis=0), np.maximum(best.std(axis=0), 0.003)
        print(f"iteration {k + 1}: {scores.mean() / 2:.0%} good breaks in the population")
    after = rate(env, np.clip(rng.normal(mean, std, (tests, n)), -1.0, 1.0), rng)
    print(f"good breaks (legal, a ball pocketed): random policy {before:.0%}, "
          f"learned policy {after:.0%}")
    print(f"learned mean action: {np.round(mean, 2).tolist()}")
    return {"before": before, "after": after}


if __name__ == "__main__":
    main()
