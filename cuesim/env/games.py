"""What each environment's game is: its session (the viewer's game over the referee), the
fixed order of its pieces, its placements and phases, and the rule state it reports."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cuesim.api import start_layout


@dataclass(frozen=True)
class GameSpec:
    """One game as an environment sees it.

    game: the session's game name; env_id: the registered name (without namespace/version);
    pieces: every piece id in the observation's fixed order; placements: the values of the
    session's `placement()` (index 0: played where it lies); phases: the rule phases;
    tip_height: whether the action has a tip height (balls) besides the side offset.
    """

    game: str
    env_id: str
    pieces: tuple[str, ...]
    placements: tuple[str | None, ...]
    phases: tuple[str, ...]
    tip_height: bool


def _pool_ids(game: str) -> tuple[str, ...]:
    balls = sorted((b for b in start_layout(game).ids() if b != "cue"), key=int)
    return ("cue", *balls)


def _spec(game: str) -> GameSpec:
    if game == "novus":
        return GameSpec(game, "Novus", tuple(start_layout(game).ids()), (None, "own_zone"),
                        ("play", "match_over"), False)
    if game in ("8-ball", "9-ball", "14.1"):
        name = {"8-ball": "EightBall", "9-ball": "NineBall", "14.1": "StraightPool"}[game]
        return GameSpec(game, name, _pool_ids(game), (None, "kitchen", "table"),
                        ("break", "play", "match_over"), True)
    if game == "5-pins":
        return GameSpec(game, "FivePins", tuple(start_layout(game).ids()),
                        (None, "bottom_half", "top_half"),
                        ("lag", "lag_choice", "break", "play", "match_over"), True)
    raise ValueError(f"unknown game {game!r}; games are {', '.join(GAMES)}")


GAMES = ("novus", "8-ball", "9-ball", "14.1", "5-pins")
SPECS = {g: _spec(g) for g in GAMES}


def phase(session: Any) -> str:
    """The rule phase of a session ('play' for novus until the match is over)."""
    if session.over():
        return "match_over"
    state = getattr(session.ref, "state", None)
    return "play" if state is None else str(state.phase)


def winner(session: Any) -> str | None:
    """The match winner once the match is over (None: not over, or a draw)."""
    if not session.over():
        return None
    state = getattr(session.ref, "state", None)
    return session.ref.winner if state is None else state.winner


def scores(session: Any, players: list[str]) -> list[float]:
    """What each player has on the scoreboard: 14.1 and 5-pins points, pool frames won,
    novus sets won."""
    ref = session.ref
    if session.game == "novus":
        return [float(ref.sets_won.get(ref.team_of(p), 0)) for p in players]
    st = ref.state
    if session.game in ("14.1", "5-pins"):
        return [float(st.scores.get(p, 0)) for p in players]
    return [float(st.frames_won.get(p, 0)) for p in players]


def fouls(session: Any, players: list[str]) -> list[float]:
    """Pool: each player's consecutive fouls (WPA 5.13, 6.12); novus: the penalty pucks his
    colour owes (novus 17); 5-pins: none."""
    ref = session.ref
    if session.game == "novus":
        return [float(ref.debt.get(ref.colour_of(p), 0)) for p in players]
    if session.game == "5-pins":
        return [0.0, 0.0]
    return [float(ref.state.fouls.get(p, 0)) for p in players]
