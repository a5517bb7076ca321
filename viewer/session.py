"""One game being played in the viewer: its table, its referee, whose turn it is, where the
struck piece may be placed, the shot, the ruling and the scoreboard.

Every change goes through an *action* (a shot with its declaration and declared infractions,
an answer to a pending choice, or an infraction ruled between shots), kept in `actions`. A
saved game is the list of actions (JSON); loading replays them through the simulator and the
referee, and undo replays all but the last. A saved game that this version's physics or rules
cannot replay (a shot refused, a turn that went to the other player) carries on from the table
and the referee state it was saved with (`resume`), without the shots before them: its `base`,
kept in the file when it is saved again, from which later actions replay. Shots are stored
in the table frame: the struck piece's centre (x, y), the direction (rad), the speed (m/s) and
the tip offsets as fractions of the radius (side to the right, height above the centre).

The games: `novus_session`, `pool_session`, `fivepins_session` (chosen by `new_session`); the
saved-game file's checks: `savefile`.
"""

from __future__ import annotations

import copy
import json
from numbers import Real
from pathlib import Path
from typing import Any

import numpy as np

from cuesim.api import game_table, simulate
from cuesim.output import write_atomic
from cuesim.rules.ruling import Infraction, Ruling
from cuesim.shot import CueShot, ShotError
from cuesim.sim.engine import run_motion
from cuesim.sim.result import ShotResult
from cuesim.tables.balls import CUE_END_MASS
from cuesim.tables.jsonfile import file_path, read_json
from cuesim.tables.layout import Layout, LayoutError
from cuesim.viewer import panel_text, placing
from cuesim.viewer.savefile import (
    PHYSICS_OPTIONS,
    SAVE_FORMAT,
    SESSION_GAMES,
    SaveFileError,
    check_action,
    check_game_pieces,
    check_replayed_layout,
    check_save,
    game_pieces,
    physics_option_problem,
    replay_drift,
    saved_layout,
    state_drift,
)

COMPUTER = "Computer"


__all__ = ["COMPUTER", "SESSION_GAMES", "SaveFileError", "Session", "load_session",
           "new_session", "session_from_dict"]

TAKEN_BACK = "the viewer (the shot is taken back)"
# m: how far a shot action's (x, y) may be from the struck ball it plays where it lies (a
# place typed to the millimetre); the action records the ball's own place
LIES_AT = 1e-3


class Session:
    """The common part of every game; subclasses hold one discipline's referee in `ref`."""

    game = ""
    unit = "frame"  # what one rack is called in the game's rules: a set, a game
    struck = ""
    max_speed = 6.0
    tip_vertical = True  # the tip widget has a height axis (balls) or only a side one (novus)

    def __init__(self, players: list[str], computer: tuple[str, ...] = (),
                 options: dict[str, Any] | None = None) -> None:
        self.players = list(players)
        if not isinstance(computer, tuple | list) or not all(c in self.players for c in computer) \
                or len(set(computer)) != len(tuple(computer)):
            raise ValueError(f"computer must be the players the computer plays, each once "
                             f"(players {self.players}), got {computer!r:.60}")
        self.computer = tuple(computer)
        self.options = dict(options or {})
        self.actions: list[dict[str, Any]] = []
        # counts every change of the game's course (an action played, one taken back): a
        # position the game comes back to by an undo is a new revision (ai.turn_key)
        self.revision = 0
        self.last_result: ShotResult | None = None
        self.last_ruling: Ruling | None = None
        self.ruling_text = ""
        # one entry per action: {"kind", "player" (to play before it), "ruling", "score"
        # (the frame's final score, only on an action that ended a frame)} (the score sheet)
        self.history: list[dict[str, Any]] = []
        self.table = game_table(self.game)
        for key, value in self.options.items():
            problem = physics_option_problem(self.game, key, value) \
                if key in PHYSICS_OPTIONS else None
            if problem:
                raise ValueError(f"options.{key} must be {problem}, got {value!r}")
        if "impact_steps" in self.options:  # the multiple impact's resolution (cuesim play)
            self.table = self.table.with_physics(impact_steps=float(self.options["impact_steps"]))
        if "physics" in self.options:  # other coefficients (cuesim play --physics)
            self.table = self.table.with_physics(**self.options["physics"])
        self.ref: Any = None
        self.load_note: str | None = None  # session_from_dict: how the replay differs from the file
        # the table and referee state the game carried on from (`resume`), or None: its start
        self.base: dict[str, Any] | None = None

    def cue_end_mass(self) -> float:
        """The cue's effective end mass in kg, which sets the squirt of side english: the
        'end_mass' option (cuesim play --end-mass), else a standard shaft's."""
        return float(self.options.get("end_mass", CUE_END_MASS))

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
        'kitchen', 'table', 'bottom_half' / 'top_half' (5-pins), or None (played where it
        lies)."""
        return None

    def place_line(self) -> str:
        """The panel's line for `placement()` (panel_text.PLACES), "" when there is none."""
        return panel_text.PLACES.get(self.placement() or "", "")

    def check_place(self, x: float, y: float) -> str | None:
        """Why the struck piece may not stand at (x, y), or None when it may."""
        return None

    def place_area(self) -> list[tuple[float, float]]:
        """The polygon (table frame) where the struck piece may be placed."""
        return []

    def over(self) -> bool:
        return False

    def match_winner(self) -> str | None:
        """Who won the finished match, by the referee's state (None: a draw, or not over)."""
        return None

    def scoreboard(self, board: Layout | None = None) -> list[str]:
        """The scoreboard in lines; counts of pieces on the table come from `board` when given
        (the pieces still on the table at a moment of a shot being shown)."""
        return []

    def pending(self) -> tuple[str, str, list[str]] | None:
        """(chooser, article, options) when the incoming player must choose first."""
        return None

    def frame_score(self, ruling: Ruling, result: ShotResult | None) -> dict[str, str]:
        """The score of the frame (set, game) that `ruling` has just ended, per player or
        team, in words (the score sheet)."""
        return {p: ("won" if p == ruling.winner else "lost") for p in self.sides()}

    def visits(self, entries: list[dict[str, Any]]) -> list[str]:
        """The sides' visits to the table (WPA 'innings') in `entries`, in order: a shot, or a
        foul between shots that ends the player's inning (3.17), by a side other than the one
        before it starts a visit. A choice or a request starts none."""
        runs: list[str] = []
        for entry in entries:
            ends_turn = entry["kind"] == "infraction" and entry["ruling"].turn_passes
            if entry["kind"] == "shot" or ends_turn:
                side = self.side_of(entry["player"])
                if not runs or runs[-1] != side:
                    runs.append(side)
        return runs

    def inning(self) -> int:
        """The inning of the frame in play: 1 at its start, one more each time the turn goes
        to the other side (visits). Once the match is over, the last frame's count (the score
        sheet's)."""
        ended = [k for k, e in enumerate(self.history) if e["ruling"].frame_over]
        if ended and ended[-1] == len(self.history) - 1 and self.over():
            start = ended[-2] + 1 if len(ended) > 1 else 0
            return max(len(self.visits(self.history[start:])), 1)
        runs = self.visits(self.history[ended[-1] + 1 if ended else 0:])
        if not runs:
            return 1
        return len(runs) + (self.side_of(self.shooter()) != runs[-1])

    def fallen_pins(self) -> dict[str, float]:
        """Pins lying knocked down on the table now -> the direction they lie in (rad)."""
        return {}

    def sides(self) -> list[str]:
        """Who scores: the players, or the pairs in doubles."""
        return list(self.players)

    def side_of(self, player: str) -> str:
        """The side (one of sides()) a player plays for."""
        return player

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
        """The first legal place from the middle of the area outwards, along its longer side,
        that stands at least a diameter clear of every other piece; the first legal one if
        none does (a piece put down touching another looks as if the shot had moved it there,
        and in 5-pins touching balls change the next shot's rules): `placing.default_place`."""
        return placing.default_place(self)

    def kind_of(self, piece_id: str | None = None) -> str:
        """The kind of a piece (default: the struck one), also when it is off the table."""
        pid = piece_id or self.struck_id()
        kind = "striker" if pid == "striker" else "ball"
        for p in self.layout().pieces:
            if p.id == pid:
                kind = p.kind
        return kind

    def radius(self, piece_id: str | None = None) -> float:
        return self.table.piece_spec(self.kind_of(piece_id)).radius

    # -- playing -----------------------------------------------------------------------
    def shot_action(self, pos: tuple[float, float], angle: float, speed: float,
                    side: float = 0.0, height: float = 0.0,
                    declaration: dict[str, Any] | None = None,
                    infractions: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The shot action of the player to shoot (`apply` checks its fields); ValueError
        for a `pos` that is not a pair (x, y) of numbers."""
        if isinstance(pos, str | bytes | dict) or np.ndim(pos) != 1 or len(pos) != 2:
            raise ValueError(f"Session.play: pos must be (x, y) in metres, got {pos!r:.60}")
        numbers = {"x": pos[0], "y": pos[1], "angle": angle, "speed": speed, "side": side,
                   "height": height}
        for key, value in numbers.items():
            if isinstance(value, bool) or not isinstance(value, Real):
                raise ValueError(f"Session.play: {key} must be a number, got {value!r:.60}")
        return {"kind": "shot", "player": self.shooter(),
                **{key: float(value) for key, value in numbers.items()},
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
        ruling, ref = self.rule_on(result, action)
        return result, ruling, ref

    def rule_on(self, result: ShotResult, action: dict[str, Any]) -> tuple[Ruling, Any]:
        """The ruling of a simulated shot played as `action` (its declaration), on a copy of
        the referee, and that copy after it (the game does not change)."""
        result.require_complete(TAKEN_BACK)
        ref = copy.deepcopy(self.ref)
        ruling, _ = self._adjudicate(ref, result, action)
        return ruling, ref

    def judge(self, result: ShotResult, action: dict[str, Any]) -> Ruling:
        """The ruling a simulated shot would get, on a copy of the referee (the game does not
        change): what the aim line warns of."""
        result.require_complete(TAKEN_BACK)
        ruling, _ = self._adjudicate(copy.deepcopy(self.ref), result, action)
        return ruling

    def snapshot(self) -> Session:
        """A copy that the actions carried out after it leave as it is (what the panel shows
        while a shot is animated): its own referee and its own lists of actions and history,
        which `apply` appends to (a shallow copy shared them, and the shot that ended a frame
        then showed the next frame's inning)."""
        out = copy.copy(self)
        out.ref = copy.deepcopy(self.ref)
        out.actions, out.history = list(self.actions), list(self.history)
        return out

    def apply(self, action: dict[str, Any]) -> Ruling:
        """Carry out one action and record it; ValueError for an action whose kind, fields
        or their types are not a saved game's (`savefile.check_action`), for any action but
        a choice while the incoming player is to choose (`pending`), and for a shot by
        another player than the one to shoot or one whose declaration makes a choice (a
        session's choices are choice actions, made on the table they change, a rerack, a ball
        spotted, before the next shot is simulated on it), and for a ball played where it
        lies given another place (`_where_it_lies`)."""
        check_action(action, self.players, session=self)
        kind = action.get("kind")
        pending = self.pending()
        if pending is not None and kind != "choice":
            what = {"shot": "a shot", "infraction": "an infraction declared between shots",
                    "request": "a request"}.get(str(kind), str(kind))
            raise ValueError(f"Session.apply: {pending[0]} is to choose first ({pending[1]}):"
                             f" a choice action, option one of {pending[2]}, not {what}")
        if kind == "shot":
            if action["player"] != self.shooter():
                raise ValueError(f"Session.apply: action.player must be {self.shooter()!r}, the "
                                 f"player to shoot, got {action['player']!r} (a shot out of "
                                 "turn is declared: an infraction)")
            if (action.get("declaration") or {}).get("choice") is not None:
                raise ValueError("Session.apply: action.declaration.choice must be absent: a "
                                 "game's choices are choice actions (Session.choose)")
            action = self._where_it_lies(action)
        player = self.shooter()
        result = None
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
        self.revision += 1
        self.last_ruling = ruling
        self.ruling_text = ruling.describe(self.unit, stroke=kind == "shot")
        entry: dict[str, Any] = {"kind": kind, "player": player, "ruling": ruling, "score": None}
        self.history.append(entry)
        if ruling.frame_over:
            entry["score"] = self.frame_score(ruling, result if kind == "shot" else None)
        return ruling

    def lies_at(self, action: dict[str, Any]) -> dict[str, Any]:
        """A shot action with the struck ball's own place as its (x, y) when that ball is
        played where it lies (no ball in hand); else the action as it is. A saved game's
        replay takes its shots so: a version with other physics leaves the ball elsewhere, and
        the replay then drifts (`replay_drift`) rather than stops there."""
        if self.placement() is not None or self.struck_id() not in self.layout().ids():
            return action
        bx, by = self.struck_position()
        return {**action, "x": bx, "y": by}

    def _where_it_lies(self, action: dict[str, Any]) -> dict[str, Any]:
        """`lies_at`, and ValueError when the action puts the ball farther than LIES_AT from
        where it lies. Ignored, such an (x, y) was saved with the game, and a place off the
        table then kept the saved game from loading."""
        out = self.lies_at(action)
        if abs(action["x"] - out["x"]) > LIES_AT or abs(action["y"] - out["y"]) > LIES_AT:
            raise ValueError(f"Session.apply: action.x, action.y must be where the "
                             f"{self.struck_id()} ball lies, ({out['x']:.4f}, {out['y']:.4f}) m "
                             f"(no ball in hand), got ({action['x']:.4f}, {action['y']:.4f})")
        return out

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
    def resume(self, layout: Layout, state: dict[str, Any]) -> None:
        """Carry on from a table and a referee state, without the shots that led there: the
        referee resumed from `state` (`cuesim.rulings.referee`, its players this game's), the
        pieces where `layout` has them (checked as every layout is: on the bed, none
        overlapping). It becomes the game's `base`: undo goes back to it, not further.
        ValueError or LayoutError naming what does not fit."""
        from cuesim.rulings import referee

        self._check_resumed(layout, state)
        ref = referee(self.game, state)
        players = list(ref.players if hasattr(ref, "players") else ref.state.players)
        if players != self.players:
            raise ValueError(f"the saved referee state's players {players} are not the game's "
                             f"{self.players}")
        self.ref = ref
        self._resume_layout(layout)
        self.base = {"layout": layout.to_dict(), "state": copy.deepcopy(state)}
        # the shots that led there are not this game's any more: kept, a save would replay
        # them from the base, on the table they had already been played to
        self.actions, self.history = [], []

    def _resume_layout(self, layout: Layout) -> None:
        """Put the pieces where `layout` has them (`resume`)."""
        raise NotImplementedError

    def _check_resumed(self, layout: Layout, state: dict[str, Any]) -> None:
        """The table `resume` carries on from, checked as every layout is (LayoutError)."""
        self.table.check_layout(layout)

    def _rebuild(self, actions: list[dict[str, Any]]) -> None:
        fresh = new_session(self.game, self.players, self.computer, self.options)
        if self.base is not None:
            fresh.resume(Layout.from_dict(self.base["layout"]), self.base["state"])
        for a in actions:
            fresh.apply(a)
        revision = self.revision + 1
        self.__dict__.update(fresh.__dict__)
        self.revision = revision

    def undo(self) -> bool:
        """Take back the last action. False when there is none."""
        if not self.actions:
            return False
        self._rebuild(self.actions[:-1])
        if not self.actions:
            self.ruling_text = "Last shot taken back: the game is at its start."
        return True

    def to_dict(self) -> dict[str, Any]:
        out = {"format": SAVE_FORMAT, "version": 1, "game": self.game,
               "players": list(self.players), "computer": list(self.computer),
               "options": dict(self.options), "actions": copy.deepcopy(self.actions),
               "layout": self.layout().to_dict(), "state": self.state_dict()}
        if self.base is not None:
            out["base"] = copy.deepcopy(self.base)
        return out

    def state_dict(self) -> dict[str, Any]:
        return {}

    def save(self, path: str | Path) -> None:
        """Write the saved game whole or not at all (a full disk leaves an earlier save as it
        was: cuesim.output.write_atomic)."""
        write_atomic(path, json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n")

    # -- for the computer player -------------------------------------------------------
    def check_player(self, player: str) -> None:
        """ValueError unless `player` plays in this game."""
        if player not in self.players:
            raise ValueError(f"unknown player {player!r}; players are {self.players}")

    def pieces_of(self, player: str) -> list[str]:
        """The pieces the player wants to pocket or hit (for candidate shots)."""
        return [p.id for p in self.layout().pieces if p.id != self.struck_id()]

    def first_contacts(self, player: str) -> list[str]:
        """The pieces the player's struck piece may touch first without a foul (the computer
        kicks off a cushion when every one of them is hidden)."""
        return self.pieces_of(player)

    def kick_points(self, at: tuple[float, float]) -> list[tuple[float, float]]:
        """The mirror images of a point in the four lines the struck piece's centre touches the
        cushions on (x = r, x = W - r, y = r, y = L - r): aimed at, a one-cushion kick at it."""
        geo, r = self.table.geometry, self.radius()
        x, y = at
        return [(2 * r - x, y), (2 * (geo.width - r) - x, y), (x, 2 * r - y),
                (x, 2 * (geo.length - r) - y)]

    def targets(self) -> list[tuple[float, float]]:
        """Where pieces are pocketed (holes, pockets); empty on a carom table."""
        return [(h.x, h.y) for h in self.table.geometry.holes]


def load_session(path: str | Path) -> Session:
    """A game saved with `Session.save`, replayed to where it was saved."""
    path = file_path(path, "saved game", SaveFileError)
    data = read_json(path, "saved game", SaveFileError)
    return session_from_dict(data, str(path))


def _saved_start(data: dict[str, Any]) -> Session:
    """A new game with the saved game's name, players, computer players and options."""
    return new_session(str(data["game"]), list(data["players"]),
                       tuple(data.get("computer", ())), data.get("options") or {})


def _fresh_session(data: dict[str, Any], source: str) -> Session:
    """The saved game's session before its actions: its start, or its `base`."""
    session = _saved_start(data)
    if "base" in data:
        try:
            session.resume(Layout.from_dict(data["base"]["layout"]), data["base"]["state"])
        except (LayoutError, ValueError, KeyError, TypeError) as exc:
            raise SaveFileError(f"{source}: base does not fit the game: "
                                f"{str(exc).splitlines()[0]}") from None
    return session


def _carry_on(data: dict[str, Any], source: str, problem: str) -> Session:
    """The saved game carried on from the table and referee state it was saved with, when
    its actions cannot be replayed (`problem`: the first that cannot); SaveFileError naming
    `problem` when the file's table and state cannot be carried on from either."""
    hint = (f"{source}: {problem} (a game saved by a version of cuesim with other physics or "
            "rules replays differently from some shot on)")
    layout = saved_layout(data, source)
    if layout is None or not data.get("state"):
        raise SaveFileError(hint)
    session = _saved_start(data)
    check_game_pieces(layout, game_pieces(session.game), source)  # no replay checks them here
    try:
        session.resume(layout, data["state"])
    except (LayoutError, ValueError, KeyError, TypeError) as exc:
        raise SaveFileError(f"{hint}; nor does its saved table and state fit: "
                            f"{str(exc).splitlines()[0]}") from None
    session.load_note = (f"{problem}: this version's physics or rules replay the saved game "
                         "differently, so it carries on from the table and score it was saved "
                         "with; the shots before them are not kept (undo goes back to here)")
    return session


def session_from_dict(data: Any, source: str = "saved game") -> Session:
    """A session replayed from a saved game's JSON, checked first (check_save). When an
    action cannot be replayed (a shot refused, not the shooter's turn: a file saved with other
    physics or rules), the game carries on from the table and referee state it was saved with
    (`Session.resume`, with a `load_note`); a SaveFileError when those do not fit either, or
    when the saved layout has pieces the replayed game does not have on the table (or lacks
    some)."""
    check_save(data, source)
    session = _fresh_session(data, source)
    for k, action in enumerate(data["actions"]):
        if action["kind"] == "shot" and action["player"] != session.shooter():
            return _carry_on(data, source, f"actions[{k}].player {action['player']!r} is not "
                                           f"the shooter at that point ({session.shooter()!r})")
        try:
            session.apply(session.lies_at(action) if action["kind"] == "shot" else action)
        except (ShotError, LayoutError, ValueError, KeyError, TypeError) as exc:
            return _carry_on(data, source, f"actions[{k}] cannot be replayed: {exc}")
    saved = saved_layout(data, source)
    check_replayed_layout(saved, session.layout(), source, session.table, session.fallen_pins())
    notes = [replay_drift(saved, session.layout(), source, session.fallen_pins()),
             state_drift(data, session.state_dict(), source)]
    session.load_note = "; ".join(n for n in notes if n) or None
    return session


def new_session(game: str, players: list[str] | None = None, computer: tuple[str, ...] = (),
                options: dict[str, Any] | None = None) -> Session:
    """A fresh game by name (one of SESSION_GAMES)."""
    from cuesim.viewer.fivepins_session import FivePinsRefereeSession
    from cuesim.viewer.novus_session import NovusSession
    from cuesim.viewer.pool_session import PoolSession

    if game in ("novus", "novus-doubles"):
        doubles = game == "novus-doubles"
        default = ["Anna", "Boris", "Clara", "Dmitri"] if doubles else ["Anna", "Boris"]
        return NovusSession(game, players or default, computer, options)
    if game in ("8-ball", "9-ball", "14.1"):
        return PoolSession(game, players or ["Ann", "Bob"], computer, options)
    if game == "5-pins":
        return FivePinsRefereeSession(players or ["Ann", "Bob"], computer, options)
    raise ValueError(f"unknown game {game!r}; games are {', '.join(SESSION_GAMES)}")


class StateRefereeSession(Session):
    """A session whose referee keeps its state as `ref.state` with `pending` (who chooses
    what, under which article) and `phase` (the pool and 5-pins referees)."""

    ref: Any

    def pending(self) -> tuple[str, str, list[str]] | None:
        p = self.ref.state.pending
        if p is None:
            return None
        return p["player"], p["article"], list(p["options"])

    def over(self) -> bool:
        return self.ref.state.phase == "match_over"

    def match_winner(self) -> str | None:
        return self.ref.state.winner if self.over() else None
