"""One game being played in the viewer: its table, its referee, whose turn it is, where the
struck piece may be placed, the shot, the ruling and the scoreboard.

Every change goes through an *action* (a shot with its declaration and declared infractions,
an answer to a pending choice, or an infraction ruled between shots), kept in `actions`. A
saved game is the list of actions (JSON); loading replays them through the simulator and the
referee, and undo replays all but the last. Shots are stored in the table frame: the struck
piece's centre (x, y), the direction (rad), the speed (m/s) and the tip offsets as fractions
of the radius (side to the right, height above the centre).
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import Any

from cuesim.api import game_table, simulate, start_layout
from cuesim.rules.ruling import Infraction, Ruling
from cuesim.shot import CueShot, NovusShot, ShotError
from cuesim.sim.engine import run_motion
from cuesim.sim.result import ShotResult
from cuesim.tables.jsonfile import read_json
from cuesim.tables.layout import Layout, LayoutError, Piece

SESSION_GAMES = ("novus", "novus-doubles", "8-ball", "9-ball", "14.1", "5-pins")
SAVE_FORMAT = "cuesim-game"
COMPUTER = "Computer"


TAKEN_BACK = "the viewer (the shot is taken back)"


class Session:
    """The common part of every game; subclasses hold one discipline's referee in `ref`."""

    game = ""
    struck = ""
    max_speed = 6.0
    tip_vertical = True  # the tip widget has a height axis (balls) or only a side one (novus)

    def __init__(self, players: list[str], computer: tuple[str, ...] = (),
                 options: dict[str, Any] | None = None) -> None:
        self.players = list(players)
        self.computer = tuple(computer)
        self.options = dict(options or {})
        self.actions: list[dict[str, Any]] = []
        self.last_result: ShotResult | None = None
        self.last_ruling: Ruling | None = None
        self.ruling_text = ""
        self.table = game_table(self.game)
        self.ref: Any = None

    # -- to be provided by each game -------------------------------------------------------
    def shooter(self) -> str:
        raise NotImplementedError

    def layout(self) -> Layout:
        """The pieces on the table now, without the struck piece when it is to be placed."""
        raise NotImplementedError

    def struck_id(self) -> str:
        return self.struck

    def placement(self) -> str | None:
        """Where the struck piece may be put before the shot: 'own_zone' (novus 12),
        'kitchen', 'table', 'half_table', or None (played where it lies)."""
        return None

    def check_place(self, x: float, y: float) -> str | None:
        """Why the struck piece may not stand at (x, y), or None when it may."""
        return None

    def place_area(self) -> list[tuple[float, float]]:
        """The polygon (table frame) where the struck piece may be placed."""
        return []

    def over(self) -> bool:
        return False

    def scoreboard(self) -> list[str]:
        return []

    def pending(self) -> tuple[str, str, list[str]] | None:
        """(chooser, article, options) when the incoming player must choose first."""
        return None

    def infraction_codes(self) -> dict[str, str]:
        return {}

    def declarations(self) -> list[str]:
        """What may be declared before this shot: 'call', 'safety', 'push_out'."""
        return []

    def _shot(self, action: dict[str, Any]) -> Any:
        raise NotImplementedError

    def _shot_layout(self, action: dict[str, Any]) -> Layout:
        raise NotImplementedError

    def _adjudicate(self, ref: Any, result: ShotResult, action: dict[str, Any]) -> tuple[
            Ruling, Any]:
        raise NotImplementedError

    def _advance(self, outcome: Any, result: ShotResult | None) -> None:
        """Take the referee's outcome as the new table."""

    def _choose(self, option: str) -> Ruling:
        raise ValueError("no choice is pending")

    def requests(self) -> dict[str, str]:
        """What a player (or the referee) may ask for now: name -> label with its article."""
        return {}

    def request(self, name: str) -> Ruling:
        return self.apply({"kind": "request", "name": name})

    def _request(self, name: str) -> Ruling:
        raise ValueError(f"no request {name!r} here; requests are {list(self.requests())}")

    def _declare_now(self, infraction: Infraction) -> Ruling:
        raise ValueError(f"{self.game} has no referee for declared infractions")

    # -- the struck piece ----------------------------------------------------------------
    def struck_position(self) -> tuple[float, float]:
        """Where the struck piece stands now, or a legal default place for it."""
        ids = self.layout().ids()
        if self.struck_id() in ids:
            p = self.layout().get(self.struck_id())
            return p.x, p.y
        return self.default_place()

    def default_place(self) -> tuple[float, float]:
        area = self.place_area()
        if not area:
            return (self.table.geometry.width / 2, self.table.geometry.length / 2)
        xs, ys = [p[0] for p in area], [p[1] for p in area]
        cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        for k in range(200):  # from the middle of the area outwards
            for sign in (1, -1):
                f = sign * k / 200
                if max(xs) - min(xs) >= max(ys) - min(ys):
                    x, y = cx + f * (max(xs) - min(xs)) / 2, cy
                else:
                    x, y = cx, cy + f * (max(ys) - min(ys)) / 2
                if self.check_place(x, y) is None:
                    return x, y
        return cx, cy

    def radius(self, piece_id: str | None = None) -> float:
        pid = piece_id or self.struck_id()
        kind = "striker" if pid == "striker" else "ball"
        for p in self.layout().pieces:
            if p.id == pid:
                kind = p.kind
        return self.table.piece_spec(kind).radius

    # -- playing -----------------------------------------------------------------------
    def shot_action(self, pos: tuple[float, float], angle: float, speed: float,
                    side: float = 0.0, height: float = 0.0,
                    declaration: dict[str, Any] | None = None,
                    infractions: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        return {"kind": "shot", "player": self.shooter(), "x": float(pos[0]),
                "y": float(pos[1]), "angle": float(angle), "speed": float(speed),
                "side": float(side), "height": float(height),
                "declaration": dict(declaration or {}), "infractions": list(infractions or [])}

    def simulate(self, action: dict[str, Any]) -> ShotResult:
        """The shot of an action on the current table (raises ShotError when it cannot be
        played as given, e.g. a refused placement)."""
        if self.placement() is not None:
            reason = self.check_place(action["x"], action["y"])
            if reason:
                raise ShotError(reason)
        shot = self._shot(action)
        layout = self._shot_layout(action)
        if isinstance(shot, CueShot):
            # The placed ball was checked above (free_spot); the others lie where the last
            # shot left them, which `simulate`'s whole-layout check may refuse (a ball resting
            # in a pocket's jaws is outside the cushion-nose rectangle it checks against).
            return run_motion(self.table, layout, {shot.ball: shot.ball_motion(self.table)},
                              struck=shot.ball, shot=shot, check=False)
        return simulate(self.table, layout, shot)

    def trial(self, action: dict[str, Any]) -> tuple[ShotResult, Ruling, Any]:
        """Simulate and rule on a shot without changing the game (for the computer player)."""
        result = self.simulate(action)
        result.require_complete(TAKEN_BACK)
        ref = copy.deepcopy(self.ref)
        ruling, _ = self._adjudicate(ref, result, action)
        return result, ruling, ref

    def apply(self, action: dict[str, Any]) -> Ruling:
        """Carry out one action and record it."""
        kind = action.get("kind")
        if kind == "shot":
            result = self.simulate(action)
            # a shot stopped at the event limit has no layout to play on from: refused before
            # the referee sees it and not recorded, so the game stays where it was
            result.require_complete(TAKEN_BACK)
            ruling, outcome = self._adjudicate(self.ref, result, action)
            self.last_result = result
            self._advance(outcome, result)
        elif kind == "choice":
            ruling = self._choose(str(action["option"]))
        elif kind == "infraction":
            ruling = self._declare_now(Infraction(str(action["code"]),
                                                  str(action.get("player", ""))))
        elif kind == "request":
            ruling = self._request(str(action["name"]))
        else:
            raise ValueError(f"unknown action kind {kind!r}; kinds are shot, choice, "
                             "infraction, request")
        self.actions.append(copy.deepcopy(action))
        self.last_ruling = ruling
        self.ruling_text = ruling.describe()
        return ruling

    def play(self, pos: tuple[float, float], angle: float, speed: float, side: float = 0.0,
             height: float = 0.0, declaration: dict[str, Any] | None = None,
             infractions: list[dict[str, Any]] | None = None) -> Ruling:
        return self.apply(self.shot_action(pos, angle, speed, side, height, declaration,
                                           infractions))

    def choose(self, option: str) -> Ruling:
        return self.apply({"kind": "choice", "option": option})

    def declare(self, code: str, player: str = "", last_shot: bool = True) -> Ruling:
        """A declared infraction: in the last shot (that shot is ruled again with it), or now
        between shots."""
        if last_shot and self.actions and self.actions[-1]["kind"] == "shot":
            actions = copy.deepcopy(self.actions)
            actions[-1]["infractions"].append({"code": code, "player": player})
            self._rebuild(actions)
            assert self.last_ruling is not None
            return self.last_ruling
        return self.apply({"kind": "infraction", "code": code, "player": player})

    # -- undo, save, load --------------------------------------------------------------
    def _rebuild(self, actions: list[dict[str, Any]]) -> None:
        fresh = new_session(self.game, self.players, self.computer, self.options)
        for a in actions:
            fresh.apply(a)
        self.__dict__.update(fresh.__dict__)

    def undo(self) -> bool:
        """Take back the last action. False when there is none."""
        if not self.actions:
            return False
        self._rebuild(self.actions[:-1])
        if not self.actions:
            self.ruling_text = "Last shot taken back: the game is at its start."
        return True

    def to_dict(self) -> dict[str, Any]:
        return {"format": SAVE_FORMAT, "version": 1, "game": self.game,
                "players": list(self.players), "computer": list(self.computer),
                "options": dict(self.options), "actions": copy.deepcopy(self.actions),
                "layout": self.layout().to_dict(), "state": self.state_dict()}

    def state_dict(self) -> dict[str, Any]:
        return {}

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n",
                              encoding="utf-8")

    # -- for the computer player -------------------------------------------------------
    def pieces_of(self, player: str) -> list[str]:
        """The pieces the player wants to pocket or hit (for candidate shots)."""
        return [p.id for p in self.layout().pieces if p.id != self.struck_id()]

    def targets(self) -> list[tuple[float, float]]:
        """Where pieces are pocketed (holes, pockets); empty on a carom table."""
        return [(h.x, h.y) for h in self.table.geometry.holes]


def free_spot(table: Any, layout: Layout, piece: Piece) -> str | None:
    """Why `piece` cannot be put down among the other pieces of `layout` (off the surface, over
    a pocket, touching another piece), or None. Only the placed piece is checked: the others
    may lie where the last shot left them (in a pocket's jaws, say)."""
    try:
        table.check_layout(Layout(layout.table, (piece,)))
    except LayoutError as exc:
        return str(exc)
    contact = getattr(table, "contact_distance", None)
    for other in layout.pieces:
        if other.id == piece.id:
            continue
        if contact is not None:
            need = contact(piece.kind, other.kind)
        else:
            need = table.piece_spec(piece.kind).radius + table.piece_spec(other.kind).radius
        gap = math.hypot(other.x - piece.x, other.y - piece.y) - need
        if gap <= 1e-9:
            return (f"it would touch {other.id!r} (overlap {max(-gap, 0.0) * 1000:.1f} mm): "
                    "choose a free place")
    return None


def load_session(path: str | Path) -> Session:
    """A game saved with `Session.save`, replayed to where it was saved."""
    path = Path(path)
    data = read_json(path, "saved game", SaveFileError)
    return session_from_dict(data, str(path))


class SaveFileError(ValueError):
    """A saved game that cannot be loaded: the message names the file, the field's path and
    what was expected."""


SAVE_OPTIONS = ("sets", "race_to", "points_to", "games")  # whole numbers >= 1
SHOT_NUMBERS = ("x", "y", "angle", "speed", "side", "height")


def _number(value: Any) -> bool:
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value))


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
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise fail(f"options.{key}", "a whole number >= 1", value)
    actions = data["actions"]
    if not isinstance(actions, list):
        raise fail("actions", "a list of actions", actions)
    for k, action in enumerate(actions):
        _check_action(action, f"actions[{k}]", players, fail)


def _check_action(action: Any, where: str, players: list[str], fail: Any) -> None:
    kinds = {"shot": ("player", *SHOT_NUMBERS), "choice": ("option",),
             "infraction": ("code",), "request": ("name",)}
    if not isinstance(action, dict) or action.get("kind") not in kinds:
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


def session_from_dict(data: Any, source: str = "saved game") -> Session:
    """A session replayed from a saved game's JSON, checked first (check_save); an action
    that cannot be replayed (not the shooter's turn, a refused shot) is a SaveFileError too."""
    check_save(data, source)
    session = new_session(str(data["game"]), list(data["players"]),
                          tuple(data.get("computer", ())), data.get("options") or {})
    for k, action in enumerate(data["actions"]):
        if action["kind"] == "shot" and action["player"] != session.shooter():
            raise SaveFileError(f"{source}: actions[{k}].player {action['player']!r} is not "
                                f"the shooter at that point ({session.shooter()!r})")
        try:
            session.apply(action)
        except (ShotError, LayoutError, ValueError, KeyError, TypeError) as exc:
            raise SaveFileError(f"{source}: actions[{k}] cannot be replayed: {exc}") from None
    return session


def new_session(game: str, players: list[str] | None = None, computer: tuple[str, ...] = (),
                options: dict[str, Any] | None = None) -> Session:
    """A fresh game by name (one of SESSION_GAMES)."""
    if game in ("novus", "novus-doubles"):
        doubles = game == "novus-doubles"
        default = ["Anna", "Boris", "Clara", "Dmitri"] if doubles else ["Anna", "Boris"]
        return NovusSession(game, players or default, computer, options)
    if game in ("8-ball", "9-ball", "14.1"):
        return PoolSession(game, players or ["Ann", "Bob"], computer, options)
    if game == "5-pins":
        return FivePinsRefereeSession(players or ["Ann", "Bob"], computer, options)
    raise ValueError(f"unknown game {game!r}; games are {', '.join(SESSION_GAMES)}")


# ============================================================================================
class NovusSession(Session):
    """Novus singles or doubles with `cuesim.rules.novus.NovusGame`."""

    struck = "striker"
    max_speed = 6.0
    tip_vertical = False

    def __init__(self, game: str, players: list[str], computer: tuple[str, ...] = (),
                 options: dict[str, Any] | None = None) -> None:
        from cuesim.rules.novus import NovusGame

        self.game = game
        super().__init__(players, computer, options)
        self.ref = NovusGame(list(players), doubles=game == "novus-doubles",
                             sets=int(self.options.get("sets", 1)))

    def shooter(self) -> str:
        return self.ref.shooter

    def side(self) -> str:
        return self.ref.side_of(self.ref.shooter)

    def layout(self) -> Layout:
        layout = self.ref.layout
        return layout.without(["striker"]) if "striker" in layout.ids() else layout

    def struck_position(self) -> tuple[float, float]:
        layout = self.ref.layout
        if "striker" in layout.ids():
            p = layout.get("striker")
            if self.check_place(p.x, p.y) is None:
                return p.x, p.y
        return self.default_place()

    def placement(self) -> str | None:
        return "own_zone"

    def place_area(self) -> list[tuple[float, float]]:
        (u0, u1), (w0, w1) = self.table.striker_strip()
        side = self.side()
        return [self.table.to_table(side, u, w) for u, w in
                ((u0, w0), (u1, w0), (u1, w1), (u0, w1))]

    def check_place(self, x: float, y: float) -> str | None:
        u, w = self.table.from_table(self.side(), x, y)
        try:
            NovusShot(x=u, y=w, angle=0.0, speed=1.0, side=self.side()).place(
                self.table, self.layout())
        except (ShotError, LayoutError) as exc:
            return str(exc)
        return None

    def _shot(self, action: dict[str, Any]) -> NovusShot:
        side = self.side()
        u, w = self.table.from_table(side, action["x"], action["y"])
        angle = action["angle"] - self.table.direction_to_table(side, 0.0)
        offset = action.get("side", 0.0) * self.table.piece_spec("striker").radius * 0.95
        return NovusShot(x=u, y=w, angle=angle, speed=action["speed"], offset=offset, side=side)

    def _shot_layout(self, action: dict[str, Any]) -> Layout:
        return self.ref.layout

    def _adjudicate(self, ref: Any, result: ShotResult, action: dict[str, Any]) -> tuple[
            Ruling, Any]:
        infractions = [Infraction.from_dict(i) for i in action.get("infractions", [])]
        out = ref.adjudicate(result, infractions)
        return out.ruling, out

    def _declare_now(self, infraction: Infraction) -> Ruling:
        return self.ref.adjudicate(None, [infraction]).ruling

    def over(self) -> bool:
        return bool(self.ref.match_over)

    def infraction_codes(self) -> dict[str, str]:
        from cuesim.rules.novus.infractions import INFRACTIONS

        return {code: f"novus {art}: {text}" for code, (art, _, text) in INFRACTIONS.items()}

    def scoreboard(self) -> list[str]:
        g = self.ref
        lines = [f"Set {g.set_number} of {g.sets}" + (f" (replays {g.replays})" if g.replays
                                                        else "")]
        on_table = self.layout()
        for team in g.teams():
            colour = g.colour_of_team(team)
            left = sum(1 for p in on_table.pieces if p.group == colour)
            lines.append(f"{team} [{colour}]: sets {g.sets_won.get(team, 0)}, pucks {left}, "
                         f"debt {g.debt.get(colour, 0)}")
        seats = ", ".join(f"{side} {name}" for side, name in g.seats.items())
        lines.append(f"Seats: {seats}")
        warned = {p: n for p, n in g.warnings.items() if n}
        if warned:
            lines.append("Warnings: " + ", ".join(f"{p} {n}" for p, n in warned.items()))
        if g.match_over:
            lines.append(f"Match over: {g.winner or 'a draw'}")
        return lines

    def state_dict(self) -> dict[str, Any]:
        return self.ref.to_dict()

    def pieces_of(self, player: str) -> list[str]:
        colour = self.ref.colour_of(player)
        return [p.id for p in self.layout().pieces if p.group == colour]


# ============================================================================================
_POOL_REFEREES = {"8-ball": "EightBall", "9-ball": "NineBall", "14.1": "StraightPool"}


class PoolSession(Session):
    """8-ball, 9-ball or 14.1 continuous with the WPA referee (`cuesim.rules.pool`)."""

    struck = "cue"
    max_speed = 11.0

    def __init__(self, game: str, players: list[str], computer: tuple[str, ...] = (),
                 options: dict[str, Any] | None = None) -> None:
        from cuesim.rules import pool

        self.game = game
        super().__init__(players, computer, options)
        cls = getattr(pool, _POOL_REFEREES[game])
        kwargs: dict[str, Any] = {"race_to": int(self.options.get("race_to", 1))}
        if game == "14.1":
            kwargs["points_to"] = int(self.options.get("points_to", 25))
        self.ref = cls(list(players), **kwargs)
        self._layout = start_layout(game, self.table)

    def shooter(self) -> str:
        return self.ref.state.shooter

    def layout(self) -> Layout:
        return self._layout

    def placement(self) -> str | None:
        return self.ref.state.ball_in_hand

    def place_area(self) -> list[tuple[float, float]]:
        r, w, l = self.radius(), self.table.width, self.table.length
        far = self.table.head_string_y - 1e-6 if self.placement() == "kitchen" else l - r
        return [(r, r), (w - r, r), (w - r, far), (r, far)]

    def check_place(self, x: float, y: float) -> str | None:
        hs = self.table.head_string_y
        if self.placement() == "kitchen" and not y < hs:
            return (f"WPA 3.10, 3.16: the cue ball in hand must be placed behind the head "
                    f"string (its centre nearer the head rail than {hs:.3f} m); it is at "
                    f"{y:.3f} m")
        reason = free_spot(self.table, self._layout, Piece("cue", "ball", x, y, "cue"))
        return f"WPA 3.10: the cue ball cannot stand there: {reason}" if reason else None

    def _shot(self, action: dict[str, Any]) -> CueShot:
        return CueShot(angle=action["angle"], speed=action["speed"],
                       side=action.get("side", 0.0), height=action.get("height", 0.0))

    def _shot_layout(self, action: dict[str, Any]) -> Layout:
        cue = Piece("cue", "ball", action["x"], action["y"], "cue")
        if self.placement() is None and "cue" in self._layout.ids():
            return self._layout
        return self._layout.without(["cue"]).with_piece(cue)

    def _declaration(self, action: dict[str, Any]) -> Any:
        from cuesim.rules.pool import Declaration

        d = action.get("declaration") or {}
        known = {k: v for k, v in d.items() if k in Declaration.__dataclass_fields__}
        return Declaration(**known)

    def _adjudicate(self, ref: Any, result: ShotResult, action: dict[str, Any]) -> tuple[
            Ruling, Any]:
        from cuesim.rules.pool import shot_from_result

        infractions = [Infraction.from_dict(i) for i in action.get("infractions", [])]
        out = ref.play(shot_from_result(result, self._declaration(action), infractions))
        return out.ruling, out

    def _advance(self, outcome: Any, result: ShotResult | None) -> None:
        if outcome.rack:
            self._layout = start_layout(self.game, self.table)
        elif outcome.layout is not None:
            self._layout = outcome.layout

    def _choose(self, option: str) -> Ruling:
        out = self.ref.choose(option)
        self._advance(out, None)
        return out.ruling

    def _declare_now(self, infraction: Infraction) -> Ruling:
        from cuesim.rules.pool import Declaration, PoolShot

        out = self.ref.play(PoolShot([], self._layout, self._layout, Declaration(),
                                     [infraction]))
        self._advance(out, None)
        return out.ruling

    def requests(self) -> dict[str, str]:
        st = self.ref.state
        if self.game == "14.1" and st.ball_in_hand == "kitchen" and st.phase == "play":
            return {"kitchen_spot": "K: spot the ball nearest the head string (WPA 6.7.7)"}
        return {}

    def _request(self, name: str) -> Ruling:
        if name != "kitchen_spot" or name not in self.requests():
            return super()._request(name)
        out = self.ref.request_kitchen_spot(self._layout)
        self.ref.state = out.state
        self._advance(out, None)
        return out.ruling

    def pending(self) -> tuple[str, str, list[str]] | None:
        p = self.ref.state.pending
        if p is None:
            return None
        return p["player"], p["article"], list(p["options"])

    def over(self) -> bool:
        return self.ref.state.phase == "match_over"

    def declarations(self) -> list[str]:
        st = self.ref.state
        out = ["call"]
        if self.game in ("8-ball", "14.1") and st.phase != "break":
            out.append("safety")
        if self.game == "9-ball" and st.push_out_available:
            out.append("push_out")
        return out

    def infraction_codes(self) -> dict[str, str]:
        from cuesim.rules.pool import INFRACTIONS

        return {code: f"{art}: {text}" for code, (art, text) in INFRACTIONS.items()}

    def scoreboard(self) -> list[str]:
        st = self.ref.state
        lines = [f"Game {st.frame}, race to {st.race_to}, inning {st.inning}"
                 + (" (break)" if st.phase == "break" else "")]
        for p in st.players:
            extra = []
            if self.game == "14.1":
                extra.append(f"{st.scores.get(p, 0)}/{st.points_to} pts")
            if self.game == "8-ball" and p in st.groups:
                extra.append(st.groups[p])
            if st.fouls.get(p):
                extra.append(f"fouls {st.fouls[p]}")
            lines.append(f"{p}: games {st.frames_won.get(p, 0)}"
                         + (", " + ", ".join(extra) if extra else ""))
        if self.game == "8-ball" and not st.groups and st.phase == "play":
            lines.append("Open table (WPA 4.9)")
        if self.game == "9-ball" and st.push_out_available:
            lines.append("Push-out available (WPA 5.6)")
        if st.ball_in_hand:
            where = "behind the head string" if st.ball_in_hand == "kitchen" else "anywhere"
            lines.append(f"Ball in hand {where}")
        if st.phase == "match_over":
            lines.append(f"Match over: {st.winner} wins")
        return lines

    def state_dict(self) -> dict[str, Any]:
        return self.ref.state.to_dict()

    def pieces_of(self, player: str) -> list[str]:
        ids = [b for b in self._layout.ids() if b != "cue"]
        st = self.ref.state
        if self.game == "9-ball":
            return sorted(ids, key=int)[:1]
        if self.game == "8-ball":
            group = st.groups.get(player)
            if group is None:
                return [b for b in ids if b != "8"] or ids
            mine = [b for b in ids if (int(b) < 8) == (group == "solids") and b != "8"]
            return mine or ["8"]
        return ids


# ============================================================================================
# ============================================================================================
class FivePinsRefereeSession(Session):
    """5-pins with the referee `cuesim.rules.fivepins.FivePinsGame` (WCBS rules)."""

    game = "5-pins"
    max_speed = 8.0

    def __init__(self, players: list[str], computer: tuple[str, ...] = (),
                 options: dict[str, Any] | None = None) -> None:
        from cuesim.rules.fivepins import FivePinsGame

        super().__init__(players, computer, options)
        self.ref = FivePinsGame(list(players), points_to=int(self.options.get("points_to", 60)),
                                games=int(self.options.get("games", 1)))
        assert self.ref.layout is not None
        self._layout: Layout = self.ref.layout

    def shooter(self) -> str:
        return self.ref.state.shooter

    def struck_id(self) -> str:
        return self.ref.state.ball_of(self.ref.state.shooter)

    def layout(self) -> Layout:
        return self._layout

    def placement(self) -> str | None:
        return self.ref.state.placement

    def place_area(self) -> list[tuple[float, float]]:
        r, w, l = self.radius(), self.table.geometry.width, self.table.geometry.length
        if self.placement() == "top_half":
            return [(r, l / 2 + r), (w - r, l / 2 + r), (w - r, l - r), (r, l - r)]
        return [(r, r), (w - r, r), (w - r, l / 2 - r), (r, l / 2 - r)]

    def check_place(self, x: float, y: float) -> str | None:
        r, l = self.radius(), self.table.geometry.length
        where = self.placement()
        if where == "bottom_half" and y + r > l / 2 + 1e-12:
            return (f"5-pins 4.2, 13.3: the ball in hand goes wholly inside the bottom half "
                    f"(y <= {l / 2 - r:.3f} m): no part of it over the middle line")
        if where == "top_half" and y - r < l / 2 - 1e-12:
            return (f"5-pins 13.3: the ball in hand goes wholly inside the top half "
                    f"(y >= {l / 2 + r:.3f} m)")
        ball = self.struck_id()
        reason = free_spot(self.table, self.layout(), Piece(ball, "ball", x, y, ball))
        return f"5-pins 13.3: the ball cannot stand there: {reason}" if reason else None

    def _shot(self, action: dict[str, Any]) -> CueShot:
        return CueShot(angle=action["angle"], speed=action["speed"],
                       side=action.get("side", 0.0), height=action.get("height", 0.0),
                       ball=self.struck_id())

    def _shot_layout(self, action: dict[str, Any]) -> Layout:
        ball = self.struck_id()
        return self.layout().without([ball]).with_piece(
            Piece(ball, "ball", action["x"], action["y"], ball))

    def _adjudicate(self, ref: Any, result: ShotResult, action: dict[str, Any]) -> tuple[
            Ruling, Any]:
        from cuesim.rules.fivepins import Declaration, shot_from_result

        infractions = [Infraction.from_dict(i) for i in action.get("infractions", [])]
        d = action.get("declaration") or {}
        decl = Declaration(**{k: v for k, v in d.items()
                              if k in Declaration.__dataclass_fields__})
        out = ref.play(shot_from_result(result, decl, infractions))
        return out.ruling, out

    def _advance(self, outcome: Any, result: ShotResult | None) -> None:
        if outcome is not None and outcome.layout is not None:
            self._layout = outcome.layout
        elif result is not None:  # the match is over: the balls stay where they stopped
            self._layout = result.final

    def _choose(self, option: str) -> Ruling:
        out = self.ref.choose(option)
        self._advance(out, None)
        return out.ruling

    def requests(self) -> dict[str, str]:
        if self.ref.state.phase == "play":
            return {"contact_reset": "K: balls in contact, the referee resets them (5-pins "
                                     "10.4)"}
        return {}

    def _request(self, name: str) -> Ruling:
        if name != "contact_reset" or name not in self.requests():
            return super()._request(name)
        out = self.ref.contact_reset()
        self._advance(out, None)
        return out.ruling

    def _declare_now(self, infraction: Infraction) -> Ruling:
        from cuesim.rules.fivepins import FivePinsShot

        out = self.ref.play(FivePinsShot([], self.layout(), self.layout(),
                                         infractions=[infraction]))
        self._advance(out, None)
        return out.ruling

    def pending(self) -> tuple[str, str, list[str]] | None:
        p = self.ref.state.pending
        if p is None:
            return None
        return p["player"], p["article"], list(p["options"])

    def over(self) -> bool:
        return self.ref.state.phase == "match_over"

    def infraction_codes(self) -> dict[str, str]:
        from cuesim.rules.fivepins import INFRACTIONS

        return {code: f"5-pins {art}: {text}" for code, (art, text, _) in INFRACTIONS.items()}

    def scoreboard(self) -> list[str]:
        st = self.ref.state
        lines = [f"Game {st.game} of {st.games}, to {st.points_to} points"
                 + (" (break)" if st.phase == "break" else "")]
        for p in st.players:
            lines.append(f"{p} [{st.ball_of(p)}]: {st.scores.get(p, 0)} pts, games "
                         f"{st.games_won.get(p, 0)}")
        if st.placement:
            lines.append(f"Ball in hand: {st.placement.replace('_', ' ')}")
        if st.phase == "match_over":
            lines.append(f"Match over: {st.winner} wins")
        return lines

    def state_dict(self) -> dict[str, Any]:
        return self.ref.state.to_dict()

    def targets(self) -> list[tuple[float, float]]:
        from cuesim.tables.carom import SPOTS

        return [SPOTS["centre_spot"]]

    def pieces_of(self, player: str) -> list[str]:
        own = self.ref.state.ball_of(player)
        return ["yellow" if own == "white" else "white", "red"]
