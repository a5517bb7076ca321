"""Reading a JSON file that a person may have written, edited or damaged: the one reader of
every file kind (layouts, scenarios, saved games), so each refuses the same things the same way.

Refused, with the file's name in the message: an unreadable file, a file that is not UTF-8
text (a binary file), text that is not JSON (with line and column), the non-JSON constants
NaN and Infinity and numbers too large for a float (1e999 would become inf; an integer of 400
digits would overflow wherever it is used as one), a field given twice in one object (JSON
readers keep either one), nesting deeper than MAX_DEPTH (Python's parser would otherwise hit
its recursion limit), and a file longer than MAX_BYTES (a device such as /dev/zero, or a file
that is no cuesim file, would otherwise be read until the memory runs out).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

MAX_DEPTH = 64  # nesting levels; the deepest cuesim file (a saved game) uses under 10
# bytes read at most: the largest cuesim file, a shot file of a shot stopped at the event
# limit (20,000 events) with its exact segments, is about ten megabytes
MAX_BYTES = 256 * 1024 * 1024


def _depth_ok(text: str, limit: int) -> bool:
    """Whether brackets outside strings nest at most `limit` deep (a linear scan)."""
    depth, in_string, escaped = 0, False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return False
        elif ch in "]}":
            depth -= 1
    return True


def file_path(path: object, what: str, error: type[ValueError] = ValueError) -> Path:
    """`path` as a Path, or `error` naming `what` when it is no file name (a str or an
    os.PathLike: Path() of anything else is a TypeError, of bytes too)."""
    if not isinstance(path, str | os.PathLike):
        raise error(f"{what} must be a file name (a str or a path), got {path!r}")
    return Path(path)


def read_json(path: str | Path, what: str, error: type[ValueError] = ValueError) -> Any:
    """The parsed content of the JSON file `path` (`what` names its kind in messages), or
    `error` saying what is wrong with it."""
    path = file_path(path, what, error)
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise error(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise error(f"{what} {path} is longer than {MAX_BYTES // (1024 * 1024)} MiB; is it a "
                    "cuesim file?")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{what} {path} is not UTF-8 text (byte {exc.start}); is it a binary "
                    "file?") from None
    if not _depth_ok(text, MAX_DEPTH):
        raise error(f"{what} {path} nests objects or lists more than {MAX_DEPTH} deep")

    def constant(name: str) -> Any:
        raise error(f"{what} {path}: {name} is not a JSON number; write a finite number")

    def number(token: str) -> float:
        value = float(token)
        if value in (float("inf"), float("-inf")):
            raise error(f"{what} {path}: the number {token} is too large")
        return value

    def integer(token: str) -> int:
        # more digits than any float holds (and Python's own 4,300-digit limit) are refused
        # before int() reads them; a value past the largest float would overflow every use
        if len(token.lstrip("-")) > 309:
            raise error(f"{what} {path}: the number {token[:12]}... ({len(token)} digits) is "
                        "too large")
        value = int(token)
        try:
            float(value)
        except OverflowError:
            raise error(f"{what} {path}: the number {token[:12]}... is too large") from None
        return value

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise error(f"{what} {path}: the field {key!r} is given twice in one object; "
                            "keep one")
            out[key] = value
        return out

    try:
        return json.loads(text, parse_constant=constant, parse_float=number, parse_int=integer,
                          object_pairs_hook=unique)
    except json.JSONDecodeError as exc:
        raise error(f"{what} {path} is not valid JSON (line {exc.lineno}, column {exc.colno}: "
                    f"{exc.msg})") from None
    except RecursionError:
        raise error(f"{what} {path} nests too deeply") from None
