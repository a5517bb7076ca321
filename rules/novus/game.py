"""The novus referee: the state of a game (match) and its sets, and the ruling after each shot.

`NovusGame` holds the players and their seats, the player to shoot, the layout, the debt of
penalty pucks, the first-series bookkeeping of 20.4 / 21.7, the misses of 20.6, the warnings
and the sets won. `adjudicate` takes one shot (a `ShotResult` from `cuesim.simulate` or a
hand-written `ShotRecord`) and the declared infractions, and returns a `NovusOutcome`: the
`Ruling`, the layout for the next shot and the shot's analysis; the game moves on to the next
shot (or set).

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
* 16.1.а counts own pucks that were dark before the shot and are not dark after it (moved out
  of the area or gone). 16.1.г counts every puck the shot moved, the dark one included: the
  striker touching only the dark puck is 17.1.з, anything more is 16.1.г.
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
  yet played (15.3), which ends the match.
* The next layout leaves the striker out: the next player places it in his own zone (12).

The Ruling fields are used as: `legal` = the shooter's side committed no violation (warnings
and the other side's violations, e.g. 17.1.п, are listed but ruled on their own articles);
`turn_passes`; `next_player`; `placement` = 'own_zone'; `spotted` = pucks the referee put on
the table (penalty pucks, pucks back from off the table, restored pucks) with the article;
`frame_over` = the set ended (or is replayed); `winner` = the match winner when the match is
over, else the set winner. Game state the Ruling has no field for (sets won, debt, replays) is
in `notes` and in the outcome's `state`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from cuesim.rules.novus.classify import ShotAnalysis, analyse_shot
from cuesim.rules.novus.infractions import lookup
from cuesim.rules.novus.placement import (
    beside_spot,
    circle_spot,
    place_penalty_pucks,
    start_row,
)
from cuesim.rules.novus.shotlog import STRIKER, ShotRecord
from cuesim.rules.novus.terms import (
    CLOCKWISE,
    MOVE_TOL,
    frame,
    hole_in_zone,
    is_dark_position,
    light_pucks,
    nearest_rail,
    opposite,
    to_table,
)
from cuesim.rules.ruling import Infraction, Ruling, Violation
from cuesim.shot import NovusShot, ShotError
from cuesim.sim.result import ShotResult
from cuesim.tables.layout import Layout, Piece
from cuesim.tables.novus import NovusTable

_TABLE = NovusTable()


def art(article: str) -> str:
    return article if article.startswith("novus ") else f"novus {article}"


@dataclass
class NovusOutcome:
    ruling: Ruling
    layout: Layout  # the layout for the next shot (the striker left out)
    analysis: ShotAnalysis | None = None
    state: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"ruling": self.ruling.to_dict(), "layout": self.layout.to_dict(),
                "analysis": None if self.analysis is None else self.analysis.to_dict(),
                "state": dict(self.state)}


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
    sets_won: dict[str, int] = field(default_factory=dict)  # team -> sets
    history: list[dict[str, Any]] = field(default_factory=list)
    match_over: bool = False
    winner: str | None = None
    layout: Layout | None = None

    def __post_init__(self) -> None:
        need = 4 if self.doubles else 2
        if len(self.players) != need or len(set(self.players)) != need:
            raise ValueError(f"novus {'doubles' if self.doubles else 'singles'} needs {need} "
                             f"distinct player names, got {self.players!r}")
        if self.sets < 1:
            raise ValueError(f"the number of sets must be at least 1, got {self.sets}")
        if self.first not in (0, 1):
            raise ValueError(f"'first' is the index (0 or 1) of the first striker, got "
                             f"{self.first!r}")
        if len(self.colours) != 2 or self.colours[0] == self.colours[1]:
            raise ValueError(f"two different colours are needed, got {self.colours!r}")
        for team in self.teams():
            self.sets_won.setdefault(team, 0)
        for p in self.players:
            self.warnings.setdefault(p, 0)
        if not self.seats:
            self._setup_set(None)

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
        """Novus 12: the striker's hole wholly inside the shooter's zone strip, the striker
        touching no puck. Returns the violation, or None when the placement is legal."""
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
        r = _TABLE.piece_spec("striker").radius
        for p in layout.pieces:
            if p.id != STRIKER and math.hypot(p.x - s.x, p.y - s.y) < r + \
                    _TABLE.piece_spec(p.kind).radius + 1e-6:  # touching within a micron
                return Violation(art("12"), f"the striker touches {p.id!r} where it is placed",
                                 "refused")
        return None

    def play(self, shot: NovusShot, table: NovusTable | None = None,
             infractions: list[Infraction] | None = None) -> NovusOutcome:
        """Simulate `shot` (from the shooter's side) on the current layout and adjudicate it.
        An illegal striker placement is refused (12) and nothing is simulated."""
        from cuesim.api import simulate

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
        if self.match_over:
            raise ValueError("the match is over: no more shots can be adjudicated")
        infractions = list(infractions or [])
        record = ShotRecord.from_result(shot) if isinstance(shot, ShotResult) else shot
        if record is not None:
            bad = self.check_placement(record.initial)
            if bad is not None:
                return self._refuse(bad)
        return _Adjudication(self, record, infractions).run()

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
        """15.3: the offender loses the current set and every set not yet played."""
        other = self.other_team(team)
        left = self.sets - self.set_number + 1
        self.sets_won[other] += left
        self.history.append({"set": self.set_number, "winner": other, "article": "15.3",
                             "replay": False, "sets": left})
        self.match_over = True
        self.winner = other

    # -- JSON ------------------------------------------------------------------------------------
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
            "warnings": dict(self.warnings), "sets_won": dict(self.sets_won),
            "history": [dict(h) for h in self.history], "match_over": self.match_over,
            "winner": self.winner,
        }


class _Adjudication:
    """One shot's ruling, step by step (keeps `NovusGame.adjudicate` readable)."""

    def __init__(self, game: NovusGame, record: ShotRecord | None,
                 infractions: list[Infraction]) -> None:
        self.g = game
        self.record = record
        self.infractions = infractions
        self.shooter = game.shooter
        self.side = game.side_of(self.shooter)
        self.colour = game.colour_of(self.shooter)
        self.team = game.team_of(self.shooter)
        self.opp_team = game.other_team(self.team)
        self.opp_colour = game.colour_of_team(self.opp_team)
        self.violations: list[Violation] = []
        # violations of the other side (17.1.п, 16.1, 15, 14 by the opponent): ruled on their
        # own articles, they do not make the shooter's shot illegal
        self.others: list[Violation] = []
        self.notes: list[str] = []
        self.spotted: list[dict[str, Any]] = []
        self.penalty = False
        self.turn_loss = False
        self.set_loss: str | None = None  # article
        before = record.initial if record is not None else game.layout
        after = record.final if record is not None else game.layout
        assert before is not None and after is not None
        self.before = before
        self.layout = after.without([STRIKER])

    # -- helpers -----------------------------------------------------------------------------
    def add(self, article: str, text: str, consequence: str) -> None:
        self.violations.append(Violation(art(article), text, consequence))
        if consequence == "penalty_puck":
            self.penalty = True
            self.turn_loss = True
        elif consequence == "loss_of_turn":
            self.turn_loss = True
        elif consequence == "loss_of_set" and self.set_loss is None:
            self.set_loss = art(article)

    def spot(self, piece: Piece, article: str) -> None:
        self.layout = self.layout.with_piece(piece)
        self.spotted.append({"id": piece.id, "x": piece.x, "y": piece.y,
                             "article": art(article)})

    def restore(self, pid: str, article: str) -> None:
        self.spot(self.before.get(pid), article)

    def count(self, colour: str, layout: Layout | None = None) -> int:
        lay = layout or self.layout
        return sum(1 for p in lay.pieces if p.kind == "puck" and p.group == colour)

    def team_sides(self, team: str) -> list[str]:
        return [s for s, p in self.g.seats.items() if self.g.team_of(p) == team]

    # -- the ruling ----------------------------------------------------------------------------
    def run(self) -> NovusOutcome:
        g = self.g
        analysis: ShotAnalysis | None = None
        off_table: list[tuple[str, str]] = []  # (piece, exit side)
        stacked: list[Infraction] = []  # novus 12: a puck resting on another
        late: list[Infraction] = []
        for inf in self.infractions:
            if inf.code == "stacked_puck":
                stacked.append(inf)
                continue
            article, consequence, text = lookup(inf.code)
            who = inf.player or self.shooter
            g._index(who)
            if consequence in ("disqualification", "loss_of_match"):
                return self.finish_match(g.team_of(who), article, text)
            if consequence == "loss_of_turn" and g.team_of(who) != self.team:
                raise ValueError(f"infraction {inf.code!r} ({art(article)}) costs the turn of "
                                 f"the player who has it (18.1); {who} does not have the turn")
            if consequence == "warning":
                g.warnings[who] += 1
                label = article
                if inf.code == "warning" and inf.note.strip().startswith("19.1."):
                    label = inf.note.strip().split()[0]
                self.add(label, f"{text} to {who} ({g.warnings[who]} of 3)", "warning")
                if g.warnings[who] >= 3:
                    return self.finish_match(g.team_of(who), "15.3",
                                             "third warning: the unplayed sets are lost",
                                             remaining=True)
                continue
            if inf.code == "puck_off_table":
                if not inf.pieces:
                    raise ValueError("infraction 'puck_off_table' must name the pieces")
                for pid in inf.pieces:
                    if pid not in self.before.ids():
                        raise ValueError(f"puck_off_table names {pid!r}, which is not in the "
                                         "layout before the shot")
                    exit_side = inf.note.strip() if inf.note.strip() in CLOCKWISE else None
                    if exit_side is None:
                        src = self.layout.get(pid) if pid in self.layout.ids() else \
                            self.before.get(pid)
                        exit_side = nearest_rail(src.x, src.y)
                    off_table.append((pid, exit_side))
                continue
            if inf.code == "penalty_forgotten":
                colour = g.colour_of(who)
                self.notes.append(f"{art('17.4')}: the penalty puck debt of {who} "
                                  f"({g.debt[colour]}) is annulled")
                g.debt[colour] = 0
                continue
            if inf.code == "shot_out_of_turn":
                if "late" in inf.note and not g.doubles:
                    self.notes.append(f"{art('16.1.ж')}: noticed after the next shot: no "
                                      "violation, the set goes on")
                    continue
                article = "16.1.з" if g.doubles else "16.1.ж"
            if inf.code == "touched_puck" and len(inf.pieces) >= 2:
                article, consequence, text = ("16.1.д", "loss_of_set",
                                              "moved two or more pucks without a shot")
            if consequence == "loss_of_set":
                if g.team_of(who) != self.team:
                    v = Violation(art(article), f"{text} ({who})", "loss_of_set")
                    self.others.append(v)
                    return self.finish_set(self.team, art(article), [v])
                self.add(article, f"{text} ({who})", "loss_of_set")
                continue
            if g.team_of(who) != self.team and consequence == "penalty_puck":
                late.append(inf)
                continue
            self.add(article, text, consequence)

        if self.record is not None:
            analysis = analyse_shot(self.record, self.side, self.colour)
            self.rule_shot(analysis)
        self.rule_off_table(off_table, analysis)
        self.rule_stacked(stacked)
        for inf in late:
            self.rule_late(inf)
        return self.conclude(analysis)

    def rule_shot(self, a: ShotAnalysis) -> None:
        g = self.g
        kind = {"direct": "direct", "ricochet": "ricochet", "none": "no contact"}[a.kind]
        self.notes.append(f"{kind} shot, {'correct' if a.correct else 'punishable'} "
                          f"({art('13.' + ('correct' if a.correct else 'punishable'))}"
                          f"{', ' + art(a.correct_by) if a.correct_by else ''})")
        if not a.correct:
            for article, text in a.punishable:
                self.add(article, text, "penalty_puck")
            if len(a.dark_knocked_out) >= 2:
                self.add("16.1.а", "a punishable shot knocked two or more own pucks out of the "
                         f"dark area ({', '.join(a.dark_knocked_out)})", "loss_of_set")
            if a.dark_first and len(a.moved) >= 2:
                self.add("16.1.г", "a punishable shot met an own dark puck first and then "
                         f"moved two or more pucks ({', '.join(a.moved)})", "loss_of_set")
            for pid in a.dark_touched:
                self.restore(pid, "17.1.з")
            self.rule_opponent_into_dark(a)
        if a.striker_pocketed:
            self.add("17.1.г", "the striker fell into a pocket", "penalty_puck")
        own = [p for p in a.own_pocketed if p not in self.layout.ids()]
        if own and a.opp_pocketed:
            self.add("18.1.б", "an opponent's puck was pocketed together with an own puck",
                     "loss_of_turn")
        if not a.dark_before and a.return_slide:
            self.add("18.1.д", "with no dark pucks the striker came back over the own zone "
                     "line", "loss_of_turn")
        if not own:
            self.notes.append(f"no own puck pocketed ({art('18.1.а')})")
            self.turn_loss = True
        # 20.6: both sides only dark pucks, misses counted per side
        opp_player = self.next_opponent()
        only_dark = not a.light_before and not light_pucks(
            self.before, self.opp_colour, g.side_of(opp_player)) and \
            self.count(self.opp_colour, self.before) > 0 and self.count(self.colour, self.before)
        if only_dark:
            g.misses[self.team] = 0 if a.touched_any_own else g.misses[self.team] + 1
        else:
            g.misses = {t: 0 for t in g.teams()}

    def rule_opponent_into_dark(self, a: ShotAnalysis) -> None:
        """21.3 / 21.4 / 17.1.ф: opponent's pucks a punishable shot drove into their dark area."""
        g = self.g
        opp_sides = self.team_sides(self.opp_team)
        for p in self.before.pieces:
            if p.kind != "puck" or p.group != self.opp_colour or p.id not in self.layout.ids():
                continue
            q = self.layout.get(p.id)
            if abs(q.x - p.x) <= MOVE_TOL and abs(q.y - p.y) <= MOVE_TOL:
                continue
            was = any(is_dark_position(s, p.x, p.y) for s in opp_sides)
            now_zone = any(hole_in_zone(s, q.x, q.y) for s in opp_sides)
            now = any(is_dark_position(s, q.x, q.y) for s in opp_sides)
            if was or not now:
                continue
            if g.doubles and now_zone:
                if a.kind == "direct":
                    self.add("17.1.ф", f"a direct punishable shot drove the opponent's puck "
                             f"{p.id} into his rear zone: it stays there", "penalty_puck")
            else:
                self.restore(p.id, "21.4" if g.doubles else "21.3")
                self.notes.append(f"{p.id}, driven into the opponent's dark area by a "
                                  "punishable shot, is put back")

    def rule_off_table(self, off: list[tuple[str, str]], a: ShotAnalysis | None) -> None:
        """Pieces over the rail: a puck (12, 17.7, 17.1.р) costs the turn by 18.1.в; the
        striker (17.1.д) a penalty puck, and with it the turn (18.1.г), not 18.1.в, which is
        about pucks."""
        if not off:
            return
        punishable = a is not None and not a.correct
        pucks = False
        for pid, exit_side in off:
            piece = self.before.get(pid)
            self.layout = self.layout.without([pid])
            if piece.kind == "striker":
                if art("17.1.д") not in (v.article for v in self.violations):
                    self.add("17.1.д", "the striker went over the rail", "penalty_puck")
                continue
            pucks = True
            if piece.group != self.colour and punishable:
                self.add("17.1.р", f"a punishable shot drove the opponent's puck {pid} off "
                         "the table: it is put back", "penalty_puck")
                self.restore(pid, "17.1.р")
                continue
            spot = circle_spot(self.layout, exit_side)
            if spot is None:
                self.notes.append(f"no free place in the centre circle for {pid}")
                continue
            self.spot(replace(piece, x=spot[0], y=spot[1]), "17.7")
        if pucks:
            self.add("18.1.в", "a puck went over the rail", "loss_of_turn")

    def rule_stacked(self, stacked: list[Infraction]) -> None:
        """Novus 12: a puck that came to rest on another is put beside it on the side it
        overhangs. Declared as 'stacked_puck' with pieces (upper, lower); its note may name the
        rail it overhangs toward when the two are concentric. Not a violation."""
        for inf in stacked:
            if len(inf.pieces) != 2:
                raise ValueError("infraction 'stacked_puck' must name two pieces: the upper "
                                 "puck and the one it rests on")
            ids = self.layout.ids()
            for pid in inf.pieces:
                if pid not in ids:
                    raise ValueError(f"stacked_puck names {pid!r}, which is not on the board "
                                     "after the shot")
            top, below = (self.layout.get(pid) for pid in inf.pieces)
            spot = beside_spot(self.layout, top, below, inf.note)
            if spot is None:
                self.notes.append(f"{art('12')}: no free place beside {below.id} for {top.id}")
                continue
            self.layout = self.layout.without([top.id])
            self.spot(replace(top, x=spot[0], y=spot[1]), "12")
            self.notes.append(f"{art('12')}: {top.id} rested on {below.id} and is put beside it")

    def rule_late(self, inf: Infraction) -> None:
        """17.1.п: a penalty-puck violation by a player without the turn."""
        g = self.g
        article, _, text = lookup(inf.code)
        who = inf.player
        team = g.team_of(who)
        colour = g.colour_of(who)
        if g.doubles:  # 21.5: the offending pair's player who has or next gets the turn
            who = g.next_after(self.shooter)
        v = Violation(art("17.1.п"), f"{text} ({art(article)}) while the opponent had the "
                      f"turn: {who} is penalised", "penalty_puck")
        self.violations.append(v)
        self.others.append(v)
        if team in g.first_clear or any(g.team_of(p) == team for p in g.first_clear):
            # 20.4 note: the interrupted series ends with this violation; penalty at once
            for p in list(g.first_clear):
                if g.team_of(p) == team:
                    del g.first_clear[p]
            g.responder = ""
            self.place_penalties(who, colour, 1, self.before)
            return
        g.pending.append({"player": who, "article": art("17.1.п")})

    # -- penalties -----------------------------------------------------------------------------
    def place_penalties(self, player: str, colour: str, new: int, shot_layout: Layout) -> None:
        """17.3-17.6 (21.6 in doubles): place `new` penalty pucks plus the debt of `colour`."""
        g = self.g
        want = new + g.debt[colour]
        if want == 0:
            return
        side = opposite(g.side_of(player))
        on = {p.id for p in self.layout.pieces}
        free_ids = [f"{colour}{k}" for k in range(1, g.pucks_per_team() + 1)
                    if f"{colour}{k}" not in on]
        free = g.pucks_per_team() - self.count(colour)
        if free <= 0:
            g.debt[colour] = want
            self.notes.append(f"{art('17.4')}: all {g.pucks_per_team()} pucks of {colour} are "
                              f"on the table: {want} penalty puck(s) owed")
            return
        if g.doubles and not self._row_moved(g.side_of(player), colour):
            g.debt[colour] = want
            self.notes.append(f"{art('21.6')}: no puck moved on the side opposite {player}: "
                              f"{want} penalty puck(s) owed")
            return
        start = shot_layout.get(STRIKER) if STRIKER in shot_layout.ids() else None
        self.layout, placed = place_penalty_pucks(
            self.layout, free_ids[:min(want, free)], side, colour,
            None if start is None else (start.x, start.y))
        for p in placed:
            self.spotted.append({"id": p.id, "x": p.x, "y": p.y, "article": art("17.3")})
        g.debt[colour] = want - len(placed)
        if g.debt[colour]:
            self.notes.append(f"{art('17.6')}: {g.debt[colour]} penalty puck(s) of {colour} "
                              "could not be placed and stay as debt")

    def _row_moved(self, side: str, colour: str) -> bool:
        """21.6: has any puck of the start row at the rail opposite `side` left its place?"""
        pucks = [p for p in self.layout.pieces if p.kind == "puck" and p.group == colour]
        for spot in start_row(side, colour, 1):
            if not any(math.hypot(p.x - spot.x, p.y - spot.y) <= 1e-3 for p in pucks):
                return True
        return False

    def next_opponent(self) -> str:
        return self.g.next_after(self.shooter)

    # -- the end of the shot -------------------------------------------------------------------
    def conclude(self, a: ShotAnalysis | None) -> NovusOutcome:
        g = self.g
        if self.set_loss is not None:
            return self.finish_set(self.opp_team, self.set_loss, [])
        own_left = self.count(self.colour)
        opp_left = self.count(self.opp_colour)
        own_now = a is not None and bool(a.own_pocketed) and own_left == 0
        opp_now = a is not None and bool(a.opp_pocketed) and opp_left == 0
        # 20.5: own last puck together with the opponent's last
        if (own_now and opp_now and not g.debt[self.colour] and not g.debt[self.opp_colour]
                and not g.first_clear):
            if self.penalty:
                return self.finish_set(self.opp_team, art("20.5"), [Violation(
                    art("20.5"), "last pucks of both pocketed with a penalty: the set is lost",
                    "loss_of_set")])
            return self.finish_set(None, art("20.5"), [], replay="same",
                                   note="both last pucks pocketed with a correct shot: the set "
                                        "is annulled and played again")
        if g.responder and self.shooter == g.responder:
            return self.conclude_response(own_left)
        if own_left == 0 and not self.penalty and not g.debt[self.colour]:
            if self.shooter == g.opener and g.series[self.shooter] == 1 and not g.first_clear:
                return self.interrupt_first_series()
            return self.finish_set(self.team, art("20.3") if not g.doubles else art("21.2"), [])
        if opp_left == 0 and not g.debt[self.opp_colour] and not g.first_clear:
            return self.finish_set(self.opp_team, art("20.3"), [], note="the opponent's last "
                                   "puck left the table: his set")
        # 20.6
        if all(m >= 3 for m in g.misses.values()):
            return self.finish_set(None, art("20.6"), [], replay="same",
                                   note="both sides had only dark pucks and missed three times: "
                                        "the set is played again")
        keep = not self.turn_loss
        if self.penalty or (keep is False and g.debt[self.colour]):
            self.place_penalties(self.shooter, self.colour, 1 if self.penalty else 0,
                                 self.before)
        elif own_left == 0 and g.debt[self.colour]:
            self.place_penalties(self.shooter, self.colour, 0, self.before)  # 17.5
            self.notes.append(f"{art('17.5')}: all pucks pocketed in the series: the debt is "
                              "placed at once")
        if opp_left == 0 and g.debt[self.opp_colour]:
            self.place_penalties(self.next_opponent(), self.opp_colour, 0, self.before)
        next_player = self.shooter if keep else self.pass_turn()
        return self.outcome(a, next_player, not keep)

    def pass_turn(self) -> str:
        """The next player: clockwise, skipping players who lose their turn by 17.1.п."""
        g = self.g
        for pend in g.pending:
            who = pend["player"]
            self.place_penalties(who, g.colour_of(who), 1, self.before)
            self.notes.append(f"{art('17.1.п')}: the penalty puck of {who} is placed now and he "
                              "misses his turn")
            g.skip.append(who)
        g.pending = []
        nxt = g.next_after(self.shooter)
        for _ in range(4):
            if nxt in g.skip:
                g.skip.remove(nxt)
                nxt = g.next_after(nxt)
            else:
                break
        g.series[nxt] += 1
        return nxt

    def interrupt_first_series(self) -> NovusOutcome:
        """20.4 / 21.7: the opener cleared in his first series; only the next opponent
        answers."""
        g = self.g
        g.first_clear[self.shooter] = "violated" if self.turn_loss else "clean"
        responder = g.next_after(self.shooter)
        g.responder = responder
        g.series[responder] += 1
        self.notes.append(f"{art('21.7' if g.doubles else '20.4')}: all pucks pocketed in the "
                          f"first series: the series is interrupted and {responder} answers")
        return self.outcome(None, responder, True)

    def conclude_response(self, own_left: int) -> NovusOutcome:
        """The answer to a first-series clearance (20.4, 21.7, 21.1)."""
        g = self.g
        opener = next(iter(g.first_clear))
        a_art = art("21.7" if g.doubles else "20.4")
        if own_left == 0 and not self.penalty and not g.debt[self.colour]:
            o_bad = g.first_clear[opener] == "violated"
            r_bad = self.turn_loss
            if o_bad != r_bad:
                loser = g.team_of(opener) if o_bad else self.team
                return self.finish_set(g.other_team(loser), a_art, [Violation(
                    a_art, "both cleared in the first series; the last stroke of "
                    f"{opener if o_bad else self.shooter} lost the turn: that set is lost",
                    "loss_of_set")])
            if g.doubles:  # 21.1: seats stay, first strike to the last to clear
                return self.finish_set(None, art("21.1"), [], replay="same",
                                       start_side=self.side,
                                       note="both pairs cleared in the first series: the set is "
                                            f"replayed, {self.shooter} strikes first")
            return self.finish_set(None, a_art, [], replay="swap",
                                   note="both cleared in the first series: the set is replayed "
                                        "with sides and the first strike changed")
        if self.turn_loss:
            return self.finish_set(g.team_of(opener), a_art, [], note=f"{self.shooter} did not "
                                   "clear in his first series")
        return self.outcome(None, self.shooter, False)

    # -- results -------------------------------------------------------------------------------
    def shooter_legal(self) -> bool:
        """The shooter (his side) committed no violation: warnings and the other side's
        violations (ruled on their own articles) do not count."""
        return not any(v.consequence != "warning" and all(v is not o for o in self.others)
                       for v in self.violations)

    def outcome(self, a: ShotAnalysis | None, next_player: str, passes: bool) -> NovusOutcome:
        g = self.g
        g.shooter = next_player
        g.layout = self.layout
        ruling = Ruling(
            legal=self.shooter_legal(),
            violations=self.violations, turn_passes=passes, next_player=next_player,
            placement="own_zone", spotted=self.spotted, notes=self.notes)
        if any(d for d in g.debt.values()):
            ruling.notes.append("debt: " + ", ".join(f"{c} {n}" for c, n in g.debt.items() if n))
        return NovusOutcome(ruling, self.layout, a, g.to_dict())

    def finish_set(self, winner: str | None, article: str, extra: list[Violation],
                   replay: str | None = None, start_side: str | None = None,
                   note: str = "") -> NovusOutcome:
        g = self.g
        self.violations += extra
        if note:
            self.notes.append(f"{note} ({article})")
        if winner is not None:
            self.notes.append(f"set {g.set_number} won by {winner} ({article})")
        g._end_set(winner, article, replay, start_side)
        self.notes.append("sets: " + ", ".join(f"{t} {n}" for t, n in g.sets_won.items()))
        ruling = Ruling(
            legal=self.shooter_legal(),
            violations=self.violations, turn_passes=True,
            next_player="" if g.match_over else g.shooter,
            placement=None if g.match_over else "own_zone", spotted=self.spotted,
            frame_over=True, match_over=g.match_over,
            winner=g.winner if g.match_over else winner, notes=self.notes)
        assert g.layout is not None
        return NovusOutcome(ruling, g.layout, None, g.to_dict())

    def finish_match(self, loser: str, article: str, text: str,
                     remaining: bool = False) -> NovusOutcome:
        g = self.g
        other = g.other_team(loser)
        consequence = "loss_of_sets" if remaining else "loss_of_match"
        v = Violation(art(article), text, consequence)
        self.violations.append(v)
        if loser != self.team:
            self.others.append(v)
        if remaining:
            g._lose_remaining(loser)
        else:
            g.match_over, g.winner = True, other
            g.history.append({"set": g.set_number, "winner": other, "article": article,
                              "replay": False, "match": True})
        ruling = Ruling(legal=self.shooter_legal(), violations=self.violations,
                        turn_passes=True, next_player="", frame_over=True, match_over=True,
                        winner=other,
                        notes=self.notes + [f"match won by {other} ({art(article)})"])
        return NovusOutcome(ruling, self.layout, None, g.to_dict())

