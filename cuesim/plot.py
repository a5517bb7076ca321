"""Plots of shots on a matplotlib axis: the table to scale, every moving piece's exact path, and
the shot's events marked (contacts, cushions, pockets, pins, sensor lines and circles).

matplotlib is an optional extra: `pip install "cuesim[plot]"`. Long tables (pool, carom) lie
as in the viewer by default (`rotate=None`): the head rail on the left, table y to the right
and table x down; `rotate=False` draws the table frame as it is (x right, y up).

>>> fig, ax = matplotlib.pyplot.subplots()           # doctest: +SKIP
>>> cuesim.plot.plot_shot(result, ax)                # doctest: +SKIP
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Iterable
from typing import Any

import numpy as np

try:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle, Polygon, Rectangle
except ModuleNotFoundError:  # pragma: no cover - exercised by the CLI's own check
    raise ModuleNotFoundError("cuesim.plot needs matplotlib, an optional extra: "
                              "pip install \"cuesim[plot]\"") from None

from cuesim.api import table_named
from cuesim.output import check_writable, write_atomic
from cuesim.sim.events import COL_A, COL_B, COL_INDEX, COL_KIND, COL_T, EventKind
from cuesim.sim.result import ShotResult
from cuesim.sim.state import SEG_T0
from cuesim.tables.carom import PIN_HEIGHT, PIN_WIDEST_DIAMETER, CaromTable
from cuesim.tables.jsonfile import file_path
from cuesim.tables.novus import NovusTable
from cuesim.tables.pool import PoolTable

__all__ = ["DEFAULT_EVENTS", "PlotError", "draw_table", "piece_colour", "plot_shot",
           "save_plot"]

# the viewer's colours (cuesim.viewer.view), here without pygame
_POOL = {1: (250, 200, 20), 2: (20, 60, 200), 3: (210, 30, 30), 4: (90, 30, 140),
         5: (250, 120, 20), 6: (20, 130, 60), 7: (120, 20, 30), 8: (15, 15, 15)}
_NAMED = {"cue": (245, 245, 235), "white": (245, 245, 235), "yellow": (245, 210, 40),
          "red": (200, 30, 30), "black": (25, 25, 25), "striker": (226, 200, 150)}
_CLOTH = {PoolTable: (22, 110, 60), CaromTable: (28, 84, 150), NovusTable: (214, 186, 140)}
_CUSHION = {PoolTable: (16, 86, 46), CaromTable: (20, 66, 120), NovusTable: (60, 40, 20)}
_WOOD, _POCKET, _LINE = (96, 58, 30), (12, 12, 12), (20, 20, 20)
_RAIL_MARGIN = {PoolTable: 0.13, CaromTable: 0.13, NovusTable: 0.045}  # m drawn around

# event kind -> (marker, size, colour, label)
_MARKS = {
    "collide": ("o", 16, "#ffffff", "contact"),
    "rail": ("^", 28, "#ffd24a", "cushion"),
    "pocket": ("*", 110, "#ff5a4e", "pocketed"),
    "pin": ("D", 34, "#ff9d2e", "pin knocked"),
    "line": ("|", 60, "#35c4ff", "line crossed"),
    "circle": ("+", 60, "#d05cff", "circle crossed"),
    "stop": ("s", 12, "#bbbbbb", "stopped"),
    "roll": ("1", 30, "#7a7a7a", "rolls"),
    "strike": ("X", 50, "#ffffff", "cue strike"),
}
DEFAULT_EVENTS = ("strike", "collide", "rail", "pocket", "pin", "line", "circle")


class PlotError(ValueError):
    """What cannot be plotted as asked (the message names the argument and what was expected)."""


def piece_colour(piece_id: str, group: str = "") -> tuple[float, float, float]:
    """The viewer's colour of a piece as matplotlib RGB (0-1): pool balls by number (9-15 as
    1-7), other pieces by group or id."""
    if piece_id.isdigit() and 1 <= int(piece_id) <= 15:
        n = int(piece_id)
        rgb = _POOL[n - 8 if n > 8 else n]
    else:
        rgb = next((_NAMED[k] for k in (group, piece_id) if k in _NAMED), (200, 200, 200))
    return _rgb(rgb)


def _rgb(c: tuple[int, int, int]) -> tuple[float, float, float]:
    return (c[0] / 255, c[1] / 255, c[2] / 255)


class _Frame:
    """Table metres to plot coordinates: as they are, or lying (u, v) = (y, x) with v down."""

    def __init__(self, rotated: bool) -> None:
        self.rotated = rotated

    def uv(self, x: Any, y: Any) -> tuple[Any, Any]:
        return (y, x) if self.rotated else (x, y)


def _kind_of(table: Any) -> type:
    for kind in (PoolTable, CaromTable, NovusTable):
        if isinstance(table, kind):
            return kind
    raise PlotError(f"table must be a novus, pool or carom table, got {type(table).__name__}")


def _rotated(table: Any, rotate: bool | None) -> bool:
    if rotate is not None and not isinstance(rotate, bool):
        raise PlotError(f"rotate must be True, False or None (automatic), got {rotate!r}")
    geo = table.geometry
    return geo.length > 1.3 * geo.width if rotate is None else rotate


def _check_axis(ax: Any) -> None:
    if not isinstance(ax, Axes):
        raise PlotError(f"ax must be a matplotlib Axes (e.g. from plt.subplots()), got "
                        f"{type(ax).__name__}")


def draw_table(ax: Axes, table: Any, rotate: bool | None = None) -> None:
    """Draw `table` (rails, cushions, pockets or holes, lines and circles) on `ax`, to scale,
    with equal aspect and limits around it."""
    _check_axis(ax)
    kind = _kind_of(table)
    _draw_table(ax, table, kind, _Frame(_rotated(table, rotate)))


def _draw_table(ax: Axes, table: Any, kind: type, f: _Frame) -> None:
    geo = table.geometry
    w, length, m = geo.width, geo.length, _RAIL_MARGIN[kind]
    u0, v0 = f.uv(-m, -m)
    u1, v1 = f.uv(w + m, length + m)
    ax.add_patch(Rectangle((u0, v0), u1 - u0, v1 - v0, color=_rgb(_WOOD), zorder=0))
    if kind is PoolTable:
        for h in geo.holes:  # the pockets, seen where the cloth's outline leaves them open
            ax.add_patch(Circle(f.uv(h.x, h.y), h.radius, color=_rgb(_POCKET), zorder=1))
        outline = [f.uv(x, y) for r in geo.rails for x, y in ((r.x0, r.y0), (r.x1, r.y1))]
        ax.add_patch(Polygon(outline, closed=True, color=_rgb(_CLOTH[kind]), zorder=1))
    else:
        a, b = f.uv(0.0, 0.0), f.uv(w, length)
        ax.add_patch(Rectangle(a, b[0] - a[0], b[1] - a[1], color=_rgb(_CLOTH[kind]), zorder=1))
    for r in geo.rails:
        (ua, va), (ub, vb) = f.uv(r.x0, r.y0), f.uv(r.x1, r.y1)
        ax.plot([ua, ub], [va, vb], color=_rgb(_CUSHION[kind]), lw=1.5, zorder=2,
                solid_capstyle="round")
    if kind is not PoolTable:  # novus holes lie in the board
        for h in geo.holes:
            ax.add_patch(Circle(f.uv(h.x, h.y), h.radius, color=_rgb(_POCKET), zorder=2))
    for k in geo.knuckles:
        ax.add_patch(Circle(f.uv(k.x, k.y), k.radius, color=_rgb(_CUSHION[kind]), zorder=2))
    faint = _rgb(_LINE) if kind is NovusTable else (0.85, 0.85, 0.85)
    for line in geo.lines:
        xs, ys = _clip_line(line.nx, line.ny, line.c, w, length)
        ax.plot(*f.uv(xs, ys), color=faint, lw=0.7, ls="-" if kind is NovusTable else ":",
                zorder=2)
    for c in geo.circles:
        ax.add_patch(Circle(f.uv(c.x, c.y), c.radius, fill=False, ec=faint, lw=0.7, zorder=2))
    ax.set_xlim(min(u0, u1), max(u0, u1))
    ax.set_ylim(min(v0, v1), max(v0, v1))
    if f.rotated:
        ax.invert_yaxis()
    ax.set_aspect("equal")
    ax.set_xlabel("y (m)" if f.rotated else "x (m)")
    ax.set_ylabel("x (m)" if f.rotated else "y (m)")


def _clip_line(nx: float, ny: float, c: float, w: float, length: float
               ) -> tuple[list[float], list[float]]:
    """The part of the line nx x + ny y = c across the rectangle [0, w] x [0, length]."""
    if abs(ny) >= abs(nx):
        return [0.0, w], [(c - nx * 0.0) / ny, (c - nx * w) / ny]
    return [(c - ny * 0.0) / nx, (c - ny * length) / nx], [0.0, length]


def _radius(table: Any, kind: str) -> float:
    if kind == "pin":
        return PIN_WIDEST_DIAMETER / 2
    return table.piece_spec(kind).radius


def _check_events(events: Iterable[str]) -> tuple[str, ...]:
    if isinstance(events, str):
        events = (events,)
    try:
        chosen = tuple(events)
    except TypeError:
        raise PlotError(f"events must be a list of event kinds, got {events!r}") from None
    for e in chosen:
        if e not in _MARKS:
            raise PlotError(f"events: unknown event kind {e!r}; kinds are {list(_MARKS)}")
    return chosen


def _table_of(result: ShotResult, table: Any) -> Any:
    if table is not None:
        _kind_of(table)
        if table.name != result.table:
            raise PlotError(f"table {table.name!r} is not the shot's table {result.table!r}")
        return table
    found = table_named(result.table)
    if found is None:
        raise PlotError(f"no default table is named {result.table!r}: pass table= (the table "
                        "the shot was simulated on)")
    return found


def plot_shot(result: ShotResult, ax: Axes | None = None, *, table: Any = None,
              rotate: bool | None = None, events: Iterable[str] = DEFAULT_EVENTS,
              legend: bool = True, title: str | None = None, samples: int = 800) -> Axes:
    """Draw the table, each moving piece's exact path (from where it started, faint, to where
    it rests, solid; a pocketed piece's path ends in its pocket) and the shot's `events`
    (kinds from DEFAULT_EVENTS, 'stop', 'roll') on `ax` (a new figure's axis if None); return
    the axis. `table`: the table the shot was played on (default: cuesim's table of that name);
    `title` None gives a one-line summary, '' none; `samples`: points per path besides every
    segment's start. PlotError for arguments that do not fit."""
    if not isinstance(result, ShotResult):
        raise PlotError(f"plot_shot needs a ShotResult, got {type(result).__name__}")
    if isinstance(samples, bool) or not isinstance(samples, int) or not 2 <= samples <= 100_000:
        raise PlotError(f"samples must be a whole number in 2..100000, got {samples!r}")
    chosen = _check_events(events)
    table = _table_of(result, table)
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.subplots()[1]
    _check_axis(ax)
    kind = _kind_of(table)
    f = _Frame(_rotated(table, rotate))
    _draw_table(ax, table, kind, f)
    _draw_paths(ax, result, table, f, samples)
    handles = _draw_events(ax, result, table, f, chosen)
    if legend and handles:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7,
                  frameon=False, borderaxespad=0.0)
    if title is None:
        pocketed = ", ".join(result.pocketed) or "nothing"
        title = (f"{result.table}: {result.n_events} events, {result.duration:.2f} s; "
                 f"pocketed: {pocketed}" + ("  [TRUNCATED]" if result.truncated else ""))
    if title:
        ax.set_title(title, fontsize=9)
    return ax


def _draw_paths(ax: Axes, result: ShotResult, table: Any, f: _Frame, samples: int) -> None:
    end = max(result.duration, 1e-9)
    times = np.unique(np.concatenate([np.linspace(0.0, end, samples),
                                      result.segments[:, SEG_T0], [end]]))
    grid = result.sample(times)
    pieces = result.initial.pieces
    fallen = {e.b for e in result.events_of(EventKind.PIN)}
    moved = (np.abs(grid.positions - grid.positions[:1]).max(axis=(0, 2)) > 1e-9) \
        | ~grid.on_table[-1]
    for k, piece in enumerate(pieces):
        colour = piece_colour(piece.id, piece.group)
        r = _radius(table, piece.kind)
        if moved[k]:
            on = grid.on_table[:, k]
            keep = on | np.concatenate([[True], on[:-1]])  # up to the capture point
            xy = grid.positions[keep, k]
            u, v = f.uv(xy[:, 0], xy[:, 1])
            ax.plot(u, v, color="black", lw=2.2, alpha=0.55, zorder=3, solid_capstyle="round")
            ax.plot(u, v, color=colour, lw=1.2, zorder=4, solid_capstyle="round")
            ax.add_patch(Circle(f.uv(piece.x, piece.y), r, fill=False, ec=colour, lw=0.8,
                                ls="--", alpha=0.8, zorder=4))
        if not grid.on_table[-1, k]:
            continue
        x, y = grid.positions[-1, k]
        if piece.id in fallen:  # a felled pin lies along the way it was thrown
            d = np.array([x - piece.x, y - piece.y])
            d = d / np.hypot(*d) if np.hypot(*d) > 1e-9 else np.array([1.0, 0.0])
            ends = np.array([[x, y]]) + np.outer([-0.5, 0.5], d) * PIN_HEIGHT
            ax.plot(*f.uv(ends[:, 0], ends[:, 1]), color="black", lw=3.2, zorder=5,
                    solid_capstyle="round")
            ax.plot(*f.uv(ends[:, 0], ends[:, 1]), color=colour, lw=1.8, zorder=5,
                    solid_capstyle="round")
        else:
            ax.add_patch(Circle(f.uv(x, y), r, fc=colour, ec="black", lw=0.6, zorder=5))


def _draw_events(ax: Axes, result: ShotResult, table: Any, f: _Frame,
                 chosen: tuple[str, ...]) -> list[Any]:
    ev = result.events
    if not len(ev) or not chosen:
        return []
    at = result.sample(ev[:, COL_T])
    k = np.arange(len(ev))
    a, b = ev[:, COL_A].astype(int), ev[:, COL_B].astype(int)
    pa = at.positions[k, a]
    where = pa.copy()
    radii = np.array([_radius(table, p.kind) for p in result.initial.pieces])
    pair = b >= 0
    if pair.any():  # the contact point on the line of centres
        pb = at.positions[k[pair], b[pair]]
        share = radii[a[pair]] / (radii[a[pair]] + radii[b[pair]])
        where[pair] = pa[pair] + (pb - pa[pair]) * share[:, None]
    rail = ev[:, COL_KIND] == int(EventKind.RAIL)
    if rail.any():  # on the cushion: the centre pushed out by a radius along the rail normal
        where[rail] = _rail_points(result, table, pa[rail], ev[rail, COL_INDEX].astype(int),
                                   radii[a[rail]])
    handles = []
    for name in chosen:
        rows = ev[:, COL_KIND] == int(EventKind[name.upper()])
        if not rows.any():
            continue
        marker, size, colour, label = _MARKS[name]
        u, v = f.uv(where[rows, 0], where[rows, 1])
        style = {"linewidths": 1.4} if marker in "|+1" else {"edgecolors": "black",
                                                               "linewidths": 0.7}
        handles.append(ax.scatter(u, v, s=size, marker=marker, c=colour, zorder=6,
                                  label=f"{label} ({int(rows.sum())})", **style))
    return handles


def _rail_points(result: ShotResult, table: Any, centres: np.ndarray, index: np.ndarray,
                 radii: np.ndarray) -> np.ndarray:
    geo = table.geometry
    out = centres.copy()
    for j, i in enumerate(index):
        if 0 <= i < len(geo.rails):
            nx, ny = geo.rails[i].normal()
            out[j] -= radii[j] * np.array([nx, ny])
        elif 0 <= i - len(geo.rails) < len(geo.knuckles):
            kn = geo.knuckles[i - len(geo.rails)]
            d = centres[j] - (kn.x, kn.y)
            out[j] = (kn.x, kn.y) + d * (kn.radius / max(math.hypot(*d), 1e-12))
    return out


def save_plot(result: ShotResult, path: str | os.PathLike[str], *, table: Any = None,
              dpi: int = 150, what: str = "plot file", **options: Any) -> None:
    """Plot `result` (plot_shot's options) into an image file (.png, .pdf, .svg, ...; the
    suffix picks the format), written whole or not at all. PlotError for a format matplotlib
    cannot write; OutputError (cuesim.output) for a path that cannot be written."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    p = file_path(path, what, PlotError)
    fmt = check_plot_path(p, what)
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not 10 <= dpi <= 1200:
        raise PlotError(f"dpi must be a whole number in 10..1200, got {dpi!r}")
    fig = Figure(figsize=(9.0, 5.2))
    FigureCanvasAgg(fig)
    plot_shot(result, fig.add_subplot(), table=table, **options)
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=dpi, bbox_inches="tight")
    write_atomic(p, buf.getvalue())


def check_plot_path(path: str | os.PathLike[str], what: str = "plot file") -> str:
    """The image format of `path` (its suffix), after checking that matplotlib writes it
    (PlotError) and that the file can be written (OutputError)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    p = file_path(path, what, PlotError)
    fmt = p.suffix.lower().lstrip(".")
    supported = FigureCanvasAgg(Figure()).get_supported_filetypes()
    if fmt not in supported:
        raise PlotError(f"{what} {os.fspath(path)!r}: the suffix picks the image format; give "
                        f"one of {', '.join('.' + s for s in sorted(supported))}")
    check_writable(p, what)
    return fmt

