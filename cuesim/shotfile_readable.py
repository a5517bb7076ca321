"""A shot file's readable fields (the event log, layouts, pocketed, duration... beside the
`exact` block they are written from) checked against what that block gives, strictly: a bool is
no number, and a field no writer writes is refused (it would not be read back)."""

from __future__ import annotations

import json
from typing import Any

from cuesim.shotfile_motion import ShotFileError
from cuesim.sim.result import ShotResult


def check_readable(data: dict[str, Any], result: ShotResult, source: str) -> None:
    """The readable fields beside `exact` (the event log, layouts, pocketed, duration...) are
    written from it: each one given must be what the exact block gives, or an edit of it would
    be dropped without a word on reloading; a field neither the readable dict nor the exact
    block has is refused too (it would be lost)."""
    readable = _plain(result.to_dict(trajectories="segments" in data))
    known = (*readable, *(() if "segments" in readable else ("segments",)), "exact")
    no_unknown_fields(data, known, source)
    for key, value in readable.items():
        if key not in data or _same_text(data[key], value):
            continue
        found = _first_difference(_plain(data[key]), value, key)
        if found is not None:
            path, given, want = found
            raise ShotFileError(f"{source}: {path} is not what the exact block gives "
                                f"({_short(want)}, got {_short(given)}; the readable fields "
                                "are written from it and are not read back): edit the shot by "
                                "simulating it again, not the file")


def _same_text(given: Any, want: Any) -> bool:
    """Whether the two write the same JSON text (so are the same, bools as bools): the common
    case, in C, before `_first_difference` walks them in Python."""
    try:
        return json.dumps(given, sort_keys=True) == json.dumps(want, sort_keys=True)
    except (TypeError, ValueError, RecursionError):
        return False


def _first_difference(given: Any, want: Any, path: str) -> tuple[str, Any, Any] | None:
    """The first place where `given` is not `want` (JSON data): its path and the two values
    there; None if nowhere. A bool is no number here (false == 0.0 and true == 1 in Python,
    so a `"speed": false` or a `"direction": true` compared equal); an int and a float of one
    value are the same number (another JSON writer may write 0 for 0.0)."""
    if isinstance(want, dict):
        if not isinstance(given, dict) or set(given) != set(want):
            return path, given, want
        for key, value in want.items():
            found = _first_difference(given[key], value, f"{path}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(want, list):
        if not isinstance(given, list) or len(given) != len(want):
            return path, given, want
        for k, (g, w) in enumerate(zip(given, want, strict=True)):
            found = _first_difference(g, w, f"{path}[{k}]")
            if found is not None:
                return found
        return None
    if is_number(want):
        same = is_number(given) and given == want
    else:
        same = type(given) is type(want) and given == want
    return None if same else (path, given, want)


def _short(value: Any) -> str:
    """`value` as JSON writes it, cut to 60 characters."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def no_unknown_fields(block: dict[str, Any], known: tuple[str, ...], where: str) -> None:
    """Refuse a field of `block` its writer never writes: it is not read back, so an edit put
    there would be lost without a word."""
    for key in block:
        if key not in known:
            raise ShotFileError(f"{where}: unknown field {key!r} (it would not be read back); "
                                f"the fields are {', '.join(known)}"[:600])


def _plain(value: Any) -> Any:
    """`value` as JSON would give it back (lists for tuples, float keys as strings)."""
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError):
        return value


def is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)
