"""The checks that refuse an event log that cannot have happened (`rules.event_log.check_event_log`,
run by every scenario file and by the pool referee on every shot) accept every log the
simulator writes: breaks, openings and random shots of every game, pins included, game after
game from where the last shot left the pieces."""

from __future__ import annotations

import math
import re
from dataclasses import replace

import numpy as np
import pytest

from cuesim.api import game_table, simulate, start_layout
from cuesim.rules.event_log import check_event_log
from cuesim.rules.files import ScenarioError, check_shot_layouts
from cuesim.shot import CueShot, NovusShot, ShotError
from cuesim.sim.events import EventKind
from cuesim.sim.result import Event
from cuesim.tables.layout import Layout, LayoutError

STRUCK = {"novus": "striker", "novus-doubles": "striker", "8-ball": "cue", "9-ball": "cue",
          "14.1": "cue", "5-pins": "white"}


def random_shot(game: str, rng: np.random.Generator, first: bool) -> NovusShot | CueShot:
    if game.startswith("novus"):
        return NovusShot(x=float(rng.uniform(0.25, 0.75)),
                         angle=float(rng.uniform(math.radians(30), math.radians(150))),
                         speed=float(rng.uniform(1.0, 8.0)),
                         offset=float(rng.uniform(-0.01, 0.01)))
    speed = float(rng.uniform(6.0, 10.0) if first else rng.uniform(0.5, 6.0))
    angle = (math.pi / 2 + float(rng.uniform(-0.03, 0.03))) if first else float(
        rng.uniform(0.0, 2 * math.pi))
    return CueShot(angle=angle, speed=speed, side=float(rng.uniform(-0.3, 0.3)),
                   height=float(rng.uniform(-0.3, 0.3)), ball=STRUCK[game])


@pytest.mark.parametrize("game", sorted(STRUCK))
def test_every_simulated_log_passes_the_checks(game):
    table = game_table(game)
    rng = np.random.default_rng(20)
    layout, first, checked, pieces_hit = start_layout(game, table), True, 0, 0
    for _ in range(40):
        try:
            result = simulate(table, layout, random_shot(game, rng, first))
        except (ShotError, LayoutError):  # the striker's place taken, and the like: restart
            layout, first = start_layout(game, table), True
            continue
        log = result.event_log()
        check_event_log(log, list(layout.ids()), "shot", table)
        final = result.final
        if final is not None:  # every piece that moved is named by an event; the layout as
            # played (a novus shot places the striker) for the sides lines are crossed from
            check_shot_layouts(table, result.initial, final, log, "shot", ("initial", "final"))
        checked += 1
        pieces_hit += sum(e.kind in (EventKind.COLLIDE, EventKind.PIN)  # 5-pins: pins knocked
                          and STRUCK[game] not in (e.a, e.b) for e in log)  # by other pieces
        if final is None or STRUCK[game] not in final.ids() or len(final.pieces) < 3:
            layout, first = start_layout(game, table), True
        else:
            layout, first = final, False
    assert checked >= 30
    assert pieces_hit > 0  # chains of pieces set moving by pieces, not only by the struck one


@pytest.mark.parametrize(("events", "message"), [
    ([Event(0.0, EventKind.STRIKE, "cue"), Event(0.2, EventKind.RAIL, "2", feature="foot_rail")],
     r"rail of '2' at 0\.2 s, but nothing set '2' in motion"),
    ([Event(0.2, EventKind.COLLIDE, "cue", "1")], "nothing set 'cue' and '1' in motion"),
    ([Event(0.0, EventKind.STRIKE, "cue"), Event(0.1, EventKind.COLLIDE, "cue", "cue")],
     "'cue' cannot collide with itself"),
    ([Event(0.0, EventKind.STRIKE, "cue"), Event(0.1, EventKind.STRIKE, "cue")],
     "a second strike of 'cue'"),
    ([Event(0.0, EventKind.STRIKE, "cue"), Event(0.1, EventKind.COLLIDE, "cue", "1"),
      Event(0.3, EventKind.POCKET, "1", feature="foot_left"),
      Event(0.4, EventKind.RAIL, "1", feature="foot_rail")], "after it dropped"),
    # one piece per event but a collide's and a pin's: a 'b' on a rail event made the 2 count
    # as touched, so it could lie anywhere after the shot with nothing having moved it
    ([Event(0.0, EventKind.STRIKE, "cue"), Event(0.1, EventKind.COLLIDE, "cue", "1"),
      Event(0.3, EventKind.RAIL, "cue", "2", feature="foot_rail")],
     r"events\[2\]\.b: a rail event has one piece"),
    ([Event(0.0, EventKind.STRIKE, "cue", "1")], r"events\[0\]\.b: a strike event"),
    ([Event(0.0, EventKind.STRIKE, "cue"), Event(0.4, EventKind.STOP, "cue", "2")],
     r"events\[1\]\.b: a stop event"),
    ([Event(0.0, EventKind.STRIKE, "cue"),
      Event(0.1, EventKind.COLLIDE, "cue", "1", feature="foot_rail")],
     r"events\[1\]\.feature: a collide event has no feature"),
])
def test_logs_that_cannot_have_happened_are_refused(events, message):
    with pytest.raises(ScenarioError, match=message):
        check_event_log(events, ["cue", "1", "2"], "shot", game_table("9-ball"))


def test_a_chain_at_one_instant_is_taken_together():
    """A multiple impact logs the contacts of a frozen rack at one time in any order: the 2-3
    contact may come before the 1-2 contact that set the 2 moving."""
    events = [Event(0.0, EventKind.STRIKE, "cue"), Event(0.5, EventKind.COLLIDE, "2", "3"),
              Event(0.5, EventKind.COLLIDE, "1", "2"), Event(0.5, EventKind.COLLIDE, "cue", "1"),
              Event(0.9, EventKind.RAIL, "3", feature="foot_rail")]
    check_event_log(events, ["cue", "1", "2", "3"], "shot", game_table("9-ball"))


def test_a_lag_strikes_two_balls_and_a_crowded_pocket_may_be_touched():
    """WPA 3.6: the lag strikes both players' balls. WPA 3.20: a cue ball that touches a ball
    already pocketed (a crowded pocket) is a foul the referee must be able to rule."""
    lag = [Event(0.0, EventKind.STRIKE, "cue"), Event(0.05, EventKind.STRIKE, "1"),
           Event(1.0, EventKind.RAIL, "cue", feature="foot_rail")]
    check_event_log(lag, ["cue", "1"], "lag", game_table("9-ball"))
    crowded = [Event(0.0, EventKind.STRIKE, "cue"), Event(0.1, EventKind.COLLIDE, "cue", "1"),
               Event(0.3, EventKind.POCKET, "1", feature="foot_left"),
               Event(0.5, EventKind.COLLIDE, "cue", "1")]
    check_event_log(crowded, ["cue", "1"], "shot", game_table("9-ball"))
    with pytest.raises(ScenarioError, match="after it dropped"):  # a novus hole has no crowd
        check_event_log([Event(0.0, EventKind.STRIKE, "striker"),
                         Event(0.1, EventKind.COLLIDE, "striker", "red1"),
                         Event(0.3, EventKind.POCKET, "red1", feature="north_east"),
                         Event(0.5, EventKind.COLLIDE, "striker", "red1")],
                        ["striker", "red1"], "shot", game_table("novus"))


def test_the_referees_python_api_checks_a_hand_written_log():
    """The referees' own doors (not only scenario files) refuse a hand-written log that cannot
    have happened; a log from the simulator (`shot_from_result`, `ShotRecord.from_result`)
    carries its result and is ruled."""
    from cuesim.rules.fivepins import FivePinsGame, FivePinsShot
    from cuesim.rules.novus import NovusGame
    from cuesim.rules.novus.shotlog import ShotRecord
    from cuesim.rules.pool import NineBall, PoolShot, shot_from_result

    table = game_table("9-ball")
    start = start_layout("9-ball", table)
    untouched = [Event(0.0, EventKind.STRIKE, "cue"),
                 Event(0.4, EventKind.RAIL, "9", feature="foot_rail")]
    with pytest.raises(ScenarioError, match="nothing set '9' in motion"):
        NineBall(players=("Ann", "Bob")).play(PoolShot(untouched, start, start))
    result = simulate(table, start, CueShot(angle=math.pi / 2, speed=8.0))
    assert NineBall(players=("Ann", "Bob")).play(shot_from_result(result)).ruling is not None

    pins = start_layout("5-pins")
    with pytest.raises(ScenarioError, match="nothing set 'red' in motion"):
        FivePinsGame(["Ann", "Bob"]).play(FivePinsShot(
            [Event(0.0, EventKind.STRIKE, "white"),
             Event(0.5, EventKind.RAIL, "red", feature="top_rail")], pins, pins))

    with pytest.raises(ScenarioError, match=r"events\[1\]\.b: a rail event"):
        FivePinsGame(["Ann", "Bob"]).play(FivePinsShot(
            [Event(0.0, EventKind.STRIKE, "white"),
             Event(0.5, EventKind.RAIL, "white", "pin_left", feature="top_rail")], pins, pins))

    novus = start_layout("novus")
    pucks = [p for p in novus.ids() if p != "striker"]
    with pytest.raises(ScenarioError, match=r"events\[1\]\.b: a rail event"):
        NovusGame(["Ann", "Bob"]).adjudicate(ShotRecord.from_parts(
            novus, novus, [Event(0.0, EventKind.STRIKE, "striker"),
                           Event(0.3, EventKind.RAIL, "striker", pucks[0], feature="north")]))
    with pytest.raises(ScenarioError, match="nothing set"):
        NovusGame(["Ann", "Bob"]).adjudicate(ShotRecord.from_parts(
            novus, novus, [Event(0.0, EventKind.STRIKE, "striker"),
                           Event(0.3, EventKind.COLLIDE, pucks[0], pucks[1])]))


def test_novus_13_17_1_o_a_strike_is_of_the_striker():
    """novus 13: the cue strikes the striker. A hand-written log whose `strike` names a puck was
    ruled as a shot in which the striker touched no puck (17.1.а); it is refused, at the API
    and in a scenario file, pointing to the declared 'touched_puck' (17.1.о)."""
    import json
    from pathlib import Path

    from cuesim.rules.files import adjudicate
    from cuesim.rules.novus import NovusGame
    from cuesim.rules.novus.shotlog import ShotRecord

    novus = start_layout("novus")
    puck = next(p for p in novus.ids() if p != "striker")
    message = (rf"events\[0\]\.a: a novus shot strikes the 'striker', not '{puck}'; .*"
               r"'touched_puck' \(novus 17\.1\.о\)")
    with pytest.raises(ValueError, match=message):
        NovusGame(["Ann", "Bob"]).adjudicate(ShotRecord.from_parts(
            novus, novus, [Event(0.0, EventKind.STRIKE, puck)]))
    path = Path(__file__).parent / "novus_scenarios" / "opening_miss.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["events"] == [{"t": 0.0, "kind": "strike", "a": "striker"}]
    assert adjudicate(data)["ruling"]["violations"][0]["article"] == "novus 17.1.а"
    data["events"][0]["a"] = "red2"
    with pytest.raises(ValueError, match=r"strikes the 'striker', not 'red2'"):
        adjudicate(data)


def test_the_referees_python_api_checks_hand_written_layouts():
    """The referees' own doors refuse hand-written layouts that cannot be on their table
    (overlapping pieces, a piece off the bed), as the scenario loaders do; after a novus shot
    a puck may rest on another (novus 12), so only each piece alone is checked there."""
    from cuesim.rules.novus import NovusGame
    from cuesim.rules.novus.shotlog import ShotRecord
    from cuesim.tables.layout import Layout

    novus = start_layout("novus")
    pucks = [p for p in novus.pieces if p.id != "striker"]
    a, b = pucks[0], pucks[1]
    stacked = Layout("novus", tuple(replace(p, x=a.x + 0.01, y=a.y) if p.id == b.id else p
                                    for p in novus.pieces))
    strike = [Event(0.0, EventKind.STRIKE, "striker")]
    with pytest.raises(ScenarioError, match=f"shot.initial: pieces .*{b.id!r}.* overlap"):
        NovusGame(["Ann", "Bob"]).adjudicate(ShotRecord.from_parts(stacked, novus, strike))
    off = Layout("novus", tuple(replace(p, x=-0.2) if p.id == a.id else p for p in novus.pieces))
    with pytest.raises(ScenarioError, match=f"shot.final: piece {a.id!r} .* not wholly"):
        NovusGame(["Ann", "Bob"]).adjudicate(ShotRecord.from_parts(novus, off, strike))
    onto = [*strike, Event(0.1, EventKind.COLLIDE, "striker", b.id)]  # b driven onto a
    NovusGame(["Ann", "Bob"]).adjudicate(ShotRecord.from_parts(novus, stacked, onto))
    with pytest.raises(ValueError, match="novus is played on the novus board"):
        NovusGame(["Ann", "Bob"]).adjudicate(ShotRecord.from_parts(
            Layout("carom", novus.pieces), novus, strike))


@pytest.mark.parametrize("game", ["9-ball", "novus", "5-pins"])
def test_a_final_layout_moving_a_piece_no_event_touches_is_refused(game):
    """A piece no event names cannot have moved: a final layout that moves it is no shot that
    happened, whatever the game (a hand-written coordinate may differ by its rounding, 1 um)."""
    table = game_table(game)
    before = start_layout(game, table)
    strike = [Event(0.0, EventKind.STRIKE, STRUCK[game])]

    def shifted(piece_id: str, dx: float, dy: float) -> Layout:
        return Layout(before.table, tuple(replace(p, x=p.x + dx, y=p.y + dy)
                                          if p.id == piece_id else p for p in before.pieces))

    def legal(layout: Layout) -> bool:
        try:
            table.check_layout(layout)
        except LayoutError:
            return False
        return True

    still, after = next((p, shifted(p.id, 0.002 * math.cos(a), 0.002 * math.sin(a)))
                        for p in before.pieces if p.id != STRUCK[game]
                        for a in np.linspace(0.0, 2 * math.pi, 8, endpoint=False)
                        if legal(shifted(p.id, 0.002 * math.cos(a), 0.002 * math.sin(a))))
    with pytest.raises(ScenarioError, match=rf"shot.final moves \['{still.id}'\], which no "
                                            "event touches"):
        check_shot_layouts(table, before, after, strike, "shot", ("initial", "final"))
    rounded = shifted(still.id, 4e-7 * (after.get(still.id).x - still.x) / 0.002,
                      4e-7 * (after.get(still.id).y - still.y) / 0.002)
    check_shot_layouts(table, before, rounded, strike, "shot", ("initial", "final"))
    touched = [*strike, Event(0.1, EventKind.COLLIDE, STRUCK[game], still.id)]
    check_shot_layouts(table, before, after, touched, "shot", ("initial", "final"))


def test_a_piece_at_rest_again_needs_a_new_cause():
    """After its stop a piece lies at rest (spin on the spot moves nothing): its next cushion
    needs a new collision first. A stop in the same instant as a hit is no rest."""
    table, ids = game_table("9-ball"), ["cue", "1", "2"]
    moved_alone = [Event(0.0, EventKind.STRIKE, "cue"), Event(0.1, EventKind.COLLIDE, "cue", "1"),
                   Event(0.5, EventKind.STOP, "1"),
                   Event(0.9, EventKind.RAIL, "1", feature="foot_rail")]
    with pytest.raises(ScenarioError, match=r"rail of '1' at 0\.9 s, but nothing set '1'"):
        check_event_log(moved_alone, ids, "shot", table)
    hit_again = [*moved_alone[:3], Event(0.7, EventKind.COLLIDE, "cue", "1"), moved_alone[3]]
    check_event_log(hit_again, ids, "shot", table)
    same_instant = [*moved_alone[:2], Event(0.5, EventKind.COLLIDE, "2", "1"),
                    Event(0.5, EventKind.STOP, "2"), Event(0.5, EventKind.STOP, "1"),
                    Event(0.5, EventKind.COLLIDE, "cue", "1"), moved_alone[3]]
    check_event_log(same_instant, ids, "shot", table)


@pytest.mark.parametrize("item, message", [
    ({"t": 0.2, "kind": "line", "a": "cue", "feature": "head_string", "direction": 5},
     "direction must be +1 or -1"),
    ({"t": 0.2, "kind": "line", "a": "cue", "feature": "head_string"},
     "direction must be +1 or -1"),
    ({"t": 0.2, "kind": "line", "a": "cue", "feature": "head_string", "direction": True},
     "direction must be +1 or -1"),
    ({"t": 0.2, "kind": "collide", "a": "cue", "b": "1", "direction": 0.5},
     "direction must be 0, +1 or -1"),
    ({"t": 0.2, "kind": "collide", "a": "cue", "b": "1", "speed": -1.0},
     "speed must be a finite speed >= 0"),
    ({"t": 0.2, "kind": "rail", "a": "cue", "feature": "foot_rail", "speed": math.inf},
     "speed must be a finite speed >= 0"),
])
def test_a_hand_written_event_that_cannot_have_happened_is_refused(item, message):
    """A line crossed in no direction (or 'direction 5'), a fractional direction, a negative or
    infinite speed: events the core cannot write are refused, not ruled on."""
    from cuesim.rules.files import parse_event

    with pytest.raises(ValueError, match=re.escape(message)):
        parse_event(item, "steps[0].events[1]")
    good = {**item, "direction": 1 if item["kind"] == "line" else 0, "speed": 1.0}
    assert parse_event(good, "steps[0].events[1]").direction == good["direction"]


def test_a_pin_event_where_no_pins_stand_is_refused():
    """Only 5-pins has pins (5-pins 1): a `pin` event in a log of the novus or pool referee
    cannot have happened and is refused by their own doors (was: ruled as a collision); the
    5-pins referee takes one, and without a table the check allows either."""
    from cuesim.rules.novus import NovusGame
    from cuesim.rules.novus.shotlog import ShotRecord
    from cuesim.rules.pool import NineBall, PoolShot

    novus = start_layout("novus")
    puck = next(p for p in novus.ids() if p != "striker")
    with pytest.raises(ScenarioError, match=r"shot\.events\[1\]\.kind: a pin event, but the "
                                            "novus table has no pins"):
        NovusGame(["Ann", "Bob"]).adjudicate(ShotRecord.from_parts(
            novus, novus, [Event(0.0, EventKind.STRIKE, "striker"),
                           Event(0.1, EventKind.PIN, "striker", puck)]))
    start = start_layout("9-ball")
    with pytest.raises(ScenarioError, match=r"shot\.events\[1\]\.kind: a pin event"):
        NineBall(players=("Ann", "Bob")).play(PoolShot(
            [Event(0.0, EventKind.STRIKE, "cue"), Event(0.1, EventKind.PIN, "cue", "9")],
            start, start))
    knock = [Event(0.0, EventKind.STRIKE, "white"),
             Event(0.1, EventKind.PIN, "white", "pin_centre")]
    check_event_log(knock, ["white", "pin_centre"], "shot", game_table("5-pins"))
    check_event_log(knock, ["white", "pin_centre"], "shot")
    with pytest.raises(ScenarioError, match="but the novus table has no pins"):
        check_event_log(knock, ["white", "pin_centre"], "shot", game_table("novus"))


def test_a_ball_may_rest_over_a_pin_it_knocked_down_but_not_over_a_standing_one():
    """5-pins 12: a knocked-down pin lies on the bed and the balls roll over it (the core:
    README), so a simulated shot can end with a ball over a felled pin. Its own layouts were
    refused when written into a scenario ("pieces 'white' and 'pin_centre' overlap by 14.780
    mm"; bench/tunnels.py 5-pins seed 4700079, 1 shot in 100); the felled pin is now checked
    alone, on the bed, as the shot files check it. A ball over a standing pin is refused still,
    and a felled pin off the bed too."""
    table = game_table("5-pins")
    start = start_layout("5-pins", table)
    spot = start.get("pin_centre")
    events = [Event(0.0, EventKind.STRIKE, "white"),
              Event(0.5, EventKind.PIN, "white", "pin_centre")]
    over = start.moved("white", spot.x + 0.01, spot.y)
    check_shot_layouts(table, start, over, events, "shot", ("initial", "final"))
    standing = events[:1] + [Event(0.5, EventKind.COLLIDE, "white", "pin_centre")]
    with pytest.raises(ScenarioError, match="'white' and 'pin_centre' overlap"):
        check_shot_layouts(table, start, over, standing, "shot", ("initial", "final"))
    off = start.moved("pin_centre", -0.5, spot.y).moved("white", spot.x, spot.y)
    with pytest.raises(ScenarioError, match="final"):
        check_shot_layouts(table, start, off, events, "shot", ("initial", "final"))


def test_a_simulated_five_pins_shot_with_a_ball_over_a_felled_pin_is_ruled_from_its_file():
    """The shot of bench/tunnels.py seed 4700079 (the table's physics) written into a scenario
    step, every piece where the simulator left it: `cuesim adjudicate` rules on it."""
    from bench.tunnels import shot_for
    from cuesim.rules.files import adjudicate

    case = shot_for("5-pins", 4700079)
    result = simulate(case.table, case.layout, case.shot)
    assert result.final.get("white").x != case.layout.get("white").x
    places = {p.id: [p.x, p.y] for p in result.final.pieces}
    white, pin = places["white"], places["pin_centre"]
    assert math.dist(white, pin) < 0.03  # over the felled centre pin
    step = {"before": {p.id: [p.x, p.y] for p in result.initial.pieces},
            "events": [e.to_dict() for e in result.event_log()], "after": places}
    ruling = adjudicate({"game": "five_pins", "players": ["Ann", "Bob"],
                         "options": {"points_to": 60, "breaker": "Ann"}, "steps": [step]})
    assert ruling
