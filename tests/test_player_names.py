"""Players' names and match lengths at every door. A name is a non-empty string of printable
characters, at most 64 long (rules.api_checks.check_names). An empty name was refused by the
novus scenario door only: the API, `cuesim play --players` and the pool scenarios took it, and
the rulings then lost the name ("Chooses to pass..."); a line break or a terminal escape in a
name went raw into the one-line rulings. A match is at most 1000 sets, frames, games or
points (rules.api_checks.MAX_MATCH)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from cuesim.cli import main
from cuesim.rules.files import ScenarioError, adjudicate
from cuesim.rules.fivepins.game import FivePinsGame
from cuesim.rules.novus.game import NovusGame
from cuesim.rules.pool.model import PoolState
from cuesim.rules.pool.nine_ball import NineBall

HERE = Path(__file__).resolve().parent
POOL_9 = json.loads((HERE / "scenarios" / "pool" / "nine_ball_push_out.json").read_text())
BAD = ["", "   ", "Ann\nBob", "Ann\x1b[2J", "x" * 65]


@pytest.mark.parametrize("name", BAD)
def test_the_referees_refuse_a_name_that_is_no_name(name):
    for game in (lambda: NovusGame([name, "B"]), lambda: NineBall([name, "B"]),
                 lambda: FivePinsGame([name, "B"])):
        with pytest.raises(ValueError, match=r"players\[0\] must be a player's name"):
            game()


def test_a_long_printable_name_is_a_name():
    for game in (NovusGame, NineBall, FivePinsGame):
        game(["Ann-Marie O'Neill 2", "x" * 64])


@pytest.mark.parametrize("name", BAD)
def test_a_scenario_or_state_with_such_a_name_is_refused(name):
    data = copy.deepcopy(POOL_9)
    data["state"].update(players=[name, "Bob"], breaker="Bob")
    with pytest.raises(ScenarioError, match=r"state.players\[0\] must be a player's name"):
        adjudicate(data)
    state = NineBall(["A", "B"]).state.to_dict()
    state["players"] = [name, "B"]
    with pytest.raises(ValueError, match=r"state.players\[0\]"):
        PoolState.from_dict(state)


def test_play_refuses_such_a_name_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    shot = tmp_path / "x.png"
    assert main(["play", "novus", "--players", "", "B", "--screenshot", str(shot)]) == 2
    err = capsys.readouterr().err
    assert "--players[0] must be a player's name" in err and len(err.strip().splitlines()) == 1
    assert not shot.exists()


@pytest.mark.parametrize("make", [
    lambda: NineBall(race_to=10**30), lambda: NineBall(points_to=1001),
    lambda: FivePinsGame(points_to=10**30), lambda: FivePinsGame(games=1001),
    lambda: NovusGame(["A", "B"], sets=10**30),
])
def test_a_match_that_never_ends_is_refused(make):
    """A race to 10**30 (or as many sets, games or points) was taken by every referee: a
    match that cannot end. At most 1000 (rules.api_checks.MAX_MATCH), as `cuesim play` and the
    envs."""
    with pytest.raises(ValueError, match="1000"):
        make()
    NineBall(race_to=1000)
    FivePinsGame(games=999, points_to=1000)
