"""A layout file's fields are table and pieces, a piece's id, kind, x, y and group: a field
it does not know is refused, naming it (a piece's "radius" would otherwise read as if it
counted; its size is its kind's)."""

from __future__ import annotations

import json

import pytest

from cuesim import start_layout
from cuesim.cli import main
from cuesim.tables.layout import Layout, LayoutError


@pytest.mark.parametrize("change, message", [
    (lambda d: d["pieces"][1].update(radius=-1),
     "pieces[1]: unknown field 'radius'; the fields are id, kind, x, y, group"),
    (lambda d: d.update(foo=1), "unknown field 'foo'; the fields are table, pieces"),
])
def test_an_unknown_field_is_refused(tmp_path, capsys, change, message):
    data = start_layout("novus").to_dict()
    change(data)
    with pytest.raises(LayoutError, match=message.replace("[", r"\[").replace("]", r"\]")):
        Layout.from_dict(data)
    path = tmp_path / "layout.json"
    path.write_text(json.dumps(data))
    assert main(["shoot", "novus", "--speed", "4", "--layout", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


@pytest.mark.parametrize("game", ["novus", "novus-doubles", "9-ball", "8-ball", "14.1",
                                  "5-pins"])
def test_every_layout_written_reads_back(game):
    layout = start_layout(game)
    assert Layout.from_dict(json.loads(json.dumps(layout.to_dict()))) == layout


@pytest.mark.parametrize("key, value", [("x", float("nan")), ("y", float("inf")),
                                        ("y", -float("inf"))])
def test_a_non_finite_coordinate_is_refused_naming_the_source_and_field(key, value):
    """A dict built in Python (a JSON file cannot hold NaN: read_json refuses it) with a
    non-finite coordinate is refused naming where it came from and which piece's field, as
    every other field is; it used to surface from the Layout without either."""
    data = start_layout("novus").to_dict()
    data["pieces"][3][key] = value
    with pytest.raises(LayoutError, match=rf"^my.json: pieces\[3\]\.{key} must be a finite "
                                          "number in metres"):
        Layout.from_dict(data, source="my.json")
