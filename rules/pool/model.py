"""The pool referee's data: a shot to rule on, the player's declaration, the frame and match
state, and the outcome (ruling, next state, what was spotted, the table for the next shot)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from cuesim.rules.api_checks import MAX_MATCH, require, two_players
from cuesim.rules.files import check_known_fields
from cuesim.rules.plain import PlainState
from cuesim.rules.ruling import Infraction, Ruling
from cuesim.sim.result import Event, ShotResult
from cuesim.tables.layout import Layout

CUE = "cue"
POOL_TABLE = "pool_9ft"
BREAK_ORDERS = ("winner", "alternate", "loser", "trailing")  # 3.36 (and 4.4, 5.3)
PHASES = ("break", "play", "match_over")  # the next shot is the opening break; in play; over
GROUP_NAMES = ("solids", "stripes")  # 8-ball's two groups (4.1, 4.10)
PLACEMENTS = (None, "kitchen", "table")  # state.ball_in_hand: none, behind the head string, any
# the options each referee offers the incoming player (state.pending; rules.wording.CHOICES
# words them): 3.9, 4.5, 4.7, 4.8 in 8-ball; the 5.6 push-out; 3.9, 6.6, 6.7.5, 6.12 in 14.1
PENDING_OPTIONS = {
    "eight_ball": ("shoot_kitchen", "pass_kitchen", "accept", "rerack_and_break",
                   "rerack_opponent_breaks", "kitchen", "spot_eight", "spot_eight_kitchen",
                   "rerack"),
    "nine_ball": ("shoot", "pass"),
    "straight_pool": ("shoot_kitchen", "pass_kitchen", "accept", "rerack"),
}
PENDING_KEYS = ("player", "article", "options")
EFFECT_KEYS = ("shooter", "ball_in_hand", "rerack")


@dataclass
class Declaration:
    """What the shooter (or the incoming player) says before the shot.

    called_ball / called_pocket: the call (3.4, 4.2, 6.7.1); None = no call (8-ball: an
    obvious shot, 4.2). safety: a declared safety (4.12, 6.7.4). push_out: 9-ball 5.6.
    choice: the incoming player's answer to a pending option (see PoolState.pending), applied
    before the shot. frozen: balls announced frozen to a cushion before the shot, ball id ->
    cushion name (3.38; 2.16: an unannounced ball is not frozen). jammed: balls the referee
    judges pocketed after a jam in a pocket's jaws, ball id -> pocket (3.33). stalemate:
    8-ball 4.21, the referee declares a stalemate (no shot)."""

    called_ball: str | None = None
    called_pocket: str | None = None
    safety: bool = False
    push_out: bool = False
    choice: str | None = None
    frozen: dict[str, str] = field(default_factory=dict)
    jammed: dict[str, str] = field(default_factory=dict)
    stalemate: bool = False


@dataclass
class PoolShot:
    """One shot: its event log (cuesim.sim.result.Event), the layouts before and after, the
    declaration and the infractions physics cannot see. An empty event log means no stroke
    (only a choice, a stalemate or a foul between shots). `result` is the simulation the log
    came from (`shot_from_result`); without one the referee checks that the log could have
    happened (`cuesim.rules.event_log.check_event_log`), as the core's own logs are checked by
    its tests."""

    events: list[Event] = field(default_factory=list)
    initial: Layout | None = None
    final: Layout | None = None
    declaration: Declaration = field(default_factory=Declaration)
    infractions: list[Infraction] = field(default_factory=list)
    result: ShotResult | None = field(default=None, compare=False, repr=False)


@dataclass
class PoolState(PlainState):
    """Frame and match state of one pool game. Fields a discipline does not use stay at their
    defaults. `pending` holds an option the incoming player must choose before play goes on:
    {"player": who chooses, "article": "WPA 4.5", "options": {name: effect}} where an effect
    is {"shooter": player, "ball_in_hand": None|'kitchen'|'table', "rerack": bool}."""

    game: str
    players: list[str]
    shooter: str
    breaker: str
    phase: str = "break"  # 'break' (the next shot is the opening break), 'play', 'match_over'
    ball_in_hand: str | None = "kitchen"  # None, 'kitchen' (behind the head string), 'table'
    pending: dict[str, Any] | None = None
    fouls: dict[str, int] = field(default_factory=dict)  # consecutive fouls (5.13, 6.12)
    warned: dict[str, bool] = field(default_factory=dict)  # told of two fouls (5.13, 2.16)
    match_warnings: dict[str, list[str]] = field(default_factory=dict)  # 3.9 / 3.29, per match
    inning: int = 1  # counts every inning of the match (3.37): +1 when the turn passes
    frame: int = 1
    frames_won: dict[str, int] = field(default_factory=dict)
    race_to: int = 1  # frames needed to win the match
    break_order: str = "winner"  # 3.36
    winner: str | None = None  # of the match
    last_frame_winner: str | None = None
    # 8-ball
    groups: dict[str, str] = field(default_factory=dict)  # player -> 'solids' | 'stripes'
    rack_inning: int = 1  # the inning in which this rack was broken (4.21 counts from it)
    # 9-ball
    push_out_available: bool = False  # the shot right after a legal break (5.5, 5.6)
    # 14.1
    scores: dict[str, int] = field(default_factory=dict)
    # 6.7.2: player -> [ball, consecutive legal safeties on it while it lay within a ball's
    # width of a cushion]; the third shot at that ball treats it as frozen
    near_rail_safeties: dict[str, list[Any]] = field(default_factory=dict)
    points_to: int = 150  # 6.1: 150 in major events, any agreed number otherwise

    def opponent(self, player: str | None = None) -> str:
        player = self.shooter if player is None else player
        a, b = self.players
        return b if player == a else a

    @staticmethod
    def from_dict(data: dict[str, Any]) -> PoolState:
        check_known_fields(data, set(PoolState.__dataclass_fields__))
        two_players(data, ("game", "players", "shooter"))
        values = dict(data)
        values.setdefault("breaker", data["shooter"])
        state = PoolState(**values)
        for key in ("shooter", "breaker"):
            if getattr(state, key) not in state.players:
                raise ValueError(f"state.{key} {getattr(state, key)!r} is not one of the "
                                 f"players {state.players}")
        if state.ball_in_hand not in PLACEMENTS:
            raise ValueError(f"state.ball_in_hand must be null, 'kitchen' or 'table', got "
                             f"{state.ball_in_hand!r}")
        if state.break_order not in BREAK_ORDERS:
            raise ValueError(f"state.break_order must be one of {list(BREAK_ORDERS)}, got "
                             f"{state.break_order!r}")
        check_state(state)
        return state


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_state(state: PoolState) -> None:
    """A state that a match can reach, or ValueError naming the first field that says
    otherwise: a phase of PHASES; whole counts, per player; a frame number that follows the
    frames won (frame n follows n - 1 frames won; n or n - 1 when the match is over, the last
    frame won or lost with the match by 3.29); at most two consecutive fouls
    (the third is ruled at once: 5.13, 6.12); while the match is on, no winner, every player
    short of `race_to` frames and, in 14.1, of `points_to` points (6.1); 8-ball groups
    (4.10) given to both players, one each, and none in 9-ball or 14.1; `warned` and
    `match_warnings` of players; a `pending` choice as the referee offers one
    (`check_pending`), with `ball_in_hand` null meanwhile (the option says where the cue ball
    goes) and no push-out available (5.6 uses it up); in phase 'break' the cue ball in hand
    behind the head string (`_check_break_placement`, WPA 3.8); in 9-ball in play never
    behind it (5.7: in hand anywhere after a foul); in 8-ball no consecutive fouls counted and
    no one warned (4.21 note), elsewhere a warning only with two fouls (5.13, 6.12, 2.16)."""
    if state.phase not in PHASES:
        raise ValueError(f"state.phase must be one of {list(PHASES)}, got {state.phase!r}")
    for key in ("race_to", "points_to", "frame", "inning", "rack_inning"):
        value = getattr(state, key)
        if not _whole(value) or value < 1:
            raise ValueError(f"state.{key} must be a whole number >= 1, got {value!r}")
        if key in ("race_to", "points_to") and value > MAX_MATCH:
            raise ValueError(f"state.{key} must be at most {MAX_MATCH} (a match that ends), "
                             f"got {value!r}")
    for key, low in (("fouls", 0), ("frames_won", 0), ("scores", None)):
        table = getattr(state, key)
        if not isinstance(table, dict) or not set(table) <= set(state.players) or any(
                not _whole(v) or (low is not None and v < low) for v in table.values()):
            kind = "a whole number" if low is None else "a non-negative whole number"
            raise ValueError(f"state.{key} must give players of {state.players} {kind} each, "
                             f"got {table!r}")
    for key, kind, fits in (("warned", "true or false", lambda v: isinstance(v, bool)),
                            ("match_warnings", "a list of infraction codes",
                             lambda v: isinstance(v, list)
                             and all(isinstance(c, str) for c in v))):
        table = getattr(state, key)
        if not isinstance(table, dict) or not set(table) <= set(state.players) or not all(
                fits(v) for v in table.values()):
            raise ValueError(f"state.{key} must give players of {state.players} {kind} each, "
                             f"got {table!r}")
    if state.last_frame_winner not in (None, *state.players):
        raise ValueError(f"state.last_frame_winner must be null or one of the players "
                         f"{state.players}, got {state.last_frame_winner!r}")
    played = sum(state.frames_won.values())
    over = state.phase == "match_over"
    if not state.frame - 1 <= played <= state.frame - (not over):
        raise ValueError(f"state.frame {state.frame} with {played} frames won "
                         f"({state.frames_won}): every frame has a winner (3.36), so frame n "
                         "follows n - 1 frames won (n or n - 1 when the match is over: the "
                         f"last frame won, or lost with the match, 3.29), so the frame is "
                         f"{played + 1}" + (f" or {played}" if over else ""))
    if state.rack_inning > state.inning:
        raise ValueError(f"state.rack_inning {state.rack_inning} is after state.inning "
                         f"{state.inning}: the rack was broken in an inning already played")
    over = [p for p, n in state.fouls.items() if n > 2]
    if over:
        raise ValueError(f"state.fouls: {over[0]} on {state.fouls[over[0]]} consecutive fouls; "
                         "the third is ruled when it happens (WPA 5.13, 6.12), so a state "
                         "holds at most 2")
    if state.phase == "match_over":
        if state.winner not in state.players:
            raise ValueError(f"state.winner must name the player who won the match over, got "
                             f"{state.winner!r}")
    else:
        if state.winner is not None:
            raise ValueError(f"state.winner is {state.winner!r} but the match is on (phase "
                             f"{state.phase!r}): a winner is named when it is over")
        if state.frame > 2 * state.race_to - 1:
            raise ValueError(f"state.frame {state.frame} with race_to {state.race_to}: every "
                             "frame has a winner, so a race to that many is over within "
                             f"{2 * state.race_to - 1} frame(s)")
        won = [p for p, n in state.frames_won.items() if n >= state.race_to]
        if won:
            raise ValueError(f"state.frames_won: {won[0]} has {state.frames_won[won[0]]} of "
                             f"race_to {state.race_to}, so the match is over (race_to frames "
                             "win it)")
        if state.game == "straight_pool":
            top = [p for p, n in state.scores.items() if n >= state.points_to]
            if top:
                raise ValueError(f"state.scores: {top[0]} has {state.scores[top[0]]} of "
                                 f"points_to {state.points_to}, so the game is over (WPA 6.1)")
    if state.game != "straight_pool":
        scored = [p for p, n in state.scores.items() if n]
        if scored:
            raise ValueError(f"state.scores: {scored[0]} has {state.scores[scored[0]]} points, "
                             f"but {state.game} counts games won (frames_won), not points: "
                             "only 14.1 scores points (WPA 6.1)")
    if state.game == "straight_pool" and state.ball_in_hand == "table":
        raise ValueError("state.ball_in_hand 'table': in 14.1 the cue ball in hand is always "
                         "behind the head string (WPA 6.10)")
    if state.groups and state.game != "eight_ball":
        raise ValueError(f"state.groups {state.groups!r}: only 8-ball has groups (WPA 4.10); "
                         f"{state.game} has none, so groups must be empty")
    if state.groups and state.phase == "break":
        raise ValueError(f"state.groups {state.groups!r} before the opening break: the table is "
                         "open until a group is taken after it (WPA 4.9, 4.10)")
    if state.groups:
        names = sorted(GROUP_NAMES)
        if (set(state.groups) != set(state.players)
                or sorted(state.groups.values()) != names):
            raise ValueError(f"state.groups must be empty (the table open) or give each player "
                             f"one of {names}, the two different (WPA 4.10), got "
                             f"{state.groups!r}")
    if not isinstance(state.push_out_available, bool):
        raise ValueError(f"state.push_out_available must be true or false, got "
                         f"{state.push_out_available!r}")
    if state.push_out_available and (state.game != "nine_ball" or state.phase != "play"):
        raise ValueError(f"state.push_out_available in {state.game} in phase {state.phase!r}: "
                         "only the shot after a legal 9-ball break may be a push-out (WPA 5.5, "
                         "5.6)")
    _check_near_rail_safeties(state)
    check_pending(state)
    _check_break_placement(state)
    if state.pending is not None and state.ball_in_hand is not None:
        raise ValueError(f"state.ball_in_hand must be null while a choice is pending (the "
                         f"chosen option's effect says where the cue ball is: "
                         f"state.pending.options), got {state.ball_in_hand!r}")
    if state.push_out_available and state.pending is not None:
        raise ValueError("state.push_out_available with a choice pending: 9-ball's only choice "
                         "follows a push-out (WPA 5.6), which uses the push-out up")
    if (state.game == "nine_ball" and state.phase == "play"
            and state.ball_in_hand == "kitchen"):
        raise ValueError("state.ball_in_hand 'kitchen' in 9-ball in play: after every foul "
                         "9-ball gives the cue ball in hand anywhere (WPA 5.7; on the break 5.4, "
                         "3.9's exception), behind the head string only for the opening break "
                         "(5.2), so it is null or 'table'")
    if state.game == "eight_ball":
        counted = [p for p, n in state.fouls.items() if n]
        if counted:
            raise ValueError(f"state.fouls: {counted[0]} on {state.fouls[counted[0]]} "
                             "consecutive foul(s), but 8-ball counts none (WPA 4.21 note: three "
                             "fouls in a row do not lose the game), so every count is 0")
        warned = [p for p, w in state.warned.items() if w]
        if warned:
            raise ValueError(f"state.warned: {warned[0]} warned of two consecutive fouls, but "
                             "8-ball counts none (WPA 4.21 note), so no one is warned")
    else:
        early = [p for p, w in state.warned.items() if w and state.fouls.get(p, 0) != 2]
        if early:
            raise ValueError(f"state.warned: {early[0]} warned on {state.fouls.get(early[0], 0)}"
                             " consecutive foul(s): the warning comes with the second (WPA 5.13, "
                             "6.12, 2.16) and goes with the count, so it needs state.fouls 2")


def _check_break_placement(state: PoolState) -> None:
    """The opening break is played with the cue ball in hand behind the head string (WPA 3.8;
    4.3, 5.2, 6.4): in phase 'break' `ball_in_hand` is 'kitchen'. Only a choice pending before
    the break (14.1's 6.7.5 interference by the non-shooting player: its options give the cue
    ball in hand back) leaves it null meanwhile."""
    if state.phase != "break" or state.ball_in_hand == "kitchen":
        return
    if state.ball_in_hand is None and state.pending is not None:
        return
    shown = "null" if state.ball_in_hand is None else repr(state.ball_in_hand)
    raise ValueError(f"state.ball_in_hand must be 'kitchen' in phase 'break' (the opening break "
                     "is played with the cue ball in hand behind the head string, WPA 3.8), "
                     f"or null while a choice is pending (state.pending), got {shown}")


def _check_near_rail_safeties(state: PoolState) -> None:
    """14.1 counts each player's safeties in a row on the same object ball lying near a
    cushion (WPA 6.7.2): {player: [ball "1"-"15", count >= 1]}; other games count none."""
    counts = state.near_rail_safeties
    if not isinstance(counts, dict):
        raise ValueError(f"state.near_rail_safeties must be an object, got {counts!r}")
    if counts and state.game != "straight_pool":
        raise ValueError(f"state.near_rail_safeties {counts!r}: only 14.1 counts safeties on a "
                         f"ball near a cushion (WPA 6.7.2); {state.game} has none, so it must "
                         "be empty")
    balls = [str(n) for n in range(1, 16)]
    for player, entry in counts.items():
        if player not in state.players or not (
                isinstance(entry, list) and len(entry) == 2 and entry[0] in balls
                and _whole(entry[1]) and entry[1] >= 1):
            raise ValueError(f"state.near_rail_safeties must give players of {state.players} "
                             f"[an object ball '1'-'15', safeties in a row >= 1] (WPA 6.7.2), "
                             f"got {player!r}: {entry!r}")


def check_pending(state: PoolState) -> None:
    """`state.pending` is null or a choice the referee of `state.game` offers: {"player": one
    of the players, "article": a string, "options": {name: effect}}, one or more options of
    PENDING_OPTIONS, each effect {"shooter": a player, "ball_in_hand": one of PLACEMENTS (in
    14.1 not 'table', 6.10), "rerack": true or false} as the referee makes it for that option
    (who shoots next: the chooser or the other player; the cue ball as it lies or behind the
    head string, never in hand anywhere; a re-rack or not), and the chooser the shooter (the
    referee hands him the turn with the choice); ValueError naming the field."""
    pending = state.pending
    if pending is None:
        return
    if not isinstance(pending, dict):
        raise ValueError(f"state.pending must be null or an object {{player, article, options}},"
                         f" got {pending!r}")
    check_known_fields(pending, set(PENDING_KEYS), "state.pending")
    missing = [key for key in PENDING_KEYS if key not in pending]
    if missing:
        raise ValueError(f"state.pending is missing field {missing[0]!r}; a pending choice is "
                         f"{{player, article, options}}")
    if pending["player"] not in state.players:
        raise ValueError(f"state.pending.player {pending['player']!r} is not one of the players "
                         f"{state.players}")
    if not isinstance(pending["article"], str) or not pending["article"].strip():
        raise ValueError(f"state.pending.article must be the article that gives the choice (a "
                         f"string such as 'WPA 5.6'), got {pending['article']!r}")
    options = pending["options"]
    if not isinstance(options, dict) or not options:
        raise ValueError(f"state.pending.options must be an object of one or more options, "
                         f"name -> effect, got {options!r}")
    offered = PENDING_OPTIONS.get(state.game, tuple(o for g in PENDING_OPTIONS.values()
                                                    for o in g))
    places = [p for p in PLACEMENTS if not (p == "table" and state.game == "straight_pool")]
    chooser = pending["player"]
    other = next((p for p in state.players if p != chooser), chooser)
    # each option as the referees offer it: who shoots next (the chooser or the other player),
    # where the cue ball is (a re-rack leaves it null: the new rack's break puts it behind the
    # head string), whether the balls are re-racked, and why
    kitchen, as_lies, either = ("kitchen",), (None,), (None, "kitchen")
    effects = {
        "shoot": (chooser, as_lies, False, "WPA 5.6: the table as the push-out left it"),
        "pass": (other, as_lies, False, "WPA 5.6: the table as the push-out left it"),
        "shoot_kitchen": (chooser, kitchen, False, "WPA 3.9: from behind the head string"),
        "pass_kitchen": (other, kitchen, False, "WPA 3.9: the offender, from behind the head "
                                                "string"),
        "accept": (chooser, either, False, "WPA 4.5, 4.7, 6.6, 6.7.5, 6.12: the table as it "
                                           "is"),
        "kitchen": (chooser, kitchen, False, "WPA 4.7: from behind the head string"),
        "spot_eight": (chooser, either, False, "WPA 4.8: the 8 spotted, the cue ball as it lies "
                                               "or, after a scratch, behind the head string"),
        "spot_eight_kitchen": (chooser, kitchen, False, "WPA 4.8 with 4.7: from behind the "
                                                        "head string"),
        "rerack_and_break": (chooser, as_lies, True, "WPA 4.5: a new rack, the chooser breaks"),
        "rerack_opponent_breaks": (other, as_lies, True, "WPA 4.5: a new rack, the other "
                                                         "player breaks"),
        "rerack": (chooser, as_lies, True, "WPA 4.8: a new rack, the chooser breaks")
        if state.game == "eight_ball" else
        (other, as_lies, True, "WPA 6.6, 6.7.5, 6.12: a new rack, the offender breaks"),
    }
    shown = ", ".join("null" if p is None else repr(p) for p in places)
    for name, eff in options.items():
        where = f"state.pending.options.{name}"
        if name not in offered:
            raise ValueError(f"state.pending.options: {name!r} is not an option the "
                             f"{state.game} referee offers; its options are {sorted(offered)}")
        if not isinstance(eff, dict) or set(eff) != set(EFFECT_KEYS):
            raise ValueError(f"{where} must be {{'shooter': a player, 'ball_in_hand': one of "
                             f"{shown}, 'rerack': true or false}}, got {eff!r}")
        if eff["shooter"] not in state.players:
            raise ValueError(f"{where}.shooter {eff['shooter']!r} is not one of the players "
                             f"{state.players}")
        if eff["ball_in_hand"] not in places:
            raise ValueError(f"{where}.ball_in_hand must be one of {shown}, got "
                             f"{eff['ball_in_hand']!r}")
        if not isinstance(eff["rerack"], bool):
            raise ValueError(f"{where}.rerack must be true or false, got {eff['rerack']!r}")
        shooter, allowed, rerack, why = effects[name]
        if eff["rerack"] != rerack:
            raise ValueError(f"{where}.rerack must be {str(rerack).lower()} ({why}), got "
                             f"{eff['rerack']!r}")
        if eff["ball_in_hand"] not in allowed:
            must = " or ".join("null" if p is None else repr(p) for p in allowed)
            raise ValueError(f"{where}.ball_in_hand must be {must} ({why}), got "
                             f"{eff['ball_in_hand']!r}")
        if eff["shooter"] != shooter:
            raise ValueError(f"{where}.shooter must be {shooter} ({why}), got "
                             f"{eff['shooter']!r}")
    if pending["player"] != state.shooter:
        raise ValueError(f"state.pending.player {pending['player']!r} is not state.shooter "
                         f"{state.shooter!r}: the referee hands the turn to the player who "
                         "chooses")


@dataclass
class Outcome:
    """The referee's answer to one shot or choice: the ruling, the state after it, what was
    spotted (also in ruling.spotted), and the table for the next shot (None when the balls are
    to be racked by the caller: see `rack`). When the incoming player has ball in hand, the
    cue ball is left out of `layout`. `rack` names the rack to set up: 'eight_ball',
    'nine_ball', 'straight_pool' (15 balls) or None."""

    ruling: Ruling
    state: PoolState
    layout: Layout | None = None
    spotted: list[dict[str, Any]] = field(default_factory=list)
    rack: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "ruling": self.ruling.to_dict(),
            "state": self.state.to_dict(),
            "spotted": list(self.spotted),
            "layout": self.layout.to_dict() if self.layout is not None else None,
            "rack": self.rack,
        }


def shot_from_result(result: Any, declaration: Declaration | None = None,
                     infractions: list[Infraction] | None = None,
                     announce_frozen: bool = True) -> PoolShot:
    """A PoolShot from a simulated cuesim.sim.result.ShotResult (its event log and layouts).
    With `announce_frozen` and no ball announced frozen in the declaration, the referee
    announces every object ball touching a cushion before the shot, as WPA 3.38 has him
    inspect it (`general.announced_frozen`); False leaves the declaration as given. A truncated
    result (stopped at the event limit, pieces still moving) is refused: TruncatedShotError."""
    require(result, ShotResult, "shot_from_result: result")
    require(declaration, Declaration | None, "shot_from_result: declaration")
    require(infractions, list[Infraction] | None, "shot_from_result: infractions")
    result.require_complete("the pool referee")
    declaration = declaration or Declaration()
    if announce_frozen and not declaration.frozen:
        from cuesim.rules.pool.general import announced_frozen

        seen = announced_frozen(result.initial)
        if seen:
            declaration = replace(declaration, frozen=seen)
    return PoolShot(list(result.event_log()), result.initial, result.final, declaration,
                    list(infractions or []), result)
