"""The 5-pins referee's doors (scenario files through `rules.files.adjudicate`, and
`FivePinsGame.play`) refuse input that cannot have happened, naming the field: a standing pin
that knocks a pin (12.3), a ball off the table that nothing moved (15.3.д), a standing pin gone
after the shot with no knock (12.1), a ball id of kind pin or a pin id of kind ball (1). What
can happen (a chain of thrown pins logged in any order at one instant, a pin whose mark a ball
covers left out before the shot, 12.7) is still ruled."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from cuesim.rules.files import ScenarioError, adjudicate
from cuesim.rules.fivepins.facts import ShotFacts
from cuesim.rules.fivepins.model import PINS
from cuesim.rules.fivepins.placement import pin_spots
from cuesim.tables.layout import Layout, Piece
from tests.fivepins_util import game_in_play, hit, layout, pin, play, position, strike

BEFORE = {"white": [0.40, 0.70], "yellow": [0.71, 1.9], "red": [1.1, 2.40]}
AFTER = {"white": [0.4, 1.0], "yellow": [0.71, 2.3], "red": [1.1, 2.4]}
CAROM = [{"t": 0, "kind": "strike", "a": "white"},
         {"t": 0.5, "kind": "collide", "a": "white", "b": "yellow"}]


def scenario(**step: Any) -> dict[str, Any]:
    """A one-step scenario with Ann to play the white where it lies."""
    step = {"before": BEFORE, "events": CAROM, "after": AFTER, **step}
    return {"game": "five_pins", "steps": [copy.deepcopy(step)],
            "state": {"players": ["Ann", "Bob"], "shooter": "Ann", "phase": "play"}}


def full(short: dict[str, list[float]], pins: bool = True) -> dict[str, Any]:
    """The full form of a short-form layout (its pins on their marks, or none)."""
    lay = layout(**short) if pins else Layout("carom", tuple(
        Piece(pid, "ball", x, y, pid) for pid, (x, y) in short.items()))
    return lay.to_dict()


# -- 12.3: a standing pin knocks no pin -------------------------------------------------------
CHAIN = [*CAROM, {"t": 0.8, "kind": "collide", "a": "white", "b": "pin_top"},
         {"t": 0.85, "kind": "pin", "a": "pin_top", "b": "pin_left"}]


def test_12_3_a_standing_pin_knocking_a_pin_is_refused_from_a_file():
    """The ball only touched pin_top (no pin event fells it): it stands, and cannot knock
    pin_left."""
    with pytest.raises(ScenarioError, match=r"steps\[0\]\.events\[3\]\.a: 'pin_top' knocks "
                                            r"down 'pin_left'.*12\.3"):
        adjudicate(scenario(events=CHAIN))


def test_12_3_a_standing_pin_knocking_a_pin_is_refused_by_play():
    g = game_in_play()
    with pytest.raises(ValueError, match=r"shot\.events\[3\]\.a: 'pin_top' knocks down.*12\.3"):
        play(g, strike(), hit(0.3, "white", "yellow"), hit(0.5, "white", "pin_top"),
             pin(0.6, "pin_top", "pin_left"))
    with pytest.raises(ValueError, match=r"events\[2\]\.a.*12\.3"):  # knocked only later
        play(g, strike(), hit(0.3, "white", "yellow"), pin(0.6, "pin_top", "pin_left"),
             pin(0.7, "yellow", "pin_top"))
    assert g.state.scores == {"A": 0, "B": 0}


def test_12_3_two_standing_pins_never_collide():
    g = game_in_play()
    with pytest.raises(ValueError, match=r"shot\.events\[2\].*'pin_top' and 'pin_left'.*12\.3"):
        play(g, strike(), hit(0.3, "white", "yellow"), hit(0.6, "pin_top", "pin_left"))
    events = [*CAROM, {"t": 0.6, "kind": "collide", "a": "pin_top", "b": "pin_left"}]
    with pytest.raises(ScenarioError, match=r"steps\[0\]\.events\[2\]"):
        adjudicate(scenario(events=events))


def test_12_3_a_thrown_pin_knocks_pins_also_at_the_same_instant_in_any_order():
    """A pin knocked down earlier, or at the same instant (its own knock logged just after),
    is thrown: its knocks count, traced to the ball that started the chain."""
    g = game_in_play()
    log = [strike(), hit(0.3, "white", "yellow"), pin(0.6, "pin_top", "pin_left"),
           pin(0.6, "yellow", "pin_top"), hit(0.7, "pin_left", "pin_top")]
    assert [k.origin for k in ShotFacts.from_events(log, "white", "yellow").pins] == [
        "yellow", "yellow"]
    out = play(g, *log)
    assert out.ruling.legal and out.ruling.points == {"A": 4}
    events = [*CAROM, {"t": 0.7, "kind": "pin", "a": "pin_top", "b": "pin_left"},
              {"t": 0.7, "kind": "pin", "a": "white", "b": "pin_top"}]
    ruling = adjudicate(scenario(events=events))["steps"][0]["ruling"]
    assert ruling["legal"] is False  # the striker's ball knocked both: 15.2
    assert "5-pins 15.2" in [v["article"] for v in ruling["violations"]]


def test_12_3_a_cycle_of_pins_at_one_instant_is_refused():
    g = game_in_play()
    with pytest.raises(ValueError, match="12.3"):
        play(g, strike(), hit(0.3, "white", "yellow"), hit(0.5, "white", "pin_top"),
             hit(0.5, "white", "pin_left"), pin(0.6, "pin_top", "pin_left"),
             pin(0.6, "pin_left", "pin_top"))


# -- 15.3.д: only a ball set in motion leaves the table -------------------------------------
def test_15_3_d_off_table_of_a_ball_nothing_moved_is_refused_from_a_file():
    data = scenario(after={"white": [0.4, 1.0], "yellow": [0.71, 2.3]},
                    infractions=[{"code": "off_table", "pieces": ["red"]}])
    with pytest.raises(ScenarioError, match=r"steps\[0\]\.infractions\[0\]\.pieces: "
                                            r"infraction off_table names 'red'.*15\.3\.д"):
        adjudicate(data)
    data["steps"][0]["events"].append({"t": 0.9, "kind": "collide", "a": "yellow", "b": "red"})
    ruling = adjudicate(data)["steps"][0]["ruling"]
    assert "5-pins 15.3.д" in [v["article"] for v in ruling["violations"]]


def test_15_3_d_off_table_of_a_ball_nothing_moved_is_refused_by_play():
    g = game_in_play()
    final = position().without(["red"])
    with pytest.raises(ValueError, match=r"shot\.infractions\[0\]\.pieces: infraction "
                                         r"off_table names 'red'.*15\.3\.д"):
        play(g, strike(), hit(0.3, "white", "yellow"), final=final, infractions=[
            {"code": "off_table", "pieces": ["red"]}])
    out = play(g, strike(), hit(0.3, "white", "yellow"), hit(0.6, "yellow", "red"),
               final=final, infractions=[{"code": "off_table", "pieces": ["red"]}])
    assert out.ruling.articles == ["5-pins 15.3.д"]


# -- 12.1: a standing pin leaves the table only knocked down ---------------------------------
def test_12_1_a_standing_pin_missing_after_the_shot_is_refused_from_a_file():
    with pytest.raises(ScenarioError, match=r"steps\[0\]\.after: pin 'pin_centre' stood "
                                            r"before the shot \(steps\[0\]\.before\).*12\.1"):
        adjudicate(scenario(after=full(AFTER, pins=False)))
    after = full(AFTER)
    after["pieces"] = [p for p in after["pieces"] if p["id"] != "pin_right"]
    with pytest.raises(ScenarioError, match=r"steps\[0\]\.after: pin 'pin_right'"):
        adjudicate(scenario(after=after))
    events = [*CAROM, {"t": 0.7, "kind": "pin", "a": "yellow", "b": "pin_right"}]
    ruling = adjudicate(scenario(events=events, after=after))["steps"][0]["ruling"]
    assert ruling["points"] == {"Ann": 2}  # knocked, it may have flown off


def test_12_1_a_standing_pin_missing_after_the_shot_is_refused_by_play():
    g = game_in_play()
    with pytest.raises(ValueError, match=r"shot\.final: pin 'pin_centre' stood before.*no "
                                         r"ball covers its mark.*12\.1"):
        play(g, strike(), hit(0.3, "white", "yellow"), final=position().without(PINS))
    out = play(g, strike(), hit(0.3, "white", "yellow"), pin(0.5, "yellow", "pin_centre"),
               final=position().without(["pin_centre"]))
    assert out.ruling.points == {"A": 8}  # the centre pin alone (8.1)


def test_12_7_a_pin_under_a_ball_after_the_shot_may_be_left_out():
    """The short form sets no pin on a mark a ball covers (12.7: the referee removes it; a pin
    pushed off its mark, 12.4, stands where the short form cannot say): not refused, knocked or
    not, nor in the full form."""
    top = list(pin_spots()["pin_top"])
    out = adjudicate(scenario(after={**AFTER, "white": top}))["steps"][0]
    assert out["removed_pins"] == ["pin_top"]
    events = [*CAROM, {"t": 0.8, "kind": "pin", "a": "white", "b": "pin_top"}]
    out = adjudicate(scenario(events=events, after={**AFTER, "white": top}))["steps"][0]
    assert out["removed_pins"] == ["pin_top"]
    after = full({**AFTER, "white": top})
    assert "pin_top" not in [p["id"] for p in after["pieces"]]
    assert adjudicate(scenario(after=after))["steps"][0]["removed_pins"] == ["pin_top"]


def test_12_7_a_pin_left_out_before_the_shot_is_not_required_after_it():
    """12.7: a pin whose mark a ball covers is not set up; after the shot it is not on the
    table either, in a short or a full-form `after`, and the referee sets it up again."""
    before = {**BEFORE, "white": [0.71, 1.51]}  # on the top pin's mark
    lacking = full(AFTER)
    lacking["pieces"] = [p for p in lacking["pieces"] if p["id"] != "pin_top"]
    for after in (AFTER, lacking):
        out = adjudicate(scenario(before=before, after=after))["steps"][0]
        assert out["ruling"]["legal"]
        assert [s["id"] for s in out["spotted"]] == ["pin_top"]
        assert out["spotted"][0]["article"] == "5-pins 12.7"


# -- 1: three balls and five pins, each of its kind --------------------------------------------
def test_1_a_pin_id_of_kind_ball_is_refused_from_a_file():
    before = full(BEFORE)
    before["pieces"][3]["kind"] = "ball"  # pin_centre
    with pytest.raises(ScenarioError, match=r"steps\[0\]\.before\.pieces\[3\]\.kind: "
                                            r"'pin_centre' is a pin, got kind 'ball'"):
        adjudicate(scenario(before=before))


def test_1_a_ball_id_of_kind_pin_is_refused_from_a_file():
    before = full(BEFORE)
    before["pieces"][0]["kind"] = "pin"
    with pytest.raises(ScenarioError, match=r"steps\[0\]\.before\.pieces\[0\]\.kind: "
                                            r"'white' is a ball, got kind 'pin'"):
        adjudicate(scenario(before=before))
    table = full(BEFORE)
    table["pieces"][1]["kind"] = "pin"
    data = scenario()
    data["table"] = table
    with pytest.raises(ScenarioError, match=r"scenario\.table\.pieces\[1\]\.kind: 'yellow'"):
        adjudicate(data)


def test_1_a_piece_of_the_wrong_kind_for_its_id_is_refused_by_play():
    g = game_in_play()
    pieces = list(position().pieces)
    pieces[0] = Piece("white", "pin", 0.71, 1.86, "white")
    with pytest.raises(ValueError, match=r"shot\.initial\.pieces\[0\]\.kind: 'white' is a "
                                         r"ball, got kind 'pin'"):
        play(g, strike(), hit(0.3, "white", "yellow"), initial=Layout("carom", tuple(pieces)))
    pieces = list(position().pieces)
    pieces[3] = Piece(pieces[3].id, "ball", 1.0, 0.5, "white")
    with pytest.raises(ValueError, match=r"shot\.final\.pieces\[3\]\.kind: 'pin_centre' is "
                                         r"a pin, got kind 'ball'"):
        play(g, strike(), hit(0.3, "white", "yellow"), final=Layout("carom", tuple(pieces)))
    assert g.state.scores == {"A": 0, "B": 0}
