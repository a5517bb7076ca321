"""The 5-pins referee's data: the balls and pins, a shot to rule on with its declaration, the
game and match state, and the outcome (ruling, next state, the table for the next shot)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cuesim.rules.api_checks import MAX_MATCH, require, two_players
from cuesim.rules.files import check_known_fields
from cuesim.rules.plain import PlainState
from cuesim.rules.ruling import Infraction, Ruling
from cuesim.sim.result import Event, ShotResult
from cuesim.tables.carom import BALL_IDS, PIN_IDS, SPOTS
from cuesim.tables.layout import Layout

TABLE = "carom"
RED = "red"
CUE_BALLS = ("white", "yellow")  # each player plays one of them for the whole match (4.4)
BALLS = BALL_IDS
PINS = PIN_IDS
CENTRE_PIN = "pin_centre"
SIDE_PINS = tuple(p for p in PIN_IDS if p != CENTRE_PIN)
PLACEMENTS = ("bottom_half", "top_half")  # ball in hand (4.1 а, 4.2, 13.2-13.4)
PHASES = ("lag", "lag_choice", "break", "play", "match_over")
DEFAULT_POINTS_TO = 60  # 2: "the number of points set for the competition" (none in the text)


def article(ref: str) -> str:
    """'15.3.б' -> '5-pins 15.3.б'."""
    return f"5-pins {ref}"


@dataclass
class Declaration:
    """What the referee or the players say around a shot.

    choice: the answer to a pending option (the lag winner: 'break' / 'pass', 3; the player in
    hand: 'in_hand' / 'spot_offender', 13.5), applied before the shot. in_contact: balls or
    cushions (rail names) the referee declares in contact with the striker's ball (10.1, 10.2;
    contact is also read from the initial layout). moved_pins: pins the referee judges only
    moved or hit without leaving the cloth (12.4, 12.5): they are not counted and are reset.
    """

    choice: str | None = None
    in_contact: list[str] = field(default_factory=list)
    moved_pins: list[str] = field(default_factory=list)


@dataclass
class FivePinsShot:
    """One shot: its event log, the layouts before and after, the declaration and the
    infractions physics cannot see. An empty event log with infractions is a foul or a
    declared event between shots (13.6, 15.3.и/к/п, 9). `result` is the simulation the log
    came from (`shot_from_result`); without one the referee checks that the log could have
    happened (`cuesim.rules.event_log.check_event_log`)."""

    events: list[Event] = field(default_factory=list)
    initial: Layout | None = None
    final: Layout | None = None
    declaration: Declaration = field(default_factory=Declaration)
    infractions: list[Infraction] = field(default_factory=list)
    result: ShotResult | None = field(default=None, compare=False, repr=False)


@dataclass
class FivePinsState(PlainState):
    """Game and match state. `placement` is where the shooter's ball is in hand ('bottom_half',
    'top_half') or None (played where it lies). `pending` is an option the named player
    answers with declaration.choice: {"player", "article", "options": [...], "default"}; an
    option with a default may be left unanswered (the default applies)."""

    players: list[str]
    balls: dict[str, str]  # player -> 'white' | 'yellow' (4.4)
    shooter: str
    breaker: str  # of the current game
    first_breaker: str  # of game 1; the opening alternates through the match (4.5)
    phase: str = "break"
    placement: str | None = "bottom_half"
    pending: dict[str, Any] | None = None
    no_score: bool = False  # 10.4: the shot after the referee's reset scores nothing
    offender: str | None = None  # whose foul gave the ball in hand (13.5)
    scores: dict[str, int] = field(default_factory=dict)
    points_to: int = DEFAULT_POINTS_TO
    games: int = 1  # games in the match, odd (2)
    game: int = 1
    games_won: dict[str, int] = field(default_factory=dict)
    game_scores: list[dict[str, int]] = field(default_factory=list)  # finished games
    shot: int = 1
    lag_faults: dict[str, int] = field(default_factory=dict)  # 3: late starts at the lag
    winner: str | None = None
    excluded: str | None = None  # 9.2

    def opponent(self, player: str | None = None) -> str:
        player = self.shooter if player is None else player
        a, b = self.players
        return b if player == a else a

    def ball_of(self, player: str) -> str:
        return self.balls[player]

    def player_of(self, ball: str) -> str | None:
        for p, b in self.balls.items():
            if b == ball:
                return p
        return None

    @staticmethod
    def from_dict(data: dict[str, Any]) -> FivePinsState:
        check_known_fields(data, set(FivePinsState.__dataclass_fields__))
        players = two_players(data, ("players", "shooter"))
        values = dict(data)
        values["players"] = [str(p) for p in players]
        values.setdefault("balls", {values["players"][0]: "white",
                                    values["players"][1]: "yellow"})
        values.setdefault("breaker", data["shooter"])
        values.setdefault("first_breaker", values["breaker"])
        # absent: in hand in the bottom half for the opening (4.1), else where it lies (a ball
        # is in hand in play only after a foul, 13.1, which a state resumed then names)
        values.setdefault("placement",
                          "bottom_half" if values.get("phase", "break") == "break" else None)
        values.setdefault("scores", {p: 0 for p in values["players"]})
        values.setdefault("games_won", {p: 0 for p in values["players"]})
        state = FivePinsState(**values)
        check_state(state)
        return state


def check_state(state: FivePinsState) -> None:
    """ValueError naming the first field of a state no match can reach: players, balls (4.4),
    phase and placement; whole counts per player (scores, games won, late starts at the lag,
    3); the offender, the excluded player (9.2) and the winner players or null, the winner named
    exactly when the match is over; the game within the match, following exactly the games won
    (n - 1 before game n; n at the match's end, n - 1 when an exclusion ended it, 9.2), and
    after the finished games' scores (2); a pending choice the referee offers
    (`check_pending`)."""
    for key in ("shooter", "breaker", "first_breaker"):
        if getattr(state, key) not in state.players:
            raise ValueError(f"state.{key} {getattr(state, key)!r} is not one of the players "
                             f"{state.players}")
    if set(state.balls) != set(state.players) or sorted(state.balls.values()) != list(CUE_BALLS):
        raise ValueError(f"state.balls must give each player one of {list(CUE_BALLS)}, got "
                         f"{state.balls!r} (4.4)")
    if state.placement not in (None, *PLACEMENTS):
        raise ValueError(f"state.placement must be null or one of {list(PLACEMENTS)}, got "
                         f"{state.placement!r}")
    if state.phase not in PHASES:
        raise ValueError(f"state.phase must be one of {list(PHASES)}, got {state.phase!r}")
    if state.games < 1 or state.games % 2 == 0:
        raise ValueError(f"the number of games in a match must be odd (5-pins 2), got "
                         f"{state.games}")
    if state.points_to < 1:
        raise ValueError(f"points_to must be positive, got {state.points_to}")
    for key in ("games", "points_to"):
        if getattr(state, key) > MAX_MATCH:
            raise ValueError(f"{key} must be at most {MAX_MATCH} (a match that ends), got "
                             f"{getattr(state, key)}")
    for key in ("scores", "games_won"):
        table = getattr(state, key)
        if set(table) != set(state.players) or any(
                isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in table.values()):
            raise ValueError(f"state.{key} must give each player of {state.players} a "
                             f"non-negative whole number, got {table!r}")
    for key in ("offender", "excluded", "winner"):
        if getattr(state, key) not in (None, *state.players):
            raise ValueError(f"state.{key} must be null or one of the players {state.players}, "
                             f"got {getattr(state, key)!r}")
    if (state.winner is None) != (state.phase != "match_over"):
        raise ValueError(f"state.winner is {state.winner!r} in phase {state.phase!r}: the "
                         "winner is named when the match is over, and only then (5-pins 2)")
    if state.excluded is not None and state.phase != "match_over":
        raise ValueError(f"state.excluded {state.excluded!r}: a player excluded for refusing "
                         "to continue loses the match (5-pins 9.2), which is then over")
    faults = state.lag_faults
    if not set(faults) <= set(state.players) or any(
            isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in faults.values()):
        raise ValueError(f"state.lag_faults must give players of {state.players} a "
                         f"non-negative whole number of late starts (5-pins 3), got {faults!r}")
    if state.game > state.games:
        raise ValueError(f"state.game {state.game} is past the {state.games} game(s) of the "
                         "match (5-pins 2)")
    if state.phase != "match_over":  # a game ends when a player reaches the points set (2)
        over = [p for p, v in state.scores.items() if v >= state.points_to]
        if over:
            raise ValueError(f"state.scores: {over[0]} has {state.scores[over[0]]} of "
                             f"points_to {state.points_to}, so the game is over (5-pins 2); a "
                             "game in play has every score below it")
        need = state.games // 2 + 1
        won = [p for p, v in state.games_won.items() if v >= need]
        if won:
            raise ValueError(f"state.games_won: {won[0]} has won {state.games_won[won[0]]} of "
                             f"{state.games} games, so the match is over (5-pins 2)")
    played = sum(state.games_won.values())
    done = state.game if state.phase == "match_over" else state.game - 1
    won = done if state.excluded is None else state.game - 1  # 9.2: the game left unfinished
    if played != won:
        raise ValueError(f"state.games_won {state.games_won!r}: {played} game(s) won, but "
                         f"game {state.game} is {'the last' if done == state.game else 'on'}"
                         f"{' and was left unfinished (5-pins 9.2)' if won != done else ''}, "
                         f"and every game before it has a winner (5-pins 2), so {won} are won")
    for k, scores in enumerate(state.game_scores):
        if not isinstance(scores, dict) or set(scores) != set(state.players) or any(
                isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in scores.values()):
            raise ValueError(f"state.game_scores[{k}] must give each player of {state.players} "
                             f"the non-negative whole points of a finished game, got {scores!r}")
    if len(state.game_scores) > done:
        raise ValueError(f"state.game_scores: {len(state.game_scores)} finished game(s), but game "
                         f"{state.game} is {'the last' if done == state.game else 'on'}, so at "
                         f"most {done} are over (5-pins 2)")
    check_pending(state)


LAG_OPTIONS = ("break", "pass")  # 3: the lag's winner breaks or gives the break
IN_HAND_OPTIONS = ("in_hand", "spot_offender")  # 13.5: the default first
OFFENDER_SPOTS = {"top_spot": "bottom_half", "bottom_spot": "top_half"}  # 13.5: spot -> half


def check_pending(state: FivePinsState) -> None:
    """`state.pending` is null or a choice the referee offers (ValueError naming the field):
    the lag winner's in phase 'lag_choice', and only there (3: {"player", "article": "5-pins
    3", "options": ["break", "pass"], "default": null}); or the incoming player's after a foul
    (13.5: {"player": the shooter, "article": "5-pins 13.5", "options": {"in_hand":
    {"placement": the state's}, "spot_offender": {"placement": the other half, "spot": the
    offender's ball on the top or bottom spot}}, "default": "in_hand"}, the offender the
    shooter's opponent)."""
    p = state.pending
    lag = state.phase == "lag_choice"
    if p is None:
        if lag:
            raise ValueError("state.pending is null in phase 'lag_choice': the lag's winner has "
                             "to choose to break or to give the break (5-pins 3)")
        return
    if not isinstance(p, dict) or set(p) != {"player", "article", "options", "default"}:
        raise ValueError(f"state.pending must be null or {{'player', 'article', 'options', "
                         f"'default'}}, got {p!r}")
    if p["player"] not in state.players:
        raise ValueError(f"state.pending.player {p['player']!r} is not one of the players "
                         f"{state.players}")
    if lag:
        if p["article"] != article("3") or p["options"] != list(LAG_OPTIONS) \
                or p["default"] is not None:
            raise ValueError(f"state.pending in phase 'lag_choice' must be the lag winner's "
                             f"choice {{'article': '5-pins 3', 'options': {list(LAG_OPTIONS)}, "
                             f"'default': null}}, got {p!r}")
        return
    if p["article"] != article("13.5"):
        raise ValueError(f"state.pending.article {p['article']!r}: in phase {state.phase!r} the "
                         "referee offers only the 13.5 choice after a foul ('5-pins 13.5'); the "
                         "lag's (3) is offered in phase 'lag_choice'")
    _check_in_hand_choice(state, p)


def _check_in_hand_choice(state: FivePinsState, p: dict[str, Any]) -> None:
    """The 13.5 choice as `FivePinsGame` offers it (see check_pending)."""
    where = "state.pending"
    if p["player"] != state.shooter or state.offender != state.opponent():
        raise ValueError(f"{where}: the 13.5 choice is the incoming shooter's "
                         f"({state.shooter!r}), after a foul by the opponent (state.offender "
                         f"{state.opponent()!r}), got player {p['player']!r} and offender "
                         f"{state.offender!r}")
    options = p["options"]
    if not isinstance(options, dict) or set(options) != set(IN_HAND_OPTIONS) \
            or p["default"] != IN_HAND_OPTIONS[0]:
        raise ValueError(f"{where}: the 13.5 choice has the options 'in_hand' (the default) and "
                         f"'spot_offender', got options {options!r}, default {p['default']!r}")
    if options["in_hand"] != {"placement": state.placement}:
        raise ValueError(f"{where}.options.in_hand must be {{'placement': "
                         f"{state.placement!r}}} (the state's placement, 13.2-13.4), got "
                         f"{options['in_hand']!r}")
    spot_off = options["spot_offender"]
    spot = spot_off.get("spot") if isinstance(spot_off, dict) else None
    name = spot.get("spot") if isinstance(spot, dict) else None
    if not isinstance(name, str) or name not in OFFENDER_SPOTS or spot_off != {
            "placement": OFFENDER_SPOTS[name], "spot": {
                "id": state.ball_of(state.opponent()), "x": SPOTS[name][0],
                "y": SPOTS[name][1], "spot": name, "article": article("13.5")}}:
        raise ValueError(f"{where}.options.spot_offender must put the offender's ball "
                         f"({state.ball_of(state.opponent())!r}) on the top spot (or the bottom "
                         "spot) and give the ball in hand in the other half (5-pins 13.5), got "
                         f"{spot_off!r}")


@dataclass
class Outcome:
    """The referee's answer to one step: the ruling, the state after it, what was spotted or
    put back (also in ruling.spotted), and the table for the next shot. A ball in hand is left
    out of `layout` (the player places it in `ruling.placement`). `lag` holds the lag's
    details when the step was the lag (3)."""

    ruling: Ruling
    state: FivePinsState
    layout: Layout | None = None
    spotted: list[dict[str, Any]] = field(default_factory=list)
    removed_pins: list[str] = field(default_factory=list)  # 12.7
    lag: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {
            "ruling": self.ruling.to_dict(),
            "state": self.state.to_dict(),
            "spotted": list(self.spotted),
            "removed_pins": list(self.removed_pins),
            "layout": self.layout.to_dict() if self.layout is not None else None,
        }
        if self.lag is not None:
            out["lag"] = dict(self.lag)
        return out


def shot_from_result(result: Any, declaration: Declaration | None = None,
                     infractions: list[Infraction] | None = None) -> FivePinsShot:
    """A FivePinsShot from a simulated cuesim.sim.result.ShotResult. A truncated result
    (stopped at the event limit, pieces still moving) is refused: TruncatedShotError."""
    require(result, ShotResult, "shot_from_result: result")
    require(declaration, Declaration | None, "shot_from_result: declaration")
    require(infractions, list[Infraction] | None, "shot_from_result: infractions")
    result.require_complete("the 5-pins referee")
    return FivePinsShot(list(result.event_log()), result.initial, result.final,
                        declaration or Declaration(), list(infractions or []), result)
