"""The copies the computer player makes for every trial shot (`Session.trial` copies the
referee; a pool or 5-pins ruling copies its state): a layout is immutable and shared, a
state's plain data is copied without `copy.deepcopy` (`cuesim.rules.plain`), and either way
the copy equals what `copy.deepcopy` gives and shares nothing that can change."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest

from cuesim.rules.plain import copy_state, plain_copy
from cuesim.tables.layout import Layout, Piece
from cuesim.viewer import ai
from cuesim.viewer.session import new_session


def _mutable_shared(a: Any, b: Any, path: str = "") -> list[str]:
    """Paths of the dicts and lists that a and b share (the same object in both)."""
    out = []
    if isinstance(a, (dict, list)) and a is b:
        out.append(path)
    if isinstance(a, dict):
        for k in a:
            out += _mutable_shared(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, (list, tuple)):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            out += _mutable_shared(x, y, f"{path}[{i}]")
    return out


def test_a_layout_and_its_pieces_are_shared_by_a_deep_copy():
    piece = Piece("red1", "puck", 0.4, 0.5, "red")
    layout = Layout("novus", (piece, Piece("striker", "striker", 0.5, 0.07)))
    held = {"layout": layout, "pieces": [piece]}
    copied = copy.deepcopy(held)
    assert copied["layout"] is layout and copied["pieces"][0] is piece
    assert copied["pieces"] is not held["pieces"]  # the containers are copied as before
    with pytest.raises(dataclasses.FrozenInstanceError):
        layout.pieces = ()  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        piece.x = 0.0  # type: ignore[misc]


def test_plain_copy_copies_containers_and_deep_copies_anything_else():
    class Box:
        def __init__(self) -> None:
            self.items = [1, 2]

    box = Box()
    data = {"a": [1, {"b": (2, [3])}], "s": {4, 5}, "box": box, "n": None}
    made = plain_copy(data)
    assert made == {**data, "box": made["box"]}
    assert not _mutable_shared(data["a"], made["a"])
    assert made["s"] == {4, 5} and made["s"] is not data["s"]  # deepcopy's
    assert made["box"] is not box and made["box"].items == [1, 2]


@pytest.mark.parametrize("game", ["9-ball", "8-ball", "14.1", "5-pins"])
def test_a_state_copy_equals_deepcopy_and_shares_nothing_mutable(game):
    """States met in a game the computer plays against itself (ball in hand, groups, pending
    choices, scores): `copy()`, `copy.deepcopy` of the state and of its referee give equal
    values (`dataclasses.asdict`, its own deep walk), and no dict or list of them is the
    original's."""
    session = new_session(game)
    for turn in range(6):
        if session.over():
            break
        state = session.ref.state
        for made in (state.copy(), copy.deepcopy(state), copy.deepcopy(session.ref).state):
            assert type(made) is type(state) and made is not state
            assert dataclasses.asdict(made) == dataclasses.asdict(state)
            for name, value in vars(state).items():
                assert not _mutable_shared(value, getattr(made, name), name), name
        if session.pending() is not None:
            session.choose(ai.choose_option(session))
            continue
        session.apply(ai.choose_shot(session, 4, seed=turn).action)


def test_a_novus_game_copy_equals_the_original_and_shares_nothing_mutable():
    """The novus referee is its own state (`NovusGame`): copied for each trial shot, through
    `copy_state`; its layout is shared (immutable), nothing else."""
    session = new_session("novus")
    for turn in range(5):
        if session.over():
            break
        game = session.ref
        made = copy.deepcopy(game)
        assert type(made) is type(game) and made is not game
        assert dataclasses.asdict(made) == dataclasses.asdict(game)
        assert made.layout is game.layout
        for name, value in vars(game).items():
            assert not _mutable_shared(value, getattr(made, name), name), name
        made.history.append({"set": 99})
        made.debt["red"] = 7
        assert game.history != made.history and game.debt != made.debt
        session.apply(ai.choose_shot(session, 4, seed=turn).action)


def test_copy_state_copies_every_attribute():
    @dataclasses.dataclass
    class State:
        scores: dict[str, int]
        log: list[list[int]]

    state = State({"a": 1}, [[1], [2]])
    state.extra = {"not": "a field"}  # type: ignore[attr-defined]
    made = copy_state(state)
    made.scores["a"] = 2
    made.log[0].append(3)
    made.extra["not"] = "changed"  # type: ignore[attr-defined]
    assert state.scores == {"a": 1} and state.log == [[1], [2]]
    assert state.extra == {"not": "a field"}  # type: ignore[attr-defined]
