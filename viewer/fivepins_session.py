"""The viewer's 5-pins game over `cuesim.rules.fivepins.FivePinsGame`."""

from __future__ import annotations

import copy
import math
from typing import Any

from cuesim.rules.ruling import Infraction, Ruling
from cuesim.rules.wording import sentence
from cuesim.shot import CueShot, ShotError
from cuesim.sim.engine import SimulationError
from cuesim.sim.result import ShotResult
from cuesim.tables.layout import Layout, LayoutError, Piece
from cuesim.viewer.anim import pin_fall_angles
from cuesim.viewer.placing import free_spot
from cuesim.viewer.session import StateRefereeSession

# the 10.4 judgement: shots tried from the position as it lies before a reset is granted
CONTACT_DIRECTIONS = 72  # every 5 degrees
CONTACT_SPEEDS = (0.3, 0.6)  # fractions of max_speed: a soft and a firm shot


# a pin this far (m) from its mark is not standing on it: knocked down at the end of a match
# (the referee sets pins up on their marks, 12.1; a knocked one lies a pin's height away)
KNOCKED_FROM_MARK = 1e-3


def knocked_pins(layout: Layout) -> dict[str, float]:
    """The pins of a finished match's table that lie off their marks (tables.carom.pin_spots)
    -> the direction from the mark to where each lies (rad), the way it fell as far as the
    table shows (`pin_fall_angles` reads it from the shot, which a carried-on save lacks)."""
    from cuesim.tables.carom import pin_spots

    out: dict[str, float] = {}
    for pid, (x0, y0) in pin_spots().items():
        if pid in layout.ids():
            p = layout.get(pid)
            if math.hypot(p.x - x0, p.y - y0) > KNOCKED_FROM_MARK:
                out[pid] = math.atan2(p.y - y0, p.x - x0)
    return out


class FivePinsRefereeSession(StateRefereeSession):
    """5-pins with the referee `cuesim.rules.fivepins.FivePinsGame` (WCBS rules)."""

    game = "5-pins"
    unit = "game"
    max_speed = 8.0

    def __init__(self, players: list[str], computer: tuple[str, ...] = (),
                 options: dict[str, Any] | None = None) -> None:
        from cuesim.rules.fivepins import FivePinsGame

        super().__init__(players, computer, options)
        self.ref = FivePinsGame(list(players), points_to=int(self.options.get("points_to", 60)),
                                games=int(self.options.get("games", 1)))
        assert self.ref.layout is not None
        self._layout: Layout = self.ref.layout

    def shooter(self) -> str:
        return self.ref.state.shooter

    def _resume_layout(self, layout: Layout) -> None:
        """The referee's table for the next shot and the session's. In a finished match the
        pins off their marks lie where the last shot knocked them (`knocked_pins`), each
        fallen away from its mark; during a match every pin stands."""
        self._layout = layout
        self.ref.layout = layout
        self._fallen = knocked_pins(layout) if self.over() else {}

    def _check_resumed(self, layout: Layout, state: dict[str, Any]) -> None:
        """As every layout, but in a finished match (a saved one carried on from its table)
        the knocked pins lie where they fell, under a ball as well: each alone on the bed,
        and the rest overlapping nothing (as the replay's check leaves `fallen_pins` out)."""
        if state.get("phase") != "match_over":
            self.table.check_layout(layout)
            return
        knocked = knocked_pins(layout)
        for pid in knocked:
            self.table.check_layout(Layout(layout.table, (layout.get(pid),)))
        self.table.check_layout(layout.without(knocked))

    def struck_id(self) -> str:
        return self.ref.state.ball_of(self.ref.state.shooter)

    def layout(self) -> Layout:
        return self._layout

    def placement(self) -> str | None:
        return self.ref.state.placement

    def place_line(self) -> str:
        """'Ball in hand in the bottom half (WCBS 13.2, 13.3).': the half with the articles
        the ruling that gave the ball in hand cites for it (`half_citation`)."""
        where = self.placement()
        if where is None:
            return ""
        if self.ref.state.phase == "break" and where == "bottom_half":
            return "Ball in hand in the bottom half for the opening shot (WCBS 4.1, 4.2)."
        return sentence(f"ball in hand in the {where.replace('_', ' ')} "
                        f"({self.half_citation()})")

    def half_citation(self) -> str:
        """The articles that put the ball in hand in its half, as the ruling that gave it cites
        them: the referee's reset (10.4); the offender's ball put on its spot at the incoming
        player's request (13.5, with 13.3); else the half opposite the offender's ball, or the
        bottom one when that ball lies on the middle line (13.2 or 13.4, with 13.3:
        rules.fivepins.placement.in_hand_citation)."""
        from cuesim.rules.fivepins.model import article
        from cuesim.rules.fivepins.placement import in_hand_citation, in_hand_half

        st = self.ref.state
        last = self.actions[-1] if self.actions else {}
        if last.get("kind") == "request" and last.get("name") == "contact_reset":
            return article("10.4")
        if last.get("kind") == "choice" and last.get("option") == "spot_offender":
            return in_hand_citation(article("13.5"))
        if st.offender is not None:
            half, art = in_hand_half(self.layout(), st.ball_of(st.offender))
            if half == st.placement:
                return in_hand_citation(art)
        return article("13.3")

    def place_area(self) -> list[tuple[float, float]]:
        r, w, l = self.radius(), self.table.geometry.width, self.table.geometry.length
        if self.placement() == "top_half":
            return [(r, l / 2 + r), (w - r, l / 2 + r), (w - r, l - r), (r, l - r)]
        return [(r, r), (w - r, r), (w - r, l / 2 - r), (r, l / 2 - r)]

    def check_place(self, x: float, y: float) -> str | None:
        r, l = self.radius(), self.table.geometry.length
        where = self.placement()
        if where == "bottom_half" and y + r > l / 2 + 1e-12:
            return (f"5-pins 4.2, 13.3: the ball in hand goes wholly inside the bottom half "
                    f"(y <= {l / 2 - r:.3f} m): no part of it over the middle line")
        if where == "top_half" and y - r < l / 2 - 1e-12:
            return (f"5-pins 13.3: the ball in hand goes wholly inside the top half "
                    f"(y >= {l / 2 + r:.3f} m)")
        ball = self.struck_id()
        reason = free_spot(self.table, self.layout(), Piece(ball, "ball", x, y, ball))
        return f"5-pins 13.3: the ball cannot stand there: {reason}" if reason else None

    def _shot(self, action: dict[str, Any]) -> CueShot:
        return CueShot(angle=action["angle"], speed=action["speed"],
                       side=action.get("side", 0.0), height=action.get("height", 0.0),
                       ball=self.struck_id(), end_mass=self.cue_end_mass())

    def _shot_layout(self, action: dict[str, Any]) -> Layout:
        """The table for the shot: the ball in hand placed at the action's (x, y) (checked by
        `check_place`), else played where it lies, as in pool (the action's x, y then only
        repeat its place)."""
        ball = self.struck_id()
        layout = self.layout()
        if self.placement() is None and ball in layout.ids():
            return layout
        return layout.with_piece(Piece(ball, "ball", action["x"], action["y"], ball))

    def _adjudicate(self, ref: Any, result: ShotResult, action: dict[str, Any]) -> tuple[
            Ruling, Any]:
        from cuesim.rules.fivepins import Declaration, shot_from_result

        infractions = [Infraction.from_dict(i) for i in action.get("infractions", [])]
        d = action.get("declaration") or {}
        decl = Declaration(**{k: v for k, v in d.items()
                              if k in Declaration.__dataclass_fields__})
        out = ref.play(shot_from_result(result, decl, infractions))
        return out.ruling, out

    def _advance(self, outcome: Any, result: ShotResult | None) -> None:
        if outcome is not None and outcome.layout is not None:
            self._layout = outcome.layout
        elif result is not None:  # the match is over: the balls stay where they stopped
            self._layout = result.final
            self._fallen = pin_fall_angles(result)

    def fallen_pins(self) -> dict[str, float]:
        """The pins the match's last shot knocked down (they lie where they fell)."""
        return dict(getattr(self, "_fallen", {})) if self.over() else {}

    def _choose(self, option: str) -> Ruling:
        out = self.ref.choose(option)
        self._advance(out, None)
        return out.ruling

    def balls_in_contact(self) -> bool:
        """The shooter's ball, on the table, touches another ball (WCBS 10.1; 10.4 applies
        only then; the referee's tolerance: rules.fivepins.placement.CONTACT_TOLERANCE)."""
        from cuesim.rules.fivepins.model import BALLS
        from cuesim.rules.fivepins.placement import balls_in_contact

        if self.placement() is not None:
            return False
        return bool(balls_in_contact(self.layout(), self.struck_id()) & set(BALLS))

    def requests(self) -> dict[str, str]:
        """The 10.4 reset may be asked for only while the shooter's ball, on the table, touches
        another ball (whether a shot without a foul exists is judged when it is asked for)."""
        if self.ref.state.phase == "play" and self.balls_in_contact():
            return {"contact_reset": "K: the balls touch; the referee sets them up again "
                                     "(WCBS 10.4)."}
        return {}

    def foul_free_shot(self) -> dict[str, Any] | None:
        """A shot the referee would rule without a foul from the position as it lies (10.3),
        searched among plain shots in CONTACT_DIRECTIONS directions at CONTACT_SPEEDS, or None:
        the 10.4 judgement "no shot is possible without a foul"."""
        pos = self.struck_position()
        for f in CONTACT_SPEEDS:
            for k in range(CONTACT_DIRECTIONS):
                action = self.shot_action(pos, 2 * math.pi * k / CONTACT_DIRECTIONS,
                                          f * self.max_speed)
                try:
                    _, ruling, _ = self.trial(action)
                except (ShotError, LayoutError, SimulationError, ValueError):
                    continue
                if ruling.legal:
                    return action
        return None

    def _request(self, name: str) -> Ruling:
        if name != "contact_reset" or name not in self.requests():
            if name == "contact_reset":  # on a copy: it raises, saying why (5-pins 10.4)
                copy.deepcopy(self.ref).contact_reset()
            return super()._request(name)
        found = self.foul_free_shot()
        out = self.ref.contact_reset(foul_free_shot=found is not None)
        self._advance(out, None)
        return out.ruling

    def _declare_now(self, infraction: Infraction) -> Ruling:
        from cuesim.rules.fivepins import FivePinsShot

        out = self.ref.play(FivePinsShot([], self.layout(), self.layout(),
                                         infractions=[infraction]))
        self._advance(out, None)
        return out.ruling

    def infraction_codes(self) -> dict[str, str]:
        from cuesim.rules.fivepins import INFRACTIONS

        return {code: f"5-pins {art}: {text}" for code, (art, text, _) in INFRACTIONS.items()}

    def scoreboard(self, board: Layout | None = None) -> list[str]:
        st = self.ref.state
        lines = [f"Game {st.game} of {st.games}, to {st.points_to} points"
                 + (", the break" if st.phase == "break" else "") + "."]
        for p in st.players:
            won = st.games_won.get(p, 0)
            lines.append(f"{p} ({st.ball_of(p)} ball): {st.scores.get(p, 0)} points, "
                         f"{won} game{'s' * (won != 1)}.")
        if st.phase == "match_over":
            lines.append(f"Match over: {st.winner} wins.")
        return lines

    def frame_score(self, ruling: Ruling, result: ShotResult | None) -> dict[str, str]:
        """The points of each player in the game just won (WCBS 2)."""
        st = self.ref.state
        scores = st.game_scores[-1] if st.game_scores else st.scores
        return {p: f"{scores.get(p, 0)} points" for p in st.players}

    def state_dict(self) -> dict[str, Any]:
        return self.ref.state.to_dict()

    def targets(self) -> list[tuple[float, float]]:
        from cuesim.tables.carom import SPOTS

        return [SPOTS["centre_spot"]]

    def first_contacts(self, player: str) -> list[str]:
        """The opponent's ball: the red first is a foul (15.3.б)."""
        return self.pieces_of(player)[:1]

    def pieces_of(self, player: str) -> list[str]:
        self.check_player(player)
        own = self.ref.state.ball_of(player)
        return ["yellow" if own == "white" else "white", "red"]
