"""Copies of the referees' plain state: dicts, lists and tuples of numbers, strings, booleans
and None (what a state's `to_dict` holds). A copy of such data needs no `copy.deepcopy`
bookkeeping (its memo and the reconstruction of each object), which the computer player pays
on every trial shot (a pool ruling copies its state twice: 15 us a copy before)."""

from __future__ import annotations

import copy
from dataclasses import asdict
from typing import Any, Self, TypeVar

_ATOMS = (str, int, float, bool, type(None))

State = TypeVar("State")


def plain_copy(value: Any) -> Any:
    """A deep copy of plain data; anything else inside (an immutable Layout, an object) is
    copied by `copy.deepcopy`, as before."""
    if isinstance(value, _ATOMS):
        return value
    kind = type(value)
    if kind is dict:
        return {k: plain_copy(v) for k, v in value.items()}
    if kind is list:
        return [plain_copy(v) for v in value]
    if kind is tuple:
        return tuple(plain_copy(v) for v in value)
    return copy.deepcopy(value)


def copy_state(state: State) -> State:
    """A deep copy of an object (a referee's state dataclass) whose attributes hold plain
    data (`plain_copy`): the same as `copy.deepcopy(state)` for such a state, without its
    bookkeeping."""
    made = copy.copy(state)
    for name, value in vars(state).items():
        setattr(made, name, plain_copy(value))
    return made


class PlainState:
    """`copy`, `copy.deepcopy` and `to_dict` of a referee's state dataclass whose fields hold
    plain data (pool's and 5-pins' states)."""

    def copy(self) -> Self:
        """A deep copy (`copy_state`: its fields are plain data)."""
        return copy_state(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return copy_state(self)  # a referee copied whole (`copy.deepcopy`) copies its state so

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)  # type: ignore[call-overload]  # (its subclasses are dataclasses)
