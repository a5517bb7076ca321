"""The viewer's novus game (singles and doubles) over `cuesim.rules.novus.NovusGame`."""

from __future__ import annotations

from typing import Any

from cuesim.api import simulate
from cuesim.rules.ruling import Infraction, Ruling
from cuesim.shot import NovusShot, ShotError
from cuesim.sim.result import ShotResult
from cuesim.tables.layout import Layout, LayoutError
from cuesim.viewer.session import Session


class NovusSession(Session):
    """Novus singles or doubles with `cuesim.rules.novus.NovusGame`."""

    struck = "striker"
    unit = "set"
    max_speed = 6.0
    tip_vertical = False

    def __init__(self, game: str, players: list[str], computer: tuple[str, ...] = (),
                 options: dict[str, Any] | None = None) -> None:
        from cuesim.rules.novus import NovusGame

        self.game = game
        super().__init__(players, computer, options)
        self.ref = NovusGame(list(players), doubles=game == "novus-doubles",
                             sets=int(self.options.get("sets", 1)))
        self._final: Layout | None = None  # the board as the match's last shot left it
        self._board: tuple[Layout, Layout] | None = None  # (referee's layout, it without striker)

    def shooter(self) -> str:
        return self.ref.shooter

    def _resume_layout(self, layout: Layout) -> None:
        """The referee keeps the board (the striker taken up); a finished match shows it."""
        self.ref.layout = layout.without(["striker"]) if "striker" in layout.ids() else layout
        if self.ref.match_over:
            self._final = self.ref.layout

    def side(self) -> str:
        return self.ref.side_of(self.ref.shooter)

    def layout(self) -> Layout:
        if self.ref.match_over and self._final is not None:
            return self._final
        layout = self.ref.layout
        cached = self._board
        if cached is not None and cached[0] is layout:  # layouts are immutable: the same
            return cached[1]  # board asked again (every candidate of the computer's search)
        board = layout.without(["striker"]) if "striker" in layout.ids() else layout
        self._board = (layout, board)
        return board

    def struck_position(self) -> tuple[float, float]:
        layout = self.ref.layout
        if "striker" in layout.ids():
            p = layout.get("striker")
            if self.check_place(p.x, p.y) is None:
                return p.x, p.y
        return self.default_place()

    def placement(self) -> str | None:
        return "own_zone"

    def place_area(self) -> list[tuple[float, float]]:
        (u0, u1), (w0, w1) = self.table.striker_strip()
        side = self.side()
        return [self.table.to_table(side, u, w) for u, w in
                ((u0, w0), (u1, w0), (u1, w1), (u0, w1))]

    def check_place(self, x: float, y: float) -> str | None:
        u, w = self.table.from_table(self.side(), x, y)
        try:
            NovusShot(x=u, y=w, angle=0.0, speed=1.0, side=self.side()).place(
                self.table, self.layout())
        except (ShotError, LayoutError) as exc:
            return str(exc)
        return None

    def simulate(self, action: dict[str, Any]) -> ShotResult:
        """As `Session.simulate`, without placing the striker twice: the shot places it itself
        (`NovusShot.place`, the arithmetic and the refusals of `check_place`, which the
        computer's search would otherwise pay again for every candidate)."""
        return simulate(self.table, self._shot_layout(action), self._shot(action))

    def _shot(self, action: dict[str, Any]) -> NovusShot:
        side = self.side()
        u, w = self.table.from_table(side, action["x"], action["y"])
        angle = action["angle"] - self.table.direction_to_table(side, 0.0)
        offset = action.get("side", 0.0) * self.table.piece_spec("striker").radius * 0.95
        return NovusShot(x=u, y=w, angle=angle, speed=action["speed"], offset=offset, side=side)

    def _shot_layout(self, action: dict[str, Any]) -> Layout:
        return self.ref.layout

    def _adjudicate(self, ref: Any, result: ShotResult, action: dict[str, Any]) -> tuple[
            Ruling, Any]:
        infractions = [Infraction.from_dict(i) for i in action.get("infractions", [])]
        out = ref.adjudicate(result, infractions)
        return out.ruling, out

    def _advance(self, outcome: Any, result: ShotResult | None) -> None:
        """At the end of the match the referee keeps the board of before the last shot; the
        table is where that shot left it (the striker taken up)."""
        if self.ref.match_over and result is not None:
            self._final = result.final.without(["striker"], missing_ok=True)

    def _declare_now(self, infraction: Infraction) -> Ruling:
        return self.ref.adjudicate(None, [infraction]).ruling

    def sides(self) -> list[str]:
        return list(self.ref.teams())

    def side_of(self, player: str) -> str:
        return str(self.ref.team_of(player)) if player in self.players else player

    def frame_score(self, ruling: Ruling, result: ShotResult | None) -> dict[str, str]:
        """Pucks of each team left on the board when the set ended (novus 20)."""
        board = result.final if result is not None else self.layout()
        out = {}
        for team in self.ref.teams():
            colour = self.ref.colour_of_team(team)
            left = sum(1 for p in board.pieces if p.kind == "puck" and p.group == colour)
            out[team] = f"{left} puck{'s' * (left != 1)} left"
        return out

    def over(self) -> bool:
        return bool(self.ref.match_over)

    def match_winner(self) -> str | None:
        if not self.over():
            return None
        return self.ref.winner or None  # 23.1: an even number of sets may end equal

    def infraction_codes(self) -> dict[str, str]:
        from cuesim.rules.novus.infractions import INFRACTIONS

        return {code: f"novus {art}: {text}" for code, (art, _, text) in INFRACTIONS.items()}

    def scoreboard(self, board: Layout | None = None) -> list[str]:
        g = self.ref
        head = f"Set {g.set_number} of {g.sets}"
        if g.replays:
            head += f", {g.replays} replayed (novus 20.4)"
        lines = [head + "."]
        on_table = board if board is not None else self.layout()
        for team in g.teams():
            colour = g.colour_of_team(team)
            left = sum(1 for p in on_table.pieces if p.kind == "puck" and p.group == colour)
            debt = g.debt.get(colour, 0)
            lines.append(f"{team} ({colour}): {g.sets_won.get(team, 0)} "
                         f"set{'s' * (g.sets_won.get(team, 0) != 1)}, {left} "
                         f"puck{'s' * (left != 1)} on the board"
                         + (f", {debt} penalty puck{'s' * (debt != 1)} owed" if debt else "")
                         + ".")
        seats = ", ".join(f"{name} {side}" for side, name in g.seats.items())
        lines.append(f"Seats: {seats}.")
        warned = {p: n for p, n in g.warnings.items() if n}
        if warned:
            lines.append("Warnings: " + ", ".join(f"{p} {n}" for p, n in warned.items()) + ".")
        if g.match_over:
            lines.append(f"Match over: {g.winner} wins." if g.winner else
                         "Match over: a draw.")
        return lines

    def state_dict(self) -> dict[str, Any]:
        return self.ref.to_dict()

    def pieces_of(self, player: str) -> list[str]:
        colour = self.ref.colour_of(player)
        return [p.id for p in self.layout().pieces if p.group == colour]
