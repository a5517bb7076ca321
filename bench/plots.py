"""PNG plots of a suite run (matplotlib, the optional extra `pip install -e '.[bench]'`).

- throughput.png: shots/s per scenario and backend (cuesim, pymunk at each step, pooltool);
- scaling.png: cost per event against N on the box series (whole call, loop alone, marginal);
- pymunk_error.png: pymunk's final-position error against its step, and its cost.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


class PlotsUnavailable(RuntimeError):
    """matplotlib is not installed."""


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise PlotsUnavailable("matplotlib is not installed; pip install -e '.[bench]' (or "
                               "pip install 'matplotlib>=3.7') to get the plots") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


STYLE = {"figure.dpi": 80, "font.size": 8, "axes.grid": True, "grid.alpha": 0.3}


def write_plots(results: dict[str, Any], out_dir: str | Path) -> list[Path]:
    """Write the plots that the results hold data for; return their paths."""
    plt = _pyplot()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with plt.rc_context(STYLE):
        for name, fn in (("throughput.png", _throughput), ("scaling.png", _scaling),
                         ("pymunk_error.png", _pymunk_error)):
            fig = fn(plt, results)
            if fig is None:
                continue
            path = out / name
            fig.savefig(path, dpi=80)
            plt.close(fig)
            written.append(path)
    return written


def _subtitle(results: dict[str, Any]) -> str:
    m = results["meta"]
    return (f"cuesim {m['cuesim']}, Python {m['python']}, numba {m['numba']}; one core"
            f"{' (--quick)' if m['quick'] else ''}")


def _throughput(plt: Any, results: dict[str, Any]) -> Any:
    rows = [s for s in results["scenarios"] if s["n"] is None or s["n"] in (16, 128, 1024)]
    if not rows:
        return None
    dts = sorted({k for s in rows for k in (s.get("pymunk") or {})},
                 key=lambda k: -float(k.removesuffix("ms")))
    backends = ["cuesim"] + [f"pymunk {k}" for k in dts]
    if any("shots_per_s" in (s.get("pooltool") or {}) for s in rows):
        backends.append("pooltool")
    fig, ax = plt.subplots(figsize=(8, 4))
    width = 0.8 / len(backends)
    for b, backend in enumerate(backends):
        xs, ys = [], []
        for k, s in enumerate(rows):
            if backend == "cuesim":
                y = s["cuesim"]["shots_per_s"]
            elif backend == "pooltool":
                y = (s.get("pooltool") or {}).get("shots_per_s")
            else:
                y = (s.get("pymunk") or {}).get(backend.split()[1], {}).get("shots_per_s")
            if y:
                xs.append(k + (b - (len(backends) - 1) / 2) * width)
                ys.append(y)
        ax.bar(xs, ys, width, label=backend)
    ax.set_yscale("log")
    ax.set_xticks(range(len(rows)), [s["name"] for s in rows], rotation=30, ha="right")
    ax.set_ylabel("shots per second (one core)")
    ax.set_title(f"Throughput per scenario and backend\n{_subtitle(results)}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def _scaling(plt: Any, results: dict[str, Any]) -> Any:
    sc = results.get("scaling") or {}
    if not sc:
        return None
    fig, ax = plt.subplots(figsize=(6, 4))
    colours = {"puck": "C0", "ball": "C1"}
    for piece, rows in sc.items():
        c = colours.get(piece, "C2")
        ax.plot(rows["n"], rows["us_per_event"], "o-", color=c, label=f"{piece}s: whole call")
        ax.plot(rows["n"], rows["loop_us_per_event"], "s--", color=c, alpha=0.7,
                label=f"{piece}s: loop alone")
        ax.plot(rows["n"], rows["marginal_us_per_event"], "^:", color=c, alpha=0.7,
                label=f"{piece}s: marginal (no setup)")
    ns = sorted({n for rows in sc.values() for n in rows["n"]})
    first = next(iter(sc.values()))
    ref = first["us_per_event"][0]
    ax.plot(ns, [ref * n / ns[0] for n in ns], color="grey", lw=0.8, label="∝ N")
    ax.plot(ns, [ref] * len(ns), color="grey", lw=0.8, ls="--", label="flat")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("pieces in the box, N")
    ax.set_ylabel("µs per event")
    ax.set_title(f"Cost per event against N (box series)\n{_subtitle(results)}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def _pymunk_error(plt: Any, results: dict[str, Any]) -> Any:
    rows = [s for s in results["scenarios"] if s.get("pymunk")]
    if not rows:
        return None
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(9, 3.8))
    for s in rows:
        pts = sorted(s["pymunk"].values(), key=lambda p: p["dt"])
        dts = [p["dt"] * 1e3 for p in pts]
        ax.plot(dts, [max(p["error_max_mm"]["median"], 1e-4) for p in pts], "o-",
                label=s["name"])
        bx.plot(dts, [p["ratio"] for p in pts], "o-", label=s["name"])
    ticks = sorted({p["dt"] * 1e3 for s in rows for p in s["pymunk"].values()})
    for a in (ax, bx):
        a.set_xscale("log")
        a.set_yscale("log")
        a.set_xticks(ticks, [f"{t:g}" for t in ticks])
        a.minorticks_off()
        a.set_xlabel("pymunk step (ms)")
    ax.set_ylabel("final-position error, worst piece (mm, median over shots)")
    ax.set_title("pymunk's error against the exact result")
    bx.set_ylabel("pymunk time / cuesim time")
    bx.set_title("cuesim's speed-up at that step")
    bx.legend(fontsize=7)
    fig.suptitle(_subtitle(results), fontsize=7)
    fig.tight_layout()
    return fig
