"""The referees' Python doors: the objects a game is given (a shot, its declaration, the
players, the counts) are of the types their annotations name, or an ArgumentTypeError says
which field and what was expected (`cuesim.rules.files.check_types` does the same for JSON
files)."""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any

from cuesim.tables.numbers import finite_real


class ArgumentTypeError(TypeError, ValueError):
    """An argument or field of the wrong type: a TypeError, and a ValueError like every other
    refusal of the referees (README, Errors)."""


def describe(tp: Any) -> str:
    """A type as the messages name it: 'a list of str', 'a Layout or None'."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(dict.fromkeys(describe(a) for a in args))
    if tp is type(None):
        return "None"
    if origin in (list, tuple):
        return f"a list of {args[0].__name__ if isinstance(args[0], type) else args[0]}" \
            if args else "a list"
    if origin is dict:
        return f"a dict of {describe(args[0])} to {describe(args[1])}".replace("a str", "str") \
            if args else "a dict"
    if origin is typing.Literal:
        return " or ".join(repr(a) for a in args)
    if isinstance(tp, type):
        return tp.__name__ if tp in (str, int, float, bool) else f"a {tp.__name__}"
    return str(tp)


def fits(value: Any, tp: Any, from_json: bool = False) -> bool:
    """Whether `value` is of the annotated type `tp`. In Python a list or a tuple passes for a
    list, and a class is checked with isinstance; `from_json`: as JSON holds it (a list is a
    list, dict keys are strings, a type JSON cannot hold is left to its own reader)."""
    try:
        check = _checker(tp, from_json)
    except TypeError:  # an annotation that cannot be a cache key (a Literal of a list)
        check = _build(tp, from_json)
    return check(value)


Check = typing.Callable[[Any], bool]


@functools.cache
def _checker(tp: Any, from_json: bool) -> Check:
    """The predicate of `fits` for one annotation, built once: a referee checks every shot's
    event list against the same annotation (reading it with `typing.get_origin` per element
    cost half of a pool ruling)."""
    return _build(tp, from_json)


def _finite_number(value: Any) -> bool:
    """A finite int or float; a bool is no number here (True is no time or speed)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and finite_real(value)


def _build(tp: Any, from_json: bool) -> Check:
    if tp is Any:
        return lambda value: True
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        options = tuple(_checker(a, from_json) for a in args)
        return lambda value: any(check(value) for check in options)
    if origin is typing.Literal:
        return lambda value: value in args
    if tp is type(None):
        return lambda value: value is None
    if tp is bool:
        return lambda value: isinstance(value, bool)
    if tp is int:
        return lambda value: isinstance(value, int) and not isinstance(value, bool)
    if tp is float:
        return _finite_number
    if tp is str:
        return lambda value: isinstance(value, str)
    if origin in (list, tuple):
        sequence = list if from_json else (list, tuple)
        if origin is tuple and args and (len(args) != 2 or args[1] is not Ellipsis):
            items = tuple(_checker(a, from_json) for a in args)
            return lambda value: isinstance(value, sequence) and len(value) == len(items) \
                and all(check(v) for check, v in zip(items, value, strict=True))
        if not args:
            return lambda value: isinstance(value, sequence)
        item = _checker(args[0], from_json)
        return lambda value: isinstance(value, sequence) and all(item(v) for v in value)
    if origin is dict:
        if not args:
            return lambda value: isinstance(value, dict)
        key, val = _checker(args[0], from_json), _checker(args[1], from_json)
        return lambda value: isinstance(value, dict) and all(
            key(k) and val(v) for k, v in value.items())
    if isinstance(tp, type) and not from_json:
        return lambda value: isinstance(value, tp)
    return lambda value: True


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def require(value: Any, tp: Any, where: str) -> None:
    """ArgumentTypeError naming `where` unless `value` is of type `tp`."""
    if not fits(value, tp):
        raise ArgumentTypeError(f"{where} must be {describe(tp)}, got {_shown(value)}")


@functools.cache
def hints(owner: Any) -> dict[str, Any]:
    """The annotations of a class or a function, evaluated once (`typing.get_type_hints`
    compiles each string annotation: about 0.2 ms for a referee's, on every game made)."""
    return typing.get_type_hints(owner)


def check_fields(obj: Any, cls: type, where: str, items: tuple[str, ...] = ()) -> None:
    """`obj` is a `cls` (a dataclass) and each field is of its annotated type; a field that is
    itself a dataclass is checked the same way, and so is each item of the list fields named
    in `items` (a shot's infractions; not its events, whose own check is `check_event_types`:
    field by field they would cost a ruling 3x)."""
    require(obj, cls, where)
    annotated = hints(cls)
    for f in dataclasses.fields(cls):
        value, tp = getattr(obj, f.name), annotated.get(f.name, Any)
        require(value, tp, f"{where}.{f.name}")
        if isinstance(tp, type) and dataclasses.is_dataclass(tp) and \
                dataclasses.is_dataclass(value):
            check_fields(value, tp, f"{where}.{f.name}")
        if f.name in items:
            (item,) = typing.get_args(tp)
            check_items(value, item, f"{where}.{f.name}")


def check_items(values: list[Any] | tuple[Any, ...], cls: type, where: str) -> None:
    """Each item of `values` is a `cls` (a dataclass) with fields of their annotated types
    (`check_fields`): an ArgumentTypeError names the item and the field."""
    for k, value in enumerate(values):
        check_fields(value, cls, f"{where}[{k}]")


def check_args(func: Any, **values: Any) -> None:
    """Each named argument of `func` is of the type its signature annotates."""
    annotated = hints(func)
    for name, value in values.items():
        require(value, annotated.get(name, Any), name)


MAX_NAME = 64  # characters of a player's name: the viewer's panel and the rulings' lines
# the longest match: its sets, race, games or points to win (a real one has a few to a few
# hundred points; 10**30 would never end). The referees, `cuesim play` and the envs hold to it.
MAX_MATCH = 1000


def check_names(players: Any, where: str) -> None:
    """Each player's name a non-empty string of printable characters (no line break or
    terminal escape to break a one-line ruling), at most MAX_NAME long, or a ValueError naming
    `where` (the count and distinctness are the game's to check)."""
    if not isinstance(players, list | tuple):
        return  # the caller's own check names a wrong container
    for k, name in enumerate(players):
        if not isinstance(name, str) or not name.strip() or not name.isprintable() \
                or len(name) > MAX_NAME:
            raise ValueError(f"{where}[{k}] must be a player's name: a non-empty string of "
                             f"printable characters, at most {MAX_NAME} long, got "
                             f"{_shown(name)}")


def two_players(data: dict[str, Any], required: tuple[str, ...]) -> list[Any]:
    """A state's `required` fields present and its players two different names (`check_names`):
    the players, or a ValueError naming the field (pool's and 5-pins' `from_dict`)."""
    for key in required:
        if key not in data:
            raise ValueError(f"state: missing field {key!r}")
    players = data["players"]
    if (not isinstance(players, list) or len(players) != 2
            or len(set(map(str, players))) != 2):
        raise ValueError(f"state.players must be a list of two different names, got "
                         f"{players!r}")
    check_names(players, "state.players")
    return players
