"""A truncated shot is never a layout (issue 12, item 4): the result, the warning, the CLI's
exit status, every referee and the viewer refuse to rule or play on from it."""

from __future__ import annotations

import json
import math
import warnings
from functools import partial

import pytest

from cuesim import CueShot, NovusShot, TruncatedShotError, simulate
from cuesim.cli import TRUNCATED_STATUS, main
from cuesim.sim import run_motion
from cuesim.tables import (
    nine_ball_rack,
    novus_singles_layout,
    novus_table,
    pool_table,
)
from cuesim.tables.carom import carom_table, five_pins_layout
from cuesim.tables.layout import Piece
from tests.test_balls_properties import random_layout

POOL = pool_table()
RB = POOL.piece_spec("ball").radius


def _truncated_pool():
    with pytest.warns(RuntimeWarning, match="TRUNCATED"):
        return simulate(POOL, nine_ball_rack(POOL, cue=Piece("cue", "ball", 0.635, 0.5)),
                        CueShot(angle=math.pi / 2, speed=8.0), max_events=25)


@pytest.mark.truncation
def test_truncated_result_has_no_final_layout():
    res = _truncated_pool()
    assert res.truncated and res.moving()
    with pytest.raises(TruncatedShotError, match="TRUNCATED"):
        res.final  # noqa: B018
    d = res.to_dict()
    assert d["truncated"] is True and d["final"] is None and d["moving"] == res.moving()
    assert "TRUNCATED" in d["truncation"]


@pytest.mark.truncation
def test_truncated_shot_warns():
    with pytest.warns(RuntimeWarning, match="TRUNCATED"):
        simulate(POOL, nine_ball_rack(POOL, cue=Piece("cue", "ball", 0.635, 0.5)),
                 CueShot(angle=math.pi / 2, speed=8.0), max_events=25)


def test_complete_result_is_a_layout():
    res = simulate(POOL, random_layout(5, 3), CueShot(angle=0.3, speed=1.0))
    assert not res.truncated and res.moving() == []
    res.require_complete("anyone")
    assert len(res.final) <= 3 and res.to_dict()["final"] is not None


@pytest.mark.truncation
def test_cli_says_truncated(capsys):
    rc = main(["shoot", "9-ball", "--speed", "8", "--max-events", "25"])
    out = capsys.readouterr().out
    assert rc == TRUNCATED_STATUS
    assert out.splitlines()[0].startswith("TRUNCATED")
    assert "no final layout" in out
    rc = main(["shoot", "9-ball", "--speed", "8", "--max-events", "25", "--json"])
    captured = capsys.readouterr()
    d = json.loads(captured.out)
    assert rc == TRUNCATED_STATUS and d["truncated"] is True and d["final"] is None
    assert "TRUNCATED" in captured.err


def test_cli_complete_shot_exits_zero(capsys):
    assert main(["shoot", "9-ball", "--speed", "3"]) == 0
    assert "TRUNCATED" not in capsys.readouterr().out


@pytest.mark.truncation
def test_pool_referee_refuses_a_truncated_result():
    from cuesim.rules.pool import shot_from_result

    with pytest.raises(TruncatedShotError, match="pool referee"):
        shot_from_result(_truncated_pool())


@pytest.mark.truncation
def test_fivepins_referee_refuses_a_truncated_result():
    from cuesim.rules.fivepins import shot_from_result

    table = carom_table()
    with pytest.warns(RuntimeWarning, match="TRUNCATED"):
        res = simulate(table, five_pins_layout(table), CueShot(angle=1.4, speed=3.0,
                                                               ball="white"), max_events=3)
    assert res.truncated
    with pytest.raises(TruncatedShotError, match="5-pins referee"):
        shot_from_result(res)


@pytest.mark.truncation
def test_novus_referee_refuses_a_truncated_result():
    from cuesim.rules.novus import NovusGame

    table = novus_table()
    with pytest.warns(RuntimeWarning, match="TRUNCATED"):
        res = simulate(table, novus_singles_layout(table), NovusShot(x=0.5, angle=1.5708,
                                                                     speed=6.0), max_events=3)
    assert res.truncated
    with pytest.raises(TruncatedShotError, match="novus referee"):
        NovusGame(["A", "B"]).adjudicate(res)


@pytest.mark.truncation
@pytest.mark.parametrize("game", ["9-ball", "5-pins", "novus"])
def test_viewer_takes_a_truncated_shot_back(game, monkeypatch):
    import cuesim.viewer.novus_session as novus_mod
    import cuesim.viewer.session as session_mod
    from cuesim.viewer.session import new_session

    monkeypatch.setattr(session_mod, "run_motion", partial(run_motion, max_events=3))
    monkeypatch.setattr(session_mod, "simulate", partial(simulate, max_events=3))
    monkeypatch.setattr(novus_mod, "simulate", partial(simulate, max_events=3))
    s = new_session(game)
    before = s.layout()
    action = s.shot_action(s.struck_position(), math.pi / 2, 3.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        with pytest.raises(TruncatedShotError, match="viewer"):
            s.apply(action)
        with pytest.raises(TruncatedShotError):
            s.trial(action)
    assert s.actions == [] and s.layout() == before and s.last_result is None


@pytest.mark.truncation
def test_a_truncated_shot_is_not_sampled_after_its_last_event():
    """A truncated shot's moving pieces end on open segments (t1 infinite): evaluated after
    the last event their parabolas ran on past where the cloth stops them (the cue ball here,
    and in a novus opening cut at 5 events a striker 7e9 m off the board at t = 1e5 s). Up to
    the last event every time answers; after it, SimulationError; a dt grid stops at or before
    it; a complete shot answers any time with where everything rests."""
    from cuesim import SimulationError

    res = _truncated_pool()
    end = res.duration
    pos, _ = res.positions_at(end)
    assert (res.sample([0.0, end]).positions[-1] == pos).all()
    for late in (end * (1 + 1e-12), 1e5):
        with pytest.raises(SimulationError, match="TRUNCATED at t = .*nothing is known after it"):
            res.positions_at(late)
        with pytest.raises(SimulationError, match="TRUNCATED at t = .*nothing is known after it"):
            res.sample([0.0, late])
    for dt in (0.01, end / 3, end, 2 * end):
        grid = res.sample(dt=dt).t
        assert grid[-1] <= end < grid[-1] + dt
    done = simulate(POOL, nine_ball_rack(POOL, cue=Piece("cue", "ball", 0.635, 0.5)),
                    CueShot(angle=math.pi / 2, speed=8.0))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a resting segment's spin decay at 1e308 s: no overflow
        late = done.sample([1e308])
    assert (late.positions[0] == done.positions_at(1e308)[0]).all()
    assert (late.spin == 0.0).all() and (late.velocities == 0.0).all()
