"""Benchmark: how far knocked 5-pins pins travel, and how often a touched pin stays standing.

    python bench/pins.py [--shots N] [--seed S] [--json FILE]

Random 5-pins shots (`cuesim.tables.carom`): the opening position with the breaker's white
in the bottom half up to y = 1.25 m (five_pins_layout), aimed at the centre pin with up to +-3
degrees of error, cue speed 0.5-6 m/s, tip offsets up to 0.35 ball radius each way. For every
pin touched (the physics of `cuesim.sim.resolve.pin`) it reports whether it was felled (a `pin`
event) or left standing (a `collide` event with it and no `pin` event), and for the felled ones
the distance from its mark to where it came to rest (the travel): median, 90th percentile and
maximum. Figures of the model, not measurements of real pins.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time

import cuesim
from cuesim.commands import output_file, positive_int
from cuesim.sim.events import EventKind
from cuesim.tables.carom import carom_table, five_pins_layout, pin_spots


def run(shots: int, seed: int) -> dict:
    table = carom_table()
    rng = random.Random(seed)
    marks = pin_spots()
    cx, cy = marks["pin_centre"]
    travels: list[float] = []
    felled = standing = moved = by_pins = 0
    t0 = time.perf_counter()
    for _ in range(shots):
        x = rng.uniform(0.1, 1.32)
        y = rng.uniform(0.1, 1.25)  # clear of the bottom pin (1.354 m)
        layout = five_pins_layout(table, breaker_xy=(x, y))
        aim = math.atan2(cy - y, cx - x) + math.radians(rng.uniform(-3.0, 3.0))
        shot = cuesim.CueShot(ball="white", angle=aim, speed=rng.uniform(0.5, 6.0),
                              side=rng.uniform(-0.35, 0.35), height=rng.uniform(-0.35, 0.35))
        res = cuesim.simulate(table, layout, shot)
        log = res.event_log()
        down = {e.b for e in log if e.kind == EventKind.PIN}
        by_pins += sum(1 for e in log if e.kind == EventKind.PIN and e.a in marks)
        touched = {e.b for e in log if e.kind == EventKind.COLLIDE and e.b in marks} - down
        final = {p.id: p for p in res.final.pieces}
        for pid in down:
            mx, my = marks[pid]
            travels.append(math.hypot(final[pid].x - mx, final[pid].y - my))
        felled += len(down)
        standing += len(touched)
        moved += sum(1 for pid in touched if (final[pid].x, final[pid].y) != marks[pid])
    elapsed = time.perf_counter() - t0
    travels.sort()
    q = statistics.quantiles(travels, n=10) if len(travels) > 1 else [float("nan")] * 9
    return {
        "shots": shots, "seed": seed, "felled": felled, "felled_by_thrown_pins": by_pins,
        "touched_standing": standing, "touched_standing_moved": moved,
        "travel_median_m": statistics.median(travels) if travels else float("nan"),
        "travel_p90_m": q[8], "travel_max_m": travels[-1] if travels else float("nan"),
        "seconds": elapsed,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", type=positive_int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=output_file, help="write the figures to this file")
    args = ap.parse_args(argv)
    out = run(args.shots, args.seed)
    print(f"{out['shots']} random 5-pins shots through the pins (seed {out['seed']}):")
    print(f"  pins felled {out['felled']} ({out['felled_by_thrown_pins']} by thrown pins, "
          f"12.3); touched but left standing {out['touched_standing']} "
          f"(base slipped: {out['touched_standing_moved']})")
    print(f"  travel of felled pins: median {out['travel_median_m']:.3f} m, 90th percentile "
          f"{out['travel_p90_m']:.3f} m, max {out['travel_max_m']:.3f} m")
    print(f"  {out['seconds']:.2f} s")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
