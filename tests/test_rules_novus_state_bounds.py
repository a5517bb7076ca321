"""A novus state no match can reach is refused, naming the field: a third warning ends the
match (novus 15.3), the shooter's series counts at least his shot, and the 17.1.п penalties
pending and turns to skip name players. The referee's own states still load."""

from __future__ import annotations

import pytest

from cuesim.rules.novus import NovusGame
from cuesim.rules.novus.scenario import game_from_dict

BASE = {"players": ["Anna", "Boris"]}


@pytest.mark.parametrize("extra, message", [
    ({"warnings": {"Anna": 3}}, r"state.warnings: Anna has 3; the third warning ends the match "
                                r"\(novus 15.3\)"),
    ({"warnings": {"Anna": 99}}, "state.warnings"),
    ({"shooter": "Anna", "series": {"Anna": 0}}, "state.series: the shooter Anna"),
    ({"pending": [{"player": "Zed", "article": "novus 17.1.п"}]}, r"state.pending\[0\]"),
    ({"pending": [{"player": "Anna", "article": "x"}]}, r"state.pending\[0\]"),
    ({"pending": ["Anna"]}, r"state.pending\[0\]"),
    ({"skip": ["Zed"]}, r"state.skip\[0\]"),
])
def test_novus_15_3_17_1_p_unreachable_states_are_refused(extra, message):
    with pytest.raises(ValueError, match=message):
        game_from_dict({**BASE, **extra})


def test_the_referees_own_state_with_a_penalty_pending_loads():
    g = NovusGame(players=["Anna", "Boris"])
    g.pending = [{"player": "Boris", "article": "novus 17.1.п"}]
    g.skip = ["Boris"]
    g.warnings["Anna"] = 2
    again = game_from_dict(g.to_dict())
    assert again.pending == g.pending and again.skip == ["Boris"] and again.warnings["Anna"] == 2
