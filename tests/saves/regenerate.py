"""Write tests/saves/five_pins_over_fallen_pins.json from the current code:
`python -m tests.saves.regenerate` from the repository root.

A saved game is replayed through the physics, so a deliberate change of the physics can leave
this file unreplayable (a ball in hand placed where the new physics has a piece). This plays
seeded matches of random shots, two people, until one ends with knocked-down pins lying over
other pieces (the premise of tests/test_viewer_storm.py's fallen-pins test; the storm found the
first such match), and saves the first.
"""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `cuesim` and `tests` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from cuesim.api import game_table  # noqa: E402
from cuesim.shot import ShotError  # noqa: E402
from cuesim.tables.layout import LayoutError  # noqa: E402
from cuesim.viewer.session import Session, load_session, new_session  # noqa: E402

SAVE = Path(__file__).resolve().parent / "five_pins_over_fallen_pins.json"
MAX_ACTIONS = 400  # a match of random shots that has not ended by then is dropped


def random_match(seed: int) -> Session:
    """Two people playing random shots (any aim, 0.8-6 m/s, some english) to the match's end
    or MAX_ACTIONS; a choice (ball in hand or spotting, 13.x) is taken at random too."""
    rng = random.Random(seed)
    s = new_session("5-pins", ["Ann", "Bob"])
    for _ in range(MAX_ACTIONS):
        if s.over():
            break
        pending = s.pending()
        if pending:
            s.choose(rng.choice(pending[2]))
            continue
        pos = s.default_place() if s.placement() else s.struck_position()
        try:
            s.play(pos, rng.uniform(-math.pi, math.pi), rng.uniform(0.8, 6.0),
                   side=rng.choice([0.0, 0.0, rng.uniform(-0.4, 0.4)]),
                   height=rng.choice([0.0, rng.uniform(-0.4, 0.4)]))
        except (ShotError, LayoutError, ValueError):
            continue
    return s


def fallen_over_pieces(s: Session) -> bool:
    """The match is over and its layout overlaps, but only through its knocked-down pins."""
    if not (s.over() and s.fallen_pins()):
        return False
    table = game_table("5-pins")
    try:
        table.check_layout(s.layout())
        return False
    except LayoutError as exc:
        if "overlap" not in str(exc):
            return False
    try:
        table.check_layout(s.layout().without(s.fallen_pins()))
    except LayoutError:
        return False
    return True


def main() -> int:
    for seed in range(2000):
        s = random_match(seed)
        if fallen_over_pieces(s):
            s.save(SAVE)
            assert load_session(SAVE).layout() == s.layout()
            print(f"seed {seed}: {len(s.actions)} actions, wrote {SAVE}")
            return 0
    print("no match of seeds 0-1999 ended with fallen pins over other pieces")
    return 1


if __name__ == "__main__":
    sys.exit(main())
