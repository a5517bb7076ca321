"""Adjudication scenarios as JSON: a game, its state, and one or more steps (shots, choices,
requests) with hand-written or simulated event logs. The schema is in README.md beside this
file; every malformed input raises a ValueError that names the field."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Any

from cuesim.rules.files import (
    ScenarioError,
    check_one_of,
    check_scenario_fields,
    check_shot,
    check_types,
    hand_moved,
    open_step,
    parse_event,
    parse_infractions,
    players_and_options,
    read_json,
    scenario_steps,
)
from cuesim.rules.pool.base import PoolGame
from cuesim.rules.pool.eight_ball import EightBall
from cuesim.rules.pool.general import HAND_MOVES
from cuesim.rules.pool.model import CUE, POOL_TABLE, Declaration, Outcome, PoolShot, PoolState
from cuesim.rules.pool.nine_ball import NineBall
from cuesim.rules.pool.straight_pool import StraightPool, check_request
from cuesim.sim.events import EventKind
from cuesim.tables.layout import Layout, LayoutError, Piece
from cuesim.tables.pool import CUSHION_NAMES
from cuesim.tables.pool_spots import CUSHION_RAIL, POCKETS

GAMES: dict[str, type[PoolGame]] = {
    "eight_ball": EightBall,
    "nine_ball": NineBall,
    "straight_pool": StraightPool,
}
GAME_ALIASES = {"8-ball": "eight_ball", "9-ball": "nine_ball", "14.1": "straight_pool",
                "8ball": "eight_ball", "9ball": "nine_ball", "straight": "straight_pool"}
# the fields each kind of step takes: a shot (or a choice), the lag (3.6), the 14.1 request to
# spot a ball in the kitchen (6.7.7); `note`, `description` and `expect` are free text
TEXT_KEYS = {"note", "description", "expect"}
SHOT_KEYS = {"events", "initial", "final", "before", "after", "declaration", "infractions",
             *TEXT_KEYS}
LAG_KEYS = {"request", "balls", "events", "initial", "final", "before", "after", "off_table",
            *TEXT_KEYS}
KITCHEN_SPOT_KEYS = {"request", "initial", "before", "ball", *TEXT_KEYS}
STEP_FIELDS = {"shot": SHOT_KEYS, "lag": LAG_KEYS, "kitchen_spot": KITCHEN_SPOT_KEYS}
STEP_KEYS = SHOT_KEYS | LAG_KEYS | KITCHEN_SPOT_KEYS
STEP_NAMES = {"shot": "a shot step", "lag": "a lag step ({'request': 'lag'}, WPA 3.6)",
              "kitchen_spot": "a kitchen_spot request ({'request': 'kitchen_spot'}, WPA 6.7.7)"}
# where what a field says goes in a step of another kind, for the message that refuses it
FIELD_HOMES = {
    ("shot", "off_table"): "a shot's balls off the table go in 'infractions' as {'code': "
                           "'off_table', 'pieces': [...]} (WPA 3.28); 'off_table' is the lag's",
    ("shot", "balls"): "'balls' maps each player to his ball in a lag ({'request': 'lag'}, "
                       "WPA 3.6)",
    ("shot", "ball"): "'ball' names the ball to spot in a 14.1 kitchen_spot request (WPA "
                      "6.7.7); a shot's called ball goes in declaration.called_ball",
    ("lag", "ball"): "a lag's balls go in 'balls', player -> ball",
    ("lag", "declaration"): "a lag has no call, safety or choice",
    ("lag", "infractions"): "a lag's balls off the table go in 'off_table' (WPA 3.6 (d))",
    ("kitchen_spot", "balls"): "a request names the ball to spot, if more than one is nearest "
                               "the head string, in 'ball'",
    ("kitchen_spot", "off_table"): "a request is no stroke: no ball leaves the table",
    ("kitchen_spot", "events"): "a request is no stroke: the referee spots the ball, and the "
                                "shot after it carries the events",
    ("kitchen_spot", "final"): "the referee spots the ball: the step's outcome is the table "
                               "after it",
    ("kitchen_spot", "after"): "the referee spots the ball: the step's outcome is the table "
                               "after it",
    ("kitchen_spot", "declaration"): "the call, safety or choice goes with the shot after the "
                                     "request (a choice pending comes before it)",
    ("kitchen_spot", "infractions"): "infractions go with a shot step",
}
# The novus scenario's single-shot form: these keys at the top level make one step.
TOP_SHOT_KEYS = {"events", "before", "after", "initial", "final", "declaration", "infractions"}
DECLARATION_KEYS = set(Declaration.__dataclass_fields__)
OPTION_KEYS = {"breaker", "race_to", "break_order", "points_to"}
SCENARIO_KEYS = {"game", "players", "options", "state", "shot", "steps", "description", "note",
                 "expect", *TOP_SHOT_KEYS}


def make_game(data: dict[str, Any]) -> PoolGame:
    """The game object of a scenario: from `state` if given, else new from players/options."""
    if not isinstance(data, dict):
        raise ValueError(f"scenario must be a JSON object, got {type(data).__name__}")
    if "game" not in data:
        raise ValueError(f"scenario: missing field 'game' (one of {sorted(GAMES)})")
    name = GAME_ALIASES.get(str(data["game"]), str(data["game"]))
    if name not in GAMES:
        raise ValueError(f"scenario: unknown game {data['game']!r}; games are {sorted(GAMES)}")
    cls = GAMES[name]
    check_scenario_fields(data, SCENARIO_KEYS)
    if "state" in data:
        if not isinstance(data["state"], dict):
            raise ValueError("scenario.state must be an object")
        check_types(data["state"], PoolState, "scenario.state")
        state = dict(data["state"])
        state.setdefault("game", name)
        if state["game"] != name:
            raise ValueError(f"scenario.state.game {state['game']!r} differs from game {name!r}")
        return cls(state=PoolState.from_dict(state))
    # 14.1 is played to a number of points (6.1); 8-ball and 9-ball to a number of racks
    keys = OPTION_KEYS if name == "straight_pool" else OPTION_KEYS - {"points_to"}
    players, options = players_and_options(data, keys, cls)
    return cls(players=players, **options)


def parse_layout(data: Any, where: str) -> Layout:
    """A layout object (cuesim.tables.layout schema) or the short form {"cue": [x, y], ...}."""
    if isinstance(data, dict) and "pieces" not in data:
        pieces = []
        for bid, xy in data.items():
            if (not isinstance(xy, list | tuple) or len(xy) != 2
                    or not all(isinstance(v, int | float) and not isinstance(v, bool)
                               for v in xy)):
                raise ValueError(f"{where}.{bid} must be [x, y] in metres, got {xy!r}")
            group = "cue" if bid == CUE else "ball"
            pieces.append(Piece(str(bid), "ball", float(xy[0]), float(xy[1]), group))
        try:
            return Layout(POOL_TABLE, tuple(pieces))
        except LayoutError as exc:
            raise ValueError(f"{where}: {exc}") from exc
    try:
        return Layout.from_dict(data, source=where, table=POOL_TABLE)
    except LayoutError as exc:
        raise ValueError(str(exc)) from exc


def parse_declaration(data: Any, where: str,
                      ball_ids: Collection[str] = PoolGame.ball_ids) -> Declaration:
    """A shot's declaration: its fields and their types, and the names in it those of the
    game's balls (`ball_ids`, the game's `ball_ids`; a call names an object ball) and of the
    table's pockets and cushions (or whole rails: head, foot, left, right)."""
    if data is None:
        return Declaration()
    if not isinstance(data, dict):
        raise ValueError(f"{where} must be an object")
    unknown = sorted(set(data) - DECLARATION_KEYS)
    if unknown:
        raise ValueError(f"{where}: unknown field(s) {unknown}; fields are "
                         f"{sorted(DECLARATION_KEYS)}")
    check_types(data, Declaration, where)
    values = dict(data)
    for key in ("called_ball", "called_pocket", "choice"):
        if values.get(key) is not None:
            values[key] = str(values[key])
    for key in ("frozen", "jammed"):
        if not isinstance(values.get(key, {}), dict):
            raise ValueError(f"{where}.{key} must be an object ball id -> name")
        values[key] = {str(k): str(v) for k, v in values.get(key, {}).items()}
    decl = Declaration(**values)
    if decl.called_ball is not None:
        check_one_of(decl.called_ball, [b for b in ball_ids if b != CUE],
                     f"{where}.called_ball", "object balls")
    if decl.called_pocket is not None:
        check_one_of(decl.called_pocket, list(POCKETS), f"{where}.called_pocket", "pockets")
    cushions = [*CUSHION_NAMES, *dict.fromkeys(CUSHION_RAIL.values())]
    for ball, cushion in decl.frozen.items():
        check_one_of(ball, ball_ids, f"{where}.frozen", "balls")
        check_one_of(cushion, cushions, f"{where}.frozen.{ball}", "cushions and rails")
    for ball, pocket in decl.jammed.items():
        check_one_of(ball, ball_ids, f"{where}.jammed", "balls")
        check_one_of(pocket, list(POCKETS), f"{where}.jammed.{ball}", "pockets")
    return decl


def parse_shot(step: Any, where: str,
               ball_ids: Collection[str] = PoolGame.ball_ids) -> PoolShot:
    """One shot step of a scenario; the names its declaration gives are the game's
    (`ball_ids`, `parse_declaration`)."""
    step, named, events, initial = open_step(step, where, SHOT_KEYS, parse_layout)
    infractions = parse_infractions(step, where)
    decl = parse_declaration(step.get("declaration"), f"{where}.declaration", ball_ids)
    if "final" in step:
        final = parse_layout(step["final"], f"{where}.{named['final']}")
    elif initial is not None:
        gone = [e.a for e in events if e.kind == EventKind.POCKET]
        gone += [p for i in infractions if i.code == "off_table" for p in i.pieces]
        if decl.jammed:  # 3.33: where the jammed balls lie is what the referee judges
            raise ValueError(f"{where}.declaration.jammed: give the layout after the shot "
                             f"('final' or 'after') with the jammed balls in the pocket's jaws "
                             "(WPA 3.33)")
        final = initial.without(gone, missing_ok=True)  # unknown ids: check_shot
    else:
        final = None
    check_shot(events, initial, final, where, (named["initial"], named["final"]),
               hand_moved(infractions, HAND_MOVES))
    return PoolShot(events, initial, final, decl, infractions)


def run_lag(game: PoolGame, step: dict[str, Any], where: str) -> Outcome:
    """The lag for the break (WPA 3.6): `balls` maps each player to his ball's id, `initial`
    and `final` the layouts, `events` the log, `off_table` the balls that left the table.
    The ruling names the winner, who breaks or passes the break (3.7); the game is unchanged.
    The lag decides the match's first break: it is refused once the match is under way (after
    the first opening break, a choice pending, a later game: 3.36 decides its break)."""
    from cuesim.rules.pool.general import adjudicate_lag

    st = game.state
    if st.phase != "break" or st.frame != 1 or st.pending is not None:
        raise ScenarioError(f"{where}.request: the lag (WPA 3.6) decides who breaks the match's "
                            f"first game; here the match is under way (phase {st.phase!r}, "
                            f"frame {st.frame}" + (", a choice pending" if st.pending else "")
                            + "; later breaks follow WPA 3.36)")
    balls = step.get("balls")
    players = list(game.state.players)
    if (not isinstance(balls, dict) or sorted(balls) != sorted(players)
            or not all(isinstance(b, str) for b in balls.values())
            or len(set(balls.values())) != 2):
        raise ScenarioError(f"{where}.balls must map each player {players} to his own ball's "
                            f"id, got {balls!r}")
    off_table = step.get("off_table", [])
    if not isinstance(off_table, list) or not all(b in balls.values() for b in off_table):
        raise ScenarioError(f"{where}.off_table must list lag balls, got {off_table!r}")
    for key, alias in (("initial", "before"), ("final", "after")):
        if key in step and alias in step:
            raise ScenarioError(f"{where}: give {key!r} or {alias!r}, not both")
        if key not in step and alias not in step:
            raise ScenarioError(f"{where}: a lag needs {key!r} (the layout {alias} it)")
    initial = parse_layout(step.get("initial", step.get("before")), f"{where}.initial")
    final = parse_layout(step.get("final", step.get("after")), f"{where}.final")
    missing = sorted(set(balls.values()) - set(initial.ids()))
    if missing:
        raise ScenarioError(f"{where}.initial has no lag ball {missing}")
    events_data = step.get("events", [])
    if not isinstance(events_data, list):
        raise ScenarioError(f"{where}.events must be a list")
    events = [parse_event(e, f"{where}.events[{k}]") for k, e in enumerate(events_data)]
    check_shot(events, initial, final, where, ("initial", "final"))
    lag = adjudicate_lag(events, final, dict(balls), tuple(off_table))
    assert lag.ruling is not None
    return Outcome(lag.ruling, game.state, final)


def step_kind(step: Any, game: PoolGame, where: str) -> str:
    """What a step is: 'shot' (a shot or a choice), 'lag' or, in 14.1, 'kitchen_spot' (its
    `request`); the step's fields those of its kind (`STEP_FIELDS`): an unknown field, or one
    of another kind of step, is refused, naming the field and where what it says goes."""
    if not isinstance(step, dict):
        raise ValueError(f"{where} must be an object")
    kind = "shot"
    if "request" in step:
        kind = step["request"]
        if kind not in ("lag", "kitchen_spot") or (kind == "kitchen_spot"
                                                   and not isinstance(game, StraightPool)):
            raise ValueError(f"{where}.request: 'lag' (3.6) or, in 14.1, 'kitchen_spot' "
                             f"(6.7.7), got {step['request']!r}")
    unknown = sorted(set(step) - STEP_KEYS)
    if unknown:
        raise ValueError(f"{where}: unknown field(s) {unknown}; fields are {sorted(STEP_KEYS)}")
    keys = STEP_FIELDS[kind]
    for key in sorted(set(step) - keys):
        home = FIELD_HOMES.get((kind, key))
        raise ValueError(f"{where}.{key}: {STEP_NAMES[kind]} takes no {key!r}"
                         + (f"; {home}" if home else "") + f"; its fields are {sorted(keys)}")
    return kind


def run_kitchen_spot(game: StraightPool, step: dict[str, Any], where: str) -> Outcome:
    """The 14.1 request of 6.7.7: `initial` (or `before`), the table with the cue ball in
    hand, and `ball`, the one to spot if more than one is nearest the head string; checked as
    a shot's layout is (`straight_pool.check_request`), and refused where no shot may be
    played (`StraightPool.request_kitchen_spot`)."""
    if "initial" in step and "before" in step:
        raise ValueError(f"{where}: give 'initial' or 'before', not both")
    key = "initial" if "initial" in step else "before"
    if key not in step:
        raise ValueError(f"{where}: a kitchen_spot request needs 'initial' (the table with the "
                         "cue ball in hand)")
    layout = parse_layout(step[key], f"{where}.{key}")
    ball = step.get("ball")
    check_request(layout, ball, game.ball_ids, (f"{where}.{key}", f"{where}.ball"))
    try:
        return game.request_kitchen_spot(layout, ball)
    except ValueError as exc:  # what the referee refuses, named by its step
        raise ValueError(f"{where}: {exc}") from None


def run_step(game: PoolGame, step: Any, where: str) -> Outcome:
    """Rule on one step of its kind (`step_kind`): a shot or choice, the lag, a request."""
    kind = step_kind(step, game, where)
    if kind == "lag":
        return run_lag(game, step, where)
    if kind == "kitchen_spot":
        assert isinstance(game, StraightPool)
        out = run_kitchen_spot(game, step, where)
        game.state = out.state
        return out
    shot = parse_shot(step, where, game.ball_ids)
    try:
        return game.play(shot)
    except ValueError as exc:  # what the referee refuses, named by its step
        exc.args = (f"{where}: {exc}", *exc.args[1:])
        raise


def check_continues(before: Outcome | None, step: Any, where: str,
                    ball_ids: Collection[str] | None = None) -> None:
    """A shot step, or a 14.1 request (6.7.7), goes on from the table the step before left
    (its outcome's `layout`): a ball that step left off the table (pocketed and not spotted:
    only the games' spotting rules, WPA 3.32, bring one back) cannot stand in this step's
    initial layout. The cue ball may (ball in hand leaves it out of the layout), and so may
    every ball after a new rack (`rack`). A ball a step leaves out of its layout is off the
    table from then on. `before` is the last outcome with a table: a choice step in between
    changes none. The lag (3.6) is played before the rack, on a table of its own. Ids that are
    not the game's (`ball_ids`, if given) are left to the referee, which names them."""
    if before is None or before.layout is None or before.rack is not None \
            or not isinstance(step, dict) or step.get("request") == "lag":
        return
    key = "initial" if "initial" in step else "before"
    if key not in step:
        return
    left = set(before.layout.ids()) | {CUE}
    back = [b for b in parse_layout(step[key], f"{where}.{key}").ids()
            if b not in left and (ball_ids is None or b in ball_ids)]
    if back:
        raise ScenarioError(f"{where}.{key}: ball {back[0]!r} is on the table, but the step "
                            "before left it off (pocketed and not spotted; a choice in between "
                            "changes no table): a pocketed ball comes back only by spotting "
                            "(WPA 3.32) or a new rack")


def adjudicate_scenario(data: dict[str, Any]) -> dict[str, Any]:
    """Rule on every step of a scenario; returns {"game", "steps": [outcome, ...], "state",
    "layout"} (schema in README.md)."""
    game = make_game(data)
    steps, names = scenario_steps(data, TOP_SHOT_KEYS)
    outs, before = [], None
    for step, name in zip(steps, names, strict=True):
        kind = step_kind(step, game, name)
        check_continues(before, step, name, game.ball_ids)
        out = run_step(game, step, name)
        outs.append(out.to_dict())
        if kind != "lag" and (out.layout is not None or out.rack is not None):
            before = out  # a choice leaves the table as it was; the lag's is not the game's
    return {
        "game": game.name,
        "steps": outs,
        "state": game.state.to_dict(),
        "layout": outs[-1]["layout"] if outs else None,
    }


def load_scenario(path: str | Path) -> dict[str, Any]:
    return read_json(path)


def adjudicate_file(path: str | Path) -> dict[str, Any]:
    """adjudicate_scenario on a JSON file (what `cuesim adjudicate FILE.json` will call)."""
    return adjudicate_scenario(load_scenario(path))
