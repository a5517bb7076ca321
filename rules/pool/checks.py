"""What a pool shot's declaration and layouts must agree on before the referee rules on it:
the balls a declaration names are on the table where it needs them, a ball announced frozen
touches the cushion named (3.38), balls judged pocketed from a jam are in the pocket's jaws
(3.33), and hand-written layouts are legal on their table (on the bed, no overlaps). Each
failure is a ValueError naming the field and the ball."""

from __future__ import annotations

from cuesim.rules.files import check_shot_layouts, hand_moved, table_of
from cuesim.rules.pool.general import HAND_MOVES
from cuesim.rules.pool.model import CUE, PoolShot
from cuesim.tables.layout import Layout, LayoutError
from cuesim.tables.pool import PoolTable
from cuesim.tables.pool_spots import FROZEN_TOLERANCE

# 3.33: "two or more balls jammed in the pocket's jaws"
JAMMED_AT_LEAST = 2


def check_declared_on_table(shot: PoolShot) -> None:
    """The balls a declaration names are on the table: a called object ball (3.4) and the
    balls announced frozen (3.38) before the shot, a ball jammed in a pocket's jaws (3.33)
    before and after it."""
    decl, before, after = shot.declaration, shot.initial, shot.final
    if decl.called_ball == CUE:
        raise ValueError("declaration.called_ball names the cue ball; a call names an object "
                         "ball (WPA 3.4)")
    named = [("declaration.called_ball", decl.called_ball, "before"),
             *[("declaration.frozen", b, "before") for b in decl.frozen],
             *[("declaration.jammed", b, "before") for b in decl.jammed],
             *[("declaration.jammed", b, "after") for b in decl.jammed]]
    for field_name, ball, when in named:
        layout = before if when == "before" else after
        if ball is not None and layout is not None and ball not in layout.ids():
            raise ValueError(f"{field_name} names ball {ball!r}, which is not on the table "
                             f"{when} the shot ({'initial' if when == 'before' else 'final'} "
                             "layout)")


def pool_table_of(shot: PoolShot) -> PoolTable | None:
    """The pool table the shot's layouts name (None without layouts); a layout for another
    table, or two layouts for different tables, raise."""
    names = {layout.table for layout in (shot.initial, shot.final) if layout is not None}
    if not names:
        return None
    if len(names) > 1:
        raise ValueError(f"the initial and final layouts are for different tables: "
                         f"{sorted(names)}")
    name = names.pop()
    if not name.startswith("pool_"):
        raise ValueError(f"the layouts are for table {name!r}; pool is played on pool_9ft, "
                         "pool_8ft or pool_7ft")
    table = table_of(shot.initial or shot.final, "layout")
    assert isinstance(table, PoolTable)
    return table


def check_pool_layout(layout: Layout, where: str) -> PoolTable:
    """A hand-written layout with no shot (a 14.1 request, 6.7.7) is legal on its pool table
    (pool_9ft, pool_8ft, pool_7ft), as a shot's are: every ball on the bed or in a pocket's
    throat, no two overlapping. Returns the table; a ValueError naming `where` otherwise."""
    if not layout.table.startswith("pool_"):
        raise ValueError(f"{where}: the layout is for table {layout.table!r}; pool is played on "
                         "pool_9ft, pool_8ft or pool_7ft")
    table = table_of(layout, where)
    assert isinstance(table, PoolTable)
    try:
        table.check_layout(layout)
    except LayoutError as exc:
        raise ValueError(f"{where}: {exc}") from None
    return table


def check_layouts(shot: PoolShot, table: PoolTable) -> None:
    """Hand-written layouts lie on the table's bed (or in a pocket's throat), no two balls
    overlap, and no ball a pocket event pockets is still on the table after the shot."""
    check_shot_layouts(table, shot.initial, shot.final, shot.events, "shot",
                       ("initial", "final"), hand_moved(shot.infractions, HAND_MOVES))


def check_frozen(shot: PoolShot, table: PoolTable) -> None:
    """3.38: a ball announced frozen touches the cushion named (a cushion, or a whole rail:
    head, foot, left, right) in the layout before the shot, within FROZEN_TOLERANCE."""
    for ball, cushion in shot.declaration.frozen.items():
        if shot.initial is None:
            continue
        b = shot.initial.get(ball)
        try:
            gap = table.cushion_gap(b.x, b.y, cushion)
        except ValueError as exc:
            raise ValueError(f"declaration.frozen[{ball!r}]: {exc}") from None
        if gap > FROZEN_TOLERANCE:
            raise ValueError(f"declaration.frozen: ball {ball!r} is {gap * 1000:.1f} mm from "
                             f"{cushion!r} before the shot (initial layout); a frozen ball "
                             f"touches it (WPA 3.38, within {FROZEN_TOLERANCE * 1000:.1f} mm)")


def check_jammed(shot: PoolShot, table: PoolTable) -> None:
    """3.33: a ball the referee judges pocketed from a jam lies in that pocket's jaws after the
    shot, with at least one other ball (two or more balls jammed)."""
    after = shot.final
    if shot.declaration.jammed and after is None:
        raise ValueError("declaration.jammed needs the final layout, with the jammed balls in "
                         "the pocket's jaws (WPA 3.33)")
    for ball, pocket in shot.declaration.jammed.items():
        if after is None or ball not in after.ids():
            continue  # check_declared_on_table names it
        b = after.get(ball)
        if not table.in_jaws(b.x, b.y, pocket, FROZEN_TOLERANCE):
            raise ValueError(f"declaration.jammed: ball {ball!r} at ({b.x:.4f}, {b.y:.4f}) "
                             f"after the shot (final layout) is not in the jaws of pocket "
                             f"{pocket!r} (WPA 3.33)")
        there = [p.id for p in after.pieces if table.in_jaws(p.x, p.y, pocket, FROZEN_TOLERANCE)]
        if len(there) < JAMMED_AT_LEAST:
            raise ValueError(f"declaration.jammed: ball {ball!r} is the only ball in the jaws "
                             f"of pocket {pocket!r} after the shot (final layout); WPA 3.33 "
                             "judges two or more balls jammed together")


def check_shot_geometry(shot: PoolShot) -> None:
    """All of the above on the layouts the shot carries (a simulated shot's layouts come from
    the core and are not checked again)."""
    check_declared_on_table(shot)
    decl = shot.declaration
    if shot.result is not None and not decl.frozen and not decl.jammed:
        return  # nothing to check against the table (and no table to build, ~20 us)
    table = pool_table_of(shot)
    if table is None:
        return
    if shot.result is None:
        check_layouts(shot, table)
    check_frozen(shot, table)
    check_jammed(shot, table)
