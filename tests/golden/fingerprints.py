"""Bit-for-bit fingerprints of the core: a fixed set of shots (the golden shots and seeded
random shots of every game) whose raw results, the bytes of every event, segment and rest
position, are hashed into fingerprints.json. tests/test_core_fingerprints.py compares, so a
change meant only to make the core faster (issue 16) is seen to leave every result identical
to the last bit. A deliberate physics change regenerates the file with

    python -m tests.golden.fingerprints

and says so in its commit. The hashes assume IEEE double arithmetic without fused
multiply-adds, which is what numba compiles without fastmath on x86-64.

Some shots differ in the last bits from one host to another (2026-12-03: one 5-pins shot that
knocks two pins, on an AMD EPYC whose virtual CPU hides AVX-512, against the Intel Xeon that
recorded the file; numba's target CPU, NumPy's SIMD level and glibc's libm variants were each
ruled out on that host, so the cause is not known). fingerprints_hosts.json keeps each such
shot's hash on each such host, with the host named; a shot passes when it gives the stored
hash or one of those. A core change alters a shot's hash on every host, so it still fails. On
a new host whose results differ,

    python -m tests.golden.fingerprints --host "what the host is"

records its differing hashes there (after checking that nothing changed on the recording
host); regenerating the file empties it, since a physics change makes the variants stale."""

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
HOSTS_FILE = Path(__file__).resolve().parent / "fingerprints_hosts.json"
HOSTS_ABOUT = ("Hashes of shots that differ in the last bits on other hosts: shot name -> "
               "{hash: the host}; see tests/golden/fingerprints.py")
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


def host_variants() -> dict[str, dict[str, str]]:
    """The recorded per-host hashes (fingerprints_hosts.json), without its "_about" entry."""
    data = json.loads(HOSTS_FILE.read_text()) if HOSTS_FILE.exists() else {}
    return {k: v for k, v in data.items() if not k.startswith("_")}


def changed_shots(got: dict[str, str], want: dict[str, str]) -> list[str]:
    """The shots whose hash is neither the stored one nor one recorded for another host."""
    hosts = host_variants()
    return [name for name in want
            if got[name] != want[name] and got[name] not in hosts.get(name, {})]


def _write_hosts(variants: dict[str, dict[str, str]]) -> None:
    HOSTS_FILE.write_text(json.dumps({"_about": HOSTS_ABOUT, **variants}, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    data = all_fingerprints()
    if args[:1] == ["--host"] and len(args) == 2:
        want = json.loads(FILE.read_text())
        variants = host_variants()
        new = {n: got for n, got in data.items() if got != want.get(n)
               and got not in variants.get(n, {})}
        for name, got in new.items():
            variants.setdefault(name, {})[got] = args[1]
        _write_hosts(variants)
        print(f"recorded {len(new)} hashes of this host ({args[1]}) in {HOSTS_FILE}: "
              f"{sorted(new)}")
        return 0
    if args:
        print("usage: python -m tests.golden.fingerprints [--host 'what the host is']",
              file=sys.stderr)
        return 2
    FILE.write_text(json.dumps(data, indent=1) + "\n")
    _write_hosts({})
    print(f"wrote {len(data)} fingerprints to {FILE}; emptied {HOSTS_FILE.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
