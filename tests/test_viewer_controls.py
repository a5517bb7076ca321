"""The viewer's controls, driven by scripted pygame events: placement refused with the reason,
animation from the exact trajectories with pause, slow motion and replay, the referee menu,
calls, push-out and the incoming player's choice, save/load/undo, the computer player."""

from __future__ import annotations

import json
import math

import numpy as np
import pygame

from cuesim.viewer.session import load_session
from tests.viewer_driver import (
    down,
    finish_animation,
    key,
    make_app,
    move,
    screen_xy,
    shoot_by_mouse,
    step,
    up,
)


def right_click(app, x, y):
    p = screen_xy(app, x, y)
    step(app, [down(p, 3), up(p, 3)])


def test_novus_striker_outside_the_strip_is_refused_with_the_article(tmp_path):
    app = make_app("novus", tmp_path)
    before = app.pos
    right_click(app, 0.5, 0.30)  # beyond the south zone line
    assert "Refused" in app.screen_text() and "novus 12" in app.screen_text()
    assert app.pos == before
    right_click(app, 0.40, 0.07)
    assert app.message_bad is False
    assert math.isclose(app.pos[0], 0.40, abs_tol=0.003)
    # drag the striker along its zone
    start = screen_xy(app, *app.pos)
    end = screen_xy(app, 0.62, 0.07)
    step(app, [down(start), move(end), up(end)])
    assert math.isclose(app.pos[0], 0.62, abs_tol=0.003)


def test_pool_ball_in_hand_beyond_the_head_string_is_refused(tmp_path):
    app = make_app("9-ball", tmp_path)
    assert "behind the head string" in app.screen_text()
    right_click(app, 0.6, 1.2)
    assert "WPA 3.10" in app.screen_text()
    right_click(app, 0.4, 0.3)
    assert math.isclose(app.pos[1], 0.3, abs_tol=0.005)


def test_five_pins_break_ball_over_the_middle_line_is_refused(tmp_path):
    app = make_app("5-pins", tmp_path)
    right_click(app, 0.5, 1.6)
    assert "WCBS 4.2" in app.screen_text()


def test_animation_follows_the_exact_trajectories_with_pause_slow_motion_and_replay(tmp_path):
    app = make_app("novus", tmp_path)
    shoot_by_mouse(app, math.pi / 2, 3.0)
    assert app.mode == "animate"
    result = app.session.last_result
    step(app, dt=0.1)
    assert math.isclose(app.playback.t, 0.1)
    pos, on = app.playback.frame()
    exact, exact_on = result.positions_at(0.1)
    assert np.array_equal(pos, exact) and np.array_equal(on, exact_on)
    step(app, [key(pygame.K_m)], dt=0.4)  # slow motion x0.25
    assert math.isclose(app.playback.t, 0.2)
    step(app, [key(pygame.K_SPACE)], dt=1.0)  # paused
    assert math.isclose(app.playback.t, 0.2)
    assert "paused" in app.screen_text()
    step(app, [key(pygame.K_RETURN)], dt=0.0)
    step(app)
    assert app.mode == "aim" and "Referee:" in app.screen_text()
    assert "novus 13" in app.screen_text()
    step(app, [key(pygame.K_r)])
    assert app.mode == "animate" and app.playback.t == 0.0
    finish_animation(app)


def test_novus_referee_menu_declares_a_double_hit_in_the_last_shot(tmp_path):
    app = make_app("novus", tmp_path)
    shoot_by_mouse(app, math.pi / 2, 3.0)
    finish_animation(app)
    codes = list(app.session.infraction_codes())
    step(app, [key(pygame.K_f)])
    assert "declare an infraction" in app.screen_text()
    step(app, [key(pygame.K_DOWN)] * codes.index("double_hit") + [key(pygame.K_RETURN)])
    assert len(app.session.actions) == 1
    assert app.session.actions[0]["infractions"] == [{"code": "double_hit", "player": ""}]
    assert "novus 17.1.к" in app.screen_text()
    assert app.session.shooter() == "Boris"  # a penalty puck and loss of turn
    # the message says it in words (it said 'Declared double hit in the last shot')
    assert "Declared in the last shot: " in app.message and "double" not in app.message[:30]


def test_pool_referee_menu_double_hit_gives_ball_in_hand(tmp_path):
    app = make_app("8-ball", tmp_path)
    app.session.play(app.pos, math.pi / 2, 9.0)  # a break (the session API), then the menu
    app._reset_turn()
    codes = list(app.session.infraction_codes())
    step(app, [key(pygame.K_f)])
    step(app, [key(pygame.K_DOWN)] * codes.index("double_hit") + [key(pygame.K_RETURN)])
    text = app.screen_text()
    assert "WPA 3.23" in text
    assert app.session.shooter() == "Bob"


def test_pool_referee_menu_foul_now_is_only_what_was_declared(tmp_path):
    """WPA 3.17 / 1.11: slow play declared now (the N key), between shots, is that foul alone
    (no 3.18 'no contact' for a stroke never played), and the opponent has ball in hand."""
    app = make_app("9-ball", tmp_path)
    app.session.play(app.pos, math.pi / 2, 8.0)
    app._reset_turn()
    shooter = app.session.shooter()
    codes = list(app.session.infraction_codes())
    step(app, [key(pygame.K_f)])
    step(app, [key(pygame.K_DOWN)] * codes.index("slow_play") + [key(pygame.K_n)])
    assert app.session.actions[-1] == {"kind": "infraction", "code": "slow_play", "player": ""}
    ruling = app.session.last_ruling
    assert [v.article for v in ruling.violations] == ["WPA 1.11"]
    assert "WPA 3.18" not in app.screen_text() and "WPA 1.11" in app.screen_text()
    assert app.session.shooter() != shooter and app.session.placement() == "table"


def test_novus_menu_refuses_a_moving_puck_touched_now_and_words_a_warning_as_no_shot(tmp_path):
    """novus 17.1.н needs pieces in motion: declared now (the N key), between shots, the panel
    says it is refused and nothing is recorded; a warning (19.1) declared now is ruled as 'No
    foul.', not as 'A legal shot.' (no shot was played)."""
    app = make_app("novus", tmp_path)
    codes = list(app.session.infraction_codes())
    step(app, [key(pygame.K_f)])
    step(app, [key(pygame.K_DOWN)] * codes.index("touched_moving") + [key(pygame.K_n)])
    assert "Refused" in app.screen_text() and "needs pieces in motion" in app.screen_text()
    assert app.session.actions == []
    step(app, [key(pygame.K_f)])
    step(app, [key(pygame.K_DOWN)] * codes.index("warning") + [key(pygame.K_n)])
    assert app.session.actions == [{"kind": "infraction", "code": "warning", "player": ""}]
    assert app.session.ruling_text.startswith("No foul. Warning to ")
    assert "A legal shot" not in app.screen_text()


def _after_a_14_1_break(tmp_path):
    """A 14.1 app after the break (a breaking violation's table accepted), with an object ball
    and a pocket to call."""
    app = make_app("14.1", tmp_path)
    app.session.play(app.pos, math.pi / 2, 9.0)
    app._reset_turn()
    if app.session.pending():
        step(app, [key(pygame.K_1)])
    ball = next(p for p in app.session.layout().pieces if p.id != "cue")
    return app, ball, app.session.table.geometry.holes[0]


def test_call_ball_and_pocket_are_declared_with_the_mouse(tmp_path):
    app, ball, hole = _after_a_14_1_break(tmp_path)
    step(app, [key(pygame.K_c), down(screen_xy(app, ball.x, ball.y)),
               up(screen_xy(app, ball.x, ball.y))])
    assert app.mode == "call_pocket"
    step(app, [down(screen_xy(app, hole.x, hole.y)), up(screen_xy(app, hole.x, hole.y))])
    assert f"ball {ball.id} in the {hole.name.replace('_', ' ')} pocket called" in \
        app.screen_text()
    shoot_by_mouse(app, math.atan2(ball.y - app.pos[1], ball.x - app.pos[0]), 2.0)
    assert app.session.actions[-1]["declaration"] == {"called_ball": ball.id,
                                                      "called_pocket": hole.name}


def test_a_call_is_said_once_on_the_panel(tmp_path):
    """14.1 (WPA 3.4, 6.1): a called ball and pocket were said twice, by the "Declared:" line
    and by a message ("Called the 8 in head right."): only the "Declared:" line names them."""
    app, ball, hole = _after_a_14_1_break(tmp_path)
    pocket = hole.name.replace("_", " ")
    step(app, [key(pygame.K_c), down(screen_xy(app, ball.x, ball.y)),
               up(screen_xy(app, ball.x, ball.y))])
    text = " ".join(app.screen_text().split())
    assert f"Declared: ball {ball.id} called." in text, text
    assert f"the {ball.id}" not in app.message and "Called" not in text, text
    step(app, [down(screen_xy(app, hole.x, hole.y)), up(screen_xy(app, hole.x, hole.y))])
    text = " ".join(app.screen_text().split())
    assert f"Declared: ball {ball.id} in the {pocket} pocket called." in text, text
    assert text.count(pocket) == 1 and "Called" not in text, text


def _legal_nine_ball_break(app):
    for angle in np.linspace(1.50, 1.64, 15):
        action = app.session.shot_action(app.pos, float(angle), 9.0)
        _, ruling, ref = app.session.trial(action)
        if ruling.legal and not ruling.frame_over and ref.state.push_out_available:
            app.session.apply(action)
            app._reset_turn()
            return
    raise AssertionError("no legal break found")


def test_nine_ball_push_out_and_the_incoming_players_choice(tmp_path):
    app = make_app("9-ball", tmp_path)
    _legal_nine_ball_break(app)
    shooter = app.session.shooter()
    step(app, [key(pygame.K_p)])
    assert "push-out" in app.screen_text()
    assert "Declared: a push-out." in app.screen_text()
    assert "Push-out declared" not in app.screen_text()  # said once, by the "Declared:" line
    shoot_by_mouse(app, app.angle + 0.8, 1.0)  # a soft push-out that does not scratch
    finish_animation(app)
    assert app.mode == "choice"
    text = app.screen_text()
    assert "WPA 5.6" in text and "1: Shoot from here." in text and "2: Pass the shot back." in text
    step(app, [key(pygame.K_2)])  # pass it back
    assert app.session.shooter() == shooter
    assert "chooses to pass the shot back (WPA 5.6)" in " ".join(app.screen_text().split("\n"))


def test_save_load_and_undo(tmp_path):
    app = make_app("9-ball", tmp_path)
    _legal_nine_ball_break(app)
    layout_after_break = app.session.layout()
    step(app, [key(pygame.K_F5)])
    saved = json.loads((tmp_path / "save.json").read_text())
    assert saved["format"] == "cuesim-game" and len(saved["actions"]) == 1
    shoot_by_mouse(app, app.angle, 2.0)
    finish_animation(app)
    assert len(app.session.actions) == 2
    step(app, [key(pygame.K_u)])
    assert len(app.session.actions) == 1 and app.session.layout() == layout_after_break
    shoot_by_mouse(app, app.angle, 2.5)
    finish_animation(app)
    step(app, [key(pygame.K_F9)])
    assert len(app.session.actions) == 1 and app.session.layout() == layout_after_break
    assert "Loaded" in app.screen_text()
    assert load_session(tmp_path / "save.json").layout() == layout_after_break


def test_one_player_against_the_computer(tmp_path):
    app = make_app("novus", tmp_path, computer=("Boris",), candidates=30)
    shoot_by_mouse(app, math.pi / 2, 0.6)  # a soft shot that does not reach the pucks
    finish_animation(app)
    assert app.session.shooter() == "Boris"
    for _ in range(2000):  # the computer thinks over frames, shows its shot, then shoots
        step(app, dt=1 / 30)
        if app.mode == "animate":
            break
    assert app.mode == "animate" and app.session.actions[-1]["player"] == "Boris"
    assert "best of" in app.screen_text()
    finish_animation(app)
    step(app, [key(pygame.K_u)])  # undo goes back to the human's turn
    assert app.session.shooter() == "Anna" and not app.session.actions


def test_tip_widget_and_arrow_keys(tmp_path):
    app = make_app("8-ball", tmp_path)
    c = app.tip_rect.center
    r = app.tip_rect.width / 2 - 2
    step(app, [down((c[0], c[1] - r * 0.3)), up((c[0], c[1] - r * 0.3))])
    assert math.isclose(app.tip[1], 0.3, abs_tol=0.03) and app.tip[0] == 0.0
    step(app, [key(pygame.K_RIGHT)] * 9)
    assert math.hypot(*app.tip) <= 0.5 + 1e-9  # held inside the miscue limit
    novus = make_app("novus", tmp_path)
    step(novus, [key(pygame.K_UP), key(pygame.K_RIGHT)])
    assert novus.tip == (0.1, 0.0)


def test_screenshot_key_writes_a_png(tmp_path):
    app = make_app("5-pins", tmp_path)
    step(app, [key(pygame.K_F12)])
    shots = list(tmp_path.glob("cuesim-5-pins-*.png"))
    assert len(shots) == 1 and shots[0].stat().st_size > 1000
    assert pygame.image.load(str(shots[0])).get_size() == app.size


def _straight_pool_in_hand(tmp_path, seven_y: float):
    """A 14.1 window with the cue ball in hand behind the head string, the 3 behind it too and
    the 7 at seven_y."""
    from cuesim import Layout, Piece

    app = make_app("14.1", tmp_path)
    s = app.session
    st = s.ref.state
    st.phase, st.ball_in_hand = "play", "kitchen"
    s._layout = Layout(s.layout().table, (Piece("cue", "ball", 0.3, 0.2),
                                          Piece("3", "ball", 0.6, 0.5),
                                          Piece("7", "ball", 0.9, seven_y)))
    return app, s


def test_straight_pool_kitchen_spot_request_wpa_6_7_7(tmp_path):
    """14.1: with cue ball in hand behind the head string and every object ball there too, K
    asks for the ball nearest the head string to be spotted (WPA 6.7.7)."""
    app, s = _straight_pool_in_hand(tmp_path, 0.3)
    step(app)
    assert "6.7.7" in app.screen_text()
    step(app, [key(pygame.K_k)])
    assert "6.7.7" in s.ruling_text
    three = s.layout().get("3")
    assert three.y > 1.8  # spotted on the foot spot, beyond the head string
    assert s.actions[-1] == {"kind": "request", "name": "kitchen_spot"}


def test_straight_pool_kitchen_spot_offered_only_while_6_7_7_applies(tmp_path):
    """WPA 6.7.7 needs every object ball behind the head string: with one beyond it the
    request is not offered (K does nothing), as it would be refused."""
    app, s = _straight_pool_in_hand(tmp_path, 1.5)
    assert s.requests() == {}
    step(app)
    assert "6.7.7" not in app.screen_text()
    n = len(s.actions)
    step(app, [key(pygame.K_k)])
    assert len(s.actions) == n and s.layout().get("7").y == 1.5


def _five_pins_in_play(app, **balls):
    from cuesim.tables.carom import SPOTS

    s = app.session
    st = s.ref.state
    st.phase, st.placement = "play", None
    xy = {"white": (0.71, 0.60), "yellow": SPOTS["top_spot"], "red": SPOTS["red_spot"], **balls}
    from cuesim import Piece

    layout = s.layout()
    for ball, (x, y) in xy.items():
        layout = layout.with_piece(Piece(ball, "ball", x, y, ball))
    s._layout = s.ref.layout = layout
    app._reset_turn()
    step(app)


def test_five_pins_contact_reset_request_5_pins_10_4(tmp_path):
    """5-pins 10.4: K has the referee reset the three balls when the shooter's ball is in
    contact and no shot without a foul is possible (the white wedged in the corner by the
    yellow: away from the cushions is onto the yellow)."""
    from cuesim.tables.carom import BALL_RADIUS as R

    app = make_app("5-pins", tmp_path)
    s = app.session
    d = 2 * R / 2 ** 0.5
    _five_pins_in_play(app, white=(R, R), yellow=(R + d, R + d))
    assert "K: the balls touch" in app.screen_text()
    assert s.foul_free_shot() is None
    step(app, [key(pygame.K_k)])
    assert "10.4" in s.ruling_text
    assert s.placement() == "bottom_half"
    assert app.pos == s.default_place()  # the white is in hand at its default place
    step(app, [key(pygame.K_u)])  # undo takes the request back like any action
    assert not s.actions


def test_five_pins_contact_reset_is_offered_only_when_the_balls_touch_wcbs_10_4(tmp_path):
    app = make_app("5-pins", tmp_path)
    app.session.ref.state.phase, app.session.ref.state.placement = "play", None
    step(app)
    assert "10.4" not in app.screen_text() and not app.session.requests()


def test_five_pins_contact_reset_refused_when_a_foul_free_shot_exists_5_pins_10_4(tmp_path):
    """5-pins 10.4: balls in contact in the open: a shot without a foul is possible (10.3), so
    the reset is refused with the article and nothing changes; balls apart: nothing to ask."""
    from cuesim.tables.carom import BALL_RADIUS as R

    app = make_app("5-pins", tmp_path)
    s = app.session
    _five_pins_in_play(app, white=(0.71, 0.60), yellow=(0.71 + 2 * R, 0.60))
    before = s.layout()
    step(app, [key(pygame.K_k)])
    assert "10.4" in app.message and "without a foul is possible" in app.message
    assert app.message_bad and not s.actions and s.layout() == before
    _five_pins_in_play(app)
    assert not s.requests() and "K: the balls touch" not in app.screen_text()
    step(app, [key(pygame.K_k)])
    assert "Nothing to request" in app.screen_text() and not s.actions


def test_nothing_to_request_is_said(tmp_path):
    app = make_app("9-ball", tmp_path)
    step(app, [key(pygame.K_k)])
    assert "Nothing to request" in app.screen_text()


def test_a_new_turn_starts_with_the_cue_tip_centred(tmp_path):
    """Aim, power and tip start afresh each turn: spin set for one shot (by a player, or by
    the computer, whose shot sets the tip it shows) is not carried into the next player's."""
    app = make_app("9-ball", tmp_path)
    app.tip = (0.4, -0.3)  # the breaker's draw and side
    shoot_by_mouse(app, math.pi / 2, 6.0)
    finish_animation(app)
    assert app.mode in ("aim", "choice") and app.tip == (0.0, 0.0)


def test_ball_in_hand_starts_a_diameter_clear_of_every_piece_5_pins_13_3(tmp_path):
    """After a foul the opponent's ball is in hand in the top half (5-pins 13.2, 13.3). Its
    default place, the middle of the half, is the red's spot: the ball goes to the first legal
    place outwards that stands a diameter clear (before, the first legal one, 3 mm from the red,
    looked as if the shot had rolled the ball there)."""
    from cuesim.viewer.placing import clearance

    app = make_app("5-pins", tmp_path)
    s = app.session
    s.play((0.71, 0.71), 2.2124865340221604, 2.1818181818181817)  # a miss: Bob in hand
    assert s.placement() == "top_half" and s.struck_id() == "yellow"
    x, y = s.default_place()
    assert s.check_place(x, y) is None
    assert clearance(s.table, s.layout(), "yellow", "ball", x, y) >= 2 * s.radius()
    assert s.struck_position() == (x, y)  # where the viewer puts the ball in hand


def test_ball_in_hand_default_is_the_first_legal_place_when_none_is_clear(tmp_path,
                                                                          monkeypatch):
    """When no legal place stands a diameter clear, the default is the first legal one from
    the middle outwards (5-pins 13.3): crowding is played by a clearance of nothing."""
    import cuesim.viewer.placing as placing

    app = make_app("5-pins", tmp_path)
    s = app.session
    s.play((0.71, 0.71), 2.2124865340221604, 2.1818181818181817)
    clear = s.default_place()
    monkeypatch.setattr(placing, "clearance", lambda *a: 0.0)
    crowded = s.default_place()
    assert s.check_place(*crowded) is None and crowded != clear
    assert abs(crowded[0] - 0.71) < 1e-9 and 2.13 < crowded[1] < clear[1]  # next to the red


def test_placing_the_ball_in_hand_is_said_in_words(tmp_path):
    """A right-click placing the ball in hand says 'The cue ball is placed' (it said 'Cue
    placed', the piece's id)."""
    app = make_app("9-ball", tmp_path)
    assert app.session.placement() is not None  # the break: in hand behind the head string
    assert app.place(app.pos)
    assert app.message == "The cue ball is placed."
