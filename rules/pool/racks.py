"""Opening racks as the rules describe them (3.2, 4.3, 5.2, 6.4), and a check that a layout
is such a rack. The cue ball is not part of a rack: it starts in hand behind the head string
(3.8)."""

from __future__ import annotations

from cuesim.rules.pool.general import ball_group
from cuesim.tables.layout import Layout, Piece
from cuesim.tables.pool_spots import (
    BALL_DIAMETER,
    FROZEN_TOLERANCE,
    NINE_FOOT_TABLE,
    PoolMarks,
    marks_for,
)

TABLE = NINE_FOOT_TABLE  # the table rack_layout sets up by default
# 4.3: the 8 in the centre of the triangle (index 4), the apex on the foot spot, a stripe in
# one back corner and a solid in the other; the rest is free (this is one legal order).
EIGHT_BALL_ORDER = ("1", "9", "2", "10", "8", "3", "11", "4", "12", "5", "6", "13", "7", "14",
                    "15")
# 5.2: the 1 at the apex on the foot spot, the 9 in the centre of the diamond.
NINE_BALL_ORDER = ("1", "2", "3", "4", "9", "5", "6", "7", "8")
# 6.4: the 1 in the racker's right back corner and the 5 in his left; he stands behind the foot
# rail facing the head rail, so his right is the small-x corner (index 10).
STRAIGHT_POOL_ORDER = ("6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "1", "2", "3",
                       "4", "5")


def _places(game: str, marks: PoolMarks) -> list[tuple[float, float]]:
    """The rack places of a game on a table: the diamond (5.2) or the triangle (4.3, 6.4), the
    apex on the table's foot spot (3.2)."""
    return marks.diamond_positions() if game == "nine_ball" else marks.triangle_positions(5)


def rack_layout(game: str, order: tuple[str, ...] | None = None, table: str = TABLE) -> Layout:
    """The opening rack of a game ('eight_ball', 'nine_ball', 'straight_pool'), balls only, on
    the pool table named `table` ('pool_9ft', 'pool_8ft', 'pool_7ft'): the apex on that
    table's foot spot (3.2)."""
    marks = marks_for(table)
    if game == "nine_ball":
        places = _places(game, marks)
        order = order or NINE_BALL_ORDER
    elif game in ("eight_ball", "straight_pool"):
        places = _places(game, marks)
        order = order or (EIGHT_BALL_ORDER if game == "eight_ball" else STRAIGHT_POOL_ORDER)
    else:
        raise ValueError(f"unknown game {game!r}; games are eight_ball, nine_ball, "
                         "straight_pool")
    if len(order) != len(places):
        raise ValueError(f"{game}: a rack has {len(places)} balls, got {len(order)}")
    return Layout(table, tuple(Piece(b, "ball", x, y, ball_group(b))
                               for b, (x, y) in zip(order, places, strict=True)))


def check_rack(game: str, layout: Layout) -> list[str]:
    """What is wrong with a layout as the opening rack (4.3, 5.2, 6.4) on the table it names
    (the apex on that table's foot spot, 3.2); [] when it is good."""
    balls = {p.id: p for p in layout.pieces if p.id != "cue"}
    places = _places(game, marks_for(layout.table))
    n = len(places)
    problems = []
    if len(balls) != n:
        problems.append(f"{game} racks {n} balls, the layout has {len(balls)}")
    at: dict[int, str] = {}
    for bid, p in balls.items():
        k = min(range(n), key=lambda i: (places[i][0] - p.x) ** 2 + (places[i][1] - p.y) ** 2)
        d = ((places[k][0] - p.x) ** 2 + (places[k][1] - p.y) ** 2) ** 0.5
        if d > BALL_DIAMETER / 4 + FROZEN_TOLERANCE:
            problems.append(f"ball {bid} is not on a rack place (3.2: tight rack, apex on the "
                            "foot spot)")
        at[k] = bid
    if game == "eight_ball":
        if at.get(4) != "8":
            problems.append("the 8 must be in the centre of the triangle (4.3)")
        corners = {ball_group(at.get(10, "8")), ball_group(at.get(14, "8"))}
        if corners != {"solids", "stripes"}:
            problems.append("a stripe and a solid must be in the back corners (4.3)")
    elif game == "nine_ball":
        if at.get(0) != "1":
            problems.append("the 1 must be at the apex on the foot spot (5.2)")
        if at.get(4) != "9":
            problems.append("the 9 must be in the centre of the diamond (5.2)")
    elif game == "straight_pool":
        if at.get(10) != "1" or at.get(14) != "5":
            problems.append("the 1 must be in the racker's right back corner and the 5 in his "
                            "left (6.4)")
    else:
        raise ValueError(f"unknown game {game!r}")
    return problems
