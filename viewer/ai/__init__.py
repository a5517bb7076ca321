"""The computer player: levels of execution error and search (`levels`, with sources), the
error itself (`execution`), the choice by expected outcome under that error (`search`), and
the viewer's computer turn that thinks between frames and shows its shot (`turn`).

    from cuesim.viewer.ai import choose_shot
    from cuesim.viewer.session import new_session

    session = new_session("9-ball")
    choice = choose_shot(session, level="strong", seed=1)
    session.apply(choice.action)
"""

from __future__ import annotations

from cuesim.viewer.ai.execution import perturb
from cuesim.viewer.ai.levels import DEFAULT_LEVEL, LEVELS, Level, get_level
from cuesim.viewer.ai.search import (
    Choice,
    Thinker,
    break_action,
    candidates,
    choose_option,
    choose_shot,
    choose_shot_steps,
    declaration_for,
    score,
    thinker,
)
from cuesim.viewer.ai.turn import ComputerTurn, new_turn, turn_key

_declaration_for = declaration_for  # the name cuesim.env used before it was public

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Choice", "ComputerTurn", "Level", "Thinker",
           "break_action", "candidates", "choose_option", "choose_shot", "choose_shot_steps",
           "declaration_for", "get_level", "new_turn", "perturb", "score", "thinker",
           "turn_key"]
