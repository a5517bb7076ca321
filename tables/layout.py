"""Layouts: which pieces stand where. Plain data with a JSON form; checked against a table."""

from __future__ import annotations

import json
import numbers
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from cuesim.tables.numbers import finite_real, shown

_FRAME = "x, y in metres in the table frame; ids unique; kind one of the table's piece kinds."
LAYOUT_SCHEMA = f"""\
{{"table": "novus",
 "pieces": [{{"id": "striker", "kind": "striker", "x": 0.5, "y": 0.07}},
            {{"id": "red1", "kind": "puck", "group": "red", "x": 0.485, "y": 0.985}}, ...]}}
{_FRAME}"""
# the same schema with an example of each table's pieces (`layout_schema`)
LAYOUT_SCHEMAS = {
    "novus": LAYOUT_SCHEMA,
    "pool": f"""\
{{"table": "pool_9ft",
 "pieces": [{{"id": "cue", "kind": "ball", "group": "cue", "x": 0.635, "y": 0.606}},
            {{"id": "1", "kind": "ball", "group": "ball", "x": 0.635, "y": 1.905}}, ...]}}
{_FRAME}""",
    "carom": f"""\
{{"table": "carom",
 "pieces": [{{"id": "white", "kind": "ball", "group": "white", "x": 0.3, "y": 0.71}},
            {{"id": "pin_centre", "kind": "pin", "group": "red", "x": 0.71, "y": 1.42}}, ...]}}
{_FRAME}""",
}


def _family(table: object) -> str | None:
    """The LAYOUT_SCHEMAS key of a table name ('pool_9ft' -> 'pool'), None if it has none."""
    if not isinstance(table, str):
        return None
    family = "pool" if table.startswith("pool") else table
    return family if family in LAYOUT_SCHEMAS else None


def layout_schema(table: object) -> str:
    """The layout schema with an example of `table`'s pieces (a table name such as 'novus',
    'pool_9ft' or 'carom'); the novus example for any other value."""
    return LAYOUT_SCHEMAS[_family(table) or "novus"]


def one_line(message: str) -> str:
    """An error message on one line, as the command line prints it: a layout's schema (which
    `Layout.from_dict` appends for the Python API) becomes a pointer to `cuesim layout`, which
    prints a layout of that form; any other line break becomes '; '."""
    head, schema, _ = message.partition("\nSchema:\n")
    text = "; ".join(line.strip() for line in head.splitlines() if line.strip())
    if schema:
        text += " (`cuesim layout GAME` prints a layout in the expected form)"
    return text


def _real(v: Any) -> bool:
    """A real number that is not a bool (numpy's count: numbers.Real)."""
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


class LayoutError(ValueError):
    """A layout that cannot be played: unreadable, incomplete, overlapping or off the table."""


def _as_float(v: Any) -> Any:
    """A real number of another type (numpy's float32 or int64, a Python int, a Fraction) as
    the Python float a layout stores, so that its JSON, its file and a shot's can be written;
    anything else (a bool, text, an int past a float's range) as it is, for `Layout` to refuse
    by name."""
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        return v
    try:
        return float(v)
    except (TypeError, ValueError, OverflowError):
        return v


def _as_str(v: Any) -> Any:
    """A str subclass (numpy's str_) as the plain str it spells; anything else as it is."""
    return str.__str__(v) if isinstance(v, str) else v


_set = object.__setattr__


@dataclass(frozen=True, init=False)
class Piece:
    """One piece on the table. group is the owner's colour or ball group ('red', 'black', ...).
    Coordinates of any real number type are stored as Python floats, names of a str subclass
    (numpy's str_) as str: a layout of numpy values writes its JSON as any other (a float32
    is no JSON number). What is no number or no name is kept, and `Layout` refuses it."""

    id: str
    kind: str
    x: float
    y: float
    group: str = ""

    # written out rather than generated (with a __post_init__), to keep the common case,
    # floats and strs, as fast as before: ShotResult.final makes a piece of every one on the
    # table after each shot. Keep it in step with the fields above.
    def __init__(self, id: str, kind: str, x: float, y: float, group: str = "") -> None:
        if type(x) is not float:
            x = _as_float(x)
        if type(y) is not float:
            y = _as_float(y)
        if type(id) is not str or type(kind) is not str or type(group) is not str:
            id, kind, group = _as_str(id), _as_str(kind), _as_str(group)
        _set(self, "id", id)
        _set(self, "kind", kind)
        _set(self, "x", x)
        _set(self, "y", y)
        _set(self, "group", group)

    def __deepcopy__(self, memo: dict[int, Any]) -> Piece:
        return self  # immutable (frozen, plain fields): a copy would be the same piece


# a layout's fields in JSON: a field it does not know is refused, not ignored (a piece's
# "radius" would otherwise read as if it counted: a piece's size is its kind's)
LAYOUT_FIELDS = ("table", "pieces")
PIECE_FIELDS = ("id", "kind", "x", "y", "group")


def _no_unknown(item: dict[str, Any], known: tuple[str, ...], where: str) -> None:
    unknown = [key for key in item if key not in known]
    if unknown:
        raise LayoutError(f"{where}: unknown field {unknown[0]!r}; the fields are "
                          f"{', '.join(known)}")


@dataclass(frozen=True)
class Layout:
    """The pieces of one table at one moment: `table` its name, `pieces` a tuple of Piece (a
    list is taken as one) with string ids, kinds and groups, finite positions and distinct
    ids, or a LayoutError names what is wrong."""

    table: str
    pieces: tuple[Piece, ...]

    def __post_init__(self) -> None:
        if type(self.table) is not str:
            if not isinstance(self.table, str):
                raise LayoutError(f"layout table must be a table name (str), got "
                                  f"{self.table!r}")
            object.__setattr__(self, "table", _as_str(self.table))  # numpy's str_: a str
        if isinstance(self.pieces, list):  # a list is taken as the tuple it stands for
            object.__setattr__(self, "pieces", tuple(self.pieces))
        if not isinstance(self.pieces, tuple):
            raise LayoutError(f"layout pieces must be a tuple of Piece, got "
                              f"{type(self.pieces).__name__}")
        plain = True  # every piece's coordinates floats and names strs (as Piece makes them)
        for p in self.pieces:
            if type(p) is not Piece and not isinstance(p, Piece):
                raise LayoutError(f"layout pieces must be Piece objects, got {p!r}")
            if type(p.id) is not str or type(p.kind) is not str or type(p.group) is not str:
                if not (isinstance(p.id, str) and isinstance(p.kind, str)
                        and isinstance(p.group, str)):
                    raise LayoutError(f"piece {p.id!r}: id, kind and group must be strings, "
                                      f"got {p.id!r}, {p.kind!r}, {p.group!r}")
                plain = False  # a str subclass: made a str below
            x, y = p.x, p.y
            if type(x) is float and type(y) is float and x - x == 0.0 and y - y == 0.0:
                continue  # the common case, two finite floats (inf - inf and nan are nan)
            if (type(x) is not float and not _real(x)) or (type(y) is not float
                                                           and not _real(y)):
                raise LayoutError(f"piece {p.id!r}: x and y must be numbers in metres, got "
                                  f"{x!r}, {y!r}")
            if not (finite_real(x) and finite_real(y)):
                raise LayoutError(f"piece {p.id!r} has a non-finite position ({shown(x):.60}, "
                                  f"{shown(y):.60})")
            plain = plain and type(x) is float and type(y) is float
        if not plain:  # a piece made around Piece's own __init__: floats and strs, as its
            object.__setattr__(self, "pieces", tuple(
                p if (type(p.x) is float and type(p.y) is float and type(p.id) is str
                      and type(p.kind) is str and type(p.group) is str)
                else replace(p, id=_as_str(p.id), kind=_as_str(p.kind), group=_as_str(p.group),
                             x=float(p.x), y=float(p.y)) for p in self.pieces))
        ids = [p.id for p in self.pieces]
        if len(set(ids)) != len(ids):
            dup = sorted({i for i in ids if ids.count(i) > 1})
            raise LayoutError(f"layout has duplicate piece ids {dup}: give every piece its own id")

    def __hash__(self) -> int:  # computed once: layouts key the engine's caches
        h = self.__dict__.get("_hash")
        if h is None:
            h = self.__dict__["_hash"] = hash((self.table, self.pieces))
        return h

    def __getstate__(self) -> dict[str, object]:  # the cached hash is per process
        return {k: v for k, v in self.__dict__.items() if k not in ("_hash", "_index", "_kinds")}

    def __deepcopy__(self, memo: dict[int, Any]) -> Layout:
        """The layout itself: it is immutable (frozen, a tuple of frozen pieces; what its
        `__dict__` caches derives from them). A referee copied for a trial shot
        (`copy.deepcopy`, the computer player) so shares it: 66 us a novus layout before."""
        return self

    # -- queries ---------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.pieces)

    def _places(self) -> dict[str, int]:
        """The id-to-place map, built once per layout (a shot names every moving piece)."""
        where = self.__dict__.get("_index")
        if where is None:
            where = self.__dict__["_index"] = {p.id: k for k, p in enumerate(self.pieces)}
        return where

    def places(self, piece_ids: Iterable[str]) -> list[int | None]:
        """The places in `pieces` of these ids, None for an id of no piece (hashable ids)."""
        get = self._places().get
        return [get(piece_id) for piece_id in piece_ids]

    def index(self, piece_id: str) -> int:
        """The place of the piece with this id in `pieces` (KeyError naming the ids if absent)."""
        where = self._places()
        try:
            k = where.get(piece_id)
        except TypeError:  # an unhashable id names no piece
            k = None
        if k is not None:
            return k
        raise KeyError(f"no piece {piece_id!r} in the layout; ids are {self.ids()}")

    def get(self, piece_id: str) -> Piece:
        """The piece with this id."""
        return self.pieces[self.index(piece_id)]

    def positions(self) -> np.ndarray:
        """(n, 2) array of centres (filled a column at a time: twice as fast as from pairs)."""
        out = np.empty((len(self.pieces), 2))
        out[:, 0] = [p.x for p in self.pieces]
        out[:, 1] = [p.y for p in self.pieces]
        return out

    def ids(self) -> list[str]:
        """The pieces' ids, in layout order."""
        return [p.id for p in self.pieces]

    def kinds(self) -> tuple[str, ...]:
        """The pieces' kinds, in layout order (made once per layout)."""
        kinds = self.__dict__.get("_kinds")
        if kinds is None:
            kinds = self.__dict__["_kinds"] = tuple(p.kind for p in self.pieces)
        return kinds

    # -- edits (each returns a new layout; only what is new in it is checked) ---------------
    @classmethod
    def _of_checked(cls, table: str, pieces: tuple[Piece, ...]) -> Layout:
        """A layout of checked pieces with distinct ids, made without checking them again
        (a referee makes several a shot: 16 us each for a novus board)."""
        layout = object.__new__(cls)
        object.__setattr__(layout, "table", table)
        object.__setattr__(layout, "pieces", pieces)
        return layout

    def moved(self, piece_id: str, x: float, y: float) -> Layout:
        """A copy with the piece `piece_id` moved to (x, y)."""
        # an edit: an unknown id is a LayoutError naming the ids, as non-finite coordinates are
        # (README, Errors); `index`, a lookup, keeps its KeyError
        try:
            k = self.index(piece_id)
        except KeyError:
            raise self._no_piece("moved", piece_id) from None
        if not (finite_real(x) and finite_real(y)):
            raise LayoutError(f"moved: piece {piece_id!r} needs finite coordinates in m, got "
                              f"({shown(x)}, {shown(y)})")
        pieces = list(self.pieces)
        pieces[k] = replace(pieces[k], x=float(x), y=float(y))
        Layout(self.table, (pieces[k],))  # its new place checked
        return Layout._of_checked(self.table, tuple(pieces))

    def with_piece(self, piece: Piece) -> Layout:
        """Add a piece, or replace the one with the same id."""
        Layout(self.table, (piece,))  # the new piece checked
        pieces = [p for p in self.pieces if p.id != piece.id]
        return Layout._of_checked(self.table, (*pieces, piece))

    def without(self, piece_ids: Iterable[str], *, missing_ok: bool = False) -> Layout:
        """A copy without the pieces with these ids (e.g. the pocketed ones); an id of no piece
        in the layout is a LayoutError naming it, as in `moved`, unless `missing_ok` (then
        only the pieces present are left out)."""
        ids: list[str] | None = None
        drop: set[str] | None = None
        if not isinstance(piece_ids, str):  # a string would have been the set of its letters
            try:
                ids = list(piece_ids)
                drop = set(ids)
            except TypeError:  # no iterable, or unhashable ids
                ids = drop = None
        if ids is None or drop is None:
            raise LayoutError(f"without takes the ids to leave out as a list (['red1']), got "
                              f"{piece_ids!r}")
        if not isinstance(missing_ok, bool):
            raise LayoutError(f"without: missing_ok must be true or false, got "
                              f"{shown(missing_ok):.60}")
        if not missing_ok:
            for piece_id in ids:
                try:
                    self.index(piece_id)
                except KeyError:
                    raise self._no_piece("without", piece_id) from None
        return Layout._of_checked(self.table, tuple(p for p in self.pieces if p.id not in drop))

    def _no_piece(self, edit: str, piece_id: Any) -> LayoutError:
        """The error of an edit naming a piece the layout does not have: the id and the ids."""
        ids = self.ids()
        return LayoutError(f"{edit}: no piece {shown(piece_id):.60} in the layout; ids are "
                           f"{ids[:20]}{' ...' if len(ids) > 20 else ''}")

    # -- JSON ----------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The layout as plain JSON types: {'table': ..., 'pieces': [{id, kind, x, y, group}]}."""
        return {
            "table": self.table,
            "pieces": [
                {"id": p.id, "kind": p.kind, "group": p.group, "x": p.x, "y": p.y}
                for p in self.pieces
            ],
        }

    @staticmethod
    def from_dict(data: Any, source: str = "layout", table: str | None = None) -> Layout:
        """Build a layout from parsed JSON, naming the first missing or wrong field; the schema
        shown with an error has an example of the table the data names, else of `table`."""
        named = data.get("table") if isinstance(data, dict) else None
        schema = layout_schema(named if _family(named) else table)
        if not isinstance(data, dict):
            raise LayoutError(f"{source}: expected a JSON object, got {type(data).__name__}.\n"
                              f"Schema:\n{schema}")
        for key in ("table", "pieces"):
            if key not in data:
                raise LayoutError(f"{source}: missing field {key!r}.\nSchema:\n{schema}")
        if not isinstance(data["table"], str) or not data["table"]:
            raise LayoutError(f"{source}: 'table' must be a table name (a string), got "
                              f"{data['table']!r}")
        if not isinstance(data["pieces"], list):
            raise LayoutError(f"{source}: 'pieces' must be a list of objects")
        _no_unknown(data, LAYOUT_FIELDS, source)
        pieces = []
        seen: dict[str, int] = {}  # id -> the first piece with it
        for k, item in enumerate(data["pieces"]):
            where = f"{source}: pieces[{k}]"
            if not isinstance(item, dict):
                raise LayoutError(f"{where} must be an object with id, kind, x, y")
            _no_unknown(item, PIECE_FIELDS, where)
            for key in ("id", "kind", "x", "y"):
                if key not in item:
                    raise LayoutError(f"{where} is missing field {key!r}.\nSchema:\n{schema}")
            for key in ("x", "y"):
                value = item[key]
                if isinstance(value, bool) or not isinstance(value, int | float):
                    raise LayoutError(f"{where}.{key} must be a number in metres, got {value!r}")
                if not finite_real(value):
                    raise LayoutError(f"{where}.{key} must be a finite number in metres, got "
                                      f"{value!r}")
            for key in ("id", "kind"):  # a name: shown in rulings, messages and CSV columns
                value = item[key]
                if not isinstance(value, str) or not value or not value.isprintable():
                    raise LayoutError(f"{where}.{key} must be a non-empty string of printable "
                                      f"characters, got {value!r}")
            group = item.get("group", "")
            if not isinstance(group, str) or not group.isprintable():
                raise LayoutError(f"{where}.group must be a string of printable characters, "
                                  f"got {group!r}")
            first = seen.setdefault(item["id"], k)
            if first != k:
                raise LayoutError(f"{where}.id {item['id']!r} is pieces[{first}]'s id too: give "
                                  "every piece its own id")
            pieces.append(Piece(item["id"], item["kind"], float(item["x"]), float(item["y"]),
                                group))
        return Layout(data["table"], tuple(pieces))

    def to_json(self) -> str:
        """The layout as a JSON text (`Layout.load` reads a file of it back)."""
        return json.dumps(self.to_dict(), indent=2)

    @staticmethod
    def load(path: str | Path) -> Layout:
        """Read a layout JSON file; a clear LayoutError if it is missing, not JSON or malformed."""
        from cuesim.tables.jsonfile import file_path, read_json

        path = file_path(path, "layout file", LayoutError)
        data = read_json(path, "layout file", LayoutError)
        return Layout.from_dict(data, source=str(path))

    def save(self, path: str | Path) -> None:
        """Write the layout as JSON to `path` (`Layout.load` reads it back), whole or not at all
        (as ShotResult.save: an OutputError, cuesim.output, for a path that cannot be written)."""
        from cuesim.output import check_writable, write_atomic

        write_atomic(check_writable(path, "layout file"), self.to_json() + "\n")
