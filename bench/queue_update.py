"""Benchmark: the event queue's two mends, the early stop against the whole path.

    python bench/queue_update.py [--updates N]

`sim.queue.update` stops at the first node whose winner stays the same object (other than the
one changed); `sim.queue.update_path` recomputes every node up to the root, a fixed number of
levels with no data-dependent exit. The loop mends its event queue with the whole path and its
crossings queue with the early stop, each the faster there on whole box shots (bench/README.md,
"The event queue mends the whole path"). Both run here in one process, compiled, alternating,
on the same sequence of changes: a random object's time set to the current time plus an
exponential wait, the current time advancing as events do. Prints ns per update, best of 5
rounds, for 64, 256 and 1,024 objects. Both end with the same tree (checked).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from numba import njit  # noqa: E402

from cuesim.sim.queue import build, tree_length, update, update_path  # noqa: E402


@njit
def drive(early: bool, tree: np.ndarray, vals: np.ndarray, idx: np.ndarray,
          new: np.ndarray) -> int:
    total = 0
    for m in range(idx.shape[0]):
        i = idx[m]
        vals[i] = new[m]
        if early:
            update(tree, vals, i)
        else:
            update_path(tree, vals, i)
        total += tree[1]
    return total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--updates", type=int, default=2_000_000, help="changes per round")
    args = ap.parse_args(argv)
    if args.updates < 1:
        ap.error("--updates: expected a positive count")
    print(f"{'objects':>8} {'update_path ns':>15} {'update ns':>10} {'path/early':>11}")
    for n in (64, 256, 1024):
        rng = np.random.default_rng(1)
        idx = rng.integers(0, n, args.updates)
        now = np.cumsum(rng.exponential(1.0 / n, args.updates))
        new = now + rng.exponential(1.0, args.updates)
        best = {False: np.inf, True: np.inf}
        trees = {}
        for _ in range(5):
            for early in (False, True):
                vals = np.full(n, np.inf)
                tree = np.full(tree_length(n, False), -1, np.int64)
                build(tree, vals)
                t0 = time.perf_counter()
                drive(early, tree, vals, idx, new)
                best[early] = min(best[early], (time.perf_counter() - t0) / args.updates * 1e9)
                trees[early] = tree
        assert trees[False].tolist() == trees[True].tolist()
        print(f"{n:>8} {best[False]:>15.1f} {best[True]:>10.1f} "
              f"{best[False] / best[True]:>10.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
