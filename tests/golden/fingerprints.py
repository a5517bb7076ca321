"""Bit-for-bit fingerprints of the core: a fixed set of shots (the golden shots and seeded
random shots of every game) whose raw results, the bytes of every event, segment and rest
position, are hashed into fingerprints.json. tests/test_core_fingerprints.py compares, so a
change meant only to make the core faster (issue 16) is seen to leave every result identical
to the last bit. A deliberate physics change regenerates the file with

    python -m tests.golden.fingerprints

and says so in its commit. The hashes assume IEEE double arithmetic without fused
multiply-adds, which is what numba compiles without fastmath on x86-64, and inputs that round
alike on every host: no NumPy transcendental or general power (`x**4`) in what feeds the core,
since NumPy's SIMD code for those differs by host (tests/test_defaults_pinned.py, the pins).
Checked on an AMD EPYC (2026-12-03): numba's target CPU (NUMBA_CPU_NAME=generic) and NumPy's
SIMD level (NPY_DISABLE_CPU_FEATURES=X86_V3) change no hash; glibc's libm without its FMA
variants (GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA,-AVX, as on a CPU without FMA) changes
one, 14.1_random_1, since some transcendentals round differently there. So the hashes
hold on x86-64 hosts with FMA and AVX2 (every Xeon and EPYC of this project so far). They
hold across the installs pyproject.toml admits too: checked 2026-12-07 with its floors (numba
0.59.1, NumPy 1.26.4) and that day's releases (numba 0.68.1, NumPy 2.4.6), once the pin's
integrals were summed exactly rounded (NumPy's pairwise sum differs by version:
tests/test_defaults_pinned.py)."""

from __future__ import annotations

import hashlib
import json
import math
import sys
from pathlib import Path

import numpy as np

if __package__ in (None, ""):  # run as a script: make `tests` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from cuesim import CueShot, NovusShot, simulate, start_layout  # noqa: E402
from cuesim.api import game_table  # noqa: E402
from cuesim.sim.errors import SimulationError  # noqa: E402
from cuesim.sim.result import ShotResult  # noqa: E402
from tests.golden.shots import SHOTS  # noqa: E402

FILE = Path(__file__).resolve().parent / "fingerprints.json"
GAMES = ("novus", "novus-doubles", "9-ball", "8-ball", "14.1", "5-pins")
PER_GAME = 8


def random_shots(game: str, n: int, seed: int) -> list[NovusShot | CueShot]:
    """n seeded shots of a game from its opening layout: every aim, speeds from soft to hard,
    tip offsets and (pool, 5-pins) elevation."""
    rng = np.random.default_rng(seed)
    out: list[NovusShot | CueShot] = []
    for _ in range(n):
        angle = float(rng.uniform(0.0, 2.0 * math.pi))
        if game.startswith("novus"):
            out.append(NovusShot(x=float(rng.uniform(0.3, 0.7)), angle=float(rng.uniform(0.3, 2.8)),
                                 speed=float(rng.uniform(1.0, 9.0)),
                                 offset=float(rng.uniform(-0.01, 0.01))))
        else:
            out.append(CueShot(angle=angle, speed=float(rng.uniform(1.0, 9.0)),
                               side=float(rng.uniform(-0.4, 0.4)),
                               height=float(rng.uniform(-0.4, 0.4)),
                               elevation=float(rng.uniform(0.0, 0.3)),
                               **({"ball": "white"} if game == "5-pins" else {})))
    return out


def fingerprint(result: ShotResult) -> str:
    """SHA-256 of the raw bytes of the events, the segments and the final positions."""
    h = hashlib.sha256()
    for a in (result.events, result.segments, result.final_positions, result.final_on):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def all_fingerprints() -> dict[str, str]:
    out = {shot.name: fingerprint(shot.run()) for shot in SHOTS}
    for g, game in enumerate(GAMES):
        table = game_table(game)
        layout = start_layout(game, table)
        for k, shot in enumerate(random_shots(game, PER_GAME, 1000 + g)):
            try:
                out[f"{game}_random_{k}"] = fingerprint(simulate(table, layout, shot))
            except SimulationError as exc:  # a shot the game refuses: fingerprint the refusal
                out[f"{game}_random_{k}"] = "refused: " + str(exc)
    return out


def main() -> int:
    data = all_fingerprints()
    FILE.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {len(data)} fingerprints to {FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
