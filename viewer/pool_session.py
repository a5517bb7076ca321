"""The viewer's WPA pool games (8-ball, 9-ball, 14.1) over `cuesim.rules.pool`."""

from __future__ import annotations

from typing import Any

from cuesim.api import start_layout
from cuesim.rules.ruling import Infraction, Ruling
from cuesim.shot import CueShot
from cuesim.sim.result import ShotResult
from cuesim.tables.layout import Layout, Piece
from cuesim.viewer.placing import free_spot
from cuesim.viewer.session import StateRefereeSession

_POOL_REFEREES = {"8-ball": "EightBall", "9-ball": "NineBall", "14.1": "StraightPool"}


class PoolSession(StateRefereeSession):
    """8-ball, 9-ball or 14.1 continuous with the WPA referee (`cuesim.rules.pool`)."""

    struck = "cue"
    unit = "game"  # WPA: one rack is a game
    max_speed = 11.0

    def __init__(self, game: str, players: list[str], computer: tuple[str, ...] = (),
                 options: dict[str, Any] | None = None) -> None:
        from cuesim.rules import pool

        self.game = game
        super().__init__(players, computer, options)
        cls = getattr(pool, _POOL_REFEREES[game])
        kwargs: dict[str, Any] = {"race_to": int(self.options.get("race_to", 1))}
        if game == "14.1":
            kwargs["points_to"] = int(self.options.get("points_to", 25))
        self.ref = cls(list(players), **kwargs)
        self._layout = start_layout(game, self.table)

    def shooter(self) -> str:
        return self.ref.state.shooter

    def _resume_layout(self, layout: Layout) -> None:
        self._layout = layout

    def layout(self) -> Layout:
        return self._layout

    def placement(self) -> str | None:
        return self.ref.state.ball_in_hand

    def place_area(self) -> list[tuple[float, float]]:
        r, w, l = self.radius(), self.table.width, self.table.length
        far = self.table.head_string_y - 1e-6 if self.placement() == "kitchen" else l - r
        return [(r, r), (w - r, r), (w - r, far), (r, far)]

    def check_place(self, x: float, y: float) -> str | None:
        hs = self.table.head_string_y
        if self.placement() == "kitchen" and not y < hs:
            return (f"WPA 3.10, 3.16: the cue ball in hand must be placed behind the head "
                    f"string (its centre nearer the head rail than {hs:.3f} m); it is at "
                    f"{y:.3f} m")
        reason = free_spot(self.table, self._layout, Piece("cue", "ball", x, y, "cue"))
        return f"WPA 3.10: the cue ball cannot stand there: {reason}" if reason else None

    def _shot(self, action: dict[str, Any]) -> CueShot:
        return CueShot(angle=action["angle"], speed=action["speed"],
                       side=action.get("side", 0.0), height=action.get("height", 0.0),
                       end_mass=self.cue_end_mass())

    def _shot_layout(self, action: dict[str, Any]) -> Layout:
        cue = Piece("cue", "ball", action["x"], action["y"], "cue")
        if self.placement() is None and "cue" in self._layout.ids():
            return self._layout
        return self._layout.with_piece(cue)  # in place of the cue ball, if it lies there

    def _declaration(self, action: dict[str, Any]) -> Any:
        from cuesim.rules.pool import Declaration

        d = action.get("declaration") or {}
        known = {k: v for k, v in d.items() if k in Declaration.__dataclass_fields__}
        return Declaration(**known)

    def _adjudicate(self, ref: Any, result: ShotResult, action: dict[str, Any]) -> tuple[
            Ruling, Any]:
        from cuesim.rules.pool import shot_from_result

        infractions = [Infraction.from_dict(i) for i in action.get("infractions", [])]
        out = ref.play(shot_from_result(result, self._declaration(action), infractions))
        return out.ruling, out

    def _advance(self, outcome: Any, result: ShotResult | None) -> None:
        if outcome.rack:
            self._layout = start_layout(self.game, self.table)
        elif outcome.layout is not None:
            self._layout = outcome.layout

    def _choose(self, option: str) -> Ruling:
        out = self.ref.choose(option)
        self._advance(out, None)
        return out.ruling

    def _declare_now(self, infraction: Infraction) -> Ruling:
        from cuesim.rules.pool import Declaration, PoolShot

        out = self.ref.play(PoolShot([], self._layout, self._layout, Declaration(),
                                     [infraction]))
        self._advance(out, None)
        return out.ruling

    def requests(self) -> dict[str, str]:
        """14.1: the 6.7.7 request, offered only while it applies (cue ball in hand behind the
        head string, and every object ball behind it too)."""
        from cuesim.tables.pool_spots import marks_of

        st = self.ref.state
        if self.game == "14.1" and st.ball_in_hand == "kitchen" and st.phase == "play":
            head_y = marks_of(self._layout).head_string_y
            balls = [p for p in self._layout.pieces if p.id != "cue"]
            if balls and all(p.y < head_y for p in balls):
                return {"kitchen_spot": "K: have the ball nearest the head string spotted "
                                        "(WPA 6.7.7)."}
        return {}

    def _request(self, name: str) -> Ruling:
        if name != "kitchen_spot" or name not in self.requests():
            return super()._request(name)
        out = self.ref.request_kitchen_spot(self._layout)
        self.ref.state = out.state
        self._advance(out, None)
        return out.ruling

    def declarations(self) -> list[str]:
        st = self.ref.state
        out = ["call"]
        if self.game in ("8-ball", "14.1") and st.phase != "break":
            out.append("safety")
        if self.game == "9-ball" and st.push_out_available:
            out.append("push_out")
        return out

    def infraction_codes(self) -> dict[str, str]:
        from cuesim.rules.pool import INFRACTIONS

        return {code: f"{art}: {text}" for code, (art, text) in INFRACTIONS.items()}

    def scoreboard(self, board: Layout | None = None) -> list[str]:
        st = self.ref.state
        lines = [f"Game {st.frame}, race to {st.race_to}, inning {self.inning()}"
                 + (", the break" if st.phase == "break" else "") + "."]
        for p in st.players:
            won = st.frames_won.get(p, 0)
            extra = [f"{won} game{'s' * (won != 1)}"]
            if self.game == "14.1":
                extra.append(f"{st.scores.get(p, 0)} of {st.points_to} points")
            if self.game == "8-ball" and p in st.groups:
                extra.append(st.groups[p])
            if st.fouls.get(p):
                n = st.fouls[p]
                extra.append(f"{n} foul{'s' * (n != 1)} in a row")
            lines.append(f"{p}: " + ", ".join(extra) + ".")
        if self.game == "8-ball" and not st.groups and st.phase == "play":
            lines.append("The table is open (WPA 4.9).")
        if self.game == "9-ball" and st.push_out_available:
            lines.append("A push-out is allowed (WPA 5.6).")
        if st.phase == "match_over":
            lines.append(f"Match over: {st.winner} wins.")
        return lines

    def frame_score(self, ruling: Ruling, result: ShotResult | None) -> dict[str, str]:
        """8-ball and 9-ball: who won the game; 14.1: the points of each player in it."""
        if self.game != "14.1":
            return super().frame_score(ruling, result)
        points = {p: 0 for p in self.players}
        for entry in reversed(self.history):
            if entry is not self.history[-1] and entry["ruling"].frame_over:
                break
            for p, n in entry["ruling"].points.items():
                points[p] = points.get(p, 0) + n
        return {p: f"{n} point{'s' * (abs(n) != 1)}" for p, n in points.items()}

    def state_dict(self) -> dict[str, Any]:
        return self.ref.state.to_dict()

    def pieces_of(self, player: str) -> list[str]:
        self.check_player(player)
        ids = [b for b in self._layout.ids() if b != "cue"]
        st = self.ref.state
        if self.game == "9-ball":
            return sorted(ids, key=int)[:1]
        if self.game == "8-ball":
            group = st.groups.get(player)
            if group is None:
                return [b for b in ids if b != "8"] or ids
            mine = [b for b in ids if (int(b) < 8) == (group == "solids") and b != "8"]
            return mine or ["8"]
        return ids
