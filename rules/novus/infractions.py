"""Declared infractions: what 2D physics cannot see, and the article each one falls under.

Each code maps to (article, consequence, text). Consequences:
* 'penalty_puck'    - loss of turn and a penalty puck (17.1; one per shot, 17.2)
* 'loss_of_turn'    - loss of turn only (18.1)
* 'loss_of_set'     - the set goes to the opponent (16.1)
* 'loss_of_match'   - the game (match) goes to the opponent (15.1, 15.2)
* 'disqualification' - exclusion from the competition; the match is lost (14.1-14.4)
* 'warning'         - recorded; the third warning loses the unplayed sets (15.3, 19.3)
* special: 'puck_off_table' (12, 17.7, 17.1.р, 18.1.в; the striker named: 17.1.д),
  'penalty_forgotten' (17.4), 'shot_out_of_turn' (16.1.ж singles / 16.1.з doubles; its
  `player` is who struck, never the player who had the turn: that is refused),
  'touched_puck' (17.1.о, however many pucks it names: "прикоснулся", a touch; two or more
  pucks moved without a shot are 'moved_pucks', 16.1.д "сдвинул", which refuses naming only
  one), 'time_warning' (19.3), 'time_5s' (18.1.ж), 'time_30s' (17.1.т).

A penalty-puck infraction declared for a player who did not have the turn (`player` is not the
shooter) is 17.1.п: its penalty puck is placed when the shooter's series ends, and the offender
misses his next turn; several in one shot cost one puck and one turn (17.2), and the pucks a
'touched_puck' names go back at once where they were before the shot (one the shot moved too
stays where the shot left it). A loss-of-turn infraction (18.1) declared for a player who did
not have the turn is refused: he has no turn to lose; so is a foul only the striking player
can commit (SHOOTER_ONLY: the stroke, its striker, its placing or its time) declared for another.

Choice (16.1.м vs 17.1.н, which describe the same act): 'touched_moving' (brushed a moving
puck or striker with hand or cue) is 17.1.н, a penalty puck; 'touched_moving_deliberately' is
16.1.м, loss of the set.
"""

from __future__ import annotations

INFRACTIONS: dict[str, tuple[str, str, str]] = {
    # 14: exclusion from the competition
    "gross_misconduct": ("14.1", "disqualification", "gross misconduct: excluded"),
    "second_unsporting_loss": ("14.2", "disqualification",
                               "second loss for unsporting behaviour: excluded"),
    "second_no_show_loss": ("14.3", "disqualification",
                            "second loss for not coming to the table: excluded"),
    "refused_greeting": ("14.4", "disqualification", "refused to greet the opponent: excluded"),
    # 15: loss of the game
    "no_show": ("15.1", "loss_of_match", "did not come to the table within two minutes"),
    "unsporting": ("15.2", "loss_of_match", "unsporting behaviour"),
    # 16.1: loss of the set
    "shook_table": ("16.1.б", "loss_of_set", "shook the table so that pucks moved"),
    "deliberate_violation": ("16.1.в", "loss_of_set",
                             "deliberate violation, disobeyed the referee or shot after 'stop'"),
    "moved_pucks": ("16.1.д", "loss_of_set",
                    "moved two or more pucks by hand, cue or striker without a shot"),
    "picked_up_puck": ("16.1.е", "loss_of_set",
                       "took a puck off the table, moved the last puck on the table or put a "
                       "hand into a pocket while the opponent had the turn"),
    "shot_out_of_turn": ("16.1.ж", "loss_of_set", "struck although the opponent had the turn"),
    "changed_equipment": ("16.1.к", "loss_of_set", "changed an undamaged striker or cue"),
    "absent_between_sets": ("16.1.л", "loss_of_set", "away more than three minutes between sets"),
    "touched_moving_deliberately": ("16.1.м", "loss_of_set",
                                    "touched a moving puck or striker with hand or cue"),
    # 17.1: penalty puck
    "striker_off_table": ("17.1.д", "penalty_puck", "the striker went over the rail"),
    "refused_shot": ("17.1.ж", "penalty_puck", "refused to shoot"),
    "double_hit": ("17.1.к", "penalty_puck", "double hit: the cue touched the striker twice"),
    "striker_touched_puck_placing": ("17.1.л", "penalty_puck",
                                     "the striker touched a puck while being placed"),
    "took_striker_early": ("17.1.м", "penalty_puck",
                           "touched or took the striker while pieces were moving"),
    "touched_moving": ("17.1.н", "penalty_puck",
                       "touched a moving puck or striker with hand or cue"),
    "touched_puck": ("17.1.о", "penalty_puck",
                     "touched a puck with cue, hand or striker while handing or placing it"),
    "striker_broken": ("17.1.с", "penalty_puck",
                       "the striker broke and its larger part fell in a pocket or over the rail"),
    "time_30s": ("17.1.т", "penalty_puck", "again exceeded the 30 seconds for a shot (19.3)"),
    "not_tip": ("17.1.у", "penalty_puck", "struck with the side or the butt of the cue"),
    # 18.1: loss of turn
    "out_of_zone": ("18.1.е", "loss_of_turn", "left the bounds of his side's zone"),
    "time_5s": ("18.1.ж", "loss_of_turn",
                "did not shoot within 5 seconds of the time warning (19.3)"),
    "striker_placed_early": ("18.1.з", "loss_of_turn",
                             "put the striker down before the referee had finished"),
    # 19: warnings
    "warning": ("19.1", "warning", "warning"),
    "time_warning": ("19.3", "warning", "warned to shoot within 5 seconds"),
    # handled specially
    "puck_off_table": ("12", "special", "a puck left the table"),
    "penalty_forgotten": ("17.4", "special", "a penalty puck was not placed in time: the debt "
                                             "is annulled"),
}


# Infractions whose pieces a shaken table, a hand or a cue moved, not the shot (16.1.б, д, м;
# 17.1.л, н, о): after the shot they may lie elsewhere with no event of theirs
HAND_MOVES = ("shook_table", "moved_pucks", "touched_moving_deliberately",
              "striker_touched_puck_placing", "touched_moving", "touched_puck")
# Infractions that describe a stroke (17.1.к a double hit, 17.1.у the side or butt of the cue)
# or what a stroke did (17.1.д the striker over the rail, 17.1.с broken, 18.1.в a puck over the
# rail "в результате удара"): declared with that shot, never with none (a puck a hand or cue
# knocked off between shots is 'touched_puck' or 'moved_pucks'). The others can happen between
# shots (17.1.п: any of them by the player who has not the turn; 16.1.ж is a stroke out of
# turn, which no shot of the game's log holds).
STROKE_ONLY = ("double_hit", "not_tip", "striker_off_table", "striker_broken", "puck_off_table")
# Infractions only the player who strikes can commit: the stroke itself (17.1.к, у), its striker
# (17.1.д, с), its placing (17.1.л, 18.1.з) or its time (17.1.ж, т; 18.1.ж). Declared for
# another player they are refused (naming the shooter), not ruled against him as 17.1.п.
SHOOTER_ONLY = ("double_hit", "not_tip", "striker_off_table", "striker_broken",
                "striker_touched_puck_placing", "striker_placed_early", "refused_shot",
                "time_30s", "time_5s")
# Infractions that need pieces in motion (17.1.м the striker touched or taken before every
# piece stopped, 17.1.н and 16.1.м a moving puck or striker touched): they happen during a
# shot, and are declared with it (also by the player without the turn, 17.1.п). Between shots
# every piece is at rest, so declared with no shot they cannot have happened.
DURING_MOTION = ("took_striker_early", "touched_moving", "touched_moving_deliberately")
# 19.3: a player who delays is warned to shoot within 5 seconds; not shooting then costs the
# turn (18.1.ж), and each later 30 seconds exceeded a penalty puck (17.1.т). Both follow that
# warning ('time_warning', earlier in the game or in the same declaration); in doubles the
# limit binds both partners (19.3), so a partner's warning counts.
AFTER_TIME_WARNING = ("time_5s", "time_30s")
# 17.1.п: "the moved puck's position is restored at once": the pucks named by a touch of pucks
# at rest (17.1.о) by the player without the turn go back where they were before the shot
LATE_RESTORED = ("touched_puck",)
# 17.1.л: the striker touched a puck while being placed. Declared, or seen by the referee: a shot
# whose layout has the striker touching a puck (within a micron) was struck from that placement.
PLACING_TOUCH = "striker_touched_puck_placing"


def lookup(code: str) -> tuple[str, str, str]:
    try:
        return INFRACTIONS[code]
    except KeyError:
        raise ValueError(f"unknown novus infraction code {code!r}; codes are "
                         f"{sorted(INFRACTIONS)}") from None
