"""novus 10: a shot's pieces are the match's own. Every puck is of one of the match's two
colours, at most 8 of each (16 a pair in doubles), and no piece changes kind or colour during
a shot. Input that breaks this cannot have happened and is refused, not ruled on."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pytest

from cuesim import NovusShot, novus_table, simulate, start_layout
from cuesim.cli import main
from cuesim.rules.novus import NovusGame
from cuesim.tables.layout import Layout, Piece

SCENARIO = json.loads((Path(__file__).parent / "novus_scenarios"
                       / "pocket_keeps_turn.json").read_text())


def _adjudicate(tmp_path: Path, scenario: dict, capsys: pytest.CaptureFixture[str]) -> str:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario))
    assert main(["adjudicate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


@pytest.mark.parametrize("field, value, message", [
    ("group", "black", "piece 'red2' is a puck of group 'black' after the shot but a puck of "
                       "group 'red' before it"),
    ("kind", "striker", "piece 'red2' is a striker"),
])
def test_novus_10_a_piece_cannot_change_during_a_shot(tmp_path, capsys, field, value, message):
    s = copy.deepcopy(SCENARIO)
    red2 = next(p for p in s["after"]["pieces"] if p["id"] == "red2")
    red2[field] = value
    assert message in _adjudicate(tmp_path, s, capsys)


@pytest.mark.parametrize("group", ["green", None])
def test_novus_10_a_puck_of_no_colour_of_the_match_is_refused(tmp_path, capsys, group):
    s = copy.deepcopy(SCENARIO)
    for layout in (s["before"], s["after"]):
        for p in layout["pieces"]:
            if p["id"] == "red2":
                if group is None:
                    del p["group"]
                else:
                    p["group"] = group
    err = _adjudicate(tmp_path, s, capsys)
    assert "puck 'red2' has group" in err and "'red' or 'black'" in err


def test_novus_10_the_state_colours_are_those_of_the_pucks(tmp_path, capsys):
    s = copy.deepcopy(SCENARIO)
    s["state"]["colours"] = ["green", "blue"]
    assert "this match's pucks are 'green' or 'blue'" in _adjudicate(tmp_path, s, capsys)
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"players": ["A", "B"], "colours": ["green", "blue"]}))
    assert main(["shoot", "novus", "--speed", "6", "--rule", "--state", str(state)]) == 2
    assert "'green' or 'blue'" in capsys.readouterr().err


def test_novus_10_a_side_has_8_pucks_in_singles_16_in_doubles() -> None:
    table = novus_table()
    extra = [Piece(f"red{9 + k}", "puck", 0.3 + 0.04 * k, 0.5, "red") for k in range(3)]
    layout = Layout("novus", start_layout("novus").pieces + tuple(extra))
    res = simulate(table, layout, NovusShot(x=0.5, angle=math.pi / 2, speed=3.0))
    with pytest.raises(ValueError, match=r"11 'red' pucks; a side has 8 \(novus 10\)"):
        NovusGame(players=("A", "B")).adjudicate(res)
    doubles = NovusGame(players=("A", "B", "C", "D"), doubles=True)
    assert doubles.pucks_per_team() == 16
    doubles.adjudicate(res)  # 11 red pucks are within a pair's 16


def test_novus_12_a_puck_leaves_the_board_one_way(tmp_path, capsys):
    """A puck a pocket event takes into a hole cannot also be declared over the rail."""
    s = copy.deepcopy(SCENARIO)
    s["infractions"] = [{"code": "puck_off_table", "pieces": ["red1"]}]
    assert "names 'red1', which a pocket event takes into a hole" in _adjudicate(tmp_path, s,
                                                                                capsys)
