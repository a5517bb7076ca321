"""The viewer's 5-pins game over `cuesim.rules.fivepins.FivePinsGame`."""

from __future__ import annotations

import math
from typing import Any

from cuesim.rules.ruling import Infraction, Ruling
from cuesim.shot import CueShot
from cuesim.sim.result import ShotResult
from cuesim.tables.layout import Layout, Piece
from cuesim.viewer.anim import pin_fall_angles
from cuesim.viewer.session import StateRefereeSession, free_spot

CONTACT_GAP = 1e-4  # m: balls this close count as touching (WCBS 10.4; a gap the eye cannot see)


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

    def struck_id(self) -> str:
        return self.ref.state.ball_of(self.ref.state.shooter)

    def layout(self) -> Layout:
        return self._layout

    def placement(self) -> str | None:
        return self.ref.state.placement

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
                       ball=self.struck_id())

    def _shot_layout(self, action: dict[str, Any]) -> Layout:
        ball = self.struck_id()
        return self.layout().without([ball]).with_piece(
            Piece(ball, "ball", action["x"], action["y"], ball))

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
        """The shooter's ball touches another ball (WCBS 10.4 applies only then)."""
        layout, own = self.layout(), self.struck_id()
        if own not in layout.ids() or self.placement() is not None:
            return False
        me = layout.get(own)
        reach = 2 * self.table.piece_spec("ball").radius + CONTACT_GAP
        return any(p.kind == "ball" and p.id != own and math.hypot(p.x - me.x, p.y - me.y)
                   <= reach for p in layout.pieces)

    def requests(self) -> dict[str, str]:
        if self.ref.state.phase == "play" and self.balls_in_contact():
            return {"contact_reset": "K: the balls touch; the referee sets them up again "
                                     "(WCBS 10.4)."}
        return {}

    def _request(self, name: str) -> Ruling:
        if name != "contact_reset" or name not in self.requests():
            return super()._request(name)
        out = self.ref.contact_reset()
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

    def pieces_of(self, player: str) -> list[str]:
        own = self.ref.state.ball_of(player)
        return ["yellow" if own == "white" else "white", "red"]
