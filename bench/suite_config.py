"""The suite's run configuration (bench/suite.py): how many shots of each scenario, how long
each is timed, how many passes, which baselines, and the scenarios a configuration selects."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from bench import scenarios as sc
from bench.suite_report import TARGETS


@dataclass
class Config:
    quick: bool
    counts: dict[str, int]
    box_ns: tuple[int, ...]
    box_pieces: tuple[str, ...] = ("puck", "ball")
    min_time: float = 0.02  # s of repeats per case
    min_repeats: int = 3  # however long the case (one preempted run must not decide)
    max_repeats: int = 21
    # passes over every scenario, each timing kept at its fastest pass: on a shared machine
    # whose speed changes for seconds at a time, one pass lets a slow spell decide a figure
    passes: int = 2
    pymunk_dts: tuple[float, ...] = (2e-3, 1e-3, 5e-4, 2.5e-4)
    pymunk_cases: int = 10
    pymunk_box_max_n: int = 256
    pooltool_cases: int = 10
    pooltool_budget_s: float = 120.0  # s for pooltool's cases in the first pass
    pooltool_repeats: int = 3
    startup_repeats: int = 5
    cold: bool = True
    # fresh processes on empty caches (with the helper; the median is the figure): one run
    # varies by 0.5 s here, as much as the cold compile misses or meets its 10 s by
    cold_repeats: int = 3
    memory: bool = True
    memory_subprocess: bool = True  # each scenario's memory in a fresh process (else here)
    # the openings' and breaks' multiple impacts timed alone (bench/impact_alone.py: a child
    # process records them), repeats of each; 0: not measured
    impact_repeats: int = 200
    # the Python around the core (bench/suite_python.py): env steps and viewer frames per
    # game, and a computer turn per 20 of them; 0: not measured
    python_repeats: int = 100
    only: tuple[str, ...] = field(default_factory=tuple)  # scenario names (tests, debugging)

    @staticmethod
    def make(quick: bool, passes: int | None = None) -> Config:
        """The full run, or --quick's (one pass unless `passes` says otherwise)."""
        if quick:
            cfg = Config(
                quick=True,
                counts={"novus-opening": 10, "novus-midgame": 20, "9-ball-break": 20,
                        "8-ball-break": 30, "two-ball-pot": 20, "five-pins": 20},
                box_ns=(16, 32, 64, 128, 256, 512), min_time=0.01, max_repeats=11, passes=1,
                pymunk_dts=(2e-3, 1e-3, 5e-4), pymunk_cases=5, pymunk_box_max_n=64,
                pooltool_cases=2, pooltool_budget_s=20.0, pooltool_repeats=1,
                startup_repeats=2, cold=False, memory_subprocess=False, impact_repeats=50,
                python_repeats=40)
        else:
            cfg = Config(
                quick=False,
                counts={"novus-opening": 100, "novus-midgame": 200, "9-ball-break": 100,
                        "8-ball-break": 1 + TARGETS["random_8ball_breaks"], "two-ball-pot": 200,
                        "five-pins": 200},
                box_ns=sc.BOX_NS)
        if passes is not None:
            cfg.passes = passes
        return cfg

    @staticmethod
    def tiny() -> Config:
        """The smallest run of every part of the machinery (tests)."""
        return Config(quick=True, counts={k: 2 for k in sc.BUILDERS}, box_ns=(16, 32),
                      min_time=0.0, min_repeats=1, max_repeats=1, passes=1, pymunk_dts=(2e-3,),
                      pymunk_cases=1, pymunk_box_max_n=16, pooltool_cases=1, pooltool_budget_s=5.0,
                      pooltool_repeats=1, startup_repeats=1, cold=False,
                      memory_subprocess=False, impact_repeats=0, python_repeats=0)


def build_scenarios(cfg: Config) -> list[sc.Scenario]:
    """The scenarios `cfg` selects, in the suite's order: the games, then the boxes."""
    out = []
    for name, builder in sc.BUILDERS.items():
        if not cfg.only or name in cfg.only:
            out.append(builder(cfg.counts[name]))
    for piece in cfg.box_pieces:
        for n in cfg.box_ns:
            name = f"box-{piece}-{n}"
            if not cfg.only or name in cfg.only:
                count = max(1, min(8, 1024 // n)) if not cfg.quick else 1
                out.append(sc.box(piece, n, count))
    return out


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)
