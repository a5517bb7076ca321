"""What the engine builds from a layout before the compiled loop: the static property array P
is shared by every placement of the same pieces, and the layout's arrays are what its pieces
say (the fingerprint tests check that the shots themselves are unchanged)."""

from __future__ import annotations

import math
import pickle

import numpy as np

import cuesim
from cuesim import Layout, Piece
from cuesim.api import simulate_input
from cuesim.sim.engine import _kind_properties, table_arrays
from cuesim.sim.state import X, Y, static_properties


def test_layout_positions_and_kinds_follow_its_pieces():
    lay = Layout("novus", (Piece("a", "puck", 0.25, 0.5, "red"), Piece("s", "striker", 0.5, 1)))
    pos = lay.positions()
    assert pos.dtype == np.float64 and pos.tolist() == [[0.25, 0.5], [0.5, 1.0]]
    assert lay.kinds() == ("puck", "striker") and lay.kinds() is lay.kinds()
    assert Layout("novus", ()).positions().shape == (0, 2)
    assert Layout("novus", ()).kinds() == ()
    again = pickle.loads(pickle.dumps(lay))
    assert again == lay and "_kinds" not in vars(again) and again.kinds() == lay.kinds()


def test_every_placement_of_the_same_pieces_shares_one_read_only_p():
    """A new striker place is a new layout; its P comes from the kinds' cache, and it is the
    array the layout's own pieces give."""
    table = cuesim.novus_table()
    lay = cuesim.novus_doubles_layout(table)
    first = simulate_input(table, lay, cuesim.NovusShot(x=0.3, angle=math.pi / 2, speed=5.0))
    hits = _kind_properties.cache_info().hits
    second = simulate_input(table, lay, cuesim.NovusShot(x=0.7, angle=math.pi / 2, speed=5.0))
    assert first.layout != second.layout
    assert second.P is first.P and not second.P.flags.writeable
    assert _kind_properties.cache_info().hits > hits
    arr = table_arrays(table)
    kinds = np.array([arr.kinds.index(p.kind) for p in second.layout.pieces], dtype=np.int64)
    specs = [arr.specs[p.kind] for p in second.layout.pieces]
    expected = static_properties(
        kinds, np.array([s.radius for s in specs]), np.array([s.mass for s in specs]),
        np.array([s.inertia for s in specs]), arr.decel[kinds], arr.spin_decel[kinds],
        arr.law[kinds], arr.roll_decel[kinds], arr.thrown_radius[kinds], arr.pin_model)
    assert np.array_equal(second.P, expected)
    assert np.array_equal(second.S[:, [X, Y]], second.layout.positions())
