"""Direct or ricochet, correct or punishable (article 13), and the 17.1 violations the event log
shows by itself.

A shot is correct (`novus 13.correct`) when
1. the striker first touches one of the player's own light pucks (13.1), or
2. the player has no light pucks and the striker reaches the opposite rail before any puck
   (13.2; side rails may come first), or
3. the striker first touches a side rail and then, as the first puck it meets, one of the
   player's own pucks in the centre circle (13.3; more rails may come between), or
4. the player has light pucks, the striker reaches the opposite rail before any puck and the
   first puck it then meets is his own (this is what 17.1.в allows: only an opponent's puck
   first is punished after the opposite rail).
Every other shot is punishable (`novus 13.punishable`), including a shot that touches no puck.

Choices: contacts within 1e-12 s count as simultaneous (a striker meeting an own and an
opponent's puck at once is punished by 17.1.б); a rail and a puck met at once count as the puck.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cuesim.rules.novus.shotlog import SIMULTANEOUS, STRIKER, ShotRecord
from cuesim.rules.novus.terms import (
    MOVE_TOL,
    centre_in_circle,
    dark_pucks,
    hole_in_circle,
    hole_in_zone,
    light_pucks,
    opposite,
    side_rails,
)
from cuesim.sim.events import EventKind
from cuesim.tables.novus import LINE_WIDTH, NovusTable

_STRIKER_HOLE_CLEAR = NovusTable().piece_spec("striker").hole_radius + LINE_WIDTH / 2


@dataclass
class ShotAnalysis:
    """What the event log and layouts say about one shot, for the player on `side`."""

    side: str
    colour: str
    kind: str = "none"  # 'direct' (first contact a puck), 'ricochet' (a rail) or 'none'
    first_pucks: list[str] = field(default_factory=list)  # striker's first puck contact(s)
    first_rail: str | None = None
    correct: bool = False
    correct_by: str | None = None  # the article that makes it correct ('13.1', ...)
    punishable: list[tuple[str, str]] = field(default_factory=list)  # (article, text) from 17.1
    dark_before: list[str] = field(default_factory=list)
    light_before: list[str] = field(default_factory=list)
    dark_touched: list[str] = field(default_factory=list)  # own dark pucks the striker touched
    dark_first: bool = False  # the first puck the striker meets (rails before or not) is own dark
    dark_knocked_out: list[str] = field(default_factory=list)
    moved: list[str] = field(default_factory=list)  # pucks displaced or pocketed
    own_pocketed: list[str] = field(default_factory=list)
    opp_pocketed: list[str] = field(default_factory=list)
    striker_pocketed: bool = False
    opposite_rail_first: bool = False  # the striker met the opposite rail before any puck
    return_slide: bool = False  # 18.1.д: back over the own zone line (judged only without dark)
    touched_any_own: bool = False  # the striker touched one of the player's pucks (20.6)

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side, "colour": self.colour, "kind": self.kind,
            "first_pucks": list(self.first_pucks), "first_rail": self.first_rail,
            "correct": self.correct, "correct_by": self.correct_by,
            "punishable": [list(p) for p in self.punishable],
            "dark_before": list(self.dark_before), "light_before": list(self.light_before),
            "dark_touched": list(self.dark_touched), "dark_knocked_out":
            list(self.dark_knocked_out), "moved": list(self.moved),
            "own_pocketed": list(self.own_pocketed), "opp_pocketed": list(self.opp_pocketed),
            "striker_pocketed": self.striker_pocketed, "return_slide": self.return_slide,
        }


def analyse_shot(record: ShotRecord, side: str, colour: str) -> ShotAnalysis:
    """Classify one shot for the player standing on `side` whose pucks are `colour`."""
    a = ShotAnalysis(side=side, colour=colour)
    init, final = record.initial, record.final
    group = {p.id: p.group for p in init.pieces}
    a.dark_before = dark_pucks(init, colour, side)
    a.light_before = light_pucks(init, colour, side)
    dark, light = set(a.dark_before), set(a.light_before)
    far_rail, sides = opposite(side), set(side_rails(side))

    contacts = record.striker_contacts()
    puck_contacts = [(e.t, e.b if e.a == STRIKER else e.a) for e in contacts
                     if e.kind == EventKind.COLLIDE]
    a.touched_any_own = any(group.get(pid) == colour for _, pid in puck_contacts)
    a.dark_touched = list(dict.fromkeys(pid for _, pid in puck_contacts if pid in dark))
    if contacts:
        t0 = contacts[0].t
        first = [e for e in contacts if e.t <= t0 + SIMULTANEOUS]
        pucks = [e.b if e.a == STRIKER else e.a for e in first if e.kind == EventKind.COLLIDE]
        if pucks:
            a.kind, a.first_pucks = "direct", list(dict.fromkeys(pucks))
        else:
            a.kind, a.first_rail = "ricochet", first[0].feature
    # the first puck met after the opening rails, and whether the opposite rail came before it
    first_puck_t = puck_contacts[0][0] if puck_contacts else None
    first_puck_ids = ([pid for t, pid in puck_contacts if t <= first_puck_t + SIMULTANEOUS]
                      if first_puck_t is not None else [])
    rails_before = [e.feature for e in contacts if e.kind == EventKind.RAIL
                    and (first_puck_t is None or e.t < first_puck_t - SIMULTANEOUS)]
    a.opposite_rail_first = far_rail in rails_before
    own_first = bool(first_puck_ids) and all(group.get(p) == colour for p in first_puck_ids)
    opp_first = [p for p in first_puck_ids if group.get(p) != colour]

    if a.kind == "direct" and all(p in light for p in a.first_pucks):
        a.correct, a.correct_by = True, "13.1"
    elif not light and a.opposite_rail_first:
        a.correct, a.correct_by = True, "13.2"
    elif (a.kind == "ricochet" and a.first_rail in sides and not a.opposite_rail_first
          and own_first and all(centre_in_circle(*_xy(init, p)) for p in first_puck_ids)):
        a.correct, a.correct_by = True, "13.3"
    elif light and a.opposite_rail_first and own_first:
        a.correct, a.correct_by = True, "17.1.в"

    if not a.correct:
        a.punishable = _punishable_articles(a, light, dark, opp_first, sides, first_puck_ids,
                                            init)

    # 16.1.г "вначале ... задела свою тёмную пешку": the first puck met, whatever rails came before
    a.dark_first = any(p in dark for p in first_puck_ids)
    final_ids = set(final.ids())
    for p in init.pieces:
        if p.kind != "puck":
            continue
        if p.id not in final_ids:
            a.moved.append(p.id)
            continue
        q = final.get(p.id)
        if abs(q.x - p.x) > MOVE_TOL or abs(q.y - p.y) > MOVE_TOL:
            a.moved.append(p.id)
    for pid in a.dark_before:
        if pid not in final_ids or not _still_in_its_area(side, init, final, pid):
            a.dark_knocked_out.append(pid)
    for pid in record.pocketed:
        if pid == STRIKER:
            a.striker_pocketed = True
        elif group.get(pid) == colour:
            a.own_pocketed.append(pid)
        else:
            a.opp_pocketed.append(pid)
    a.return_slide = record.return_crossing(side, _STRIKER_HOLE_CLEAR)
    return a


def _punishable_articles(a: ShotAnalysis, light: set[str], dark: set[str], opp_first: list[str],
                         sides: set[str], first_puck_ids: list[str],
                         init: Any) -> list[tuple[str, str]]:
    """The 17.1 letters a punishable shot falls under (17.1.а always)."""
    out = [("17.1.а", "punishable shot (novus 13)" if first_puck_ids or a.opposite_rail_first
            else "punishable shot (novus 13): the striker touched no puck")]
    if a.kind == "direct" and opp_first:
        if len(a.first_pucks) > len(opp_first):
            out.append(("17.1.б", "direct shot met an own and an opponent's puck at once"))
        else:
            out.append(("17.1.б", "direct shot met an opponent's puck first"))
    if light and a.opposite_rail_first and opp_first:
        out.append(("17.1.в", "after the opposite rail the striker met an opponent's puck "
                              "first while light pucks were on the table"))
    if not light and not a.opposite_rail_first:
        out.append(("17.1.е", "only dark pucks left and the striker did not reach the "
                              "opposite rail first"))
    if a.kind == "ricochet" and a.first_rail in sides and not a.opposite_rail_first:
        circle_own = bool(first_puck_ids) and all(
            p in dark or p in light for p in first_puck_ids) and all(
            hole_in_circle(*_xy(init, p)) or centre_in_circle(*_xy(init, p))
            for p in first_puck_ids)
        if not circle_own:
            out.append(("17.1.и", "after a side rail the striker met neither an own puck in "
                                  "the centre circle nor the opposite rail"))
    if a.dark_touched:
        out.append(("17.1.з", "punishable shot touched an own dark puck: it is put back"))
    return out


def _still_in_its_area(side: str, init: Any, final: Any, pid: str) -> bool:
    """novus 16.1.а "выбивает из центрального круга или своей бортовой («тёмной») зоны": a
    dark puck stays in the area it was in, the centre circle or the own rail zone; one driven
    from the circle into the own zone (or back) was knocked out of its area all the same."""
    before, after = _xy(init, pid), _xy(final, pid)
    if hole_in_circle(*before):
        return hole_in_circle(*after)
    return hole_in_zone(side, *before) and hole_in_zone(side, *after)


def _xy(layout: Any, pid: str) -> tuple[float, float]:
    p = layout.get(pid)
    return p.x, p.y
