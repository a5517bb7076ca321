"""A batch may set the table's physics shot by shot: a shot's parameters may name any
coefficient `table.with_physics` takes (mu_slide, e_ball, ...; novus mu_puck, e_rail, ...), in a
table of parameters, a sampler's or grid's ranges and fixed values, a --params file's columns
or the command line's --vary, --grid and --set. Each such shot is the shot `simulate` plays on
`table.with_physics(...)` of its values, bit for bit, whatever the threads; a value out of its
coefficient's range is refused at the door (or marked, with errors='mark'), and a coefficient
set both for the whole run (--physics, --impact-steps) and shot by shot is refused."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cuesim import simulate, start_layout
from cuesim.api import game_table
from cuesim.batch import BatchError, ShotGrid, ShotSampler, read_results, simulate_many
from cuesim.batch.core import STATUS_INVALID, Setup, make_shot, rule
from cuesim.batch.params import physics_names
from cuesim.cli import main
from cuesim.shot import CueShot
from cuesim.sim.batch_kernel import max_threads
from cuesim.tables.layout import Layout, Piece
from tests.batch_util import assert_equals_loop, assert_same
from tests.profiles import examples

TWO = pytest.mark.skipif(max_threads() < 2, reason="numba has a single thread here")


@pytest.fixture(scope="module")
def nine():
    table = game_table("9-ball")
    return table, start_layout("9-ball", table)


def _break_shots(n: int, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {"angle": math.pi / 2 + rng.uniform(-0.01, 0.01, n), "speed": rng.uniform(5, 9, n),
            "mu_slide": rng.uniform(0.15, 0.25, n),
            "e_ball": np.where(np.arange(n) % 3 == 0, 0.9, 0.95)}


def test_the_names_are_the_physics_coefficients():
    assert "mu_slide" in physics_names("ball") and "e_cushion" in physics_names("ball")
    assert "mu_puck" in physics_names("novus") and "e_rail" in physics_names("novus")
    # no shot parameter is also a coefficient: a name means one thing
    assert not set(physics_names("ball")) & {"angle", "speed", "side", "height", "elevation",
                                             "end_mass", "x", "y"}
    assert not set(physics_names("novus")) & {"x", "y", "angle", "speed", "offset"}


@TWO
def test_breaks_on_their_own_cloth_equal_a_loop_of_simulate(nine):
    table, layout = nine
    shots = _break_shots(10, 1)
    one = simulate_many(table, layout, shots, threads=1, chunk_size=4)
    two = simulate_many(table, layout, shots, threads=2, chunk_size=4)
    assert_same(one, two)
    assert (one["status"] == 0).all()
    np.testing.assert_array_equal(one["param.mu_slide"], shots["mu_slide"])
    assert_equals_loop(table, layout, one, "cue")
    # the cloth decides: the same breaks on the table's own physics end elsewhere
    plain = simulate_many(table, layout, {k: shots[k] for k in ("angle", "speed")}, threads=1)
    assert not np.array_equal(plain["final_xy"], one["final_xy"])


def test_novus_shots_on_their_own_board_equal_a_loop_of_simulate(table, singles):
    """Novus: the board's friction and the rails' restitution per shot (the shots made one
    at a time, on each shot's table)."""
    sampler = ShotSampler(8, {"angle": (1.45, 1.7), "speed": (3.0, 8.0),
                              "mu_puck": (0.1, 0.2), "e_rail": (0.4, 0.8)}, seed=3)
    res = simulate_many(table, singles, sampler, threads=1, chunk_size=3)
    assert (res["status"] == 0).all()
    assert_equals_loop(table, singles, res, "striker")
    assert len(set(res["param.mu_puck"])) == 8


def test_a_grid_over_a_coefficient_repeats_its_values(table, singles):
    grid = ShotGrid({"e_rail": (0.4, 0.8, 3), "speed": (4.0, 7.0, 2)}, fixed={"angle": 1.5})
    res = simulate_many(table, singles, grid, threads=1)
    assert list(res["param.e_rail"]) == [0.4, 0.4, 0.6000000000000001, 0.6000000000000001,
                                         0.8, 0.8]
    assert_equals_loop(table, singles, res, "striker")


def test_a_fixed_coefficient_is_the_table_with_it(nine):
    table, layout = nine
    sampler = ShotSampler(4, {"speed": (5.0, 8.0)}, fixed={"e_cushion": 0.7}, seed=2)
    res = simulate_many(table, layout, sampler, threads=1)
    on_it = simulate_many(table.with_physics(e_cushion=0.7), layout,
                          ShotSampler(4, {"speed": (5.0, 8.0)}, seed=2), threads=1)
    assert_same(res, on_it, keys=["final_xy", "n_events", "event_counts", "duration"])


def test_a_ruled_batch_rules_each_shot_on_its_physics(nine):
    table, layout = nine
    shots = _break_shots(3, 4)
    res = simulate_many(table, layout, shots, ruling=True, workers=1)
    setup = Setup(table, layout, "cue")
    for k in range(3):
        own = table.with_physics(mu_slide=float(shots["mu_slide"][k]),
                                 e_ball=float(shots["e_ball"][k]))
        r = simulate(own, layout, make_shot(setup, res.params, k))
        assert np.array_equal(r.final_positions, res["final_xy"][k])
        ruling, _ = rule("9-ball", r)
        assert res["legal"][k] == ruling.legal
        assert res["articles"][k] == ";".join(ruling.articles)


def test_a_coefficient_out_of_its_range_is_refused_at_the_door(nine):
    table, layout = nine
    with pytest.raises(BatchError, match=r"range of 'e_ball' \(0.5:1.5\) includes shots that "
                                         r"cannot be played: at e_ball=1.5: .*e_ball.*\[0, 1\]"):
        simulate_many(table, layout, ShotSampler(5, {"e_ball": (0.5, 1.5)}))
    with pytest.raises(BatchError, match=r"fixed values \(mu_slide=-1\) give shots that cannot "
                                         r"be played"):
        simulate_many(table, layout, ShotSampler(5, {"speed": (5, 8)}, fixed={"mu_slide": -1}))
    with pytest.raises(BatchError, match=r"shot 1: .*e_ball.*got 1.5"):
        simulate_many(table, layout, {"angle": [1.57] * 3, "speed": [7.0] * 3,
                                      "e_ball": [0.9, 1.5, 0.9]}, workers=1)
    with pytest.raises(BatchError, match=r"parameter 'mu_slide' of shot 0 is not a finite"):
        simulate_many(table, layout, {"angle": [1.57], "speed": [7.0], "mu_slide": [np.nan]})
    with pytest.raises(BatchError, match=r"unknown parameter 'mu_puck'; ball-game shots take "
                                         r".*and the physics' coefficients mu_slide"):
        simulate_many(table, layout, {"angle": [1.57], "speed": [7.0], "mu_puck": [0.1]})


def test_a_coefficient_out_of_its_range_is_marked_with_errors_mark(nine):
    table, layout = nine
    shots = {"angle": [1.57] * 3, "speed": [7.0] * 3, "e_ball": [0.9, 1.5, 0.95]}
    res = simulate_many(table, layout, shots, errors="mark", workers=1, threads=1)
    assert list(res["status"]) == [0, STATUS_INVALID, 0]
    assert np.isnan(res["final_xy"][1]).all()
    whole = simulate_many(table, layout, {k: [v[0], v[2]] for k, v in shots.items()},
                          threads=1)
    assert_same({k: res[k][[0, 2]] for k in ("final_xy", "n_events")}, whole,
                keys=["final_xy", "n_events"])
    ruled = simulate_many(table, layout, shots, errors="mark", ruling=True, workers=1)
    assert list(ruled["status"]) == [0, STATUS_INVALID, 0]


def test_cli_varies_a_coefficient_and_refuses_it_twice(tmp_path, capsys):
    out = tmp_path / "cloth.npz"
    assert main(["batch", "9-ball", "--shots", "6", "--vary", "mu_slide=0.15:0.25",
                 "--vary", "speed=5:8", "--out", str(out), "--quiet"]) == 0
    res = read_results(out)
    assert ((res["param.mu_slide"] >= 0.15) & (res["param.mu_slide"] <= 0.25)).all()
    assert_equals_loop(game_table("9-ball"), start_layout("9-ball"), res, "cue")
    for argv, message in (
            (["--vary", "mu_slide=0.15:0.25", "--physics", "mu_slide=0.3"],
             "mu_slide is set for the whole run by --physics mu_slide=... and shot by shot by "
             "the shots' options: give one"),
            (["--set", "impact_steps=30", "--impact-steps", "40"],
             "impact_steps is set for the whole run by --impact-steps and shot by shot"),
            (["--vary", "e_ball=0.5:1.5"], "range of 'e_ball' (0.5:1.5) includes shots that "
                                           "cannot be played")):
        assert main(["batch", "9-ball", "--shots", "4", *argv,
                     "--out", str(tmp_path / "x.npz")]) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err and err.count("\n") == 1
    assert not (tmp_path / "x.npz").exists()


def test_cli_params_file_with_a_coefficient_column(tmp_path, capsys):
    params = tmp_path / "p.csv"
    params.write_text("angle,speed,e_cushion\n90,7,0.7\n90,7,0.9\n")
    out = tmp_path / "p.npz"
    assert main(["batch", "9-ball", "--params", str(params), "--out", str(out), "--quiet"]) == 0
    res = read_results(out)
    assert list(res["param.e_cushion"]) == [0.7, 0.9]
    assert_equals_loop(game_table("9-ball"), start_layout("9-ball"), res, "cue")
    params.write_text("angle,speed,e_cushion\n90,7,0.7\n90,7,1.9\n")
    assert main(["batch", "9-ball", "--params", str(params), "--out", str(out),
                 "--overwrite"]) == 2
    err = capsys.readouterr().err
    assert f"parameter file '{params}', line 3 (shot 1)" in err and "e_cushion" in err
    assert main(["batch", "9-ball", "--params", str(params), "--physics", "e_cushion=0.8",
                 "--out", str(out), "--overwrite"]) == 2
    assert (f"e_cushion is set for the whole run by --physics e_cushion=... and shot by shot "
            f"by a column of --params {params}") in capsys.readouterr().err


def test_stopping_distances_over_a_grid_of_cloths_are_the_closed_form(nine):
    """A centre-hit ball alone, on every cloth of a grid of mu_slide, mu_roll and g: it slides
    until it rolls at 5/7 v0 (24/49 v0^2 / (2 mu_s g) of travel), then rolls to rest
    (25/49 v0^2 / (2 mu_r g)), whatever the coefficients, as the ball law has it."""
    table, _ = nine
    layout = Layout(table.name, (Piece("cue", "ball", 0.635, 0.3),))
    grid = ShotGrid({"mu_slide": (0.15, 0.3, 3), "mu_roll": (0.006, 0.015, 3), "g": (9.0, 10.0, 2)},
                    fixed={"angle": math.pi / 2, "speed": 0.4})
    res = simulate_many(table, layout, grid, threads=1)
    assert (res["status"] == 0).all() and (res["event_counts"][:, 1:].sum(axis=1) >= 1).all()
    v0 = CueShot(angle=math.pi / 2, speed=0.4).ball_motion(table)[1]
    p = res.params
    d = v0 * v0 / 49 * (24 / (2 * p["mu_slide"] * p["g"]) + 25 / (2 * p["mu_roll"] * p["g"]))
    assert d.max() < 2.54 - 0.3 - table.piece_spec("ball").radius  # no cushion on the way
    np.testing.assert_allclose(res["final_xy"][:, 0, 1] - 0.3, d, rtol=1e-12)
    np.testing.assert_allclose(res["final_xy"][:, 0, 0], 0.635, atol=1e-12)  # cos(pi / 2)
    assert len(set(np.round(d, 6))) == 18  # every cloth its own distance


# -- random shots, each on its own random physics ----------------------------------------------
def _coefficients(family: str) -> st.SearchStrategy[dict[str, float]]:
    """Every coefficient of the family's physics, drawn within ranges where shots end (a
    restitution anywhere in [0, 1], frictions from nearly none to heavy)."""
    friction, restitution = st.floats(0.01, 1.0), st.floats(0.0, 1.0)
    common = {"v_stick": st.floats(0.001, 0.05), "g": st.floats(1.0, 30.0),
              "impact_steps": st.floats(5.0, 40.0)}
    if family == "novus":
        return st.fixed_dictionaries({
            "mu_puck": st.floats(0.05, 0.5), "mu_striker": st.floats(0.05, 0.5),
            "e_puck_puck": restitution, "e_striker_puck": restitution, "e_rail": restitution,
            "mu_impact": st.floats(0.0, 0.5), "mu_rail_impact": st.floats(0.0, 0.5), **common})
    return st.fixed_dictionaries({
        "mu_slide": st.floats(0.05, 0.5), "mu_roll": st.floats(0.003, 0.05),
        "mu_spin": st.floats(0.002, 0.05), "e_ball": restitution,
        "ball_friction_a": st.floats(0.0, 0.1), "ball_friction_b": st.floats(0.0, 0.2),
        "ball_friction_c": st.floats(0.1, 5.0), "e_cushion": restitution,
        "mu_cushion": friction, **common})


@settings(max_examples=examples(10), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(["novus", "9-ball", "8-ball", "5-pins"]), data=st.data())
def test_random_shots_each_on_random_physics_equal_a_loop_of_simulate(game, data):
    """No coefficient, whatever its value, reaches the kernel other than as `simulate` on
    `table.with_physics` takes it: every result array the same, bit for bit."""
    table = game_table(game)
    layout = start_layout(game, table)
    family = "novus" if game == "novus" else "ball"
    n = data.draw(st.integers(1, 4))
    drawn = [data.draw(_coefficients(family)) for _ in range(n)]
    shots = {name: np.array([d[name] for d in drawn]) for name in drawn[0]}
    shots["angle"] = np.array([data.draw(st.floats(1.2, 1.95)) for _ in range(n)])
    shots["speed"] = np.array([data.draw(st.floats(0.5, 8.0)) for _ in range(n)])
    if family == "novus":
        shots["x"] = np.full(n, 0.5)
    res = simulate_many(table, layout, shots, threads=1, max_events=4000)
    assume(not res["truncated"].any())
    assert (res["status"] == 0).all()
    assert_equals_loop(table, layout, res, "striker" if family == "novus" else
                       "white" if game == "5-pins" else "cue")


def test_a_table_without_physics_to_change_is_refused():
    """A benchmark box has its pieces' coefficients but no `physics` to set them on."""
    from cuesim.tables.box import box_for, random_box_layout

    box = box_for(8, "ball")
    layout = random_box_layout(box, 8, np.random.default_rng(1))
    struck = layout.ids()[0]
    message = "the shots set mu_slide, but the table 'box' has no physics to change"
    with pytest.raises(BatchError, match=message):
        simulate_many(box, layout, {"angle": [1.0], "speed": [1.0], "mu_slide": [0.2]},
                      struck=struck)
    with pytest.raises(BatchError, match=message):
        simulate_many(box, layout, ShotSampler(3, {"mu_slide": (0.1, 0.2)}), struck=struck)
    plain = simulate_many(box, layout, {"angle": [1.0], "speed": [1.0]}, struck=struck)
    assert plain["status"][0] == 0
