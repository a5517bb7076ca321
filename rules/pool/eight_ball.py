"""8-ball, WPA section 4: the break and its options (4.5-4.8), open table and groups (4.9,
4.10), the legal shot (4.11), safety (4.12), ball in hand (4.14), combinations (4.15),
improperly pocketed balls (4.16), balls off the table (4.17), the 8 (4.19) and loss of game
(4.20), stalemate (4.21)."""

from __future__ import annotations

from cuesim.rules.pool.base import PoolGame, effect
from cuesim.rules.pool.facts import ShotFacts
from cuesim.rules.pool.general import (
    FOUL,
    LOSS_OF_GAME,
    balls_to_rail_text,
    first_hit_violation,
    frozen_violation,
    rail_violation,
)
from cuesim.rules.pool.model import Outcome, PoolShot, PoolState
from cuesim.rules.ruling import Ruling, Violation
from cuesim.rules.wording import named

STALEMATE_INNINGS = 6  # 4.21: "three consecutive innings of each player (six in all)"
SOLIDS = frozenset(str(n) for n in range(1, 8))
STRIPES = frozenset(str(n) for n in range(9, 16))
GROUPS = {"solids": SOLIDS, "stripes": STRIPES}
EIGHT = "8"


def group_of(ball: str) -> str | None:
    return "solids" if ball in SOLIDS else ("stripes" if ball in STRIPES else None)


class EightBall(PoolGame):
    name = "eight_ball"
    rack_name = "eight_ball"
    game_ball = "8"  # 4.1: the 8 pocketed ends the game
    infraction_articles = {"jump_masse_moved_ball": "WPA 4.18"}
    break_article = "WPA 4.5"
    has_stalemate = True  # 4.21

    def _reset_rack(self, st: PoolState) -> None:
        st.groups = {}

    def _stalemate(self, st: PoolState, shot: PoolShot) -> Outcome:
        """4.21: the balls are re-racked and the same player breaks again. It follows three
        consecutive innings of each player on the rack (six in all, the break's included), so
        it is refused before then; whether the position is a stalemate is the referee's
        judgement, as the declaration says."""
        if st.phase == "break":
            raise ValueError("declaration.stalemate (WPA 4.21) comes after three innings of "
                             "each player, and this rack has not been broken yet")
        played = st.inning - st.rack_inning  # innings ended since the break's began
        if played < STALEMATE_INNINGS:
            raise ValueError(f"declaration.stalemate (WPA 4.21) comes after three innings of "
                             f"each player ({STALEMATE_INNINGS} in all); this rack has had "
                             f"{played} since its break")
        ruling = Ruling(legal=True)
        ruling.notes.append("Stalemate: re-rack, the player who broke this game breaks again "
                            "(WPA 4.21)")
        st.phase = "break"
        st.shooter = st.breaker
        st.ball_in_hand = "kitchen"
        st.pending = None
        self._reset_rack(st)
        ruling.next_player = st.breaker
        ruling.placement = "kitchen"
        ruling.turn_passes = True
        return Outcome(ruling, st.copy(), rack=self.rack_name)

    # -- the rules ------------------------------------------------------------------------
    def _rule(self, st: PoolState, shot: PoolShot, facts: ShotFacts) -> Outcome:
        ruling, ended = self._open_ruling(st, shot, facts)
        if ended is not None:
            return ended
        if st.phase == "break":
            return self._break(st, shot, facts, ruling)
        return self._shot(st, shot, facts, ruling)

    def _foul(self, st: PoolState, shooter: str, shot: PoolShot, facts: ShotFacts,
              ruling: Ruling) -> Outcome:
        """4.14: ball in hand anywhere; 4.2 / 4.16: pocketed balls stay down; 4.9: the table
        stays open; 4.19: a foul while on the 8 does not lose if the 8 stays up."""
        ruling.legal = False
        st.shooter, st.ball_in_hand = st.opponent(shooter), "table"
        return self._outcome(st, shooter, shot, facts, ruling)

    def _break(self, st: PoolState, shot: PoolShot, facts: ShotFacts,
               ruling: Ruling) -> Outcome:
        shooter, other = st.shooter, st.opponent()
        st.phase = "play"
        st.rack_inning = st.inning  # 4.21 counts the innings from here
        st.groups = {}  # 4.9, 4.10: the table is always open after the break
        if EIGHT in facts.off_table:
            ruling.violations.append(Violation("WPA 4.20.3", "the 8 left the table",
                                               LOSS_OF_GAME))
            return self._lose(st, shooter, shot, facts, ruling)
        pocketed = facts.object_pocketed
        legal_break = bool(pocketed) or len(facts.balls_to_rail()) >= 4
        fouled = bool(ruling.violations)
        ruling.legal = not fouled and legal_break
        if any(i.code == "break_cue_interference" for i in shot.infractions):
            # 3.9: the opponent shoots from the kitchen or hands that to the offender; with the
            # 8 down (4.8, a foul on the break) the 8 is spotted for either, or he has the
            # balls re-racked
            st.ball_in_hand = None
            options = {"shoot_kitchen": effect(other, "kitchen"),
                       "pass_kitchen": effect(shooter, "kitchen")}
            if EIGHT in pocketed:
                ruling.notes.append("The 8 was pocketed on the break: it is spotted unless the "
                                    "balls are re-racked (WPA 4.8)")
                options["rerack"] = effect(other, rerack=True)
            self._offer(st, ruling, other, "WPA 3.9, 4.8" if EIGHT in pocketed else "WPA 3.9",
                        options)
            return self._outcome(st, shooter, shot, facts, ruling,
                                 spot=[EIGHT] if EIGHT in pocketed else [])
        if EIGHT in pocketed:
            ruling.notes.append("The 8 was pocketed on the break: it is spotted unless the "
                                "balls are re-racked (WPA 4.8)")
            st.ball_in_hand = None
            if facts.objects_off_table and not facts.scratch:
                # 4.7 with 4.8: the object balls' foul lets the incoming player take the table as
                # it is or the cue ball behind the head string; the 8 is spotted or re-racked
                ruling.violations.append(Violation(
                    "WPA 4.7", f"{named('object ball', facts.objects_off_table)} jumped off the "
                    "table on the break", FOUL))
                self._offer(st, ruling, other, "WPA 4.8", {
                    "spot_eight": effect(other, None),
                    "spot_eight_kitchen": effect(other, "kitchen"),
                    "rerack": effect(other, rerack=True),
                })
            elif facts.scratch or fouled:
                self._offer(st, ruling, other, "WPA 4.8", {
                    "spot_eight": effect(other, "kitchen"),
                    "rerack": effect(other, rerack=True),
                })
            else:
                self._offer(st, ruling, shooter, "WPA 4.8", {
                    "spot_eight": effect(shooter, None),
                    "rerack": effect(shooter, rerack=True),
                })
            return self._outcome(st, shooter, shot, facts, ruling, spot=[EIGHT],
                                 article="WPA 4.8")
        if not legal_break:
            ruling.violations.append(Violation(
                "WPA 4.5", f"illegal break: no ball pocketed and "
                f"{balls_to_rail_text(len(facts.balls_to_rail()))} reached a cushion (4 needed)",
                FOUL))
            st.ball_in_hand = None
            self._offer(st, ruling, other, "WPA 4.5", {
                "accept": effect(other, "kitchen" if facts.scratch else None),
                "rerack_and_break": effect(other, rerack=True),
                "rerack_opponent_breaks": effect(shooter, rerack=True),
            })
            return self._outcome(st, shooter, shot, facts, ruling)
        if facts.scratch:
            ruling.notes.append("Scratch on a legal break: balls stay down, the table stays "
                                "open, ball in hand behind the head string (WPA 4.6)")
            st.shooter, st.ball_in_hand = other, "kitchen"
            return self._outcome(st, shooter, shot, facts, ruling)
        if facts.objects_off_table:
            ruling.violations.append(Violation(
                "WPA 4.7", f"{named('object ball', facts.objects_off_table)} jumped off the table "
                "on the break", FOUL))
            st.ball_in_hand = None
            self._offer(st, ruling, other, "WPA 4.7", {
                "accept": effect(other, None),
                "kitchen": effect(other, "kitchen"),
            })
            return self._outcome(st, shooter, shot, facts, ruling)
        if fouled:
            # 4.14: after a foul on the opening break, ball in hand behind the head string
            st.shooter, st.ball_in_hand = other, "kitchen"
            return self._outcome(st, shooter, shot, facts, ruling)
        st.ball_in_hand = None
        if pocketed:
            ruling.notes.append(f"{named('Ball', pocketed)} pocketed on a legal break: the "
                                "breaker continues; the table is open (WPA 4.2, 4.10)")
        else:
            st.shooter = other
        return self._outcome(st, shooter, shot, facts, ruling)

    def legal_targets(self, st: PoolState, initial_ids: set[str]) -> tuple[set[str], bool]:
        """Balls the cue ball may hit first, and whether the shooter is on the 8."""
        group = st.groups.get(st.shooter)
        if group is None:  # open table, 4.9
            return {b for b in initial_ids if b in SOLIDS or b in STRIPES}, False
        mine = {b for b in initial_ids if b in GROUPS[group]}
        if mine:
            return mine, False
        return {EIGHT}, True

    def _shot(self, st: PoolState, shot: PoolShot, facts: ShotFacts,
              ruling: Ruling) -> Outcome:
        shooter, other = st.shooter, st.opponent()
        decl = shot.declaration
        ids = set(shot.initial.ids()) if shot.initial is not None else set()
        targets, on_eight = self.legal_targets(st, ids)
        open_table = st.shooter not in st.groups
        if open_table:
            article, what = "WPA 4.9", "a solid or a stripe (not the 8) on the open table"
        elif on_eight:
            article, what = "WPA 4.19", "the 8"
        else:
            article, what = "WPA 4.11", f"a ball of the {st.groups[shooter]}"
        hit = first_hit_violation(facts, targets, article, what)
        if hit and facts.first_legal_hit(targets) == EIGHT:
            hit = [Violation("WPA 4.15", "the 8 was hit first; it may not be the first ball of "
                             "a combination", FOUL)] if not open_table else hit
        ruling.violations += hit
        frozen = frozen_violation(facts, decl.frozen, shot.initial)
        ruling.violations += frozen if frozen is not None else rail_violation(facts, "WPA 4.11")
        if facts.objects_off_table:
            ruling.violations.append(Violation(
                "WPA 4.17", f"{named('object ball', facts.objects_off_table)} off the table: not "
                "spotted; turn passes", FOUL))
        fouled = bool(ruling.violations)
        ruling.legal = not fouled

        # -- the 8: loss or win (4.19, 4.20) --
        if EIGHT in facts.off_table:
            ruling.violations.append(Violation("WPA 4.20.3", "the 8 left the table",
                                               LOSS_OF_GAME))
            return self._lose(st, shooter, shot, facts, ruling)
        if EIGHT in facts.object_pocketed:
            loss = self._eight_loss(st, shot, facts, fouled, on_eight, ids)
            if loss is not None:
                ruling.violations.append(loss)
                return self._lose(st, shooter, shot, facts, ruling)
            ruling.notes.append(f"{shooter} legally pocketed the 8 (WPA 4.1)")
            self._end_frame(st, shooter, ruling)
            return self._outcome(st, shooter, shot, facts, ruling)

        if fouled:
            return self._foul(st, shooter, shot, facts, ruling)
        st.ball_in_hand = None
        if decl.safety:
            ruling.notes.append("Safety: the inning ends; balls pocketed stay down (WPA 4.12)")
            st.shooter = other
            return self._outcome(st, shooter, shot, facts, ruling)
        called = self._called_and_made(st, shot, facts, targets, open_table)
        if called is None:
            if facts.object_pocketed:
                ruling.notes.append("No called ball was legally pocketed: the balls stay down "
                                    "and count for their group's owner (WPA 4.16)")
            st.shooter = other
            return self._outcome(st, shooter, shot, facts, ruling)
        if open_table:
            group = group_of(called)
            other_group = "stripes" if group == "solids" else "solids"
            st.groups = {shooter: group, other: other_group}
            ruling.notes.append(f"{shooter} takes the {group} (WPA 4.10)")
        ruling.notes.append(f"Ball {called} legally pocketed: {shooter} continues (WPA 4.13)")
        return self._outcome(st, shooter, shot, facts, ruling)

    def _called_and_made(self, st: PoolState, shot: PoolShot, facts: ShotFacts,
                         targets: set[str], open_table: bool) -> str | None:
        """The called ball if it was legally pocketed (4.2): the called ball in the called
        pocket, or, with no call, a ball of the shooter's group driven in by an obvious shot."""
        decl = shot.declaration
        eligible = {b for b in facts.object_pocketed if b != EIGHT}
        if not open_table:
            eligible &= GROUPS[st.groups[st.shooter]]
        if decl.called_ball is not None:
            ball = decl.called_ball
            if ball not in eligible:
                return None
            if decl.called_pocket is None:
                return ball if facts.is_direct(ball) else None
            return ball if facts.pocket_of(ball) == decl.called_pocket else None
        for ball in facts.object_pocketed:
            if ball in eligible and facts.is_direct(ball):
                return ball
        return None

    def _eight_loss(self, st: PoolState, shot: PoolShot, facts: ShotFacts, fouled: bool,
                    on_eight: bool, ids: set[str]) -> Violation | None:
        """4.20: the 8 went down; the reason it loses, or None when it wins."""
        decl = shot.declaration
        if fouled:
            return Violation("WPA 4.20.1", "foul while pocketing the 8", LOSS_OF_GAME)
        if not on_eight:
            group = st.groups.get(st.shooter)
            left = {b for b in ids if group and b in GROUPS[group]}
            if group and left and left <= set(facts.object_pocketed):
                return Violation("WPA 4.20.2", "the 8 was pocketed on the same shot as the last "
                                 "ball of the group", LOSS_OF_GAME)
            return Violation("WPA 4.20.5", "the 8 was pocketed when it was not the legal object "
                             "ball", LOSS_OF_GAME)
        pocket = facts.pocket_of(EIGHT)
        if decl.safety:
            return Violation("WPA 4.20.4", "the 8 was pocketed on a declared safety (no pocket "
                             "designated)", LOSS_OF_GAME)
        if decl.called_ball not in (None, EIGHT):
            return Violation("WPA 4.20.4", f"ball {decl.called_ball} was called, not the 8",
                             LOSS_OF_GAME)
        if decl.called_pocket is not None:
            if decl.called_pocket != pocket:
                return Violation("WPA 4.20.4", f"the 8 was called in {decl.called_pocket} but "
                                 f"dropped in {pocket}", LOSS_OF_GAME)
            return None
        if not facts.is_direct(EIGHT):
            return Violation("WPA 4.20.4", "the 8 dropped by a bank or combination with no "
                             "pocket called (WPA 4.2: not an obvious shot)", LOSS_OF_GAME)
        return None

    def _lose(self, st: PoolState, shooter: str, shot: PoolShot, facts: ShotFacts,
              ruling: Ruling) -> Outcome:
        ruling.legal = False
        winner = st.opponent(shooter)
        ruling.notes.append(f"{shooter} loses the game (WPA 4.20)")
        self._end_frame(st, winner, ruling)
        return self._outcome(st, shooter, shot, facts, ruling)
