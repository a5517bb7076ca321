"""Broadphase: a uniform grid of square cells, so that an event predicts only against the
pieces near it and the cost per event stays flat in the number of pieces.

Each piece on the table belongs to one cell, kept in that cell's list (sorted by index). A
piece stays in its cell while its centre is within the cell widened by `margin` on every
side (the "fat" cell); the moment its path leaves the fat cell is a crossing, an internal
event of the loop that moves it to the neighbouring cell. Two pieces whose centres are less
than `width - 2 margin` apart are then always in the same or in neighbouring cells (their
3 x 3 blocks hold each other), and the cell width is at least the largest contact distance
plus the margins, so every contact, and every touching pair, is between neighbours.

Cells outside the grid clamp to its edge cells (a clamped index is still 1-Lipschitz in the
position, so neighbours stay neighbours); the edge cells have no outer crossing.

The grid's parameters g: (x0, y0, width, margin, columns, rows). One cell (columns = rows =
1) is the grid switched off: every piece is every other's neighbour, in index order.
"""

from __future__ import annotations

import math

import numpy as np

from cuesim.sim.compiled import njit_core, njit_norc
from cuesim.sim.roots import INF, quadratic_roots
from cuesim.sim.state import AX, AY, LAW, LAW_PIN, ON, R2, T0, TEND, VX, VY, R, X, Y

G_X0, G_Y0, G_W, G_MARGIN, G_NX, G_NY = range(6)
MARGIN = 0.05  # the fat cell's margin, as a fraction of the cell width
# an impact takes in a piece at most this fraction of the pair's contact distance away
# (detect.touching: its reach, REACH delta*, meets it from about 1.4 m/s for balls and 8.5 m/s
# for pucks; the pi delta* a struck piece moves during a contact stays within it up to about
# 25 m/s for balls and 85 m/s for pucks, beyond any cue)
REACH_FRACTION = 0.1
# the smallest cell: the largest contact distance and the impact's farthest reach (with TOUCH
# and rounding) fit within the width less both margins, with this factor to spare
SPARE = 1.01 * (1.0 + REACH_FRACTION)
# measured on the compiled loop, the same shots with no grid and on the grid (bench/README.md,
# "Broadphase", "The grid from 34 pieces"): below 34 pieces the grid costs more than it saves on
# every novus layout (all have at most 33 pieces: the openings 0.95x, scattered layouts of
# 16-32 pucks 0.72-0.88x), on the breaks and on 5-pins; on the boxes it pays from about 32
# pieces (1.05-1.10x at 32, 1.24-1.26x at 40, 1.5-1.75x at 64). It is a speed setting, not
# physics: the results are the same bytes either way. The narrowest cells are the fastest on
# every box from 64 to 1,024 pieces (0.1 of a piece's share of the area: the floor of
# `smallest_width` decides at 10 % coverage; 0.25, 0.5, 1 and 2 were 5-60 % slower)
GRID_MIN_N = 34  # fewer objects: no grid
CELL_PIECES = 0.1  # the area of a cell, in pieces' shares of the table
MAX_CELLS = 1024  # cells per side at most


@njit_norc
def _set(g: np.ndarray, x0: float, y0: float, width: float, margin: float, nx: float,
         ny: float) -> None:
    g[G_X0], g[G_Y0], g[G_W], g[G_MARGIN], g[G_NX], g[G_NY] = x0, y0, width, margin, nx, ny


@njit_norc
def grid_params_into(g: np.ndarray, width: float, x0: float, y0: float, x1: float, y1: float,
                     max_cells: int) -> None:
    """Write into g (6 floats) the parameters of a grid of cells `width` wide over the box
    (x0, y0)-(x1, y1), with at most max_cells per side (wider cells beyond that). width <= 0,
    or a box of one cell: the grid of one cell."""
    if not (width > 0.0 and x1 > x0 and y1 > y0) or math.isinf(x1 - x0) or math.isinf(y1 - y0):
        _set(g, 0.0, 0.0, INF, 0.0, 1.0, 1.0)
        return
    width = max(width, max(x1 - x0, y1 - y0) / max_cells)
    nx = max(1, int(math.ceil((x1 - x0) / width)))
    ny = max(1, int(math.ceil((y1 - y0) / width)))
    if nx == 1 and ny == 1:
        _set(g, 0.0, 0.0, INF, 0.0, 1.0, 1.0)
    else:
        _set(g, x0, y0, width, MARGIN * width, float(nx), float(ny))


@njit_core
def grid_params(width: float, x0: float, y0: float, x1: float, y1: float,
                max_cells: int) -> np.ndarray:
    """`grid_params_into` a new array."""
    g = np.empty(6)
    grid_params_into(g, width, x0, y0, x1, y1, max_cells)
    return g


@njit_norc
def smallest_width(contact_distance: float) -> float:
    """The narrowest cell for pieces that touch at centre distances up to contact_distance."""
    return SPARE * (contact_distance + 1e-6) / (1.0 - 2.0 * MARGIN)


@njit_core
def auto_grid(S: np.ndarray, P: np.ndarray, rails: np.ndarray) -> np.ndarray:
    """`auto_grid_into` a new array."""
    g = np.empty(6)
    auto_grid_into(S, P, rails, g)
    return g


@njit_norc
def auto_grid_into(S: np.ndarray, P: np.ndarray, rails: np.ndarray, g: np.ndarray) -> None:
    """Write into g the grid the loop uses: none below GRID_MIN_N objects (a crossing costs
    more than the pairs it saves), else cells of about CELL_PIECES pieces' share of the area
    the pieces and rails span, never narrower than `smallest_width` of the largest contact
    distance. (It allocates nothing: a fresh process loading an allocating function imports
    numba's array module, 70 ms.)"""
    n = S.shape[0]
    if n < GRID_MIN_N:
        grid_params_into(g, 0.0, 0.0, 0.0, 0.0, 0.0, 1)
        return
    r_max = 0.0
    x0, y0, x1, y1 = INF, INF, -INF, -INF
    for i in range(n):
        r_max = max(r_max, P[i, R], P[i, R2] if P[i, LAW] == LAW_PIN else 0.0)
        if S[i, ON] != 0.0:
            x0, x1 = min(x0, S[i, X]), max(x1, S[i, X])
            y0, y1 = min(y0, S[i, Y]), max(y1, S[i, Y])
    for k in range(rails.shape[0]):
        for c in range(2):
            x0, x1 = min(x0, rails[k, 2 * c]), max(x1, rails[k, 2 * c])
            y0, y1 = min(y0, rails[k, 2 * c + 1]), max(y1, rails[k, 2 * c + 1])
    area = (x1 - x0) * (y1 - y0)
    if not area > 0.0:
        grid_params_into(g, 0.0, 0.0, 0.0, 0.0, 0.0, 1)
        return
    width = max(smallest_width(2.0 * r_max), math.sqrt(CELL_PIECES * area / n))
    grid_params_into(g, width, x0, y0, x1, y1, MAX_CELLS)


@njit_norc
def one_cell(g: np.ndarray) -> bool:
    """Whether g is the grid of one cell (no broadphase)."""
    return g[G_NX] == 1.0 and g[G_NY] == 1.0


@njit_norc
def cell_at(g: np.ndarray, x: float, y: float) -> int:
    """The cell holding position (x, y), clamped to the grid."""
    nx, ny = int(g[G_NX]), int(g[G_NY])
    if nx == 1 and ny == 1:
        return 0
    cx = min(max(int(math.floor((x - g[G_X0]) / g[G_W])), 0), nx - 1)
    cy = min(max(int(math.floor((y - g[G_Y0]) / g[G_W])), 0), ny - 1)
    return cy * nx + cx


@njit_norc
def insert(head: np.ndarray, nxt: np.ndarray, prv: np.ndarray, cell: np.ndarray, i: int,
           c: int) -> None:
    """Put piece i into cell c's list, in index order."""
    cell[i] = c
    p, q = -1, head[c]
    while q >= 0 and q < i:
        p, q = q, nxt[q]
    prv[i], nxt[i] = p, q
    if p >= 0:
        nxt[p] = i
    else:
        head[c] = i
    if q >= 0:
        prv[q] = i


@njit_norc
def remove(head: np.ndarray, nxt: np.ndarray, prv: np.ndarray, cell: np.ndarray,
           i: int) -> None:
    """Take piece i out of its cell's list (nothing if it is in none)."""
    c = cell[i]
    if c < 0:
        return
    p, q = prv[i], nxt[i]
    if p >= 0:
        nxt[p] = q
    else:
        head[c] = q
    if q >= 0:
        prv[q] = p
    cell[i] = -1


@njit_norc
def neighbours(g: np.ndarray, head: np.ndarray, nxt: np.ndarray, c: int, skip: int,
               out: np.ndarray) -> int:
    """Write the pieces of cell c's 3 x 3 block, except `skip`, into out; returns their count.
    With one cell: every piece but `skip`, in index order."""
    return beyond(g, head, nxt, c, -1, skip, out)


@njit_norc
def adjacent(g: np.ndarray, c: int, d: int) -> bool:
    """Whether cells c and d (both on the grid) are in each other's 3 x 3 block: their pieces
    are neighbours (`neighbours` lists each for the other)."""
    nx = int(g[G_NX])
    return abs(c % nx - d % nx) <= 1 and abs(c // nx - d // nx) <= 1


@njit_norc
def beyond(g: np.ndarray, head: np.ndarray, nxt: np.ndarray, c: int, other: int, skip: int,
           out: np.ndarray) -> int:
    """Write the pieces of cell c's block that are not in cell other's block (other < 0: none
    is), except `skip`, into out: the neighbours a piece gains moving from `other` to c, or
    loses moving from c to `other`. Returns their count."""
    nx, ny = int(g[G_NX]), int(g[G_NY])
    cx, cy = c % nx, c // nx
    ox, oy = (other % nx, other // nx) if other >= 0 else (-3, -3)
    cnt = 0
    for yy in range(max(cy - 1, 0), min(cy + 2, ny)):
        for xx in range(max(cx - 1, 0), min(cx + 2, nx)):
            if abs(xx - ox) <= 1 and abs(yy - oy) <= 1:
                continue
            q = head[yy * nx + xx]
            while q >= 0:
                if q != skip:
                    out[cnt] = q
                    cnt += 1
                q = nxt[q]
    return cnt


@njit_norc
def sort_small(a: np.ndarray, n: int) -> None:
    """Sort a[:n] ascending in place (insertion sort: the lists are short, often sorted)."""
    for k in range(1, n):
        v = a[k]
        m = k - 1
        while m >= 0 and a[m] > v:
            a[m + 1] = a[m]
            m -= 1
        a[m + 1] = v


@njit_norc
def _first_exit(p: float, v: float, a: float, lo: float, hi: float, t0: float,
                t1: float) -> float:
    """The first tau in [t0, t1] at which p + v tau + a tau^2 / 2 leaves [lo, hi] (t0 when it
    is already out there), INF if it stays in."""
    x = p + t0 * (v + 0.5 * t0 * a)
    if x <= lo or x >= hi:
        return t0
    best = INF
    for b in (lo, hi):
        if math.isinf(b):  # an edge cell's outer side: never crossed
            continue
        k, r1, r2 = quadratic_roots(0.5 * a, v, p - b)
        if k >= 1 and t0 < r1 <= t1:
            best = min(best, r1)
        elif k == 2 and t0 < r2 <= t1:
            best = min(best, r2)
    return best


@njit_norc
def crossing(S: np.ndarray, g: np.ndarray, i: int, c: int, t: float) -> tuple[float, int]:
    """When piece i, in cell c from time t on, leaves its fat cell along its segment: (time,
    the cell it enters). INF when it rests or stays in."""
    nx, ny = int(g[G_NX]), int(g[G_NY])
    tend = S[i, TEND]
    if (nx == 1 and ny == 1) or tend <= t:
        return INF, c
    cx, cy = c % nx, c // nx
    w, m = g[G_W], g[G_MARGIN]
    t0, t1 = t - S[i, T0], tend - S[i, T0]
    lo = g[G_X0] + cx * w - m if cx > 0 else -INF
    hi = g[G_X0] + (cx + 1) * w + m if cx < nx - 1 else INF
    tx = _first_exit(S[i, X], S[i, VX], S[i, AX], lo, hi, t0, t1)
    lo = g[G_Y0] + cy * w - m if cy > 0 else -INF
    hi = g[G_Y0] + (cy + 1) * w + m if cy < ny - 1 else INF
    ty = _first_exit(S[i, Y], S[i, VY], S[i, AY], lo, hi, t0, t1)
    if tx == INF and ty == INF:
        return INF, c
    tau = min(tx, ty)
    tc = t if tau == t0 else max(S[i, T0] + tau, t)
    if tx <= ty:  # the side crossed: the one the path is beyond or heading to at tau
        vx = S[i, VX] + tau * S[i, AX]
        x = S[i, X] + tau * (S[i, VX] + 0.5 * tau * S[i, AX])
        mid = g[G_X0] + (cx + 0.5) * w
        cx += 1 if (x > mid if x != mid else vx > 0.0) else -1
    else:
        vy = S[i, VY] + tau * S[i, AY]
        y = S[i, Y] + tau * (S[i, VY] + 0.5 * tau * S[i, AY])
        mid = g[G_Y0] + (cy + 0.5) * w
        cy += 1 if (y > mid if y != mid else vy > 0.0) else -1
    cx = min(max(cx, 0), nx - 1)
    cy = min(max(cy, 0), ny - 1)
    return tc, cy * nx + cx
