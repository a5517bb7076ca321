"""The saved-game file's validation layer: every field's type, range and name is checked
before a saved game is replayed (viewer.session.load_session, session_from_dict); an error
names the file, the field's path and what was expected. The saved `layout` (the table when the
game was saved) is checked like every layout: its fields (`Layout.from_dict`), each piece on the
bed of the game's table (the table's `check_layout`, as for scenarios), and, after the replay,
no two overlapping but the pieces the replayed game has out of play (5-pins: the pins the
match's last shot knocked down lie where they fell, which the physics lets them share with
other pieces), and no piece on it that the game has pocketed or put off the table
(`check_replayed_layout`). The saved `state` (the referee's, when the game was saved) is
compared with the replayed referee's: a difference is reported, not refused (`state_drift`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from cuesim.tables.balls import CUE_MASS
from cuesim.tables.contact import IMPACT_STEPS_RANGE
from cuesim.tables.layout import Layout, LayoutError
from cuesim.tables.numbers import finite_real

SESSION_GAMES = ("novus", "novus-doubles", "8-ball", "9-ball", "14.1", "5-pins")
SAVE_FORMAT = "cuesim-game"


class SaveFileError(ValueError):
    """A saved game that cannot be loaded: the message names the file, the field's path and
    what was expected."""


WHOLE_OPTIONS = ("sets", "race_to", "points_to", "games")  # whole numbers >= 1
# the physics: the multiple impact's resolution (tables.contact.IMPACT_STEPS_RANGE) and, in
# the ball games, the cue's effective end mass in kg (its squirt, tables.balls.CUE_END_MASS)
PHYSICS_OPTIONS = ("impact_steps", "end_mass")
SAVE_OPTIONS = WHOLE_OPTIONS + PHYSICS_OPTIONS
CUE_GAMES = ("8-ball", "9-ball", "14.1", "5-pins")  # the games played with a cue on a ball
SHOT_NUMBERS = ("x", "y", "angle", "speed", "side", "height")


def physics_option_problem(game: str, key: str, value: Any) -> str | None:
    """What is wrong with a physics option of a game (None: nothing): 'expected ..., got'
    wording, so that each door can name its own field."""
    if key == "end_mass":
        if game not in CUE_GAMES:
            return f"absent in {game} (an option of {', '.join(CUE_GAMES)} only)"
        if not _number(value) or not 0.0 <= value <= CUE_MASS:
            return f"a mass in [0, {CUE_MASS:g}] kg (the cue's end mass; 0: no squirt)"
        return None
    low, high = IMPACT_STEPS_RANGE
    if not _number(value) or not low <= value <= high:
        return f"a number in [{low:g}, {high:g}]"
    return None


def options_for(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """The options of one game that another game of the same sitting keeps (the viewer's
    new game): all but a physics option the new game does not have (a cue's end mass in
    novus)."""
    return {k: v for k, v in options.items()
            if k not in PHYSICS_OPTIONS or physics_option_problem(game, k, v) is None}


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and finite_real(value)


def check_save(data: Any, source: str = "saved game") -> None:
    """Check every field of a saved game's JSON (types, ranges, names) before anything is
    replayed; SaveFileError naming the first problem."""
    def fail(where: str, expected: str, got: Any) -> SaveFileError:
        shown = repr(got) if len(repr(got)) <= 60 else repr(got)[:57] + "..."
        return SaveFileError(f"{source}: {where} must be {expected}, got {shown}")

    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveFileError(f"{source}: not a cuesim saved game (expected an object with "
                            f"\"format\": \"{SAVE_FORMAT}\")")
    for key in ("game", "players", "actions"):
        if key not in data:
            raise SaveFileError(f"{source}: missing field {key!r}")
    if data.get("version", 1) != 1:
        raise fail("version", "1", data.get("version"))
    game = data["game"]
    if game not in SESSION_GAMES:
        raise fail("game", f"one of {list(SESSION_GAMES)}", game)
    players = data["players"]
    n = 4 if game == "novus-doubles" else 2
    if (not isinstance(players, list) or len(players) != n
            or not all(isinstance(p, str) and p.strip() for p in players)
            or len(set(players)) != n):
        raise fail("players", f"a list of {n} different names", players)
    computer = data.get("computer", [])
    if not isinstance(computer, list) or not all(c in players for c in computer):
        raise fail("computer", "a list of the players the computer plays", computer)
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise fail("options", "an object", options)
    for key, value in options.items():
        if key not in SAVE_OPTIONS:
            raise fail(f"options.{key}", f"one of the options {list(SAVE_OPTIONS)}", key)
        if key in PHYSICS_OPTIONS:
            problem = physics_option_problem(game, key, value)
            if problem:
                raise fail(f"options.{key}", problem, value)
        elif isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise fail(f"options.{key}", "a whole number >= 1", value)
    actions = data["actions"]
    if not isinstance(actions, list):
        raise fail("actions", "a list of actions", actions)
    for k, action in enumerate(actions):
        _check_action(action, f"actions[{k}]", players, fail)
    if "state" in data and not isinstance(data["state"], dict):
        raise fail("state", "an object (the referee's state when the game was saved)",
                   data["state"])
    if "layout" in data:
        saved_layout(data, source)
    if "base" in data:  # the table and state a game carried on from (Session.resume)
        base = data["base"]
        if not (isinstance(base, dict) and set(base) == {"layout", "state"}
                and isinstance(base["state"], dict)):
            raise fail("base", "an object with the layout and the referee state the game "
                               "carried on from", base)
        saved_layout({"game": game, "layout": base["layout"]}, f"{source}: base")


def _layout_error(exc: LayoutError, source: str) -> SaveFileError:
    first = str(exc).splitlines()[0]  # one line: the schema follows in Layout's messages
    if not first.startswith("layout"):
        first = f"layout: {first}"
    return SaveFileError(f"{source}: {first}")


def saved_layout(data: dict[str, Any], source: str = "saved game") -> Layout | None:
    """The saved game's `layout` field (None when the file has none), its types checked by
    `Layout.from_dict` and each piece alone by the table's `check_layout`: the game's table,
    every piece wholly on the bed and off the pockets and holes (overlaps are checked after the
    replay, `check_replayed_layout`, which knows the pieces out of play)."""
    from cuesim.api import game_table

    if "layout" not in data:
        return None
    table = game_table(str(data["game"]))
    try:
        layout = Layout.from_dict(data["layout"], source="layout", table=table.name)
        if layout.table != table.name:
            raise LayoutError(f"layout is for table {layout.table!r}; a {data['game']} game is "
                              f"played on {table.name!r}")
        for piece in layout.pieces:
            table.check_layout(Layout(layout.table, (piece,)))
    except LayoutError as exc:
        raise _layout_error(exc, source) from None
    return layout


def check_replayed_layout(saved: Layout | None, replayed: Layout, source: str = "saved game",
                          table: Any = None, out_of_play: Iterable[str] = ()) -> None:
    """The saved layout holds the pieces the replayed game has on the table: none that was
    pocketed or left the table during the game, none missing; and, on `table`, no two of them
    overlap but those `out_of_play` (5-pins: the pins the match's last shot knocked down,
    `Session.fallen_pins`)."""
    if saved is None:
        return
    if table is not None:
        try:
            table.check_layout(saved.without(out_of_play))
        except LayoutError as exc:
            raise _layout_error(exc, source) from None
    gone = sorted(set(saved.ids()) - set(replayed.ids()))
    if gone:
        raise SaveFileError(f"{source}: layout has {gone} on the table, but in the replayed "
                            "game they were pocketed or left the table")
    missing = sorted(set(replayed.ids()) - set(saved.ids()))
    if missing:
        raise SaveFileError(f"{source}: layout lacks {missing}, which are on the table in the "
                            "replayed game")


def _check_action(action: Any, where: str, players: list[str], fail: Any) -> None:
    kinds = {"shot": ("player", *SHOT_NUMBERS), "choice": ("option",),
             "infraction": ("code",), "request": ("name",)}
    if (not isinstance(action, dict) or not isinstance(action.get("kind"), str)
            or action["kind"] not in kinds):
        raise fail(where, f"an object whose kind is one of {list(kinds)}", action)
    for key in kinds[action["kind"]]:
        if key not in action:
            raise SaveFileError(f"{where} ({action['kind']}) is missing field {key!r}")
    if action["kind"] == "shot":
        for key in SHOT_NUMBERS:
            if not _number(action[key]):
                raise fail(f"{where}.{key}", "a finite number", action[key])
        if action["speed"] <= 0:
            raise fail(f"{where}.speed", "a speed > 0 in m/s", action["speed"])
        if not isinstance(action.get("declaration", {}), dict):
            raise fail(f"{where}.declaration", "an object", action.get("declaration"))
        infractions = action.get("infractions", [])
        if not isinstance(infractions, list) or not all(
                isinstance(i, dict) and isinstance(i.get("code"), str) for i in infractions):
            raise fail(f"{where}.infractions", "a list of objects with a 'code'", infractions)
        for i, item in enumerate(infractions):
            if item.get("player", "") not in ("", *players):
                raise fail(f"{where}.infractions[{i}].player", f"one of {players}",
                           item.get("player"))
    else:
        key = kinds[action["kind"]][0]
        if not isinstance(action[key], str):
            raise fail(f"{where}.{key}", "a string", action[key])
    player = action.get("player", "")
    if action["kind"] in ("shot", "infraction") and player not in (
            ("", *players) if action["kind"] == "infraction" else players):
        raise fail(f"{where}.player", f"one of the players {players}", player)


# a replayed piece this far from where the saved layout has it is reported (a file saved by a
# version of cuesim with other physics, or edited): far above the last bits a replay on another
# host could differ by, far below anything a player would place by hand
DRIFT_REPORTED = 0.001  # m


def replay_drift(saved: Layout | None, replayed: Layout, source: str = "saved game",
                 out_of_play: Iterable[str] = ()) -> str | None:
    """A note when a piece of the replayed game lies more than DRIFT_REPORTED from where the
    saved layout has it (the replay is what is played), else None."""
    if saved is None:
        return None
    skip = set(out_of_play)
    where = {p.id: (p.x, p.y) for p in replayed.pieces}
    worst, far = None, DRIFT_REPORTED
    for p in saved.pieces:
        if p.id in where and p.id not in skip:
            d = math.hypot(p.x - where[p.id][0], p.y - where[p.id][1])
            if d > far:
                worst, far = p.id, d
    if worst is None:
        return None
    return (f"{source}: the replay leaves {worst!r} {far * 1000:.1f} mm from where the saved "
            "layout has it (a file from a version of cuesim with other physics, or edited): "
            "the replayed game is what is played")


# two numbers of a referee's state this close are the same (a replay on another host may differ
# in the last bits of a time or a distance); scores, counts and names compare exactly
STATE_REL_TOL = 1e-9


def _state_difference(saved: Any, replayed: Any, path: str) -> str | None:
    """The path of the first value that differs, 'scores.Ann: saved 12, replayed 10', or None.
    Keys only one side has are skipped (a file from a version whose referee kept other fields);
    a list's length counts."""
    if isinstance(saved, dict) and isinstance(replayed, dict):
        for key in saved:
            if key in replayed:
                found = _state_difference(saved[key], replayed[key], f"{path}.{key}")
                if found:
                    return found
        return None
    if isinstance(saved, list) and isinstance(replayed, list):
        if len(saved) != len(replayed):
            return f"{path}: saved {len(saved)} entries, replayed {len(replayed)}"
        for k, (a, b) in enumerate(zip(saved, replayed, strict=True)):
            found = _state_difference(a, b, f"{path}[{k}]")
            if found:
                return found
        return None
    if (isinstance(saved, float) and isinstance(replayed, int | float)
            and not isinstance(replayed, bool)):
        if math.isclose(saved, replayed, rel_tol=STATE_REL_TOL, abs_tol=STATE_REL_TOL):
            return None
    elif saved == replayed and type(saved) is type(replayed):
        return None

    def shown(v: Any) -> str:
        text = repr(v)
        return text if len(text) <= 40 else text[:37] + "..."
    return f"{path}: saved {shown(saved)}, replayed {shown(replayed)}"


def state_drift(data: dict[str, Any], replayed: dict[str, Any],
                source: str = "saved game") -> str | None:
    """A note when the saved game's `state` (the referee's when it was saved) differs from the
    replayed referee's `replayed` (Session.state_dict), naming the first field that differs;
    None when the file has no state or they agree. The replay is what is played."""
    saved = data.get("state")
    if not isinstance(saved, dict):
        return None
    found = _state_difference(saved, replayed, "state")
    if found is None:
        return None
    return (f"{source}: the replayed referee differs from the saved state at {found} (a file "
            "from a version of cuesim with other physics or rules, or edited): the replayed "
            "game is what is played")
