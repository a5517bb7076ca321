"""Opening racks of WPA pool on any `PoolTable`, and the cue ball in hand behind the head string.

Sources: the WPA rulebook `pool_wpa_ru.txt`: 3.2 (the triangle, the apex ball on the foot
spot, every ball touching its neighbours; 1.16.5 "as tight as possible"), 4.3 (8-ball: the 8
in the centre, a stripe and a solid in the back corners, the rest free), 5.2 (9-ball: a
diamond, the 1 at the apex on the foot spot, the 9 in the centre, the rest in random order),
6.4 (14.1: the 1 in the racker's right back corner, the 5 in his left, the rest free), 6.7.3
(the 14-ball re-rack with the apex place empty), 3.8 and 3.16 (the break is played from hand
behind the head string; the string itself is not behind it).

Places are listed row by row from the apex toward the foot rail, left to right (increasing x)
within a row, as in `pool_spots.triangle_positions`: in the 15-ball triangle index 0 is the
apex, 4 the centre, 10 and 14 the back corners. The racker stands behind the foot rail facing
the head rail, so his right is the small-x corner (index 10).

Balls are frozen (touching) unless `gap` > 0: then the lattice is spread by gap/2 and every
ball but the apex is moved by a random vector of length <= 0.225 gap, so every neighbouring
pair is apart by a gap between 0.05 and 0.95 times `gap` (tiny gaps such as 0.1 mm keep the
break from being a pile of exactly simultaneous contacts). The apex ball stays on the foot spot.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from cuesim.tables.base import metres, table_or_default
from cuesim.tables.layout import Layout, LayoutError, Piece
from cuesim.tables.numbers import finite_real, shown
from cuesim.tables.pool import BALL_DIAMETER, BALL_RADIUS, PoolTable, pool_table

CUE = "cue"
# Canonical legal orders (the same as the pool referee's rules/pool/racks.py).
EIGHT_BALL_ORDER = ("1", "9", "2", "10", "8", "3", "11", "4", "12", "5", "6", "13", "7", "14",
                    "15")  # 4.3: 8 in the centre (4), solid 6 and stripe 15 in the corners
NINE_BALL_ORDER = ("1", "2", "3", "4", "9", "5", "6", "7", "8")  # 5.2: 1 apex, 9 centre (4)
STRAIGHT_POOL_ORDER = ("6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "1", "2", "3",
                       "4", "5")  # 6.4: 1 in the racker's right corner (10), 5 in his left (14)
MAX_GAP = 0.005  # m: a "tiny" gap; larger ones are no longer a rack (3.2)
RngLike = np.random.Generator | int | None


def ball_group(ball_id: str) -> str:
    """'cue', 'solids' (1-7), 'eight' or 'stripes' (9-15), as the pool referee names them."""
    if ball_id == CUE:
        return "cue"
    n = int(ball_id)
    return "solids" if n < 8 else ("eight" if n == 8 else "stripes")


def _rng(rng: RngLike) -> np.random.Generator:
    """A generator from a generator, a seed, or None (seed 0: gaps stay reproducible)."""
    if isinstance(rng, np.random.Generator):
        return rng
    return np.random.default_rng(0 if rng is None else rng)


def triangle_places(table: PoolTable, rows: int = 5,
                    pitch: float = BALL_DIAMETER) -> list[tuple[float, float]]:
    """Centres of a tight triangle with the apex on the foot spot (3.2), rows toward the foot
    rail, left to right in a row. `pitch` is the centre distance of neighbours."""
    fx, fy = table.foot_spot
    row = pitch * math.sqrt(3) / 2
    return [(fx + (j - k / 2) * pitch, fy + k * row) for k in range(rows) for j in range(k + 1)]


def diamond_places(table: PoolTable, pitch: float = BALL_DIAMETER) -> list[tuple[float, float]]:
    """Centres of the 9-ball diamond (5.2): rows of 1, 2, 3, 2, 1 from the apex on the foot
    spot; index 0 is the apex, 4 the centre."""
    fx, fy = table.foot_spot
    row = pitch * math.sqrt(3) / 2
    return [(fx + (j - (n - 1) / 2) * pitch, fy + k * row)
            for k, n in enumerate((1, 2, 3, 2, 1)) for j in range(n)]


def _spread(places: list[tuple[float, float]], gap: float, rng: np.random.Generator,
            apex_fixed: bool) -> list[tuple[float, float]]:
    if not (finite_real(gap) and 0.0 <= gap <= MAX_GAP):
        raise ValueError(f"rack gap must lie in [0, {MAX_GAP}] m, got {shown(gap)}")
    if gap == 0.0:
        return places
    ax, ay = places[0]
    scale = (BALL_DIAMETER + gap / 2) / BALL_DIAMETER
    out = []
    for k, (x, y) in enumerate(places):
        x, y = ax + (x - ax) * scale, ay + (y - ay) * scale
        if k > 0 or not apex_fixed:
            rho = 0.225 * gap * math.sqrt(rng.random())
            phi = 2 * math.pi * rng.random()
            x, y = x + rho * math.cos(phi), y + rho * math.sin(phi)
        out.append((x, y))
    return out


def _layout(table: PoolTable, order: Sequence[str], places: list[tuple[float, float]],
            cue: Piece | None) -> Layout:
    pieces = [Piece(b, "ball", float(x), float(y), ball_group(b))
              for b, (x, y) in zip(order, places, strict=True)]
    if cue is not None:
        pieces.insert(0, cue)
    layout = Layout(table.name, tuple(pieces))
    table.check_layout(layout)
    return layout


def _check_ids(order: Sequence[str], expected: Iterable[str], game: str) -> None:
    want = sorted(expected, key=int)
    if isinstance(order, str) or not all(isinstance(b, str) for b in order):
        raise LayoutError(f"{game} racks the balls {want} (their ids, strings), got "
                          f"{order!r:.80}")
    got = sorted(order, key=lambda b: (int(b) if b.isdigit() else 10**6, b))
    if got != want:
        raise LayoutError(f"{game} racks the balls {want}, got {list(order)}")


def eight_ball_rack(table: PoolTable | None = None, order: Sequence[str] | None = None,
                    rng: RngLike = None, gap: float = 0.0, cue: Piece | None = None) -> Layout:
    """The 8-ball triangle (4.3): 15 balls, the apex on the foot spot, the 8 in the centre, a
    stripe in one back corner and a solid in the other, the rest free. `order` lists the ball
    at each place (checked against 4.3); without it a random legal order when `rng` is given,
    else EIGHT_BALL_ORDER. `cue` (e.g. `cue_ball_in_kitchen(table)`) is added when given."""
    table = table_or_default(table, PoolTable, pool_table, "eight_ball_rack")
    gen = _rng(rng)
    if order is None:
        order = EIGHT_BALL_ORDER if rng is None else _random_eight_ball(gen)
    order = tuple(order)
    _check_ids(order, (str(n) for n in range(1, 16)), "8-ball")
    if order[4] != "8":
        raise LayoutError(f"the 8 must stand in the centre of the triangle (4.3), not {order[4]}")
    if {ball_group(order[10]), ball_group(order[14])} != {"solids", "stripes"}:
        raise LayoutError("a stripe and a solid must stand in the back corners (4.3), not "
                          f"{order[10]} and {order[14]}")
    return _layout(table, order, _spread(triangle_places(table), gap, gen, True), cue)


def _random_eight_ball(gen: np.random.Generator) -> tuple[str, ...]:
    solids = [str(n) for n in range(1, 8)]
    stripes = [str(n) for n in range(9, 16)]
    solid = solids.pop(int(gen.integers(len(solids))))
    stripe = stripes.pop(int(gen.integers(len(stripes))))
    corners = (solid, stripe) if gen.random() < 0.5 else (stripe, solid)
    rest = [str(b) for b in gen.permutation(solids + stripes)]
    order: list[str] = []
    for k in range(15):
        order.append("8" if k == 4 else corners[0] if k == 10 else corners[1] if k == 14
                     else rest.pop())
    return tuple(order)


def nine_ball_rack(table: PoolTable | None = None, order: Sequence[str] | None = None,
                   rng: RngLike = None, gap: float = 0.0, cue: Piece | None = None) -> Layout:
    """The 9-ball diamond (5.2): the 1 at the apex on the foot spot, the 9 in the centre, the
    2-8 in random order (with `rng`) or NINE_BALL_ORDER."""
    table = table_or_default(table, PoolTable, pool_table, "nine_ball_rack")
    gen = _rng(rng)
    if order is None:
        if rng is None:
            order = NINE_BALL_ORDER
        else:
            rest = [str(b) for b in gen.permutation([str(n) for n in range(2, 9)])]
            order = ("1", *rest[:3], "9", *rest[3:])
    order = tuple(order)
    _check_ids(order, (str(n) for n in range(1, 10)), "9-ball")
    if order[0] != "1":
        raise LayoutError(f"the 1 must stand at the apex on the foot spot (5.2), not {order[0]}")
    if order[4] != "9":
        raise LayoutError(f"the 9 must stand in the centre of the diamond (5.2), not {order[4]}")
    return _layout(table, order, _spread(diamond_places(table), gap, gen, True), cue)


def straight_pool_order(ball_ids: Sequence[str], apex: bool = True,
                        rng: RngLike = None) -> tuple[str, ...]:
    """The balls of a 14.1 rack place by place (WPA 6.4): the 1 in the racker's right back
    corner (index 10), the 5 in his left (index 14), the others at random with `rng` (without
    it in the order of STRAIGHT_POOL_ORDER, which it then returns for all 15). `apex=False`
    is the 14-ball re-rack of 6.7.3: places 1-14, the apex place on the foot spot left empty;
    a corner whose ball is not racked (the 15th ball left on the table) takes another ball."""
    ids = list(ball_ids)
    places = list(range(0 if apex else 1, 15))
    if len(ids) != len(places) or len(set(ids)) != len(ids):
        raise LayoutError(f"a 14.1 {'rack' if apex else 're-rack'} holds {len(places)} "
                          f"different balls (6.4, 6.7.3), got {ids}")
    at: dict[int, str] = {}
    for ball, corner in (("1", 10), ("5", 14)):
        if ball in ids:
            at[corner] = ball
            ids.remove(ball)
    if rng is None:
        rank = {b: k for k, b in enumerate(STRAIGHT_POOL_ORDER)}
        ids.sort(key=lambda b: (rank.get(b, len(rank)), b))
    else:
        ids = [ids[int(k)] for k in _rng(rng).permutation(len(ids))]
    rest = iter(ids)
    return tuple(at[k] if k in at else next(rest) for k in places)


def straight_pool_rack(table: PoolTable | None = None, order: Sequence[str] | None = None,
                       rng: RngLike = None, gap: float = 0.0, cue: Piece | None = None) -> Layout:
    """The 14.1 triangle (6.4): the apex on the foot spot, the 1 in the racker's right back
    corner (small x, index 10), the 5 in his left (index 14), the rest free."""
    table = table_or_default(table, PoolTable, pool_table, "straight_pool_rack")
    gen = _rng(rng)
    if order is None:
        order = straight_pool_order([str(n) for n in range(1, 16)], rng=gen if rng is not None
                                    else None)
    order = tuple(order)
    _check_ids(order, (str(n) for n in range(1, 16)), "14.1")
    if order[10] != "1" or order[14] != "5":
        raise LayoutError("the 1 must stand in the racker's right back corner and the 5 in his "
                          f"left (6.4; x small and large), not {order[10]} and {order[14]}")
    return _layout(table, order, _spread(triangle_places(table), gap, gen, True), cue)


def straight_pool_rerack(table: PoolTable | None = None, ball_ids: Sequence[str] | None = None,
                         rng: RngLike = None, gap: float = 0.0,
                         others: Iterable[Piece] = ()) -> Layout:
    """The 14.1 re-rack (6.7.3): 14 balls in the triangle with the apex place (on the foot spot)
    empty. `ball_ids` lists the balls place by place (places 1-14 of the triangle); default
    '1'..'15' without the first id of `others` that is an object ball (the 15th ball left on
    the table), placed as 6.4 racks them ("as before", 6.7.3: `straight_pool_order`), at
    random with `rng`. `others` (the cue ball and the 15th ball where they lie) join the
    layout; the whole is checked, so a ball in the way is refused (6.7.6 says where it goes
    instead)."""
    table = table_or_default(table, PoolTable, pool_table, "straight_pool_rerack")
    gen = _rng(rng)
    others = tuple(others) if not isinstance(others, str) else (others,)
    if not all(isinstance(p, Piece) for p in others):
        raise LayoutError(f"straight_pool_rerack: others must be the Pieces left on the table "
                          f"(the cue ball, the 15th ball), got {others!r:.80}")
    if ball_ids is None:
        left = next((p.id for p in others if p.id != CUE), None)
        ids = [str(n) for n in range(1, 16) if str(n) != left][:14]
        ball_ids = straight_pool_order(ids, apex=False, rng=gen if rng is not None else None)
    ball_ids = tuple(ball_ids) if not isinstance(ball_ids, str) else (ball_ids,)
    if not all(isinstance(b, str) for b in ball_ids):
        raise LayoutError(f"the 14.1 re-rack's ball_ids are the balls' ids (strings), got "
                          f"{list(ball_ids)!r:.80}")
    if len(ball_ids) != 14 or len(set(ball_ids)) != 14:
        raise LayoutError(f"the 14.1 re-rack holds 14 different balls (6.7.3), got "
                          f"{list(ball_ids)}")
    bad = [b for b in ball_ids if not (b.isdigit() and 1 <= int(b) <= 15)]
    if bad:
        raise LayoutError(f"the 14.1 re-rack holds object balls '1'..'15', not {bad}")
    places = _spread(triangle_places(table), gap, gen, True)[1:]
    pieces = [Piece(b, "ball", float(x), float(y), ball_group(b))
              for b, (x, y) in zip(ball_ids, places, strict=True)]
    layout = Layout(table.name, (*others, *pieces))
    table.check_layout(layout)
    return layout


def cue_ball_in_kitchen(table: PoolTable | None = None, x: float | None = None,
                        y: float | None = None, rng: RngLike = None) -> Piece:
    """The cue ball in hand behind the head string (3.8, 3.10): its centre strictly behind the
    string (3.16: the string itself is not behind it) and the ball wholly inside the cushion
    noses. Default: the middle of the table, one ball radius behind the string; with `rng`, a
    uniformly random place there (x and y given are kept)."""
    table = table_or_default(table, PoolTable, pool_table, "cue_ball_in_kitchen")
    r, w, hs = BALL_RADIUS, table.width, table.head_string_y
    if rng is not None:
        gen = _rng(rng)
        x = float(gen.uniform(r, w - r)) if x is None else x
        y = float(gen.uniform(r, hs)) if y is None else y
        if y >= hs:  # uniform(a, b) may return b in floating point
            y = math.nextafter(hs, 0.0)
    x = w / 2 if x is None else x
    y = hs - r if y is None else y
    if not (finite_real(x) and finite_real(y)):
        raise LayoutError(f"the cue ball needs a finite position, got ({shown(x)}, {shown(y)})")
    x, y = float(x), float(y)
    if not (r <= x <= w - r and r <= y):
        raise LayoutError(f"the cue ball at ({metres(x)}, {metres(y)}) is not wholly inside the "
                          f"cushion noses: x in [{r:.4f}, {w - r:.4f}] m, y >= {r:.4f} m")
    if not y < hs:
        raise LayoutError(f"the cue ball at y = {y:.4f} m is not behind the head string "
                          f"(y < {hs:.4f} m; 3.8, 3.16: the string itself is not behind it)")
    return Piece(CUE, "ball", x, y, "cue")
