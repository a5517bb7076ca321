"""The core's round-off floors are not physics: U_ROLL (a contact-point slip this small is
rolling), EXTENT_TOL (a contact point this far past a rail segment's end still lies on it),
V_OPEN and V_ROUND (an open contact closing slower than these fractions of the impact's fastest
approach and of the fastest piece's speed no longer keeps a multiple impact going) and the
detection tolerances TOUCH, V_TOUCH and SIMULTANEOUS, the rounding spares of the culls'
boxes (BOX_SPARE, CULL_SPARE), and the floors of a hole's graze (GRAZE) and of a contact's
press (PRESS_SHARE), x10 and /10, leave pool and novus shots where they were. The
core runs interpreted (NUMBA_DISABLE_JIT) in a subprocess, so the constants can be changed
without recompiling; x1e8 does change the shots, which shows the change reaches the core.
(tests/test_pins_impact.py does the same for 5-pins.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.scaled_constants import REPO, same_outcomes

PROBE = """
import json, math, sys, warnings
warnings.simplefilter('ignore')
from cuesim import (CueShot, NovusShot, novus_doubles_layout, novus_singles_layout,
                    novus_table, simulate)
from cuesim.tables import cue_ball_in_kitchen, nine_ball_rack, pool_table
from cuesim.tables.layout import Layout, Piece
from tests.scaled_constants import scaler
scale = scaler(("U_ROLL", "EXTENT_TOL", "V_OPEN", "V_ROUND", "TOUCH", "V_TOUCH",
                "SIMULTANEOUS", "BOX_SPARE", "CULL_SPARE", "GRAZE", "PRESS_SHARE"))
table = pool_table()
w, h = table.width, table.length
shots = [  # draw, follow and side into an object ball, a ball along a rail, a 9-ball break
    (Layout(table.name, (Piece("cue", "ball", w / 2, 0.5, "cue"),
                         Piece("1", "ball", w / 2, 1.2, "ball"))),
     CueShot(angle=math.pi / 2, speed=3.0, height=-0.4)),
    (Layout(table.name, (Piece("cue", "ball", 0.3, 0.4, "cue"),
                         Piece("1", "ball", 0.6, 1.3, "ball"))),
     CueShot(angle=math.atan2(0.9, 0.3), speed=4.0, height=0.35, side=0.2)),
    (Layout(table.name, (Piece("cue", "ball", 0.05, 0.3, "cue"),)),
     CueShot(angle=math.pi / 2 + 0.01, speed=2.5, side=-0.3)),
    (nine_ball_rack(table, cue=cue_ball_in_kitchen(table)),
     CueShot(angle=math.pi / 2 + 0.002, speed=7.0)),
]
novus = novus_table()
novus_shots = [  # the openings into rows of touching pucks, a shot among scattered pucks
    (novus_doubles_layout(novus), NovusShot(x=0.5, angle=math.pi / 2, speed=6.0)),
    (novus_singles_layout(novus), NovusShot(x=0.4, angle=math.pi / 2 + 0.1, speed=4.0)),
    (Layout("novus", (Piece("a", "puck", 0.5, 0.5, "red"), Piece("b", "puck", 0.53, 0.5, "red"),
                      Piece("c", "puck", 0.3, 0.8, "black"))),
     NovusShot(x=0.5, angle=math.pi / 2 + 0.02, speed=3.0)),
    # the striker drives red5 into the rail from the row of touching pucks along it; red5
    # leaves the rail sliding past red4, whose row comes to rest: with TOUCH x10 the row's
    # last impact saw red5 and joined it to the row, which took red5's 17.8 mm as 0.71 mm each
    # (resolve.press parting_for_good; found by a random hunt of these constants)
    (novus_singles_layout(novus),
     NovusShot(x=0.47666947301820484, angle=1.5252202964325317, speed=1.6808667930380152,
               offset=-0.005488817052095998)),
]
out = {}
for factor in (1.0, 10.0, 0.1, 1e8):
    scale(factor)
    rows = []
    for tab, lay, shot in [(table, *x) for x in shots] + [(novus, *x) for x in novus_shots]:
        res = simulate(tab, lay, shot)
        if res.truncated:  # x1e8 can run a shot to the event limit: no final layout
            rows.append({"kinds": ["truncated"], "final": []})
            continue
        rows.append({"kinds": [int(e.kind) for e in res.event_log()],
                     "final": [[p.id, p.x, p.y] for p in res.final.pieces]})
    out[str(factor)] = rows
print(json.dumps(out))
"""


def test_the_cores_floors_change_nothing_visible_x10_either_way():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    run = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                         text=True, check=True, cwd=REPO)
    rows = json.loads(run.stdout.strip().splitlines()[-1])
    assert all(r["kinds"] and r["kinds"] != ["truncated"] for r in rows["1.0"])
    assert same_outcomes(rows["10.0"], rows["1.0"]) and same_outcomes(rows["0.1"], rows["1.0"])
    assert not same_outcomes(rows["100000000.0"], rows["1.0"])
