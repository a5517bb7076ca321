"""Novus 11 (dark and light pucks), 13 (correct and punishable shots) and the 17.1 violations
the event log shows by itself, from hand-written event logs."""

from __future__ import annotations

from cuesim.rules.novus.terms import (
    dark_pucks,
    hole_in_circle,
    hole_in_zone,
    is_dark_position,
    light_pucks,
)
from cuesim.tables.layout import Layout
from tests.novus_util import articles, drop, hit, moved, pocket, puck, rail, rule, striker

# A (south, red) shoots; B (north, black).
RED = [puck("red1", 0.30, 0.70), puck("red2", 0.70, 0.70)]
BLACK = [puck("black1", 0.40, 0.30), puck("black2", 0.60, 0.30)]
BASE = [striker(), *RED, *BLACK]


def test_11_dark_puck_hole_wholly_inside_own_zone_or_circle():
    """novus 11.dark: the hole must lie wholly inside the area, no line showing through it."""
    assert hole_in_zone("south", 0.5, 0.12)
    assert not hole_in_zone("south", 0.5, 0.127)  # line shows through the hole
    assert hole_in_zone("north", 0.5, 0.88)
    assert hole_in_zone("east", 0.88, 0.5) and not hole_in_zone("east", 0.86, 0.5)
    assert hole_in_circle(0.5, 0.62) and not hole_in_circle(0.5, 0.623)
    assert is_dark_position("south", 0.5, 0.5) and not is_dark_position("south", 0.5, 0.95)


def test_11_light_pucks_are_the_others_and_all_start_light():
    """novus 11.light: at the start all pucks are light (they stand at the opposite rail)."""
    from cuesim import novus_singles_layout
    start = novus_singles_layout()
    assert dark_pucks(start, "red", "south") == []
    assert len(light_pucks(start, "red", "south")) == 8
    lay = Layout.from_dict({"table": "novus", "pieces": [puck("red1", 0.5, 0.1),
                                                        puck("red2", 0.5, 0.7)]})
    assert dark_pucks(lay, "red", "south") == ["red1"]
    assert light_pucks(lay, "red", "south") == ["red2"]


def test_13_1_direct_on_own_light_puck_is_correct_and_keeps_turn_with_a_pocket():
    """novus 13.1, 18.1: first contact an own light puck; an own puck pocketed keeps the turn."""
    after = drop(moved(BASE, "striker", 0.3, 0.5), "red1")
    out = rule(BASE, after, [hit(0.1, "red1"), pocket(0.3, "red1")])
    assert out["ruling"]["legal"] and not out["ruling"]["turn_passes"]
    assert out["ruling"]["next_player"] == "A"
    assert out["analysis"]["kind"] == "direct" and out["analysis"]["correct_by"] == "13.1"


def test_18_1_a_correct_shot_without_pocket_passes_turn():
    """novus 18.1.а: no own puck pocketed: the turn passes, no violation."""
    out = rule(BASE, moved(BASE, "striker", 0.3, 0.5), [hit(0.1, "red1")])
    assert out["ruling"]["legal"] and out["ruling"]["turn_passes"]
    assert out["ruling"]["next_player"] == "B"
    assert any("18.1.а" in n for n in out["ruling"]["notes"])


def test_17_1_b_direct_shot_first_on_opponent_puck():
    """novus 17.1.б: a direct shot first on an opponent's puck: penalty puck, turn lost."""
    out = rule(BASE, moved(BASE, "striker", 0.4, 0.2), [hit(0.05, "black1")])
    assert "novus 17.1.б" in articles(out) and "novus 17.1.а" in articles(out)
    assert out["ruling"]["turn_passes"] and out["ruling"]["next_player"] == "B"


def test_17_1_b_own_and_opponent_puck_at_once():
    """novus 17.1.б: an own light puck and an opponent's puck met simultaneously (the own puck
    outside the centre circle: a dark one would make the shot punishable anyway)."""
    before = [striker(), puck("red1", 0.485, 0.7), puck("black1", 0.515, 0.7), *RED[1:]]
    out = rule(before, before, [hit(0.05, "red1"), hit(0.05, "black1")])
    assert "novus 17.1.б" in articles(out)
    assert not out["analysis"]["correct"]


def test_13_2_no_light_pucks_ricochet_off_opposite_rail_is_correct():
    """novus 13.2: only dark pucks; the striker reaches the opposite rail before any puck."""
    before = [striker(), puck("red1", 0.3, 0.1), *BLACK]
    out = rule(before, before, [rail(0.2, "east"), rail(0.3, "north"), hit(0.6, "red1")])
    assert out["analysis"]["correct_by"] == "13.2" and out["ruling"]["legal"]


def test_17_1_e_only_dark_pucks_and_no_opposite_rail():
    """novus 17.1.е: only dark pucks and the striker did not touch the opposite rail first."""
    before = [striker(0.3, 0.07), puck("red1", 0.5, 0.1), *BLACK]
    out = rule(before, before, [rail(0.1, "west"), hit(0.4, "black1")])
    assert "novus 17.1.е" in articles(out)


def test_13_3_side_rail_then_own_puck_in_circle_is_correct():
    """novus 13.3: first a side rail, then an own puck in the centre circle."""
    before = [striker(), puck("red1", 0.5, 0.55), puck("red2", 0.3, 0.8), *BLACK]
    out = rule(before, before, [rail(0.1, "east"), hit(0.3, "red1")])
    assert out["analysis"]["correct_by"] == "13.3" and out["ruling"]["legal"]


def test_17_1_i_side_rail_then_no_circle_puck_nor_opposite_rail():
    """novus 17.1.и: after a side rail the striker met an own puck outside the circle."""
    out = rule(BASE, BASE, [rail(0.1, "east"), hit(0.3, "red2")])
    assert "novus 17.1.и" in articles(out) and out["ruling"]["turn_passes"]


def test_17_1_v_ricochet_off_opposite_rail_then_opponent_puck_with_light_pucks():
    """novus 17.1.в: light pucks on the table, opposite rail then an opponent's puck first."""
    out = rule(BASE, BASE, [rail(0.2, "north"), hit(0.4, "black2")])
    assert "novus 17.1.в" in articles(out)


def test_17_1_v_ricochet_off_opposite_rail_then_own_puck_is_not_punished():
    """novus 17.1.в (converse): opposite rail then an own puck first is correct."""
    out = rule(BASE, BASE, [rail(0.2, "north"), hit(0.4, "red2")])
    assert out["ruling"]["legal"] and out["analysis"]["correct_by"] == "17.1.в"


def test_13_punishable_a_miss_touching_nothing():
    """novus 13 / 17.1.а: a shot that touches no puck is punishable."""
    out = rule(BASE, BASE, [])
    assert articles(out)[0] == "novus 17.1.а"
    # A has 2 pucks on the table, 6 off: one penalty puck on B's rail, middle line (17.3)
    assert out["ruling"]["spotted"] == [
        {"id": "red3", "x": 0.5, "y": 0.985, "article": "novus 17.3"}]


def test_17_1_g_striker_in_pocket_after_correct_shot():
    """novus 17.1.г: the striker fell into a pocket; the own puck pocketed does not save the
    turn (18.1.г)."""
    after = drop(BASE, "striker", "red1")
    out = rule(BASE, after, [hit(0.1, "red1"), pocket(0.3, "red1"), pocket(0.5, "striker")])
    assert articles(out) == ["novus 17.1.г"]
    assert out["ruling"]["turn_passes"]


def test_17_2_one_penalty_puck_for_several_violations():
    """novus 17.2: a miss that ends in a pocket earns one penalty puck, not two."""
    before = [striker(), *RED, *BLACK]
    out = rule(before, drop(before, "striker"), [pocket(0.5, "striker", "north_east")])
    assert {"novus 17.1.а", "novus 17.1.г"} <= set(articles(out))
    assert len([s for s in out["ruling"]["spotted"] if s["article"] == "novus 17.3"]) == 1


def test_17_1_z_punishable_shot_touching_own_dark_puck_restores_it():
    """novus 17.1.з: a punishable shot touched an own dark puck: put back where it was."""
    before = [striker(0.3, 0.07), puck("red1", 0.45, 0.1), puck("red2", 0.5, 0.8), *BLACK]
    after = moved(moved(before, "red1", 0.6, 0.2), "striker", 0.4, 0.1)
    out = rule(before, after, [hit(0.05, "red1")])
    assert "novus 17.1.з" in articles(out)
    red1 = [p for p in out["layout"]["pieces"] if p["id"] == "red1"][0]
    assert (red1["x"], red1["y"]) == (0.45, 0.1)


def test_16_1_a_two_own_dark_pucks_knocked_out_by_punishable_shot():
    """novus 16.1.а: a punishable shot knocks two own pucks out of the dark area: set lost."""
    before = [striker(0.3, 0.07), puck("red1", 0.45, 0.1), puck("red2", 0.48, 0.1),
              puck("red3", 0.5, 0.8), *BLACK]
    after = moved(moved(before, "red1", 0.45, 0.3), "red2", 0.55, 0.3)
    out = rule(before, after, [hit(0.05, "black1"), hit(0.1, "red1", "black1"),
                               hit(0.12, "red1", "red2")], state={"sets": 3})
    assert "novus 16.1.а" in articles(out)
    assert out["ruling"]["frame_over"] and out["ruling"]["winner"] == "B"
    assert out["state"]["sets_won"] == {"A": 0, "B": 1}


def test_16_1_a_pucks_knocked_from_the_circle_into_the_own_zone_count():
    """novus 16.1.а "выбивает из центрального круга или своей бортовой зоны": two own pucks
    driven out of the centre circle count though they come to rest in the own (dark) rail
    zone; they were knocked out of the circle. A third that stays in the circle does not."""
    before = [striker(0.3, 0.07), puck("red1", 0.47, 0.5), puck("red2", 0.53, 0.5),
              puck("red3", 0.5, 0.56), *BLACK]
    after = moved(moved(moved(before, "red1", 0.45, 0.06), "red2", 0.56, 0.06),
                  "red3", 0.5, 0.55)
    out = rule(before, after, [hit(0.05, "black1"), hit(0.1, "red1", "black1"),
                               hit(0.12, "red1", "red2"), hit(0.13, "red3", "red2")],
               state={"sets": 3})
    assert "novus 16.1.а" in articles(out)
    violation = next(v for v in out["ruling"]["violations"] if v["article"] == "novus 16.1.а")
    assert "(red1, red2)" in violation["text"]


def test_16_1_a_does_not_apply_after_a_correct_shot():
    """novus 16.1.а exception: penalised after a correct shot (striker pocketed) is not 16.1.а."""
    before = [striker(0.3, 0.07), puck("red1", 0.45, 0.1), puck("red2", 0.48, 0.1),
              puck("red3", 0.5, 0.8), *BLACK]
    after = drop(moved(moved(before, "red1", 0.45, 0.3), "red2", 0.55, 0.3), "striker")
    out = rule(before, after, [hit(0.05, "red3"), hit(0.1, "red3", "red1"),
                               hit(0.12, "red1", "red2"), pocket(0.5, "striker")])
    assert "novus 16.1.а" not in articles(out) and not out["ruling"]["frame_over"]


def test_16_1_g_first_own_dark_then_two_pucks_moved():
    """novus 16.1.г: a punishable shot first on an own dark puck which then moves another."""
    before = [striker(0.3, 0.07), puck("red1", 0.45, 0.1), puck("red2", 0.5, 0.8), *BLACK]
    after = moved(moved(before, "red1", 0.42, 0.25), "black1", 0.4, 0.33)
    out = rule(before, after, [hit(0.05, "red1"), hit(0.1, "red1", "black1")])
    assert "novus 16.1.г" in articles(out) and out["ruling"]["frame_over"]


def test_16_1_g_applies_after_a_rail_too():
    """novus 16.1.г: "вначале ... задела свою тёмную пешку" names the first puck the striker meets,
    not only a direct shot's: a side rail, then an own dark puck, which then moves another."""
    before = [striker(0.3, 0.07), puck("red1", 0.45, 0.1), puck("red2", 0.5, 0.8), *BLACK]
    after = moved(moved(moved(before, "red1", 0.42, 0.25), "black1", 0.4, 0.33),
                  "striker", 0.2, 0.1)
    out = rule(before, after, [rail(0.02, "west"), hit(0.05, "red1"),
                               hit(0.1, "red1", "black1")])
    assert "ricochet shot, punishable (novus 13)" in out["ruling"]["notes"]
    assert "novus 16.1.г" in articles(out) and out["ruling"]["frame_over"]


def test_16_1_g_not_after_a_correct_rail_shot_on_an_own_circle_puck():
    """novus 13.3 is correct, so 16.1.г does not apply: a side rail, then an own (dark) puck in
    the centre circle, which moves another."""
    before = [striker(0.3, 0.07), puck("red1", 0.5, 0.5), puck("red2", 0.5, 0.8), *BLACK]
    after = moved(moved(moved(before, "red1", 0.45, 0.4), "black1", 0.38, 0.28),
                  "striker", 0.2, 0.3)
    out = rule(before, after, [rail(0.02, "west"), hit(0.05, "red1"),
                               hit(0.1, "red1", "black1")])
    assert "ricochet shot, correct (novus 13.3)" in out["ruling"]["notes"]
    assert "novus 16.1.г" not in articles(out) and not out["ruling"]["frame_over"]


def _overlap_free(pieces):
    from cuesim import novus_table

    novus_table().check_layout(Layout.from_dict({"table": "novus", "pieces": pieces}))


def test_17_1_z_old_place_nudged_into_goes_to_the_nearest_free_place():
    """novus 17.1.з with 17.3's "as near as possible without moving the pucks there": the shot
    nudged a touching neighbour 0.3 um into the dark puck's old place (too little to count as
    moved); the puck goes back to the nearest free place, not 0.0003 mm into the neighbour
    (that overlap refused every later shot: a dead end found by the viewer's input storm)."""
    before = [striker(0.3, 0.07), puck("red1", 0.45, 0.1), puck("red3", 0.48, 0.1),
              puck("red2", 0.5, 0.8), *BLACK]
    after = moved(moved(moved(before, "red1", 0.6, 0.2), "red3", 0.48 - 3e-7, 0.1),
                  "striker", 0.4, 0.1)
    out = rule(before, after, [hit(0.05, "red1"), hit(0.06, "red3", "red1")])
    assert "novus 17.1.з" in articles(out) and "novus 16.1.г" not in articles(out)
    pieces = out["layout"]["pieces"]
    red1 = next(p for p in pieces if p["id"] == "red1")
    assert red1["y"] == 0.1 and 0.45 - 5e-7 < red1["x"] < 0.45 - 3e-7  # beside red3
    _overlap_free(pieces)
    assert any("taken" in n and "17.3" in n for n in out["ruling"]["notes"])


def test_17_1_z_old_place_taken_by_another_puck_nearest_free_place_beside_it():
    """novus 17.1.з: the striker drove an opponent's puck into the old place of the own dark
    puck it then touched; that puck stays, the dark puck goes back touching it at the nearest
    free point, and the board stays playable."""
    before = [striker(0.3, 0.07), puck("red1", 0.45, 0.1), puck("red2", 0.5, 0.8),
              puck("black1", 0.40, 0.30), puck("black2", 0.60, 0.30)]
    after = moved(moved(moved(before, "red1", 0.6, 0.2), "black1", 0.455, 0.1),
                  "striker", 0.4, 0.1)
    out = rule(before, after, [hit(0.05, "black1"), hit(0.1, "red1")])
    assert "novus 17.1.з" in articles(out)
    pieces = out["layout"]["pieces"]
    red1 = next(p for p in pieces if p["id"] == "red1")
    assert abs(red1["y"] - 0.1) < 1e-9 and abs(red1["x"] - (0.455 - 0.03 - 1e-7)) < 1e-9
    _overlap_free(pieces)


def test_17_1_z_own_dark_puck_driven_over_the_rail_goes_back_not_to_the_circle():
    """novus 17.1.з over 12 / 17.7: a punishable shot drove the own dark puck it touched over
    the south rail: it goes back where it was (as an opponent's does by 17.1.р), once, not to
    the centre circle; the turn is lost (18.1.в) and the penalty stands."""
    before = [striker(0.36, 0.07), puck("red1", 0.30, 0.05), puck("red2", 0.3, 0.8),
              puck("black1", 0.3, 0.3)]
    out = rule(before, drop(before, "red1"), [hit(0.1, "red1")],
               state={"series": {"A": 2}},
               infractions=[{"code": "puck_off_table", "pieces": ["red1"], "note": "south"}])
    red1 = [p for p in out["layout"]["pieces"] if p["id"] == "red1"]
    assert [(p["x"], p["y"]) for p in red1] == [(0.30, 0.05)]
    assert "novus 17.1.з" in articles(out) and "novus 18.1.в" in articles(out)
    assert not any("17.7" in n for n in out["ruling"]["notes"])
    assert out["ruling"]["next_player"] == "B"


def test_17_1_z_two_dark_pucks_swapping_places_both_go_back_exactly():
    """novus 17.1.з: two touched dark pucks put back together: neither is kept from its old
    place by the other still lying there after the shot."""
    before = [striker(0.3, 0.07), puck("red1", 0.45, 0.1), puck("red3", 0.60, 0.1),
              puck("red2", 0.5, 0.8), *BLACK]
    after = moved(moved(moved(before, "red1", 0.60, 0.1), "red3", 0.45, 0.1),
                  "striker", 0.4, 0.1)
    out = rule(before, after, [hit(0.05, "red1"), hit(0.1, "red3", "red1")])
    layout = {p["id"]: (p["x"], p["y"]) for p in out["layout"]["pieces"]}
    assert layout["red1"] == (0.45, 0.1) and layout["red3"] == (0.60, 0.1)


def test_17_1_z_put_back_spot_is_free_legal_and_nearest():
    """novus 17.1.з / 17.3: the put-back place is free, on the board, off the holes, and no
    free place is nearer to the old one (checked against a 0.25 mm grid around it)."""
    import math
    import random

    import numpy as np

    from cuesim.rules.novus.placement import PUT_BACK_CLEARANCE, put_back_spot
    from cuesim.tables.layout import Piece
    from cuesim.tables.novus import NovusTable

    table = NovusTable()
    r = table.piece_spec("puck").radius
    holes = table.geometry.holes
    rng = random.Random(7)

    def free(x, y, others):
        """Vectorised: centres (x, y) wholly on the board, off the holes, clear of others."""
        ok = (x >= r) & (x <= 1 - r) & (y >= r) & (y <= 1 - r)
        for h in holes:
            ok &= np.hypot(x - h.x, y - h.y) >= h.radius
        for o in others:
            ok &= np.hypot(x - o.x, y - o.y) >= 2 * r - 1e-9
        return ok

    for _ in range(60):
        tx, ty = rng.uniform(0.02, 0.98), rng.uniform(0.02, 0.98)
        others: list[Piece] = []
        for k in range(rng.randint(1, 4)):  # pucks around or over the old place, apart
            for _ in range(50):
                a, d = rng.uniform(0, 2 * math.pi), rng.uniform(0.0, 0.03)
                q = Piece(f"q{k}", "puck", tx + d * math.cos(a), ty + d * math.sin(a), "black")
                if free(np.array(q.x), np.array(q.y), others):
                    others.append(q)
                    break
        spot = put_back_spot(Layout("novus", tuple(others)), Piece("p", "puck", tx, ty, "red"))
        assert spot is not None
        table.check_layout(Layout("novus", (*others, Piece("p", "puck", *spot, "red"))))
        best = math.hypot(spot[0] - tx, spot[1] - ty)
        step = 0.00025
        n = int(min(best, 0.06) / step) + 1
        g = np.arange(-n, n + 1) * step
        x, y = np.meshgrid(tx + g, ty + g)
        d = np.hypot(x - tx, y - ty)
        nearer = free(x, y, others) & (d < best - 2 * PUT_BACK_CLEARANCE - 1e-9)
        assert not nearer.any(), (tx, ty, spot, float(d[nearer].min()))
