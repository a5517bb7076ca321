"""14.1 continuous, WPA section 6: a point per legally pocketed ball on a called shot (6.1, 6.5,
6.7.1), the opening break and its -2 breaking violation with the opponent's options (6.6), the
re-rack of 14 with the 15th ball and the cue ball moved by the table of 6.7.3 / 6.7.6,
safeties (6.7.4), the 16-point deliberate interference (6.7.5), the ball-in-kitchen request
(6.7.7), spotting (6.8, 6.9), the cue ball scratch (6.10), the one-point foul (6.11), three
consecutive fouls (-18 in all, 6.12), negative scores (6.13), the game to `points_to`."""

from __future__ import annotations

import zlib
from collections.abc import Collection
from typing import Any

from cuesim.rules.api_checks import require
from cuesim.rules.pool.base import PoolGame, effect
from cuesim.rules.pool.checks import check_pool_layout
from cuesim.rules.pool.facts import ShotFacts
from cuesim.rules.pool.general import (
    FOUL,
    ball_group,
    first_hit_violation,
    frozen_violation,
    rail_violation,
    spot_into,
)
from cuesim.rules.pool.model import CUE, Outcome, PoolShot, PoolState
from cuesim.rules.ruling import Infraction, Ruling, Violation
from cuesim.rules.wording import named
from cuesim.tables.layout import Layout, Piece
from cuesim.tables.pool_spots import (
    BALL_DIAMETER,
    FROZEN_TOLERANCE,
    NINE_FOOT,
    PoolMarks,
    marks_of,
    near_spot,
)
from cuesim.tables.racks import straight_pool_order

BREAKING_VIOLATION = 2  # 6.6
FOUL_POINTS = 1  # 6.11
DELIBERATE_POINTS = 16  # 6.7.5: 1 + 15
THIRD_FOUL_EXTRA = 15  # 6.12: the third foul costs 1 + 15


def rerack_positions(ball_ids: list[str], with_apex: bool, seed: int | None = None,
                     marks: PoolMarks = NINE_FOOT) -> list[tuple[str, float, float]]:
    """A 14.1 rack (6.4): the triangle with its apex on the foot spot of the table `marks`
    describe (the 9-ft table by default; `marks_for(layout.table)`), the 1 in the racker's
    right back corner, the 5 in his left, the others at random (a generator seeded with `seed`,
    so a ruling is reproducible; without a seed in a fixed order). `with_apex=False` is the
    re-rack of 6.7.3: 14 balls "as before", the apex place left empty."""
    places = marks.triangle_positions(5)
    order = straight_pool_order(ball_ids, apex=with_apex, rng=seed)
    return [(b, *places[k + (0 if with_apex else 1)]) for k, b in enumerate(order)]


def rack_seed(st: PoolState) -> int:
    """A seed for the free places of a re-rack (6.4 "at random") drawn from the game's state,
    so the same game ruled twice racks the same way."""
    scores = ",".join(f"{p}={st.scores.get(p, 0)}" for p in st.players)
    return zlib.crc32(f"14.1 rack {st.frame} {st.inning} {scores}".encode())


class StraightPool(PoolGame):
    name = "straight_pool"
    rack_name = "straight_pool"
    break_article = "WPA 6.6"

    def _non_shooter_penalty(self, st: PoolState, offender: str, ruling: Ruling,
                             infractions: list[Infraction]) -> None:
        """3.41 in 14.1: a one-point foul (6.11) charged to the offender; the shooter goes on
        with the balls where they are. 6.7.5 (a ball on its way to a pocket or the rack area
        interfered with, by either player): 16 points, and the player at the table chooses
        to take the position with the cue ball in hand behind the head string or to have the
        15 balls racked for the offender to break."""
        if any(i.code == "deliberate_interference" for i in infractions):
            self._penalize(st, offender, DELIBERATE_POINTS, ruling)
            ruling.notes.append("Deliberate interference: 16 points (WPA 6.7.5)")
            st.ball_in_hand = None
            self._offer(st, ruling, st.shooter, "WPA 6.7.5", {
                "accept": effect(st.shooter, "kitchen"),
                "rerack": effect(offender, rerack=True),
            })
            return
        st.scores[offender] = st.scores.get(offender, 0) - FOUL_POINTS
        ruling.points = {offender: -FOUL_POINTS}

    # -- 6.7.7 ---------------------------------------------------------------------------
    def request_kitchen_spot(self, layout: Layout, ball: str | None = None) -> Outcome:
        """6.7.7: with cue ball in hand behind the head string and every object ball in the
        kitchen, the shooter may have the ball nearest the head string spotted on the foot
        spot (he picks among equally near balls with `ball`). Only where a shot may be played
        (after the opening break, the match on, no choice pending: as `play`), on a layout of
        14.1's balls legal on its table (`check_request`); a ValueError names what is not."""
        require(layout, Layout, "layout")
        require(ball, str | None, "ball")
        st = self.state.copy()
        if st.phase == "match_over":
            raise ValueError(f"the match is over (won by {st.winner}); no more shots or "
                             "requests")
        if st.pending is not None:
            raise ValueError(f"{st.pending['player']} must choose first "
                             f"({st.pending['article']}): a choice (declaration.choice one of "
                             f"{sorted(st.pending['options'])}) comes before the 6.7.7 request")
        if st.phase == "break":
            raise ValueError("state.phase is 'break': the next shot is the opening break, from "
                             "a full rack (WPA 6.4, 3.8); the 6.7.7 request comes in play, "
                             "after it")
        check_request(layout, ball, self.ball_ids)
        if st.ball_in_hand != "kitchen":
            raise ValueError("6.7.7 applies only with cue ball in hand behind the head string")
        balls = [p for p in layout.pieces if p.id != CUE]
        head_y = marks_of(layout).head_string_y  # this table's head string (3.16)
        if not balls or not all(p.y < head_y for p in balls):
            raise ValueError("6.7.7 applies only when every object ball is behind the head "
                             "string")
        best = max(p.y for p in balls)
        nearest = sorted(p.id for p in balls if head_y - p.y <= head_y - best + 1e-9)
        if ball is None:
            if len(nearest) > 1:
                raise ValueError(f"balls {nearest} are equally near the head string: name the "
                                 "one to spot")
            ball = nearest[0]
        elif ball not in nearest:
            raise ValueError(f"ball {ball!r} is not the nearest to the head string ({nearest})")
        new, spotted = spot_into(layout.without([ball, CUE], missing_ok=True), [ball],
                                   "WPA 6.7.7")
        ruling = Ruling(legal=True, next_player=st.shooter, placement="kitchen",
                        spotted=spotted)
        ruling.notes.append(f"Ball {ball} spotted on request (WPA 6.7.7)")
        return Outcome(ruling, st, layout=new, spotted=spotted)

    # -- the rules ------------------------------------------------------------------------
    def _foul(self, st: PoolState, shooter: str, shot: PoolShot, facts: ShotFacts,
              ruling: Ruling) -> Outcome:
        """6.11: one point, the incoming player takes the cue ball where it lies (in hand
        behind the head string after a scratch, 6.10, or when it lies nowhere, or still in
        hand: a foul between shots while it was in hand, even placed, 3.10); 6.12: the third
        consecutive foul costs 15 more and the opponent may have the balls re-racked; 6.13:
        balls pocketed on a foul are spotted; 3.9: after interference with the cue ball on the
        break the opponent shoots from the kitchen or has the offender do so."""
        other = st.opponent(shooter)
        ruling.legal = False
        n = self._count_foul(st, shooter, ruling, "WPA 6.12")
        lies = shot.final if shot.final is not None else shot.initial
        # the cue ball lies nowhere: off the layout, or (no layout) still in hand; or it is in
        # hand and no stroke drove it across the head string, wherever it was put (3.10)
        nowhere = CUE not in lies.ids() if lies is not None else st.ball_in_hand is not None
        nowhere = nowhere or (st.ball_in_hand is not None and not facts.stroke)
        st.ball_in_hand = "kitchen" if facts.scratch or nowhere else None  # 6.10, 6.11
        if n >= 3:
            self._penalize(st, shooter, FOUL_POINTS + THIRD_FOUL_EXTRA, ruling)
            ruling.violations.append(Violation("WPA 6.12", "third consecutive foul: 1 + 15 "
                                               "points", FOUL))
            self._clear_fouls(st, shooter)
            self._offer(st, ruling, other, "WPA 6.12", {
                "accept": effect(other, st.ball_in_hand),
                "rerack": effect(shooter, rerack=True),
            })
            st.ball_in_hand = None
        else:
            self._penalize(st, shooter, FOUL_POINTS, ruling)
            st.shooter = other
            if any(i.code == "break_cue_interference" for i in shot.infractions):
                # 3.9: the opponent shoots from the kitchen or hands that to the offender
                st.ball_in_hand = None
                self._offer(st, ruling, other, "WPA 3.9", {
                    "shoot_kitchen": effect(other, "kitchen"),
                    "pass_kitchen": effect(shooter, "kitchen"),
                })
        if facts.object_pocketed:
            ruling.notes.append("Balls pocketed on a foul are spotted (WPA 6.13)")
        return self._outcome(st, shooter, shot, facts, ruling,
                             spot=list(facts.object_pocketed) + facts.objects_off_table,
                             article="WPA 6.13")

    def _next_layout(self, st: PoolState, shot: PoolShot, facts: ShotFacts,
                     spot: list[str], article: str) -> tuple[Layout | None, list[dict]]:
        """As every game's, with the object balls that left the table spotted by 6.9 (the
        pocketed ones by the article the ruling gives: 6.13 after a foul, 6.8, 6.7.4)."""
        layout, records = super()._next_layout(st, shot, facts, spot, article)
        off = set(facts.objects_off_table)
        for record in records:
            if record["id"] in off:
                record["article"] = "WPA 6.9"
        return layout, records

    def _foul_before_break(self, st: PoolState, shooter: str, ruling: Ruling) -> None:
        """6.11: every foul costs a point, this one too."""
        self._penalize(st, shooter, FOUL_POINTS, ruling)

    def _rule(self, st: PoolState, shot: PoolShot, facts: ShotFacts) -> Outcome:
        shooter, other = st.shooter, st.opponent()
        decl = shot.declaration
        ruling, ended = self._open_ruling(st, shot, facts)
        if ended is not None:
            return ended
        breaking = st.phase == "break"
        previous: list[Any] | None = None
        st.phase = "play"
        called = decl.called_ball
        called_made = (called is not None and not decl.safety
                       and decl.called_pocket is not None
                       and facts.pocket_of(called) == decl.called_pocket)
        deliberate = any(i.code == "deliberate_interference" for i in shot.infractions)
        if facts.objects_off_table:
            ruling.violations.append(Violation(
                "WPA 6.9", f"{named('object ball', facts.objects_off_table)} off the table: foul; "
                "spotted", FOUL))
        break_ok = True
        if breaking:
            driven = facts.balls_to_rail()
            cue_rail = CUE in facts.rail_after_contact()
            break_ok = bool(facts.first_hits) and (called_made or (cue_rail and len(driven) >= 2))
        else:
            ruling.violations += first_hit_violation(facts, set(self.ball_ids) - {CUE},
                                                     "WPA 6.7.2", "an object ball")
            frozen = dict(decl.frozen)
            near = near_rail_ball(facts, shot.initial)
            previous = st.near_rail_safeties.pop(shooter, None)
            if near is not None and near[0] not in frozen and previous is not None \
                    and previous[0] == near[0] and previous[1] >= 2:
                frozen[near[0]] = near[1]
                ruling.notes.append(f"WPA 6.7.2: ball {near[0]} lies within a ball's width of "
                                    f"a cushion and {shooter} played two safeties on it: it "
                                    "counts as frozen (WPA 3.38)")
            fz = frozen_violation(facts, frozen, shot.initial)
            ruling.violations += fz if fz is not None else rail_violation(facts, "WPA 6.7.2")
        spot_all = list(facts.object_pocketed) + facts.objects_off_table

        if deliberate:
            ruling.legal = False
            self._penalize(st, shooter, DELIBERATE_POINTS, ruling)
            ruling.notes.append("Deliberate interference: 16 points (WPA 6.7.5)")
            st.ball_in_hand = None
            self._offer(st, ruling, other, "WPA 6.7.5", {
                "accept": effect(other, "kitchen"),
                "rerack": effect(shooter, rerack=True),
            })
            return self._outcome(st, shooter, shot, facts, ruling, spot=spot_all,
                                 article="WPA 6.8")
        if not break_ok:
            ruling.legal = False
            ruling.violations.append(Violation(
                "WPA 6.6", "breaking violation: no called ball made, and not the cue ball to a "
                "cushion after the contact plus two object balls to a cushion", FOUL))
            self._penalize(st, shooter, BREAKING_VIOLATION, ruling)
            ruling.notes.append("Breaking violations do not count as consecutive fouls "
                                "(WPA 6.6)")
            st.ball_in_hand = None
            self._offer(st, ruling, other, "WPA 6.6", {
                "accept": effect(other, "kitchen" if facts.scratch else None),
                "rerack": effect(shooter, rerack=True),
            })
            return self._outcome(st, shooter, shot, facts, ruling, spot=spot_all,
                                 article="WPA 6.8")
        if ruling.violations:
            return self._foul(st, shooter, shot, facts, ruling)
        self._clear_fouls(st, shooter)
        st.ball_in_hand = None
        if decl.safety:
            ruling.notes.append("Safety: the inning ends; pocketed balls are spotted "
                                "(WPA 6.7.4)")
            near = near_rail_ball(facts, shot.initial)
            if near is not None and near[0] not in decl.frozen:  # 6.7.2: count it
                same = previous is not None and previous[0] == near[0]
                st.near_rail_safeties[shooter] = [near[0], previous[1] + 1 if same else 1]
            st.shooter = other
            return self._outcome(st, shooter, shot, facts, ruling, spot=spot_all,
                                 article="WPA 6.7.4")
        if not called_made:
            if facts.object_pocketed:
                ruling.notes.append("No called ball made: pocketed balls are spotted, no "
                                    "penalty (WPA 6.8)")
            st.shooter = other
            return self._outcome(st, shooter, shot, facts, ruling, spot=spot_all,
                                 article="WPA 6.8")
        n = len(facts.object_pocketed)
        st.scores[shooter] = st.scores.get(shooter, 0) + n
        ruling.points = {shooter: n}
        if n:
            ruling.notes.append(f"{n} ball{'s' if n != 1 else ''} pocketed on a legal shot, a "
                                "point each (WPA 6.5, 6.7.1)")
        if st.scores[shooter] >= st.points_to:
            ruling.notes.append(f"{shooter} reaches {st.points_to} points (WPA 6.1)")
            self._end_frame(st, shooter, ruling)
            return self._outcome(st, shooter, shot, facts, ruling)
        out = self._outcome(st, shooter, shot, facts, ruling)
        return self._maybe_rerack(out, facts)

    def _end_frame(self, st: PoolState, winner: str, ruling: Ruling) -> None:
        """The game is won at `points_to` (6.1): counted toward the match's `race_to` games
        (3.36); a next game starts from 0 points with a new rack and the breaks by 3.36 (its
        points stay in the rulings)."""
        super()._end_frame(st, winner, ruling)
        if st.phase != "match_over":
            st.scores = {p: 0 for p in st.players}
            st.near_rail_safeties = {}

    def _penalize(self, st: PoolState, player: str, points: int, ruling: Ruling) -> None:
        st.scores[player] = st.scores.get(player, 0) - points  # 6.13: may go negative
        ruling.points = {player: -points}

    # -- 6.7.3 / 6.7.6 -------------------------------------------------------------------
    def _maybe_rerack(self, out: Outcome, facts: ShotFacts) -> Outcome:
        """6.7.3: when the 14th ball of a rack is pocketed, the 14 pocketed balls are racked
        with the apex place empty (in the 6.4 order) and the 15th ball stays where it is,
        unless the table of 6.7.3 (applied by 6.7.6) moves it or the cue ball: a 15th ball in
        the rack area goes to the foot spot (cue ball in the rack area too: the cue ball in
        hand in the kitchen), else to the head spot, or to the centre spot when the cue ball
        is on the head spot; a 15th ball pocketed with the 14th goes to the foot spot. The
        15th ball pocketed with the 14th is the last one to drop."""
        layout = out.layout
        if layout is None:
            return out
        left = [p for p in layout.pieces if p.id != CUE]
        if len(left) > 1:
            return out
        st, ruling = out.state, out.ruling
        if left:
            fifteenth, where = left[0].id, (left[0].x, left[0].y)
        elif facts.object_pocketed:
            fifteenth, where = facts.object_pocketed[-1], None
        else:  # nothing on the table and nothing pocketed: a whole new rack
            fifteenth, where = None, None
        marks = marks_of(layout)  # the spots and the rack area of this table (3.16, 6.4)
        foot_spot, head_spot, center_spot = marks.foot_spot, marks.head_spot, marks.center_spot
        cue = layout.get(CUE) if CUE in layout.ids() else None
        cue_in_rack = cue is not None and marks.in_rack_area(cue.x, cue.y)
        cue_on_head = cue is not None and near_spot(cue.x, cue.y, head_spot)
        move_15: tuple[float, float] | None = None
        move_cue: tuple[float, float] | str | None = None
        article = "WPA 6.7.6"
        if fifteenth is None:
            if cue_in_rack:
                move_cue = "kitchen"
        elif where is None:  # 6.7.3 table, row "in a pocket"
            move_15, article = foot_spot, "WPA 6.7.3"
            if cue_in_rack:
                move_cue = "kitchen"
        elif marks.in_rack_area(*where):
            if cue_in_rack:
                move_15, move_cue = foot_spot, "kitchen"
            elif cue_on_head:
                move_15 = center_spot
            else:
                move_15 = head_spot
        elif cue_in_rack:
            if near_spot(*where, head_spot):
                move_cue = center_spot
            elif marks.in_kitchen(where[1]):
                move_cue = head_spot
            else:
                move_cue = "kitchen"
        racked = [b for b in self.ball_ids if b not in (CUE, fifteenth)]
        new = layout.without(racked, missing_ok=True)
        spotted = []
        if fifteenth is not None and move_15 is not None:
            new = new.with_piece(  # replaces the fifteenth where it lay
                Piece(fifteenth, "ball", *move_15, ball_group(fifteenth)))
            spotted.append({"id": fifteenth, "x": move_15[0], "y": move_15[1],
                            "article": article})
        full = fifteenth is None
        for bid, x, y in rerack_positions(racked, with_apex=full, seed=rack_seed(st),
                                          marks=marks):
            new = new.with_piece(Piece(bid, "ball", x, y, ball_group(bid)))
        if move_cue == "kitchen":
            new = new.without([CUE], missing_ok=True)
            st.ball_in_hand = "kitchen"
            ruling.placement = "kitchen"
        elif move_cue is not None:
            new = new.moved(CUE, *move_cue)
            spotted.append({"id": CUE, "x": move_cue[0], "y": move_cue[1],
                            "article": "WPA 6.7.6"})
        what = "15 balls (WPA 6.4)" if full else "14 balls, the apex place empty (WPA 6.4, 6.7.3)"
        ruling.notes.append(f"Re-rack of {what}; the shooter continues (WPA 6.7.3, 6.7.6)")
        if fifteenth is not None and where is None:
            ruling.notes.append(f"Ball {fifteenth} dropped with the 14th: it goes to the foot "
                                "spot (WPA 6.7.3)")
        ruling.spotted = ruling.spotted + spotted
        out.state = st.copy()
        out.layout = new
        out.spotted = ruling.spotted
        return out


def check_request(layout: Layout, ball: str | None, ball_ids: Collection[str],
                  names: tuple[str, str] = ("layout", "ball")) -> None:
    """What a 6.7.7 request must give, as a shot's layout must (`names`: the fields of the
    layout and the ball, for the messages): the game's ball ids (`ball_ids`), a layout legal
    on its pool table (`checks.check_pool_layout`), and `ball`, if named, an object ball."""
    for p in layout.pieces:
        if p.id not in ball_ids:
            raise ValueError(f"{names[0]}: unknown ball id {p.id!r} for 14.1; ball ids are "
                             f"{list(ball_ids)}")
    check_pool_layout(layout, names[0])
    objects = [b for b in ball_ids if b != CUE]
    if ball is not None and ball not in objects:
        raise ValueError(f"{names[1]} must be one of the object balls {objects} (the ball to "
                         f"spot), got {ball!r}")


def near_rail_ball(facts: ShotFacts, initial: Layout | None) -> tuple[str, str] | None:
    """6.7.2: the first object ball the cue ball touched, if it lay (before the shot) within a
    ball's width of a cushion of its table without being frozen to it: (ball, the nearest
    cushion)."""
    if not facts.first_hits or initial is None or facts.first_hits[0] not in initial.ids():
        return None
    ball = initial.get(facts.first_hits[0])
    marks = marks_of(initial)
    half = marks.length / 2
    gaps = {
        "left_head_rail" if ball.y < half else "left_foot_rail": ball.x,
        "right_head_rail" if ball.y < half else "right_foot_rail": marks.width - ball.x,
        "head_rail": ball.y,
        "foot_rail": marks.length - ball.y,
    }
    rail, centre = min(gaps.items(), key=lambda item: item[1])
    gap = centre - BALL_DIAMETER / 2
    if FROZEN_TOLERANCE < gap <= BALL_DIAMETER:
        return ball.id, rail
    return None
