"""cuesim.plot: the table, the exact paths and the events on a matplotlib axis; image files;
`cuesim shoot --plot`; a clear line when matplotlib is missing."""

from __future__ import annotations

import sys

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402

from cuesim.cli import main  # noqa: E402
from cuesim.plot import DEFAULT_EVENTS, PlotError, piece_colour, plot_shot, save_plot  # noqa: E402
from tests.shot_fixtures import ALL, five_pins_shot, nine_ball_break, novus_opening  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n"


def _axis():
    return Figure().add_subplot()


@pytest.mark.parametrize("shot", ALL, ids=lambda f: f.__name__)
@pytest.mark.parametrize("rotate", [None, False])
def test_paths_follow_the_exact_positions(shot, rotate):
    result = shot()
    ax = plot_shot(result, _axis(), rotate=rotate)
    long_table = result.table != "novus"
    swap = long_table and rotate is None
    lines = [line for line in ax.get_lines() if len(line.get_xdata()) > 2]
    cue = {"novus": "striker", "carom": "white"}.get(result.table, "cue")
    k = result.initial.index(cue)
    want = np.array([result.initial.pieces[k].x, result.initial.pieces[k].y])
    starts = [np.array([line.get_xdata()[0], line.get_ydata()[0]]) for line in lines]
    starts = [s[::-1] if swap else s for s in starts]
    assert any(np.allclose(s, want, atol=1e-12) for s in starts)
    assert ax.yaxis_inverted() == swap  # lying like in the viewer: head rail left, x down
    assert ax.get_aspect() == 1.0


def test_events_are_marked_with_their_counts():
    result = nine_ball_break()
    ax = plot_shot(result, _axis())
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert f"pocketed ({len(result.pocketed)})" in labels
    assert any(t.startswith("contact (") for t in labels)
    marks = [c for c in ax.collections if c.get_label() == labels[labels.index(
        f"pocketed ({len(result.pocketed)})")]]
    assert len(marks[0].get_offsets()) == len(result.pocketed)
    assert f"pocketed: {', '.join(result.pocketed)}" in ax.get_title()


def test_only_the_chosen_events_no_legend_no_title():
    ax = plot_shot(novus_opening(), _axis(), events=["rail"], legend=False, title="")
    assert ax.get_legend() is None and ax.get_title() == ""
    assert len(ax.collections) == 1


def test_a_felled_pin_lies_down():
    result = five_pins_shot()
    assert result.events_of(__import__("cuesim").EventKind.PIN)
    ax = plot_shot(result, _axis())
    assert any("pin knocked" in t.get_text() for t in ax.get_legend().get_texts())


def test_colours_match_the_viewer():
    from cuesim.viewer.view import piece_colour as viewer_colour

    for pid, group in (("1", ""), ("9", ""), ("8", ""), ("cue", ""), ("red3", "red"),
                       ("striker", ""), ("yellow", ""), ("x", "")):
        assert piece_colour(pid, group) == tuple(c / 255 for c in viewer_colour(pid, group))


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_save_plot_writes_an_image(tmp_path, suffix):
    path = tmp_path / f"shot{suffix}"
    save_plot(nine_ball_break(), path, dpi=50)
    head = path.read_bytes()[:8]
    assert head == PNG if suffix == ".png" else b"<?xml" in path.read_bytes()[:100]


@pytest.mark.parametrize("call, match", [
    (lambda: plot_shot("shot", _axis()), "needs a ShotResult"),
    (lambda: plot_shot(nine_ball_break(), "axis"), "ax must be a matplotlib Axes"),
    (lambda: plot_shot(nine_ball_break(), _axis(), events=["boom"]), "unknown event kind"),
    (lambda: plot_shot(nine_ball_break(), _axis(), events=3), "must be a list of event kinds"),
    (lambda: plot_shot(nine_ball_break(), _axis(), samples=1), "samples must be"),
    (lambda: plot_shot(nine_ball_break(), _axis(), rotate="yes"), "rotate must be"),
    (lambda: plot_shot(nine_ball_break(), _axis(), table=__import__("cuesim").novus_table()),
     "is not the shot's table"),
    (lambda: plot_shot(nine_ball_break(), _axis(), table="pool"), "table must be a novus"),
    (lambda: save_plot(nine_ball_break(), "/tmp/x.bmp"), "the suffix picks the image format"),
    (lambda: save_plot(nine_ball_break(), "/tmp/x.png", dpi=0), "dpi must be"),
])
def test_bad_arguments_are_plot_errors(call, match):
    with pytest.raises(PlotError, match=match):
        call()
    assert issubclass(PlotError, ValueError) and "collide" in DEFAULT_EVENTS


def test_a_table_cuesim_does_not_know_needs_table():
    result = nine_ball_break()
    from dataclasses import replace

    odd = replace(result, table="my_table")
    with pytest.raises(PlotError, match="pass table="):
        plot_shot(odd, _axis())


def test_shoot_plot_writes_a_png(tmp_path, capsys):
    path = tmp_path / "shot.png"
    assert main(["shoot", "9-ball", "--speed", "7", "--plot", str(path)]) == 0
    assert path.read_bytes()[:8] == PNG
    assert "events" in capsys.readouterr().out


@pytest.mark.parametrize("name, message", [
    ("shot.bmp", "--plot '.*shot.bmp': the suffix picks the image format"),
    ("none/shot.png", "--plot '.*shot.png': the folder '.*none' does not exist"),
])
def test_shoot_plot_refuses_a_bad_path_first(tmp_path, name, message, capsys):
    assert main(["shoot", "9-ball", "--speed", "7", "--plot", str(tmp_path / name)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1
    import re

    assert re.search(message, out.err)


def test_without_matplotlib_one_clear_line(monkeypatch, capsys):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "matplotlib" else real(name, *a))
    assert main(["shoot", "9-ball", "--speed", "7", "--plot", "x.png"]) == 2
    err = capsys.readouterr().err
    assert err == 'cuesim: error: --plot needs matplotlib, an optional extra: pip install ' \
                  '"cuesim[plot]"\n'
    monkeypatch.delitem(sys.modules, "cuesim.plot")
    monkeypatch.setitem(sys.modules, "matplotlib.axes", None)
    with pytest.raises(ModuleNotFoundError, match=r'pip install "cuesim\[plot\]"'):
        importlib.import_module("cuesim.plot")
