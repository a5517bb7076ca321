"""The 14.1 referee's doors (scenario files and the Python API) refuse what cannot have
happened, naming the field: the 6.7.7 request's layout, fields, continuity and timing, a
break-phase state without the cue ball in hand behind the head string (3.8), and fields of
another kind of step on a shot (the lag's `off_table`, `balls`; the request's `ball`)."""

from __future__ import annotations

import copy
import json

import pytest

from cuesim.cli import main
from cuesim.rules.files import ScenarioError, adjudicate
from cuesim.rules.pool import EightBall, NineBall, StraightPool
from cuesim.rules.pool.model import PoolState
from cuesim.rules.pool.racks import rack_layout
from cuesim.tables.layout import Layout, Piece
from cuesim.tables.pool_spots import FOOT_SPOT
from tests.pool_util import KITCHEN_CUE, foul, hit, layout, rail, shot, strike

KITCHEN = {"1": [0.3, 0.3], "2": [0.8, 0.5], "3": [0.2, 0.1]}  # all behind the head string
KITCHEN_T = {b: (x, y) for b, (x, y) in KITCHEN.items()}
PENDING_6_12 = {"player": "Bob", "article": "WPA 6.12", "options": {
    "accept": {"shooter": "Bob", "ball_in_hand": "kitchen", "rerack": False},
    "rerack": {"shooter": "Ann", "ball_in_hand": None, "rerack": True}}}


def state(**kw: object) -> dict:
    """A 14.1 state in play, Bob to shoot with the cue ball in hand behind the head string."""
    d = {"game": "straight_pool", "players": ["Ann", "Bob"], "shooter": "Bob",
         "breaker": "Ann", "phase": "play", "ball_in_hand": "kitchen"}
    d.update(kw)
    return d


def request(initial: object = None, **fields: object) -> dict:
    return {"request": "kitchen_spot", "initial": KITCHEN if initial is None else initial,
            **fields}


def scenario(*steps: dict, **state_fields: object) -> dict:
    return {"game": "14.1", "state": state(**state_fields), "steps": list(steps)}


def in_play(**kw: object) -> StraightPool:
    return StraightPool(state=PoolState.from_dict(state(**kw)))


# -- 6.7.7: the request's layout -------------------------------------------------------------
def test_wpa_6_7_7_request_on_a_legal_layout_still_spots_the_nearest_ball():
    out = adjudicate(scenario(request()))["steps"][0]
    assert [d["id"] for d in out["spotted"]] == ["2"]
    assert out["ruling"]["legal"] and out["state"]["ball_in_hand"] == "kitchen"


@pytest.mark.parametrize(("extra", "bad"), [
    ({"16": [0.5, 0.6]}, "16"),  # 14.1 has no 16
    ({"banana": [0.5, 0.3]}, "banana"),  # was an int() message naming no field
])
def test_wpa_6_7_7_request_layout_holds_14_1_ball_ids(extra, bad):
    with pytest.raises(ScenarioError, match=rf"steps\[0\]\.initial: unknown ball id '{bad}' "
                                            r"for 14\.1; ball ids are \['cue', '1'"):
        adjudicate(scenario(request({**KITCHEN, **extra})))
    with pytest.raises(ValueError, match=rf"layout: unknown ball id '{bad}'"):
        in_play().request_kitchen_spot(layout({**KITCHEN_T, bad: (0.5, 0.4)}))


@pytest.mark.parametrize(("extra", "message"), [
    ({"5": [0.31, 0.3]}, r"pieces '1' and '5' overlap"),
    ({"5": [-0.5, 0.3]}, r"piece '5' at \(-0\.5000, 0\.3000\) is not wholly inside"),
])
def test_wpa_6_7_7_request_layout_is_legal_on_its_table(extra, message):
    """As a shot's layouts (3.28's bed, no two balls in one place): a ball off the bed or two
    overlapping cannot be the table the request is made on."""
    with pytest.raises(ScenarioError, match=rf"steps\[0\]\.initial: {message}"):
        adjudicate(scenario(request({**KITCHEN, **extra})))
    (x, y), = extra.values()
    with pytest.raises(ValueError, match=rf"layout: {message}"):
        in_play().request_kitchen_spot(layout({**KITCHEN_T, "5": (x, y)}))


def test_wpa_6_7_7_request_layout_is_on_a_pool_table():
    novus = {"table": "novus", "pieces": [{"id": "1", "kind": "ball", "x": 0.3, "y": 0.3}]}
    with pytest.raises(ScenarioError, match=r"steps\[0\]\.initial: the layout is for table "
                                            r"'novus'; pool is played on pool_9ft"):
        adjudicate(scenario(request(novus)))
    with pytest.raises(ValueError, match=r"layout: the layout is for table 'novus'"):
        in_play().request_kitchen_spot(Layout("novus", (Piece("1", "ball", 0.3, 0.3),)))


@pytest.mark.parametrize("ball", [7, "cue", "16"])
def test_wpa_6_7_7_request_ball_is_an_object_ball(ball):
    with pytest.raises(ScenarioError, match=r"steps\[0\]\.ball must be one of the object balls "
                                            r"\['1', .*\] \(the ball to spot\), got"):
        adjudicate(scenario(request(ball=ball)))


# -- 6.7.7: the request step takes only its fields -------------------------------------------
@pytest.mark.parametrize(("fields", "message"), [
    ({"bogus": 1}, r"steps\[0\]: unknown field\(s\) \['bogus'\]"),
    ({"events": [{"t": 0, "kind": "strike", "a": "cue"}]},
     r"steps\[0\]\.events: a kitchen_spot request .* takes no 'events'; a request is no stroke"),
    ({"declaration": {"called_ball": "1", "called_pocket": "foot_left"}},
     r"steps\[0\]\.declaration: a kitchen_spot request .* takes no 'declaration'; the call"),
    ({"infractions": [{"code": "double_hit"}]},
     r"steps\[0\]\.infractions: a kitchen_spot request .* takes no 'infractions'"),
    ({"final": KITCHEN}, r"steps\[0\]\.final: a kitchen_spot request .* takes no 'final'"),
    ({"balls": {"Ann": "cue", "Bob": "1"}},
     r"steps\[0\]\.balls: a kitchen_spot request .* takes no 'balls'; .* in 'ball'"),
    ({"off_table": ["1"]}, r"steps\[0\]\.off_table: a kitchen_spot request .* takes no "),
])
def test_wpa_6_7_7_request_step_refuses_fields_it_does_not_take(fields, message):
    """The request is no stroke: events, a declaration, infractions or a layout after it were
    silently ignored; each is refused, naming the field."""
    with pytest.raises(ScenarioError, match=message):
        adjudicate(scenario(request(**fields)))


def test_wpa_6_7_7_a_request_gives_one_layout_and_names_a_known_request():
    with pytest.raises(ScenarioError, match=r"steps\[0\]: give 'initial' or 'before', not both"):
        adjudicate(scenario(request(before=KITCHEN)))
    step = request()
    del step["initial"]
    with pytest.raises(ScenarioError, match=r"steps\[0\]: a kitchen_spot request needs "
                                            r"'initial'"):
        adjudicate(scenario(step))
    with pytest.raises(ScenarioError, match=r"steps\[0\]\.request: 'lag' \(3\.6\) or, in 14\.1, "
                                            r"'kitchen_spot' \(6\.7\.7\), got None"):
        adjudicate(scenario(request(request=None)))


# -- 6.7.7 with 3.32: the request goes on from the table the step before left ----------------
def test_wpa_3_32_a_request_table_holds_no_ball_the_step_before_left_off():
    """Bob scratches after pocketing the 4 (spotted, 6.13); Ann's request table may hold the
    balls left on the table, not a 7 that was never on it."""
    table = {"cue": [0.9, 1.0], "4": [0.15, 2.3], **KITCHEN}
    scratch = {"initial": table, "events": [
        {"t": 0.0, "kind": "strike", "a": "cue"},
        {"t": 0.2, "kind": "collide", "a": "cue", "b": "4"},
        {"t": 0.5, "kind": "pocket", "a": "4", "feature": "foot_left"},
        {"t": 0.7, "kind": "pocket", "a": "cue", "feature": "foot_right"}]}
    s = scenario(scratch, request({**KITCHEN, "7": [0.7, 0.2]}), ball_in_hand=None)
    with pytest.raises(ScenarioError, match=r"steps\[1\]\.initial: ball '7' is on the table, "
                                            r"but the step before left it off"):
        adjudicate(s)
    s["steps"][1] = request({**KITCHEN, "4": list(FOOT_SPOT)})  # the 4 spotted (6.13)
    with pytest.raises(ScenarioError, match="every object ball is behind the head string"):
        adjudicate(s)


# -- 6.7.7: only where a shot may be played ---------------------------------------------------
def test_wpa_6_7_7_request_refused_before_the_break():
    """3.8, 6.4: the opening break is played at a full rack; 6.7.7 comes in play."""
    s = {"game": "14.1", "players": ["Ann", "Bob"], "steps": [request()]}
    with pytest.raises(ScenarioError, match=r"steps\[0\]: state\.phase is 'break': the next "
                                            r"shot is the opening break"):
        adjudicate(s)
    g = StraightPool(players=("Ann", "Bob"))
    with pytest.raises(ValueError, match="state.phase is 'break'"):
        g.request_kitchen_spot(layout(KITCHEN_T))
    assert g.state.phase == "break"


def test_wpa_6_7_7_request_refused_after_the_match_is_over():
    over = {"phase": "match_over", "winner": "Ann", "frames_won": {"Ann": 1, "Bob": 0}}
    with pytest.raises(ScenarioError, match=r"steps\[0\]: the match is over \(won by Ann\)"):
        adjudicate(scenario(request(), **over))
    with pytest.raises(ValueError, match="the match is over"):
        in_play(**over).request_kitchen_spot(layout(KITCHEN_T))


def test_wpa_6_12_request_refused_while_a_choice_is_pending():
    with pytest.raises(ScenarioError, match=r"steps\[0\]: Bob must choose first \(WPA 6\.12\)"):
        adjudicate(scenario(request(), pending=PENDING_6_12, ball_in_hand=None))
    g = in_play(pending=PENDING_6_12, ball_in_hand=None)
    with pytest.raises(ValueError, match=r"must choose first .* before the 6\.7\.7 request"):
        g.request_kitchen_spot(layout(KITCHEN_T))
    # once chosen, the request is made
    out = adjudicate(scenario({"declaration": {"choice": "accept"}}, request(),
                              pending=PENDING_6_12, ball_in_hand=None))
    assert [d["id"] for d in out["steps"][1]["spotted"]] == ["2"]


def test_wpa_6_7_7_request_fault_is_one_line_exit_2(tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(scenario(request({**KITCHEN, "16": [0.5, 0.6]}))))
    assert main(["adjudicate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "steps[0].initial: unknown ball id '16'" in err


# -- 3.8: the opening break is played with the cue ball in hand behind the head string -------
@pytest.mark.parametrize(("game", "placement"), [
    ("straight_pool", None), ("eight_ball", None), ("nine_ball", None),
    ("eight_ball", "table"), ("nine_ball", "table")])
def test_wpa_3_8_a_break_state_has_the_cue_ball_in_hand_behind_the_head_string(game, placement):
    d = {"game": game, "players": ["Ann", "Bob"], "shooter": "Ann", "phase": "break",
         "ball_in_hand": placement}
    shown = "null" if placement is None else repr(placement)
    message = (r"state\.ball_in_hand must be 'kitchen' in phase 'break' .* WPA 3\.8\), or null "
               rf"while a choice is pending \(state\.pending\), got {shown}")
    with pytest.raises(ScenarioError, match=message):
        adjudicate({"game": game, "state": d, "shot": {"declaration": {}}})
    cls = {"straight_pool": StraightPool, "eight_ball": EightBall, "nine_ball": NineBall}[game]
    with pytest.raises(ValueError, match=message):
        cls(state=PoolState(game=game, players=["Ann", "Bob"], shooter="Ann", breaker="Ann",
                            phase="break", ball_in_hand=placement))


def test_wpa_3_8_a_break_from_beyond_the_head_string_is_never_ruled_legal():
    """The audit's case: a state claiming no ball in hand before the break let a break from
    the middle of the table stand as legal."""
    rack = {p.id: [p.x, p.y] for p in rack_layout("straight_pool").pieces}
    events = [{"t": 0.0, "kind": "strike", "a": "cue"},
              {"t": 0.5, "kind": "collide", "a": "cue", "b": "6"},
              *[{"t": 0.5, "kind": "collide", "a": "6", "b": b} for b in rack if b != "6"],
              {"t": 0.8, "kind": "rail", "a": "cue", "feature": "foot_rail"},
              {"t": 0.9, "kind": "rail", "a": "2", "feature": "foot_rail"},
              {"t": 1.0, "kind": "rail", "a": "3", "feature": "foot_rail"}]
    brk = {"initial": {"cue": [0.635, 1.5], **rack}, "events": events}
    with pytest.raises(ScenarioError, match=r"state\.ball_in_hand must be 'kitchen'"):
        adjudicate({"game": "14.1", "state": state(shooter="Ann", phase="break",
                                                   ball_in_hand=None), "shot": brk})
    ruling = adjudicate({"game": "14.1", "players": ["Ann", "Bob"], "shot": brk}
                        )["steps"][0]["ruling"]
    assert not ruling["legal"]  # from a new game: in hand behind the head string (3.10)


def test_wpa_6_7_5_the_break_state_the_referee_reaches_with_a_choice_pending_loads_again():
    """The one break-phase state without ball in hand that a referee reaches: Bob's deliberate
    interference (6.7.5) before Ann's opening break leaves her choice pending, ball in hand
    null until she chooses. It loads again, and its choices go on from it."""
    g = StraightPool(players=("Ann", "Bob"))
    rack = {p.id: (p.x, p.y) for p in rack_layout("straight_pool").pieces}
    out = g.play(shot([], {"cue": KITCHEN_CUE, **rack},
                      infractions=[foul("deliberate_interference", player="Bob")]))
    st = out.state
    assert st.phase == "break" and st.ball_in_hand is None and st.pending is not None
    again = StraightPool(state=PoolState.from_dict(st.to_dict()))
    assert again.choose("accept").state.ball_in_hand == "kitchen"
    res = adjudicate({"game": "14.1", "state": st.to_dict(),
                      "steps": [{"declaration": {"choice": "rerack"}}]})
    assert res["state"]["phase"] == "break" and res["state"]["ball_in_hand"] == "kitchen"


# -- fields of another kind of step on a shot: the lag's off_table and balls, 6.7.7's ball ---
SHOT_14_1 = {"initial": {"cue": [0.9, 1.2], "4": [0.3, 1.0], "5": [0.5, 1.5]},
             "events": [{"t": 0.0, "kind": "strike", "a": "cue"},
                        {"t": 0.2, "kind": "collide", "a": "cue", "b": "4"},
                        {"t": 0.3, "kind": "rail", "a": "4", "feature": "foot_rail"}]}
SHOT_9 = {"initial": {"cue": [0.9, 1.2], "4": [0.3, 1.0], "9": [0.5, 1.5]},
          "events": SHOT_14_1["events"]}
SHOT_8 = {"initial": {"cue": [0.9, 1.2], "4": [0.3, 1.0], "8": [0.5, 1.5]},
          "events": SHOT_14_1["events"]}
GAMES = {"14.1": SHOT_14_1, "9-ball": SHOT_9, "8-ball": SHOT_8}


def in_play_scenario(game: str, step: dict) -> dict:
    name = {"14.1": "straight_pool", "9-ball": "nine_ball", "8-ball": "eight_ball"}[game]
    st = {"game": name, "players": ["Ann", "Bob"], "shooter": "Ann", "phase": "play",
          "ball_in_hand": None}
    return {"game": game, "state": st, "steps": [step]}


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize(("field", "value", "home"), [
    ("off_table", ["4"], r"a shot's balls off the table go in 'infractions' as \{'code': "
                         r"'off_table', 'pieces': \[\.\.\.\]\} \(WPA 3\.28\)"),
    ("balls", {"Ann": "cue", "Bob": "4"}, r"'balls' maps each player to his ball in a lag"),
    ("ball", "4", r"'ball' names the ball to spot in a 14\.1 kitchen_spot request .* "
                  r"declaration\.called_ball"),
])
def test_wpa_3_28_a_shot_step_refuses_the_lag_s_and_the_request_s_fields(game, field, value,
                                                                         home):
    """`"off_table": ["4"]` on a shot was ignored and the shot ruled legal: a shot's balls off
    the table are declared as the 3.28 infraction. The same loader reads 8- and 9-ball."""
    step = {**copy.deepcopy(GAMES[game]), field: value}
    with pytest.raises(ScenarioError, match=rf"steps\[0\]\.{field}: a shot step takes no "
                                            rf"'{field}'; {home}"):
        adjudicate(in_play_scenario(game, step))
    step = {**copy.deepcopy(GAMES[game]),
            "infractions": [{"code": "off_table", "pieces": ["4"]}]}
    ruling = adjudicate(in_play_scenario(game, step))["steps"][0]["ruling"]
    assert "WPA 3.28" in [v["article"] for v in ruling["violations"]]


# -- 3.6: the lag keeps its fields, and comes before the match's first break -----------------
LAG = {"request": "lag", "balls": {"Ann": "cue", "Bob": "1"},
       "initial": {"cue": [0.4, 0.5], "1": [0.9, 0.5]},
       "events": [{"t": 0.0, "kind": "strike", "a": "cue"},
                  {"t": 0.0, "kind": "strike", "a": "1"},
                  {"t": 1.1, "kind": "rail", "a": "cue", "feature": "foot_rail"},
                  {"t": 1.2, "kind": "rail", "a": "1", "feature": "foot_rail"}],
       "final": {"cue": [0.4, 0.30], "1": [0.9, 0.5]}}


def break_step() -> dict:
    rack = {p.id: [p.x, p.y] for p in rack_layout("straight_pool").pieces}
    events = [{"t": 0.0, "kind": "strike", "a": "cue"},
              {"t": 0.2, "kind": "line", "a": "cue", "feature": "head_string", "direction": 1},
              {"t": 0.5, "kind": "collide", "a": "cue", "b": "6"},
              *[{"t": 0.5, "kind": "collide", "a": "6", "b": b} for b in rack if b != "6"],
              {"t": 0.8, "kind": "rail", "a": "cue", "feature": "foot_rail"},
              {"t": 0.9, "kind": "rail", "a": "2", "feature": "foot_rail"},
              {"t": 1.0, "kind": "rail", "a": "3", "feature": "foot_rail"}]
    return {"initial": {"cue": list(KITCHEN_CUE), **rack}, "events": events}


@pytest.mark.parametrize("game", ["14.1", "9-ball", "8-ball"])
def test_wpa_3_6_the_lag_takes_off_table_and_balls_and_not_a_shot_s_fields(game):
    lag = {**copy.deepcopy(LAG), "off_table": ["1"], "final": {"cue": [0.4, 0.30]}}
    ruling = adjudicate({"game": game, "players": ["Ann", "Bob"], "steps": [lag]}
                        )["steps"][0]["ruling"]
    assert ruling["winner"] == "Ann" and "WPA 3.6 (d)" in [v["article"]
                                                           for v in ruling["violations"]]
    for field, value in (("declaration", {"safety": True}), ("ball", "1"),
                         ("infractions", [{"code": "off_table", "pieces": ["1"]}])):
        with pytest.raises(ScenarioError, match=rf"steps\[0\]\.{field}: a lag step .* takes no "
                                                rf"'{field}'"):
            adjudicate({"game": game, "players": ["Ann", "Bob"],
                        "steps": [{**copy.deepcopy(LAG), field: value}]})


def test_wpa_3_6_the_break_after_the_lag_is_racked_afresh():
    """The lag's table is not the game's: the opening break after it, at a full rack, was
    refused as bringing back balls the lag's layout did not hold."""
    res = adjudicate({"game": "14.1", "players": ["Ann", "Bob"],
                      "steps": [copy.deepcopy(LAG), break_step()]})
    assert res["steps"][0]["ruling"]["winner"] == "Ann"
    assert res["steps"][1]["ruling"]["legal"] and res["state"]["phase"] == "play"


def test_wpa_3_6_no_lag_once_the_match_is_under_way():
    """The lag decides the match's first break (3.6, 3.7); later breaks follow 3.36."""
    with pytest.raises(ScenarioError, match=r"steps\[0\]\.request: the lag \(WPA 3\.6\) decides "
                                            r"who breaks the match's first game; .*\(phase "
                                            r"'play'"):
        adjudicate(scenario(copy.deepcopy(LAG)))
    with pytest.raises(ScenarioError, match=r"steps\[1\]\.request: the lag"):
        adjudicate({"game": "14.1", "players": ["Ann", "Bob"],
                    "steps": [break_step(), copy.deepcopy(LAG)]})


# -- 3.28: a ball off the table was set in motion by the stroke ------------------------------
def test_wpa_3_28_off_table_names_a_ball_the_log_set_in_motion():
    g = in_play(shooter="Ann", ball_in_hand=None)
    ev = [strike(), hit(0.2, "4"), rail(0.3, "4")]
    with pytest.raises(ValueError, match="off_table names ball '5', which nothing in the event "
                                         "log set in motion"):
        g.play(shot(ev, {"cue": (0.9, 1.2), "4": (0.3, 1.0), "5": (0.5, 1.5)},
                    infractions=[foul("off_table", "5")]))


def test_wpa_6_7_7_request_on_an_8_ft_table_uses_its_marks():
    """A request on a smaller table (its head string and foot spot, 3.16) is not refused by
    the layout check, which reads the table the layout names."""
    from cuesim.tables.pool_spots import marks_for

    m = marks_for("pool_8ft")
    lay = {"table": "pool_8ft", "pieces": [
        {"id": "3", "kind": "ball", "x": 0.3, "y": 0.2},
        {"id": "7", "kind": "ball", "x": 0.6, "y": m.head_string_y - 0.05}]}
    out = adjudicate(scenario(request(lay)))["steps"][0]
    seven = next(p for p in out["layout"]["pieces"] if p["id"] == "7")
    assert (seven["x"], seven["y"]) == pytest.approx(m.foot_spot)
    assert m.foot_spot != pytest.approx(FOOT_SPOT)
