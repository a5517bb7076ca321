"""The saved-game file's validation layer: every field's type, range and name is checked
before a saved game is replayed (viewer.session.load_session, session_from_dict); an error
names the file, the field's path and what was expected. The saved `layout` (the table when the
game was saved) is checked like every layout: its fields (`Layout.from_dict`), each piece on the
bed of the game's table (the table's `check_layout`, as for scenarios), and, after the replay,
no two overlapping but the pieces the replayed game has out of play (5-pins: the pins the
match's last shot knocked down lie where they fell, which the physics lets them share with
other pieces), no piece on it that the game has pocketed or put off the table, and each of the
kind and group the replayed game gives its id (`check_replayed_layout`; a `base` layout, which
is resumed without a replay, against the game's own pieces, `game_pieces`). Each action has its
kind's fields only; a shot's values are checked by the shot classes themselves (`_ShotProbe`:
aim, speed and tip within cuesim.shot's bounds, the struck piece on the table, the declaration
of the game's referee), so that a value no shot can have is refused here, while a shot that
this version's physics or rules replay differently is left to the replay's carry-on. The saved
`state` (the referee's, when the game was saved) is
compared with the replayed referee's: a difference is reported, not refused (`state_drift`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from cuesim.rules.api_checks import MAX_MATCH, check_names
from cuesim.rules.files import parse_infraction
from cuesim.tables.balls import CUE_MASS
from cuesim.tables.contact import IMPACT_STEPS_RANGE
from cuesim.tables.layout import Layout, LayoutError
from cuesim.tables.numbers import MAX_AIM_ANGLE, finite_real

SESSION_GAMES = ("novus", "novus-doubles", "8-ball", "9-ball", "14.1", "5-pins")
SAVE_FORMAT = "cuesim-game"


class SaveFileError(ValueError):
    """A saved game that cannot be loaded: the message names the file, the field's path and
    what was expected."""


WHOLE_OPTIONS = ("sets", "race_to", "points_to", "games")  # whole numbers >= 1
# the physics: the multiple impact's resolution (tables.contact.IMPACT_STEPS_RANGE), in the
# ball games the cue's effective end mass in kg (its squirt, tables.balls.CUE_END_MASS), and
# any other coefficients of the game's physics by name (`physics`: cuesim play --physics)
PHYSICS_OPTIONS = ("impact_steps", "end_mass", "physics")
SAVE_OPTIONS = WHOLE_OPTIONS + PHYSICS_OPTIONS
CUE_GAMES = ("8-ball", "9-ball", "14.1", "5-pins")  # the games played with a cue on a ball
SHOT_NUMBERS = ("x", "y", "angle", "speed", "side", "height")
# the fields Session.to_dict writes (`base` only for a game carried on from a table)
SAVE_FIELDS = {"format", "version", "game", "players", "computer", "options", "actions",
               "layout", "state", "base"}


def physics_option_problem(game: str, key: str, value: Any) -> str | None:
    """What is wrong with a physics option of a game (None: nothing): 'expected ..., got'
    wording, so that each door can name its own field."""
    if key == "end_mass":
        if game not in CUE_GAMES:
            return f"absent in {game} (an option of {', '.join(CUE_GAMES)} only)"
        if not _number(value) or not 0.0 <= value <= CUE_MASS:
            return f"a mass in [0, {CUE_MASS:g}] kg (the cue's end mass; 0: no squirt)"
        return None
    if key == "physics":
        return _coefficients_problem(game, value)
    low, high = IMPACT_STEPS_RANGE
    if not _number(value) or not low <= value <= high:
        return f"a number in [{low:g}, {high:g}]"
    return None


def _coefficients_problem(game: str, value: Any) -> str | None:
    """What is wrong with a `physics` option: an object of the game's coefficients by name,
    each a number in its range (as `table.with_physics` checks it)."""
    import dataclasses

    from cuesim.api import game_table

    table = game_table(game)
    names = [f.name for f in dataclasses.fields(table.physics)]
    what = (f"an object of {type(table.physics).__name__}'s coefficients by name "
            f"({', '.join(names)})")
    if not isinstance(value, dict) or not value:
        return what
    unknown = [k for k in value if k not in names]
    if unknown:
        return f"{what}; {unknown[0]!r} is none of them"
    if any(not _number(v) for v in value.values()):
        return f"{what}, each a finite number"
    try:
        table.with_physics(**value)
    except (TypeError, ValueError) as exc:
        return f"{what}, each in its range ({exc})"
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
    version = data.get("version", 1)
    if type(version) is not int or version != 1:  # true == 1 in Python, not in the format
        raise fail("version", "the whole number 1", version)
    game = data["game"]
    if game not in SESSION_GAMES:
        raise fail("game", f"one of {list(SESSION_GAMES)}", game)
    players = data["players"]
    n = 4 if game == "novus-doubles" else 2
    if (not isinstance(players, list) or len(players) != n
            or not all(isinstance(p, str) and p.strip() for p in players)
            or len(set(players)) != n):
        raise fail("players", f"a list of {n} different names", players)
    try:
        check_names(players, "players")  # printable, not too long: as every game's door
    except ValueError as exc:
        raise SaveFileError(f"{source}: {exc}") from None
    unknown = sorted(set(data) - SAVE_FIELDS)
    if unknown:
        raise fail(unknown[0], f"absent: a saved game's fields are {sorted(SAVE_FIELDS)}",
                   data[unknown[0]])
    computer = data.get("computer", [])
    if not isinstance(computer, list) or not all(c in players for c in computer) \
            or len(set(computer)) != len(computer):
        raise fail("computer", "a list of the players the computer plays, each once",
                   computer)
    options = data.get("options", {})  # absent: no options; null, "", 0 or [] are refused
    if not isinstance(options, dict):
        raise fail("options", "an object", options)
    for key, value in options.items():
        if key not in SAVE_OPTIONS:
            raise fail(f"options.{key}", f"one of the options {list(SAVE_OPTIONS)}", key)
        if key in PHYSICS_OPTIONS:
            problem = physics_option_problem(game, key, value)
            if problem:
                raise fail(f"options.{key}", problem, value)
        elif isinstance(value, bool) or not isinstance(value, int) or not \
                1 <= value <= MAX_MATCH:
            raise fail(f"options.{key}", f"a whole number 1 to {MAX_MATCH}", value)
    actions = data["actions"]
    if not isinstance(actions, list):
        raise fail("actions", "a list of actions", actions)
    from cuesim.viewer.session import new_session

    try:  # the match as the referee takes it (each option alone is checked above)
        start = new_session(game, list(players), tuple(computer), dict(options))
    except ValueError as exc:  # 5-pins 2: an odd number of games
        raise SaveFileError(f"{source}: options: the referee refuses this match: "
                            f"{str(exc).splitlines()[0]}") from None
    probe = _ShotProbe(start) if any(
        isinstance(a, dict) and a.get("kind") == "shot" for a in actions) else None
    for k, action in enumerate(actions):
        _check_action(action, f"actions[{k}]", players, fail, source, probe)
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
        layout = saved_layout({"game": game, "layout": base["layout"]}, f"{source}: base")
        if layout is not None:  # resumed as it is, with no replay to compare its pieces with
            check_game_pieces(layout, game_pieces(game), f"{source}: base")


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
    pocketed or left the table during the game, none missing, each of the kind and group the
    replayed game gives its id; and, on `table`, no two of them overlap but those
    `out_of_play` (5-pins: the pins the match's last shot knocked down,
    `Session.fallen_pins`)."""
    if saved is None:
        return
    if table is not None:
        try:
            table.check_layout(saved.without(out_of_play, missing_ok=True))
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
    check_game_pieces(saved, {p.id: (p.kind, p.group) for p in replayed.pieces}, source,
                       "in the replayed game")


# the fields of each kind of action, as Session writes them (shot_action, choose, declare,
# request): the first of each kind's are required; another field is refused
ACTION_FIELDS = {"shot": ("player", *SHOT_NUMBERS, "declaration", "infractions"),
                 "choice": ("option",), "infraction": ("code", "player"), "request": ("name",)}
REQUIRED_FIELDS = {"shot": ("player", *SHOT_NUMBERS), "choice": ("option",),
                   "infraction": ("code",), "request": ("name",)}


def _check_action(action: Any, where: str, players: list[str], fail: Any, source: str,
                  probe: _ShotProbe | None) -> None:
    kinds = list(ACTION_FIELDS)
    if (not isinstance(action, dict) or not isinstance(action.get("kind"), str)
            or action["kind"] not in ACTION_FIELDS):
        raise fail(where, f"an object whose kind is one of {kinds}", action)
    kind = action["kind"]
    for key in REQUIRED_FIELDS[kind]:
        if key not in action:
            raise SaveFileError(f"{source}: {where} ({kind}) is missing field {key!r}")
    for key in action:
        if key != "kind" and key not in ACTION_FIELDS[kind]:
            raise fail(f"{where}.{key}", f"absent (a {kind} action has the fields "
                                         f"{['kind', *ACTION_FIELDS[kind]]})", action[key])
    if kind == "shot":
        for key in SHOT_NUMBERS:
            if not _number(action[key]):
                raise fail(f"{where}.{key}", "a finite number", action[key])
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
            try:  # the fields and types the replay reads (note, pieces), no other field
                parse_infraction(item, f"{where}.infractions[{i}]")
            except ValueError as exc:
                raise SaveFileError(f"{source}: {exc}") from None
        if probe is not None:
            probe.check(action, where, fail, source)
    else:
        key = REQUIRED_FIELDS[kind][0]
        if not isinstance(action[key], str):
            raise fail(f"{where}.{key}", "a string", action[key])
    player = action.get("player", "")
    if kind in ("shot", "infraction") and player not in (
            ("", *players) if kind == "infraction" else players):
        raise fail(f"{where}.player", f"one of the players {players}", player)


def check_action(action: Any, players: list[str], source: str = "Session.apply",
                 session: Any = None) -> None:
    """An action given to `Session.apply`, checked as a saved game's actions are (its kind,
    fields and their types, and with `session` a shot's declaration as its referee parses it;
    the shot's physics is checked when it is played): ValueError naming the field and what
    was expected."""
    def fail(where: str, expected: str, got: Any) -> ValueError:
        shown = repr(got) if len(repr(got)) <= 60 else repr(got)[:57] + "..."
        return ValueError(f"{source}: {where} must be {expected}, got {shown}")

    try:
        _check_action(action, "action", players, fail, source, None)
        if session is not None and action["kind"] == "shot":
            check_declaration(session, action.get("declaration", {}), "action.declaration",
                              fail, source)
    except SaveFileError as exc:  # the saved game's wording, not its error class
        raise ValueError(str(exc)) from None


class _ShotProbe:
    """The values of a saved shot checked by the shot classes themselves (cuesim.shot: the
    aim within MAX_AIM_ANGLE, the speed in (0, MAX_CUE_SPEED or MAX_STRIKE_SPEED], the tip on
    the ball within the miscue limit or meeting the striker), built as the replay builds them
    (the game's Session._shot, with the saved options), one field at a time so that the
    refusal names it; the struck piece's place wholly on the game's table (its
    `check_layout`, as for the saved layout) and, in novus, the height the striker does not
    have at 0; the declaration of the game's referee (its scenario files' parser: the fields,
    their types, the game's balls, pockets and pins it names). A value no shot can have under
    any physics is refused; a shot these values allow that the replay then refuses is for the
    replay (a file from other physics)."""

    def __init__(self, session: Any) -> None:
        """`session`: the saved game's start (new_session with its players and options)."""
        self.game = session.game
        self.session = session
        self.table = self.session.table
        self.novus = self.game.startswith("novus")

    def _problem(self, action: dict[str, Any], **values: float) -> str | None:
        """Why the shot classes refuse `action` with only `values` taken from it (the other
        numbers plain: aim 0, speed 1 m/s, no tip), or None."""
        from cuesim.shot import NovusShot, ShotError

        probe = {**action, "angle": 0.0, "speed": 1.0, "side": 0.0, "height": 0.0, **values}
        try:
            shot = self.session._shot(probe)
            if isinstance(shot, NovusShot):
                shot.striker_motion(self.table)
            else:
                shot.ball_motion(self.table)
        except ShotError as exc:
            return str(exc)
        return None

    def _novus_angle_problem(self, angle: float) -> str | None:
        """None when a player on some side of the board may aim at `angle` (the table's
        frame; the shot is checked in the player's, NovusShot)."""
        from cuesim.shot import NovusShot, ShotError
        from cuesim.tables.novus import NOVUS_SIDES

        problem = None
        for side in NOVUS_SIDES:
            try:
                NovusShot(x=0.0, angle=angle - self.table.direction_to_table(side, 0.0),
                          speed=1.0, side=side)
                return None
            except ShotError as exc:
                problem = str(exc)
        return problem

    def check(self, action: dict[str, Any], where: str, fail: Any, source: str) -> None:
        from cuesim.tables.balls import MAX_CUE_SPEED
        from cuesim.tables.layout import Piece
        from cuesim.tables.novus import MAX_STRIKE_SPEED

        angle = action["angle"]
        if (self._novus_angle_problem(angle) if self.novus
                else self._problem(action, angle=angle)):
            raise fail(f"{where}.angle", f"an aim within [-{MAX_AIM_ANGLE:.1f}, "
                                         f"{MAX_AIM_ANGLE:.1f}] rad (a thousand turns)", angle)
        if self._problem(action, speed=action["speed"]):
            limit = MAX_STRIKE_SPEED if self.novus else MAX_CUE_SPEED
            raise fail(f"{where}.speed", f"a speed in (0, {limit:g}] m/s", action["speed"])
        side, height = action["side"], action["height"]
        if self.novus:
            if height != 0.0:
                raise fail(f"{where}.height", "0 (a novus shot has a side offset only)",
                           height)
            problem = self._problem(action, side=side)
            if problem:
                raise fail(f"{where}.side", f"a side offset that meets the striker "
                                            f"({problem})", side)
        elif self._problem(action, side=side, height=height):
            from cuesim.sim.cue import MISCUE_LIMIT

            key = "side" if abs(side) >= abs(height) else "height"
            raise fail(f"{where}.{key}", f"a tip offset within the miscue limit: "
                                         f"|(side, height)| <= {MISCUE_LIMIT:g} of the ball's "
                                         f"radius", action[key])
        kind = "striker" if self.novus else "ball"
        piece = "striker" if self.novus else "ball" if self.game == "5-pins" else "cue"
        x, y = action["x"], action["y"]
        try:
            self.table.check_layout(Layout(self.table.name, (Piece(piece, kind, x, y),)))
        except LayoutError as exc:
            r = self.table.piece_spec(kind).radius
            key = "y" if r <= x <= self.table.geometry.width - r else "x"
            raise fail(f"{where}.{key}", f"a place of the struck {kind} on the table "
                                         f"({str(exc).splitlines()[0]})", action[key]) from None
        self._check_declaration(action.get("declaration", {}), f"{where}.declaration", fail,
                                source)

    def _check_declaration(self, declaration: dict[str, Any], where: str, fail: Any,
                           source: str) -> None:
        check_declaration(self.session, declaration, where, fail, source)


def check_declaration(session: Any, declaration: dict[str, Any], where: str, fail: Any,
                      source: str) -> None:
    """A shot's declaration as the game's referee parses it (its scenario files' parser: the
    fields, their types, the game's balls, pockets and pins it names; novus shots have none):
    SaveFileError naming the field. The session's pool referee drops what its Declaration
    does not know, so an unknown field unchecked would be played without it and then saved
    into a game that no longer loads."""
    game = session.game
    if game.startswith("novus"):
        if declaration:
            raise fail(where, "an empty object (novus shots have no declaration)", declaration)
        return
    try:
        if game == "5-pins":
            from cuesim.rules.fivepins.scenario import parse_declaration

            parse_declaration(declaration, where)
        else:  # the balls of this game (9-ball has nine)
            from cuesim.rules.pool.scenario import parse_declaration as parse_pool

            parse_pool(declaration, where, session.ref.ball_ids)
    except ValueError as exc:  # ScenarioError too: the message starts with `where`
        raise SaveFileError(f"{source}: {str(exc).splitlines()[0]}") from None


def game_pieces(game: str) -> dict[str, tuple[str, str]]:
    """Every piece a game can have on its table, id -> (kind, group): its opening layout, and
    the pieces a shot puts down (the novus striker, the 5-pins balls in hand)."""
    from cuesim.viewer.session import new_session

    pieces = {p.id: (p.kind, p.group) for p in new_session(game).layout().pieces}
    if game.startswith("novus"):
        pieces["striker"] = ("striker", "")
    if game == "5-pins":
        pieces.update({ball: ("ball", ball) for ball in ("white", "yellow", "red")})
    return pieces


def check_game_pieces(layout: Layout, pieces: dict[str, tuple[str, str]], source: str,
                       what: str = "in the game") -> None:
    """Each piece of a saved layout one of `pieces` (id -> kind, group), of its kind and group:
    SaveFileError naming the piece's field."""
    for k, p in enumerate(layout.pieces):
        where = f"{source}: layout.pieces[{k}]"
        if p.id not in pieces:
            raise SaveFileError(f"{where}.id must be one of the pieces {what} "
                                f"{sorted(pieces)}, got {p.id!r}")
        kind, group = pieces[p.id]
        if p.kind != kind:
            raise SaveFileError(f"{where}.kind must be {kind!r} (piece {p.id!r} {what}), got "
                                f"{p.kind!r}")
        if p.group != group:
            raise SaveFileError(f"{where}.group must be {group!r} (piece {p.id!r} {what}), got "
                                f"{p.group!r}")


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
