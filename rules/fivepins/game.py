"""The 5-pins game object: holds the game and match state, rules on each shot (`play`), answers
pending options (`choose`: the lag winner's 3, the in-hand player's 13.5), the referee's reset
of balls in contact (`contact_reset`, 10.4), and ends games (2) and the match (2, 9)."""

from __future__ import annotations

from typing import Any

from cuesim.rules.api_checks import check_args, check_fields, check_names, require
from cuesim.rules.event_log import check_event_log, check_one_strike, check_reach, check_simulated
from cuesim.rules.files import hand_moved, table_of
from cuesim.rules.fivepins.checks import (
    check_carom_layouts,
    check_layout_kinds,
    check_off_table,
    check_piece_kinds,
    check_pins_kept,
)
from cuesim.rules.fivepins.facts import ShotFacts
from cuesim.rules.fivepins.fouls import (
    AT_PLACED_SHOT,
    BALL_IN_HAND,
    BETWEEN_SHOTS,
    FORFEITS,
    HAND_MOVES,
    INFRACTIONS,
    LAG_CODES,
    WITH_BALL_IN_HAND,
    Judgement,
    judge,
)
from cuesim.rules.fivepins.lag import adjudicate_lag
from cuesim.rules.fivepins.model import (
    BALLS,
    CUE_BALLS,
    DEFAULT_POINTS_TO,
    LAG_OPTIONS,
    PINS,
    FivePinsShot,
    FivePinsState,
    Outcome,
    article,
    check_state,
)
from cuesim.rules.fivepins.placement import (
    RAILS,
    balls_in_contact,
    check_opening,
    in_hand_citation,
    in_hand_half,
    opening_layout,
    put_back_off_table,
    put_ball,
    reset_pins,
    spot_for_offender,
    spot_of_half,
    touched_pins,
    wholly_in,
)
from cuesim.rules.fivepins.scoring import FOUL_POINTS
from cuesim.rules.ruling import Infraction, Ruling, Violation
from cuesim.sim.events import EventKind
from cuesim.tables.carom import SPOTS
from cuesim.tables.layout import Layout


class FivePinsGame:
    """One 5-pins match between two players. `play(shot)` rules on a shot (or on a lag while
    the state's phase is 'lag'), `choose(option)` answers a pending option, `contact_reset()`
    is the referee's 10.4 reset; each returns an Outcome and advances `self.state`.
    `self.layout` is the table for the next shot as the referee leaves it (None until known).
    """

    name = "five_pins"
    piece_ids: tuple[str, ...] = (*BALLS, *PINS)  # the pieces the referee knows (5-pins 4.1)

    def __init__(self, players: tuple[str, str] | list[str] = ("A", "B"),
                 balls: dict[str, str] | None = None, breaker: str | None = None,
                 points_to: int = DEFAULT_POINTS_TO, games: int = 1, lag: bool = False,
                 state: FivePinsState | None = None) -> None:
        check_args(FivePinsGame.__init__, players=players, balls=balls, breaker=breaker,
                   points_to=points_to, games=games, lag=lag, state=state)
        self.layout: Layout | None = None
        if state is not None:
            check_state(state)
            self.state = state.copy()
            return
        check_names(players, "players")
        players = [str(p) for p in players]
        if len(players) != 2 or players[0] == players[1]:
            raise ValueError(f"two different players are needed, got {players}")
        balls = dict(balls) if balls else {players[0]: "white", players[1]: "yellow"}
        breaker = players[0] if breaker is None else str(breaker)
        self.state = FivePinsState(
            players=players, balls=balls, shooter=breaker, breaker=breaker,
            first_breaker=breaker, phase="lag" if lag else "break",
            placement=None if lag else "bottom_half", scores={p: 0 for p in players},
            points_to=int(points_to), games=int(games), games_won={p: 0 for p in players},
            lag_faults={p: 0 for p in players},
        )
        check_state(self.state)
        if not lag:
            self.layout = opening_layout(self.state.ball_of(self.state.opponent(breaker)))

    # -- public entry points --------------------------------------------------------------
    def choose(self, option: str) -> Outcome:
        """The pending option's player answers it."""
        require(option, str, "option")
        st = self.state.copy()
        out = self._apply_choice(st, option)
        self.state = out.state
        return out

    def contact_reset(self, foul_free_shot: bool = False) -> Outcome:
        """10.4: when the shooter's ball is in contact with a ball (10.1) and no shot is
        possible without a foul, the referee sets the three balls as at the opening (the
        shooter's ball in hand in the bottom half, the other on the top spot, the red on its
        spot); that shot cannot score (only a safety). Refused (ValueError citing 10.4) outside
        play, with the ball in hand, when the shooter's ball touches no ball, or when
        `foul_free_shot` says a shot without a foul was found (the referee's judgement, which
        a caller that can simulate shots supplies)."""
        require(foul_free_shot, bool, "foul_free_shot")
        st = self.state.copy()
        if st.phase != "play":
            raise ValueError("5-pins 10.4: the reset is for balls in contact during play")
        own = st.ball_of(st.shooter)
        if st.placement is not None:
            raise ValueError(f"5-pins 10.4: no reset: {st.shooter}'s ball ({own}) is in hand")
        touching = sorted(balls_in_contact(self.layout, own) & set(BALLS))
        if not touching:
            raise ValueError(f"5-pins 10.4: no reset: {st.shooter}'s ball ({own}) is not in "
                             "contact with a ball")
        if foul_free_shot:
            raise ValueError(f"5-pins 10.4: no reset: {own} touches {', '.join(touching)}, but "
                             "a shot without a foul is possible (10.3: play away, off a "
                             "cushion or with a masse)")
        st.placement = "bottom_half"
        st.pending = None
        st.offender = None
        st.no_score = True
        layout = opening_layout(st.ball_of(st.opponent()))
        ruling = Ruling(legal=True, next_player=st.shooter, placement="bottom_half")
        ruling.notes.append(f"balls in contact: the referee resets the three balls; {st.shooter} "
                            "cannot score on this shot (5-pins 10.4)")
        ruling.spotted = [{"id": p.id, "x": p.x, "y": p.y, "article": article("10.4")}
                          for p in layout.pieces if p.kind == "ball"]
        self.layout = layout
        self.state = st
        return Outcome(ruling, st.copy(), layout, list(ruling.spotted))

    def play(self, shot: FivePinsShot) -> Outcome:
        """Rule on one shot, after applying declaration.choice to a pending option."""
        check_fields(shot, FivePinsShot, "shot", items=("infractions",))
        st = self.state.copy()
        if st.phase == "match_over":
            raise ValueError(f"the match is over (won by {st.winner}); no more shots")
        self.validate(shot)
        decl = shot.declaration
        prefix: Outcome | None = None
        if st.pending is not None:
            if decl.choice is not None:
                prefix = self._apply_choice(st, decl.choice)
                st = prefix.state.copy()
            elif st.pending.get("default") is None:
                raise ValueError(f"{st.pending['player']} must choose first "
                                 f"({st.pending['article']}): declaration.choice one of "
                                 f"{list(st.pending['options'])}")
            else:
                st.pending = None
        elif decl.choice is not None:
            raise ValueError(f"declaration.choice {decl.choice!r} given but no choice is pending")
        if not shot.events and not shot.infractions:
            if prefix is None:
                raise ValueError("the shot has no events, infractions or choice: nothing to "
                                 "rule on")
            self.state = prefix.state
            return prefix
        forfeits = [i for i in shot.infractions if i.code in FORFEITS]
        if forfeits:
            out = self._forfeit(st, forfeits[0])
        elif st.phase == "lag":
            out = self._lag(st, shot)
        else:
            others = [i for i in shot.infractions if i.player and i.player != st.shooter]
            if others:
                raise ValueError(f"infraction {others[0].code!r} names {others[0].player!r}, "
                                 f"but {st.shooter} is to play; only 9.1 / 9.2 may name the "
                                 "other player")
            hand = [i.code for i in shot.infractions if i.code in WITH_BALL_IN_HAND]
            if hand and st.placement is None:
                raise ValueError(f"infraction {hand[0]!r} (5-pins {INFRACTIONS[hand[0]][0]}) "
                                 f"concerns the ball in hand, and {st.shooter} has none")
            stroke = [i.code for i in shot.infractions if i.code not in BETWEEN_SHOTS]
            if not shot.events and stroke:
                raise ValueError(f"infraction {stroke[0]!r} (5-pins {INFRACTIONS[stroke[0]][0]}) "
                                 "happens in a stroke: declare it with that shot's events, not "
                                 "between shots")
            placed = [i.code for i in shot.infractions if i.code in AT_PLACED_SHOT]
            if placed and st.placement is None and st.phase != "break":
                raise ValueError(f"infraction {placed[0]!r} (5-pins {INFRACTIONS[placed[0]][0]}) "
                                 f"concerns an opening or in-hand shot, and {st.shooter} plays "
                                 "the ball where it lies")
            check_one_strike(shot.events, " (only the lag, 5-pins 3, strikes both balls)")
            out = self._rule(st, shot)
        if prefix is not None:
            out.ruling.notes[:0] = prefix.ruling.notes
        self.state = out.state
        return out

    # -- validation ---------------------------------------------------------------------------
    def validate(self, shot: FivePinsShot) -> None:
        """Unknown ids, rails, infraction codes and options, pieces of the wrong kind for their
        event (`check_piece_kinds`) or their id (`check_layout_kinds`), a standing pin gone
        after the shot (`check_pins_kept`) and a ball off the table that nothing moved
        (`check_off_table`) raise a ValueError naming them."""
        ids = set(self.piece_ids)

        def check(pid: str | None, where: str) -> None:
            if pid is not None and pid not in ids:
                raise ValueError(f"{where}: unknown piece id {pid!r}; ids are "
                                 f"{list(self.piece_ids)}")

        for k, e in enumerate(shot.events):
            check(e.a, f"events[{k}].a")
            check(e.b, f"events[{k}].b")
            if e.kind == EventKind.RAIL and e.feature not in RAILS:
                raise ValueError(f"events[{k}]: unknown rail {e.feature!r}; rails are "
                                 f"{list(RAILS)}")
            if e.kind == EventKind.POCKET:
                raise ValueError(f"events[{k}]: the carom table has no pockets")
        check_piece_kinds(shot.events, "shot")
        for name in ("initial", "final"):
            layout = getattr(shot, name)
            if layout is not None:
                for p in layout.pieces:
                    check(p.id, f"{name} layout")
                check_layout_kinds(layout, f"shot.{name}")
        for c in shot.declaration.in_contact:
            if c not in BALLS and c not in RAILS:
                raise ValueError(f"declaration.in_contact: {c!r} is neither a ball {list(BALLS)}"
                                 f" nor a rail {list(RAILS)}")
        # a hand-written log that cannot have happened is refused
        written = shot.result is None and bool(shot.events) and shot.initial is not None
        table = table_of(shot.initial, "shot.initial") if written else None
        if shot.result is not None:  # the simulation's own log, as shot_from_result made it
            check_simulated(shot.events, shot.initial, shot.final, shot.result, "shot")
        elif written:
            check_event_log(shot.events, list(shot.initial.ids()), "shot", table)
        if shot.result is None:  # hand-written layouts lie on the bed, none overlapping
            check_carom_layouts(shot)
        if written:  # (after the layouts: a piece off the bed is named as such)
            check_reach(shot.events, shot.initial, table, "shot",
                        hand_moved(shot.infractions, HAND_MOVES))
        for p in shot.declaration.moved_pins:
            if p not in PINS:
                raise ValueError(f"declaration.moved_pins: unknown pin {p!r}; pins are "
                                 f"{list(PINS)}")
        if shot.initial is not None:  # what the referee saw moved or touching stood there
            on_table = set(shot.initial.ids())
            for field_name, named in (("moved_pins", shot.declaration.moved_pins),
                                      ("in_contact", shot.declaration.in_contact)):
                for p in named:
                    if p not in RAILS and p not in on_table:
                        raise ValueError(f"declaration.{field_name} names {p!r}, which is not "
                                         "on the table before the shot (initial layout)")
        for inf in shot.infractions:
            if inf.code not in INFRACTIONS:
                raise ValueError(f"unknown infraction code {inf.code!r}; codes are "
                                 f"{sorted(INFRACTIONS)}")
            for p in inf.pieces:
                check(p, f"infraction {inf.code}")
                if inf.code == "off_table" and p not in BALLS:  # 15.3.д, 11
                    raise ValueError(f"infraction off_table names {p!r}: only a ball can leave "
                                     f"the table (11.1); balls are {list(BALLS)}")
                # a piece touched, moved or sent off the table was on it before the shot (the
                # ball in hand, 15.3.н, is not on it yet)
                if shot.initial is not None and p not in shot.initial.ids() and \
                        inf.code not in WITH_BALL_IN_HAND:
                    raise ValueError(f"infraction {inf.code} names {p!r}, which is not on the "
                                     "table before the shot (initial layout)")
                # (off_table may name a ball lying on the bed after the shot: one that touched
                # the rail's frame has left the table all the same, 11.1)
            if inf.player and inf.player not in self.state.players:
                raise ValueError(f"infraction {inf.code}: player {inf.player!r} is not one of "
                                 f"{self.state.players}")
            if inf.code in LAG_CODES and self.state.phase != "lag":
                raise ValueError(f"infraction {inf.code!r} belongs to the lag (5-pins 3)")
            if inf.code in LAG_CODES and not inf.player and not set(inf.pieces) & set(CUE_BALLS):
                raise ValueError(f"infraction {inf.code!r} (5-pins 3) must name the player or "
                                 f"his ball, one of {list(CUE_BALLS)}")
        if shot.events and shot.initial is None:
            raise ValueError("a shot with events needs its initial layout")
        if shot.initial is not None and shot.final is not None:  # a ball leaves the bed only
            # by jumping off it, which the referee sees and the log declares (11.1, 15.3.д)
            off = {p for i in shot.infractions if i.code == "off_table" for p in i.pieces}
            gone = [b for b in BALLS if b in shot.initial.ids() and b not in shot.final.ids()
                    and b not in off]
            if gone:
                raise ValueError(f"ball {gone[0]!r} is on the table before the shot (initial "
                                 "layout) and not after it (final layout): a ball that left the "
                                 "table is declared as infraction off_table (11.1, 15.3.д)")
        by_hand = hand_moved(shot.infractions, HAND_MOVES)
        check_pins_kept(shot.events, shot.initial, shot.final, "shot", by_hand=by_hand)
        check_off_table(shot.events, shot.infractions, "shot", by_hand)

    # -- options ----------------------------------------------------------------------------
    def _apply_choice(self, st: FivePinsState, option: str) -> Outcome:
        pending = st.pending
        if pending is None:
            raise ValueError(f"no choice is pending; {option!r} cannot be applied")
        if option not in pending["options"]:
            raise ValueError(f"{option!r} is not an option here ({pending['article']}); options "
                             f"are {list(pending['options'])}")
        st.pending = None
        chooser = pending["player"]
        ruling = Ruling(legal=True)
        ruling.notes.append(f"{chooser} chooses {option!r} ({pending['article']})")
        layout = self.layout
        if pending["article"] == article("3"):
            breaker = chooser if option == "break" else st.opponent(chooser)
            st.breaker = st.first_breaker = st.shooter = breaker
            st.phase = "break"
            st.placement = "bottom_half"
            layout = opening_layout(st.ball_of(st.opponent(breaker)))
        else:
            effect = pending["options"][option]
            st.placement = effect["placement"]
            spot = effect.get("spot")
            if spot is not None and layout is not None:
                layout = layout.moved(spot["id"], spot["x"], spot["y"])
                layout, _, _ = reset_pins(layout, layout)
                ruling.spotted.append(dict(spot))
        ruling.next_player = st.shooter
        ruling.placement = st.placement
        self.layout = layout
        return Outcome(ruling, st.copy(), layout, list(ruling.spotted))

    # -- the lag ------------------------------------------------------------------------------
    def _lag(self, st: FivePinsState, shot: FivePinsShot) -> Outcome:
        res = adjudicate_lag(shot.events, shot.initial, shot.final, st.balls, shot.infractions,
                             st.lag_faults, result=shot.result)
        st.lag_faults = res.faults
        ruling = Ruling(legal=not res.violations, violations=list(res.violations),
                        notes=list(res.notes))
        if res.winner is not None:
            st.phase = "lag_choice"
            st.pending = {"player": res.winner, "article": article("3"),
                          "options": list(LAG_OPTIONS), "default": None}
            st.shooter = res.winner
            ruling.next_player = res.winner
            ruling.notes.append(f"{res.winner} wins the lag and chooses to break or to give the "
                                "break (5-pins 3)")
        return Outcome(ruling, st.copy(), self.layout, lag=res.to_dict())

    # -- 9: leaving or refusing -------------------------------------------------------------
    def _forfeit(self, st: FivePinsState, inf: Infraction) -> Outcome:
        if not inf.player:
            raise ValueError(f"infraction {inf.code!r} must name the player")
        loser = inf.player
        winner = st.opponent(loser)
        ref, text, _ = INFRACTIONS[inf.code]
        ruling = Ruling(legal=False, turn_passes=True)
        ruling.violations.append(Violation(article(ref), f"{loser}: {text}",
                                           INFRACTIONS[inf.code][2]))
        if inf.code == "refused_to_continue":
            st.excluded = loser
            st.game_scores.append(dict(st.scores))
            self._match_over(st, winner, ruling)
            return Outcome(ruling, st.copy())
        layout = self._end_game(st, winner, ruling, cap=False)
        return Outcome(ruling, st.copy(), layout)

    # -- a shot -------------------------------------------------------------------------------
    def _rule(self, st: FivePinsState, shot: FivePinsShot) -> Outcome:
        shooter = st.shooter
        opp = st.opponent()
        mine, theirs = st.ball_of(shooter), st.ball_of(opp)
        decl = shot.declaration
        facts = ShotFacts.from_events(shot.events, mine, theirs)
        contact = balls_in_contact(shot.initial, mine) | set(decl.in_contact)
        j = judge(facts, shot.infractions, contact, decl.moved_pins)
        if facts.stroke:
            if st.phase == "break":
                check_opening(shot.initial, theirs)
            self._check_placement(st, shot, mine, j)
        ruling = Ruling(legal=j.legal, violations=list(j.violations), turn_passes=True)
        self._points(st, shooter, j, ruling)
        st.phase = "play"
        st.no_score = False
        st.shooter = opp
        st.shot += 1
        base = shot.final if shot.final is not None else (shot.initial or self.layout)
        game_over = any(st.scores[p] >= st.points_to for p in st.players)
        layout, spotted, removed = self._next_layout(st, shot, facts, base, mine, theirs, j,
                                                     ruling, game_over)
        ruling.spotted = spotted
        if removed:
            ruling.notes.append(f"pins removed while a ball covers their mark: "
                                f"{', '.join(removed)} (5-pins 12.7)")
        winner = next((p for p in st.players if st.scores[p] >= st.points_to), None)
        if winner is not None:
            new = self._end_game(st, winner, ruling, cap=True)
            layout, spotted, removed = new, ruling.spotted, []
        else:
            ruling.next_player = st.shooter
            ruling.placement = st.placement
        self.layout = layout
        return Outcome(ruling, st.copy(), layout, list(ruling.spotted), removed)

    def _check_placement(self, st: FivePinsState, shot: FivePinsShot, ball: str,
                         j: Judgement) -> None:
        """4.2, 13.3: a ball in hand lies wholly in its half (no part over the middle line)."""
        if st.placement is None or shot.initial is None or ball not in shot.initial.ids():
            return
        y = shot.initial.get(ball).y
        if not wholly_in(st.placement, y):
            ref = "4.2" if st.phase == "break" else "13.3"
            half = st.placement.replace("_", " ")
            j.add(ref, f"the ball in hand was not wholly in the {half} (y = {y:.4f} m)",
                  BALL_IN_HAND, FOUL_POINTS)
            j.kind = j.kind if j.kind.startswith("7") else "7.5"

    def _points(self, st: FivePinsState, shooter: str, j: Judgement, ruling: Ruling) -> None:
        """8: a correct shot scores its pins and carom for the shooter; any foul gives the
        opponent the shot's points plus the foul points (7, 8, 15.1)."""
        positive = j.positive
        unscored = ""  # 10.4: what the shot made, said as not scored
        if j.legal:
            if st.no_score and positive:
                unscored = ", not scored (5-pins 10.4)"
                ruling.notes.append(f"{positive} points not scored: the shot after the reset "
                                    "is a safety only (5-pins 10.4)")
                positive = 0
            who, pts = shooter, positive
            kind = j.kind
            if kind == "6":
                ruling.notes.append("correct shot worth no points (5-pins 6)")
            else:
                ruling.notes.append(f"correct shot (5-pins {kind}): {pts} points")
        else:
            who, pts = st.opponent(shooter), positive + j.foul_points
            ruling.notes.append(f"incorrect shot (5-pins {j.kind}): {j.foul_points} foul points"
                                f"{f' + {positive} shot points' if positive else ''} to {who} "
                                "(5-pins 7, 8, 15.1)")
        if j.counted_pins:
            ruling.notes.append(f"pins down: {', '.join(j.counted_pins)} ({j.pin_points} points,"
                                f" 5-pins 8.1){unscored}")
        if j.carom_points:
            ruling.notes.append(f"carom: {j.carom_points} points (5-pins 8.2){unscored}")
        st.scores[who] = st.scores.get(who, 0) + pts
        if pts:
            ruling.points = {who: pts}

    def _next_layout(self, st: FivePinsState, shot: FivePinsShot, facts: ShotFacts,
                     base: Layout | None, mine: str, theirs: str, j: Judgement, ruling: Ruling,
                     game_over: bool = False
                     ) -> tuple[Layout | None, list[dict[str, Any]], list[str]]:
        """The table for the next shot: balls off the table put back (11.3), pins set up or
        removed (12), the incoming ball in hand after a 15.3 foul (13.2-13.5), unless the shot
        ended the game (2: the next game opens instead)."""
        spotted: list[dict[str, Any]] = []
        if base is None:
            st.placement = None
            if j.ball_in_hand:
                raise ValueError("a foul without a layout: give the step's 'initial' so the "
                                 "ball in hand can be placed (5-pins 13.2)")
            return None, [], []
        off = [p for i in shot.infractions if i.code == "off_table" for p in i.pieces]
        layout = base
        if not shot.events and st.placement is not None and mine not in layout.ids():
            # a foul before the ball in hand was placed (13.6): the referee puts the
            # offender's ball on the spot of its half
            half = st.placement
            order = [spot_of_half(half), "lag_spot", "red_spot", "top_spot", "bottom_spot"]
            layout, s = put_ball(layout, mine, order, article("13.6"))
            spotted.append(s)
        if off:
            layout, s = put_back_off_table(layout, off, mine, theirs,
                                           j.ball_in_hand and not game_over)
            spotted += s
        st.offender = None
        st.placement = None
        if j.ball_in_hand and not game_over:
            half, art = in_hand_half(layout, mine)
            layout = layout.without([theirs], missing_ok=True)
            st.placement = half
            st.offender = st.opponent()
            spot, other_half = spot_for_offender(layout, mine)
            x, y = SPOTS[spot]
            st.pending = {
                "player": st.shooter, "article": article("13.5"),
                "options": {
                    "in_hand": {"placement": half},
                    "spot_offender": {"placement": other_half,
                                      "spot": {"id": mine, "x": x, "y": y, "spot": spot,
                                               "article": article("13.5")}},
                },
                "default": "in_hand",
            }
            ruling.notes.append(f"{st.shooter} has ball in hand in the {half.replace('_', ' ')} "
                                f"({in_hand_citation(art)}) or may have the {mine} ball put on "
                                f"the {spot} (5-pins 13.5)")
        knocked = [k.pin for k in facts.pins]
        moved, only_hit = touched_pins(facts.touched, shot.initial, shot.final)
        if moved:
            ruling.notes.append(f"pins moved but still standing, not knocked down: "
                                f"{', '.join(moved)}; set back on their marks (5-pins 12.4)")
        if only_hit:
            ruling.notes.append(f"pins hit but still on their base, not knocked down: "
                                f"{', '.join(only_hit)} (5-pins 12.5)")
        declared = [p for p in shot.declaration.moved_pins if p not in moved]
        layout, pins, removed = reset_pins(layout, shot.initial or base, [*declared, *moved],
                                           knocked)
        return layout, spotted + pins, removed

    # -- games and the match ------------------------------------------------------------------
    def _end_game(self, st: FivePinsState, winner: str, ruling: Ruling, cap: bool
                  ) -> Layout | None:
        """The game is won (2): cap the winner's total at the points set, count the game, end
        the match at a majority of its odd number of games, else set up the next opening with
        the breaks alternating through the match (4.5)."""
        if cap and st.scores[winner] > st.points_to:
            excess = st.scores[winner] - st.points_to
            scored = ruling.points.get(winner, 0)
            counted = f": {scored - excess} of the {scored} points count" if scored else ""
            ruling.notes.append(f"{winner}'s total {st.scores[winner]} is capped at "
                                f"{st.points_to} (5-pins 2){counted}")
            st.scores[winner] = st.points_to
            if scored:  # the ruling's points are what the totals gained
                ruling.points[winner] = scored - excess
        ruling.frame_over = True
        ruling.winner = winner
        ruling.notes.append(f"{winner} wins game {st.game} "
                            f"{st.scores[winner]}-{st.scores[st.opponent(winner)]} (5-pins 2)")
        st.game_scores.append(dict(st.scores))
        st.games_won[winner] = st.games_won.get(winner, 0) + 1
        st.pending = None
        st.offender = None
        st.no_score = False
        if st.games_won[winner] > st.games // 2:
            self._match_over(st, winner, ruling)
            self.layout = None
            return None
        st.game += 1
        breaker = st.first_breaker if st.game % 2 == 1 else st.opponent(st.first_breaker)
        st.breaker = st.shooter = breaker
        st.phase = "break"
        st.placement = "bottom_half"
        st.scores = {p: 0 for p in st.players}
        ruling.next_player = breaker
        ruling.placement = "bottom_half"
        ruling.notes.append(f"{breaker} breaks game {st.game} (5-pins 4.5)")
        layout = opening_layout(st.ball_of(st.opponent(breaker)))
        ruling.spotted = []
        self.layout = layout
        return layout

    def _match_over(self, st: FivePinsState, winner: str, ruling: Ruling) -> None:
        st.phase = "match_over"
        st.winner = winner
        st.pending = None
        st.placement = None
        ruling.end_match(winner)
