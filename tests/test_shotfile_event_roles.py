"""Shot files: each event names what its kind can (cuesim.shotfile_events, the event log's
contract in cuesim.sim.events). A row the core cannot log is refused, naming the row; every
shot the simulator saves still reloads (tests/test_shotfile_final_state.py)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from cuesim import CueShot, ShotResult
from cuesim.shotfile import ShotFileError
from cuesim.sim.events import EventKind
from tests.shot_fixtures import nine_ball_break
from tests.test_shotfile_final_state import play

Row = list[float]


@cache
def five_pins_shot() -> ShotResult:
    """The white through the pins: pins knocked down (PIN events), a collision first."""
    return play("5-pins", CueShot(angle=math.radians(57), speed=1.5, ball="white"))


@cache
def novus_shot() -> ShotResult:
    """A novus opening shot: line and circle crossings."""
    from cuesim import NovusShot

    return play("novus", NovusShot(x=0.5, angle=math.pi / 2, speed=4.0))


def first(rows: list[Row], kind: EventKind) -> int:
    return next(k for k, row in enumerate(rows) if row[1] == int(kind))


def edited(result: ShotResult, edit: Callable[[list[Row]], None], tmp_path: Path) -> Path:
    path = tmp_path / "shot.json"
    result.save(path)
    data = json.loads(path.read_text())
    edit(data["exact"]["events"])
    path.write_text(json.dumps(data))
    return path


def _pin_twice(rows: list[Row]) -> None:
    k = first(rows, EventKind.PIN)
    rows.insert(k + 1, list(rows[k]))


def _pin_on_a_ball(rows: list[Row]) -> None:
    rows[first(rows, EventKind.PIN)][3] = 1.0  # 'yellow'


def _collide_alone(rows: list[Row]) -> None:
    rows[first(rows, EventKind.COLLIDE)][3] = -1.0


def _collide_with_itself(rows: list[Row]) -> None:
    k = first(rows, EventKind.COLLIDE)
    rows[k][3] = rows[k][2]


def _stop_with_a_partner(rows: list[Row]) -> None:
    k = first(rows, EventKind.STOP)
    rows[k][3] = 0.0 if rows[k][2] != 0.0 else 1.0


def _rail_without_its_cushion(rows: list[Row]) -> None:
    rows[first(rows, EventKind.RAIL)][4] = -1.0


def _collide_at_a_cushion(rows: list[Row]) -> None:
    rows[first(rows, EventKind.COLLIDE)][4] = 0.0


def _stop_with_a_direction(rows: list[Row]) -> None:
    rows[first(rows, EventKind.STOP)][6] = 1.0


def _crossing_without_a_direction(rows: list[Row]) -> None:
    rows[first(rows, EventKind.LINE)][6] = 0.0


def _dropped_twice(rows: list[Row]) -> None:
    k = first(rows, EventKind.POCKET)
    rows.insert(k + 1, list(rows[k]))


CASES = [
    (five_pins_shot, _pin_twice, r"'pin_\w+' is knocked down a second time"),
    (five_pins_shot, _pin_on_a_ball, r"b must be a pin .* got 'yellow' of kind 'ball'"),
    (nine_ball_break, _collide_alone, "b must name the second piece"),
    (nine_ball_break, _collide_with_itself, "b must be another piece than a"),
    (nine_ball_break, _stop_with_a_partner, "b must be -1: only a collide or pin event"),
    (nine_ball_break, _rail_without_its_cushion, "index must name the cushion"),
    (nine_ball_break, _collide_at_a_cushion, "index names no rail, pocket, line or circle"),
    (nine_ball_break, _stop_with_a_direction, "direction must be 0"),
    (novus_shot, _crossing_without_a_direction, r"direction must be \+1 or -1"),
    (nine_ball_break, _dropped_twice, "drops a second time"),
]


@pytest.mark.parametrize(("shot", "edit", "match"), CASES,
                         ids=[edit.__name__.strip("_") for _, edit, _ in CASES])
def test_an_event_its_kind_cannot_have_is_refused(shot: Callable[[], ShotResult],
                                                   edit: Callable[[list[Row]], None], match: str,
                                                   tmp_path: Path) -> None:
    path = edited(shot(), edit, tmp_path)
    with pytest.raises(ShotFileError, match=r"shot\.json: events\[\d+\]"):
        ShotResult.load(path)
    with pytest.raises(ShotFileError, match=match):
        ShotResult.load(path)


@pytest.mark.parametrize("shot", [five_pins_shot, nine_ball_break, novus_shot])
def test_the_shots_the_cases_edit_reload_unedited(shot: Callable[[], ShotResult],
                                                  tmp_path: Path) -> None:
    result = shot()
    assert not result.truncated
    assert ShotResult.load(edited(result, lambda rows: None, tmp_path)).events.tobytes() \
        == result.events.tobytes()
