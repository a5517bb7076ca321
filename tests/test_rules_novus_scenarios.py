"""Scenario JSON files (the documented schema), their errors, the command line, and real
simulated shots and sets refereed end to end."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from cuesim import NovusShot, novus_table, simulate
from cuesim.rules.novus import (
    NovusGame,
    ShotRecord,
    adjudicate_file,
    adjudicate_scenario,
    analyse_shot,
)
from cuesim.rules.novus.__main__ import main
from cuesim.rules.novus.terms import frame, light_pucks
from tests.novus_util import puck, scenario, striker

FILES = sorted((Path(__file__).parent / "novus_scenarios").glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_files(path):
    """Each example file states the articles and placements it expects (its description names
    the article)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    assert "novus" in data["description"]
    out = adjudicate_file(path)
    expect = data["expect"]
    assert [v["article"] for v in out["ruling"]["violations"]] == expect["articles"]
    assert out["ruling"]["next_player"] == expect["next_player"]
    got = [[s["id"], round(s["x"], 4), round(s["y"], 4)] for s in out["ruling"]["spotted"]]
    assert got == expect["spotted"]


def test_command_line_prints_ruling_json(capsys):
    assert main([str(FILES[0])]) == 0
    assert "ruling" in json.loads(capsys.readouterr().out)
    assert main(["/no/such/file.json"]) == 2  # like `cuesim adjudicate`


BASE = [striker(), puck("red1", 0.3, 0.7), puck("black1", 0.4, 0.3)]


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.pop("before"), "missing 'before'"),
    (lambda d: d.update(game="pool"), "not 'novus'"),
    (lambda d: d.update(extra=1), "unknown field"),
    (lambda d: d["events"].append({"t": 0.1, "kind": "bounce", "a": "striker"}), "kind"),
    (lambda d: d["events"].append({"t": 0.1, "kind": "collide", "a": "striker"}), "'b'"),
    (lambda d: d["events"].append({"t": 0.1, "kind": "rail", "a": "striker"}), "feature"),
    (lambda d: d["events"].append({"t": 0.1, "kind": "collide", "a": "striker", "b": "x9"}),
     "x9"),
    (lambda d: d["events"].append({"t": -1, "kind": "stop", "a": "striker"}), "t must"),
    (lambda d: d.update(infractions=[{"player": "A"}]), "no 'code'"),
    (lambda d: d.update(infractions=[{"code": "sneezed"}]), "unknown novus infraction"),
    (lambda d: d["state"].update(mode="triples"), "mode"),
    (lambda d: d["state"].update(players=["A"]), "2 distinct"),
    (lambda d: d["state"].update(shooter="Z"), r"state\.shooter must be one of the players"),
    (lambda d: d["state"].update(debt={"red": -1}), "debt"),
    (lambda d: d["state"].update(seats={"south": "A", "up": "B"}), "seats"),
    (lambda d: d["state"].update(set_number=3), "beyond"),
    (lambda d: d.update(pocketed=["red1"]), "still in the layout"),
    (lambda d: d["before"]["pieces"].append(dict(BASE[1], id="red2")), "overlap"),
])
def test_malformed_scenarios_raise_value_error_naming_the_problem(mutate, message):
    data = scenario(BASE, BASE, [])
    mutate(data)
    with pytest.raises(ValueError, match=message):
        adjudicate_scenario(data)


def test_simulated_opening_shot_is_correct_and_keeps_the_turn():
    """novus 10, 13.1, 18.1: an opening shot into the own row that pockets own pucks (and no
    other, no foul) is correct and keeps the turn. The shots are simulated, so the test plays a
    small fan of them and rules on every one that pockets only own pucks."""
    found = 0
    for x, deg, speed in [(0.3, 85, 5.0), (0.3, 70, 5.0), (0.35, 80, 6.0), (0.4, 75, 7.0)]:
        g = NovusGame(["Anna", "Boris"], sets=1)
        out = g.play(NovusShot(x=x, angle=math.radians(deg), speed=speed))
        an = out.analysis
        if an is None or not an.own_pocketed or an.opp_pocketed or out.ruling.violations:
            continue
        found += 1
        assert an.correct_by == "13.1"
        assert not out.ruling.turn_passes
        assert out.ruling.next_player == "Anna" and "striker" not in out.layout.ids()
    assert found, "no shot of the fan pocketed only own pucks cleanly"


def test_simulated_illegal_placement_refused_not_simulated():
    """novus 12: a shot from outside the strip is refused with the article."""
    g = NovusGame(["Anna", "Boris"])
    out = g.play(NovusShot(x=0.05, angle=math.pi / 2, speed=4.0))
    assert out.ruling.articles == ["novus 12"] and g.shooter == "Anna"


def _aim(g: NovusGame, table_layout) -> NovusShot:
    """A scripted player who previews a few shots at his own pucks (on the simulator) and plays
    the first one that pockets an own puck correctly; else a straight shot at an own puck."""
    side = g.side_of(g.shooter)
    colour = g.colour_of(g.shooter)
    table = novus_table()
    (u0, u1), (w0, w1) = table.striker_strip()
    wy = (w0 + w1) / 2
    light = light_pucks(table_layout, colour, side)
    own = light or [p.id for p in table_layout.pieces if p.group == colour]
    fallback = None
    for pid in sorted(own)[:4]:
        p = table_layout.get(pid)
        u, w = frame(side, p.x, p.y)
        for x in (u0, (u0 + u) / 2, min(max(u, u0), u1), (u + u1) / 2, u1):
            for da in (-0.03, -0.015, 0.0, 0.015, 0.03):
                shot = NovusShot(x=x, angle=math.atan2(w - wy, u - x) + da, speed=4.5, y=wy,
                                 side=side)
                try:
                    res = simulate(table, table_layout, shot)
                except Exception:
                    continue
                fallback = fallback or shot
                a = analyse_shot(ShotRecord.from_result(res), side, colour)
                if a.correct and a.own_pocketed and not a.opp_pocketed \
                        and not a.striker_pocketed:
                    return shot
    return fallback or NovusShot(x=0.5, angle=math.pi / 2, speed=4.0, y=wy)


def test_simulated_set_between_scripted_players_ends_with_a_legal_winner():
    """novus 20.3, 23.1: a simulated one-set game ends with a winner or a replay; every ruling
    cites only novus articles and the state stays consistent."""
    g = NovusGame(["Anna", "Boris"], sets=1)
    for _ in range(300):
        if g.match_over:
            break
        out = g.play(_aim(g, g.layout))
        assert all(a.startswith("novus ") for a in out.ruling.articles)
        for colour in g.colours:
            on = sum(p.group == colour for p in g.layout.pieces)
            assert on + g.debt[colour] <= 8
    assert g.history, "no set finished in 300 shots"
    assert g.history[0]["winner"] in ("Anna", "Boris") or g.history[0]["replay"]
