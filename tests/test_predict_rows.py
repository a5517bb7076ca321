"""Prediction after an event does each piece of work once (issue 16): the same results, bit
for bit, with less work.

- `predict_all` and `predict_near` predict a pair of two affected pieces once, by the later of
  the two in `affected` (the one whose value the earlier way of predicting both kept), and make
  the affected pieces' rows in the same pass instead of scanning them again afterwards. After
  either, every affected row is what a scan of it gives, every affected pair holds the later
  piece's prediction, and the work flags are clear again.
- `touching_system` looks at a rail or knuckle only when the piece is within its box widened
  by the contact's reach (`box_apart`): a feature outside it is never touching.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bench import scenarios as sc
from cuesim.sim.detect import TOUCH
from cuesim.sim.detect.grid import (
    MAX_CELLS,
    cell_at,
    crossing,
    grid_params,
    insert,
    neighbours,
    smallest_width,
)
from cuesim.sim.detect.touching import CULL_SPARE, box_apart, segment_contact
from cuesim.sim.engine import motion_input
from cuesim.sim.motion.dispatch import start_segment
from cuesim.sim.predict import (
    pair_in_view,
    predict_all,
    predict_near,
    row_all,
    row_min,
    set_view,
    single_event,
)
from cuesim.sim.queue import build, tree_length
from cuesim.sim.state import ON, VX, VY, R, X, Y
from cuesim.sim.work_rows import (
    FW_CROSS_T,
    FW_ROW_T,
    FW_SINGLE_T,
    FW_T_PRED,
    FW_VIEW,
    FW_VIEW_END,
    IW_AFFECTED,
    IW_CELL,
    IW_CROSS_C,
    IW_IN_CLUSTER,
    IW_NXT,
    IW_ROW_J,
    IW_SEEN,
    IW_SINGLE_C,
    IW_SINGLE_K,
    N_FW_ROWS,
    N_IW_ROWS,
)
from tests.profiles import examples

ONE_CELL = np.array([0.0, 0.0, math.inf, 0.0, 1.0, 1.0])


class Shot:
    """A shot's state as the loop holds it after its first predictions (`run_events_grid`
    before its first event): segments started, single events, boxes, the known pairs, rows,
    the grid and the queues."""

    def __init__(self, scenario: sc.Scenario, grid: bool) -> None:
        case = scenario.cases[0]
        inp = motion_input(case.table, case.layout, case.initial, struck=case.struck,
                           check=False)
        self.S, self.P, arr = inp.S.copy(), inp.P, inp.arr
        self.geo = (arr.rails, arr.holes, arr.lines, arr.circles)
        self.knuckles = arr.knuckles
        S, P, n = self.S, self.P, self.S.shape[0]
        self.n = n
        if grid:
            xs = np.concatenate([arr.rails[:, 0], arr.rails[:, 2]])
            ys = np.concatenate([arr.rails[:, 1], arr.rails[:, 3]])
            self.g = grid_params(smallest_width(2.0 * float(P[:, R].max())), xs.min(), ys.min(),
                                 xs.max(), ys.max(), MAX_CELLS)
        else:
            self.g = ONE_CELL.copy()
        n_cells = int(self.g[4]) * int(self.g[5])
        self.head = np.full(n_cells, -1, np.int64)
        self.iw = np.zeros((N_IW_ROWS, n), np.int64)  # the loop's work rows
        self.fw = np.full((N_FW_ROWS, n), math.inf)
        self.links = self.iw[IW_NXT:IW_CELL + 1]  # nxt, prv, cell
        self.links[:] = -1
        self.side_l = np.ones((n, arr.lines.shape[0]))
        self.side_c = np.ones((n, arr.circles.shape[0]))
        self.single_t, self.single_c, self.single_k = self.fw[FW_SINGLE_T], \
            self.iw[IW_SINGLE_C], self.iw[IW_SINGLE_K]
        self.view = self.fw[FW_VIEW:FW_VIEW_END]
        self.pair_t = np.full((n, n), math.inf)
        self.row_t, self.row_j = self.fw[FW_ROW_T], self.iw[IW_ROW_J]
        self.in_cluster, self.seen = self.iw[IW_IN_CLUSTER], self.iw[IW_SEEN]
        self.t_pred = self.fw[FW_T_PRED]
        self.t_pred[:] = 0.0
        self.cross_t, self.cross_c = self.fw[FW_CROSS_T], self.iw[IW_CROSS_C]
        nxt, prv, cell = self.links
        for i in range(n):
            start_segment(S, P, i, 0.0)
            if grid and S[i, ON] != 0.0:
                insert(self.head, nxt, prv, cell, i, cell_at(self.g, S[i, X], S[i, Y]))
        for i in range(n):
            self._single(i, 0.0)
        for i in range(n):
            for j in self.near(i):
                if j > i:
                    self.pair_t[i, j] = self.pair_t[j, i] = pair_in_view(S, P, i, j, 0.0,
                                                                         self.view)
            if grid and cell[i] >= 0:
                self.cross_t[i], self.cross_c[i] = crossing(S, self.g, i, cell[i], 0.0)
        for i in range(n):
            self.row_t[i], self.row_j[i] = self.scan(i)
        length = tree_length(n, not grid)
        self.queue, self.cross_q = np.full(length, -1, np.int64), np.full(length, -1, np.int64)
        build(self.queue, self.row_t)
        build(self.cross_q, self.cross_t)

    def _single(self, i: int, t: float) -> None:
        self.single_t[i], self.single_c[i], self.single_k[i], self.view[0, i] = single_event(
            self.S, self.P, i, t, *self.geo, self.side_l, self.side_c, self.knuckles)
        set_view(self.S, self.P, i, self.view)

    def near(self, i: int) -> list[int]:
        """Piece i's neighbours (every other piece without a grid)."""
        if self.g[4] == 1.0 and self.g[5] == 1.0:
            return [j for j in range(self.n) if j != i]
        cell = self.links[2]
        if cell[i] < 0:
            return []
        buf = np.zeros(self.n, np.int64)
        cnt = neighbours(self.g, self.head, self.links[0], cell[i], i, buf)
        return [int(j) for j in buf[:cnt]]

    def scan(self, i: int) -> tuple[float, int]:
        """Row i as a scan of it gives it."""
        if self.g[4] == 1.0 and self.g[5] == 1.0:
            return row_all(self.pair_t, self.single_t, i)
        return row_min(self.pair_t, self.single_t, i, self.g, self.head, self.links[0],
                       self.links[2], np.zeros(self.n, np.int64))

    def event(self, affected: list[int], kicks: list[tuple[float, float]]) -> None:
        """The affected pieces leave with new velocities at t = 0, and are predicted again."""
        S, P = self.S, self.P
        for a, (vx, vy) in zip(affected, kicks, strict=True):
            S[a, VX], S[a, VY] = vx, vy
            start_segment(S, P, a, 0.0)
        self.iw[IW_AFFECTED] = affected + [-1] * (self.n - len(affected))
        args = (S, P, 0.0, len(affected), *self.geo, self.side_l, self.side_c,
                self.knuckles, self.pair_t, self.iw, self.fw)
        if self.g[4] == 1.0 and self.g[5] == 1.0:
            predict_all(*args)
        else:
            predict_near(*args, self.g, self.head, self.queue, self.cross_q)


def _check(shot: Shot, affected: list[int]) -> None:
    """Every affected row is its scan; every pair of an affected piece holds the prediction
    of the later of the two in `affected` (the piece itself when its partner is not
    affected); the work flags are clear."""
    place = {a: m for m, a in enumerate(affected)}
    for a in affected:
        row_t, row_j = shot.scan(a)
        assert (shot.row_t[a], shot.row_j[a]) == (row_t, row_j)
        for k in shot.near(a):
            later, earlier = (k, a) if place.get(k, -1) > place[a] else (a, k)
            expected = pair_in_view(shot.S, shot.P, later, earlier, 0.0, shot.view)
            assert shot.pair_t[a, k] == shot.pair_t[k, a] == expected
    assert not shot.in_cluster.any() and not shot.seen.any()


kick = st.tuples(st.floats(-3.0, 3.0), st.floats(-3.0, 3.0))


@given(seed=st.integers(0, 40), data=st.data())
@settings(max_examples=examples(40), deadline=None)
def test_predict_all_rows_in_one_pass_are_the_scans(seed, data):
    """A 9-ball break's rack (no grid): affected pieces kicked anew; predict_all's one pass
    leaves every affected row as row_all scans it and each affected pair predicted by the
    later of its two pieces."""
    shot = Shot(sc.pool_break("9-ball", 1, seed=seed), grid=False)
    affected = data.draw(st.lists(st.integers(0, shot.n - 1), min_size=1, max_size=shot.n,
                                  unique=True))
    kicks = data.draw(st.lists(kick, min_size=len(affected), max_size=len(affected)))
    shot.event(affected, kicks)
    _check(shot, affected)


def _cluster(shot: Shot, data: st.DataObject) -> list[int]:
    """Affected pieces as an impact makes them: one piece and some of its neighbours (and of
    theirs), in any order."""
    first = data.draw(st.integers(0, shot.n - 1))
    chosen = [first]
    for _ in range(data.draw(st.integers(0, 6))):
        pool = sorted({k for a in chosen for k in shot.near(a)} - set(chosen))
        if not pool:
            break
        chosen.append(data.draw(st.sampled_from(pool)))
    return list(data.draw(st.permutations(chosen)))


@given(which=st.sampled_from(["opening", "box"]), seed=st.integers(0, 40), data=st.data())
@settings(max_examples=examples(60), deadline=None)
def test_predict_near_rows_in_one_pass_are_the_scans(which, seed, data):
    """On the grid (the novus doubles opening's touching rows, or a box of 64 pucks): the
    same as predict_all's, over the neighbours, for a piece and some of its neighbours."""
    scenario = sc.novus_opening(1) if which == "opening" else sc.box("puck", 64, 1, seed=seed)
    shot = Shot(scenario, grid=True)
    affected = _cluster(shot, data)
    kicks = data.draw(st.lists(kick, min_size=len(affected), max_size=len(affected)))
    shot.event(affected, kicks)
    _check(shot, affected)


side = st.floats(-0.2, 0.2)


@given(p=st.tuples(side, side), e0=st.tuples(side, side), e1=st.tuples(side, side),
       r=st.floats(0.005, 0.03), knuckle_r=st.floats(0.0, 0.02))
@settings(max_examples=examples(400), deadline=None)
def test_a_feature_whose_box_is_apart_is_not_touching(p, e0, e1, r, knuckle_r):
    """Whenever box_apart culls a rail (its segment's box) or a knuckle (its centre), the
    exact distance puts it farther than TOUCH from the piece."""
    ex, ey = e1[0] - e0[0], e1[1] - e0[1]
    length = math.hypot(ex, ey)
    nx, ny = (-ey / length, ex / length) if length > 0.0 else (0.0, 1.0)
    if nx * (p[0] - e0[0]) + ny * (p[1] - e0[1]) < 0.0:  # a rail's normal faces the table
        nx, ny = -nx, -ny
    rail = np.array([*e0, *e1, nx, ny, 0.0, 0.0, 0.0])
    if box_apart(p[0], p[1], r + TOUCH + CULL_SPARE, *e0, *e1):
        assert segment_contact(p[0], p[1], r, rail)[0] > TOUCH
    if box_apart(p[0], p[1], r + TOUCH + CULL_SPARE + knuckle_r, *e0, *e0):
        assert math.hypot(e0[0] - p[0], e0[1] - p[1]) - r - knuckle_r > TOUCH
