"""What the viewer shows, headless: a panel that tells only what the animation has reached,
the final board and score sheet at the end of a set, game or match, a legal opening aim and
the foul warning on the aim, text in sentences with each article's rulebook named, a
resizable window with the table in view, and pins that fall the way the physics threw them."""

from __future__ import annotations

import math
import re

import pygame
import pytest

from cuesim import Layout, Piece
from cuesim.rules.ruling import Ruling, Violation
from cuesim.rules.wording import sentence, uncited_articles
from cuesim.viewer import panel_text
from cuesim.viewer.anim import pin_fall_angles
from cuesim.viewer.hud import Line
from cuesim.viewer.session import SESSION_GAMES
from tests.viewer_driver import finish_animation, key, make_app, move, play_turn, screen_xy, step


def _is_sentence(text: str) -> bool:
    return bool(text) and (text[0].isupper() or text[0].isdigit()) and \
        text.rstrip().endswith((".", "!", "?", ":"))


def _check_text(text: str) -> None:
    """A message reads as sentences, and every dotted article in parentheses names its
    rulebook (WPA, WCBS, novus)."""
    assert _is_sentence(text), text
    assert not uncited_articles(text), text
    assert "5-pins 1" not in text and "5-pins 2" not in text  # cited as WCBS
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), f"an identifier in: {text}"


def _novus_last_puck(app) -> tuple[float, float, float]:
    """Anna (red) with one puck left on the line from her zone to the north-east hole, in a
    later series; returns the striker's place and the direction (rad) of the winning shot."""
    s = app.session
    keep = [p for p in s.ref.layout.pieces if p.group != "red" and p.id != "striker"]
    sx, sy, hx, hy = 0.85, 0.065, 0.935, 0.935
    red = Piece("red1", "puck", sx + 0.6 * (hx - sx), sy + 0.6 * (hy - sy), "red")
    s.ref.layout = Layout("novus", (Piece("striker", "striker", sx, sy), red, *keep))
    s.ref.series = {"Anna": 3, "Boris": 2}  # not the first series (novus 20.4)
    app._reset_turn()
    app.pos = (sx, sy)
    return sx, sy, math.atan2(hy - sy, hx - sx)


# -- 1. the honest panel ---------------------------------------------------------------------
def test_nine_ball_break_the_panel_waits_for_the_balls_to_rest(tmp_path):
    app = make_app("9-ball", tmp_path)
    app._shoot_action(app.current_action(0.9))
    step(app, dt=0.05)
    text = app.screen_text()
    assert app.mode == "animate"
    assert "Shooting: Ann" in text and "To play" not in text
    assert "inning 1" in text and "inning 2" not in text and "Referee:" not in text
    step(app, [key(pygame.K_RETURN)])  # skip: the end state at once
    text = app.screen_text()
    assert app.mode != "animate" and "Referee:" in text
    assert f"To play: {app.session.shooter()}" in text or app.mode in ("choice", "intermission")


def test_novus_pucks_are_counted_as_they_drop(tmp_path):
    app = make_app("novus", tmp_path)
    sx, sy, angle = _novus_last_puck(app)
    app._shoot_action(app.session.shot_action((sx, sy), angle, 2.0))
    pb = app.playback
    drop = next(e.t for e in pb.result.event_log() if e.kind.name == "POCKET")
    step(app, dt=drop * 0.5)
    assert "Anna (red): 0 sets, 1 puck on the board" in app.screen_text()
    step(app, dt=drop * 0.5 + 1e-6)
    text = app.screen_text()
    assert "Anna (red): 0 sets, 0 pucks on the board" in text
    assert "Pocketed so far: a red puck." in text


def test_novus_set_won_on_the_last_puck_shows_the_true_final_board(tmp_path):
    app = make_app("novus", tmp_path)
    sx, sy, angle = _novus_last_puck(app)
    app._shoot_action(app.session.shot_action((sx, sy), angle, 2.0))
    finish_animation(app)
    s = app.session
    assert s.over() and app.mode == "over"
    assert "red1" not in s.layout().ids()  # the session's board is the shot's final board
    assert "Anna (red): 1 set, 0 pucks on the board." in app.screen_text()
    pieces, positions, on, _ = app._end_board()
    drawn = {p.id for p, o in zip(pieces, on, strict=True) if o}
    assert "red1" not in drawn
    text = " ".join(app.screen_text().split("\n"))
    assert "Frame" not in text and "The set and the match are over, won by Anna." in text
    assert "Set 1: Anna wins. Score: Anna 0 pucks left; Boris 8 pucks left." in text
    assert "Decided by novus 20.3." in text


# -- 2. the end of a game and of the match ------------------------------------------------
@pytest.mark.parametrize("game, options", [("9-ball", {"race_to": 2}),
                                           ("5-pins", {"points_to": 12, "games": 3})])
def test_end_of_game_and_match_score_sheet_and_rematch(tmp_path, game, options):
    app = make_app(game, tmp_path, **options)
    saw_intermission = False
    for _ in range(120):
        if app.session.over():
            break
        play_turn(app)
        if app.mode == "intermission":
            saw_intermission = True
            text = app.screen_text()
            assert "Score sheet" in text and "Enter: play the next game." in text
            step(app, [key(pygame.K_RETURN)])
            assert app.mode != "intermission"
    assert app.session.over() and saw_intermission
    step(app)
    text = app.screen_text()
    winner = app.session.last_ruling.winner
    assert f"Match over: {winner} wins." in text
    rows = [line for line in text.split("\n") if line.startswith("Game ") and "Decided by" in line]
    assert len(rows) >= 2
    for row in rows:
        assert "Fouls:" in row and "Innings:" in row
        assert re.search(r"Decided by (WPA|WCBS) \d", row), row
    assert "Enter: rematch (the other side opens)." in text and "N: a new game." in text
    if game == "5-pins":  # the sheet's score is the game's final score
        sheet = app.session.ref.state.game_scores
        assert f"{sheet[0]['Ann']} points" in rows[0]
        # the pins the last shot knocked lie knocked on the final board, saved or not
        assert app.session.fallen_pins() == app.playback.fallen_angles()
        loaded = load_session_copy(app.session, tmp_path)
        assert loaded.fallen_pins() == app.session.fallen_pins()
    players = list(app.session.players)
    step(app, [key(pygame.K_RETURN)])  # rematch
    assert app.session.game == game and not app.session.actions
    assert app.session.players == players[::-1] and app.mode in ("aim", "choice")
    app.mode = "over"
    step(app, [key(pygame.K_n)])
    assert app.mode == "pick_game" and "1: Novus" in app.screen_text()
    step(app, [key(pygame.K_1 + SESSION_GAMES.index("5-pins"))])
    assert app.session.game == "5-pins" and app.mode in ("aim", "choice")


def load_session_copy(session, tmp_path):
    from cuesim.viewer.session import load_session

    session.save(tmp_path / "end.json")
    return load_session(tmp_path / "end.json")


# -- 3. the aim ----------------------------------------------------------------------------
@pytest.mark.parametrize("game", SESSION_GAMES)
def test_every_game_opens_with_a_legal_aim(tmp_path, game):
    app = make_app(game, tmp_path)
    s = app.session
    action = app.current_action()
    ruling = s.judge(s.simulate(action), action)
    assert ruling.legal, ruling.describe(s.unit)
    step(app)
    assert "Foul:" not in app.screen_text()


def test_five_pins_aim_through_the_pins_warns_of_the_foul_in_time(tmp_path):
    app = make_app("5-pins", tmp_path)
    yellow = app.session.layout().get("yellow")
    app.angle = math.atan2(yellow.y - app.pos[1], yellow.x - app.pos[0])
    step(app)
    text = " ".join(app.screen_text().split("\n"))
    assert re.search(r"Foul: WCBS \d+(\.\d+)*(\.[а-я])?, ", text), text
    assert app.mode == "aim" and not app.session.actions  # nothing has been played
    assert "Foul:" not in app.screen_text() or app.preview().ruling.legal is False


def test_five_pins_pins_and_rails_are_named_where_the_window_draws_them(tmp_path, monkeypatch):
    """The 5-pins pins and rails are named in the table's frame (pin_bottom at -y, the
    bottom_rail at y = 0) and the window draws the table lengthwise: the panel and the aim's
    label name each by where it is drawn, the pin called left left of the red pin."""
    from cuesim.tables.carom import pin_spots

    app = make_app("5-pins", tmp_path)
    sides = app.screen_sides()
    assert sorted(sides.values()) == ["bottom", "left", "right", "top"]
    assert sides != {w: w for w in sides}  # the table is turned on this screen
    spots = pin_spots()
    cx, cy = app.view.to_screen(*spots.pop("pin_centre"))
    for pid, spot in spots.items():
        x, y = app.view.to_screen(*spot)
        drawn = ("left" if x < cx else "right") if abs(x - cx) > abs(y - cy) else \
            ("top" if y < cy else "bottom")
        assert sides[pid.removeprefix("pin_")] == drawn, pid
    table = app.session.table.geometry
    mid_x, mid_y = app.view.to_screen(table.width / 2, table.length / 2)
    for rail in table.rails:
        x, y = app.view.to_screen((rail.x0 + rail.x1) / 2, (rail.y0 + rail.y1) / 2)
        drawn = ("left" if x < mid_x else "right") if abs(x - mid_x) > abs(y - mid_y) else \
            ("top" if y < mid_y else "bottom")
        assert sides[rail.name.removesuffix("_rail")] == drawn, rail.name
    app.ruling_shown = Ruling(True, notes=["pins down: pin_bottom, pin_top (4 points, 5-pins "
                                           "8.1); the white touched the bottom_rail; the yellow "
                                           "is spotted on the top_spot"]).describe("game")
    text = " ".join(app.screen_text().split("\n"))
    assert f"the {sides['bottom']} pin, the {sides['top']} pin" in text, text
    assert f"the {sides['bottom']} rail" in text, text
    assert f"the {sides['top']}-hand spot" in text, text  # on the right, drawn lengthwise
    assert f"Ball in hand in the {sides['bottom']} half" in text, text  # the breaker's half
    labels: list[str] = []
    monkeypatch.setattr(app, "_draw_label", lambda text, *a: labels.append(text))
    pin = pin_spots()["pin_bottom"]
    app.angle = math.atan2(pin[1] - app.pos[1], pin[0] - app.pos[0])
    app.render()
    hit = app.preview().hit
    assert hit.startswith("First contact: the ") and hit.endswith(" pin."), hit
    frame = hit.split()[-2]
    assert labels == [f"First contact: the {sides.get(frame, frame)} pin"]
    for game in ("9-ball", "novus"):  # pool's rails are named by head and foot, novus's by
        assert make_app(game, tmp_path).screen_sides() == {}  # the compass: left as they are


def test_the_first_contact_label_covers_no_ball(tmp_path):
    app = make_app("9-ball", tmp_path)
    step(app)
    pred = app.preview()
    assert pred.hit == "First contact: ball 1."
    font = pygame.font.Font(None, round(18 * app.screen_layout.scale))
    w, h = font.size("First contact: ball 1")
    from cuesim.viewer.aim import label_place
    circles = [(*app.view.to_screen(p.x, p.y), 9.0) for p in app.session.layout().pieces]
    x, y = label_place((w, h), app.view.to_screen(*pred.ghost), circles,
                       app.screen_layout.table)
    rect = pygame.Rect(x, y, w, h)
    for cx, cy, r in circles:
        nx, ny = min(max(cx, rect.left), rect.right), min(max(cy, rect.top), rect.bottom)
        assert math.hypot(nx - cx, ny - cy) >= r


@pytest.mark.parametrize("game", ["9-ball", "novus", "5-pins"])
def test_the_first_contact_label_stays_off_the_aim_lines(tmp_path, game):
    """The label keeps off the drawn aim line and the touched piece's line everywhere along
    them (it used to check every other sample, tens of pixels apart on a long line)."""
    app = make_app(game, tmp_path)
    base = app.angle
    for k in range(12):
        app.angle = base + 0.35 * k
        step(app)
        pred, rect = app.preview(), app.contact_label_rect
        if pred.hit is None or rect is None:
            continue
        for line in (pred.path, pred.after):
            pts = [app.view.to_screen(x, y) for x, y in line]
            for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
                for t in (j / 20 for j in range(21)):
                    assert not rect.collidepoint(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t), \
                        (k, pred.hit)


# -- 4. text ---------------------------------------------------------------------------------
def test_rulings_read_as_sentences_with_their_rulebooks():
    r = Ruling(False, [Violation("5-pins 15.3.б", "the ball hit the pins before the "
                                 "opponent's ball (7.2)", "foul")],
               notes=["pins down: pin_right, pin_bottom (4 points, 5-pins 8.1)",
                      "novus 17.4: the debt is cancelled"], points={"Bob": 13},
               next_player="Ann", placement="kitchen")
    text = r.describe("game")
    assert text == ("A foul. The ball hit the pins before the opponent's ball (WCBS 7.2, "
                    "15.3.б). Pins down: the right pin, the bottom pin (4 points, WCBS "
                    "8.1). The debt is cancelled (novus 17.4). Bob scores 13 points. Ann plays "
                    "next with the cue ball in hand behind the head string.")
    assert sentence("direct shot, correct (novus 13.1)") == "Direct shot, correct (novus 13.1)."
    assert panel_text.foul_warning(r) == ("Foul: WCBS 15.3.б, the ball hit the pins before "
                                          "the opponent's ball (WCBS 7.2).")
    assert panel_text.to_play_line("Computer", True) == "To play: Computer"


def test_a_violation_citing_an_article_reads_as_one_citation_group():
    """A violation whose text ends with its own citation, followed by its article, is cited
    once: "... before the opponent's ball (WCBS 7.2, 15.3.б)", not "(WCBS 7.2) (WCBS
    15.3.б)" (5-pins 15.3.б, 7.2); the same for pool (WPA 3.16 with 2.21, 3.10) and novus
    (17.1.а with 13). Groups that are not only citations stay apart."""
    five = Ruling(False, [Violation("5-pins 15.3.б", "the striker's ball hit the red before "
                                    "the opponent's ball (7.2)", "ball_in_hand")])
    assert "the opponent's ball (WCBS 7.2, 15.3.б)." in five.describe("game")
    pool = Ruling(False, [Violation("WPA 3.16", "the cue ball in hand was placed on or beyond "
                                    "the head string (2.21, 3.10)", "foul")])
    assert "the head string (WPA 2.21, 3.10, 3.16)." in pool.describe("game")
    novus = Ruling(False, [Violation("novus 17.1.а", "punishable shot (novus 13)")])
    assert "Punishable shot (novus 13, 17.1.а)." in novus.describe("set")
    again = Ruling(False, [Violation("WPA 3.29", "second such offence (WPA 3.29)")])
    assert "Second such offence (WPA 3.29)." in again.describe("game")  # named once
    kept = Ruling(False, [Violation("WPA 3.20", "the cue ball was pocketed (scratch)")])
    assert "(scratch) (WPA 3.20)." in kept.describe("game")
    points = Ruling(True, notes=["pins down (4 points, 5-pins 8.1) (5-pins 8.2)"])
    assert "(4 points, WCBS 8.1) (WCBS 8.2)." in points.describe("game")
    for text in (five.describe("game"), pool.describe("game"), novus.describe("set")):
        assert not re.search(r"\) \((WPA|WCBS|novus) ", text), text
    assert panel_text.message("Refused: 5-pins 13.3: the ball goes wholly inside its half "
                              "(4.2)") == "Refused: the ball goes wholly inside its half " \
                                          "(WCBS 4.2, 13.3)."


def test_the_foul_warning_names_every_foul_of_the_predicted_shot(tmp_path):
    """9-ball, ball in hand anywhere (WPA 3.10), the cue ball on the centre spot aimed straight
    at the 9 with the 1 the lowest, 5.5 m/s: the predicted shot is a scratch (WPA 3.20) and a
    wrong first ball (WPA 5.8). The warning named only the first; it names both, as the
    ruling does."""
    pieces = {"1": (1.1813721642443022, 0.7446098972917645),
              "2": (0.12123958783660152, 1.660738046331107),
              "3": (1.2286840240300205, 1.524343893370711),
              "4": (0.23338283641402463, 2.5077781104135726),
              "5": (0.44337253244465336, 0.7279376507275301),
              "6": (0.17862257052752661, 1.718675679852768),
              "7": (1.1820487393947798, 2.483407348083566),
              "8": (0.05526614148483826, 1.6499462294035787),
              "9": (0.6336660957019367, 2.056378961932014)}
    app = make_app("9-ball", tmp_path)
    s = app.session
    rack = s.layout()
    s._layout = Layout(s.table.name, tuple(Piece(pid, "ball", x, y, rack.get(pid).group)
                                           for pid, (x, y) in pieces.items()))
    s.ref.state.phase, s.ref.state.ball_in_hand = "play", "table"
    app._reset_turn()
    geo = s.table.geometry
    app.pos, app.angle, app.power = (geo.width / 2, geo.length / 2), math.pi / 2, 0.5
    step(app)
    action = app.current_action()
    ruling = s.judge(s.simulate(action), action)
    assert ruling.articles == ["WPA 3.20", "WPA 5.8"], ruling.articles
    warning = app.foul_warning()
    assert warning.split("\n") == [
        "Foul: WPA 3.20, the cue ball was pocketed (scratch).",
        "Foul: WPA 5.8, the cue ball hit ball 9 first; the lowest ball (1) first required."]
    text = " ".join(app.screen_text().split())
    assert "Foul: WPA 3.20, the cue ball was pocketed (scratch). Foul: WPA 5.8, the cue " \
        "ball hit ball 9 first" in text, text
    _check_text(warning)


@pytest.mark.parametrize("game, options, turns", [
    ("9-ball", {}, 14), ("8-ball", {}, 14), ("14.1", {"points_to": 4}, 14),
    ("novus", {}, 14), ("novus-doubles", {}, 10), ("5-pins", {"points_to": 20}, 14)])
def test_every_message_is_a_sentence_naming_its_rulebook(tmp_path, game, options, turns):
    app = make_app(game, tmp_path, **options)
    s = app.session
    for label in s.infraction_codes().values():
        _check_text(panel_text.menu_label(label))
    help_text = " ".join(app.help_text())
    if game in ("novus", "novus-doubles", "5-pins"):
        assert "C call" not in help_text and "S safety" not in help_text
        assert "P push-out" not in help_text
    for line in app.help_text():
        assert _is_sentence(line), line
    for _ in range(turns):
        if s.over():
            break
        pending = s.pending()
        if pending is not None:
            step(app)
            _check_text(panel_text.chooser_line(pending[0], pending[1]))
            for opt in pending[2]:
                _check_text(panel_text.option_label(opt) + ".")
        play_turn(app)
        _check_text(s.ruling_text)
        assert "13.correct" not in s.ruling_text and "Frame over" not in s.ruling_text
        for label in s.requests().values():
            _check_text(label)
        warning = app.foul_warning()
        if warning:
            _check_text(warning)
        if app.message:
            _check_text(app.message)
        if game.startswith("novus"):
            assert "frame" not in s.ruling_text.lower()
        if app.mode == "intermission":
            step(app, [key(pygame.K_RETURN)])


def test_vs_computer_is_not_labelled_computer_twice(tmp_path):
    from cuesim.viewer.app import App
    from cuesim.viewer.session import new_session

    app = App(new_session("8-ball", ["You", "Computer"], ("Computer",)),
              save_path=tmp_path / "s.json", screenshot_dir=tmp_path)
    app.session.ref.state.shooter = "Computer"
    assert "Computer (computer)" not in "\n".join(app.panel.text_lines(app.hud_lines()))


@pytest.mark.parametrize("size", [(800, 520), (1200, 760), (1920, 1080)])
@pytest.mark.parametrize("game", ["8-ball", "novus", "5-pins"])
def test_the_referee_menu_fits_the_panel_down_to_its_last_entry(tmp_path, game, size):
    app = make_app(game, tmp_path)
    app.resize(size)
    names = list(app.session.infraction_codes())
    step(app, [key(pygame.K_f)])
    assert app.mode == "menu"
    for k in range(len(names)):
        lines = app.hud_lines()
        assert app.panel.height(lines) <= app.panel.rect.height, (k, size)
        shown = " ".join(app.panel.text_lines(lines))
        assert panel_text.menu_label(app.session.infraction_codes()[names[k]])[:20] in shown
        entries = sum(t[:2] in ("> ", "  ") for t in app.panel.text_lines(lines))
        if entries < len(names):  # the list scrolls: a line says so (it rarely found room)
            assert re.search(r"\d+ more (above|below)", shown, re.I), (k, size)
        step(app, [key(pygame.K_DOWN)])
    assert app.menu_index == len(names) - 1


@pytest.mark.parametrize("size", [(820, 1200), (1000, 1140), (800, 520)])
def test_the_power_label_stays_inside_its_bar(tmp_path, size):
    """Tall windows scale the text up while the panel keeps its width: the power label is
    sized to its bar and never drawn past it (it ran off the window's right edge)."""
    from cuesim.viewer import draw

    app = make_app("9-ball", tmp_path)
    app.resize(size)
    rect = app.power_rect
    surface = pygame.Surface((rect.right + 60, rect.bottom + 10))
    surface.fill((0, 0, 0))
    draw.draw_power(surface, rect, 1.0, f"power {app.session.max_speed:.1f} m/s")
    beyond = surface.subsurface(pygame.Rect(rect.right, rect.top, 60, rect.height))
    assert all(beyond.get_at((x, y))[:3] == (0, 0, 0) for x in range(60)
               for y in range(rect.height))


# -- 5. the table ----------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["9-ball", "novus", "5-pins"])
def test_resizing_keeps_the_table_in_view_and_scales_it(tmp_path, game):
    app = make_app(game, tmp_path)
    scales, tips = [], []
    for size in [(800, 520), (1200, 760), (1600, 1000), (2400, 900), (900, 1400), (300, 200)]:
        step(app, [pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1])])
        lay = app.screen_layout
        window = pygame.Rect(0, 0, *app.size)
        table = app.view.surface_rect(app.view.margin)
        assert lay.table.contains(table), (size, table, lay.table)
        assert window.contains(lay.panel) and window.contains(lay.help)
        assert not lay.panel.colliderect(lay.table)
        help_lines = [Line(t, (0, 0, 0), 17) for t in app.help_text()]
        assert app.help_panel.height(help_lines) <= app.help_panel.rect.height  # none cut off
        assert lay.tools.contains(lay.tip) and lay.tools.contains(lay.power)
        assert app.screen.get_size() == app.size
        scales.append(app.view.scale)
        tips.append(lay.tip.width)
        step(app)  # draws without error
    assert scales[2] > scales[1] > scales[0]
    assert tips[2] > tips[1] > tips[0]  # the tip and power widgets grow with the window
    assert app.size == (800, 520)  # never below the smallest usable window
    step(app, [pygame.event.Event(pygame.WINDOWSIZECHANGED, x=1000, y=700)])
    assert app.size == (1000, 700)


def test_the_default_window_draws_pool_balls_big_enough_to_read(tmp_path):
    from cuesim.viewer.draw import NUMBER_MIN_PX, piece_radius_px

    app = make_app("9-ball", tmp_path)
    r = piece_radius_px(app.view, app.session.table, app.session.layout().get("9"))
    assert 2 * r >= 16 and NUMBER_MIN_PX >= 10


def test_pockets_are_drawn_at_their_capture_size(tmp_path):
    app = make_app("9-ball", tmp_path)
    step(app)
    hole = next(h for h in app.session.table.geometry.holes if h.name.startswith("side")
                or "side" in h.name)
    r = app.view.pixels(hole.radius)
    cx, cy = app.view.to_screen(hole.x, hole.y)
    out = -1 if cy < app.size[1] / 2 else 1  # away from the cloth
    assert app.screen.get_at((round(cx), round(cy)))[:3] == (12, 12, 12)
    beyond = app.screen.get_at((round(cx), round(cy + out * (r + 4))))[:3]
    assert beyond != (12, 12, 12)


def test_fallen_pins_lie_the_way_the_physics_threw_them(tmp_path):
    app = make_app("5-pins", tmp_path)
    s = app.session
    pins = [p for p in s.layout().pieces if p.kind == "pin"]
    centre = next(p for p in pins if p.id == "pin_centre")
    angle = math.atan2(centre.y - app.pos[1], centre.x - app.pos[0])
    result = s.simulate(s.shot_action(app.pos, angle, 3.0))
    first = pin_fall_angles(result)
    assert first and first == pin_fall_angles(result)  # the same every time
    knock = next(e for e in result.event_log() if e.kind.name == "PIN")
    ids = result.initial.ids()
    at, _ = result.positions_at(knock.t)
    hitter, pin = at[ids.index(knock.a)], at[ids.index(knock.b)]
    pushed = math.atan2(pin[1] - hitter[1], pin[0] - hitter[0])
    assert math.cos(first[knock.b] - pushed) > 0  # away from what hit it, roughly


# -- 6. the README's screenshots ------------------------------------------------------------
def test_the_screenshot_script_draws_every_picture(tmp_path):
    import importlib.util
    import tempfile
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "docs" / "screenshots" / \
        "make_screenshots.py"
    spec = importlib.util.spec_from_file_location("make_screenshots", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    scratch = set(Path(tempfile.gettempdir()).glob("cuesim-shots-*"))
    saved = module.main([str(tmp_path)])
    assert set(Path(tempfile.gettempdir()).glob("cuesim-shots-*")) <= scratch  # none left
    names = sorted(p.name for p in saved)
    assert names == sorted(["9-ball.png", "8-ball.png", "14.1.png", "novus.png",
                            "novus-doubles.png", "5-pins.png", "end-of-match.png",
                            "computer-aim.png"])
    for p in saved:
        assert pygame.image.load(str(p)).get_size() == (1200, 760)
    assert {p.name for p in (script.parent).glob("*.png")} == set(names)


@pytest.mark.parametrize("game, article", [("8-ball", "WPA 4.5"), ("9-ball", "WPA 5.4"),
                                           ("14.1", "WPA 6.6")])
def test_a_legal_break_cites_its_article(tmp_path, game, article):
    app = make_app(game, tmp_path)
    s = app.session
    ruling = s.apply(app.current_action())
    if ruling.legal:
        assert s.ruling_text.startswith(f"A legal shot. A legal break ({article}).")


def test_f11_goes_full_screen_and_back_with_the_table_in_view(tmp_path):
    app = make_app("novus", tmp_path)
    before = app.size
    step(app, [key(pygame.K_F11)])
    if app.fullscreen:  # the video driver gave a full screen (the dummy one does)
        assert app.size == app.screen.get_size()
        assert app.screen_layout.table.contains(app.view.surface_rect(app.view.margin))
        step(app, [key(pygame.K_F11)])
    else:  # or it says why not, in a sentence
        assert app.message.startswith("Full screen is not available")
    assert not app.fullscreen and app.size == before


def test_a_game_ended_by_declared_fouls_shows_its_board_and_score_sheet(tmp_path):
    """WPA 5.13 (9-ball: three consecutive fouls lose the game), ended by fouls declared from
    the referee's menu (F, then N: now) with no shot to animate: the end screen comes as after
    a shot that ends a game, with the board as it stood and the score sheet; Enter goes on."""
    app = make_app("9-ball", tmp_path, race_to=2)
    app.session.play(app.pos, math.pi / 2, 8.0)  # the break: before it no game is under way
    app._reset_turn()  # (WPA 5.14), and a foul declared then passes the break instead
    first = app.session.shooter()
    other = next(p for p in app.session.players if p != first)
    codes = list(app.session.infraction_codes())
    for _ in range(5):  # first, other, first, other, first: the first's third foul in a row
        board = app.session.layout()  # the cue ball in hand after a foul is not on it
        step(app, [key(pygame.K_f)])
        assert app.mode == "menu"
        app.menu_index = codes.index("touched_ball")
        step(app, [key(pygame.K_n)])
    assert app.session.last_ruling.frame_over and not app.session.over()
    assert app.mode == "intermission"
    pieces, positions, _, _ = app._end_board()
    assert [p.id for p in pieces] == board.ids()
    assert positions == [(p.x, p.y) for p in board.pieces]
    assert app.session.last_ruling.winner == other
    assert "5.13" in app.screen_text() and other in app.screen_text()
    assert "R: replay" not in app.screen_text()  # no shot to replay
    step(app, [key(pygame.K_RETURN)])
    assert app.mode == "aim" and app._end_board() is None


def test_the_inning_counts_every_visit_and_never_goes_back():
    """WPA 'inning': a player's visit to the table. A foul between shots ends the offender's
    inning (3.17) and the other player's begins, so the panel's count goes up, never down;
    once the match is over the panel keeps the last frame's count, the score sheet's."""
    import math

    from cuesim.viewer import scoresheet
    from cuesim.viewer.session import new_session

    s = new_session("9-ball", ["Ann", "Bob"])
    seen = [s.inning()]
    s.play(s.struck_position(), math.pi / 2, 1.0)  # a soft break: a foul, Bob in hand
    seen.append(s.inning())
    for _ in range(3):  # each a foul between shots by the player at the table
        s.declare("slow_play", last_shot=False)
        seen.append(s.inning())
        if s.over():
            break
    assert seen == sorted(seen) and seen[-1] > seen[1], seen
    if s.over():
        rows = scoresheet.rows(s)
        assert rows[-1].innings == s.inning()


def test_the_first_contact_names_a_cushion_jaw_or_knuckle_in_words():
    """The preview's label names what the struck ball meets first: a rail by its name, a
    pocket's jaw or knuckle as that pocket's (not 'the foot left knuckle a rail')."""
    from cuesim.viewer.aim import feature_words

    assert feature_words("foot_rail") == "foot rail"
    assert feature_words("east") == "east rail"
    assert feature_words("left_head_rail") == "left head rail"
    assert feature_words("foot_left_knuckle_a") == "foot left pocket's knuckle"
    assert feature_words("side_right_jaw_b") == "side right pocket's jaw"


def test_the_player_named_you_is_addressed_in_the_second_person():
    """`cuesim play` names the person at the keyboard "You": the rulings' third-person verbs
    after that name read "You play next", "You win", "Your ball" on the screen."""
    a = panel_text.addressed
    assert a("A legal shot. You plays next.") == "A legal shot. You play next."
    assert a("Match over: You wins.") == "Match over: You win."
    assert a("You scores 2 points. You has ball in hand; You's ball") == \
        "You score 2 points. You have ball in hand; Your ball"
    assert a("You touches the 3, You passes, You is on the hill") == \
        "You touch the 3, You pass, You are on the hill"
    assert a("Ann plays next. Youth wins. Yous plays") == "Ann plays next. Youth wins. Yous plays"
    # a second verb of the clause ("You pocketed a ball and continues" was on the screen)
    assert a("You pocketed a ball and continues (WPA 5.5). Ann fouls and loses.") == \
        "You pocketed a ball and continue (WPA 5.5). Ann fouls and loses."
    assert a("You fouled, Ann plays and wins") == "You fouled, Ann plays and wins"


@pytest.mark.parametrize("game", ["9-ball", "5-pins"])
def test_no_third_person_verb_after_you_on_the_screen(tmp_path, game):
    import re

    from cuesim.viewer.app import App
    from cuesim.viewer.session import new_session

    app = App(new_session(game, ["You", "Ann"], (), options={"points_to": 10}
                          if game == "5-pins" else None),
              candidates=8, save_path=tmp_path / "s.json", screenshot_dir=tmp_path)
    wrong = re.compile(r"\bYou (plays|wins|scores|has|is|was|breaks|chooses|loses)\b|You's")
    seen = []
    for _ in range(8):
        if app.mode not in ("aim", "choice"):
            break
        play_turn(app, candidates=8)
        text = app.screen_text()
        seen.append(text)
        assert not wrong.search(text), text
    assert any("You" in t for t in seen)


def test_five_pins_opening_aim_is_a_legal_cushion_first_shot(tmp_path):
    """The 5-pins opening (4.1-4.3): the pins stand between the player's ball and the others,
    so the opening aim is found off a cushion, and it is legal (`legal_opening` takes the
    first legal try: whether it also scores depends on the physics)."""
    from cuesim.viewer.aim import opening_directions

    app = make_app("5-pins", tmp_path)
    s = app.session
    assert s.ref.state.phase == "break"
    action = app.current_action()
    result = s.simulate(action)
    ruling = s.judge(result, action)
    assert ruling.legal, ruling.describe(s.unit)
    first_touch = next(e for e in result.event_log() if e.a == s.struck_id() and
                       e.kind.name in ("RAIL", "COLLIDE"))
    assert first_touch.kind.name == "RAIL"
    assert len(opening_directions(s, app.pos)) == 2 + 2 * 4 + 1  # 2 balls, 4 banks each, ahead


def test_a_window_opening_under_a_still_pointer_keeps_the_opening_aim(tmp_path):
    """SDL posts a motion with rel (0, 0) when the window opens (or is entered) under a
    pointer that did not move: the legal opening aim stays (it followed that pointer, so the
    5-pins opening aimed through the pins, a foul). A hand's move then aims, as always."""
    app = make_app("5-pins", tmp_path)
    angle = app.angle
    centre = screen_xy(app, 0.71, 1.42)  # the pins: a foul straight through them
    still = pygame.event.Event(pygame.MOUSEMOTION, pos=(round(centre[0]), round(centre[1])),
                               rel=(0, 0), buttons=(0, 0, 0))
    step(app, [still])
    assert app.angle == angle and app.mouse == still.pos
    step(app, [move(centre)])
    x, y = app.pos
    assert app.angle == pytest.approx(math.atan2(1.42 - y, 0.71 - x), abs=0.01)


def test_a_small_panel_drops_the_scoreboard_before_it_cuts_off_the_latest_lines(tmp_path):
    """At the smallest window a long ruling and the one kept from before the computer's turn
    overflowed the panel, and its last lines (what happens now) were cut off: the scoreboard
    goes first, then the kept ruling; the latest ruling and the message stay."""
    app = make_app("5-pins", tmp_path)
    app.resize((800, 520))
    long = ("A foul. The striker's ball hit the red before the opponent's ball (WCBS 7.2). "
            * 4).strip()
    app.ruling_shown, app.kept_ruling = "No foul. " + long, long
    app.say("Computer (club) aims.")
    lines = app.hud_lines()
    text = " ".join(app.panel.text_lines(lines))
    assert app.panel.height(lines) <= app.panel.rect.height
    assert "Computer (club) aims." in text and "No foul." in text
    app.resize((1920, 1080))  # room enough: nothing dropped
    assert "Game 1 of" in " ".join(app.panel.text_lines(app.hud_lines()))
