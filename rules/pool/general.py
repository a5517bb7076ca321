"""WPA section 3, the general rules of pocket billiards that every pool game shares: the lag
(3.6), cue ball in hand behind the head string (3.10, 3.16, 3.39), the legal shot (3.18, 3.19),
scratches (3.20), balls off the table (3.28), frozen balls (3.38), spotting (3.32), jammed balls
(3.33), breaks in successive games (3.36) and the fouls physics cannot see, which come in as
declared Infraction codes (3.3, 3.13, 3.14, 3.21-3.27, 3.29, 3.40-3.43)."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from cuesim.rules.pool.facts import ShotFacts
from cuesim.rules.pool.model import CUE, PoolState
from cuesim.rules.ruling import Infraction, Ruling, Violation
from cuesim.rules.wording import named
from cuesim.sim.events import EventKind
from cuesim.sim.result import Event
from cuesim.tables.layout import Layout, Piece
from cuesim.tables.pool_spots import (
    BALL_RADIUS,
    FROZEN_TOLERANCE,
    LONG_STRING_LINE,
    SIMULTANEOUS_S,
    frozen,
    marks_of,
    rail_of,
)

FOUL = "foul"
LOSS_OF_GAME = "loss_of_game"
LOSS_OF_MATCH = "loss_of_match"

# Declared infractions: code -> (article, text). Codes whose article differs by game are
# completed by the game (jump_masse_moved_ball: 4.18 / 5.12 / 1.16.2).
INFRACTIONS: dict[str, tuple[str, str]] = {
    "slow_play": ("WPA 1.11", "time limit exceeded"),
    "cue_not_tip": ("WPA 3.3", "the cue ball was struck with something other than the tip"),
    "break_cue_interference": ("WPA 3.9", "the cue ball was stopped or deflected on the break "
                               "after crossing the head string"),
    "foot_on_floor": ("WPA 3.13", "no foot on the floor when the tip hit the cue ball"),
    "balls_moving": ("WPA 3.14", "shot played while a ball was still moving"),
    "touched_ball": ("WPA 3.21", "a ball was touched by something other than the cue tip"),
    "touched_ball_placing": ("WPA 3.22", "an object ball was touched while placing the cue ball "
                             "in hand"),
    "double_hit": ("WPA 3.23", "the cue touched the cue ball more than once"),
    "push_shot": ("WPA 3.24", "push shot: the tip stayed on the cue ball too long"),
    "dropped_object": ("WPA 3.25", "a dropped object of the player touched a ball"),
    "illegal_jump": ("WPA 3.26", "illegal jump: the cue ball was scooped"),
    "jump_miscue": ("WPA 3.27", "miscue on a jump shot"),
    "off_table": ("WPA 3.28", "a ball left the table"),
    "intentional_foul": ("WPA 3.29", "the cue ball was deliberately struck with something other "
                         "than the tip"),
    "placing_stroke": ("WPA 3.40", "a forward stroke touched the cue ball while placing it"),
    "interference": ("WPA 3.41", "interference by the non-shooting player"),
    "measuring_device": ("WPA 3.42", "a ball, rack or other device used to measure a gap"),
    "table_marking": ("WPA 3.43", "the table was marked to help the shot"),
    "jump_masse_moved_ball": ("WPA 1.16.2", "a ball being jumped or curved around moved"),
    "deliberate_interference": ("WPA 6.7.5", "a ball moving toward a pocket or the rack area "
                                "was caught or deflected"),
}
# Infractions whose balls a hand, cue, dropped object or device moved, not the stroke (3.21,
# 3.22, 3.25, 3.41, 3.42, 1.16.2, 6.7.5): after the shot they may lie elsewhere with no event
HAND_MOVES = ("touched_ball", "touched_ball_placing", "dropped_object", "interference",
              "measuring_device", "jump_masse_moved_ball", "deliberate_interference")
# The shooter's hand moves whose disturbed object balls the referee puts back (3.21: "any
# object ball disturbed in an ordinary foul is returned as close as possible to its original
# position"; 3.41's interference by the other player keeps the whole table as it was before)
RESTORED_HAND_MOVES = ("touched_ball", "touched_ball_placing", "dropped_object",
                       "measuring_device", "jump_masse_moved_ball")
# Infractions that can be committed between shots, with no stroke (an empty event log): the
# others describe a stroke (its tip, foot, timing, jump or a ball it sent) and are declared
# with that shot's events. 1.11 the time limit; 3.21, 3.22 touching a ball; 3.25 a dropped
# object; 3.40 a stroke while placing the cue ball (not a shot); 3.41-3.43 interference, a
# measuring device, a marked table.
BETWEEN_SHOTS = ("slow_play", "touched_ball", "touched_ball_placing", "dropped_object",
                 "placing_stroke", "interference", "measuring_device", "table_marking")
# Infractions only the shooter's own stroke commits: how the cue met the cue ball (3.3 not the
# tip, 3.23 a double hit, 3.24 a push shot, 3.26 a scooped jump, 3.27 a jump miscue, 3.29 struck
# deliberately with something else), his stance and timing (3.13 no foot on the floor, 3.14
# balls still moving), the cue ball he stopped or deflected on his break (3.9), a ball his
# stroke drove off the table (3.28) or moved while jumping or curving round it (4.18, 5.12,
# 1.16.2). They are declared with that shot's events (not between shots, BETWEEN_SHOTS), and
# never against the non-shooting player: a stroke he plays or a ball he sets moving out of turn
# is his interference (3.41). The other codes are BETWEEN_SHOTS and 6.7.5's
# deliberate_interference (by either player, in the shot or on its own).
STROKE_ONLY = ("cue_not_tip", "break_cue_interference", "foot_on_floor", "balls_moving",
               "double_hit", "push_shot", "illegal_jump", "jump_miscue", "off_table",
               "intentional_foul", "jump_masse_moved_ball")
# The acts of the player at the table, which the other player cannot commit: his stroke
# (STROKE_ONLY), his time between shots (1.11: the time limit runs for the player at the table)
# and placing his cue ball in hand (3.22, 3.40)
SHOOTER_ONLY = (*STROKE_ONLY, "slow_play", "touched_ball_placing", "placing_stroke")
# The foul only the non-shooting player commits: 3.41, interference ("if the player not
# shooting distracts his opponent or interferes with his play")
NON_SHOOTER_ONLY = ("interference",)
# Infractions whose first occurrence in a match brings a warning, the second loss of match.
MATCH_WARNING_CODES = ("break_cue_interference", "intentional_foul")
# Infractions that need a state of the game, else they cannot have happened: placing the cue
# ball in hand (3.22 an object ball touched, 3.40 a forward stroke) needs ball in hand; 3.9
# (the cue ball stopped or deflected on the break) needs the break.
WITH_BALL_IN_HAND = ("touched_ball_placing", "placing_stroke")
ON_THE_BREAK = ("break_cue_interference",)


def check_possible(infractions: list[Infraction], state: PoolState,
                   overrides: dict[str, str] | None = None,
                   events: list[Event] | None = None) -> None:
    """A ValueError for a declared infraction the game's state at the shot (or between shots)
    or the shot's event log (`events`) rules out: one of SHOOTER_ONLY naming the non-shooting
    player, 3.41's interference (NON_SHOOTER_ONLY) naming the shooter (or no one: the
    shooter), fouls of both players in one step (each changes who is at the table, so their
    order decides the ruling: one step each), WITH_BALL_IN_HAND while the shooter has no ball
    in hand, ON_THE_BREAK after the break, and 3.9 on a break whose log has the cue ball never
    crossing the head string."""
    shooter, other = state.shooter, state.opponent()
    mine = [inf for inf in infractions if not inf.player or inf.player == shooter]
    theirs = [inf for inf in infractions if inf.player and inf.player != shooter]
    for inf in infractions:
        article = (overrides or {}).get(inf.code, INFRACTIONS[inf.code][0])
        if inf.code in SHOOTER_ONLY and inf.player and inf.player != shooter:
            raise ValueError(f"infraction {inf.code!r} ({article}) names {inf.player}, who is "
                             f"not at the table: it is a foul of the shooter ({shooter}) alone; "
                             "the non-shooting player's foul is 'interference' (WPA 3.41)")
        if inf.code in NON_SHOOTER_ONLY and (not inf.player or inf.player == shooter):
            raise ValueError(f"infraction {inf.code!r} ({article}) is a foul of the non-shooting "
                             f"player: its player must name {other}, not the shooter "
                             f"{shooter} (an empty player is the shooter)")
    if mine and theirs:
        raise ValueError(f"infractions of both players in one step ({mine[0].code!r} of the "
                         f"shooter {shooter}, {theirs[0].code!r} of {other}): each foul ends "
                         "or changes the turn (WPA 3.17, 3.41), so the one that came first "
                         "decides who is at the table for the other; give each player's in a "
                         "step of its own, in the order they happened")
    for inf in infractions:
        article = (overrides or {}).get(inf.code, INFRACTIONS[inf.code][0])
        if inf.code in WITH_BALL_IN_HAND and not state.ball_in_hand:
            raise ValueError(f"infraction {inf.code!r} ({article}) happens while the cue ball "
                             f"is in hand, and {state.shooter} has no ball in hand")
        if inf.code in ON_THE_BREAK and state.phase != "break":
            raise ValueError(f"infraction {inf.code!r} ({article}) happens on the break, and "
                             "this shot is not the break")
        if inf.code == "break_cue_interference" and events \
                and not ShotFacts.from_events(events).cue_left_kitchen_before(None):
            raise ValueError(f"infraction {inf.code!r} ({article}) stops or deflects the cue "
                             "ball after it crossed the head string, and the event log has it "
                             "never crossing (no 'line' event of the cue ball on "
                             "'head_string' with direction +1)")


def declared_violations(infractions: list[Infraction], state: PoolState, shooter: str,
                        overrides: dict[str, str] | None = None) -> list[Violation]:
    """The shooter's declared infractions as violations; balls off the table (3.28) make one
    violation however many are declared. The 3.9 and 3.29 offences carry a
    warning the first time in a match and loss of the match the second time; the state's
    match_warnings is updated by the caller through `warn_match`."""
    out = []
    off = [inf for inf in infractions if inf.code == "off_table"]
    for inf in infractions:
        if inf.code == "off_table":
            continue
        article, text = INFRACTIONS[inf.code]
        if overrides and inf.code in overrides:
            article = overrides[inf.code]
        if inf.pieces:
            text += f" ({', '.join(inf.pieces)})"
        consequence = FOUL
        if inf.code in MATCH_WARNING_CODES and inf.code in state.match_warnings.get(shooter, []):
            consequence = LOSS_OF_MATCH
            text += "; second such offence in the match (3.29)"
        out.append(Violation(article, text, consequence))
    if off:  # 3.28 once, however many balls or declarations
        balls = list(dict.fromkeys(b for inf in off for b in inf.pieces))
        article = (overrides or {}).get("off_table", INFRACTIONS["off_table"][0])
        text = (f"{named('ball', balls)} off the table" if balls
                else INFRACTIONS["off_table"][1])
        out.append(Violation(article, text, FOUL))
    return out


def warn_match(state: PoolState, shooter: str, infractions: list[Infraction],
               ruling: Ruling) -> None:
    """Record the once-per-match warnings of 3.9 and 3.29 (the next one loses the match)."""
    for inf in infractions:
        if inf.code in MATCH_WARNING_CODES:
            seen = state.match_warnings.setdefault(shooter, [])
            if inf.code not in seen:
                seen.append(inf.code)
                ruling.notes.append(f"Warning to {shooter}: a second such offence in this "
                                    f"match loses the match (WPA 3.29)")


def placement_violations(state: PoolState, initial: Layout | None,
                         facts: ShotFacts) -> list[Violation]:
    """Cue ball in hand behind the head string (3.10, 3.16, 3.39): the head string of the
    table the layout is on (a quarter of its length from the head rail, 3.16)."""
    if state.ball_in_hand != "kitchen" or not facts.stroke:
        return []
    out = []
    marks = marks_of(initial)
    if initial is not None and CUE in initial.ids():
        cue = initial.get(CUE)
        if not marks.in_kitchen(cue.y):
            out.append(Violation("WPA 3.16", "the cue ball in hand was placed on or beyond the "
                                 "head string (2.21, 3.10)", FOUL))
    t_hit = facts.first_hit_t
    if t_hit is None:
        if not facts.cue_left_kitchen_before(None):
            out.append(Violation("WPA 3.10", "the cue ball from the kitchen did not cross the "
                                 "head string", FOUL))
        return out
    # balls hit at once (2.10): the shooter has the benefit of the doubt, so one of them on or
    # beyond the head string makes the contact a legal one
    behind = [b for b in facts.first_hits if initial is not None and b in initial.ids()
              and marks.in_kitchen(initial.get(b).y)]
    if behind and len(behind) == len(facts.first_hits) \
            and not facts.cue_left_kitchen_before(t_hit):
        out.append(Violation("WPA 3.39", f"the cue ball hit ball {behind[0]} behind the head "
                             "string before leaving the kitchen", FOUL))
    elif initial is not None:
        # 3.39: "... if before leaving the kitchen the cue ball touches any object ball lying in
        # the kitchen": a later contact too (with a ball still where it lay: nothing had met
        # it), after a first one on or just beyond the head string
        met: set[str] = set()
        for e in facts.events:
            if e.kind != EventKind.COLLIDE or e.t <= t_hit + SIMULTANEOUS_S:
                met.update((e.a, e.b) if e.kind == EventKind.COLLIDE else ())
                continue
            ball = e.b if e.a == CUE else e.a if e.b == CUE else None
            if ball is not None and ball not in met and ball in initial.ids() \
                    and marks.in_kitchen(initial.get(ball).y) \
                    and not facts.cue_left_kitchen_before(e.t):
                out.append(Violation("WPA 3.39", f"the cue ball touched ball {ball} behind the "
                                     "head string before leaving the kitchen", FOUL))
                break
            met.update((e.a, e.b))
    return out


def stroke_violations(facts: ShotFacts) -> list[Violation]:
    """Scratch (3.20), the cue ball touching a pocketed ball (3.20) and a stroke on a ball
    other than the cue ball (3.21). Balls off the table (3.28) come in declared and are cited
    once, by `declared_violations`."""
    out = []
    if facts.struck is not None and facts.struck != CUE:
        out.append(Violation("WPA 3.21", f"the cue tip struck ball {facts.struck}, not the cue "
                             "ball", FOUL))
    if facts.cue_pocketed:
        out.append(Violation("WPA 3.20", "the cue ball was pocketed (scratch)", FOUL))
    hit = facts.cue_hit_pocketed_ball()
    if hit:
        out.append(Violation("WPA 3.20", f"the cue ball touched ball {hit} after it was "
                             "pocketed", FOUL))
    return out


def first_hit_violation(facts: ShotFacts, legal: set[str], article: str,
                        what: str) -> list[Violation]:
    """No contact (3.18) or a wrong first ball (3.19 and the games' versions)."""
    if not facts.first_hits:
        return [Violation("WPA 3.18", f"the cue ball hit no ball ({what} required)", FOUL)]
    ball = facts.first_legal_hit(legal)
    if ball not in legal:
        return [Violation(article, f"the cue ball hit ball {ball} first; {what} required", FOUL)]
    return []


def rail_violation(facts: ShotFacts, article: str) -> list[Violation]:
    """After the contact a numbered ball must drop or the cue ball or a numbered ball must
    reach a cushion (3.19 (a), (b); 4.11, 5.9, 6.7.2)."""
    if not facts.first_hits:
        return []
    if facts.object_pocketed or facts.rail_after_contact() or met_unwarned(facts):
        return []
    return [Violation(article, "no ball was pocketed and no ball reached a cushion after the "
                      "contact", FOUL)]


TABLE_RAILS = ("head", "foot", "left", "right")


def touching_cushions(layout: Layout | None, ids: Iterable[str] | None = None
                      ) -> dict[str, str]:
    """The balls of the layout (those named in `ids`, or all) touching a cushion: within
    FROZEN_TOLERANCE of a cushion's nose or of the jaw it turns into (WPA 3.38 'frozen';
    `PoolTable.cushion_gap`), each with the table rail ('head', 'foot', 'left', 'right') of the
    nearest cushion. Only a ball whose centre lies within a ball radius and that tolerance of
    the bed's edge can touch one, so the table is built only when one does."""
    if layout is None:
        return {}
    wanted = None if ids is None else set(ids)
    marks = marks_of(layout)
    near = []  # (piece, the rails whose line it lies along: a jaw lies beyond its rail's line)
    for p in layout.pieces:
        if wanted is None or p.id in wanted:
            rails = [r for r, d in marks.rail_distance(p.x, p.y).items()
                     if d - BALL_RADIUS <= FROZEN_TOLERANCE]
            if rails:
                near.append((p, rails))
    if not near:
        return {}
    table = _table_named(layout.table)
    out = {}
    for p, rails in near:
        gap, rail = min((table.cushion_gap(p.x, p.y, r), r) for r in rails)
        if gap <= FROZEN_TOLERANCE:
            out[p.id] = rail
    return out


@functools.lru_cache(maxsize=8)
def _table_named(name: str) -> Any:
    """The pool table a layout names, built once (its geometry does not change)."""
    from cuesim.rules.files import table_of

    return table_of(Layout(name, ()), "layout")


def announced_frozen(layout: Layout | None) -> dict[str, str]:
    """The referee's announcement before a simulated shot (3.38: "the referee or a player must
    inspect the ball and announce that it touches the cushion"): every object ball touching a
    cushion, with its table rail, as `declaration.frozen` takes it."""
    return {b: rail for b, rail in touching_cushions(layout).items() if b != CUE}


def rails_touched_at_start(initial: Layout | None, frozen: dict[str, str]) -> dict[str, str]:
    """The balls touching a cushion at the start of the shot, with the table rail of that
    cushion (3.38's note): object balls as announced (`declaration.frozen`: an unannounced
    ball is not frozen, 3.38), the cue ball as announced or as it lies (`touching_cushions`)."""
    out = {ball: rail_of(cushion) for ball, cushion in frozen.items()}
    if CUE not in out:
        out.update(touching_cushions(initial, [CUE]))
    return out


def unwarned_at_cushion(initial: Layout | None, frozen: dict[str, str]) -> set[str]:
    """The object balls touching a cushion at the start (`touching_cushions`) that the
    declaration does not announce (`declaration.frozen`): the referee did not warn that they
    touch it, so any contact with one counts as having driven it to the rail (2.16)."""
    if initial is None:
        return set()
    return set(touching_cushions(initial, [b for b in initial.ids() if b != CUE])) - set(frozen)


def met_unwarned(facts: ShotFacts) -> set[str]:
    """The balls of `unwarned_at_cushion` (touching a cushion, not announced) that a ball met at
    or after the first contact: each counts as driven to the rail (2.16)."""
    if facts.first_hit_t is None:
        return set()
    unwarned = unwarned_at_cushion(facts.initial, facts.announced)
    return {b for e in facts.events if e.kind == EventKind.COLLIDE
            and e.t >= facts.first_hit_t for b in (e.a, e.b) if b in unwarned}


def frozen_to_cue(initial: Layout | None, ball: str) -> bool:
    if initial is None or CUE not in initial.ids() or ball not in initial.ids():
        return False
    c, b = initial.get(CUE), initial.get(ball)
    return frozen(c.x, c.y, b.x, b.y)


def frozen_rule_applies(facts: ShotFacts, frozen_rails: dict[str, str],
                        initial: Layout | None) -> str | None:
    """The first ball hit, if 3.38 governs the shot: it was announced frozen to a cushion or
    it touches the cue ball."""
    if not facts.first_hits:
        return None
    ball = facts.first_hits[0]
    if ball in frozen_rails or frozen_to_cue(initial, ball):
        return ball
    return None


def frozen_violation(facts: ShotFacts, frozen_rails: dict[str, str],
                     initial: Layout | None) -> list[Violation] | None:
    """3.38 for a shot whose first contact is a frozen ball: after the contact a ball must be
    pocketed, or the cue ball must reach a cushion, or the frozen ball a separate rail (its own
    rail counts only after it left, hit another ball and came back), or another object ball a
    rail it was not touching. Returns None when 3.38 does not govern the shot."""
    ball = frozen_rule_applies(facts, frozen_rails, initial)
    if ball is None:
        return None
    t0 = facts.first_hit_t or 0.0
    if facts.object_pocketed or any(facts.driven(e) for e in facts.rails_of(CUE, t0)):
        return []
    own = rail_of(frozen_rails[ball]) if ball in frozen_rails else None
    for e in facts.rails_of(ball, t0):
        if own is None or rail_of(e.feature or "") != own:
            return []
        if _hit_other_between(facts, ball, t0, e.t):
            return []
    for e in facts.events:
        if e.kind == EventKind.RAIL and e.t >= t0 and e.a not in (CUE, ball):
            was = frozen_rails.get(e.a)
            if was is None or rail_of(was) != rail_of(e.feature or ""):
                return []
    return [Violation("WPA 3.38", f"ball {ball} was frozen; after the contact no ball was "
                      "pocketed and no ball reached a cushion it was not touching", FOUL)]


def _hit_other_between(facts: ShotFacts, ball: str, t0: float, t1: float) -> bool:
    """The ball hit a ball other than the cue ball between t0 and t1 (3.38: a frozen ball's
    own rail counts only after it came off, hit another ball and came back)."""
    for e in facts.events:
        if t0 < e.t < t1 and e.kind == EventKind.COLLIDE and ball in (e.a, e.b):
            if CUE not in (e.a, e.b):
                return True
    return False


def jammed_events(events: list[Event], jammed: dict[str, str]) -> list[Event]:
    """3.33: balls jammed in a pocket's jaws that the referee judges would drop are pocketed;
    they are added as POCKET events after the last event."""
    if not jammed:
        return list(events)
    t = max((e.t for e in events), default=0.0)
    extra = [Event(t=t, kind=EventKind.POCKET, a=b, feature=p) for b, p in jammed.items()]
    return list(events) + extra


def spot_into(layout: Layout, ball_ids: list[str], article: str,
              kind: str = "ball") -> tuple[Layout, list[dict]]:
    """Spot balls on the long string by 3.32 into the layout (the long string and foot spot of
    the table the layout is on); returns the new layout and the {"id", "x", "y", "article"}
    records."""
    if not ball_ids:
        return layout, []
    others = [(p.id, p.x, p.y) for p in layout.pieces if p.id not in ball_ids]
    placed = marks_of(layout).spot_balls(ball_ids, others)
    out = layout.without(ball_ids, missing_ok=True)
    records = []
    for bid, x, y in placed:
        out = out.with_piece(Piece(bid, kind, x, y, ball_group(bid)))
        records.append({"id": bid, "x": x, "y": y, "article": article})
    return out, records


def ball_group(ball_id: str) -> str:
    if ball_id == CUE:
        return "cue"
    n = int(ball_id)
    return "solids" if n < 8 else ("eight" if n == 8 else "stripes")


def put_back_hand_moved(layout: Layout, initial: Layout | None,
                        infractions: list[Infraction], facts: ShotFacts
                        ) -> tuple[Layout, list[dict], list[str]]:
    """3.21: the object balls the shooter's declared hand moves (`RESTORED_HAND_MOVES`)
    disturbed go back to their places before the shot. A ball the stroke moved as well (an
    event of its own) has no such place to go back to, and one whose place another ball now
    covers stays where it lies (the referee's judgement, said in a note). Returns the layout,
    {"id", "x", "y", "article"} records and the notes."""
    if initial is None:
        return layout, [], []
    by_stroke = {b for e in facts.events for b in (e.a, e.b) if b}
    records, notes = [], []
    for inf in infractions:
        if inf.code not in RESTORED_HAND_MOVES:
            continue
        for b in inf.pieces:
            if b == CUE or b not in initial.ids() or b not in layout.ids():
                continue
            was, now = initial.get(b), layout.get(b)
            if (was.x, was.y) == (now.x, now.y):
                continue
            if b in by_stroke:
                notes.append(f"Ball {b} was moved by the stroke as well: it stays where it lies "
                             "(WPA 3.21)")
            elif any(math.hypot(p.x - was.x, p.y - was.y) < 2.0 * BALL_RADIUS - 1e-9
                     for p in layout.pieces if p.id != b):
                notes.append(f"The place of ball {b} is taken: it stays where it lies (WPA 3.21)")
            else:
                layout = layout.with_piece(replace(now, x=was.x, y=was.y))
                records.append({"id": b, "x": was.x, "y": was.y, "article": "WPA 3.21"})
                notes.append(f"Ball {b}, disturbed by the foul, goes back where it was (WPA 3.21)")
    return layout, records, notes


def next_breaker(state: PoolState, frame_winner: str) -> str:
    """Who breaks the next game (3.36, 4.4, 5.3): the winner by default; alternate breaks; the
    loser; or the player behind in games (a tie: alternate)."""
    loser = state.opponent(frame_winner)
    order = state.break_order
    if order == "winner":
        return frame_winner
    if order == "loser":
        return loser
    if order == "trailing":
        a, b = state.players
        wa, wb = state.frames_won.get(a, 0), state.frames_won.get(b, 0)
        if wa != wb:
            return a if wa < wb else b
    return state.opponent(state.breaker)


# --- The lag for the break (3.6) ------------------------------------------------------------
@dataclass
class LagResult:
    """The lag: the winner (None = re-lag), and each player's losing reasons."""

    winner: str | None
    faults: dict[str, list[Violation]] = field(default_factory=dict)
    distance: dict[str, float] = field(default_factory=dict)  # from the head cushion (m)
    ruling: Ruling | None = None


def adjudicate_lag(events: list[Event], final: Layout, balls: dict[str, str],
                   off_table: tuple[str, ...] = ()) -> LagResult:
    """Both players lag at once from behind the head string to the foot rail and back; the
    ball that stops nearest the head cushion wins (3.6). `balls` maps each player to the id of
    his ball. A ball loses automatically if it (a) crosses into the opponent's half (a
    'long_string' LINE event), (b) does not touch the foot rail, (c) is pocketed, (d) leaves
    the table (declared in off_table), (e) touches a long rail, (f) stops in the jaws of a
    corner pocket beyond the head cushion's nose, (g) touches the foot rail more than once.
    Both losing, or equal distances: a re-lag."""
    faults: dict[str, list[Violation]] = {}
    dist: dict[str, float] = {}
    for player, ball in balls.items():
        mine = [e for e in events if e.a == ball]
        v = []
        if any(e.kind == EventKind.LINE and e.feature == LONG_STRING_LINE for e in mine):
            v.append(Violation("WPA 3.6 (a)", "the ball crossed into the opponent's half"))
        foot = [e for e in mine if e.kind == EventKind.RAIL and rail_of(e.feature or "") ==
                "foot"]
        if not foot:
            v.append(Violation("WPA 3.6 (b)", "the ball did not touch the foot rail"))
        if any(e.kind == EventKind.POCKET for e in mine):
            v.append(Violation("WPA 3.6 (c)", "the ball was pocketed"))
        if ball in off_table:
            v.append(Violation("WPA 3.6 (d)", "the ball left the table"))
        if any(e.kind == EventKind.RAIL and rail_of(e.feature or "") in ("left", "right")
               for e in mine):
            v.append(Violation("WPA 3.6 (e)", "the ball touched a long rail"))
        if ball in final.ids():
            p = final.get(ball)
            dist[player] = p.y
            if p.y < BALL_RADIUS - FROZEN_TOLERANCE:
                v.append(Violation("WPA 3.6 (f)", "the ball stopped in a corner pocket's jaws "
                                   "beyond the head cushion"))
        elif not any(x.article.startswith("WPA 3.6 (c)") or x.article.startswith("WPA 3.6 (d)")
                     for x in v):
            raise ValueError(f"lag: ball {ball!r} is neither in the final layout nor pocketed "
                             "nor declared off the table")
        if len(foot) > 1:
            v.append(Violation("WPA 3.6 (g)", "the ball touched the foot rail more than once"))
        faults[player] = v
    players = list(balls)
    ok = [p for p in players if not faults[p]]
    winner: str | None = None
    if len(ok) == 1:
        winner = ok[0]
    elif len(ok) == 2 and abs(dist[ok[0]] - dist[ok[1]]) > 1e-9:
        winner = min(ok, key=lambda p: dist[p])
    ruling = Ruling(legal=winner is not None, winner=winner,
                    violations=[v for p in players for v in faults[p]])
    if winner is None:
        ruling.notes.append("Lag tied or both lost: lag again (WPA 3.6)")
    else:
        ruling.next_player = winner
        ruling.notes.append(f"{winner} wins the lag and breaks or passes the break (WPA 3.7)")
    return LagResult(winner, faults, dist, ruling)


def balls_to_rail_text(n: int) -> str:
    """How many numbered balls reached a cushion on a break, in words (4.5, 5.4): 'no numbered
    ball', 'only 1 numbered ball', 'only 3 numbered balls'."""
    if n == 0:
        return "no numbered ball"
    return f"only {n} numbered ball{'s' if n != 1 else ''}"
