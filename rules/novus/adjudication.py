"""The ruling of one novus shot: `ShotAdjudication`, used by `NovusGame.adjudicate`.

It applies the declared infractions (14, 15, 16.1, 17.1, 18.1, 19.1 / 19.3 warnings and 15.3,
17.4 forgotten penalties, 12 / 17.7 / 17.1.р / 18.1.в pieces off the table, 12 stacked pucks,
17.1.п late penalties), rules the shot's analysis (13, 16.1.а / 16.1.г, 17.1, 18.1, 21.3 / 21.4,
the misses of 20.6), places penalty pucks and debt (17.3-17.6, 21.6) and ends the shot, the set
(20.3-20.6, 21.1 / 21.2 / 21.7) or the match. `NovusOutcome` is what it returns; `art` labels an
article. The choices on ambiguous rules and the use of the Ruling fields are listed in the
docstring of `cuesim.rules.novus.game`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from cuesim.rules.novus.classify import ShotAnalysis, analyse_shot
from cuesim.rules.novus.infractions import (
    AFTER_TIME_WARNING,
    LATE_RESTORED,
    PLACING_TOUCH,
    SHOOTER_ONLY,
    lookup,
)
from cuesim.rules.novus.placement import (
    beside_spot,
    circle_spot,
    overlapping,
    place_penalty_pucks,
    put_back_spot,
    start_row,
)
from cuesim.rules.novus.shotlog import STRIKER, ShotRecord
from cuesim.rules.novus.terms import (
    CLOCKWISE,
    MOVE_TOL,
    hole_in_zone,
    is_dark_position,
    light_pucks,
    nearest_rail,
    opposite,
)
from cuesim.rules.ruling import Infraction, Ruling, Violation
from cuesim.rules.wording import count_of
from cuesim.tables.layout import Layout, Piece

if TYPE_CHECKING:
    from cuesim.rules.novus.game import NovusGame


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


class ShotAdjudication:
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
        self.after = after  # as the shot left it (12: a puck resting on another is seen here)
        self.layout = after.without([STRIKER], missing_ok=True)

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
        """Put a puck back where it was before the shot (17.1.з, 17.1.р, 21.3, 21.4); when a
        puck the shot moved now takes that place, as near to it as possible without moving the
        pucks there (17.3's principle; placement.put_back_spot)."""
        old = self.before.get(pid)
        spot = put_back_spot(self.layout, old)
        if spot is None:
            self.notes.append(f"{art(article)}: no free place on the board to put {pid} back")
            return
        if spot != (old.x, old.y):
            moved_by = math.hypot(spot[0] - old.x, spot[1] - old.y) * 1000
            self.notes.append(f"{art(article)}: the old place of {pid} is taken: it is put "
                              f"back {moved_by:.3g} mm from it, as near as it is free "
                              f"({art('17.3')})")
        self.spot(replace(old, x=spot[0], y=spot[1]), article)

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
        # who struck: the shooter, or one declared striking out of turn (16.1.ж/з)
        strikers = {self.shooter} | {i.player for i in self.infractions
                                     if i.code == "shot_out_of_turn" and i.player}
        for inf in self.infractions:
            if inf.code == "stacked_puck":
                stacked.append(inf)
                continue
            article, consequence, text = lookup(inf.code)
            who = inf.player or self.shooter
            g._index(who)
            if inf.code in ("touched_puck", "moved_pucks", PLACING_TOUCH):  # 17.1.о, д; 17.1.л
                for pid in inf.pieces:
                    if pid == STRIKER or pid not in self.before.ids():
                        raise ValueError(f"{inf.code} names {pid!r}, which is not a puck on "
                                         "the board (the layout before the shot)")
            if inf.code == "moved_pucks" and 0 < len(set(inf.pieces)) < 2:
                raise ValueError(f"moved_pucks ({art('16.1.д')}) is two or more pucks moved "
                                 f"without a shot, and names one ({inf.pieces[0]!r}): one puck "
                                 f"touched or moved by hand, cue or striker is 'touched_puck' "
                                 f"({art('17.1.о')})")
            if inf.code == PLACING_TOUCH and inf.pieces:
                text = f"{text} ({', '.join(inf.pieces)})"
            if consequence in ("disqualification", "loss_of_match"):
                return self.finish_match(g.team_of(who), article, text, kind=consequence)
            if consequence == "loss_of_turn" and g.team_of(who) != self.team:
                raise ValueError(f"infraction {inf.code!r} ({art(article)}) costs the turn of "
                                 f"the player who has it (18.1); {who} does not have the turn")
            if inf.code in SHOOTER_ONLY and who not in strikers:
                raise ValueError(f"infraction {inf.code!r} ({art(article)}) is committed by the "
                                 f"player who strikes, {self.shooter}; {who} did not strike: "
                                 "declare it for the shooter")
            if inf.code in AFTER_TIME_WARNING and not any(
                    g.team_of(p) == g.team_of(who) for p in g.time_warned):
                raise ValueError(f"infraction {inf.code!r} ({art(article)}) follows a warning "
                                 f"for delay ({art('19.3')}), and {who} has none: declare "
                                 "'time_warning' first")
            if inf.code == "absent_between_sets" and g.set_number == 1 and not g.history:
                raise ValueError(f"infraction 'absent_between_sets' ({art(article)}) happens in "
                                 "a break between sets, and no set has ended yet")
            if consequence == "warning":
                g.warnings[who] += 1
                if inf.code == "time_warning" and who not in g.time_warned:
                    g.time_warned.append(who)
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
                if g.debt[colour] == 0:
                    raise ValueError(f"infraction 'penalty_forgotten' ({art('17.4')}): {who} "
                                     f"({colour}) owes no penalty puck, so none can have been "
                                     "forgotten")
                self.notes.append(f"{art('17.4')}: the penalty puck debt of {who} "
                                  f"({g.debt[colour]}) is annulled")
                g.debt[colour] = 0
                continue
            if inf.code == "shot_out_of_turn":
                if who == self.shooter:  # 16.1.ж/з: the right to strike was another's
                    raise ValueError(f"infraction 'shot_out_of_turn' ({art(article)}) is a "
                                     f"stroke by a player who does not have the turn; {who} "
                                     "has it: name the player who struck out of turn")
                if "late" in inf.note and not g.doubles:
                    self.notes.append(f"{art('16.1.ж')}: noticed after the next shot: no "
                                      "violation, the set goes on")
                    continue
                article = "16.1.з" if g.doubles else "16.1.ж"
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
            # a puck declared over the rail left the board whatever the layout after the shot
            # shows (the core keeps every piece on it): 16.1.а counts it as out of its area
            gone = [pid for pid, _ in off_table]
            seen = self.record if not gone else replace(
                self.record, final=self.record.final.without(gone, missing_ok=True))
            analysis = analyse_shot(seen, self.side, self.colour)
            self.rule_shot(analysis, set(gone))
        self.rule_off_table(off_table, analysis)
        self.rule_stacked(stacked)
        penalised: set[str] = set()  # 17.2: one penalty puck per side for one shot
        for inf in late:
            self.rule_late(inf, penalised)
        return self.conclude(analysis)

    def rule_shot(self, a: ShotAnalysis, gone: set[str]) -> None:
        """The shot's own rulings (13, 16.1.а/г, 17.1, 18.1, 20); `gone`: the pucks declared
        over the rail, which lie nowhere on the board whatever the layout after it shows."""
        g = self.g
        kind = {"direct": "direct", "ricochet": "ricochet", "none": "no contact"}[a.kind]
        self.notes.append(f"{kind} shot, {'correct' if a.correct else 'punishable'} "
                          f"({art(a.correct_by or '13')})")
        if not a.correct:
            for article, text in a.punishable:
                self.add(article, text, "penalty_puck")
            if len(a.dark_knocked_out) >= 2:
                self.add("16.1.а", "a punishable shot knocked two or more own pucks out of the "
                         f"dark area ({', '.join(a.dark_knocked_out)})", "loss_of_set")
            if a.dark_first and len(a.moved) >= 2:
                self.add("16.1.г", "a punishable shot met an own dark puck first and then "
                         f"moved two or more pucks ({', '.join(a.moved)})", "loss_of_set")
            # all of them leave the board first, so none is kept from its old place by
            # another that is going back to its own
            self.layout = self.layout.without(a.dark_touched, missing_ok=True)
            for pid in a.dark_touched:
                self.restore(pid, "17.1.з")
            self.rule_opponent_into_dark(a, gone)
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

    def rule_opponent_into_dark(self, a: ShotAnalysis, gone: set[str]) -> None:
        """21.3 / 21.4 / 17.1.ф: opponent's pucks a punishable shot drove into their dark area
        (not those declared over the rail, `gone`: 17.1.р puts them back)."""
        g = self.g
        opp_sides = self.team_sides(self.opp_team)
        for p in self.before.pieces:
            if p.kind != "puck" or p.group != self.opp_colour or p.id not in self.layout.ids() \
                    or p.id in gone:
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
        about pucks. An own dark puck a punishable shot touched goes back where it was
        (17.1.з, as the opponent's go back by 17.1.р), not to the centre circle."""
        if not off:
            return
        punishable = a is not None and not a.correct
        pucks = False
        for pid, exit_side in off:
            piece = self.before.get(pid)
            if punishable and a is not None and pid in a.dark_touched:
                pucks = True  # 17.1.з put it back where it was (`rule_shot`): not to the circle
                continue
            self.layout = self.layout.without([pid], missing_ok=True)
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
        rail it overhangs toward when the two are concentric. Not a violation. Refused unless
        the two are different pieces that overlap in the layout the shot left."""
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
            shot_left = self.after.ids()
            if top.id == below.id or any(p not in shot_left for p in inf.pieces) \
                    or not overlapping(self.after.get(top.id), self.after.get(below.id)):
                k = next(k for k, i in enumerate(self.infractions) if i is inf)
                raise ValueError(f"infractions[{k}].pieces: infraction 'stacked_puck' names "
                                 f"{list(inf.pieces)}, but a puck "
                                 "rests on another, two different pieces that overlap on the "
                                 f"board after the shot ({art('12')}), and these do not")
            spot = beside_spot(self.layout, top, below, inf.note)
            if spot is None:
                self.notes.append(f"{art('12')}: no free place beside {below.id} for {top.id}")
                continue
            self.layout = self.layout.without([top.id])
            self.spot(replace(top, x=spot[0], y=spot[1]), "12")
            self.notes.append(f"{art('12')}: {top.id} rested on {below.id} and is put beside it")

    def rule_late(self, inf: Infraction, penalised: set[str]) -> None:
        """17.1.п: a penalty-puck violation by a player without the turn. A puck he moved is
        put back at once (where it was before the shot, unless the shot moved it too); his
        penalty puck comes when the opponent's series ends, and he misses his next turn. Several
        such violations in one shot cost one penalty puck and one turn (17.2)."""
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
        if inf.code in LATE_RESTORED:
            self.restore_late(inf)
        if team in penalised:
            self.notes.append(f"{art('17.2')}: one penalty puck for the violations of one shot "
                              f"({who})")
            return
        penalised.add(team)
        if team in g.first_clear or any(g.team_of(p) == team for p in g.first_clear):
            # 20.4 note: the interrupted series ends with this violation; penalty at once
            for p in list(g.first_clear):
                if g.team_of(p) == team:
                    del g.first_clear[p]
            g.responder = ""
            self.place_penalties(who, colour, 1, self.before)
            return
        g.pending.append({"player": who, "article": art("17.1.п")})

    def restore_late(self, inf: Infraction) -> None:
        """17.1.п: "the moved puck's position is restored at once". The pucks the offender
        touched go back where they were before the shot; one the shot moved as well (an event
        of its own in the log) has no place of its own to go back to and stays where the shot
        left it (noted)."""
        events = self.record.events if self.record is not None else []
        by_shot = {pid for e in events for pid in (e.a, e.b) if pid is not None}
        for pid in inf.pieces:
            if pid == STRIKER or pid not in self.before.ids():
                continue
            if pid in by_shot:
                self.notes.append(f"{art('17.1.п')}: {pid} was moved by the shot as well: it "
                                  "stays where the shot left it")
                continue
            old = self.before.get(pid)
            now = self.layout.get(pid) if pid in self.layout.ids() else None
            if now is not None and (now.x, now.y) == (old.x, old.y):
                continue
            self.layout = self.layout.without([pid], missing_ok=True)
            self.restore(pid, "17.1.п")

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
                              f"on the table: {count_of(want, 'penalty puck')} owed")
            return
        if g.doubles and not self._row_moved(g.side_of(player), colour):
            g.debt[colour] = want
            self.notes.append(f"{art('21.6')}: no puck moved on the side opposite {player}: "
                              f"{count_of(want, 'penalty puck')} owed")
            return
        start = shot_layout.get(STRIKER) if STRIKER in shot_layout.ids() else None
        self.layout, placed = place_penalty_pucks(
            self.layout, free_ids[:min(want, free)], side, colour,
            None if start is None else (start.x, start.y))
        for p in placed:
            self.spotted.append({"id": p.id, "x": p.x, "y": p.y, "article": art("17.3")})
        g.debt[colour] = want - len(placed)
        if g.debt[colour]:
            owed = count_of(g.debt[colour], "penalty puck")
            self.notes.append(f"{art('17.6')}: {owed} of {colour} could not be placed and stay "
                              "as debt")

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
        # a penalty puck the opponent owes (17.4 debt, or 17.1.п pending until this series
        # ends, 17.5) comes back onto the board: his last puck gone is not yet his last
        opp_owes = g.debt[self.opp_colour] or any(
            g.team_of(p["player"]) == self.opp_team for p in g.pending)
        # 20.5: own last puck together with the opponent's last
        if own_now and opp_now and not g.debt[self.colour] and not opp_owes \
                and not g.first_clear:
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
        if opp_left == 0 and not opp_owes and not g.first_clear:
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
            if who not in g.skip:  # two violations in one series: two pucks, one turn missed
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
        answers. One who owes a 17.1.п penalty puck (a violation during this series) takes it
        as the series ends and misses his next turn, which is the answer: he cannot clear in
        a first series, and the set is the opener's."""
        g = self.g
        responder = g.next_after(self.shooter)
        a_art = art("21.7" if g.doubles else "20.4")
        if any(p["player"] == responder for p in g.pending):
            return self.finish_set(self.team, a_art, [], note=(
                f"{responder} owes a penalty puck ({art('17.1.п')}): it is placed as the series "
                "ends and he misses his turn, the answer to the first-series clearance"))
        g.first_clear[self.shooter] = "violated" if self.turn_loss else "clean"
        g.responder = responder
        g.series[responder] += 1
        self.notes.append(f"{a_art}: all pucks pocketed in the first series: the series is "
                          f"interrupted and {responder} answers")
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
                     remaining: bool = False, kind: str = "loss_of_match") -> NovusOutcome:
        """The match lost by `loser`: the violation's consequence `kind` ('loss_of_match', or
        'disqualification' for an exclusion, 14.1-14.4), or with `remaining` the sets not yet
        played (15.3, 'loss_of_sets')."""
        g = self.g
        other = g.other_team(loser)
        consequence = "loss_of_sets" if remaining else kind
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
        result = (f"match won by {g.winner} ({art(article)})" if g.winner is not None
                  else f"the sets are equal: the match is drawn ({art(article)}, {art('23.1')})")
        sets = "sets: " + ", ".join(f"{t} {n}" for t, n in g.sets_won.items())
        ruling = Ruling(legal=self.shooter_legal(), violations=self.violations,
                        turn_passes=True, next_player="", frame_over=True, match_over=True,
                        winner=g.winner, notes=[*self.notes, result, sets])
        return NovusOutcome(ruling, self.layout, None, g.to_dict())
