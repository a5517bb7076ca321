"""The novus referee: the state of a game (match) and its sets (10, 12, 20-23).

`NovusGame` holds the players and their seats, the player to shoot, the layout, the debt of
penalty pucks, the first-series bookkeeping of 20.4 / 21.7, the misses of 20.6, the warnings
and the sets won. `adjudicate` takes one shot (a `ShotResult` from `cuesim.simulate` or a
hand-written `ShotRecord`) and the declared infractions, checks the striker's placement (12)
and has `adjudication.ShotAdjudication` rule on it; it returns a `NovusOutcome`: the `Ruling`,
the layout for the next shot and the shot's analysis; the game moves on to the next shot (or
set). The choices below are the referee's as a whole; most are ruled in `adjudication`.

Seats and order
* Singles (20.1, 22.1): players = [first, second] in protocol order. In set k the protocol gives
  the first strike to players[first] when k is odd, to the other when k is even; the player with
  the first strike stands south (the right to start stays with one side, 20.2, and the players
  change places after every set). A 20.4 replay swaps sides and the first strike.
* Doubles (21.1, 22.3): players = [a1, a2, b1, b2]; a1/a2 and b1/b2 are partners. In set 1 they
  sit a1 south, b1 west, a2 north, b2 east; shots go clockwise (south, west, north, east); after
  each set everyone moves one seat clockwise; the first strike stays with the south seat. After
  a 21.7 replay the seats stay and the first strike goes to the player who cleared last.
* Colours: the first player (pair) plays 'red', the second 'black' (changeable).

Choices on ambiguous rules (see also the module docstrings of classify and placement):
* A set is won by the side whose pucks are all off the table with no debt, whoever pocketed
  them (20.3): pocketing the opponent's last puck gives him the set (which is why 20.5 annuls
  the set when both last pucks fall with one correct shot).
* Pocketing one's last puck with a shot that earns a penalty puck does not win: the penalty
  puck is placed (the player now has a free puck) and play goes on, except in 20.5 (set lost)
  and 20.4 (both first-series clearances: the one who lost the turn on his last stroke loses
  the set). A last puck pocketed with a loss of turn that carries no penalty (18.1.б/в/д) wins.
* Debt (17.4-17.6) is placed whenever the debtor loses the turn and has free pucks, and at
  once when his last puck leaves the table (17.5; also when the opponent pocketed it).
* 16.1.а counts own pucks that were dark before the shot and left the area they were in, the
  centre circle or the own rail zone (even into the other one), or are gone. 16.1.г counts
  every puck the shot moved, the dark one included: the striker touching only the dark puck is
  17.1.з, anything more is 16.1.г.
* A punishable shot that drives an opponent's puck into his dark area: in singles it is put
  back (the singles rule 21.3 refers to); in doubles only a penalty puck when it went into a
  rear (rail) zone (17.1.ф, 21.3), and put back when it went into the centre circle (21.4).
* A puck off the table after a correct shot goes to the centre circle whoever owns it (12);
  an opponent's puck driven off by a punishable shot is put back (17.1.р).
* 20.6 counts, per side (pair), consecutive shots whose striker touched none of its pucks
  while both sides had only dark pucks; at three each the set is replayed.
* 17.1.п: the offender's penalty puck is placed when the shooter's series ends and the
  offender misses his next turn. In doubles the penalised player is the offending pair's
  member who has the turn or gets it next (21.5). An offender whose series was only
  interrupted by 20.4 is penalised at once and the 20.4 clearance no longer stands.
* Warnings of 19.1 and 19.3 count together; the third loses the current set and every set not
  yet played (15.3), which ends the match; the sets then decide it by 23.1 (with an even number
  of sets they may end equal: a draw).
* The next layout leaves the striker out: the next player places it in his own zone (12).
* A shot whose layout has the striker touching a puck was struck from a placement that touched
  it: 17.1.л is ruled as if declared, naming the puck (`simulate` itself refuses to place the
  striker so, 12, as a player would be stopped before striking).

The Ruling fields are used as: `legal` = the shooter's side committed no violation (warnings
and the other side's violations, e.g. 17.1.п, are listed but ruled on their own articles);
`turn_passes`; `next_player`; `placement` = 'own_zone'; `spotted` = pucks the referee put on
the table (penalty pucks, pucks back from off the table, restored pucks) with the article;
`frame_over` = the set ended (or is replayed); `winner` = the match winner when the match is
over, else the set winner. Game state the Ruling has no field for (sets won, debt, replays) is
in `notes` and in the outcome's `state`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import MISSING, dataclass, field, fields, replace
from typing import Any

from cuesim.rules.api_checks import MAX_MATCH, check_items, check_names, hints, require
from cuesim.rules.event_log import check_event_log, check_one_strike, check_reach, check_simulated
from cuesim.rules.files import ScenarioError, hand_moved, table_of
from cuesim.rules.novus.adjudication import NovusOutcome, ShotAdjudication, art
from cuesim.rules.novus.infractions import (
    DURING_MOTION,
    HAND_MOVES,
    PLACING_TOUCH,
    STROKE_ONLY,
    lookup,
)
from cuesim.rules.novus.placement import start_row
from cuesim.rules.novus.shotlog import (
    STRIKER,
    ShotRecord,
    check_gone_pieces,
    check_match_pieces,
    check_novus_layouts,
    check_off_table,
    check_pocketed,
    check_striker_struck,
)
from cuesim.rules.novus.terms import CLOCKWISE, frame, to_table
from cuesim.rules.plain import copy_state
from cuesim.rules.ruling import Infraction, Ruling, Violation
from cuesim.shot import NovusShot, ShotError
from cuesim.sim.result import ShotResult
from cuesim.tables.layout import Layout, Piece
from cuesim.tables.novus import STRIKER_TOUCH_GAP, NovusTable

__all__ = ["NovusGame", "NovusOutcome", "art"]

_TABLE = NovusTable()


@dataclass
class NovusGame:
    """A novus game (match) of `sets` sets between two players or two pairs."""

    players: list[str]
    doubles: bool = False
    sets: int = 1
    play_all_sets: bool = False  # 23.1: play every set even when the result is decided
    deciding_swap: bool = False  # 22.3: in the deciding odd set the pair without the first
    #                              strike swaps its seats again
    first: int = 0  # singles: index of the player with the first strike by the protocol (22.1)
    colours: tuple[str, str] = ("red", "black")
    # -- state ---------------------------------------------------------------------------------
    set_number: int = 1
    replays: int = 0
    seats: dict[str, str] = field(default_factory=dict)  # side -> player
    start_side: str = "south"
    opener: str = ""
    shooter: str = ""
    debt: dict[str, int] = field(default_factory=dict)  # colour -> penalty pucks owed
    misses: dict[str, int] = field(default_factory=dict)  # team -> consecutive misses (20.6)
    series: dict[str, int] = field(default_factory=dict)  # player -> series begun in the set
    first_clear: dict[str, str] = field(default_factory=dict)  # 20.4: player -> clean/violated
    responder: str = ""  # 20.4 / 21.7: the one player who answers a first-series clearance
    pending: list[dict[str, str]] = field(default_factory=list)  # 17.1.п penalties
    skip: list[str] = field(default_factory=list)  # players who miss their next turn (17.1.п)
    warnings: dict[str, int] = field(default_factory=dict)
    time_warned: list[str] = field(default_factory=list)  # warned for delay (19.3): the
    #                              5 s (18.1.ж) and 30 s (17.1.т) limits apply from then on
    sets_won: dict[str, int] = field(default_factory=dict)  # team -> sets
    history: list[dict[str, Any]] = field(default_factory=list)
    history_from: int = 1  # the first set `history` records (a state loaded without one: its set)
    match_over: bool = False
    winner: str | None = None
    layout: Layout | None = None

    def __post_init__(self) -> None:
        check_config(self)
        check_given_state(self)
        state_given = given_state(self)
        check_names(self.players, "players")
        need = 4 if self.doubles else 2
        if len(self.players) != need or len(set(self.players)) != need:
            raise ValueError(f"novus {'doubles' if self.doubles else 'singles'} needs {need} "
                             f"distinct player names, got {self.players!r}")
        if not 1 <= self.sets <= MAX_MATCH:
            raise ValueError(f"the number of sets must be 1 to {MAX_MATCH}, got {self.sets}")
        if isinstance(self.set_number, bool) or not isinstance(self.set_number, int) \
                or not 1 <= self.set_number <= self.sets:
            raise ValueError(f"set_number must be a set of the match, 1 to sets ({self.sets}), "
                             f"got {self.set_number!r}")
        if self.first not in (0, 1):
            raise ValueError(f"'first' is the index (0 or 1) of the first striker, got "
                             f"{self.first!r}")
        if self.doubles and self.first != 0:
            raise ValueError("'first' is for singles; in doubles the order of the players gives "
                             "the first strike (22.3): [a1, a2, b1, b2], a1 of the first pair "
                             "strikes first")
        if len(self.colours) != 2 or self.colours[0] == self.colours[1]:
            raise ValueError(f"two different colours are needed, got {self.colours!r}")
        if not self.seats:
            lost = [name for name in SET_UP if _given(self, name)]
            if lost:
                raise ValueError(f"NovusGame: {', '.join(lost)} given without seats: a game "
                                 "without seats sets its set up afresh, which would replace "
                                 "them; give the seats too, or load the state with "
                                 "cuesim.rules.novus.scenario.game_from_dict")
        if state_given:
            self._load_given()
        else:
            self._count_from_zero()
            self._setup_set(None)

    def _count_from_zero(self) -> None:
        """Every side's sets won and every player's warnings, 0 where not given (copies: the
        caller's dicts are left as they were)."""
        self.sets_won = {team: 0 for team in self.teams()} | self.sets_won
        self.warnings = {p: 0 for p in self.players} | self.warnings

    def _load_given(self) -> None:
        """The state fields given to the constructor, loaded as `scenario.game_from_dict`
        loads a state: checked for what they mean (a winner named while the match is on,
        23.1; a third warning, 15.3; sets won beyond the sets played; ...; ValueError naming
        the field), the set-up fields not given filled in as that set's start has them (the
        opener at the start side, his series begun, no debts). A finished match (match_over)
        keeps what it is given, its winner a side or None (a drawn even match)."""
        if self.match_over:
            self._count_from_zero()
            if not self.seats:
                self._setup_set(None)
            if self.winner is not None and self.winner not in self.teams():
                raise ValueError(f"NovusGame: winner must be one of {self.teams()} or None (a "
                                 f"drawn match), got {self.winner!r}")
            return
        from cuesim.rules.novus.scenario import game_from_dict

        config = self.to_dict()
        state = {k: v for k, v in config.items() if k in CONFIG_KEYS}
        state |= {name: config[name] for name in config if name not in CONFIG_KEYS
                  and name in _defaults() and _given(self, name)}
        try:
            loaded = game_from_dict(state)
        except ValueError as exc:
            raise ValueError(f"NovusGame: {exc}") from None
        layout = self.layout
        self.__dict__.update(loaded.__dict__)
        if layout is not None:
            self.layout = layout

    # -- who is who ----------------------------------------------------------------------------
    def teams(self) -> list[str]:
        if self.doubles:
            return [f"{self.players[0]} & {self.players[1]}",
                    f"{self.players[2]} & {self.players[3]}"]
        return list(self.players)

    def team_of(self, player: str) -> str:
        k = self._index(player)
        return self.teams()[k // 2 if self.doubles else k]

    def colour_of(self, player: str) -> str:
        k = self._index(player)
        return self.colours[k // 2 if self.doubles else k]

    def colour_of_team(self, team: str) -> str:
        return self.colours[self.teams().index(team)]

    def other_team(self, team: str) -> str:
        a, b = self.teams()
        return b if team == a else a

    def side_of(self, player: str) -> str:
        for side, name in self.seats.items():
            if name == player:
                return side
        raise ValueError(f"player {player!r} has no seat")

    def pucks_per_team(self) -> int:
        return 16 if self.doubles else 8

    def _index(self, player: str) -> int:
        try:
            return self.players.index(player)
        except ValueError:
            raise ValueError(f"unknown player {player!r}; players are {self.players}") from None

    def order(self) -> list[str]:
        """Sides in the order of play from the south seat: clockwise (21.1)."""
        return [s for s in CLOCKWISE if s in self.seats]

    def next_after(self, player: str) -> str:
        sides = self.order()
        k = sides.index(self.side_of(player))
        return self.seats[sides[(k + 1) % len(sides)]]

    # -- sets ----------------------------------------------------------------------------------
    def _setup_set(self, replay: str | None) -> None:
        """Seat the players, put the pucks out and reset the set's bookkeeping."""
        if self.doubles:
            if replay is None:
                base = dict(zip(CLOCKWISE, [self.players[0], self.players[2],
                                            self.players[1], self.players[3]], strict=True))
                r = self.set_number - 1
                self.seats = {CLOCKWISE[(CLOCKWISE.index(s) + r) % 4]: p for s, p in base.items()}
                self.start_side = "south"
                deciding = self.sets % 2 == 1 and self.set_number == self.sets > 1
                if deciding and self.deciding_swap and not self.play_all_sets:
                    self._swap_receiving_pair()
            # 21.7 replay: seats stay; start_side set by the caller; 20.5/20.6: all stays
        else:
            if replay is None or replay == "swap":
                if replay is None:
                    opener = self.players[self.first if self.set_number % 2 else 1 - self.first]
                else:
                    opener = self.seats["north"]
                other = self.players[1 - self.players.index(opener)]
                self.seats = {"south": opener, "north": other}
            self.start_side = "south"
        self.opener = self.seats[self.start_side]
        self.shooter = self.opener
        self.debt = {c: 0 for c in self.colours}
        self.misses = {t: 0 for t in self.teams()}
        self.series = {p: 0 for p in self.players}
        self.series[self.opener] = 1
        self.first_clear, self.responder = {}, ""
        self.pending, self.skip = [], []
        self.layout = self.start_layout()

    def _swap_receiving_pair(self) -> None:
        """22.3: the pair without the first strike exchanges seats."""
        opener_team = self.team_of(self.seats["south"])
        sides = [s for s, p in self.seats.items() if self.team_of(p) != opener_team]
        a, b = sides
        self.seats[a], self.seats[b] = self.seats[b], self.seats[a]

    def start_layout(self) -> Layout:
        """Novus 10: every player's 8 pucks at the rail opposite him, the striker in the
        opener's zone."""
        pieces: list[Piece] = []
        count = {c: 1 for c in self.colours}
        for side in CLOCKWISE:
            if side in self.seats:
                colour = self.colour_of(self.seats[side])
                pieces += start_row(side, colour, count[colour])
                count[colour] += 8
        (u0, u1), (w0, w1) = _TABLE.striker_strip()
        x, y = to_table(self.start_side, (u0 + u1) / 2, (w0 + w1) / 2)
        return Layout("novus", (Piece(STRIKER, "striker", x, y), *pieces))

    # -- the shot ------------------------------------------------------------------------------
    def check_placement(self, layout: Layout) -> Violation | None:
        """Novus 12: the striker on the table with its hole wholly inside the shooter's zone
        strip. Returns the violation (the shot is refused), or None when it is placed there.
        A striker touching a puck is not refused here: struck so, it is 17.1.л
        (`placement_touch`)."""
        if STRIKER not in layout.ids():
            return Violation(art("12"), "the striker is not on the table", "refused")
        s = layout.get(STRIKER)
        side = self.side_of(self.shooter)
        u, w = frame(side, s.x, s.y)
        (u0, u1), (w0, w1) = _TABLE.striker_strip()
        if not (u0 - 1e-9 <= u <= u1 + 1e-9 and w0 - 1e-9 <= w <= w1 + 1e-9):
            return Violation(art("12"), f"the striker at ({s.x:.4f}, {s.y:.4f}) is not wholly "
                             f"inside the {side} zone strip (its hole must not show a line)",
                             "refused")
        return None

    @staticmethod
    def placement_touch(layout: Layout) -> list[str]:
        """The pieces the placed striker touches (within STRIKER_TOUCH_GAP): struck so, the player
        touched them placing it, 17.1.л (a penalty puck and the turn)."""
        if STRIKER not in layout.ids():
            return []
        s = layout.get(STRIKER)
        r = _TABLE.piece_spec("striker").radius
        return [p.id for p in layout.pieces if p.id != STRIKER and math.hypot(
            p.x - s.x, p.y - s.y) < r + _TABLE.piece_spec(p.kind).radius + STRIKER_TOUCH_GAP]

    def play(self, shot: NovusShot, table: NovusTable | None = None,
             infractions: list[Infraction] | None = None) -> NovusOutcome:
        """Simulate `shot` (from the shooter's side) on the current layout and adjudicate it.
        An illegal striker placement is refused (12) and nothing is simulated."""
        from cuesim.api import simulate

        require(shot, NovusShot, "shot")
        require(table, NovusTable | None, "table")
        require(infractions, list[Infraction] | None, "infractions")
        table = table or _TABLE
        shot = replace(shot, side=self.side_of(self.shooter))
        try:
            result = simulate(table, self.layout, shot)  # type: ignore[arg-type]
        except ShotError as exc:
            return self._refuse(Violation(art("12"), str(exc), "refused"))
        return self.adjudicate(result, infractions)

    def _refuse(self, v: Violation) -> NovusOutcome:
        ruling = Ruling(legal=False, violations=[v], turn_passes=False,
                        next_player=self.shooter, placement="own_zone",
                        notes=["placement refused: place the striker again; nothing was played"])
        return NovusOutcome(ruling, self.layout, None, self.to_dict())  # type: ignore[arg-type]

    def adjudicate(self, shot: ShotResult | ShotRecord | None,
                   infractions: list[Infraction] | None = None) -> NovusOutcome:
        """Rule on one shot (None: no shot, only declared infractions) and move the game on."""
        require(shot, ShotResult | ShotRecord | None, "shot")
        require(infractions, list[Infraction] | None, "infractions")
        check_items(infractions or [], Infraction, "infractions")
        if self.match_over:
            raise ValueError("the match is over: no more shots can be adjudicated")
        infractions = list(infractions or [])
        stroke = [i.code for i in infractions if i.code in STROKE_ONLY]
        if shot is None and stroke:
            raise ValueError(f"infraction {stroke[0]!r} (novus {lookup(stroke[0])[0]}) happens "
                             "in a stroke: declare it with that shot, not between shots")
        moving = [i.code for i in infractions if i.code in DURING_MOTION]
        if shot is None and moving:
            raise ValueError(f"infraction {moving[0]!r} (novus {lookup(moving[0])[0]}) needs "
                             "pieces in motion: declare it with the shot during which it "
                             "happened; between shots every piece is at rest")
        record = ShotRecord.from_result(shot) if isinstance(shot, ShotResult) else shot
        by_hand = hand_moved(infractions, HAND_MOVES)
        if isinstance(shot, ShotRecord) and shot.result is not None:
            # a record the caller made, with the simulation it claims to come from
            check_simulated(record.events, record.initial, record.final, record.result, "shot")
            if record.pocketed != record.result.pocketed:
                raise ScenarioError(f"shot.pocketed {record.pocketed} is not what shot.result "
                                    f"(the simulation the record came from) pocketed: "
                                    f"{record.result.pocketed}")
        if record is not None and record.result is None:  # a hand-written log that cannot
            # have happened is refused (the board has no pins)
            table = table_of(record.initial, "shot.initial")
            check_event_log(record.events, list(record.initial.ids()), "shot", table, pins=False)
            check_striker_struck(record.events)
            check_novus_layouts(record, by_hand)
            check_reach(record.events, record.initial, table, "shot", by_hand)
            check_pocketed(record.events, record.pocketed)
        if record is not None:
            check_one_strike(record.events)
            check_match_pieces(record, self.colours, self.pucks_per_team())
            check_gone_pieces(record, infractions)
            check_off_table(record, infractions, by_hand)
            bad = self.check_placement(record.initial)
            if bad is not None:
                return self._refuse(bad)
            touched = self.placement_touch(record.initial)
            if touched and not any(i.code == PLACING_TOUCH and i.player in ("", self.shooter)
                                   for i in infractions):
                infractions.append(Infraction(PLACING_TOUCH, self.shooter, tuple(touched),
                                              "seen in the layout the shot starts from"))
        if not infractions:
            return ShotAdjudication(self, record, infractions).run()
        # a declaration refused part-way (a later infraction that cannot have happened) leaves
        # the game as it was, not with the earlier ones' warnings or debts booked
        saved = copy_state(self)
        try:
            return ShotAdjudication(self, record, infractions).run()
        except ValueError:
            self.__dict__.update(vars(saved))
            raise

    # -- ending sets and the match ---------------------------------------------------------------
    def _end_set(self, winner: str | None, article: str, replay: str | None = None,
                 start_side: str | None = None) -> None:
        self.history.append({"set": self.set_number, "winner": winner, "article": article,
                             "replay": replay is not None})
        if replay is not None:
            self.replays += 1
            if start_side is not None:
                self.start_side = start_side
            self._setup_set(replay)
            return
        if winner is not None:
            self.sets_won[winner] += 1
        self._check_match()
        if not self.match_over:
            self.set_number += 1
            self._setup_set(None)

    def _check_match(self) -> None:
        """23.1: more than half of the sets wins (the rest is not played unless the rules of
        the event say so); after the last set, equal sets are a draw."""
        a, b = self.teams()
        wa, wb = self.sets_won[a], self.sets_won[b]
        decided = max(wa, wb) * 2 > self.sets
        if (decided and not self.play_all_sets) or self.set_number >= self.sets:
            self.match_over = True
            self.winner = a if wa > wb else b if wb > wa else None

    def _lose_remaining(self, team: str) -> None:
        """15.3: the offender loses the current set and every set not yet played; the match
        ends and the sets decide it as 23.1 does (more sets wins; equal sets are a draw)."""
        other = self.other_team(team)
        left = self.sets - self.set_number + 1
        self.sets_won[other] += left
        self.history.append({"set": self.set_number, "winner": other, "article": "15.3",
                             "replay": False, "sets": left})
        wt, wo = self.sets_won[team], self.sets_won[other]
        self.match_over = True
        self.winner = other if wo > wt else team if wt > wo else None

    # -- JSON ------------------------------------------------------------------------------------
    def __deepcopy__(self, memo: dict[int, Any]) -> NovusGame:
        """A deep copy through `rules.plain.copy_state` (its fields are plain data and an
        immutable layout): the computer copies the game for every trial shot."""
        return copy_state(self)

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": "doubles" if self.doubles else "singles",
            "players": list(self.players), "sets": self.sets,
            "play_all_sets": self.play_all_sets, "deciding_swap": self.deciding_swap,
            "first": self.first,
            "colours": list(self.colours), "set_number": self.set_number,
            "replays": self.replays, "seats": dict(self.seats), "start_side": self.start_side,
            "opener": self.opener, "shooter": self.shooter, "debt": dict(self.debt),
            "misses": dict(self.misses), "series": dict(self.series),
            "first_clear": dict(self.first_clear), "responder": self.responder,
            "pending": [dict(p) for p in self.pending], "skip": list(self.skip),
            "warnings": dict(self.warnings), "time_warned": list(self.time_warned),
            "sets_won": dict(self.sets_won),
            "history": [dict(h) for h in self.history], "match_over": self.match_over,
            "winner": self.winner,
        } | ({"history_from": self.history_from} if self.history_from > 1 else {})


CONFIG = ("players", "doubles", "sets", "play_all_sets", "deciding_swap", "first", "colours")
# the same settings as `to_dict` writes them (doubles as its mode)
CONFIG_KEYS = ("mode", "players", "sets", "play_all_sets", "deciding_swap", "first", "colours",
               "set_number")


# the state a set's set-up writes (`NovusGame._setup_set`)
SET_UP = ("start_side", "opener", "shooter", "debt", "misses", "series", "first_clear",
          "responder", "pending", "skip", "layout")


@functools.cache
def _defaults() -> dict[str, Any]:
    """Every field's default (made once: compared with, never handed out)."""
    return {f.name: f.default if f.default is not MISSING else f.default_factory()  # type: ignore[misc]
            for f in fields(NovusGame) if f.name not in CONFIG}


def _given(game: NovusGame, name: str) -> bool:
    """The field `name` is not at its default (given to the constructor)."""
    default, value = _defaults()[name], getattr(game, name)
    return type(value) is not type(default) or value != default


def check_given_state(game: NovusGame) -> None:
    """The state fields given to the constructor (those not at their defaults) are of their
    annotated types (TypeError naming the field): a `debt` of "x" was taken, to fail in the
    middle of a ruling. What they mean: `NovusGame._load_given`."""
    annotated = hints(NovusGame)
    for f in fields(NovusGame):  # set_number: checked with the sets, in __post_init__
        if f.name not in CONFIG and f.name != "set_number" and _given(game, f.name):
            require(getattr(game, f.name), annotated[f.name], f.name)


def given_state(game: NovusGame) -> bool:
    """A state field but set_number and layout was given to the constructor (it is not at its
    default before `__post_init__` fills the set up in)."""
    return any(_given(game, f.name) for f in fields(NovusGame)
               if f.name not in CONFIG and f.name not in ("set_number", "layout"))


def check_config(game: NovusGame) -> None:
    """The match's settings are of their annotated types (TypeError naming the field)."""
    annotated = hints(NovusGame)
    for name in CONFIG:
        require(getattr(game, name), annotated[name], name)
