"""The computer player's per-process memory and its seed: what a practised break holds for,
and a seed given as any whole number."""

from __future__ import annotations

import numpy as np
import pytest

from cuesim.viewer import ai
from cuesim.viewer.ai import breaks
from cuesim.viewer.session import new_session


@pytest.mark.parametrize("options", [{"impact_steps": 10}, {"end_mass": 0.0}])
def test_a_break_practised_with_other_physics_or_cue_is_not_reused(monkeypatch, options):
    """A plan practised on a table with other physics (the multiple impact's resolution) or
    with another cue (its end mass, which sets the squirt) is not the plan for the standard
    table and cue: a game's break is the same whatever the process played before."""
    monkeypatch.setattr(breaks, "_PRACTISED", {})
    lv = ai.get_level("beginner")
    standard = new_session("9-ball", ["A", "B"])
    other = new_session("9-ball", ["A", "B"], (), options)
    assert breaks.practice_key(standard, lv) != breaks.practice_key(other, lv)
    breaks.remember(other, lv, 5)
    assert breaks.practised(standard, lv) is None
    assert breaks.practised(other, lv) == breaks.PLANS[5]
    # the same table and cue built again share the practice
    assert breaks.practised(new_session("9-ball", ["C", "D"], (), options), lv) \
        == breaks.PLANS[5]


def test_a_numpy_whole_number_is_a_seed():
    """The computer's seed is any whole number >= 0, a numpy integer as the int it is (the
    environments take numbers.Integral too); a float or a bool is refused."""
    s = new_session("novus")
    level = ai.get_level("club").with_search(6, 2, 4)
    a = ai.choose_shot(s, seed=np.int64(1), level=level)
    b = ai.choose_shot(s, seed=1, level=level)
    assert a.action == b.action
    for bad in (1.0, True, np.int64(-1)):
        with pytest.raises(ValueError, match="seed must be a whole number >= 0"):
            ai.Thinker(s, level, seed=bad)
