"""Where the referee puts pucks: penalty pucks (17.3, 17.6) and pucks that left the table
(12, 17.7).

17.3 as implemented: a penalty puck stands against the rail of the side opposite the penalised
player (in singles the opponent's rail, where the player's own row stood), its centre 15 mm
from that rail, on the rail's middle line if free, else as near to it as possible without moving
any puck (the striker is handed over after the shot and does not block). When the nearest free
places on the two sides of the middle line are equally far, the puck goes to the side with fewer
of the penalised player's pucks, then to the side with fewer pucks, then to the side the shot
was played from (the striker's start). Choice: "the side" is that half of the rail zone (pucks
whose centre lies in the zone, left or right of the middle line); the shot side is the half of
the board the striker stood in, and when there was no shot (a declared infraction) or the
striker stood on the middle line, the half on the penalised player's right. Several penalty
pucks are placed one after another this way, so the first takes the middle (17.3 last
sentence). A place partly over a hole is not used; when no place is free, the rest stays as
debt (17.6).

12 / 17.7: a puck that went off the table is put on the centre of the circle; if that is
taken, inside the circle touching its border on the middle line toward the rail it went out
over; if that is taken too, at the next free place clockwise along the border (steps of 0.5
degree).

17.1.з / 17.1.р / 21.3 / 21.4, pucks put back where they were: when the old place is taken (a
puck the shot moved now stands in it or touches it: an overlap of more than a nanometre), the
referee puts the puck back as near to its old place as possible without moving the pucks there,
the principle 17.3 states for an occupied penalty spot ("по возможности ближе ..., не сдвигая
при этом находящихся там пешек"): the nearest point of the board where it lies wholly on the
surface, its centre off every hole and clear of every puck by PUT_BACK_CLEARANCE
(`put_back_spot`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from cuesim.rules.novus.terms import (
    CENTRE,
    CIRCLE_RADIUS,
    PUCK_RADIUS,
    ZONE_LINE_FROM_RAIL,
    frame,
    to_table,
)
from cuesim.tables.layout import Layout, Piece
from cuesim.tables.novus import BOARD_SIZE, HOLE_CENTRE_FROM_RAIL, HOLE_DIAMETER, NovusTable

_TABLE = NovusTable()
_EPS = 1e-9
# m: a puck put back beside others (its old place taken) stands this far clear of them, so no
# rounding makes the layout overlap (the layout check allows 1 nm; 0.1 um is far below any
# physical effect and keeps the place "touching" for play)
PUT_BACK_CLEARANCE = 1e-7
# the puck's centre must keep this far along the rail from a corner so it does not overhang a
# hole: (u - h)^2 + (r - h)^2 >= (R_hole + r)^2
_U_MIN = HOLE_CENTRE_FROM_RAIL + math.sqrt(
    (HOLE_DIAMETER / 2 + PUCK_RADIUS) ** 2 - (HOLE_CENTRE_FROM_RAIL - PUCK_RADIUS) ** 2)


def _radius(p: Piece) -> float:
    return _TABLE.piece_spec(p.kind).radius


def _blockers(layout: Layout) -> list[Piece]:
    return [p for p in layout.pieces if p.id != "striker"]


def overlapping(a: Piece, b: Piece) -> bool:
    """Two pieces overlap (one rests on the other, novus 12): centres nearer than touching."""
    return math.hypot(a.x - b.x, a.y - b.y) < _radius(a) + _radius(b) - _EPS


def free_at(layout: Layout, x: float, y: float, r: float = PUCK_RADIUS) -> bool:
    return all(math.hypot(p.x - x, p.y - y) >= r + _radius(p) - _EPS for p in _blockers(layout))


def rail_spot(layout: Layout, side: str, colour: str, shot_from: tuple[float, float] | None
              ) -> tuple[float, float] | None:
    """17.3: the place for one penalty puck against the rail of `side`, or None when the rail
    has no free place."""
    w0 = PUCK_RADIUS
    mid = BOARD_SIZE / 2
    blocked: list[tuple[float, float]] = []
    for p in _blockers(layout):
        pu, pw = frame(side, p.x, p.y)
        reach = (PUCK_RADIUS + _radius(p)) ** 2 - (pw - w0) ** 2
        if reach > 0:
            d = math.sqrt(reach)
            blocked.append((pu - d, pu + d))
    lo, hi = _U_MIN, BOARD_SIZE - _U_MIN

    def is_free(u: float) -> bool:
        return lo - _EPS <= u <= hi + _EPS and all(not (a + _EPS < u < b - _EPS)
                                                   for a, b in blocked)

    if is_free(mid):
        return to_table(side, mid, w0)
    # candidate places: the interval ends nearest the middle on each side
    left = [b for a, b in blocked if b <= mid and is_free(b)] + \
           [a for a, b in blocked if a <= mid and is_free(a)]
    right = [a for a, b in blocked if a >= mid and is_free(a)] + \
            [b for a, b in blocked if b >= mid and is_free(b)]
    best_l = max(left) if left else None
    best_r = min(right) if right else None
    if best_l is None and best_r is None:
        return None
    if best_r is None:
        return to_table(side, best_l, w0)  # type: ignore[arg-type]
    if best_l is None:
        return to_table(side, best_r, w0)
    dl, dr = mid - best_l, best_r - mid
    if abs(dl - dr) > 1e-9:
        return to_table(side, best_l if dl < dr else best_r, w0)
    # tie: fewer of the penalised player's pucks, then fewer pucks, then the shot's side
    own_l = own_r = all_l = all_r = 0
    for p in layout.pieces:
        if p.kind != "puck":
            continue
        pu, pw = frame(side, p.x, p.y)
        if pw > ZONE_LINE_FROM_RAIL:
            continue
        if pu < mid:
            all_l += 1
            own_l += p.group == colour
        elif pu > mid:
            all_r += 1
            own_r += p.group == colour
    if own_l != own_r:
        go_left = own_l < own_r
    elif all_l != all_r:
        go_left = all_l < all_r
    else:
        su = frame(side, *shot_from)[0] if shot_from is not None else mid
        # the penalised player faces `side`, so his right is the low u of that rail's frame
        go_left = su < mid if su != mid else True
    return to_table(side, best_l if go_left else best_r, w0)


def place_penalty_pucks(layout: Layout, ids: Iterable[str], side: str, colour: str,
                        shot_from: tuple[float, float] | None) -> tuple[Layout, list[Piece]]:
    """Place the given pucks one after another (17.3); stop when the rail is full (17.6)."""
    placed: list[Piece] = []
    for pid in ids:
        spot = rail_spot(layout, side, colour, shot_from)
        if spot is None:
            break
        piece = Piece(pid, "puck", spot[0], spot[1], colour)
        layout = layout.with_piece(piece)
        placed.append(piece)
    return layout, placed


def circle_spot(layout: Layout, exit_side: str) -> tuple[float, float] | None:
    """12 / 17.7: where a puck that went off the table over `exit_side` is put back."""
    if free_at(layout, *CENTRE):
        return CENTRE
    ring = CIRCLE_RADIUS - PUCK_RADIUS
    ux, uy = {"south": (0, -1), "north": (0, 1), "east": (1, 0), "west": (-1, 0)}[exit_side]
    start = math.atan2(uy, ux)
    for k in range(720):
        ang = start - math.radians(0.5 * k)  # clockwise seen from above
        x, y = CENTRE[0] + ring * math.cos(ang), CENTRE[1] + ring * math.sin(ang)
        if free_at(layout, x, y):
            return x, y
    return None


def put_back_spot(layout: Layout, piece: Piece) -> tuple[float, float] | None:
    """Where a puck put back under a rule goes (17.1.з, 17.1.р, 21.3, 21.4): its old place
    (`piece`'s x, y) if free, else the nearest legal free place to it (see the module docstring).
    `layout` holds the other pieces (the piece itself and the striker are ignored). None when
    the board has no free place at all."""
    others = [p for p in _blockers(layout) if p.id != piece.id]
    r = _radius(piece)
    if free_at(Layout(layout.table, tuple(others)), piece.x, piece.y, r) and \
            _legal_centre(piece.x, piece.y, r, 0.0):
        return piece.x, piece.y
    # the free set is the board's rectangle of centres minus discs (pieces, holes): the
    # nearest point of it to the old place is the old place, a projection on one boundary or
    # a corner where two boundaries meet
    gap = PUT_BACK_CLEARANCE
    discs = [(p.x, p.y, r + _radius(p) + gap) for p in others]
    discs += [(h.x, h.y, h.radius + gap) for h in _TABLE.geometry.holes]
    lo, hi = r + gap, BOARD_SIZE - r - gap
    tx, ty = piece.x, piece.y
    cands: list[tuple[float, float]] = [(min(hi, max(lo, tx)), min(hi, max(lo, ty))),
                                        (lo, lo), (lo, hi), (hi, lo), (hi, hi)]
    for cx, cy, rad in discs:
        d = math.hypot(tx - cx, ty - cy)
        dirs = [((tx - cx) / d, (ty - cy) / d)] if d > 1e-12 else \
            [(math.cos(k * math.pi / 8), math.sin(k * math.pi / 8)) for k in range(16)]
        cands += [(cx + rad * ux, cy + rad * uy) for ux, uy in dirs]
        for const, axis in ((lo, 0), (hi, 0), (lo, 1), (hi, 1)):  # disc meets a board edge
            off = const - (cx if axis == 0 else cy)
            if abs(off) <= rad:
                h = math.sqrt(rad * rad - off * off)
                base = cy if axis == 0 else cx
                cands += [(const, base + h), (const, base - h)] if axis == 0 else \
                    [(base + h, const), (base - h, const)]
    for i in range(len(discs)):
        for j in range(i + 1, len(discs)):
            cands += _circle_meets(discs[i], discs[j])
    best: tuple[float, float] | None = None
    best_d = math.inf
    for x, y in cands:
        d = math.hypot(x - tx, y - ty)
        if d >= best_d or not (lo - 1e-12 <= x <= hi + 1e-12 and lo - 1e-12 <= y <= hi + 1e-12):
            continue
        if all(math.hypot(x - cx, y - cy) >= rad - 1e-12 for cx, cy, rad in discs):
            best, best_d = (x, y), d
    return best


def _legal_centre(x: float, y: float, r: float, gap: float) -> bool:
    """Wholly on the board with the centre off every hole."""
    if not (r + gap - _EPS <= x <= BOARD_SIZE - r - gap + _EPS
            and r + gap - _EPS <= y <= BOARD_SIZE - r - gap + _EPS):
        return False
    return all(math.hypot(x - h.x, y - h.y) >= h.radius + gap for h in _TABLE.geometry.holes)


def _circle_meets(a: tuple[float, float, float], b: tuple[float, float, float]
                  ) -> list[tuple[float, float]]:
    """The points where two circles (x, y, radius) cross."""
    (ax, ay, ar), (bx, by, br) = a, b
    d = math.hypot(bx - ax, by - ay)
    if d < 1e-12 or d > ar + br or d < abs(ar - br):
        return []
    along = (ar * ar - br * br + d * d) / (2 * d)
    h = math.sqrt(max(0.0, ar * ar - along * along))
    mx, my = ax + along * (bx - ax) / d, ay + along * (by - ay) / d
    ox, oy = -h * (by - ay) / d, h * (bx - ax) / d
    return [(mx + ox, my + oy), (mx - ox, my - oy)]


def start_row(side: str, colour: str, first: int) -> list[Piece]:
    """The 8 pucks of the player on `side` in a touching row against the opposite rail, 4 each
    side of its middle line (novus 10)."""
    pieces = []
    for k in range(8):
        u = BOARD_SIZE / 2 + (k - 3.5) * 2 * PUCK_RADIUS
        x, y = to_table(side, u, BOARD_SIZE - PUCK_RADIUS)
        pieces.append(Piece(f"{colour}{first + k}", "puck", x, y, colour))
    return pieces


def beside_spot(layout: Layout, top: Piece, below: Piece, hint: str = ""
                ) -> tuple[float, float] | None:
    """Novus 12, stacked pucks: a puck that came to rest on another is put beside it, touching
    it, on the side it overhangs (the direction from the lower puck's centre to the upper
    one's; when they are concentric, toward the rail named in `hint`, else toward the centre
    of the board). If that place is taken, the nearest free place around the lower puck, turning
    both ways in 5-degree steps. None if no place around it is free."""
    dx, dy = top.x - below.x, top.y - below.y
    if math.hypot(dx, dy) < 1e-6:
        toward = {"south": (0.0, -1.0), "north": (0.0, 1.0), "west": (-1.0, 0.0),
                  "east": (1.0, 0.0)}.get(hint.strip())
        dx, dy = toward if toward else (BOARD_SIZE / 2 - below.x, BOARD_SIZE / 2 - below.y)
        if math.hypot(dx, dy) < 1e-6:
            dx, dy = 0.0, 1.0
    base = math.atan2(dy, dx)
    others = layout.without([top.id])
    reach = _radius(top) + _radius(below)
    for step in range(37):
        for sign in ((1,) if step == 0 else (1, -1)):
            a = base + sign * math.radians(5 * step)
            x, y = below.x + reach * math.cos(a), below.y + reach * math.sin(a)
            r = _radius(top)
            on_board = r <= x <= BOARD_SIZE - r and r <= y <= BOARD_SIZE - r
            if on_board and free_at(others, x, y, r):
                return x, y
    return None
