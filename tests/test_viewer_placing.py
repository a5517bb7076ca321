"""The default place of the piece in hand (`cuesim.viewer.placing`): the same spot as the plain
scan it replaces, in every game and after random shots, and found without checking every spot
of the area; the Gymnasium env looks for it only when a shot needs it."""

from __future__ import annotations

import math
import random

import pytest

from cuesim.env import CueEnv
from cuesim.viewer import placing
from cuesim.viewer.session import new_session

GAMES = ("novus", "novus-doubles", "8-ball", "9-ball", "14.1", "5-pins")


def scanned_place(session) -> tuple[float, float]:
    """The default place as the viewer found it before (every spot from the middle outwards,
    each checked in turn): the reference."""
    area = session.place_area()
    if not area:
        return (session.table.geometry.width / 2, session.table.geometry.length / 2)
    xs, ys = [p[0] for p in area], [p[1] for p in area]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    want, kind = 2.0 * session.radius(), session.kind_of()
    legal = None
    for k in range(200):
        for sign in (1, -1):
            f = sign * k / 200
            if max(xs) - min(xs) >= max(ys) - min(ys):
                x, y = cx + f * (max(xs) - min(xs)) / 2, cy
            else:
                x, y = cx, cy + f * (max(ys) - min(ys)) / 2
            if session.check_place(x, y) is None:
                if placing.clearance(session.table, session.layout(), session.struck_id(),
                                     kind, x, y) >= want:
                    return x, y
                legal = legal or (x, y)
    return legal or (cx, cy)


@pytest.mark.parametrize("slack", [None, 1e-8, 1e-10])
@pytest.mark.parametrize("game", GAMES)
def test_default_place_is_the_scans_spot_after_random_shots(game, slack, monkeypatch):
    """After each of a game's random shots (fouls, scratches, pucks and balls anywhere), the
    default place is exactly the spot the plain scan finds (novus 12, WPA 3.10, 5-pins 13.3:
    a legal place, a diameter clear where one is); the vectorised filter's slack 10x either
    way changes nothing (the exact clearance decides)."""
    if slack is not None:
        monkeypatch.setattr(placing, "_CLEAR_SLACK", slack)
    rng = random.Random(f"placing-{game}")
    session = new_session(game)
    for _ in range(8):
        if session.over():
            break
        assert session.default_place() == scanned_place(session)
        if session.pending() is not None:
            session.choose(session.pending()[2][0])
            continue
        pos = session.struck_position()
        session.play(pos, rng.uniform(0.0, 2.0 * math.pi), rng.uniform(0.5, 6.0))


def test_a_novus_turn_checks_one_spot_not_the_strip(monkeypatch):
    """In the novus opening the row of pucks on the player's rail (the opponent's, novus 10)
    keeps the middle of the striker's strip (novus 12) within a diameter: the default place is
    the first spot outwards that stands a diameter clear, found by checking that spot alone
    (the plain scan checked the 180 spots before it too)."""
    session = new_session("novus")
    checked = []
    check = session.check_place

    def counted(x: float, y: float) -> str | None:
        checked.append((x, y))
        return check(x, y)

    monkeypatch.setattr(session, "check_place", counted)
    place = session.default_place()
    spots_checked = len(checked)
    assert place == scanned_place(session)
    assert spots_checked == 1 and place[0] > 0.6  # beyond the row's end, x = 0.62 m


def test_the_env_looks_for_the_default_place_only_when_a_shot_needs_it(monkeypatch):
    """A novus env step whose shot plays as given never scans for the default place (its
    fallback, tried after the shot at a half and a quarter of its speed)."""
    env = CueEnv("novus", opponent="self")
    env.reset(seed=3)
    monkeypatch.setattr(env.session, "default_place",
                        lambda: pytest.fail("default_place looked for"))
    action = env.action_space.sample()
    _, _, _, _, info = env.step(action)
    assert info["shots"]


def test_the_env_plays_from_the_default_place_when_the_shot_fails_three_times(monkeypatch):
    """A shot refused at full, half and quarter speed is played at a quarter speed from the
    default place (the env's last fallback), which is looked for then."""
    from cuesim.shot import ShotError

    env = CueEnv("novus", opponent="self")
    env.reset(seed=3)
    session = env.session
    place = session.default_place()
    tried = []
    apply = session.apply

    def refuse_three(action):
        tried.append(action)
        if len(tried) <= 3:
            raise ShotError("refused for the test")
        return apply(action)

    monkeypatch.setattr(session, "apply", refuse_three)
    env.step(env.action_space.sample())
    speeds = [a["speed"] for a in tried]
    assert speeds[1:] == [speeds[0] * 0.5, speeds[0] * 0.25, speeds[0] * 0.25]
    assert (tried[3]["x"], tried[3]["y"]) == place


@pytest.mark.parametrize("game,ball", [("5-pins", "yellow"), ("9-ball", "cue")])
def test_a_ball_not_in_hand_is_played_where_it_lies(game, ball):
    """Without ball in hand (5-pins 13, WPA 3.10) the struck ball is played where it lies: a
    shot given from off the table or onto another ball cannot move it there (it did in 5-pins,
    and the next layout was illegal). Such an action is refused (it used to be played from
    where the ball lies and saved as given, and a place off the table then kept the saved
    game from loading: tests/test_session_api_doors.py); its place repeated, it plays."""
    from cuesim.viewer.ai import choose_option, choose_shot, get_level

    quick = get_level("club").with_search(candidates=8, finalists=1, samples=1)
    s = new_session(game)
    for seed in range(6):
        s.apply(choose_shot(s, level=quick, seed=seed).action)
        while s.pending() is not None:
            s.choose(choose_option(s))
        if s.placement() is None and s.struck_id() == ball:
            break
    assert s.placement() is None and s.struck_id() == ball, "no shot from where it lies"
    lying = s.layout().get(ball)
    with pytest.raises(ValueError, match=f"must be where the {ball} ball lies"):
        s.apply(s.shot_action((-0.5, 0.4), math.pi / 2, 0.5))
    s.apply(s.shot_action((lying.x, lying.y), math.pi / 2, 0.5))
    start = s.last_result.initial.get(ball)
    assert (start.x, start.y) == (lying.x, lying.y)
    s.table.check_layout(s.layout())
