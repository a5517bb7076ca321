"""Correct and incorrect shots (5, 6, 7) and the fouls of article 15: the ones 2D physics shows
(15.2, 15.3 а б в г л) read from the event log and the layout before the shot, the others
declared as Infraction codes. Each foul is worth 2 points to the opponent (15.1, 15.3; the red
first 4, 15.3.б); 15.3 fouls give the opponent ball in hand, 15.2 does not."""

from __future__ import annotations

from dataclasses import dataclass, field

from cuesim.rules.fivepins.facts import DIRECT, RICOCHET, ShotFacts
from cuesim.rules.fivepins.model import RED, article
from cuesim.rules.fivepins.scoring import (
    FOUL_POINTS,
    RED_FIRST_POINTS,
    carom_points,
    pin_points,
)
from cuesim.rules.ruling import Infraction, Violation
from cuesim.sim.events import EventKind

BALL_IN_HAND = "ball_in_hand"  # 15.3: 2 points and ball in hand for the opponent
# infractions whose pieces were moved by the player, not by the shot (15.3.и cleaning, 15.3.к
# moved, 15.3.п touched): after it they may lie elsewhere with no event of theirs
HAND_MOVES = ("cleaning_touch", "moved_piece", "touched_piece")
POINTS_ONLY = "points"  # 15.2: 2 points (and the shot's points) only
LOSS_OF_GAME = "loss_of_game"  # 9.1
LOSS_OF_MATCH = "loss_of_match"  # 9.2
LAG = "lag"  # 3: a lag fault

# Declared infractions: code -> (article, text, consequence).
INFRACTIONS: dict[str, tuple[str, str, str]] = {
    "wrong_ball": ("15.3.а", "wrong ball: not the player's own ball (7.4)", BALL_IN_HAND),
    "off_table": ("15.3.д", "a ball left the table (11.1, 11.2)", BALL_IN_HAND),
    "balls_moving": ("15.3.е", "shot played before all three balls stopped", BALL_IN_HAND),
    "cue_not_tip": ("15.3.ж", "the ball was struck with a part of the cue other than the tip",
                    BALL_IN_HAND),
    "double_hit": ("15.3.з", "double hit: the tip touched the ball more than once",
                   BALL_IN_HAND),
    "cleaning_touch": ("15.3.и", "a ball or pin was touched to clean it", BALL_IN_HAND),
    "moved_piece": ("15.3.к", "a ball or pin was moved other than by the shot", BALL_IN_HAND),
    "ball_in_contact": ("15.3.л", "played straight onto a ball or cushion in contact (10.1, "
                        "10.2)", BALL_IN_HAND),
    "foot": ("15.3.м", "no foot on the floor, or over the foot line, at an opening or in-hand "
             "shot (4.3)", BALL_IN_HAND),
    "placed_not_by_cue": ("15.3.н", "the ball in hand was placed with something other than "
                          "the cue (4.2, 13.3)", BALL_IN_HAND),
    "touched_ball_in_hand": ("15.3.н", "the ball in hand was touched before the referee placed "
                             "it (13.6)", BALL_IN_HAND),
    "jumped_pins": ("15.3.о", "the striker's ball or the red jumped over the pins before the "
                    "opponent's ball was touched", BALL_IN_HAND),
    "touched_piece": ("15.3.п", "a ball or pin was touched (hand, clothing, cue...)",
                      BALL_IN_HAND),
    "push_shot": ("15.3.р", "push shot: two balls pushed at once", BALL_IN_HAND),
    "left_game": ("9.1", "left the game without the referee's permission: loses the game",
                  LOSS_OF_GAME),
    "refused_to_continue": ("9.2", "refused to continue the game: excluded from the "
                            "competition", LOSS_OF_MATCH),
    "lag_late_start": ("3", "the ball was not moving before the other reached the top rail",
                       LAG),
    "lag_crossed": ("3", "the ball entered the opponent's half", LAG),
}
FORFEITS = ("left_game", "refused_to_continue")
# Infractions that can be committed between shots (an empty event log): touching or moving a
# piece (15.3.и, к, п), the ball in hand placed or touched (15.3.н, 13.6) and the forfeits (9);
# the others describe a stroke and are declared with its events.
BETWEEN_SHOTS = ("cleaning_touch", "moved_piece", "touched_piece", "placed_not_by_cue",
                 "touched_ball_in_hand", *FORFEITS)
LAG_CODES = ("lag_late_start", "lag_crossed")
# Infractions of the ball in hand (15.3.н: placed with something other than the cue, 4.2 /
# 13.3; touched before the referee placed it, 13.6): without a ball in hand they cannot have
# happened.
WITH_BALL_IN_HAND = ("placed_not_by_cue", "touched_ball_in_hand")
# Infractions of a shot played from a placed ball (15.3.м: the foot rule "при начальном ударе
# или ударе с руки", 4.3): on a ball played where it lies they cannot have happened.
AT_PLACED_SHOT = ("foot",)


@dataclass
class Judgement:
    """The referee's reading of one stroke: violations (with the foul points each is worth),
    the pins that count and the shot's positive points (8), and what kind of shot it was."""

    violations: list[Violation] = field(default_factory=list)
    foul_points: int = 0
    counted_pins: list[str] = field(default_factory=list)
    pin_points: int = 0
    carom_points: int = 0
    kind: str = ""  # the article that describes the shot: '5.1'...'5.7', '6', '7.1'...'7.5'
    notes: list[str] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def positive(self) -> int:
        return self.pin_points + self.carom_points

    @property
    def ball_in_hand(self) -> bool:
        return any(v.consequence == BALL_IN_HAND for v in self.violations)

    def add(self, ref: str, text: str, consequence: str, points: int = FOUL_POINTS) -> None:
        art = article(ref)
        if art in self.articles():
            return  # one foul counted once (a declared one the log also shows)
        self.violations.append(Violation(art, text, consequence))
        self.foul_points += points

    def articles(self) -> list[str]:
        return [v.article for v in self.violations]


def correct_kind(facts: ShotFacts, counted: list[str]) -> str:
    """The paragraph of 5 (or 6) a correct shot falls under."""
    if facts.carom == DIRECT:
        if facts.both_on_red:
            return "5.7"
        return "5.2" if counted else "5.5"
    if facts.carom == RICOCHET:
        return "5.3" if counted else "5.6"
    return "5.1" if counted else "6"


def judge(facts: ShotFacts, infractions: list[Infraction], contact: set[str],
          moved_pins: list[str]) -> Judgement:
    """Rule on one stroke (5, 6, 7, 8, 15). `contact` holds the balls and cushions touching the
    striker's ball before the shot (10); `moved_pins` the pins the referee saw only moved
    (12.4, 12.5)."""
    j = Judgement()
    facts = facts.without_pins(set(moved_pins))
    j.counted_pins = facts.knocked()
    j.pin_points = pin_points(j.counted_pins)
    j.carom_points = carom_points(facts.carom)
    if facts.struck is not None and facts.struck != facts.striker:
        j.add("15.3.а", f"wrong ball: the {facts.struck} ball was struck, not the "
              f"{facts.striker} (7.4)", BALL_IN_HAND)
        j.kind = "7.4"
        j.carom_points = carom_points(facts.as_played().carom)
    elif facts.stroke:
        _judge_contacts(facts, contact, j)
    for inf in infractions:
        ref, text, consequence = INFRACTIONS[inf.code]
        if consequence != BALL_IN_HAND:
            continue
        if inf.pieces:
            text += f" ({', '.join(inf.pieces)})"
        j.add(ref, text, consequence)
    if j.violations and not j.kind:
        j.kind = "7.5"
    elif not j.violations:
        j.kind = correct_kind(facts, j.counted_pins)
    return j


def _judge_contacts(facts: ShotFacts, contact: set[str], j: Judgement) -> None:
    red_first = facts.red_first
    if red_first:
        # 7.2 is the red first and then pins knocked by the striker's ball or the red; the
        # red first alone is a foul of 15.3 (7.5)
        red_pins = [k for k in facts.pins if k.origin in (facts.striker, RED)]
        j.kind = "7.2" if red_pins else "7.5"
        j.add("15.3.б", f"the striker's ball hit the red before the opponent's ball ({j.kind})",
              BALL_IN_HAND, RED_FIRST_POINTS)
    elif not facts.hit_opponent:
        j.add("15.3.г", "the striker's ball missed the opponent's ball (7.1)", BALL_IN_HAND)
        j.kind = "7.1"
    first_pins = facts.striker_pins_before_opponent()
    if first_pins and facts.hit_opponent:
        names = ", ".join(k.pin for k in first_pins)
        j.add("15.3.в", f"the striker's ball knocked pins ({names}) before touching the "
              "opponent's ball", BALL_IN_HAND)
        j.kind = j.kind or "7.5"
    first = facts.first_contact
    straight_on = False
    if first is not None and contact:
        target = None
        if first.kind == EventKind.COLLIDE:
            target = first.b if first.a == facts.striker else first.a
        elif first.kind == EventKind.RAIL:
            target = first.feature
        if target in contact:
            what = "the cushion" if target and target.endswith("_rail") else "the ball"
            j.add("15.3.л", f"played straight onto {what} in contact ({target}) (10.1, 10.2)",
                  BALL_IN_HAND)
            straight_on = target == facts.opponent
    # 15.2 follows a correct touch of the opponent's ball only: not after the red first
    # (15.3.б), pins first (15.3.в) or a ball played straight onto it in contact (15.3.л),
    # whose own 15.3 points take the pins with them (15.1)
    if not red_first and not first_pins and not straight_on and facts.hit_opponent:
        later = facts.striker_pins_after_opponent()
        if later:
            names = ", ".join(k.pin for k in later)
            others = [k for k in facts.pins if k.origin in (facts.opponent, RED)]
            kind = "7.3" if others else "7.5"
            j.add("15.2", f"the striker's ball knocked pins ({names}) after a correct hit "
                  f"({kind}): pins and carom go to the opponent", POINTS_ONLY)
            j.kind = j.kind or kind
