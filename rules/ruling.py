"""The shape every referee answers in.

A Ruling says whether the shot was legal, each violation with the article it comes from
(`WPA 4.20.2`, `novus 17.1.б`, `5-pins 15.3.б`), whether the turn passes, who plays next and
from where, what is spotted or put back, the points, and whether the frame, set or match is
over and who won. Infractions that 2D physics cannot see (a touched ball, a double hit, a
time violation, a piece off the table) come in as declared Infraction objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Violation:
    """One foul or violation. `consequence` names what it costs in the game's own terms
    (e.g. 'penalty_puck', 'loss_of_turn', 'loss_of_set', 'foul', 'loss_of_game')."""

    article: str
    text: str
    consequence: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"article": self.article, "text": self.text, "consequence": self.consequence}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Violation:
        return Violation(str(data["article"]), str(data.get("text", "")),
                         str(data.get("consequence", "")))


@dataclass(frozen=True)
class Infraction:
    """A declared infraction the physics cannot see: `code` names it in the game's referee
    (e.g. 'touched_ball', 'double_hit', 'piece_off_table'); `pieces` the pieces involved."""

    code: str
    player: str = ""
    pieces: tuple[str, ...] = ()
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "player": self.player, "pieces": list(self.pieces),
                "note": self.note}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Infraction:
        if "code" not in data:
            raise ValueError(f"infraction {data!r} has no 'code'")
        for key in ("code", "player", "note"):
            if not isinstance(data.get(key, ""), str):
                raise ValueError(f"infraction.{key} must be a string, got {data[key]!r}")
        pieces = data.get("pieces", [])
        if not isinstance(pieces, list) or not all(isinstance(p, str) for p in pieces):
            raise ValueError(f"infraction.pieces must be a list of piece ids, got {pieces!r}")
        return Infraction(str(data["code"]), str(data.get("player", "")),
                          tuple(str(p) for p in data.get("pieces", ())), str(data.get("note", "")))


@dataclass
class Ruling:
    """The referee's decision after one shot."""

    legal: bool
    violations: list[Violation] = field(default_factory=list)
    turn_passes: bool = False
    next_player: str = ""
    placement: str | None = None  # where the next shot starts: 'own_zone', 'kitchen', 'table',
    #                              'half_table', ... ; None when it is played where things lie
    spotted: list[dict[str, Any]] = field(default_factory=list)  # {"id", "x", "y", "article"}
    points: dict[str, int] = field(default_factory=dict)  # points scored by each player
    frame_over: bool = False  # the frame, rack, set or game in progress has ended
    match_over: bool = False
    winner: str | None = None
    notes: list[str] = field(default_factory=list)

    def end_match(self, winner: str) -> None:
        """The frame and the match are over, won by `winner`; nobody plays next."""
        self.frame_over = True
        self.match_over = True
        self.winner = winner
        self.next_player = ""
        self.placement = None

    @property
    def articles(self) -> list[str]:
        return [v.article for v in self.violations]

    def describe(self, unit: str = "frame", stroke: bool = True) -> str:
        """The ruling in sentences, each article with its rulebook named (rules.wording):
        legal or a foul, the violations, the referee's notes, the points, the end of the
        `unit` ('set' in novus, 'game' in pool and 5-pins) or match, and who plays next from
        where. stroke=False: a ruling with no shot (a choice, a request, an infraction between
        shots), whose lead is 'No foul.' rather than 'A legal shot.'."""
        from cuesim.rules.wording import PLACES, lead, points_text, sentence

        names = [*self.points, self.next_player or "", self.winner or ""]
        parts = [lead(self.legal, stroke)]
        parts += [sentence(f"{v.text} ({v.article})", names) for v in self.violations]
        parts += [sentence(n, names) for n in self.notes]
        if self.points:
            parts.append(points_text(self.points))
        won = f", won by {self.winner}" if self.winner else (
            ", a draw" if self.match_over else "")
        if self.frame_over and self.match_over:
            parts.append(f"The {unit} and the match are over{won}.")
        elif self.match_over:
            parts.append(f"The match is over{won}.")
        elif self.frame_over:
            parts.append(f"The {unit} is over{won}.")
        if self.next_player:
            where = PLACES.get(self.placement or "", (self.placement or "").replace("_", " "))
            parts.append(f"{self.next_player} plays next{' ' + where if where else ''}.")
        return " ".join(p for p in parts if p)

    def to_dict(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "violations": [v.to_dict() for v in self.violations],
            "turn_passes": self.turn_passes,
            "next_player": self.next_player,
            "placement": self.placement,
            "spotted": list(self.spotted),
            "points": dict(self.points),
            "frame_over": self.frame_over,
            "match_over": self.match_over,
            "winner": self.winner,
            "notes": list(self.notes),
        }
