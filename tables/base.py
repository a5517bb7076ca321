"""What every table shares: its layout check (cached per layout) and a hash computed once.

A table is a frozen dataclass with `name`, `geometry`, `kinds` and `piece_spec(kind)`; it
inherits from PieceTable and sets `__hash__ = PieceTable.__hash__` in its body (a frozen
dataclass would otherwise generate a hash that walks every field on every cache lookup).
"""

from __future__ import annotations

import dataclasses
import math
from functools import lru_cache
from typing import Any

import numpy as np

from cuesim.tables.geometry import TableGeometry
from cuesim.tables.layout import Layout, LayoutError
from cuesim.tables.pieces import PieceSpec


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

    def piece_spec(self, kind: str) -> PieceSpec:
        raise NotImplementedError

    def contact_distance(self, kind_a: str, kind_b: str) -> float:
        """Centre distance at which two pieces touch in the plane: the sum of their radii."""
        return self.piece_spec(kind_a).radius + self.piece_spec(kind_b).radius

    def check_layout(self, layout: Layout) -> None:
        """Raise LayoutError naming the first piece that is unknown, not wholly on the surface,
        over a hole or pocket, or overlapping another (cached per layout)."""
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
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}


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


def check_pieces(table: Any, layout: Layout, tol: float = 1e-9,
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
        d = np.hypot(pos[:, None, 0] - pos[None, :, 0], pos[:, None, 1] - pos[None, :, 1])
        if contact is None:
            need = radii[:, None] + radii[None, :]
        else:
            distance = {(a, b): contact(a, b) for a in set(kinds) for b in set(kinds)}
            need = np.array([[distance[(a, b)] for b in kinds] for a in kinds])
        overlap = need - d
        np.fill_diagonal(overlap, -np.inf)
        i, j = np.unravel_index(np.argmax(overlap), overlap.shape)
        if overlap[i, j] > tol:
            a, b = layout.pieces[i], layout.pieces[j]
            raise LayoutError(
                f"pieces {a.id!r} and {b.id!r} overlap by {overlap[i, j] * 1000:.3f} mm: centres "
                f"must be at least {need[i, j] * 1000:.2f} mm apart")
