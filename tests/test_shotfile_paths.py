"""Shot files: each piece's path is continuous (a segment starts where the piece's previous one
ends), the feature names are the named table's own, and a segment opened by an impact that
logged no event (a slow pressing contact joined without an impulse, `resolve.cluster`) names
no event, so the shot reloads (it named the last event logged, from an earlier time, and its
own shot file refused it)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cuesim import ShotResult
from cuesim.shotfile import ShotFileError
from cuesim.sim.state import SEG_AY, SEG_EVENT, SEG_OBJ, SEG_T0, SEG_T1, SEG_VX, SEG_VY, SEG_X
from tests.shot_fixtures import nine_ball_break


def _silent_join() -> ShotResult:
    """The cue ball rolls at 0.5 m/s into the back of the 1, which touches it and slides on at
    the same speed: the 1 brakes harder, the contact presses at once and the two join
    (`resolve.cluster`), both taking the pair's mean velocity and spin, with no impulse and
    no event (both were moving: no push to log). Before, bench/tunnels.py 14.1 seed 3100203
    (random physics) showed it; there the pair now slides apart (a sliding contact's bounce)."""
    from cuesim.api import game_table
    from cuesim.sim import run_motion
    from cuesim.tables.layout import Layout, Piece

    table = game_table("9-ball")
    r = table.piece_spec("ball").radius
    layout = Layout(table.name, (Piece("cue", "ball", 0.6, 0.8, "cue"),
                                 Piece("1", "ball", 0.6, 0.8 + 2 * r)))
    return run_motion(table, layout, {"cue": (0.0, 0.5, -0.5 / r, 0.0, 0.0),
                                      "1": (0.0, 0.5, 0.0, 0.0, 0.0)}, struck="cue")


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
    assert seg[cue, SEG_T0] == seg[ball, SEG_T0] == 0.0 and len(ev) > 1  # the join, no event
    assert [int(k) for k in ev[:, 1]].count(1) == 0  # no collision logged
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
