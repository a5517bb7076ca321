"""Novus pucks declared over the rail ('puck_off_table'): they left the board whatever the layout
after the shot shows (the core keeps every piece on it, so a hand-written or simulated layout
draws them somewhere on the board), and the rulings must not depend on where."""

from __future__ import annotations

from typing import Any

import pytest

from tests.novus_util import articles, hit, moved, puck, rule, striker


def _knocked_own_dark_pucks(after_has_them: bool) -> dict[str, Any]:
    """A punishable direct shot (black1 first, 17.1.б) drives A's two dark pucks red1 and red2
    over the west rail; the layout after it draws them against that rail, still in A's zone,
    or leaves them out."""
    before = [striker(0.6), puck("red1", 0.3, 0.09), puck("red2", 0.25, 0.09),
              puck("red3", 0.5, 0.7), puck("black1", 0.45, 0.09), puck("black2", 0.6, 0.5)]
    after = moved(moved(moved(before, "red1", 0.016, 0.12), "red2", 0.05, 0.12),
                  "black1", 0.2, 0.2)
    after = moved(after, "striker", 0.5, 0.2)
    if not after_has_them:
        after = [p for p in after if p["id"] not in ("red1", "red2")]
    return rule(before, after, [hit(0.1, "black1"), hit(0.15, "red1", "black1"),
                                hit(0.2, "red2", "red1")], state={"series": {"A": 2}},
                infractions=[{"code": "puck_off_table", "pieces": ["red1", "red2"],
                              "note": "west"}])


@pytest.mark.parametrize("after_has_them", [True, False])
def test_16_1_a_counts_own_dark_pucks_declared_over_the_rail(after_has_them):
    """novus 16.1.а "выбивает из ... своей бортовой («темной») зоны две или больше своих
    пешек": two own dark pucks a punishable shot drove over the rail lose the set, whether the
    layout after the shot draws them in the zone (it was missed) or leaves them out."""
    out = _knocked_own_dark_pucks(after_has_them)
    assert "novus 16.1.а" in articles(out) and out["ruling"]["frame_over"]
    assert out["ruling"]["winner"] == "B"


@pytest.mark.parametrize("doubles", [False, True])
def test_an_opponent_s_puck_over_the_rail_is_put_back_by_17_1_r_only(doubles):
    """novus 17.1.р puts back an opponent's puck a punishable shot drove off the table. Drawn
    in his dark area after the shot, it was also ruled as driven there: spotted twice (21.3
    and 17.1.р) in singles, and 17.1.ф "it stays there" next to 17.1.р in doubles."""
    before = [striker(), puck("red1", 0.3, 0.7), puck("red2", 0.7, 0.7),
              puck("black1", 0.4, 0.3), puck("black2", 0.6, 0.3)]
    # black1 drawn in black's dark area: by the north rail (singles: B sits north) or against
    # the west rail (doubles: black's rear zone by the west seat)
    where, side = ((0.02, 0.3), "west") if doubles else ((0.5, 0.95), "north")
    after = moved(moved(before, "black1", *where), "striker", 0.4, 0.25)
    state = {"series": {"A": 2}} | ({"mode": "doubles"} if doubles else {})
    out = rule(before, after, [hit(0.1, "black1")], state=state,
               infractions=[{"code": "puck_off_table", "pieces": ["black1"], "note": side}])
    assert "novus 17.1.р" in articles(out)
    assert "novus 17.1.ф" not in articles(out)
    spotted = [s for s in out["ruling"]["spotted"] if s["id"] == "black1"]
    assert [s["article"] for s in spotted] == ["novus 17.1.р"]
    assert (spotted[0]["x"], spotted[0]["y"]) == (0.4, 0.3)  # where it was
