"""The event queue: a tournament tree over each object's earliest time.

tree[1] is the index of the smallest of vals[:n], the lowest index among equal ones (what
np.argmin gives); changing vals[i] costs log2(n) steps (`update_path`, or `update`, which
stops early), reading the earliest O(1), and listing every object due by a time O(k log n)
for k of them, in index order (`due`). Leaves sit at tree[L:L + n] (L the power of two
>= n); a node holds the index of the smaller of its children's, the left one on ties; padding
leaves hold -1 (never smaller).

A flat queue (`tree_length(n, flat=True)`: two entries) keeps no tree: `earliest` is an argmin
scan and `due` a scan, cheaper for a few objects than mending the tree at every change.
"""

from __future__ import annotations

import numpy as np

from cuesim.sim.compiled import njit_norc


@njit_norc
def tree_length(n: int, flat: bool) -> int:
    """The length of the tree for n objects (any int array that long; `build` fills it):
    twice the power of two >= n (2: a flat queue)."""
    size = 1
    while size < n and not flat:
        size *= 2
    return 2 * size


@njit_norc
def argmin(vals: np.ndarray) -> int:
    """np.argmin of a non-empty float row: the first NaN if there is one, else the lowest index
    of the smallest value (written out: numba's np.argmin lives in a module that a fresh
    process would import to load it, 20 ms)."""
    best, k = vals[0], 0
    if best != best:
        return 0
    for i in range(vals.shape[0]):
        v = vals[i]
        if v != v:
            return i
        if v < best:
            best, k = v, i
    return k


@njit_norc
def earliest(tree: np.ndarray, vals: np.ndarray) -> int:
    """The index of the smallest value (the lowest on ties)."""
    if tree.shape[0] == 2:
        return argmin(vals)
    return tree[1]


@njit_norc
def _better(a: int, b: int, vals: np.ndarray) -> int:
    if b < 0:
        return a
    if a < 0:
        return b
    return a if vals[a] <= vals[b] else b


@njit_norc
def build(tree: np.ndarray, vals: np.ndarray) -> None:
    """Fill the tree from vals (all of it)."""
    size = tree.shape[0] // 2
    n = vals.shape[0]
    for k in range(size):
        tree[size + k] = k if k < n else -1
    for k in range(size - 1, 0, -1):
        tree[k] = _better(tree[2 * k], tree[2 * k + 1], vals)


@njit_norc
def update_path(tree: np.ndarray, vals: np.ndarray, i: int) -> None:
    """vals[i] has changed: recompute every node from its leaf to the root. A fixed number of
    levels, with no data-dependent exit: on the event queue, mended several times an event,
    it beats `update`'s early stop, whose exit the branch predictor misses (boxes of 256 and
    1,024 pieces 5-7 % faster, bench/README.md "The event queue mends the whole path")."""
    if tree.shape[0] == 2:
        return
    k = (tree.shape[0] // 2 + i) // 2
    while k >= 1:
        tree[k] = _better(tree[2 * k], tree[2 * k + 1], vals)
        k //= 2


@njit_norc
def update(tree: np.ndarray, vals: np.ndarray, i: int) -> None:
    """vals[i] has changed: mend the path from its leaf to the root. It stops at a node whose
    winner stays the same object, other than i: that winner's value is unchanged, so is every
    node above it. The loop's crossings queue uses it (faster there than `update_path`: the
    boxes of 40-64 pucks lose 6 % with the whole path)."""
    if tree.shape[0] == 2:
        return
    k = (tree.shape[0] // 2 + i) // 2
    while k >= 1:
        old = tree[k]
        new = _better(tree[2 * k], tree[2 * k + 1], vals)
        if new == old and new != i:
            return
        tree[k] = new
        k //= 2


@njit_norc
def due(tree: np.ndarray, vals: np.ndarray, limit: float, out: np.ndarray,
        stack: np.ndarray) -> int:
    """Write every i with vals[i] <= limit into out, ascending; returns their count. `stack`
    is an int work array of at least 2 log2(n) + 2 entries."""
    size = tree.shape[0] // 2
    cnt = 0
    if size == 1:
        for i in range(vals.shape[0]):
            if vals[i] <= limit:
                out[cnt] = i
                cnt += 1
        return cnt
    top = 1
    stack[0] = 1
    while top > 0:
        top -= 1
        k = stack[top]
        idx = tree[k]
        if idx < 0 or not vals[idx] <= limit:
            continue
        if k >= size:
            out[cnt] = idx
            cnt += 1
            continue
        stack[top] = 2 * k + 1  # right under left: the left subtree (lower indices) first
        stack[top + 1] = 2 * k
        top += 2
    return cnt
