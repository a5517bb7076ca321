"""The computer player (issue 14): execution error per level, choice by the mean outcome
under that error, the planned break, thinking in slices while the viewer keeps drawing, the
shown aim, call and power before the shot, robustness when nothing can be played, and the
levels bench on a few games. No win rate is asserted: samples this small say nothing."""

from __future__ import annotations

import math

import numpy as np
import pygame
import pytest

from bench import ai_levels
from cuesim.shot import ShotError
from cuesim.sim.events import EventKind
from cuesim.viewer import ai
from cuesim.viewer.ai import breaks, search
from cuesim.viewer.panel_text import on_screen
from cuesim.viewer.session import new_session
from tests.viewer_driver import finish_animation, key, make_app, shoot_by_mouse, step

TINY = {"beginner": (6, 2, 2), "club": (8, 2, 2), "strong": (10, 2, 2)}


def small(level: str) -> ai.Level:
    return ai.get_level(level).with_search(*TINY[level])


# -- levels and execution error ----------------------------------------------------------------
def test_levels_order_error_and_search():
    b, c, s = (ai.LEVELS[n] for n in ("beginner", "club", "strong"))
    assert b.aim_sigma_deg > c.aim_sigma_deg > s.aim_sigma_deg
    assert 0.05 <= s.aim_sigma_deg and b.aim_sigma_deg <= 0.6  # the published 0.1-0.5° span
    assert b.speed_sigma > c.speed_sigma > s.speed_sigma
    assert b.tip_sigma > c.tip_sigma > s.tip_sigma
    assert b.candidates < c.candidates < s.candidates
    assert b.finalists * b.samples < c.finalists * c.samples < s.finalists * s.samples
    with pytest.raises(ValueError, match="levels are beginner, club, strong"):
        ai.get_level("master")


@pytest.mark.parametrize("level", list(ai.LEVELS))
def test_execution_error_has_the_level_size_and_repeats_with_the_seed(level):
    lv = ai.LEVELS[level]
    aim = {"angle": 1.0, "speed": 3.0, "side": 0.0, "height": 0.0, "x": 0.5, "y": 0.4}
    draws = [ai.perturb(aim, lv, np.random.default_rng([7, k]), 11.0) for k in range(2000)]
    da = np.array([d["angle"] - 1.0 for d in draws])
    ds = np.array([d["speed"] / 3.0 - 1.0 for d in draws])
    assert np.std(da) == pytest.approx(lv.aim_sigma, rel=0.1)
    assert np.std(ds) == pytest.approx(lv.speed_sigma, rel=0.1)
    assert all(math.hypot(d["side"], d["height"]) <= 0.5 + 1e-12 for d in draws)
    assert all((d["x"], d["y"]) == (0.5, 0.4) for d in draws)  # placement is exact
    again = ai.perturb(aim, lv, np.random.default_rng([7, 0]), 11.0)
    assert again == draws[0]


def test_novus_error_has_no_height_and_keeps_the_side_limit():
    lv = ai.LEVELS["beginner"]
    aim = {"angle": 0.0, "speed": 2.0, "side": 0.85, "height": 0.0}
    rng = np.random.default_rng(1)
    for _ in range(200):
        d = ai.perturb(aim, lv, rng, 6.0, vertical=False)
        assert d["height"] == 0.0 and abs(d["side"]) <= 0.9


# -- the choice --------------------------------------------------------------------------------
def test_the_nine_ball_break_is_planned_not_searched():
    """WPA 5.3: the break is played from behind the head string; the computer breaks by plan
    (no candidate simulated), at its level's break speed give or take its error. Its first
    break at a level practises the plans once (`breaks`); the next plays the plan kept."""
    s = new_session("9-ball")
    for name in ai.LEVELS:
        choice = ai.choose_shot(s, level=name, seed=3)
        assert choice.plan == "break" and choice.tried == 0
        assert choice.samples in (0, breaks.practice_size())
        assert breaks.practised(s, ai.LEVELS[name]) in breaks.PLANS
        assert ai.choose_shot(s, level=name, seed=4).samples == 0  # practised once
        a = choice.action
        assert s.check_place(a["x"], a["y"]) is None
        assert a["speed"] == pytest.approx(min(ai.LEVELS[name].break_speed, s.max_speed),
                                           rel=5 * ai.LEVELS[name].speed_sigma)
        assert a["angle"] != choice.aim["angle"]  # the stroke carries an error
        assert choice.aim["height"] == breaks.practised(s, ai.LEVELS[name]).height


def test_break_practice_keeps_the_plan_that_scores_best_and_repeats(monkeypatch):
    """The practice plays every plan on the same error draws, halves its way down
    (PRACTICE_ROUNDS) and keeps the plan whose breaks scored most in all; practised again
    from scratch it keeps the same plan, and a game's break is the same whether or not the
    plan was practised earlier in the process."""
    lv = ai.get_level("club")
    s = new_session("9-ball")
    monkeypatch.setattr(breaks, "_PRACTISED", {})
    first = ai.choose_shot(s, level=lv, seed=5)
    kept = breaks.practised(s, lv)
    assert first.samples == breaks.practice_size() == 8 * 40 + 3 * 120
    # the scores of the last round, recomputed: the kept plan has the best total
    player = s.shooter()
    totals = [0.0] * len(breaks.PLANS)
    plans = list(range(len(breaks.PLANS)))
    start = 0
    for count, keep in breaks.PRACTICE_ROUNDS:
        for p, action in breaks.practice_round(s, lv, plans, start, count):
            result, ruling, ref = s.trial(action)
            totals[p] += ai.score(s, player, result, ruling, ref)
        start += count
        plans = breaks.best(totals, plans, keep)
    assert breaks.PLANS[plans[0]] == kept
    monkeypatch.setattr(breaks, "_PRACTISED", {})
    again = ai.choose_shot(s, level=lv, seed=5)
    assert breaks.practised(s, lv) == kept and again.action == first.action
    assert ai.choose_shot(s, level=lv, seed=5).action == first.action  # no practice now


def test_break_practice_draws_the_same_errors_for_every_plan():
    """Break k of the practice has the same error draws for every plan (the aim's deviation,
    the speed, the tip's deviation), so two plans differ only by the cue ball's spot and the
    tip's height; a side plan breaks from the left rail on even breaks, the right on odd."""
    lv = ai.get_level("strong")
    s = new_session("8-ball")
    mid, side = 0, 5  # middle, tip -0.1; side, tip +0.1
    assert breaks.PLANS[mid].spot == "middle" and breaks.PLANS[side].spot == "side"
    trials = breaks.practice_round(s, lv, [mid, side], 0, 6)
    a, b = [t for p, t in trials if p == mid], [t for p, t in trials if p == side]
    w = s.table.geometry.width
    for k in range(6):
        aims = [breaks.plan_action(s, lv, breaks.PLANS[p], left=k % 2 == 0)
                for p in (mid, side)]
        assert a[k]["x"] == w / 2 and b[k]["x"] == (0.25 * w if k % 2 == 0 else 0.75 * w)
        assert (a[k]["angle"] - aims[0]["angle"]
                == pytest.approx(b[k]["angle"] - aims[1]["angle"], abs=1e-15))
        assert a[k]["speed"] == b[k]["speed"]
        assert (a[k]["height"] - breaks.PLANS[mid].height
                == pytest.approx(b[k]["height"] - breaks.PLANS[side].height, abs=1e-12))


def test_choice_is_the_best_mean_under_error_and_repeats_with_the_seed():
    s = new_session("9-ball")
    s.apply(ai.choose_shot(s, level=small("club"), seed=1).action)
    while s.pending() is not None:
        s.choose(ai.choose_option(s))
    a = ai.choose_shot(s, level=small("club"), seed=5)
    b = ai.choose_shot(s, level=small("club"), seed=5)
    assert a.action == b.action and a.plan == "search"
    assert a.samples == 2 * 2 and a.tried >= 1
    assert a.aim is not None and a.action != a.aim  # played with error
    c = ai.choose_shot(s, level=small("club"), seed=6)
    assert c.action != a.action


def test_thinking_in_slices_gives_the_same_choice():
    s = new_session("novus")
    whole = ai.Thinker(s, small("strong"), seed=2).run()
    sliced = ai.Thinker(s, small("strong"), seed=2)
    progress = [sliced.progress]
    steps = 0
    while not sliced.step(0.0):
        progress.append(sliced.progress)
        steps += 1
    assert steps >= 10 and progress == sorted(progress) and sliced.progress == 1.0
    assert sliced.choice.action == whole.action


@pytest.mark.parametrize("game", ["9-ball", "novus"])
def test_every_simulation_is_announced_before_it_runs(monkeypatch, game):
    """`choose_shot_steps` yields each round of the search's shots before simulating them (the
    vector env simulates them all at once, issue 16): every shot the session simulates was in
    the round announced last, and the choice is `choose_shot`'s."""
    from cuesim.viewer.session import Session

    s = new_session(game)
    if game == "9-ball":  # past the planned break: a search
        s.apply(ai.choose_shot(s, level=small("club"), seed=1).action)
        while s.pending() is not None:
            s.choose(ai.choose_option(s))
    expected = ai.choose_shot(s, level=small("club"), seed=4)
    announced: list[dict] = []
    unannounced = []
    real = Session.simulate

    def simulate(self, action):
        if action not in announced:
            unannounced.append(action)
        return real(self, action)

    monkeypatch.setattr(Session, "simulate", simulate)
    steps = ai.choose_shot_steps(s, level=small("club"), seed=4)
    rounds = 0
    while True:
        try:
            announced = next(steps)
            rounds += 1
        except StopIteration as stop:
            choice = stop.value
            break
    assert unannounced == []
    assert rounds >= 3  # the candidates, the finalists' trials, the stroke
    assert choice.action == expected.action and choice.score == expected.score


def test_fourteen_one_calls_its_ball_and_pocket():
    """WPA 6.3: every 14.1 shot after the break needs a called ball and pocket: the ball the
    shot pockets as aimed, in the pocket it drops in, or, when it pockets none, the ball
    nearest its aim line (`declaration_for`)."""
    s = new_session("14.1")
    s.apply(ai.choose_shot(s, level=small("club"), seed=1).action)
    while s.pending() is not None:
        s.choose(ai.choose_option(s))
    choice = ai.choose_shot(s, level=small("club"), seed=2)
    decl = choice.action.get("declaration", {})
    if decl:
        assert decl["called_ball"] in s.layout().ids()
        assert decl["called_pocket"] in {p.name for p in s.table.pockets}
    assert choice.aim is not None and choice.aim.get("declaration", {}) == decl
    as_aimed = search.call_for_result(s, choice.aim, s.simulate(choice.aim))
    assert decl == (as_aimed["declaration"] if as_aimed else ai.declaration_for(s, choice.aim))


# -- nothing playable (novus 17.1.з put-back dead end) ----------------------------------------
def test_no_playable_candidate_falls_back_to_a_legal_shot(monkeypatch):
    s = new_session("novus")
    bad = s.shot_action((-1.0, -1.0), 0.0, 1.0)  # off the board: refused
    monkeypatch.setattr(search, "candidates", lambda session, n, rng: [dict(bad)] * n)
    choice = ai.choose_shot(s, level=small("club"))
    assert choice.plan == "fallback" and choice.tried == 0
    ruling = s.apply(choice.action)
    assert ruling is not None and len(s.actions) == 1


def test_nothing_playable_is_thought_over_once_not_every_frame(tmp_path, monkeypatch):
    app = make_app("novus", tmp_path, computer=("Anna",), candidates=4)
    s = app.session

    def refuse(*args, **kwargs):
        raise ShotError("pieces overlap by 0.000 mm")

    monkeypatch.setattr(s, "trial", refuse)
    monkeypatch.setattr(s, "simulate", refuse)
    for _ in range(400):
        step(app, dt=1 / 60)
        if app.ai_turn is not None and not app.thinking:
            break
    turn = app.ai_turn
    assert turn is not None and turn.stuck()
    for _ in range(5):
        step(app, dt=1 / 60)
    assert app.ai_turn is turn and not s.actions
    assert "finds no shot" in app.screen_text()


# -- the viewer's computer turn ----------------------------------------------------------------
def test_computer_thinks_across_frames_then_shows_its_shot_then_plays(tmp_path):
    app = make_app("novus", tmp_path, computer=("Boris",), candidates=12)
    app.level = small("club")
    shoot_by_mouse(app, math.pi / 2, 0.6)  # a soft shot that does not reach the pucks
    finish_animation(app)
    assert app.session.shooter() == "Boris"
    # the turn the app would start, with one simulation per frame: many frames of thinking
    app.ai_turn = ai.new_turn(app.session, app.level, app.candidates, app.seed)
    app.ai_turn.slice_s = 0.0
    step(app, dt=1 / 60)
    assert app.thinking
    frames, progress = 0, []
    while app.thinking:
        progress.append(app.think_progress)
        assert "Boris is thinking" in app.screen_text()
        step(app, dt=1 / 60)
        frames += 1
    assert frames >= 3 and progress == sorted(progress)
    choice = app.ai_turn.choice
    assert choice is not None and app.mode == "aim"
    # shown: the aim, the power bar at the computer's speed, the tip
    assert app.angle == choice.action["angle"]
    assert app.power * app.session.max_speed == pytest.approx(choice.action["speed"])
    assert app.tip == (choice.action["side"], choice.action["height"])
    step(app, dt=0.5)
    assert app.mode == "aim" and len(app.session.actions) == 1  # still showing
    step(app, dt=0.6)
    assert app.mode == "animate" and app.session.actions[-1]["player"] == "Boris"
    assert app.session.actions[-1]["angle"] == choice.action["angle"]
    text = app.screen_text()
    assert "(computer, club)" in text and "(computer) (computer" not in text
    finish_animation(app)
    step(app, [key(pygame.K_u)])  # undo goes back to the human's turn
    assert app.session.shooter() == "Anna" and not app.session.actions


def test_after_an_undo_the_computer_thinks_again(tmp_path):
    """U took back the computer's shot and the human's; the human's next shot gave the
    session as many actions as before, so the computer's turn key came back and the turn it
    had already played was reused: "finds no shot that can be played here", for good. The
    key now holds the session's revision, which every action and undo moves on."""
    app = make_app("novus", tmp_path, computer=("Boris",), candidates=4)
    app.level = small("club")

    def computer_plays() -> None:
        for _ in range(2000):
            if app.session.actions and app.session.actions[-1]["player"] == "Boris":
                break
            step(app, dt=0.25)
        assert app.session.actions[-1]["player"] == "Boris", app.screen_text()
        finish_animation(app)

    shoot_by_mouse(app, math.pi / 2, 0.6)  # a soft shot that does not reach the pucks
    finish_animation(app)
    computer_plays()
    step(app, [key(pygame.K_u)])  # back to the human's first shot
    assert app.session.shooter() == "Anna" and not app.session.actions
    shoot_by_mouse(app, math.pi / 2, 0.5)
    finish_animation(app)
    computer_plays()
    assert "finds no shot" not in app.screen_text()


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_ruling_on_the_persons_shot_stays_readable_through_the_computers_turn(tmp_path):
    """Against the computer the ruling on the person's shot vanished as soon as the computer
    answered or shot (it thinks in under a second): here Ann's 5-pins foul (WCBS 15.3) stays on
    the panel after the computer's 13.5 choice ('Before that:') and while its shot is shown
    ('Referee, before this shot:'); once that shot rests, its own ruling replaces it."""
    app = make_app("5-pins", tmp_path, computer=("Bob",), candidates=4)
    app.level = small("club")
    s = app.session
    yellow = s.layout().get("yellow")
    shoot_by_mouse(app, math.atan2(yellow.y - app.pos[1], yellow.x - app.pos[0]), 3.0)
    finish_animation(app)  # straight through the pins at the yellow: a foul
    assert not s.last_ruling.legal and s.pending() is not None and s.pending()[0] == "Bob"
    foul = _flat(on_screen(s.ruling_text, app.screen_sides()))
    step(app, dt=0.0)  # the computer answers the 13.5 choice at once
    assert s.pending() is None and s.actions[-1]["kind"] == "choice"
    text = _flat(app.screen_text())
    assert "Before that:" in text and foul in text, text
    assert _flat(on_screen(s.ruling_text, app.screen_sides())) in text  # the choice's ruling
    for _ in range(2000):  # it thinks, shows its aim, then shoots
        if app.mode == "animate":
            break
        step(app, dt=0.25)
    assert app.mode == "animate" and s.actions[-1]["player"] == "Bob", app.screen_text()
    text = _flat(app.screen_text())
    assert "Shooting: Bob" in text and "Referee, before this shot:" in text and foul in text, \
        text
    finish_animation(app)
    text = _flat(app.screen_text())
    assert foul not in text and "before this shot" not in text and "Before that" not in text
    assert _flat(on_screen(s.ruling_text, app.screen_sides())) in text


def test_a_replay_during_the_computers_turn_keeps_the_ruling_on_the_persons_shot(tmp_path):
    """Ann's 5-pins foul (WCBS 15.3), the computer's 13.5 choice, then R (a replay of Ann's
    shot) before the computer shoots: while the shot is replayed its ruling is not shown
    (the panel tells only what has happened so far), not as "Referee, before this shot:",
    and once the replay rests the ruling stays on the panel ("Before that:") until the
    computer's own shot has been shown."""
    app = make_app("5-pins", tmp_path, computer=("Bob",), candidates=4)
    app.level = small("club")
    s = app.session
    yellow = s.layout().get("yellow")
    shoot_by_mouse(app, math.atan2(yellow.y - app.pos[1], yellow.x - app.pos[0]), 3.0)
    finish_animation(app)
    assert not s.last_ruling.legal and s.pending() is not None
    foul = _flat(on_screen(s.ruling_text, app.screen_sides()))
    step(app, dt=0.0)  # the computer answers the 13.5 choice at once
    assert s.actions[-1]["kind"] == "choice" and foul in _flat(app.screen_text())
    step(app, [key(pygame.K_r)])
    assert app.mode == "animate" and app.before is None  # the replay of Ann's shot
    text = _flat(app.screen_text())
    assert "Replay of the last shot" in text and foul not in text, text
    assert "before this shot" not in text, text
    finish_animation(app)
    text = _flat(app.screen_text())
    assert "Before that:" in text and foul in text, text
    assert s.actions[-1]["kind"] == "choice"  # the computer has not shot yet


def test_the_kept_ruling_goes_once_a_person_acts(tmp_path):
    """The ruling kept through the computer's turn (a 9-ball foul, WPA 3.20) is dropped when
    the person shoots next (the computer's choice gave the turn back without a shot): the
    person's own shot is not shown under an older ruling."""
    app = make_app("9-ball", tmp_path)
    app.ruling_shown = "A foul. The cue ball was pocketed (scratch) (WPA 3.20)."
    app.keep_ruling()
    app.ruling_shown = "No foul. Bob chooses to shoot from here (WPA 5.6)."
    text = _flat(app.screen_text())
    assert "Before that: A foul. The cue ball was pocketed (scratch) (WPA 3.20)." in text
    shoot_by_mouse(app, app.angle, 3.0)
    assert app.mode == "animate" and app.kept_ruling == ""
    assert "scratch" not in app.screen_text() and "before this shot" not in app.screen_text()


def test_computer_named_computer_is_not_labelled_twice(tmp_path):
    """The computer names itself once: 'Computer (club)', 'Ann (computer, club)'."""
    app = make_app("9-ball", tmp_path, computer=("Ann",))
    assert app._computer_name() == "Ann (computer, club)"
    app.set_session(new_session("9-ball", ["Computer", "You"], ("Computer",)))
    assert app._computer_name() == "Computer (club)"


# -- the bench, reduced ------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["novus", "9-ball", "5-pins"])
def test_levels_bench_plays_whole_games(game, monkeypatch):
    monkeypatch.setattr(ai_levels, "MAX_SHOTS", 40)
    g = ai_levels.play_game(game, "beginner", "strong", 0, 1, TINY)
    tallies = g["tallies"]
    assert set(tallies) == {"beginner", "strong"}
    assert sum(t["shots"] for t in tallies.values()) == g["shots"] >= 1
    for t in tallies.values():
        assert t["games"] == 1 and 0 <= t["fouls"] <= t["shots"]
        assert t["innings"] <= t["shots"]
    if game == "9-ball":
        assert tallies["strong"]["breaks"] == 1  # the higher level breaks in even games


def test_levels_bench_reference_shot_and_breaks_run():
    rates = ai_levels.straight_in_rates(6, 1)
    assert set(rates) == set(ai.LEVELS) and all(0.0 <= r <= 1.0 for r in rates.values())
    breaks = ai_levels.break_rates(2, 1)
    assert all(b["breaks"] == 2 for b in breaks.values())


def test_train_detector_sees_two_pucks_moving_as_one():
    """The bench's train detector: two touching pucks sent together into a hole are a train;
    one puck alone is not."""
    from cuesim import Layout, Piece, novus_table
    from cuesim.sim import run_motion

    table = novus_table()
    hole = table.geometry.holes[0]
    r = table.piece_spec("puck").radius
    ux, uy = (hole.x - 0.4, hole.y - 0.4)
    n = math.hypot(ux, uy)
    ux, uy = ux / n, uy / n
    a = (hole.x - 0.25 * ux, hole.y - 0.25 * uy)
    b = (a[0] - (2 * r + 1e-4) * ux, a[1] - (2 * r + 1e-4) * uy)
    lay = Layout("novus", (Piece("a", "puck", *a, "red"), Piece("b", "puck", *b, "red")))
    v = 1.5
    both = run_motion(table, lay, {"a": (v * ux, v * uy, 0.0), "b": (v * ux, v * uy, 0.0)})
    assert "a" in both.pocketed and ai_levels.is_train(both, table, "a")
    alone = run_motion(table, lay, {"a": (v * ux, v * uy, 0.0)})
    assert "a" in alone.pocketed and not ai_levels.is_train(alone, table, "a")


def test_play_takes_a_level_and_a_seed(tmp_path, capsys):
    from cuesim.cli import main

    out = tmp_path / "strong.png"
    assert main(["play", "9-ball", "--vs-computer", "--level", "strong", "--seed", "3",
                 "--screenshot", str(out)]) == 0
    assert out.exists()
    with pytest.raises(SystemExit) as exc:
        main(["play", "9-ball", "--level", "master", "--screenshot", "never.png"])
    assert exc.value.code == 2
    assert "argument --level: invalid choice: 'master'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["play", "9-ball", "--seed", "-1", "--screenshot", "never.png"])
    assert exc.value.code == 2
    assert "argument --seed: '-1' must be at least 0" in capsys.readouterr().err
    with pytest.raises(ValueError, match="seed must be a whole number >= 0"):
        ai.Thinker(new_session("9-ball"), small("club"), seed=-1)


def test_computer_options_without_a_computer_player_are_noted(tmp_path, capsys):
    """--level, --candidates and --seed set the computer player: given to a game with none,
    `cuesim play` says so in one note (they apply only if F9 loads a game with one) and plays;
    with --vs-computer, or none given, no note."""
    from cuesim.cli import main

    out = tmp_path / "two.png"
    assert main(["play", "9-ball", "--level", "strong", "--seed", "3", "--screenshot",
                 str(out)]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cuesim play: note: --level, --seed set the computer " \
        "player, and this game has none (add --vs-computer)" in err
    assert main(["play", "novus", "--candidates", "5", "--screenshot", str(out)]) == 0
    assert "note: --candidates sets the computer player" in capsys.readouterr().err
    for argv in (["play", "9-ball", "--vs-computer", "--level", "strong"], ["play", "9-ball"]):
        assert main([*argv, "--screenshot", str(out)]) == 0
        assert "note" not in capsys.readouterr().err


def test_a_seeded_computer_game_repeats_in_the_viewer(tmp_path):
    """The same seed gives the same shots, errors included, however the thinking is sliced
    over frames; another seed gives other shots."""
    def shots(seed: int, dt: float) -> list[dict]:
        s = new_session("9-ball", ["Computer", "Computer 2"], ("Computer", "Computer 2"))
        app = make_app("9-ball", tmp_path, candidates=6)
        app.set_session(s)
        app.level, app.seed = small("club"), seed
        for _ in range(5000):
            if sum(a["kind"] == "shot" for a in s.actions) >= 3 or s.over():
                break
            step(app, dt=dt)
        return [a for a in s.actions if a["kind"] == "shot"][:3]

    first = shots(6, 1 / 60)  # (seed 4's break now pockets the 9: a game of one shot)
    assert len(first) == 3
    assert shots(6, 0.25) == first
    assert shots(7, 1 / 60) != first


# -- kicks out of a snooker --------------------------------------------------------------------
def snookered_nine_ball():
    """9-ball in play: the 1 hidden behind the 2 and the 3, touching each other across the
    line from the cue ball (WPA 5.8: the lowest ball must be hit first)."""
    from cuesim.tables.layout import Layout, Piece

    s = new_session("9-ball")
    st = s.ref.state
    st.phase, st.ball_in_hand, st.shooter = "play", None, st.players[0]
    d = 2 * s.radius() + 1e-4
    s._layout = Layout(s.table.name, (
        Piece("cue", "ball", 0.635, 0.8), Piece("1", "ball", 0.635, 1.6),
        Piece("2", "ball", 0.635 - d / 2, 1.35), Piece("3", "ball", 0.635 + d / 2, 1.35),
        Piece("9", "ball", 0.2, 2.2)))
    return s


def test_a_hidden_lowest_ball_is_kicked_at_off_a_cushion():
    """When every ball the player may hit first is hidden, the candidates include a one-cushion
    kick at each (aimed at its mirror image in the cushion line); the computer finds a legal
    shot where the direct candidates are all fouls (WPA 5.8)."""
    s = snookered_nine_ball()
    layout, cue = s.layout(), s.layout().get("cue")
    one = layout.get("1")
    assert search.blocked(layout, s, (cue.x, cue.y), one)
    kicks = {round(math.atan2(y - cue.y, x - cue.x), 9)
             for x, y in s.kick_points((one.x, one.y))}
    shots = search.candidates(s, 400, np.random.default_rng(0))
    assert kicks <= {round(a["angle"], 9) for a in shots}
    legal = 0
    for a in shots:
        if round(a["angle"], 9) in kicks:
            legal += s.judge(s.simulate(a), a).legal
    assert legal >= 1
    choice = ai.choose_shot(s, level=small("strong"), seed=3)
    assert choice.ruling.legal, choice.ruling.describe()


def test_no_kicks_while_a_ball_can_be_hit_straight():
    """With a straight line to the 1 the candidates keep to direct shots (kicks would take
    the place of pots in the search's budget)."""
    s = snookered_nine_ball()
    s._layout = s.layout().without(["2", "3"])
    cue, one = s.layout().get("cue"), s.layout().get("1")
    assert not search.blocked(s.layout(), s, (cue.x, cue.y), one)
    kicks = {round(math.atan2(y - cue.y, x - cue.x), 9)
             for x, y in s.kick_points((one.x, one.y))}
    kicks.discard(round(math.atan2(one.y - cue.y, one.x - cue.x), 9))  # the far cushion's
    shots = search.candidates(s, 90, np.random.default_rng(0))
    assert not kicks & {round(a["angle"], 9) for a in shots}


def test_pool_candidates_play_the_cue_ball_at_shot_speeds_not_break_speeds():
    """The aimed pool candidates send the cue ball off at the middles of the slow, medium,
    fast and power-shot ranges (billiards.colostate.edu/faq/speed/typical), and the random
    ones within slow to power: at break speeds the computer scratched on 8-11 % of its shots.
    Novus and 5-pins keep their fractions of the top speed."""
    s = new_session("9-ball", ["A", "B"], ("B",), {})
    cue = s.layout().get("cue")
    one = s.layout().get("1")
    action = s.shot_action((cue.x, cue.y), math.atan2(one.y - cue.y, one.x - cue.x),
                           search.candidate_speeds(s)[0][0])
    result = s.simulate(action)
    k, dt = result.initial.ids().index("cue"), 1e-5
    v0 = float(np.hypot(*(result.positions_at(dt)[0][k] - result.positions_at(0.0)[0][k]))) / dt
    assert v0 == pytest.approx(search.POOL_CUE_BALL_SPEEDS[0], rel=1e-3)
    shots = search.candidates(s, 200, np.random.default_rng(1))
    per_cue = search.POOL_CUE_BALL_SPEEDS[0] / search.candidate_speeds(s)[0][0]
    speeds = {round(a["speed"] * per_cue, 9) for a in shots}
    lo, hi = search.POOL_RANDOM_CUE_BALL_SPEEDS
    assert all(lo - 1e-9 <= v <= hi + 1e-9 for v in speeds)
    assert {round(v, 9) for v in search.POOL_CUE_BALL_SPEEDS} <= speeds
    novus = new_session("novus", ["A", "B"], ("B",), {})
    assert search.candidate_speeds(novus)[0] == tuple(
        f * novus.max_speed for f in search.NOVUS_SPEEDS)


# -- position play (viewer/ai/leave.py) ----------------------------------------------------
def test_the_leave_is_the_easiest_pot_and_nothing_when_every_lane_is_shut():
    """A straight pot close to a pocket is an easy leave; the same ball with another ball on
    the cue ball's lane or on its own lane to the pocket, or cut beyond the cut limit, leaves
    nothing."""
    from cuesim.tables.layout import Layout, Piece
    from cuesim.viewer.ai import leave

    s = new_session("9-ball")
    r = s.radius()
    pockets = s.targets()
    px, py = min(pockets, key=lambda p: p[0] + p[1])  # the corner at (0, 0)
    u = (1 / math.sqrt(2), 1 / math.sqrt(2))
    one = (px + 0.4 * u[0], py + 0.4 * u[1])
    cue = (px + 0.9 * u[0], py + 0.9 * u[1])
    open_table = Layout(s.table.name, (Piece("cue", "ball", *cue), Piece("1", "ball", *one)))
    easy = leave.best_pot(open_table, ["1"], pockets, r)
    assert easy == pytest.approx(math.exp(-(0.5 - 2 * r + 0.4) / leave.DISTANCE_SCALE),
                                 rel=0.05)
    mid = ((one[0] + cue[0]) / 2, (one[1] + cue[1]) / 2)
    blocked = open_table.with_piece(Piece("2", "ball", *mid))
    assert leave.best_pot(blocked, ["1"], [(px, py)], r) == 0.0
    # a ball between the 1 and the pocket: shut too (and the 2's own lane holds the 1)
    lane = open_table.with_piece(Piece("2", "ball", px + 0.2 * u[0], py + 0.2 * u[1]))
    assert leave.best_pot(lane, ["1"], [(px, py)], r) == 0.0
    assert leave.best_pot(blocked, ["1", "2"], [(px, py)], r) == 0.0
    # the cue ball beyond the 1 seen from the pocket: a cut of more than 90 degrees
    behind = Layout(s.table.name, (Piece("cue", "ball", px + 0.2 * u[0], py + 0.2 * u[1]),
                                   Piece("1", "ball", *one)))
    assert leave.best_pot(behind, ["1"], [(px, py)], r) == 0.0


def test_the_next_targets_follow_the_rules_of_each_game():
    """9-ball: the lowest ball (WPA 5.8); 8-ball: the open table's balls but the 8, then the
    group, then the 8 (WPA 4.7, 4.20); 14.1: any ball (WPA 6.3)."""
    from cuesim.tables.layout import Layout, Piece
    from cuesim.viewer.ai.leave import next_targets

    s = new_session("8-ball")
    lay = Layout(s.table.name, tuple(Piece(b, "ball", 0.2 + 0.1 * k, 1.0) for k, b in
                                     enumerate(["cue", "3", "8", "12", "10"])))
    assert next_targets("9-ball", s.ref, lay, "A") == ["3"]
    assert next_targets("14.1", s.ref, lay, "A") == ["3", "8", "12", "10"]
    assert next_targets("8-ball", s.ref, lay, "A") == ["3", "12", "10"]
    player = s.ref.state.players[0]
    s.ref.state.groups = {player: "stripes", s.ref.state.players[1]: "solids"}
    assert next_targets("8-ball", s.ref, lay, player) == ["12", "10"]
    assert next_targets("8-ball", s.ref, lay.without(["12", "10"]), player) == ["8"]


def test_a_kept_turn_in_pool_scores_its_leave(monkeypatch):
    """A pot that keeps the table scores LEAVE_WEIGHT x the ease of the next pot it leaves on
    top of keeping the turn; nothing is added outside pool."""
    from cuesim.tables.layout import Layout, Piece
    from cuesim.viewer.ai.leave import leave

    s = new_session("9-ball", ["A", "B"], ("B",), {})
    st = s.ref.state
    st.phase, st.ball_in_hand, st.shooter = "play", None, "A"
    px, py = min(s.targets(), key=lambda p: p[0] + p[1])
    u = 1 / math.sqrt(2)
    s._layout = Layout(s.table.name, (
        Piece("cue", "ball", px + 0.9 * u, py + 0.9 * u),
        Piece("1", "ball", px + 0.5 * u, py + 0.5 * u), Piece("9", "ball", 0.9, 1.9)))
    draw = s.shot_action(s.struck_position(), math.atan2(-1, -1), 2.0, 0.0, -0.4)
    result, ruling, ref = s.trial(draw)
    assert "1" in result.pocketed and ruling.legal and ruling.next_player == "A"
    ease = leave(s, result, ref, "A")
    assert ease > 0.0
    with_leave = search.score(s, "A", result, ruling, ref)
    monkeypatch.setattr(search, "LEAVE_WEIGHT", 0.0)
    assert with_leave - search.score(s, "A", result, ruling, ref) == pytest.approx(
        150.0 * ease)
    assert leave(new_session("novus"), None, None, "A") == 0.0  # no position play elsewhere


def test_eight_ball_candidates_call_what_they_pocket_article_4_2():
    """WPA 4.2: a combination counts only when called. The computer calls the ball its shot
    pockets as aimed, in the pocket it drops in, and that call keeps the turn where the
    same stroke uncalled would pass it (21 % of its 8-ball shots lost the turn that way)."""
    from cuesim.tables.layout import Layout, Piece

    s = new_session("8-ball", ["A", "B"], ("B",), {})
    st = s.ref.state
    st.phase, st.ball_in_hand, st.shooter = "play", None, "A"
    r = s.radius()
    px, py = min(s.targets(), key=lambda p: p[0] + p[1])
    u = 1 / math.sqrt(2)
    d2 = 0.35
    d1 = d2 + 2 * r + 0.01
    s._layout = Layout(s.table.name, (
        Piece("cue", "ball", px + (d1 + 0.5) * u, py + (d1 + 0.5) * u),
        Piece("3", "ball", px + d1 * u, py + d1 * u), Piece("12", "ball", px + d2 * u, py + d2 * u),
        Piece("8", "ball", 0.9, 1.9)))
    aim = s.shot_action(s.struck_position(), math.atan2(-1, -1), 1.5, 0.0, -0.3)
    result, uncalled, _ = s.trial(aim)
    assert "12" in result.pocketed and "cue" not in result.pocketed
    assert uncalled.legal and uncalled.next_player == "B"  # not obvious: the turn passes
    called = search.call_for_result(s, aim, result)
    pocket = next(e.feature for e in result.events_of(EventKind.POCKET) if e.a == "12")
    assert called["declaration"] == {"called_ball": "12", "called_pocket": pocket}
    ruling, _ = s.rule_on(result, called)
    assert ruling.legal and ruling.next_player == "A"
    assert search.call_for_result(s, called, result) == called  # the same call again
    assert search.call_for_result(new_session("9-ball"), aim, result) is None
    guessed = {**aim, "declaration": {"called_ball": "3", "called_pocket": "foot_right"}}
    assert search.call_for_result(s, guessed, result)["declaration"] == called["declaration"]
