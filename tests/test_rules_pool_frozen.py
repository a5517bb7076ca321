"""WPA 3.38, balls frozen to a cushion or to the cue ball, and its note (a ball touching a
cushion at the start reaches that rail only after it left it, hit another ball and came back):
the announcement (declared, or the referee's for a simulated shot), the separate rail, the cue
ball's own rail, every rail requirement (4.11, 5.9, 6.7.2) read through the note."""

from __future__ import annotations

import pytest

from cuesim.rules.pool.model import Declaration
from cuesim.sim.events import EventKind
from cuesim.tables.pool_spots import BALL_DIAMETER
from tests.pool_util import NINE, articles, hit, layout, nine_in_play, rail, shot, spread, strike


def test_3_38_frozen_ball_must_touch_the_cushion_announced():
    """3.38 applies to a ball frozen to a cushion: one announced frozen but lying away from it
    is refused, naming the gap; an unknown cushion is refused too."""
    pos = spread(NINE)
    ev = [strike(), hit(0.5, "1"), rail(0.9, "1", "right_foot_rail")]
    with pytest.raises(ValueError, match=r"ball '1' is .* mm from 'foot_rail'"):
        nine_in_play().play(shot(ev, pos, frozen={"1": "foot_rail"}))
    pos["1"] = (0.6, 2.54 - 0.0286)
    with pytest.raises(ValueError, match="no cushion of a pool table"):
        nine_in_play().play(shot(ev, pos, frozen={"1": "foot_pocket"}))
    for name in ("foot_rail", "foot"):  # a cushion or its whole rail
        assert nine_in_play().play(shot(ev, pos, frozen={"1": name})).ruling.legal


# --- 3.38 frozen balls -------------------------------------------------------------------
def test_3_38_frozen_ball_needs_a_separate_rail():
    g = nine_in_play()
    pos = spread(NINE)
    pos["1"] = (0.6, 2.54 - 0.0286)
    ev = [strike(), hit(0.5, "1"), rail(0.5, "1", "foot_rail")]
    out = g.play(shot(ev, pos, frozen={"1": "foot_rail"}))
    assert "WPA 3.38" in articles(out)
    g = nine_in_play()
    ev = [strike(), hit(0.5, "1"), rail(0.9, "1", "right_foot_rail")]
    assert g.play(shot(ev, pos, frozen={"1": "foot_rail"})).ruling.legal
    g = nine_in_play()
    ev = [strike(), hit(0.5, "1"), rail(0.6, "cue", "left_foot_rail")]
    assert g.play(shot(ev, pos, frozen={"1": "foot_rail"})).ruling.legal


def test_3_38_ball_frozen_to_the_cue_ball():
    g = nine_in_play()
    pos = spread(NINE)
    pos["cue"] = (pos["1"][0], pos["1"][1] - BALL_DIAMETER)
    ev = [strike(), hit(0.0, "1"), rail(0.6, "1", "foot_rail")]
    assert g.play(shot(ev, pos)).ruling.legal


def test_3_38_note_the_cue_ball_pressed_into_its_own_rail_reaches_no_cushion():
    """3.38's note: a ball touching a cushion at the start and driven into a cushion of the
    same rail has reached that rail only if it left the cushion, hit another ball and came
    back. The cue ball frozen to the foot rail, the 1 frozen to it: the multiple impact logs
    the cushion's reaction on the cue ball at the contact; that is no cushion reached (3.38
    (б)), and the shot is a foul. The cue ball's rail needs no announcement (only an object
    ball's does)."""
    pos = spread(NINE)
    pos["cue"] = (0.6, 2.54 - BALL_DIAMETER / 2)
    pos["1"] = (0.6 + BALL_DIAMETER * 0.5, pos["cue"][1] - BALL_DIAMETER * 0.75 ** 0.5)
    ev = [strike(), hit(0.0, "1"), rail(0.0, "cue", "foot_rail")]
    assert articles(nine_in_play().play(shot(ev, pos))) == ["WPA 3.38"]
    # the cue ball left, hit another ball and came back to its rail: that rail counts
    ev = [strike(), hit(0.0, "1"), hit(0.4, "2"), rail(0.9, "cue", "right_foot_rail")]
    assert nine_in_play().play(shot(ev, pos)).ruling.legal
    # another rail counts at once
    ev = [strike(), hit(0.0, "1"), rail(0.0, "cue", "foot_rail"),
          rail(0.7, "cue", "left_foot_rail")]
    assert nine_in_play().play(shot(ev, pos)).ruling.legal


def test_3_38_note_5_9_a_cue_ball_on_a_rail_pushed_into_it_by_its_hit():
    """The same note under the general rule (5.9: after the contact a ball must reach a
    cushion): the cue ball lying against the foot rail, pressed into it as it hits the 1, has
    reached no cushion; back on that rail after it left and hit the 2, it has."""
    pos = spread(NINE)
    pos["cue"] = (0.6, 2.54 - BALL_DIAMETER / 2)
    ev = [strike(), hit(0.3, "1"), rail(0.3, "cue", "foot_rail")]
    assert articles(nine_in_play().play(shot(ev, pos))) == ["WPA 5.9"]
    ev = [strike(), hit(0.3, "1"), hit(0.6, "2"), rail(1.1, "cue", "foot_rail")]
    assert nine_in_play().play(shot(ev, pos)).ruling.legal
    pos["cue"] = (0.6, 2.54 - BALL_DIAMETER / 2 - 0.01)  # 10 mm off the cushion: reached
    ev = [strike(), hit(0.3, "1"), rail(0.3, "cue", "foot_rail")]
    assert nine_in_play().play(shot(ev, pos)).ruling.legal


def test_3_38_note_a_simulated_cue_ball_frozen_to_the_foot_rail():
    """The case simulated: the cue ball frozen to the foot rail and the 1 frozen to it, shot
    softly into the 1. The cue ball never leaves the rail (the core logs the cushion's push at
    the contact) and the 1 reaches no cushion: a 3.38 foul in 9-ball and 8-ball."""
    import math

    from cuesim import CueShot, simulate
    from cuesim.rules.pool import EightBall, shot_from_result
    from cuesim.tables.pool import pool_table

    r = BALL_DIAMETER / 2
    yc, a = 2.54 - r, -math.radians(60)
    before = layout({"cue": (0.6, yc), "1": (0.6 + 2 * r * math.cos(a), yc + 2 * r * math.sin(a)),
                     "8": (0.3, 1.5), "9": (0.3, 1.0)})
    res = simulate(pool_table("9ft"), before, CueShot(angle=a + 0.2, speed=0.3))
    assert any(e.kind == EventKind.RAIL and e.a == "cue" for e in res.event_log())
    assert articles(nine_in_play().play(shot_from_result(res))) == ["WPA 3.38"]
    g = EightBall(players=("Ann", "Bob"))
    g.state.phase, g.state.ball_in_hand = "play", None
    assert articles(g.play(shot_from_result(res))) == ["WPA 3.38"]


@pytest.mark.parametrize("speed,legal", [(0.5, False), (1.0, False), (2.0, True)])
def test_3_38_the_referee_announces_a_simulated_ball_frozen_to_a_cushion(speed, legal):
    """3.38: the referee inspects a ball touching a cushion and announces it frozen; for a
    simulated shot `shot_from_result` does so for every object ball touching one. The cue ball
    straight into the 1 frozen to the foot rail: the 1 pressed into its own rail (the contact
    logged at the hit) and bouncing back reaches no separate rail, so the shot is a 3.38 foul
    unless the cue ball reaches a cushion (at 2 m/s it comes back to the head rail). Not
    announced (`announce_frozen=False`), the push would have counted as a rail reached."""
    import math

    from cuesim import CueShot, simulate
    from cuesim.rules.pool import shot_from_result
    from cuesim.tables.pool import pool_table

    before = layout({"cue": (0.6, 1.8), "1": (0.6, 2.54 - BALL_DIAMETER / 2), "9": (0.3, 1.0)})
    res = simulate(pool_table("9ft"), before, CueShot(angle=math.pi / 2, speed=speed))
    announced = shot_from_result(res)
    assert announced.declaration.frozen == {"1": "foot"}
    assert nine_in_play().play(announced).ruling.legal is legal
    if not legal:
        assert articles(nine_in_play().play(announced)) == ["WPA 3.38"]
    unannounced = shot_from_result(res, announce_frozen=False)
    assert unannounced.declaration.frozen == {}
    assert nine_in_play().play(unannounced).ruling.legal
    # a declaration that announces balls itself is kept as it is
    given = shot_from_result(res, Declaration(frozen={"1": "foot_rail"}))
    assert given.declaration.frozen == {"1": "foot_rail"}


def test_3_38_touching_cushions_reads_the_cushion_and_its_jaws():
    """A ball touches a cushion within 0.1 mm of its nose (or of the jaw it turns into), and
    only then; the table rail is named."""
    from cuesim.rules.pool.general import touching_cushions

    r = BALL_DIAMETER / 2
    lay = layout({"cue": (0.6, 1.8), "1": (0.6, 2.54 - r), "2": (r + 0.00005, 1.0),
                  "3": (0.6, 2.54 - r - 0.001), "4": (0.3, 1.0)})
    assert touching_cushions(lay) == {"1": "foot", "2": "left"}
    assert touching_cushions(lay, ["cue", "3"]) == {}


def test_2_16_an_unannounced_ball_touching_a_cushion_counts_as_driven_to_it():
    """2.16: the referee must tell the player that an object ball touches a cushion; if he
    does not, any contact with that ball counts as having driven it to the rail. The 1 lies
    against the foot cushion, nobody announced it, the cue ball clips it and nothing else
    reaches a rail: the rail requirements (5.9, 6.7.2, 4.11) are met. Announced, 3.38 governs
    and the same shot is a foul."""
    from cuesim.rules.pool import EightBall, StraightPool

    pos = spread(NINE)
    pos["1"] = (0.635, 2.54 - 0.028575)
    moved = dict(pos, cue=(0.5, 2.3), **{"1": (0.4, 2.3)})
    ev = [strike(), hit(0.3, "1")]
    assert nine_in_play().play(shot(ev, pos, final=moved)).ruling.legal
    out = nine_in_play().play(shot(ev, pos, final=moved, frozen={"1": "foot_rail"}))
    assert "WPA 3.38" in articles(out)
    for game in (EightBall(players=("Ann", "Bob")), StraightPool(players=("Ann", "Bob"))):
        game.state.phase, game.state.ball_in_hand = "play", None
        if isinstance(game, EightBall):
            game.state.groups = {"Ann": "solids", "Bob": "stripes"}
        decl = ({"safety": True} if isinstance(game, StraightPool)
                else {"called_ball": "1", "called_pocket": "foot_left"})
        assert not game.play(shot(ev, pos, final=moved, **decl)).ruling.violations
