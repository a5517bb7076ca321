"""Novus doors: scenario files and `NovusGame.adjudicate` refuse input that cannot have happened
(a ValueError naming the field), never rule on it."""

from __future__ import annotations

from typing import Any

import pytest

from cuesim.rules.novus import NovusGame
from cuesim.rules.novus.shotlog import ShotRecord
from cuesim.rules.ruling import Infraction
from cuesim.tables.layout import Layout
from tests.novus_util import hit, layout, pocket, puck, rule, scenario, striker

BASE = [striker(), puck("red1", 0.3, 0.7), puck("red2", 0.7, 0.7), puck("black1", 0.4, 0.3),
        puck("black2", 0.6, 0.3)]


def drop(pieces: list[dict[str, Any]], *ids: str) -> list[dict[str, Any]]:
    return [p for p in pieces if p["id"] not in ids]


def moved(pieces: list[dict[str, Any]], pid: str, x: float, y: float) -> list[dict[str, Any]]:
    return [dict(p, x=x, y=y) if p["id"] == pid else p for p in pieces]


AFTER = moved(BASE, "red1", 0.3, 0.8)  # the striker drove red1 north


def test_18_1_v_puck_off_table_that_nothing_moved_is_refused():
    """novus 12, 18.1.в: a puck leaves the board only moving; one no strike or collision of the
    log set in motion cannot have gone over the rail (scenario and API)."""
    with pytest.raises(ValueError, match=r"infractions\[0\]\.pieces.*'black2'.*nothing set it"):
        rule(BASE, drop(AFTER, "black2"), [hit(0.1, "red1")],
             infractions=[{"code": "puck_off_table", "pieces": ["black2"]}])
    record = ShotRecord.from_parts(
        Layout.from_dict(layout(*BASE)), Layout.from_dict(layout(*drop(AFTER, "black2"))),
        _events([hit(0.1, "red1")]))
    with pytest.raises(ValueError, match=r"infractions\[0\]\.pieces"):
        NovusGame(["A", "B"]).adjudicate(record, [Infraction("puck_off_table", "", ("black2",))])
    # driven by red1: it went over
    out = rule(BASE, drop(AFTER, "black2"), [hit(0.1, "red1"), hit(0.2, "black2", "red1")],
               infractions=[{"code": "puck_off_table", "pieces": ["black2"]}])
    assert "novus 18.1.в" in [v["article"] for v in out["ruling"]["violations"]]


def test_18_1_v_puck_off_table_moved_by_a_hand_is_not_refused():
    """novus 17.1.о with 18.1.в: a puck the shooter's hand knocked over the rail needs no
    event of the log (infractions.HAND_MOVES)."""
    out = rule(BASE, drop(AFTER, "black2"), [hit(0.1, "red1")],
               infractions=[{"code": "touched_puck", "pieces": ["black2"]},
                            {"code": "puck_off_table", "pieces": ["black2"]}])
    assert out["ruling"]["turn_passes"]


def test_12_puck_off_table_named_twice_is_refused():
    """novus 12: a puck goes over the rail once; naming it twice would put it back twice."""
    with pytest.raises(ValueError, match=r"infractions\[0\]\.pieces.*'red1' twice"):
        rule(BASE, drop(BASE, "red1"), [hit(0.1, "red1")],
             infractions=[{"code": "puck_off_table", "pieces": ["red1", "red1"]}])


@pytest.mark.parametrize("code", ["striker_off_table", "double_hit", "not_tip", "striker_broken",
                                  "refused_shot", "striker_touched_puck_placing", "time_30s"])
def test_17_1_stroke_foul_declared_for_the_player_who_did_not_strike_is_refused(code: str
                                                                               ) -> None:
    """novus 17.1.д/ж/к/л/с/т/у: only the striking player commits these; declared for B while A
    strikes they are refused (naming the shooter), not ruled as B's 17.1.п."""
    after = drop(BASE, "red1")
    events = [hit(0.1, "red1"), pocket(0.3, "red1")]
    state = {"series": {"A": 2, "B": 1}, "time_warned": ["A", "B"]}
    with pytest.raises(ValueError, match=rf"{code}.*strikes, A; B did not strike"):
        rule(BASE, after, events, state=state, infractions=[{"code": code, "player": "B"}])
    # for the shooter it is ruled
    if code != "striker_off_table":
        out = rule(BASE, after, events, state=state, infractions=[{"code": code,
                                                                   "player": "A"}])
        assert out["ruling"]["turn_passes"]


def test_12_pocketed_without_a_pocket_event_is_refused():
    """novus 12: a piece is pocketed by falling into a hole; `pocketed` naming one with no
    pocket event of the log, or one twice, is refused (scenario and API)."""
    with pytest.raises(ValueError, match=r"pocketed lists 'red2', which no pocket event"):
        data = scenario(BASE, drop(BASE, "red2"), [hit(0.1, "red1")])
        rule_data(data | {"pocketed": ["red2"]})
    with pytest.raises(ValueError, match=r"pocketed lists 'red1' twice"):
        data = scenario(BASE, drop(BASE, "red1"), [hit(0.1, "red1"), pocket(0.3, "red1")])
        rule_data(data | {"pocketed": ["red1", "red1"]})
    record = ShotRecord(Layout.from_dict(layout(*BASE)),
                        Layout.from_dict(layout(*drop(BASE, "red2"))),
                        _events([hit(0.1, "red1")]), ["red2"])
    with pytest.raises(ValueError, match="pocketed lists 'red2'"):
        NovusGame(["A", "B"]).adjudicate(record)


@pytest.mark.parametrize("pieces", [["red1", "black2"], ["red1", "red1"]])
def test_12_stacked_puck_must_name_two_overlapping_pieces(pieces: list[str]) -> None:
    """novus 12: a puck resting on another is put beside it; two pucks far apart, or one puck
    twice, rest on nothing: refused, no puck is moved."""
    with pytest.raises(ValueError, match=r"infractions\[0\]\.pieces.*stacked_puck"):
        rule(BASE, AFTER, [hit(0.1, "red1")],
             infractions=[{"code": "stacked_puck", "pieces": pieces}])
    with pytest.raises(ValueError, match=r"infractions\[0\]\.pieces.*stacked_puck"):
        rule(BASE, None, infractions=[{"code": "stacked_puck", "pieces": pieces}])


@pytest.mark.parametrize("state", [{"pending": [{"player": "A", "article": "novus 17.1.п"}]},
                                   {"skip": ["A"]}])
def test_17_1_p_pending_or_skip_naming_the_player_with_the_turn_is_refused(
        state: dict[str, Any]) -> None:
    """novus 17.1.п: the offender owes the penalty puck and misses a turn as the series of the
    player with the turn ends; neither can name that player."""
    key = next(iter(state))
    with pytest.raises(ValueError, match=rf"state\.{key} names A, who has the turn"):
        rule(BASE, AFTER, [hit(0.1, "red1")], state=state)


def test_17_1_g_striker_pocketed_and_declared_over_the_rail_is_refused():
    """novus 17.1.г / 17.1.д: the striker leaves the board one way, into a hole or over the
    rail, not both."""
    with pytest.raises(ValueError, match="striker_off_table.*one way"):
        rule(BASE, drop(BASE, "striker"), [hit(0.1, "red1"), pocket(0.3, "striker")],
             infractions=[{"code": "striker_off_table"}])


def test_20_1_singles_seats_east_west_without_start_side_is_refused():
    """novus 20.1: the side of the first strike defaults to south; seats east and west without
    state.start_side have no such seat: refused naming it, not a KeyError."""
    with pytest.raises(ValueError, match=r"state\.start_side"):
        rule(BASE, None, state={"seats": {"west": "A", "east": "B"}})
    out = rule(BASE, None, state={"seats": {"west": "A", "east": "B"}, "start_side": "west"})
    assert out["state"]["opener"] == "A"


def rule_data(data: dict[str, Any]) -> dict[str, Any]:
    from cuesim.rules.novus import adjudicate_scenario

    return adjudicate_scenario(data)


def _events(raw: list[dict[str, Any]]) -> list[Any]:
    from cuesim.rules.novus.shotlog import event_from_dict

    return [event_from_dict(e, k) for k, e in
            enumerate([{"t": 0.0, "kind": "strike", "a": "striker"}, *raw])]
