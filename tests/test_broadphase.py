"""The broadphase grid (sim.detect.grid) and the event queue (sim.queue), issue 16: the grid
decides only which pairs are predicted when, never a result. Every shot comes out bit for bit
the same with no grid, the grid `auto_grid` picks, and grids of cells 1x to 10x the narrowest
(a cut-off that changes nothing visible, as a threshold must); the queue is np.argmin."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuesim.sim.engine as engine
from cuesim.sim.detect.grid import (
    G_MARGIN,
    G_NX,
    G_NY,
    G_W,
    auto_grid,
    cell_at,
    crossing,
    grid_params,
    insert,
    neighbours,
    smallest_width,
)
from cuesim.sim.engine import motion_input, run_input
from cuesim.sim.queue import argmin, build, due, earliest, tree_length, update, update_path
from cuesim.sim.roots import INF
from cuesim.sim.state import AX, AY, LAW, LAW_PIN, NS, R2, T0, TEND, VX, VY, R, X, Y
from cuesim.tables.box import box_for, random_box_layout, random_box_motion
from tests.golden.fingerprints import FILE, all_fingerprints, fingerprint
from tests.profiles import examples


def _box_input(n: int, piece: str, seed: int) -> engine.MotionInput:
    table = box_for(n, piece)
    rng = np.random.default_rng([seed, n])
    layout = random_box_layout(table, n, rng)
    motion = random_box_motion(layout, rng, 3.0 if piece == "puck" else 2.0, ball=piece == "ball")
    return motion_input(table, layout, motion, max_events=200 * n + 20_000)


def _grid_of(inp: engine.MotionInput, scale: float) -> np.ndarray:
    """A grid of cells `scale` times the narrowest over the table's rails (0: no grid)."""
    if scale == 0.0:
        return grid_params(0.0, 0.0, 0.0, 0.0, 0.0, 1)
    r = inp.arr.rails
    pins = inp.P[:, LAW] == LAW_PIN  # a thrown pin reaches R2
    reach = max(float(inp.P[:, R].max()), float(inp.P[pins, R2].max(initial=0.0)))
    width = scale * smallest_width(2.0 * reach)
    return grid_params(width, float(r[:, [0, 2]].min()), float(r[:, [1, 3]].min()),
                       float(r[:, [0, 2]].max()), float(r[:, [1, 3]].max()), 4096)


def _run_with(inp: engine.MotionInput, grid: np.ndarray,
              monkeypatch: pytest.MonkeyPatch) -> str:
    with monkeypatch.context() as m:
        m.setattr(engine, "grid_for", lambda _inp: grid)
        return fingerprint(run_input(inp))


def test_fingerprint_shots_are_bit_identical_on_the_finest_grid(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16: the 57 stored shots (pool breaks, novus, 5-pins, clusters, pins), run with
    every piece on a grid of the narrowest cells (most crossings, most neighbour changes),
    give the stored bytes."""
    grids: list[np.ndarray] = []

    def fine(inp: engine.MotionInput) -> np.ndarray:
        grids.append(_grid_of(inp, 1.0))
        return grids[-1]

    monkeypatch.setattr(engine, "grid_for", fine)
    want = json.loads(FILE.read_text())
    got = all_fingerprints()
    changed = [name for name in want if got[name] != want[name]]
    assert not changed, f"{len(changed)} shots changed on the grid: {changed}"
    assert len(grids) >= len(want) - 8 and all(g[G_NX] * g[G_NY] > 50 for g in grids)


@pytest.mark.parametrize("piece,n,seed", [("puck", 64, 1), ("ball", 48, 2), ("puck", 200, 3)])
def test_box_results_do_not_depend_on_the_cell_size(piece: str, n: int, seed: int,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A box of moving pieces: no grid, cells 1x, 3x and 10x the narrowest, and the grid the
    engine picks all give the same bytes (the cell size is a cut-off, not physics)."""
    inp = _box_input(n, piece, seed)
    want = _run_with(inp, _grid_of(inp, 0.0), monkeypatch)
    for scale in (1.0, 3.0, 10.0):
        assert _run_with(inp, _grid_of(inp, scale), monkeypatch) == want, scale
    assert fingerprint(run_input(inp)) == want


def test_auto_grid_switches_on_for_many_pieces_only() -> None:
    few = _box_input(16, "puck", 4)
    many = _box_input(256, "puck", 4)
    g_few = auto_grid(few.S, few.P, few.arr.rails)
    g_many = auto_grid(many.S, many.P, many.arr.rails)
    assert g_few[G_NX] == g_few[G_NY] == 1.0
    assert g_many[G_NX] > 4 and g_many[G_NY] > 4
    # every contact distance fits between the fat cells' margins
    assert g_many[G_W] - 2 * g_many[G_MARGIN] > 2.0 * float(many.P[:, 0].max())


@given(st.lists(st.tuples(st.floats(-0.2, 1.2), st.floats(-0.2, 1.2)), min_size=2,
                max_size=40), st.floats(0.03, 0.3))
def test_pieces_closer_than_a_cell_are_neighbours(points: list[tuple[float, float]],
                                                  width: float) -> None:
    """Every piece less than width - 2 margin from another is in its 3 x 3 block, also off
    the grid's edges (clamped cells)."""
    g = grid_params(width, 0.0, 0.0, 1.0, 1.0, 4096)
    n = len(points)
    head = np.full(int(g[G_NX] * g[G_NY]), -1, np.int64)
    nxt, prv, cell = (np.full(n, -1, np.int64) for _ in range(3))
    for i, (x, y) in enumerate(points):
        insert(head, nxt, prv, cell, i, cell_at(g, x, y))
    reach = (g[G_W] - 2 * g[G_MARGIN]) if g[G_NX] > 1 or g[G_NY] > 1 else INF
    out = np.empty(n, np.int64)
    for i, (x, y) in enumerate(points):
        near = set(out[:neighbours(g, head, nxt, cell[i], i, out)].tolist())
        for j, (u, v) in enumerate(points):
            if j != i and math.hypot(u - x, v - y) < reach:
                assert j in near, (i, j)


def test_one_cell_lists_every_other_piece_in_index_order() -> None:
    """No grid: every piece is every other's neighbour, in index order (what the all-pairs
    loop scanned)."""
    g = grid_params(0.0, 0.0, 0.0, 0.0, 0.0, 1)
    n = 7
    head = np.full(1, -1, np.int64)
    nxt, prv, cell = (np.full(n, -1, np.int64) for _ in range(3))
    for i in (3, 0, 6, 1, 5, 2, 4):  # inserted in any order
        insert(head, nxt, prv, cell, i, cell_at(g, 0.1 * i, 0.2))
    out = np.empty(n, np.int64)
    for i in range(n):
        cnt = neighbours(g, head, nxt, cell[i], i, out)
        assert out[:cnt].tolist() == [j for j in range(n) if j != i]


@given(st.floats(-3.0, 3.0), st.floats(-3.0, 3.0), st.floats(-2.0, 2.0), st.floats(-2.0, 2.0),
       st.floats(0.05, 0.5), st.floats(0.3, 0.7), st.floats(0.3, 0.7))
def test_a_crossing_is_where_the_path_leaves_the_fat_cell(vx: float, vy: float, ax: float,
                                                          ay: float, h: float, x: float,
                                                          y: float) -> None:
    g = grid_params(0.1, 0.0, 0.0, 1.0, 1.0, 4096)
    S = np.zeros((1, NS))
    S[0, X], S[0, Y], S[0, VX], S[0, VY], S[0, AX], S[0, AY] = x, y, vx, vy, ax, ay
    S[0, T0], S[0, TEND] = 0.0, h
    c = cell_at(g, x, y)
    t, c2 = crossing(S, g, 0, c, 0.0)
    nx = int(g[G_NX])
    w, m = g[G_W], g[G_MARGIN]

    def inside(tau: float) -> bool:
        px, py = x + tau * (vx + 0.5 * tau * ax), y + tau * (vy + 0.5 * tau * ay)
        cx, cy = c % nx, c // nx
        return (cx * w - m - 1e-12 <= px <= (cx + 1) * w + m + 1e-12
                and cy * w - m - 1e-12 <= py <= (cy + 1) * w + m + 1e-12)

    taus = np.linspace(0.0, min(t, h), 200)
    assert all(inside(float(tau)) for tau in taus)  # in the fat cell until the crossing
    if t < INF:
        assert 0.0 <= t <= h and c2 != c
        cx, cy, cx2, cy2 = c % nx, c // nx, c2 % nx, c2 // nx
        assert abs(cx - cx2) + abs(cy - cy2) == 1  # into a side neighbour
    else:
        assert all(inside(float(tau)) for tau in np.linspace(0.0, h, 200))


@given(st.lists(st.floats(0.0, 10.0) | st.just(INF), min_size=1, max_size=70),
       st.lists(st.tuples(st.integers(0, 69), st.floats(0.0, 10.0) | st.just(INF)),
                max_size=60), st.floats(0.0, 10.0))
def test_the_queue_is_argmin_and_lists_the_due_in_order(vals: list[float],
                                                        changes: list[tuple[int, float]],
                                                        limit: float) -> None:
    for flat, mend in ((False, update), (False, update_path), (True, update),
                       (True, update_path)):
        v = np.array(vals)
        tree = np.full(tree_length(len(v), flat), -1, np.int64)
        build(tree, v)
        stack = np.empty(130, np.int64)
        out = np.empty(len(v), np.int64)
        for i, x in changes:
            i %= len(v)
            v[i] = x
            mend(tree, v, i)
            assert earliest(tree, v) == int(np.argmin(v))
            cnt = due(tree, v, limit, out, stack)
            assert out[:cnt].tolist() == np.flatnonzero(v <= limit).tolist()


@given(st.lists(st.floats(0.0, 10.0) | st.just(INF) | st.just(1.0), min_size=1, max_size=70),
       st.lists(st.lists(st.tuples(st.integers(0, 69), st.floats(0.0, 10.0) | st.just(INF)
                                   | st.just(1.0)), max_size=8), max_size=12),
       st.randoms())
def test_the_queue_mended_leaf_by_leaf_is_the_queue_built_anew(
        vals: list[float], batches: list[list[tuple[int, float]]], rnd) -> None:
    """Several values changed, then `update` (or `update_path`) for each changed leaf in any
    order (as the loop mends a cluster's rows): every node of the tree is the one `build`
    gives, so `update` stopping early at an unchanged winner loses nothing, and both mends
    leave the same tree."""
    for mend in (update, update_path):
        v = np.array(vals)
        tree = np.full(tree_length(len(v), False), -1, np.int64)
        build(tree, v)
        fresh = tree.copy()
        for batch in batches:
            changed = []
            for i, x in batch:
                i %= len(v)
                v[i] = x
                changed.append(i)
            rnd.shuffle(changed)
            for i in changed:
                mend(tree, v, i)
            build(fresh, v)
            assert tree.tolist() == fresh.tolist()


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.sampled_from([0.0, 1.0, 2.0, -1.0, INF, -INF, math.nan]), min_size=1,
                max_size=12))
def test_the_flat_queues_argmin_is_numpys(vals: list[float]) -> None:
    """The flat queue's written-out argmin follows np.argmin: the first NaN, else the first of
    the smallest (ties to the lowest index)."""
    v = np.array(vals)
    assert argmin(v) == int(np.argmin(v))


@settings(max_examples=examples(8), deadline=None)
@given(st.integers(48, 140), st.sampled_from(["puck", "ball"]), st.integers(0, 10**6),
       st.floats(0.2, 6.0))
def test_random_boxes_are_the_same_on_and_off_the_grid(n: int, piece: str, seed: int,
                                                       speed: float) -> None:
    """Random layouts and launches (property test): the picked grid gives the bytes of no
    grid, the shot ends at rest with every piece finite, on the table and overlapping no
    other by more than the contact tolerance."""
    table = box_for(n, piece)
    rng = np.random.default_rng(seed)
    layout = random_box_layout(table, n, rng)
    motion = random_box_motion(layout, rng, speed, ball=piece == "ball")
    inp = motion_input(table, layout, motion, max_events=200 * n + 20_000)
    grid = auto_grid(inp.S, inp.P, inp.arr.rails)
    assert grid[G_NX] * grid[G_NY] > 1
    res = run_input(inp)
    assert not res.truncated
    with pytest.MonkeyPatch.context() as m:
        m.setattr(engine, "grid_for", lambda _inp: grid_params(0.0, 0.0, 0.0, 0.0, 0.0, 1))
        assert fingerprint(run_input(inp)) == fingerprint(res)
    xy = res.final_positions
    assert np.isfinite(xy).all()
    r = inp.P[:, 0]
    assert (xy[:, 0] - r >= -1e-9).all() and (xy[:, 0] + r <= table.width + 1e-9).all()
    assert (xy[:, 1] - r >= -1e-9).all() and (xy[:, 1] + r <= table.length + 1e-9).all()
    d = np.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(d, np.inf)
    assert (d - (r[:, None] + r[None, :]) >= -1e-7).all()


@pytest.mark.parametrize("fill", ["zeros", "negative", "random"])
@pytest.mark.parametrize("case", ["box-pucks", "box-balls", "fine-grid", "no-grid"])
def test_garbage_in_the_pair_table_changes_nothing(case: str, fill: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """sim.loop does not reset its N x N pair table between shots (an O(N^2) fill): it reads
    only the entries a shot writes (on the grid its neighbours' pairs; with no grid every
    pair and the diagonal it resets). So a table full of garbage (0, -1: every pair due at
    once or in the past; random times) gives the bytes a fresh run gives, with the grid the
    engine picks, on the finest grid (most neighbour changes) and with none."""
    inp = _box_input(96, "ball" if case == "box-balls" else "puck", 5)
    grid = {"fine-grid": _grid_of(inp, 1.0), "no-grid": _grid_of(inp, 0.0)}.get(case)
    if grid is None:
        grid = engine.grid_for(inp)
    want = _run_with(inp, grid, monkeypatch)
    n, arr = inp.S.shape[0], inp.arr
    rng = np.random.default_rng(11)
    for _ in range(2):
        grids, _, _ = engine.work_arrays_for(n, arr.lines.shape[0], arr.circles.shape[0], grid)
        pair_t = grids[-1]
        assert pair_t.shape == (n, n)
        pair_t[:] = {"zeros": 0.0, "negative": -1.0}.get(fill, 0.0)
        if fill == "random":
            pair_t[:] = rng.uniform(-1.0, 5.0, (n, n))
        assert _run_with(inp, grid, monkeypatch) == want
