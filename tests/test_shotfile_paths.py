"""Shot files: each piece's path is continuous (a segment starts where the piece's previous one
ends), the feature names are the named table's own, and a segment opened by an impact that
logged no event (a slow pressing contact joined without an impulse, `resolve.cluster`) names
no event, so the shot reloads (it named the last event logged, from an earlier time, and its
own shot file refused it)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

from bench import tunnels
from cuesim import ShotResult, simulate
from cuesim.shotfile import ShotFileError
from cuesim.sim.state import SEG_AY, SEG_EVENT, SEG_OBJ, SEG_T0, SEG_T1, SEG_VX, SEG_VY, SEG_X
from tests.shot_fixtures import nine_ball_break


def _silent_join() -> ShotResult:
    """bench/tunnels.py 14.1 seed 3100203, random physics: the cue ball and the 1, touching,
    chatter through impacts of micrometres per second; 0.25 ns after the cue ball starts to
    roll (event 14) their contact presses and they join (`resolve.cluster`): both take the
    pair's mean velocity and spin, with no impulse and no event."""
    case = tunnels.shot_for("14.1", 3100203, "random")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return simulate(case.table, case.layout, case.shot)


def test_segments_an_impact_that_logged_nothing_opened_name_no_event(tmp_path: Path) -> None:
    result = _silent_join()
    seg, ev = result.segments, result.events
    opened = seg[:, SEG_EVENT].astype(int)
    named = opened >= 0
    assert np.array_equal(seg[named, SEG_T0], ev[opened[named], 0])  # each at its event's time
    first = np.zeros(len(seg), dtype=bool)
    for i in range(len(result.initial)):
        first[np.flatnonzero(seg[:, SEG_OBJ] == i)[0]] = True
    silent = np.flatnonzero(~named & ~first)
    assert len(silent) == 2 and set(seg[silent, SEG_OBJ].astype(int)) == {0, 1}
    cue, ball = silent
    assert seg[cue, SEG_T0] == seg[ball, SEG_T0] > ev[14, 0]  # after the roll, not at it
    assert np.array_equal(seg[cue, SEG_VX:SEG_VY + 1], seg[ball, SEG_VX:SEG_VY + 1])  # joined
    for suffix in (".json", ".npz"):
        path = tmp_path / f"shot{suffix}"
        result.save(path)
        again = ShotResult.load(path)
        assert again.segments.tobytes() == seg.tobytes()
        assert again.events.tobytes() == ev.tobytes()


def _exact() -> dict:
    return json.loads(json.dumps(nine_ball_break().to_dict(exact=True)))


def test_a_segment_that_moves_its_piece_away_from_its_path_is_refused() -> None:
    """A piece's segment starts where its previous one ends (the simulator opens it at exactly
    that point): an edited start is a piece jumping between two events."""
    data = _exact()
    segments = data["exact"]["segments"]
    obj = [row[SEG_OBJ] for row in segments]
    k = next(k for k in range(1, len(segments)) if obj[k] in obj[:k])
    segments[k][SEG_X] += 1e-3
    with pytest.raises(ShotFileError, match=rf"segments\[{k}\]: piece {int(obj[k])} starts at "
                                            r".* not where its previous segment .* ends"):
        ShotResult.from_dict(data)
    segments[k][SEG_X] -= 1e-3
    ShotResult.from_dict(data)


def test_feature_names_are_the_named_tables_own() -> None:
    """The events' `index` names a rail or a pocket through `feature_names`: a name edited
    there would be ruled on as another feature (a foot rail as the head rail)."""
    data = _exact()
    rails = data["exact"]["feature_names"]["rail"]
    rails[0], rails[1] = rails[1], rails[0]
    with pytest.raises(ShotFileError, match=r"feature_names\.rail must be the pool_9ft table's "
                                            r"\["):
        ShotResult.from_dict(data)
    data = _exact()
    data["exact"]["feature_names"]["pocket"].append("moon")
    with pytest.raises(ShotFileError, match=r"feature_names\.pocket must be the pool_9ft"):
        ShotResult.from_dict(data)


def test_a_resting_piece_neither_moves_nor_accelerates() -> None:
    """A shot played to rest (truncated false) ends every piece's path in a segment without end
    at rest: an acceleration there would carry the piece off for ever (`positions_at`)."""
    data = _exact()
    segments = data["exact"]["segments"]
    k = next(k for k, row in enumerate(segments) if row[SEG_T1] is None)
    segments[k][SEG_AY] = 1.5
    with pytest.raises(ShotFileError, match=rf"segments\[{k}\]: piece .* accelerating at "
                                            r"\(0, 1\.5\) m/s\^2, in its last segment, but "
                                            r"truncated is false"):
        ShotResult.from_dict(data)
