"""Write tests/golden/golden_shots.json from the current code: `python -m tests.golden.regenerate`
(or `python tests/golden/regenerate.py`) from the repository root.

Run it only after a deliberate change to the physics, and review the diff of the JSON file: it
shows which golden shots moved (rest positions, pocketed balls, event counts) and by how much.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `tests` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.golden.shots import SHOTS, outcome  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "golden_shots.json"


def dumps(data: dict) -> str:
    """JSON with one line per field and per resting piece (a readable diff)."""
    shots = []
    for name, d in data.items():
        fields = [f'  "{k}": {json.dumps(v)}' for k, v in d.items() if k != "rest"]
        rest = [f'   "{pid}": {json.dumps(xy)}' for pid, xy in d["rest"].items()]
        fields.append('  "rest": {\n' + ",\n".join(rest) + "\n  }")
        shots.append(f' "{name}": {{\n' + ",\n".join(fields) + "\n }")
    return "{\n" + ",\n".join(shots) + "\n}\n"


def main() -> int:
    data = {shot.name: {"game": shot.game, **outcome(shot.run())} for shot in SHOTS}
    text = dumps(data)
    assert json.loads(text) == data
    GOLDEN.write_text(text)
    for name, d in data.items():
        print(f"{name}: {d['n_events']} events, pocketed {d['pocketed']}")
    print(f"wrote {GOLDEN}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
