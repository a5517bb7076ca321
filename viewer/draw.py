"""Drawing: each table to scale (rails, holes and pockets with jaws, lines, spots, pins) on a
background drawn once, the pieces as cached sprites, the aim path and the input widgets."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pygame

from cuesim.tables.carom import PIN_HEIGHT, PIN_WIDEST_DIAMETER, CaromTable
from cuesim.tables.geometry import Hole, TableGeometry
from cuesim.tables.layout import Piece
from cuesim.tables.novus import LINE_WIDTH, NovusTable
from cuesim.tables.pool import PoolTable
from cuesim.viewer import assets
from cuesim.viewer import view as V
from cuesim.viewer.view import Viewport

NOVUS_RAIL = 0.045  # m, novus 24.1
NUMBER_DISC = 0.58  # of a pool ball's radius: the white disc its number is printed on (drawn;
# real balls: about half; a little more here so that the number fits at small sizes)
STRIPE_BAND = 0.5  # of the radius either side of the centre: a stripe's coloured band (white caps
# above and below it: what tells a stripe from a solid at a glance)
NUMBER_MIN_PX = 10  # the smallest font (px) a ball's number is drawn in
POOL_RAIL = 0.13  # m, drawn rail (wood + cushion) around the cushion noses
POOL_CUSHION = 0.05  # m, drawn cushion width


def table_margin(table: Any) -> float:
    """How much (m) is drawn around the playing surface."""
    return NOVUS_RAIL + 0.01 if isinstance(table, NovusTable) else POOL_RAIL + 0.02


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """pygame's default font at `size` px (cached)."""
    key = ("font", size, bold)
    if key not in _CACHE:
        _CACHE[key] = assets.font(max(6, size), bold)
    return _CACHE[key]


_font = font


_CACHE: dict[Any, Any] = {}


def reset_cache() -> None:
    """Forget fonts and sprites (after pygame.quit() they are no longer valid)."""
    _CACHE.clear()


def _poly(view: Viewport, points: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    return [view.to_screen(x, y) for x, y in points]


def _circle(surface: pygame.Surface, colour: tuple[int, int, int], centre: tuple[float, float],
            radius: float, width: int = 0) -> None:
    pygame.draw.circle(surface, colour, (round(centre[0]), round(centre[1])),
                       max(1, round(radius)), width)


def draw_table(surface: pygame.Surface, view: Viewport, table: Any) -> None:
    """The table with its marks (no pieces)."""
    if isinstance(table, NovusTable):
        _draw_novus(surface, view, table)
    elif isinstance(table, PoolTable):
        _draw_pool(surface, view, table)
    elif isinstance(table, CaromTable):
        _draw_carom(surface, view, table)
    else:
        raise ValueError(f"cannot draw table {table!r}")


def _draw_novus(surface: pygame.Surface, view: Viewport, table: NovusTable) -> None:
    geo = table.geometry
    pygame.draw.rect(surface, V.RAIL_WOOD, view.surface_rect(NOVUS_RAIL), border_radius=6)
    pygame.draw.rect(surface, V.BOARD_NOVUS, view.surface_rect())
    line_px = max(1, round(view.pixels(LINE_WIDTH)))
    s = geo.width
    for line in geo.lines:  # the zone lines run rail to rail (24.2)
        if line.nx:
            a, b = (line.c, 0.0), (line.c, s)
        else:
            a, b = (0.0, line.c), (s, line.c)
        pygame.draw.line(surface, V.LINE, view.to_screen(*a), view.to_screen(*b), line_px)
    for c in geo.circles:
        _circle(surface, V.LINE, view.to_screen(c.x, c.y), view.pixels(c.radius), line_px)
    for h in geo.holes:
        _circle(surface, V.POCKET, view.to_screen(h.x, h.y), view.pixels(h.radius))


def _wood_and_cushion(surface: pygame.Surface, view: Viewport, cushion: tuple[int, int, int],
                      cloth: tuple[int, int, int]) -> None:
    pygame.draw.rect(surface, V.RAIL_WOOD, view.surface_rect(POOL_RAIL), border_radius=14)
    pygame.draw.rect(surface, cushion, view.surface_rect(POOL_CUSHION))
    pygame.draw.rect(surface, cloth, view.surface_rect())


def _diamonds(surface: pygame.Surface, view: Viewport, width: float, length: float) -> None:
    off = (POOL_RAIL + POOL_CUSHION) / 2
    r = max(2.0, view.pixels(0.008))
    for k in range(1, 8):
        y = length * k / 8
        if k != 4:
            for x in (-off, width + off):
                _circle(surface, V.MARK, view.to_screen(x, y), r)
    for k in range(1, 4):
        x = width * k / 4
        for y in (-off, length + off):
            _circle(surface, V.MARK, view.to_screen(x, y), r)


def _past_fall_line(geo: TableGeometry, hole: Hole) -> list[tuple[float, float]]:
    """The throat behind a pocket's fall line, as a polygon: the fall line's ends, then the
    deep ends of the two jaws (the one nearer each end), so the cloth stops at the fall line."""
    x0, y0, x1, y1 = hole.fall
    nx, ny = hole.fall_normal()
    deep = []
    for rail in geo.rails:
        if rail.name.startswith(f"{hole.name}_jaw_"):
            ends = ((rail.x0, rail.y0), (rail.x1, rail.y1))
            deep.append(min(ends, key=lambda q: nx * (q[0] - x0) + ny * (q[1] - y0)))
    deep.sort(key=lambda q: math.dist(q, (x1, y1)))
    return [(x0, y0), (x1, y1), *deep]


def _draw_pool(surface: pygame.Surface, view: Viewport, table: PoolTable) -> None:
    geo = table.geometry
    _wood_and_cushion(surface, view, V.CUSHION, V.CLOTH_POOL)
    outline: list[tuple[float, float]] = []
    for rail in geo.rails:  # counter-clockwise: cushions and jaws make the cloth's outline
        outline += [(rail.x0, rail.y0), (rail.x1, rail.y1)]
    pygame.draw.polygon(surface, V.CLOTH_POOL, _poly(view, outline))
    for h in geo.holes:  # past the fall line (the slate's edge) the pocket opens
        if h.fall is not None:
            pygame.draw.polygon(surface, V.POCKET, _poly(view, _past_fall_line(geo, h)))
    for rail in geo.rails:
        if "jaw" in rail.name:
            pygame.draw.line(surface, V.CUSHION, view.to_screen(rail.x0, rail.y0),
                             view.to_screen(rail.x1, rail.y1), max(2, round(view.pixels(0.01))))
    for h in geo.holes:
        _circle(surface, V.POCKET, view.to_screen(h.x, h.y), view.pixels(h.radius))
    for k in geo.knuckles:
        _circle(surface, V.CUSHION, view.to_screen(k.x, k.y), view.pixels(k.radius) + 1)
    _diamonds(surface, view, table.width, table.length)
    hs = table.head_string_y
    pygame.draw.line(surface, (60, 150, 95), view.to_screen(0.0, hs),
                     view.to_screen(table.width, hs), 1)
    for spot in (table.head_spot, table.centre_spot, table.foot_spot):
        _circle(surface, V.MARK, view.to_screen(*spot), max(2.0, view.pixels(0.006)))


def _draw_carom(surface: pygame.Surface, view: Viewport, table: CaromTable) -> None:
    from cuesim.tables.carom import LAG_LINE_Y, pin_spots

    geo = table.geometry
    _wood_and_cushion(surface, view, V.CUSHION_CAROM, V.CLOTH_CAROM)
    _diamonds(surface, view, geo.width, geo.length)
    faint = (70, 120, 190)
    for y in (geo.length / 2, LAG_LINE_Y):
        pygame.draw.line(surface, faint, view.to_screen(0.0, y), view.to_screen(geo.width, y), 1)
    for x, y in table.spots.values():
        _circle(surface, V.MARK, view.to_screen(x, y), max(2.0, view.pixels(0.005)))
    for x, y in pin_spots().values():
        _circle(surface, faint, view.to_screen(x, y), max(3.0, view.pixels(0.006)), 1)


def background(size: tuple[int, int], view: Viewport, table: Any) -> pygame.Surface:
    """The window's background with the table drawn once (blitted every frame)."""
    surf = pygame.Surface(size)
    surf.fill(V.BACKGROUND)
    draw_table(surf, view, table)
    return surf


# -- pieces ----------------------------------------------------------------------------------
def piece_radius_px(view: Viewport, table: Any, piece: Piece) -> float:
    if piece.kind == "pin":
        return max(4.0, view.pixels(PIN_WIDEST_DIAMETER / 2))
    return view.pixels(table.piece_spec(piece.kind).radius)


def sprite(table: Any, piece: Piece, radius: float) -> pygame.Surface:
    """A piece drawn once, supersampled and scaled down (cached by id and size)."""
    key = (type(table).__name__, piece.id, piece.kind, piece.group, round(radius, 2))
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    ss = 4
    size = max(4, math.ceil(2 * radius + 2))
    big = pygame.Surface((size * ss, size * ss), pygame.SRCALPHA)
    c = (size * ss / 2, size * ss / 2)
    r = radius * ss
    colour = V.piece_colour(piece.id, piece.group)
    number = 0
    if piece.kind == "striker":  # a solid hardwood disc, darker than the board, with its hole
        spec = table.piece_spec(piece.kind)
        pygame.draw.circle(big, (20, 12, 6, 255), c, r)
        pygame.draw.circle(big, V.STRIKER, c, r - 1.5 * ss)
        pygame.draw.circle(big, V.STRIKER_RING, c, r * 0.78, max(1, ss))
        pygame.draw.circle(big, (20, 12, 6, 255), c, r * spec.hole_radius / spec.radius + ss)
        pygame.draw.circle(big, (*V.BOARD_NOVUS, 255), c, r * spec.hole_radius / spec.radius)
    elif piece.kind == "puck":
        spec = table.piece_spec(piece.kind)
        pygame.draw.circle(big, (0, 0, 0, 120), c, r)
        pygame.draw.circle(big, colour, c, r - ss)
        pygame.draw.circle(big, tuple(min(255, v + 40) for v in colour), c, r * 0.72, ss)
        pygame.draw.circle(big, (*V.BOARD_NOVUS, 255), c, r * spec.hole_radius / spec.radius)
    elif piece.kind == "pin":
        pygame.draw.circle(big, (20, 20, 20), c, r)
        pygame.draw.circle(big, colour if piece.group == "red" else (245, 245, 240), c, r - ss)
    else:
        number = int(piece.id) if piece.id.isdigit() else 0
        pygame.draw.circle(big, (10, 10, 10, 200), c, r)
        if number > 8:  # a stripe: white with a coloured band
            pygame.draw.circle(big, (245, 245, 235), c, r - ss)
            band = pygame.Surface(big.get_size(), pygame.SRCALPHA)
            pygame.draw.circle(band, colour, c, r - ss)
            clip = pygame.Surface(big.get_size(), pygame.SRCALPHA)
            pygame.draw.rect(clip, (255, 255, 255, 255),
                             (0, c[1] - r * STRIPE_BAND, size * ss, 2 * r * STRIPE_BAND))
            band.blit(clip, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
            big.blit(band, (0, 0))
        else:
            pygame.draw.circle(big, colour, c, r - ss)
        if number:
            pygame.draw.circle(big, (250, 250, 245), c, r * NUMBER_DISC)
        else:
            pygame.draw.circle(big, (255, 255, 255, 110), (c[0] - r * 0.35, c[1] - r * 0.35),
                               r * 0.18)
    out = pygame.transform.smoothscale(big, (size, size))
    if number:  # the number drawn at its final size, so that it stays sharp
        text = str(number)
        fsize = max(NUMBER_MIN_PX, round(radius * (1.35 if number < 10 else 1.1)))
        centre = (size / 2, size / 2 + 0.5)
        halo = font(fsize).render(text, True, (250, 250, 245))  # where the digits reach past
        for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):  # the disc onto the colour
            out.blit(halo, halo.get_rect(center=(centre[0] + dx, centre[1] + dy)))
        label = font(fsize).render(text, True, (10, 10, 10))
        out.blit(label, label.get_rect(center=centre))
    _CACHE[key] = out
    return out


def draw_pieces(surface: pygame.Surface, view: Viewport, table: Any, pieces: Sequence[Piece],
                positions: Sequence[tuple[float, float]] | None = None,
                on: Sequence[bool] | None = None,
                fallen: Mapping[str, float] | Iterable[str] = ()) -> None:
    """Pieces at their layout positions, or at `positions` (with `on` = still on the table);
    pins named in `fallen` are drawn lying down: from the pin's base in the direction (rad,
    table frame) `fallen` maps it to (anim.pin_fall_angles), drawn under the balls."""
    angles = dict(fallen) if isinstance(fallen, Mapping) else {p: math.pi / 2 for p in fallen}
    order = sorted(range(len(pieces)), key=lambda k: pieces[k].id not in angles)
    for k in order:
        piece = pieces[k]
        if on is not None and not on[k]:
            continue
        x, y = (piece.x, piece.y) if positions is None else positions[k]
        sx, sy = view.to_screen(x, y)
        if piece.kind == "pin" and piece.id in angles:
            a = angles[piece.id]
            tx, ty = view.to_screen(x + PIN_HEIGHT * math.cos(a), y + PIN_HEIGHT * math.sin(a))
            colour = (200, 30, 30) if piece.group == "red" else (245, 245, 240)
            width = max(3, round(view.pixels(PIN_WIDEST_DIAMETER) * 0.8))
            pygame.draw.line(surface, (20, 20, 20), (sx, sy), (tx, ty), width + 2)
            pygame.draw.line(surface, colour, (sx, sy), (tx, ty), width)
            _circle(surface, colour, (tx, ty), width / 2 + 1)  # the head
            continue
        img = sprite(table, piece, piece_radius_px(view, table, piece))
        surface.blit(img, img.get_rect(center=(round(sx), round(sy))))


def draw_ghost(surface: pygame.Surface, view: Viewport, xy: tuple[float, float], radius: float,
               colour: tuple[int, int, int] = (240, 240, 240)) -> None:
    _circle(surface, colour, view.to_screen(*xy), view.pixels(radius), 1)


def draw_path(surface: pygame.Surface, view: Viewport, points: Sequence[tuple[float, float]],
              colour: tuple[int, int, int] = (250, 250, 250)) -> None:
    if len(points) >= 2:
        pygame.draw.lines(surface, colour, False, _poly(view, points), 1)


def draw_strip(surface: pygame.Surface, view: Viewport, corners: Sequence[tuple[float, float]],
               colour: tuple[int, int, int, int]) -> None:
    """A translucent polygon on the table (the legal placement area)."""
    pts = _poly(view, corners)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    rect = pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
    layer = pygame.Surface(rect.size, pygame.SRCALPHA)
    pygame.draw.polygon(layer, colour, [(x - rect.left, y - rect.top) for x, y in pts])
    surface.blit(layer, rect.topleft)


def draw_tip_widget(surface: pygame.Surface, rect: pygame.Rect, side: float, height: float,
                    vertical: bool = True) -> None:
    """The cue ball (or striker) seen from behind with the tip's place on it."""
    c, r = rect.center, rect.width // 2 - 2
    pygame.draw.circle(surface, (240, 240, 232), c, r)
    pygame.draw.circle(surface, (150, 150, 150), c, round(r * 0.5), 1)  # the miscue limit
    pygame.draw.line(surface, (170, 170, 170), (c[0] - r, c[1]), (c[0] + r, c[1]), 1)
    if vertical:
        pygame.draw.line(surface, (170, 170, 170), (c[0], c[1] - r), (c[0], c[1] + r), 1)
    tx, ty = c[0] + side * r, c[1] - height * r
    pygame.draw.circle(surface, (40, 110, 220), (round(tx), round(ty)), max(3, r // 7))


def draw_power(surface: pygame.Surface, rect: pygame.Rect, fraction: float,
               label: str) -> None:
    pygame.draw.rect(surface, (70, 72, 80), rect, border_radius=3)
    fill = rect.copy()
    fill.width = round(rect.width * max(0.0, min(1.0, fraction)))
    colour = (round(90 + 160 * fraction), round(200 - 120 * fraction), 80)
    pygame.draw.rect(surface, colour, fill, border_radius=3)
    size = max(12, round(rect.height * 20 / 26))
    while size > 10 and _font(size).size(label)[0] > rect.width - 12:  # it fits the bar
        size -= 1
    text = _font(size).render(label, True, V.TEXT)
    clip = surface.get_clip()
    surface.set_clip(rect)  # never past the bar, however narrow
    surface.blit(text, text.get_rect(midleft=(rect.left + 6, rect.centery)))
    surface.set_clip(clip)
