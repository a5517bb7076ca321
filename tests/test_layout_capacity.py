"""Layouts with more pieces than a table can hold are refused by count, before any pair check;
the pair check itself (tables/base.py) uses memory O(n) and finds what the n x n matrix found."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

from cuesim import ShotError, novus_table, start_layout
from cuesim.cli import main
from cuesim.tables import base
from cuesim.tables.base import check_pieces, surface_capacity
from cuesim.tables.box import box_for, random_box_layout
from cuesim.tables.carom import carom_table
from cuesim.tables.layout import Layout, LayoutError, Piece
from cuesim.tables.pool import pool_table


def _balls(n: int, table: str = "pool_9ft") -> Layout:
    """n balls on a 5 mm grid (overlapping: only the count matters to the refusal)."""
    return Layout(table, tuple(Piece(f"b{k}", "ball", 0.1 + 0.005 * (k % 200),
                                     0.1 + 0.005 * (k // 200)) for k in range(n)))


def test_capacity_is_the_hexagonal_packing_bound():
    r = 0.028575
    density = math.pi / (2 * math.sqrt(3))
    assert surface_capacity(1.27, 2.54, r) == math.floor(1.27 * 2.54 * density
                                                         / (math.pi * r * r)) + 1
    assert surface_capacity(1.27, 2.54, r, holes=6) == surface_capacity(1.27, 2.54, r) + 6


def test_cli_refuses_a_layout_of_too_many_pieces_in_one_line(tmp_path, capsys):
    path = tmp_path / "big.json"
    _balls(20001).save(path)
    assert main(["shoot", "9-ball", "--speed", "7", "--layout", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cuesim: error: ") and err.count("\n") == 1
    most = surface_capacity(1.27, 2.54, 0.028575, 6)
    assert (f"layout has 20001 pieces; the pool_9ft table's surface can hold at most {most} "
            f"pieces of radius {28.575:.2f} mm (hexagonal packing)") in err


def test_api_refuses_by_count():
    with pytest.raises(LayoutError, match=r"layout has 5000 pieces; the pool_9ft table's "
                                          r"surface can hold at most \d+ pieces"):
        pool_table().check_layout(_balls(5000))
    table = novus_table()
    pucks = Layout("novus", tuple(Piece(f"p{k}", "puck", 0.5, 0.5) for k in range(1300)))
    with pytest.raises(LayoutError, match="layout has 1300 pieces; the novus table's"):
        table.check_layout(pucks)


def test_real_layouts_stay_under_the_bound():
    for game in ("novus", "novus-doubles", "8-ball", "9-ball", "14.1", "5-pins"):
        start_layout(game)  # each checked against its table
    for piece in ("puck", "ball"):
        box = box_for(1024, piece)
        assert len(random_box_layout(box, 1024, np.random.default_rng(1))) == 1024
        assert surface_capacity(box.width, box.length, box.radius) > 8 * 1024


def test_start_layout_refuses_a_table_of_another_game():
    with pytest.raises(ShotError, match="start_layout: the table is a novus table, not a pool "
                                        "table for '9-ball'"):
        start_layout("9-ball", novus_table())
    with pytest.raises(ShotError, match="the table is a pool table, not a novus table"):
        start_layout("novus-doubles", pool_table())
    with pytest.raises(ShotError, match="not a carom table for '5-pins'"):
        start_layout("5-pins", "carom")  # type: ignore[arg-type]
    with pytest.raises(ShotError, match="unknown game 'pool'"):
        start_layout("pool", pool_table())


# --- the pair check against the n x n matrix it replaced ---------------------------------


def old_pair_check(layout: Layout, pos: np.ndarray, kinds: list[str], radii: np.ndarray,
                   tol: float, contact: Callable[[str, str], float] | None) -> None:
    """The full-matrix overlap check as it was (the reference)."""
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


def _message(check: Callable[..., None], *args: object) -> str | None:
    try:
        check(*args)
    except LayoutError as e:
        return str(e)
    return None


RADII = {"ball": 0.028575, "pin": 0.0020, "puck": 0.015}


def _asymmetric(a: str, b: str) -> float:
    """A contact distance that depends on the order of the kinds (ordered pairs must match)."""
    return RADII[a] + RADII[b] + (0.002 if a < b else 0.0)


def _random_case(rng: np.random.Generator, n: int, grid: bool, names: tuple[str, ...]) -> tuple:
    kinds = [names[k] for k in rng.integers(0, len(names), n)]
    if grid:  # dyadic grid steps: many exactly equal distances, hence tied overlaps
        pos = rng.integers(0, 24, (n, 2)) / 64.0
    else:
        pos = rng.uniform(0.0, 0.2 * math.sqrt(n) * 0.05, (n, 2))
    pieces = tuple(Piece(f"p{k}", kind, float(x), float(y))
                   for k, (kind, (x, y)) in enumerate(zip(kinds, pos, strict=True)))
    radii = np.array([RADII[k] for k in kinds])
    return Layout("box", pieces), pos, kinds, radii


CONTACTS = {"radii": (None, tuple(RADII)),
            "carom": (carom_table().contact_distance, ("ball", "pin")),
            "asymmetric": (_asymmetric, tuple(RADII))}


@pytest.mark.parametrize("tile", [3, 1024])
@pytest.mark.parametrize("contact_name", list(CONTACTS))
def test_pair_check_finds_what_the_full_matrix_found(monkeypatch, tile, contact_name):
    """Same pair, same message, ties broken as np.argmax (smallest (i, j) in row-major order),
    over several blocks (tile 3) and one (tile 1024), with and without `contact`."""
    monkeypatch.setattr(base, "_TILE", tile)
    contact, names = CONTACTS[contact_name]
    rng = np.random.default_rng(7)
    raised = 0
    for trial in range(120):
        n = int(rng.integers(2, 60))
        layout, pos, kinds, radii = _random_case(rng, n, trial % 2 == 0, names)
        for tol in (1e-9, 0.01, -0.05):
            args = (layout, pos, kinds, radii, tol, contact)
            want = _message(old_pair_check, *args)
            assert _message(base._check_overlaps, *args) == want
            raised += want is not None
    assert raised > 100  # the cases do overlap


def test_pair_check_ties_pick_the_first_pair_in_row_major_order(monkeypatch):
    """Four pieces at one spot and two at another: every pair at a spot overlaps by the same
    30 mm; the first in row-major order, (0, 2), is named, across blocks of two."""
    monkeypatch.setattr(base, "_TILE", 2)
    xy = [(0.5, 0.5), (0.25, 0.25), (0.5, 0.5), (0.25, 0.25), (0.5, 0.5), (0.5, 0.5)]
    layout = Layout("box", tuple(Piece(f"p{k}", "puck", x, y) for k, (x, y) in enumerate(xy)))
    pos, kinds = layout.positions(), ["puck"] * 6
    radii = np.full(6, 0.015)
    want = _message(old_pair_check, layout, pos, kinds, radii, 1e-9, None)
    assert want is not None and want.startswith("pieces 'p0' and 'p2' overlap by 30.000 mm")
    assert _message(base._check_overlaps, layout, pos, kinds, radii, 1e-9, None) == want


def test_check_pieces_on_a_large_box_matches_the_full_matrix():
    """A 1,500-piece box layout (two blocks of the pair check), one piece put on another."""
    box = box_for(1500)
    layout = random_box_layout(box, 1500, np.random.default_rng(3))
    check_pieces(box, layout, contact=box.contact_distance)  # no overlap
    a, b = layout.pieces[1200], layout.pieces[40]
    moved = Piece(a.id, a.kind, b.x, b.y)  # on top of puck40: the largest overlap, 30 mm
    bad = Layout("box", tuple(moved if p.id == a.id else p for p in layout.pieces))
    pos, kinds = bad.positions(), [p.kind for p in bad.pieces]
    radii = np.full(len(kinds), box.radius)
    want = _message(old_pair_check, bad, pos, kinds, radii, 1e-9, box.contact_distance)
    assert want is not None and "'puck40' and 'puck1200'" in want
    assert _message(check_pieces, box, bad, 1e-9, box.contact_distance) == want
