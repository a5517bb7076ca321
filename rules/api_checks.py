"""The referees' Python doors: the objects a game is given (a shot, its declaration, the
players, the counts) are of the types their annotations name, or an ArgumentTypeError says
which field and what was expected (`cuesim.rules.files.check_types` does the same for JSON
files)."""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from typing import Any


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
    if tp is Any:
        return True
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return any(fits(value, a, from_json) for a in args)
    if origin is typing.Literal:
        return value in args
    if tp is type(None):
        return value is None
    if tp is bool:
        return isinstance(value, bool)
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if tp is float:
        return (isinstance(value, int | float) and not isinstance(value, bool)
                and math.isfinite(value))
    if tp is str:
        return isinstance(value, str)
    if origin in (list, tuple):
        if not isinstance(value, list if from_json else list | tuple):
            return False
        if origin is tuple and args and (len(args) != 2 or args[1] is not Ellipsis):
            return len(value) == len(args) and all(
                fits(v, a, from_json) for v, a in zip(value, args, strict=True))
        return not args or all(fits(v, args[0], from_json) for v in value)
    if origin is dict:
        return isinstance(value, dict) and (not args or all(
            fits(k, args[0], from_json) and fits(v, args[1], from_json)
            for k, v in value.items()))
    if isinstance(tp, type) and not from_json:
        return isinstance(value, tp)
    return True


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def require(value: Any, tp: Any, where: str) -> None:
    """ArgumentTypeError naming `where` unless `value` is of type `tp`."""
    if not fits(value, tp):
        raise ArgumentTypeError(f"{where} must be {describe(tp)}, got {_shown(value)}")


def check_fields(obj: Any, cls: type, where: str) -> None:
    """`obj` is a `cls` (a dataclass) and each field is of its annotated type; a field that is
    itself a dataclass is checked the same way."""
    require(obj, cls, where)
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        value, tp = getattr(obj, f.name), hints.get(f.name, Any)
        require(value, tp, f"{where}.{f.name}")
        if isinstance(tp, type) and dataclasses.is_dataclass(tp) and \
                dataclasses.is_dataclass(value):
            check_fields(value, tp, f"{where}.{f.name}")


def check_args(func: Any, **values: Any) -> None:
    """Each named argument of `func` is of the type its signature annotates."""
    hints = typing.get_type_hints(func)
    for name, value in values.items():
        require(value, hints.get(name, Any), name)
