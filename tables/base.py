"""What every table shares: its layout check (cached per layout) and a hash computed once.

A table is a frozen dataclass with `name`, `geometry`, `kinds` and `piece_spec(kind)`; it
inherits from PieceTable and sets `__hash__ = PieceTable.__hash__` in its body (a frozen
dataclass would otherwise generate a hash that walks every field on every cache lookup).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any, TypeVar

import numpy as np

from cuesim.tables.geometry import TableGeometry
from cuesim.tables.layout import Layout, LayoutError
from cuesim.tables.numbers import shown
from cuesim.tables.pieces import PieceSpec

T = TypeVar("T")


def metres(v: float) -> str:
    """A coordinate for a message: 4 decimals, or 4 significant digits when it is huge (a layout
    file's 1e308 would otherwise print 300 digits)."""
    return f"{v:.4f}" if abs(v) < 1e6 else f"{v:.4g}"


class PieceTable:
    """Shared behaviour of the tables."""

    name: str
    geometry: TableGeometry
    surface_phrase = "on the playing surface"  # "a piece is not wholly <surface_phrase>"
    hole_word = "hole"  # what a capture circle is called: "hole", "pocket"
    # the balls a cue strikes that a player may put down from hand, (id, group): a CueShot with
    # a position puts such a ball down when the layout lacks it (after a scratch)
    cue_balls: tuple[tuple[str, str], ...] = ()

    def piece_spec(self, kind: str) -> PieceSpec:
        raise NotImplementedError

    def contact_distance(self, kind_a: str, kind_b: str) -> float:
        """Centre distance at which two pieces touch in the plane: the sum of their radii."""
        return self.piece_spec(kind_a).radius + self.piece_spec(kind_b).radius

    def check_layout(self, layout: Layout) -> None:
        """Raise LayoutError naming the first piece that is unknown, not wholly on the surface,
        over a hole or pocket, or overlapping another (cached per layout); TypeError for
        anything that is not a Layout."""
        if not isinstance(layout, Layout):
            raise TypeError(f"check_layout needs a Layout (cuesim.Layout, start_layout(game)), "
                            f"got {type(layout).__name__}")
        if layout.table != self.name:
            raise LayoutError(f"layout is for table {layout.table!r}, not {self.name!r}")
        _checked_arrays(self, layout)

    def layout_arrays(self, layout: Layout) -> tuple[np.ndarray, np.ndarray]:
        """(centres (n, 2), radii (n,)) of a checked layout (cached per layout)."""
        self.check_layout(layout)
        return _checked_arrays(self, layout)

    def with_physics(self, **changes: float) -> Any:
        """This table with the named coefficients of its physics changed, each checked as on
        construction (ValueError naming it): `pool_table().with_physics(impact_steps=10)`."""
        physics = getattr(self, "physics", None)
        if physics is None:
            raise TypeError(f"{type(self).__name__} has no physics to change")
        return dataclasses.replace(self, physics=physics.with_(**changes))  # type: ignore[call-overload]

    def __hash__(self) -> int:  # computed once: tables key the engine's caches
        h = self.__dict__.get("_hash")
        if h is None:
            values = tuple(getattr(self, f.name) for f in dataclasses.fields(self)  # type: ignore[arg-type]
                           if f.compare)
            h = self.__dict__["_hash"] = hash((type(self).__name__, values))
        return h

    def __getstate__(self) -> dict[str, Any]:  # the cached hash is per process
        return {k: v for k, v in self.__dict__.items() if k not in ("_hash", "_physics")}


def with_coefficients(table: Any, changes: dict[str, Any]) -> Any:
    """`table.with_physics(**changes)`, a ValueError for a name its physics does not have
    (naming those it has) or a value out of its coefficient's range (as on construction):
    the check of every door that takes coefficients by name (`--physics`, the environments)."""
    physics = table.physics
    names = [f.name for f in dataclasses.fields(physics)]
    for name in changes:
        if name not in names:
            raise ValueError(f"{type(physics).__name__} has no coefficient {name!r}; its "
                             f"coefficients are {', '.join(names)}")
    try:
        return table.with_physics(**changes)
    except TypeError as exc:  # a value of another type: said as a ValueError
        raise ValueError(str(exc)) from None


def physics_of(table: Any) -> dict[str, float] | None:
    """The coefficients of `table`'s physics by name (a fresh dict: what a shot's result and
    its file record, so that `table_named(name).with_physics(**physics)` rebuilds the table the
    shot was played on), or None for a table without physics (the benchmarks' boxes). Kept on
    the table once made (as its hash is): every result of a batch asks."""
    cache = getattr(table, "__dict__", None)
    known = cache.get("_physics", False) if cache is not None else False
    if known is False:
        physics = getattr(table, "physics", None)
        known = None if physics is None or not dataclasses.is_dataclass(physics) else {
            f.name: float(getattr(physics, f.name)) for f in dataclasses.fields(physics)}
        if cache is not None:
            cache["_physics"] = known
    return None if known is None else known.copy()


@lru_cache(maxsize=512)
def _checked_arrays(table: PieceTable, layout: Layout) -> tuple[np.ndarray, np.ndarray]:
    for kind in getattr(table, "single_kinds", ()):  # novus: one striker (26.1)
        ids = [p.id for p in layout.pieces if p.kind == kind]
        if len(ids) > 1:
            raise LayoutError(f"a {table.name} layout has at most one {kind}, got {len(ids)} "
                              f"({', '.join(repr(i) for i in ids)})")
    check_pieces(table, layout, contact=table.contact_distance)
    radii = np.array([table.piece_spec(p.kind).radius for p in layout.pieces])
    return layout.positions(), radii


# m: how far a piece may sit into another (or past a cushion) in a legal layout. The core
# catches a contact TOUCH (1e-9 m) deep and a resting piece keeps that depth and its round-off,
# sometimes a little more (a ball pressed between a cushion and another ball came to rest
# 1.9e-9 m deep), and a layout the core left must be playable as the next shot's; 1 um, as a
# shot file's final layout, is round-off to a layout and far below any real overlap (a ball
# is 57 mm across, a puck 30 mm).
LAYOUT_TOLERANCE = 1e-6


def check_pieces(table: Any, layout: Layout, tol: float = LAYOUT_TOLERANCE,
                 contact: Any = None) -> None:
    """Every piece wholly inside the rails or cushion noses (or, on a table that has
    `in_throat(x, y, r, tol)`, resting in a pocket's throat), its centre outside every hole or
    capture circle, no two closer than their contact distance (`contact(kind_a, kind_b)`, by
    default the sum of their radii). `table` needs `geometry`, `name` and `piece_spec(kind)`;
    its `surface_phrase` and `hole_word` word the messages."""
    geo, spec = table.geometry, table.piece_spec
    surface = getattr(table, "surface_phrase", PieceTable.surface_phrase)
    hole_word = getattr(table, "hole_word", PieceTable.hole_word)
    kinds = [p.kind for p in layout.pieces]
    _check_capacity(table, len(kinds), kinds)  # before any work that grows with the count
    radii = np.array([spec(k).radius for k in kinds])  # raises on an unknown kind
    pos = layout.positions()
    in_throat = getattr(table, "in_throat", None)  # pool: pocket throats are on the table
    for k, p in enumerate(layout.pieces):
        r = radii[k]
        inside = r - tol <= p.x <= geo.width - r + tol and r - tol <= p.y <= geo.length - r + tol
        if not inside and not (in_throat is not None and in_throat(p.x, p.y, r, tol)):
            raise LayoutError(
                f"piece {p.id!r} at ({metres(p.x)}, {metres(p.y)}) is not wholly {surface}: its "
                f"centre must lie within x in [{r:.4f}, {geo.width - r:.4f}] m and y in [{r:.4f}, "
                f"{geo.length - r:.4f}] m")
        for hole in geo.holes:
            if math.hypot(p.x - hole.x, p.y - hole.y) < hole.radius:
                raise LayoutError(f"piece {p.id!r} at ({p.x:.4f}, {p.y:.4f}) stands over "
                                  f"{hole_word} {hole.name!r}: move it off the {hole_word}")
    if len(pos) > 1:
        _check_overlaps(layout, pos, kinds, radii, tol, contact)


def surface_capacity(width: float, length: float, r_min: float, holes: int = 0) -> int:
    """The most non-overlapping discs of radius r_min a width x length surface can hold:
    floor(width * length * (pi / sqrt(12)) / (pi * r_min^2)) + 1 + holes.

    Thue's theorem: no packing of equal discs in the plane is denser than the hexagonal one,
    density pi / sqrt(12) = pi / (2 sqrt(3)) ~ 0.9069. For discs wholly inside a rectangle this
    bound is rigorous (it exceeds Oler's finite-region bound, A / (2 sqrt(3) r^2) + P / (4 r)
    + 1 over the rectangle of centres, for any rectangle); the + 1 and one more piece per hole
    (a ball resting in a pocket's throat, past the line of the cushion noses) are slack. A
    physical impossibility check, not a policy."""
    density = math.pi / (2 * math.sqrt(3))
    return math.floor(width * length * density / (math.pi * r_min * r_min)) + 1 + holes


def _check_capacity(table: Any, n: int, kinds: list[str]) -> None:
    """LayoutError when n pieces cannot fit on the table's surface (`surface_capacity`, with
    the smallest radius among the layout's kinds); unknown kinds raise as before, in order."""
    if n < 2:
        return
    r_min = min(table.piece_spec(k).radius for k in dict.fromkeys(kinds))
    if not r_min > 0:
        return
    geo = table.geometry
    most = surface_capacity(geo.width, geo.length, r_min, len(geo.holes))
    if n > most:
        raise LayoutError(f"layout has {n} pieces; the {table.name} table's surface can hold at "
                          f"most {most} pieces of radius {r_min * 1000:.2f} mm (hexagonal "
                          f"packing)")


_TILE = 1024  # rows and columns of one block of the pair check (8 MB a float array)


def _check_overlaps(layout: Layout, pos: np.ndarray, kinds: list[str], radii: np.ndarray,
                    tol: float, contact: Any) -> None:
    """LayoutError for the pair (i, j) of largest overlap need[i, j] - d[i, j] when it exceeds
    tol (need: contact distance, d: centre distance); ties go to the smallest (i, j) in
    row-major order, as np.argmax over the full n x n matrix with an -inf diagonal.

    Memory O(n): the pieces are sorted by x and compared in _TILE x _TILE blocks, skipping the
    blocks of pairs whose x distance is at least max(need) - tol (overlap <= need - |dx| <= tol
    there, so they can neither raise nor win)."""
    names = list(dict.fromkeys(kinds))
    code = np.array([names.index(k) for k in kinds]) if contact is not None else None
    table = (np.array([[contact(a, b) for b in names] for a in names])
             if contact is not None else None)
    max_need = float(np.max(table)) if table is not None else 2 * float(np.max(radii))
    reach = max_need - tol
    if math.isnan(max_need):  # a NaN contact distance: compare every pair
        reach = math.inf
    elif not reach > 0:  # no pair can overlap by more than tol (or tol is NaN)
        return
    reach += 1e-9 * reach + 1e-12  # widened: a pair in too many is only compared, never lost
    order = np.argsort(pos[:, 0], kind="stable")
    xs = pos[order, 0]
    best: tuple[float, int, int] | None = None  # (overlap, i, j)
    n = len(pos)
    for r0 in range(0, n, _TILE):
        r1 = min(r0 + _TILE, n)
        lo = int(np.searchsorted(xs, xs[r0] - reach, side="left"))
        hi = int(np.searchsorted(xs, xs[r1 - 1] + reach, side="right"))
        for c0 in range(lo, hi, _TILE):
            cols = order[c0:min(c0 + _TILE, hi)]
            found = _block_max(pos, radii, code, table, order[r0:r1], cols)
            if math.isnan(found[0]):  # as np.argmax: the first NaN wins, and NaN > tol is false
                return
            if best is None or found[0] > best[0] or (found[0] == best[0] and found[1:] < best[1:]):
                best = found
    if best is not None and best[0] > tol:
        _, i, j = best
        need = table[code[i], code[j]] if table is not None else radii[i] + radii[j]
        a, b = layout.pieces[i], layout.pieces[j]
        depth = (f"{best[0] * 1000:.3f} mm" if abs(best[0]) >= 1e-5
                 else f"{best[0] * 1e6:.3f} um")
        raise LayoutError(
            f"pieces {a.id!r} and {b.id!r} overlap by {depth}: centres "
            f"must be at least {need * 1000:.2f} mm apart")


def _block_max(pos: np.ndarray, radii: np.ndarray, code: np.ndarray | None,
               table: np.ndarray | None, rows: np.ndarray,
               cols: np.ndarray) -> tuple[float, int, int]:
    """(overlap, i, j) of the largest overlap need - d among the pairs rows x cols (i != j),
    the smallest (i, j) among equals; overlap -inf when every pair is a piece with itself."""
    d = np.hypot(pos[rows, None, 0] - pos[None, cols, 0], pos[rows, None, 1] - pos[None, cols, 1])
    if table is None:
        need = radii[rows, None] + radii[None, cols]
    else:
        need = table[code[rows, None], code[None, cols]]
    overlap = need - d
    overlap[rows[:, None] == cols[None, :]] = -np.inf
    top = overlap.max()
    if math.isnan(top):
        return math.nan, -1, -1
    ri, ci = np.nonzero(overlap == top)
    k = np.lexsort((cols[ci], rows[ri]))[0]  # smallest i, then smallest j
    return float(top), int(rows[ri[k]]), int(cols[ci[k]])


def physics_or_default(physics: object, kind: type[T], what: str) -> T:
    """The physics a table factory is given: `kind()` for None, the physics itself when it is
    a `kind`, else a ValueError naming `what` (`physics or Physics()` took 'x', and 0 or ''
    for the defaults)."""
    if physics is None:
        return kind()
    if not isinstance(physics, kind):
        raise ValueError(f"{what}: physics must be a {kind.__name__} or None, got "
                         f"{shown(physics):.60} ({type(physics).__name__})")
    return physics


def table_or_default(table: object, kind: type[T], default: Callable[[], T], what: str) -> T:
    """The table a layout builder is given: `default()` for None, the table itself when it is
    a `kind`, else a LayoutError naming `what` (a list or a pool table given to a novus
    builder was an AttributeError somewhere inside)."""
    if table is None:
        return default()
    if not isinstance(table, kind):
        raise LayoutError(f"{what}: the table is a {type(table).__name__}, not a "
                          f"{kind.__name__}")
    return table
