"""The common frame of the three pool referees: state keeping, the incoming player's choices,
consecutive fouls with the warning, fouls between shots (3.17), fouls by the non-shooting
player (3.41), the end of a game and of the match (3.36), and building the table for the next
shot (spotting, 3.32)."""

from __future__ import annotations

from typing import Any

from cuesim.rules.api_checks import MAX_MATCH, check_args, check_fields, check_names, require
from cuesim.rules.event_log import (
    check_event_log,
    check_one_strike,
    check_reach,
    check_simulated,
    pieces_set_moving,
)
from cuesim.rules.files import hand_moved, table_of
from cuesim.rules.pool.checks import check_shot_geometry
from cuesim.rules.pool.facts import ShotFacts
from cuesim.rules.pool.general import (
    BETWEEN_SHOTS,
    FOUL,
    HAND_MOVES,
    INFRACTIONS,
    LOSS_OF_GAME,
    LOSS_OF_MATCH,
    check_possible,
    declared_violations,
    jammed_events,
    next_breaker,
    placement_violations,
    put_back_hand_moved,
    rails_touched_at_start,
    spot_into,
    stroke_violations,
    warn_match,
)
from cuesim.rules.pool.model import (
    BREAK_ORDERS,
    CUE,
    Outcome,
    PoolShot,
    PoolState,
    check_state,
)
from cuesim.rules.ruling import Infraction, Ruling, Violation
from cuesim.sim.events import EventKind
from cuesim.tables.layout import Layout
from cuesim.tables.pool_spots import POCKETS

SEVERITY = {FOUL: 1, LOSS_OF_GAME: 2, LOSS_OF_MATCH: 3}


def effect(shooter: str, ball_in_hand: str | None = None, rerack: bool = False) -> dict[str, Any]:
    """One option of a pending choice: who shoots next, from where, and whether to re-rack."""
    return {"shooter": shooter, "ball_in_hand": ball_in_hand, "rerack": rerack}


class PoolGame:
    """Base of EightBall, NineBall and StraightPool. Holds the state; `play(shot)` rules on one
    shot and `choose(option)` applies a pending choice; both return an Outcome and advance
    `self.state`."""

    name = "pool"
    ball_ids: tuple[str, ...] = (CUE, *(str(n) for n in range(1, 16)))
    rack_name = "eight_ball"
    game_ball: str | None = None  # the ball whose pocketing ends the game (the 8, the 9)
    infraction_articles: dict[str, str] = {}
    has_push_out = False  # 9-ball alone has the push-out (5.6)
    has_stalemate = False  # 8-ball alone has the stalemate (4.21)
    # the article that defines the game's legal opening break (rulebooks/pool_wpa_ru.txt): a
    # legal break's ruling says so in its first note
    break_article: str | None = None
    # where the rules say a game begins with the opening break's stroke (9-ball alone says it)
    game_begins = "as WPA 5.14 has it for 9-ball"

    def __init__(self, players: tuple[str, str] | list[str] = ("A", "B"),
                 breaker: str | None = None, race_to: int = 1, break_order: str = "winner",
                 points_to: int = 150, state: PoolState | None = None) -> None:
        check_args(PoolGame.__init__, players=players, breaker=breaker, race_to=race_to,
                   break_order=break_order, points_to=points_to, state=state)
        if state is not None:
            if state.game != self.name:
                raise ValueError(f"state is for game {state.game!r}, not {self.name!r}")
            check_state(state)
            self.state = state.copy()
            return
        check_names(players, "players")
        players = [str(p) for p in players]
        if len(players) != 2 or players[0] == players[1]:
            raise ValueError(f"two different players are needed, got {players}")
        breaker = players[0] if breaker is None else breaker
        if breaker not in players:
            raise ValueError(f"breaker {breaker!r} is not one of the players {players}")
        if break_order not in BREAK_ORDERS:
            raise ValueError(f"break_order must be one of {list(BREAK_ORDERS)}, got "
                             f"{break_order!r}")
        if not (1 <= race_to <= MAX_MATCH and 1 <= points_to <= MAX_MATCH):
            raise ValueError(f"race_to and points_to must be 1 to {MAX_MATCH}, got {race_to} "
                             f"and {points_to}")
        self.state = PoolState(
            game=self.name, players=players, shooter=breaker, breaker=breaker,
            fouls={p: 0 for p in players}, warned={p: False for p in players},
            frames_won={p: 0 for p in players}, race_to=race_to, break_order=break_order,
            scores={p: 0 for p in players}, points_to=points_to,
        )

    # -- public entry points --------------------------------------------------------------
    def choose(self, option: str) -> Outcome:
        """The incoming player answers the pending option."""
        require(option, str, "option")
        st = self.state.copy()
        out = self._apply_choice(st, option)
        self.state = out.state
        return out

    def play(self, shot: PoolShot) -> Outcome:
        """Rule on one shot (after applying declaration.choice if an option is pending)."""
        check_fields(shot, PoolShot, "shot", items=("infractions",))
        st = self.state.copy()
        if st.phase == "match_over":
            raise ValueError(f"the match is over (won by {st.winner}); no more shots")
        self.validate(shot)
        decl = shot.declaration
        prefix: Outcome | None = None
        if st.pending is not None:
            if decl.choice is None:
                raise ValueError(f"{st.pending['player']} must choose first "
                                 f"({st.pending['article']}): declaration.choice one of "
                                 f"{sorted(st.pending['options'])}")
            prefix = self._apply_choice(st, decl.choice)
            st = prefix.state.copy()
        elif decl.choice is not None:
            raise ValueError(f"declaration.choice {decl.choice!r} given but no choice is pending")
        if not shot.events and not shot.infractions and not decl.stalemate:
            if prefix is None:
                raise ValueError("the shot has no events, infractions, choice or stalemate: "
                                 "nothing to rule on")
            self.state = prefix.state
            return prefix
        if shot.events and shot.initial is not None:
            self.check_table_in_play(st, shot.initial)
        check_possible(shot.infractions, st, self.infraction_articles, shot.events)
        others = [i for i in shot.infractions if i.player and i.player != st.shooter]
        off = [p for i in shot.infractions if i.code == "off_table" for p in i.pieces]
        if others:
            out = self._non_shooter_foul(st, shot, others)
        elif decl.stalemate:
            out = self._stalemate(st, shot)
        elif not shot.events:
            out = self._foul_between_shots(st, shot, ShotFacts.from_events([], off))
        else:
            facts = ShotFacts.from_events(jammed_events(shot.events, decl.jammed), off)
            facts.at_rail = rails_touched_at_start(shot.initial, decl.frozen)
            facts.initial, facts.announced = shot.initial, dict(decl.frozen)
            breaking = st.phase == "break"
            out = self._rule(st, shot, facts)
            if breaking and self.break_article and out.ruling.legal and not out.ruling.violations:
                out.ruling.notes.insert(0, f"a legal break ({self.break_article})")
        if prefix is not None:
            out.ruling.notes[:0] = prefix.ruling.notes
        self.state = out.state
        return out

    # -- validation ----------------------------------------------------------------------
    def validate(self, shot: PoolShot) -> None:
        """Unknown ball ids, pockets, infraction codes and inconsistent calls (a pocket called
        without its ball, 3.4, 4.2; a stalemate, 4.21, with a shot: `check_stalemate_alone`)
        raise a ValueError naming the problem."""
        ids = set(self.ball_ids)

        def check(bid: str | None, where: str) -> None:
            if bid is not None and bid not in ids:
                raise ValueError(f"{where}: unknown ball id {bid!r} for {self.name}; ball ids "
                                 f"are {list(self.ball_ids)}")

        for k, e in enumerate(shot.events):
            check(e.a, f"events[{k}].a")
            check(e.b, f"events[{k}].b")
            if e.kind == EventKind.POCKET and e.feature not in POCKETS:
                raise ValueError(f"events[{k}]: unknown pocket {e.feature!r}; pockets are "
                                 f"{sorted(POCKETS)}")
        for name in ("initial", "final"):
            layout = getattr(shot, name)
            if layout is not None:
                for p in layout.pieces:
                    check(p.id, f"{name} layout")
        decl = shot.declaration
        if decl.push_out and not self.has_push_out:
            raise ValueError(f"declaration.push_out: a push-out is 9-ball's (WPA 5.6); "
                             f"{self.name} has none")
        check(decl.called_ball, "declaration.called_ball")
        if decl.called_pocket is not None and decl.called_pocket not in POCKETS:
            raise ValueError(f"declaration.called_pocket: unknown pocket {decl.called_pocket!r};"
                             f" pockets are {sorted(POCKETS)}")
        if decl.called_pocket is not None and decl.called_ball is None:
            raise ValueError(f"declaration.called_pocket {decl.called_pocket!r} without "
                             "declaration.called_ball: a call names the ball and the pocket "
                             "(WPA 3.4, 4.2); give called_ball too, or neither")
        if decl.stalemate and not self.has_stalemate:
            raise ValueError(f"declaration.stalemate: a stalemate (WPA 4.21) is an 8-ball "
                             f"ruling; {self.name} has none")
        if decl.stalemate:
            check_stalemate_alone(shot)
        for b in decl.frozen:
            check(b, "declaration.frozen")
        for b, p in decl.jammed.items():
            check(b, "declaration.jammed")
            if p not in POCKETS:
                raise ValueError(f"declaration.jammed: unknown pocket {p!r}")
        check_shot_geometry(shot)
        # the balls the stroke set moving: struck, or in a collision (check_event_log: with a
        # moving piece), or moved by a hand (a declared infraction); only these can leave the
        # table (3.28). With no events, a stroke's infraction is refused below (3.17)
        moved = pieces_set_moving(shot.events) | hand_moved(shot.infractions, HAND_MOVES)
        for inf in shot.infractions:
            if inf.code not in INFRACTIONS:
                raise ValueError(f"unknown infraction code {inf.code!r}; codes are "
                                 f"{sorted(INFRACTIONS)}")
            for b in inf.pieces:
                check(b, f"infraction {inf.code}")
                # a ball touched, moved or sent off the table (3.28) was on it before the shot
                if shot.initial is not None and b not in shot.initial.ids():
                    raise ValueError(f"infraction {inf.code} names ball {b!r}, which is not on "
                                     "the table before the shot (initial layout)")
                if inf.code == "off_table" and shot.final is not None and b in shot.final.ids():
                    raise ValueError(f"infraction off_table names ball {b!r}, which is on the "
                                     "table after the shot (final layout)")
                if inf.code == "off_table" and any(e.kind == EventKind.POCKET and e.a == b
                                                   for e in shot.events):
                    raise ValueError(f"infraction off_table names ball {b!r}, which a pocket "
                                     "event puts in a pocket: a ball leaves the table one way")
                if inf.code == "off_table" and shot.events and b not in moved:
                    raise ValueError(f"infraction off_table names ball {b!r}, which nothing in "
                                     "the event log set in motion (no strike of it, no "
                                     "collision): a ball leaves the table (WPA 3.28) only "
                                     "when the stroke drives it, so declare it with that "
                                     "shot's events")
            if inf.player and inf.player not in self.state.players:
                raise ValueError(f"infraction {inf.code}: player {inf.player!r} is not one of "
                                 f"{self.state.players}")
        if shot.events and shot.initial is None:
            raise ValueError("a shot with events needs its initial layout")
        if shot.initial is not None and shot.final is not None:  # a ball leaves the bed into
            # a pocket (an event) or over the rail, which the log declares (3.28)
            gone = set(shot.initial.ids()) - set(shot.final.ids())
            gone -= {e.a for e in shot.events if e.kind == EventKind.POCKET}
            gone -= {b for i in shot.infractions if i.code == "off_table" for b in i.pieces}
            if gone:
                raise ValueError(f"ball {sorted(gone)[0]!r} is on the table before the shot "
                                 "(initial layout) and not after it (final layout), and neither "
                                 "a pocket event nor infraction off_table (3.28) says where it "
                                 "went")
        # (a lag, two strikes, is adjudicate_lag's)
        check_one_strike(shot.events, " (a cue that touches the ball again is the declared "
                                      "double_hit)")
        if shot.result is not None:  # the simulation's own log, as shot_from_result made it
            check_simulated(shot.events, shot.initial, shot.final, shot.result, "shot")
        elif shot.events:  # a hand-written log that cannot have happened is refused
            table = table_of(shot.initial, "shot.initial")
            check_event_log(shot.events, list(shot.initial.ids()), "shot", table, pins=False)
            check_reach(shot.events, shot.initial, table, "shot",
                        hand_moved(shot.infractions, HAND_MOVES))

    def check_table_in_play(self, st: PoolState, initial: Layout) -> None:
        """A shot is played on a table where the game goes on: an object ball on it and the
        game ball (`game_ball`: the 8 in 8-ball, 4.1; the 9 in 9-ball, 5.3) not yet down. A
        ValueError says what the initial layout lacks. (A break is not checked against the
        full rack, `racks.check_rack`: scenarios write a break with the balls it concerns.)"""
        objects = [b for b in initial.ids() if b != CUE]
        if not objects:
            raise ValueError("initial: the layout has no object ball: no game goes on with the "
                             "cue ball alone")
        if self.game_ball is not None and self.game_ball not in objects:
            raise ValueError(f"initial: the layout has no {self.game_ball}: the "
                             f"{self.game_ball}-ball game is over once the {self.game_ball} is "
                             "down (after a foul it is spotted), and its rack holds it")

    # -- hooks for the games ---------------------------------------------------------------
    def _rule(self, st: PoolState, shot: PoolShot, facts: ShotFacts) -> Outcome:
        raise NotImplementedError

    def _foul(self, st: PoolState, shooter: str, shot: PoolShot, facts: ShotFacts,
              ruling: Ruling) -> Outcome:
        """What a foul of the shooter gives the incoming player in this game (4.14, 5.7,
        6.11-6.13), ruling.violations holding the foul's violations."""
        raise NotImplementedError

    def _foul_before_break(self, st: PoolState, shooter: str, ruling: Ruling) -> None:
        """What a foul between shots before the opening break costs beyond the break itself
        (nothing, but in 14.1: 6.11)."""

    def _reset_rack(self, st: PoolState) -> None:
        """Frame state that a new rack clears (groups, push-out, ...)."""

    def _stalemate(self, st: PoolState, shot: PoolShot) -> Outcome:
        raise ValueError(f"a stalemate (4.21) is an 8-ball ruling, not {self.name}")

    def _non_shooter_penalty(self, st: PoolState, offender: str, ruling: Ruling,
                             infractions: list[Infraction]) -> None:
        """What a foul of the non-shooting player costs him (default: the shooter gets ball
        in hand anywhere and keeps shooting; before the opening break, which is played from
        behind the head string whatever happened, 3.8, 4.14, 5.2, he keeps it there)."""
        if st.phase == "break":
            st.ball_in_hand = "kitchen"
            ruling.notes.append("The opening break is played from behind the head string "
                                "(WPA 3.8)")
            return
        st.ball_in_hand = "table"

    # -- shared machinery ----------------------------------------------------------------
    def _apply_choice(self, st: PoolState, option: str) -> Outcome:
        pending = st.pending
        if pending is None:
            raise ValueError(f"no choice is pending; {option!r} cannot be applied")
        if option not in pending["options"]:
            raise ValueError(f"{option!r} is not an option here ({pending['article']}); options "
                             f"are {sorted(pending['options'])}")
        eff = pending["options"][option]
        st.pending = None
        st.shooter = eff["shooter"]
        st.ball_in_hand = eff.get("ball_in_hand")
        rack = None
        if eff.get("rerack"):
            st.phase = "break"
            st.breaker = st.shooter
            st.ball_in_hand = "kitchen"
            self._reset_rack(st)
            rack = self.rack_name
        ruling = Ruling(legal=True, next_player=st.shooter, placement=st.ball_in_hand)
        ruling.notes.append(f"{pending['player']} chooses {option!r} ({pending['article']})")
        return Outcome(ruling, st.copy(), rack=rack)

    def _offer(self, st: PoolState, ruling: Ruling, chooser: str, article: str,
               options: dict[str, dict[str, Any]]) -> None:
        st.pending = {"player": chooser, "article": article, "options": options}
        st.shooter = chooser
        ruling.next_player = chooser
        ruling.notes.append(f"{chooser} to choose ({article}): {', '.join(options)}")

    def _count_foul(self, st: PoolState, player: str, ruling: Ruling, article: str) -> int:
        """Consecutive fouls (5.13, 6.12): a player on two fouls must have been warned
        (2.16), otherwise he counts as on one foul before the shot."""
        n = st.fouls.get(player, 0)
        if n >= 2 and not st.warned.get(player, False):
            n = 1
            ruling.notes.append(f"{player} was not warned of two fouls: counted as one "
                                "(WPA 2.16)")
        n += 1
        st.fouls[player] = n
        if n == 2:
            st.warned[player] = True
            ruling.notes.append(f"Warning ({article}): {player} is on two consecutive fouls")
        return n

    @staticmethod
    def _clear_fouls(st: PoolState, player: str) -> None:
        st.fouls[player] = 0
        st.warned[player] = False

    def _foul_between_shots(self, st: PoolState, shot: PoolShot, facts: ShotFacts) -> Outcome:
        """The shooter's foul with no stroke (declared infractions with an empty event log:
        slow play 1.11, a ball touched 3.21, ... `general.BETWEEN_SHOTS`; one that describes a
        stroke, a double hit 3.23, is refused: ValueError). The declared infractions are its
        only violations: no stroke was played, so none of a stroke's (3.18 no contact, an
        illegal break). The inning ends (3.17 (a); 5.13: "or if he commits a foul between
        shots") and the incoming player has what a foul gives him in this game (1.11). Before
        the opening break the game has not begun (5.14): the opponent breaks instead, from
        behind the head string (3.10), and no consecutive foul is counted."""
        shooter, other = st.shooter, st.opponent()
        for inf in shot.infractions:
            if inf.code not in BETWEEN_SHOTS:
                article = self.infraction_articles.get(inf.code, INFRACTIONS[inf.code][0])
                raise ValueError(f"infraction {inf.code!r} ({article}) happens in a stroke: "
                                 "declare it with that shot's events, not between shots")
        ruling = Ruling(legal=False)  # (none of BETWEEN_SHOTS costs the match: 3.9, 3.29)
        ruling.violations += declared_violations(shot.infractions, st, shooter,
                                                 self.infraction_articles)
        ruling.notes.append("A foul between shots: no stroke was played (WPA 3.17)")
        if st.phase != "break":
            return self._foul(st, shooter, shot, facts, ruling)
        self._foul_before_break(st, shooter, ruling)
        st.shooter = st.breaker = other
        st.ball_in_hand = "kitchen"
        ruling.notes.append(f"The game begins with the break's stroke ({self.game_begins}): "
                            f"{other} breaks instead")
        return self._outcome(st, shooter, shot, facts, ruling)

    def _non_shooter_foul(self, st: PoolState, shot: PoolShot,
                          infractions: list[Infraction]) -> Outcome:
        """A foul of the non-shooting player (3.41 interference, or a declared infraction that
        names him and that he can commit: not one of `general.SHOOTER_ONLY`, refused by
        `check_possible` with a step mixing both players' fouls), ruled on its own between
        shots: the shot must have no events."""
        if shot.events:
            raise ValueError("a foul by the non-shooting player is ruled on its own: give it "
                             "with an empty event log")
        offender = infractions[0].player
        ruling = Ruling(legal=False, turn_passes=False)
        for inf in infractions:
            article, text = INFRACTIONS[inf.code]
            ruling.violations.append(Violation(self.infraction_articles.get(inf.code, article),
                                               f"{offender}: {text}", FOUL))
        self._non_shooter_penalty(st, offender, ruling, infractions)
        ruling.next_player = st.shooter
        ruling.placement = st.ball_in_hand
        layout = shot.initial
        if layout is not None and st.ball_in_hand and CUE in layout.ids():
            layout = layout.without([CUE])
        return Outcome(ruling, st.copy(), layout=layout)

    def _open_ruling(self, st: PoolState, shot: PoolShot, facts: ShotFacts
                     ) -> tuple[Ruling, Outcome | None]:
        """The violations every discipline rules first (declared, ball in hand, the stroke);
        with an Outcome when a match-level violation (3.9, 3.29) ends the shot there."""
        shooter = st.shooter
        ruling = Ruling(legal=True)
        ruling.violations += declared_violations(shot.infractions, st, shooter,
                                                 self.infraction_articles)
        ruling.violations += placement_violations(st, shot.initial, facts)
        ruling.violations += stroke_violations(facts)
        if self._apply_match_violations(st, shooter, shot, ruling):
            ruling.legal = False
            return ruling, self._outcome(st, shooter, shot, facts, ruling)
        return ruling, None

    def _apply_match_violations(self, st: PoolState, shooter: str, shot: PoolShot,
                                ruling: Ruling) -> bool:
        """3.9 / 3.29: warn, or end the match. Returns True when the match is lost."""
        if any(v.consequence == LOSS_OF_MATCH for v in ruling.violations):
            winner = st.opponent(shooter)
            ruling.notes.append(f"{shooter} loses the match (WPA 3.29)")
            # the frame ends with the match, unfinished: frames_won keeps the frames played
            self._match_over(st, winner, ruling)
            return True
        warn_match(st, shooter, shot.infractions, ruling)
        return False

    def _match_over(self, st: PoolState, winner: str, ruling: Ruling) -> None:
        st.phase = "match_over"
        st.winner = winner
        st.pending = None
        ruling.end_match(winner)

    def _end_frame(self, st: PoolState, winner: str, ruling: Ruling) -> None:
        """The game is over: count it, end the match at race_to, else set up the next break
        (3.36)."""
        ruling.frame_over = True
        ruling.winner = winner
        st.frames_won[winner] = st.frames_won.get(winner, 0) + 1
        st.last_frame_winner = winner
        if st.frames_won[winner] >= st.race_to:
            self._match_over(st, winner, ruling)
            return
        breaker = next_breaker(st, winner)
        st.frame += 1
        st.breaker = breaker
        st.shooter = breaker
        st.phase = "break"
        st.ball_in_hand = "kitchen"
        st.pending = None
        st.fouls = {p: 0 for p in st.players}
        st.warned = {p: False for p in st.players}
        self._reset_rack(st)
        ruling.next_player = breaker
        ruling.placement = "kitchen"
        ruling.notes.append(f"{breaker} breaks game {st.frame} ({st.break_order}, WPA 3.36)")

    def _next_layout(self, st: PoolState, shot: PoolShot, facts: ShotFacts,
                     spot: list[str], article: str) -> tuple[Layout | None, list[dict]]:
        """The table after the shot: the final layout less pocketed and off-table balls, the
        balls to spot placed by 3.32 (after the cue ball is picked up when in hand)."""
        base = shot.final
        if base is None:
            base = shot.initial
        if base is None:
            return None, []
        gone = set(facts.pocketed_ids) | set(facts.off_table)
        if st.ball_in_hand:
            gone.add(CUE)
        layout = base.without(gone, missing_ok=True)
        return spot_into(layout, [b for b in spot if b not in layout.ids()], article)

    def _outcome(self, st: PoolState, shooter: str, shot: PoolShot, facts: ShotFacts,
                 ruling: Ruling, spot: list[str] | None = None, article: str = "WPA 3.32",
                 rack: str | None = None) -> Outcome:
        """Close a ruling: next player, placement, turn passing, the next layout."""
        if rack is None and ruling.frame_over:
            rack = None if st.phase == "match_over" else self.rack_name
        layout, spotted = (None, []) if rack else self._next_layout(
            st, shot, facts, spot or [], article)
        own = [i for i in shot.infractions if not i.player or i.player == shooter]
        if layout is not None and own:
            layout, back, notes = put_back_hand_moved(layout, shot.initial, own, facts)
            spotted, ruling.notes = spotted + back, ruling.notes + notes
        ruling.spotted = spotted
        if st.phase != "match_over":
            ruling.next_player = st.shooter
            ruling.placement = st.ball_in_hand
        ruling.turn_passes = st.shooter != shooter or ruling.frame_over
        if ruling.turn_passes and not ruling.frame_over:
            st.inning += 1
            if ruling.legal and not facts.pocketed_ids:
                ruling.notes.append("no ball pocketed: the inning ends (WPA 3.5)")
        return Outcome(ruling, st.copy(), layout=layout, spotted=spotted, rack=rack)


def check_stalemate_alone(shot: PoolShot) -> None:
    """A stalemate (4.21) is the referee's ruling with no shot: the step declaring it has no
    events, no declared infractions and nothing of a shot's declaration (a call, a safety, a
    push-out, balls frozen or jammed); only a pending choice may come before it. ValueError
    naming the field."""
    decl = shot.declaration
    if shot.events:
        raise ValueError("declaration.stalemate with events: a stalemate (WPA 4.21) is the "
                         "referee's ruling with no shot, so its step has no events")
    if shot.infractions:
        raise ValueError(f"declaration.stalemate with infraction {shot.infractions[0].code!r}: "
                         "a stalemate (WPA 4.21) is ruled on its own; give a foul in a step of "
                         "its own, before or after it")
    for name in ("called_ball", "called_pocket", "safety", "push_out", "frozen", "jammed"):
        if getattr(decl, name):
            raise ValueError(f"declaration.stalemate with declaration.{name}: a stalemate "
                             f"(WPA 4.21) is declared with no shot, so nothing of a shot's "
                             "declaration comes with it")


def most_severe(violations: list[Violation]) -> str | None:
    """3.30: one penalty per shot, the most severe."""
    if not violations:
        return None
    return max((v.consequence for v in violations), key=lambda c: SEVERITY.get(c, 1))
