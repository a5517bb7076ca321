"""The computer player's levels against each other (issue 14): whole refereed games of novus,
8-ball, 9-ball, 14.1 and 5-pins between two computer players of adjacent levels, with wins,
fouls, scratches (the cue ball or the striker pocketed), balls (pucks, points in 5-pins) per
inning, the share of novus pocketing shots that are rigid trains; the 9-ball break's
money-ball rate per level; each level's make rate on a reference straight-in shot; and the
viewer's frame times while the computer thinks.

    python bench/ai_levels.py                       # the documented run (see bench/README.md)
    python bench/ai_levels.py --games 4 --jobs 1    # a quick look
    python bench/ai_levels.py --json out.json
    python bench/ai_levels.py --markdown out.json   # its tables in Markdown

Settings (each a flag): 100 games per pairing and discipline, pairings beginner:club and
club:strong, the players' search reduced for speed to candidates/finalists/samples of
20/2/2 (beginner), 40/3/3 (club), 60/4/4 (strong) — the levels keep their own execution
error and their order of search sizes; 14.1 to 10 points, 5-pins to 25 points, novus one set,
8-ball and 9-ball one game; a game stopped after 300 shots counts as unfinished. The seat
that breaks or opens alternates between the levels game by game.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from cuesim.api import game_table, simulate  # noqa: E402
from cuesim.commands import output_file, positive_int, whole_number  # noqa: E402
from cuesim.shot import CueShot  # noqa: E402
from cuesim.sim.events import EventKind  # noqa: E402
from cuesim.sim.result import ShotResult  # noqa: E402
from cuesim.tables.layout import Layout, Piece  # noqa: E402
from cuesim.viewer import ai  # noqa: E402
from cuesim.viewer.ai import breaks  # noqa: E402
from cuesim.viewer.ai.search import FAILS  # noqa: E402
from cuesim.viewer.session import Session, new_session  # noqa: E402

DISCIPLINES = ("novus", "8-ball", "9-ball", "14.1", "5-pins")
PAIRINGS = ("beginner:club", "club:strong")
BENCH_SEARCH = {"beginner": (20, 2, 2), "club": (40, 3, 3), "strong": (60, 4, 4)}
OPTIONS = {"14.1": {"points_to": 10}, "5-pins": {"points_to": 25}, "novus": {"sets": 1},
           "8-ball": {"race_to": 1}, "9-ball": {"race_to": 1}}
MAX_SHOTS = 300
MAX_REFUSED = 3  # refused shots in a row before a game is given up as stuck
TRAIN_GAP = 1e-3  # m: pucks this close count as touching
TRAIN_SPEED = 0.1  # relative velocity difference below which touching pucks move as one
TRAIN_DT = 2e-3  # s: the velocities are read this long (and twice as long) before the drop
# reference straight-in shot (levels.py): cue ball 0.9 m from the object ball, which lies 0.9 m
# from a corner pocket's capture centre along the pocket's diagonal
REF_D1, REF_D2, REF_SPEED = 0.9, 0.9, 2.0


def bench_level(name: str, search: dict[str, tuple[int, int, int]]) -> ai.Level:
    c, f, s = search[name]
    return ai.get_level(name).with_search(c, f, s)


@dataclass
class Tally:
    """One level's figures in one discipline."""

    games: int = 0
    wins: int = 0
    unfinished: int = 0
    shots: int = 0
    fouls: int = 0
    scratches: int = 0  # the struck piece (cue ball, striker) pocketed, breaks included
    innings: int = 0
    made: int = 0  # own object pieces pocketed (5-pins: points scored)
    pocketing_shots: int = 0  # novus: shots that pocketed a puck of either colour
    train_shots: int = 0
    breaks: int = 0
    money_on_break: int = 0

    def add(self, other: Tally) -> None:
        for k in self.__dataclass_fields__:
            setattr(self, k, getattr(self, k) + getattr(other, k))


def is_train(result: ShotResult, table: Any, piece: str) -> bool:
    """The pocketed piece moved as one with a touching piece just before it dropped (same
    velocity within TRAIN_SPEED of its speed, gap under TRAIN_GAP)."""
    drop = next((e.t for e in result.events_of(EventKind.POCKET) if e.a == piece), None)
    if drop is None or drop < 2 * TRAIN_DT:
        return False
    ids = result.initial.ids()
    p1, on1 = result.positions_at(drop - 2 * TRAIN_DT)
    p2, on2 = result.positions_at(drop - TRAIN_DT)
    v = (p2 - p1) / TRAIN_DT
    i = ids.index(piece)
    speed = float(np.hypot(*v[i]))
    if speed < 0.05:
        return False
    kinds = {p.id: p.kind for p in result.initial.pieces}
    for j, other in enumerate(ids):
        if j == i or not on2[j]:
            continue
        need = (table.piece_spec(kinds[piece]).radius + table.piece_spec(kinds[other]).radius)
        if float(np.hypot(*(p2[j] - p2[i]))) - need > TRAIN_GAP:
            continue
        if float(np.hypot(*(v[j] - v[i]))) < TRAIN_SPEED * speed:
            return True
    return False


def _money_ball(game: str) -> str | None:
    return {"9-ball": "9", "8-ball": "8"}.get(game)


def play_game(game: str, low: str, high: str, k: int, seed: int,
              search: dict[str, tuple[int, int, int]]) -> dict[str, Any]:
    """One game between two computer players; the higher level breaks in even games."""
    names = [high, low] if k % 2 == 0 else [low, high]
    levels = {n: bench_level(n, search) for n in names}
    s: Session = new_session(game, list(names), tuple(names), OPTIONS[game])
    tallies = {n: Tally() for n in names}
    last_shooter: str | None = None
    refused = 0
    shots = 0
    while not s.over() and shots < MAX_SHOTS and refused < MAX_REFUSED:
        if s.pending() is not None:
            s.choose(ai.choose_option(s))
            continue
        who = s.shooter()
        t = tallies[who]
        breaking = ai.search.is_break(s)
        before = {p: _own_points(s, p) for p in names}
        choice = ai.choose_shot(s, seed=seed * 100003 + k, level=levels[who])
        try:
            ruling = s.apply(choice.action)
        except FAILS:
            refused += 1
            continue
        refused = 0
        shots += 1
        t.shots += 1
        if who != last_shooter:
            t.innings += 1
            last_shooter = who
        if not ruling.legal:
            t.fouls += 1
        result = s.last_result
        assert result is not None
        t.scratches += s.struck_id() in result.pocketed
        if game == "5-pins":
            t.made += max(0, _own_points(s, who) - before[who])
        else:
            own = set(_own_pieces(s, who, result))
            t.made += sum(1 for p in result.pocketed if p in own)
        if breaking:
            t.breaks += 1
            money = _money_ball(game)
            t.money_on_break += int(money is not None and money in result.pocketed)
        if game.startswith("novus"):
            pucks = [p for p in result.pocketed if p != "striker"]
            if pucks:
                t.pocketing_shots += 1
                t.train_shots += int(any(is_train(result, s.table, p) for p in pucks))
    winner = ai_winner(s)
    for n in names:
        tallies[n].games += 1
        if winner is None:
            tallies[n].unfinished += 1
        elif winner == n:
            tallies[n].wins += 1
    return {"game": game, "pair": f"{low}:{high}", "k": k, "winner": winner, "shots": shots,
            "tallies": {n: tallies[n].__dict__ for n in names}}


def _own_points(s: Session, player: str) -> int:
    st = getattr(s.ref, "state", None)
    return int(st.scores.get(player, 0)) if st is not None and hasattr(st, "scores") else 0


def _own_pieces(s: Session, player: str, result: ShotResult) -> list[str]:
    """The pieces that were the player's to pocket before the shot (all object balls in 9-ball
    and 14.1: any ball made legally counts; the group in 8-ball; the colour in novus)."""
    if s.game.startswith("novus"):
        colour = s.ref.colour_of(player)
        return [p.id for p in result.initial.pieces if p.group == colour]
    if s.game == "8-ball":
        group = s.ref.state.groups.get(player)
        balls = [p.id for p in result.initial.pieces if p.id != "cue"]
        if group is None:
            return balls
        return [b for b in balls if b == "8" or (int(b) < 8) == (group == "solids")]
    return [p.id for p in result.initial.pieces if p.id != s.struck_id()]


def ai_winner(s: Session) -> str | None:
    from cuesim.env.games import winner

    if not s.over():
        return None
    w = winner(s)
    return None if w is None else str(w)


def break_rates(n: int, seed: int) -> dict[str, dict[str, float]]:
    """The 9-ball break's plan under each level's error, n breaks per level: the plan the
    level practised (`viewer/ai/breaks.py`), the share of breaks that pocket the 9, that
    pocket any ball, and that scratch."""
    out = {}
    for name in ai.LEVELS:
        lv = ai.get_level(name)
        nine = made = scratch = 0
        for k in range(n):
            s = new_session("9-ball")
            th = ai.Thinker(s, lv, seed * 7919 + k)
            choice = th.run()
            result = s.simulate(choice.action)
            nine += "9" in result.pocketed
            made += any(p != "cue" for p in result.pocketed)
            scratch += "cue" in result.pocketed
        plan = breaks.practised(new_session("9-ball"), lv)
        out[name] = {"breaks": n, "nine": nine / n, "any_ball": made / n, "scratch": scratch / n,
                     "plan": plan.label() if plan else ""}
    return out


def straight_in_rates(n: int, seed: int) -> dict[str, float]:
    """Each level's make rate on the reference straight-in shot (levels.py)."""
    table = game_table("9-ball")
    pocket = table.pocket("foot_right")
    cx, cy = pocket.capture.x, pocket.capture.y
    ux, uy = -1 / math.sqrt(2), -1 / math.sqrt(2)  # from the foot-right corner toward the table
    ob = (cx + ux * REF_D2, cy + uy * REF_D2)
    cb = (ob[0] + ux * REF_D1, ob[1] + uy * REF_D1)
    layout = Layout(table.name, (Piece("cue", "ball", *cb, "cue"), Piece("1", "ball", *ob, "1")))
    angle = math.atan2(-uy, -ux)
    out = {}
    for name in ai.LEVELS:
        lv = ai.get_level(name)
        rng = np.random.default_rng([seed, len(name)])
        aim = {"angle": angle, "speed": REF_SPEED, "side": 0.0, "height": 0.0}
        made = 0
        for _ in range(n):
            a = ai.perturb(aim, lv, rng, 11.0)
            res = simulate(table, layout, CueShot(a["angle"], a["speed"], a["side"],
                                                  a["height"]))
            made += "1" in res.pocketed
        out[name] = made / n
    return out


def frame_times(turns: int) -> dict[str, float]:
    """Frame times (ms, wall clock, rendering included, no display flip) while the computer
    thinks, over `turns` computer turns of 14.1 between two computer players."""
    from cuesim.viewer.app import App

    s = new_session("14.1", ["Computer", "Computer 2"], ("Computer", "Computer 2"),
                    {"points_to": 10})
    app = App(s, level="strong")
    times: list[float] = []
    seen = 0
    last = len(s.actions)
    guard = 0
    while seen < turns and guard < 20000 and not s.over():
        guard += 1
        t0 = time.perf_counter()
        thinking = app.thinking
        app.step([], 1 / 60)
        if thinking:
            times.append((time.perf_counter() - t0) * 1000)
        if app.mode == "animate":
            app.playback.finish()  # type: ignore[union-attr]
        if len(s.actions) != last:
            last = len(s.actions)
            seen += 1
    if not times:
        return {}
    times.sort()
    return {"frames": len(times), "median_ms": statistics.median(times),
            "p95_ms": times[int(0.95 * (len(times) - 1))], "max_ms": times[-1]}


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson interval of a share k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def markdown(report: dict[str, Any]) -> str:
    """The results of a run (its JSON) as the Markdown tables of bench/README.md."""
    out = ["| discipline | pairing | games | higher level wins | 95 % interval | unfinished |",
           "| --- | --- | --- | --- | --- | --- |"]
    rows = ["| discipline | level (pairing) | shots | fouls per shot | scratches per shot | "
            "innings | made per inning | novus trains / pocketing shots |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for key, levels in report["summary"].items():
        game, pair = key.split(" ")
        low, high = pair.split(":")
        tl, th = Tally(**levels[low]), Tally(**levels[high])
        done = tl.wins + th.wins
        lo, hi = wilson(th.wins, done)
        out.append(f"| {game} | {low} v {high} | {tl.games} | {th.wins} of {done} "
                   f"({th.wins / max(done, 1):.0%}) | {lo:.0%}-{hi:.0%} | {tl.unfinished} |")
        for name, t in ((low, tl), (high, th)):
            trains = (f"{t.train_shots} / {t.pocketing_shots}" if game == "novus" else "")
            scratches = "" if game == "5-pins" else f"{t.scratches / max(t.shots, 1):.3f}"
            rows.append(f"| {game} | {name} ({pair}) | {t.shots} | "
                        f"{t.fouls / max(t.shots, 1):.2f} | {scratches} | {t.innings} | "
                        f"{t.made / max(t.innings, 1):.2f} | {trains} |")
    return "\n".join(out + [""] + rows) + "\n"


def _run(task: tuple[str, str, str, int, int, dict[str, tuple[int, int, int]]]) -> dict:
    return play_game(*task)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=positive_int, default=100,
                   help="games per pairing and discipline")
    p.add_argument("--disciplines", nargs="+", default=list(DISCIPLINES))
    p.add_argument("--pairings", nargs="+", default=list(PAIRINGS), help="low:high level pairs")
    p.add_argument("--jobs", type=positive_int, default=2)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--breaks", type=whole_number, default=300,
                   help="9-ball breaks per level (0: none)")
    p.add_argument("--straight", type=whole_number, default=400,
                   help="reference shots per level (0: none)")
    p.add_argument("--frames-turns", type=whole_number, default=6,
                   help="computer turns of the viewer timed (0: none)")
    p.add_argument("--json", metavar="FILE", type=output_file)
    p.add_argument("--markdown", metavar="FILE",
                   help="print the tables of an earlier run's JSON as Markdown and exit")
    args = p.parse_args(argv)
    if args.markdown:
        try:
            with open(args.markdown, encoding="utf-8") as f:
                print(markdown(json.load(f)), end="")
        except (OSError, ValueError, KeyError, TypeError) as exc:
            print(f"ai_levels: cannot read {args.markdown!r}: {exc}", file=sys.stderr)
            return 2
        return 0
    for d in args.disciplines:
        if d not in DISCIPLINES:
            print(f"ai_levels: unknown discipline {d!r}; one of {', '.join(DISCIPLINES)}",
                  file=sys.stderr)
            return 2
    for pair in args.pairings:
        parts = pair.split(":")
        if len(parts) != 2 or any(x not in ai.LEVELS for x in parts) or parts[0] == parts[1]:
            print(f"ai_levels: a pairing is low:high of two levels ({', '.join(ai.LEVELS)}), "
                  f"got {pair!r}", file=sys.stderr)
            return 2
    t0 = time.perf_counter()
    report: dict[str, Any] = {"settings": {"games": args.games, "search": BENCH_SEARCH,
                                           "options": OPTIONS, "max_shots": MAX_SHOTS,
                                           "seed": args.seed}}
    report["straight_in"] = straight_in_rates(args.straight, args.seed) if args.straight else {}
    if report["straight_in"]:
        print("reference straight-in shot (0.9 m + 0.9 m, corner): make rate per level")
    for name, rate in report["straight_in"].items():
        print(f"  {name:9s} {rate:6.1%}  ({args.straight} shots)")
    report["breaks"] = break_rates(args.breaks, args.seed) if args.breaks else {}
    if report["breaks"]:
        print("9-ball break by plan: share of breaks that pocket the 9 / any ball / the cue "
              "ball")
    for name, r in report["breaks"].items():
        print(f"  {name:9s} 9: {r['nine']:5.1%}  any: {r['any_ball']:5.1%}  scratch: "
              f"{r['scratch']:5.1%}  ({r['breaks']} breaks; plan: {r.get('plan', '')})")
    sys.stdout.flush()
    tasks = []
    for game in args.disciplines:
        for pair in args.pairings:
            low, high = pair.split(":")
            for k in range(args.games):
                tasks.append((game, low, high, k, args.seed, BENCH_SEARCH))
    games: list[dict[str, Any]] = []
    if args.jobs == 1:
        for t in tasks:
            games.append(_run(t))
    else:
        with ProcessPoolExecutor(args.jobs) as pool:
            for g in pool.map(_run, tasks, chunksize=1):
                games.append(g)
    report["games"] = games
    print(f"\n{'discipline':10s} {'pairing':15s} {'games':>5s} {'low wins':>9s} "
          f"{'high wins':>9s} {'unfin.':>6s} | per level: fouls/shot, scratches/shot, "
          "made/inning "
          "[novus trains]")
    summary: dict[str, Any] = {}
    for game in args.disciplines:
        for pair in args.pairings:
            low, high = pair.split(":")
            tl, th = Tally(), Tally()
            for g in games:
                if g["game"] == game and g["pair"] == pair:
                    tl.add(Tally(**g["tallies"][low]))
                    th.add(Tally(**g["tallies"][high]))
            summary[f"{game} {pair}"] = {low: tl.__dict__, high: th.__dict__}
            cells = []
            for name, t in ((low, tl), (high, th)):
                cell = (f"{name} {t.fouls / max(t.shots, 1):.2f}, "
                        f"{t.scratches / max(t.shots, 1):.3f}, "
                        f"{t.made / max(t.innings, 1):.2f}")
                if game == "novus":
                    cell += f" [{t.train_shots}/{t.pocketing_shots}]"
                cells.append(cell)
            print(f"{game:10s} {pair:15s} {tl.games:5d} {tl.wins:9d} {th.wins:9d} "
                  f"{tl.unfinished:6d} | " + "; ".join(cells))
    report["summary"] = summary
    ft = frame_times(args.frames_turns) if args.frames_turns else {}
    report["frames_while_thinking"] = ft
    if ft:
        print(f"\nviewer frames while the computer (strong) thinks, 14.1: {ft['frames']} "
              f"frames, median {ft['median_ms']:.1f} ms, p95 {ft['p95_ms']:.1f} ms, max "
              f"{ft['max_ms']:.1f} ms")
    report["wall_s"] = time.perf_counter() - t0
    print(f"wall time {report['wall_s']:.0f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
