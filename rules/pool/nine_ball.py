"""9-ball, WPA section 5: the legal break on the 1 (5.4), continuing (5.5), the push-out and
the opponent's choice (5.6), fouls with ball in hand anywhere and the 9 spotted (5.7), the
lowest ball first (5.8), the rail (5.9), ball in hand not frozen to a ball (5.10), balls off
the table (5.11), three consecutive fouls with the warning (5.13) and the end of the game
(5.14)."""

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
from cuesim.rules.pool.model import CUE, Outcome, PoolShot, PoolState
from cuesim.rules.ruling import Ruling, Violation
from cuesim.rules.wording import named
from cuesim.tables.pool_spots import frozen

NINE = "9"


class NineBall(PoolGame):
    name = "nine_ball"
    ball_ids = (CUE, *(str(n) for n in range(1, 10)))
    rack_name = "nine_ball"
    game_ball = "9"  # 5.3: the 9 legally pocketed wins
    infraction_articles = {"jump_masse_moved_ball": "WPA 5.12"}
    game_begins = "WPA 5.14"
    has_push_out = True
    break_article = "WPA 5.4"

    def _reset_rack(self, st: PoolState) -> None:
        st.push_out_available = False

    def _foul(self, st: PoolState, shooter: str, shot: PoolShot, facts: ShotFacts,
              ruling: Ruling) -> Outcome:
        """5.13: the third consecutive foul loses the game; otherwise 5.7: ball in hand
        anywhere, pocketed balls stay down except the 9, which is spotted."""
        other = st.opponent(shooter)
        ruling.legal = False
        n = self._count_foul(st, shooter, ruling, "WPA 5.13")
        if n >= 3:
            ruling.violations.append(Violation("WPA 5.13", "third consecutive foul: loss "
                                               "of the game", LOSS_OF_GAME))
            self._clear_fouls(st, shooter)
            self._end_frame(st, other, ruling)
            return self._outcome(st, shooter, shot, facts, ruling)
        nine_down = NINE in facts.object_pocketed or NINE in facts.off_table
        st.shooter, st.ball_in_hand = other, "table"
        if nine_down:
            ruling.notes.append("The 9 is spotted (WPA 5.7)")
        return self._outcome(st, shooter, shot, facts, ruling,
                             spot=[NINE] if nine_down else [], article="WPA 5.7")

    def _rule(self, st: PoolState, shot: PoolShot, facts: ShotFacts) -> Outcome:
        shooter, other = st.shooter, st.opponent()
        decl = shot.declaration
        ruling, ended = self._open_ruling(st, shot, facts)
        if ended is not None:
            return ended
        ids = set(shot.initial.ids()) if shot.initial is not None else set()
        numbered = sorted((b for b in ids if b != CUE), key=int)
        lowest = numbered[0] if numbered else "1"
        breaking = st.phase == "break"
        push = False
        if decl.push_out:
            if st.push_out_available and not breaking:
                push = True
                ruling.notes.append(f"{shooter} plays a push-out (WPA 5.6)")
            else:
                ruling.notes.append("No push-out is available now: a normal shot (WPA 5.6)")
        was_in_hand = st.ball_in_hand == "table"
        st.push_out_available = False
        st.phase = "play"
        if was_in_hand and shot.initial is not None and CUE in ids:
            cue = shot.initial.get(CUE)
            touching = [p.id for p in shot.initial.pieces
                        if p.id != CUE and frozen(cue.x, cue.y, p.x, p.y)]
            if touching:
                ruling.violations.append(Violation(
                    "WPA 5.10", f"ball in hand placed frozen to ball {touching[0]}", FOUL))
        if breaking:
            ruling.violations += first_hit_violation(facts, {lowest}, "WPA 5.4",
                                                     f"the {lowest} first")
            if not facts.object_pocketed and len(facts.balls_to_rail()) < 4:
                ruling.violations.append(Violation(
                    "WPA 5.4", f"illegal break: no ball pocketed and "
                    f"{balls_to_rail_text(len(facts.balls_to_rail()))} reached a cushion "
                    "(4 needed)", FOUL))
            if facts.scratch:
                ruling.violations.append(Violation("WPA 5.4", "scratch or cue ball off the "
                                                   "table on the break", FOUL))
            if facts.objects_off_table:
                ruling.violations.append(Violation("WPA 5.4", "object ball off the table on "
                                                   "the break: not spotted, except the 9",
                                                   FOUL))
        elif not push:
            ruling.violations += first_hit_violation(facts, {lowest}, "WPA 5.8",
                                                     f"the lowest ball ({lowest}) first")
            fz = frozen_violation(facts, decl.frozen, shot.initial)
            ruling.violations += fz if fz is not None else rail_violation(facts, "WPA 5.9")
        if facts.objects_off_table and not breaking:
            ruling.violations.append(Violation(
                "WPA 5.11", f"{named('object ball', facts.objects_off_table)} off the table: "
                "not spotted, except the 9", FOUL))
        nine_down = NINE in facts.object_pocketed or NINE in facts.off_table
        if ruling.violations:
            return self._foul(st, shooter, shot, facts, ruling)
        self._clear_fouls(st, shooter)
        st.ball_in_hand = None
        if push:
            # 5.6: balls pocketed stay down except the 9, which is spotted; the opponent
            # shoots from here or passes the shot back
            self._offer(st, ruling, other, "WPA 5.6", {
                "shoot": effect(other, None),
                "pass": effect(shooter, None),
            })
            return self._outcome(st, shooter, shot, facts, ruling,
                                 spot=[NINE] if nine_down else [], article="WPA 5.6")
        if NINE in facts.object_pocketed:
            ruling.notes.append(f"{shooter} legally pocketed the 9 (WPA 5.14)")
            self._end_frame(st, shooter, ruling)
            return self._outcome(st, shooter, shot, facts, ruling)
        if breaking:
            st.push_out_available = True  # 5.5: the next shot may be a push-out
        if facts.object_pocketed:
            ruling.notes.append(f"{shooter} pocketed a ball and continues (WPA 5.5)")
        else:
            st.shooter = other
        return self._outcome(st, shooter, shot, facts, ruling)
