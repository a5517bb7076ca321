"""The viewer's event loop. `App.step(events, dt)` handles a batch of pygame events, advances
the animation by dt seconds and draws one frame; `App.run()` feeds it from the real clock and
the real event queue, and tests feed it scripted events and a fake dt.

Modes: 'aim' (aim with the mouse, drag to set the power and release to shoot; drag the struck
piece to place it where the rules allow), 'animate', 'call_ball' / 'call_pocket' (calling a
shot), 'menu' (the referee's menu of declared infractions), 'choice' (the incoming player's
options), 'intermission' (a set or game is over: its final board and the score sheet),
'over' (the match is over: the final board, the score sheet, rematch or a new game),
'pick_game' (choosing the new game).

While a shot is shown the panel tells only what has happened by then: the scoreboard of
before the shot with the pieces still on the table, what has dropped so far; the ruling, the
new score and the player to play come when everything rests (or the animation is skipped).
The window is resizable (and F11 goes full screen); the layout is `layout.ScreenLayout`.
"""

from __future__ import annotations

import copy
import io
import math
from pathlib import Path
from typing import Any

import pygame

from cuesim.output import write_atomic
from cuesim.shot import ShotError
from cuesim.sim.engine import SimulationError
from cuesim.tables.layout import Layout, LayoutError, Piece
from cuesim.viewer import ai, assets, draw, export, panel_text, scoresheet
from cuesim.viewer import view as V
from cuesim.viewer.aim import Prediction, label_place, legal_opening, predict
from cuesim.viewer.anim import SPEEDS, Playback
from cuesim.viewer.hud import Line, Panel
from cuesim.viewer.layout import DEFAULT_SIZE, MIN_SIZE, ScreenLayout
from cuesim.viewer.session import (
    COMPUTER,
    SESSION_GAMES,
    Session,
    load_session,
    new_session,
)
from cuesim.viewer.sound import SoundPlayer
from cuesim.viewer.view import Viewport

SIZE = DEFAULT_SIZE
PANEL_WIDTH = 350  # px, the panel's width at the default size (layout.ScreenLayout)
POWER_DRAG_PX = 220.0  # a drag this long is full power
OPENING_TRIES = 24  # simulated shots at most to find a legal opening aim for a turn


class App:
    """One window playing one game session."""

    def __init__(self, session: Session, size: tuple[int, int] = SIZE,
                 candidates: int | None = None, save_path: str | Path = "cuesim-save.json",
                 screenshot_dir: str | Path = ".", level: str = ai.DEFAULT_LEVEL,
                 seed: int = 0) -> None:
        pygame.init()
        draw.reset_cache()
        pygame.display.set_icon(assets.icon())
        size = (max(size[0], MIN_SIZE[0]), max(size[1], MIN_SIZE[1]))
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.display.set_caption(f"cuesim: {session.game}")
        self.fullscreen = False
        self.windowed_size = size
        self.candidates = candidates  # the computer's candidate shots (None: its level's)
        self.level = ai.get_level(level)
        self.seed = seed  # the computer's execution error is drawn from it: a game repeats
        self.save_path = Path(save_path)
        self.screenshot_dir = Path(screenshot_dir)
        self.screenshots = 0
        self.running = True
        self.sound = SoundPlayer()
        self.session = session
        self._apply_layout(size)
        self.set_session(session)

    # -- the window ------------------------------------------------------------------------
    def _apply_layout(self, size: tuple[int, int]) -> None:
        """Lay the panel and the widgets out for a window of `size` pixels."""
        help_lines = panel_text.help_lines(self.session.game)
        lay = ScreenLayout.for_size(size, len(help_lines))
        need = Panel(lay.help, lay.scale).height([Line(t, V.DIM, 17) for t in help_lines]) + 4
        lay = ScreenLayout.for_size(size, help_height=need)  # the help as wrapped at this size
        self.size = lay.size
        self.screen_layout = lay
        self.panel = Panel(lay.panel, lay.scale)
        self.help_panel = Panel(lay.help, lay.scale)
        self.tools, self.tip_rect, self.power_rect = lay.tools, lay.tip, lay.power

    def _fit_table(self) -> None:
        """Scale the table to the table area and draw its background once."""
        table = self.session.table
        self.view = Viewport.fit(self.screen_layout.table, table.geometry.width,
                                 table.geometry.length, draw.table_margin(table))
        self.background = draw.background(self.size, self.view, table)
        self._preview_key = None

    def resize(self, size: tuple[int, int]) -> None:
        """The window has a new size: lay everything out again (never below MIN_SIZE)."""
        size = (max(int(size[0]), MIN_SIZE[0]), max(int(size[1]), MIN_SIZE[1]))
        if not self.fullscreen:
            self.windowed_size = size
            if self.screen.get_size() != size:
                self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        self._apply_layout(size)
        self._fit_table()

    def toggle_fullscreen(self) -> None:
        """F11: full screen at the desktop's size, and back to the window's last size."""
        try:
            if self.fullscreen:
                self.fullscreen = False
                self.screen = pygame.display.set_mode(self.windowed_size, pygame.RESIZABLE)
            else:
                desktop = pygame.display.get_desktop_sizes()[0]
                self.screen = pygame.display.set_mode(desktop, pygame.FULLSCREEN)
                self.fullscreen = True
        except (pygame.error, IndexError) as exc:
            self.say(f"Full screen is not available here ({exc}).", True)
            return
        self.resize(self.screen.get_size())

    # -- setup -------------------------------------------------------------------------
    def set_session(self, session: Session) -> None:
        new_game = session.game != getattr(self, "_laid_out_for", None)
        self.session = session
        if new_game:  # the help (and so the layout) differs from game to game
            self._apply_layout(self.size)
            self._laid_out_for = session.game
        self._fit_table()
        pygame.display.set_caption(f"cuesim: {session.game}")
        self.playback: Playback | None = None
        self.before: Session | None = None  # the game as it was before the shot being shown
        self.end_board: tuple[list[Piece], list[tuple[float, float]], list[bool],
                              dict[str, float]] | None = None
        self.ruling_shown = session.ruling_text
        self.message, self.message_bad = "", False
        self.mode = "aim"
        self.power = 0.5
        self.tip = (0.0, 0.0)
        self.declaration: dict[str, Any] = {}
        self.menu_index = 0
        self.drag: str | None = None  # 'power' | 'place' | 'tip'
        self.drag_start = (0, 0)
        self._drag_context: tuple | None = None  # what the drag began in (see _input_context)
        self._drag_button = 1
        self.confirm_quit: str | None = None  # None, 'ask', or 'unsaved' (the save failed)
        self.mouse = (0, 0)
        self.ai_turn: ai.ComputerTurn | None = None
        self._preview_key: tuple | None = None
        self._preview = Prediction()
        self._reset_turn()

    def _reset_turn(self) -> None:
        """Start a turn: the struck piece where it lies or at its default legal place, aimed
        at a shot the referee would rule legal (aim.legal_opening) when there is one."""
        self.drag = None
        self.pos = self.session.struck_position()
        self.angle = self.default_angle()
        s = self.session
        if not s.over() and s.pending() is None and s.shooter() not in s.computer:
            opening = legal_opening(s, self.pos, OPENING_TRIES)
            if opening is not None:
                self.angle, self.power = opening
        self.declaration = {}
        self._preview_key = None
        if self.session.over():
            self.mode = "over"
        elif self.session.pending() is not None:
            self.mode = "choice"
        else:
            self.mode = "aim"

    def default_angle(self) -> float:
        """Toward the shooter's first piece (the lowest ball, his own puck...), else ahead."""
        s = self.session
        layout = s.layout()
        if s.over():
            return math.pi / 2
        ids = [pid for pid in s.pieces_of(s.shooter()) if pid in layout.ids()]
        if ids:
            p = layout.get(ids[0])
        else:
            p = Piece("", "", s.table.geometry.width / 2, s.table.geometry.length / 2)
        if math.hypot(p.x - self.pos[0], p.y - self.pos[1]) < 1e-9:
            return math.pi / 2
        return math.atan2(p.y - self.pos[1], p.x - self.pos[0])

    # -- the loop ------------------------------------------------------------------------
    def step(self, events: list[pygame.event.Event], dt: float) -> bool:
        """Handle events, advance by dt seconds, draw one frame. False once the user quits."""
        for event in events:
            self.handle(event)
        if self.running:  # nothing more happens once the player quit (the game is saved)
            self.update(dt)
        self.render()
        return self.running

    def run(self, fps: int = 60) -> None:
        clock = pygame.time.Clock()
        while self.running:
            dt = clock.tick(fps) / 1000.0
            self.step(pygame.event.get(), dt)
            pygame.display.flip()
        pygame.quit()

    def update(self, dt: float) -> None:
        if self.playback is not None and self.mode == "animate":
            t0 = self.playback.t
            self.playback.advance(dt)
            self.sound.play_between(self.playback.result, t0, self.playback.t)
            if self.playback.done:
                self._shot_shown()
            return
        if self.mode in ("aim", "choice") and not self.session.over():
            if self.session.shooter() in self.session.computer or (
                    self.mode == "choice" and self.session.pending()[0]  # type: ignore[index]
                    in self.session.computer):
                self.computer_turn(dt)

    def _shot_shown(self) -> None:
        """The animation has reached its end (or was skipped): the ruling, the scores and the
        player to play are shown now; a shot that ended a set or game leaves its final board
        and the score sheet on screen."""
        pb = self.playback
        self.before = None
        self.ruling_shown = self.session.ruling_text
        ruling = self.session.last_ruling
        self.end_board = None
        self._reset_turn()
        if pb is not None and ruling is not None and ruling.frame_over and \
                pb.result is self.session.last_result:
            pos, on = pb.frame()
            self.end_board = (list(pb.result.initial.pieces), [tuple(p) for p in pos],
                              [bool(o) for o in on], pb.fallen_angles())
            if not self.session.over():
                self.mode = "intermission"

    def end_key(self, key: int) -> None:
        """The keys of the end screens: Enter goes on to the next set or game; at the end of
        the match Enter is a rematch and N a new game (then 1-6 picks it)."""
        if self.mode == "intermission":
            if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_n):
                self.end_board = None
                self.mode = "aim"
                self._reset_turn()
            return
        if self.mode == "pick_game":
            k = key - pygame.K_1
            if 0 <= k < len(SESSION_GAMES):
                self.new_game(SESSION_GAMES[k], rematch=False)
            elif key == pygame.K_ESCAPE:
                self.mode = "over"
            return
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.new_game(self.session.game, rematch=True)
        elif key == pygame.K_n:
            self.mode = "pick_game"

    def new_game(self, game: str, rematch: bool) -> None:
        """A rematch (the same players, the other side opening) or a new game of `game` (the
        computer keeps its seat when it played)."""
        s = self.session
        players: list[str] | None
        if rematch:
            k = len(s.players) // 2
            players = s.players[k:] + s.players[:k]
            computer = s.computer
        else:
            n = 4 if game == "novus-doubles" else 2
            if not s.computer:
                players, computer = None, ()
            elif n == 4:
                players = ["You", "Partner", COMPUTER, COMPUTER + " 2"]
                computer = tuple(players[2:])
            else:
                players, computer = ["You", COMPUTER], (COMPUTER,)
            if len(s.players) == n and not s.computer:
                players = list(s.players)
        self.set_session(new_session(game, players, computer, s.options))
        self.say(f"A {'rematch' if rematch else 'new game'} of "
                 f"{panel_text.TITLES[game]} begins.")

    @property
    def thinking(self) -> bool:
        """The computer is searching for its shot (the window keeps drawing meanwhile)."""
        turn = self.ai_turn
        return turn is not None and turn.key == ai.turn_key(self.session) and turn.thinking

    @property
    def think_progress(self) -> float:
        """How far the computer's search is, 0..1 (1 when it is not thinking)."""
        return self.ai_turn.progress if self.thinking else 1.0  # type: ignore[union-attr]

    def computer_turn(self, dt: float = 0.0) -> None:
        """The computer's move, one frame of it: a pending choice is answered at once; a shot
        is thought over in slices (`thinking`, `think_progress`), then its aim, call, tip
        and power are shown on the table and the widgets for `ai.turn.SHOW_S` of animation
        time, then it is played (with the level's execution error already in it)."""
        pending = self.session.pending()
        if pending is not None:
            option = ai.choose_option(self.session)
            self.session.choose(option)
            self.ruling_shown = self.session.ruling_text
            self._reset_turn()
            return
        turn = self.ai_turn
        if turn is None or turn.key != ai.turn_key(self.session):
            turn = self.ai_turn = ai.new_turn(self.session, self.level, self.candidates,
                                              self.seed)
        name = self._computer_name()
        action = turn.advance(dt)
        if turn.thinking:
            self.say(turn.indicator(self.session.shooter()))
            return
        choice = turn.choice
        if choice is None or choice.action is None or (turn.played and action is None):
            # thought once (or its shot was refused): not again every frame
            self.say(f"{name} finds no shot that can be played here; undo (U) or load (F9)",
                     True)
            return
        shown = choice.action
        self.pos, self.angle = (shown["x"], shown["y"]), shown["angle"]
        self.power = shown["speed"] / self.session.max_speed
        self.tip = (shown.get("side", 0.0), shown.get("height", 0.0))
        self.declaration = dict(shown.get("declaration") or {})
        if action is None:
            self.say(f"{name} aims" + (" (break)" if choice.plan == "break" else ""))
            return
        self._shoot_action(action)
        if self.mode == "animate":
            how = {"break": "broke as planned",
                   "fallback": "found no good shot and played a safe one"}.get(
                choice.plan, f"played the best of {choice.tried} shots, {choice.samples} "
                             "simulations under its error")
            self.say(f"{name} {how}")

    def _computer_name(self) -> str:
        """The shooter as the computer names itself: 'Computer (club)', 'Boris (computer,
        club)'."""
        who = self.session.shooter()
        if "computer" in who.lower():
            return f"{who} ({self.level.name})"
        return f"{who} (computer, {self.level.name})"

    # -- input ---------------------------------------------------------------------------
    def say(self, text: str, bad: bool = False) -> None:
        """Tell the player something in the panel (as a sentence: panel_text.message)."""
        self.message, self.message_bad = panel_text.message(text), bad

    def handle(self, event: pygame.event.Event) -> None:
        """One input event. Input acts only in the mode it began in: a drag (power, placing,
        tip) is dropped as soon as the mode, the turn or the game changes under it. Once the
        player has quit, the rest of the frame's input is ignored (the game was saved as it
        stood)."""
        if not self.running:
            return
        if event.type == pygame.QUIT:
            self.request_quit(window=True)
        elif event.type == pygame.VIDEORESIZE:
            self.resize(event.size)
        elif event.type == pygame.WINDOWSIZECHANGED:
            self.resize((event.x, event.y))
        elif event.type == pygame.KEYDOWN:
            self.key(event.key, event.mod)
        elif event.type == pygame.MOUSEMOTION:
            self.motion(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.press(event.pos, event.button)
        elif event.type == pygame.MOUSEBUTTONUP:
            self.release(event.pos, event.button)
        self._drop_stale_drag()

    def _input_context(self) -> tuple:
        """What an input gesture belongs to: the game, the action count, the mode, the shooter
        and where the struck piece may be placed."""
        s = self.session
        return (id(s), len(s.actions), self.mode, s.shooter(), s.placement())

    def _drop_stale_drag(self) -> None:
        if self.drag is not None and self._input_context() != self._drag_context:
            if self.drag == "place" and self._drag_context is not None and \
                    self._drag_context[:2] == self._input_context()[:2]:
                self.pos = self._place_from  # same turn: the piece goes back where it was
            self.drag = None

    def _begin_drag(self, kind: str, button: int) -> None:
        self.drag, self._drag_button = kind, button
        self._drag_context = self._input_context()

    def request_quit(self, window: bool = False) -> None:
        """Esc asks first (Esc again or Y quits, any other key goes on); closing the window
        quits at once. Either way the game is saved to the save path first; when that fails
        the player is told and the next Esc / Y / close quits without saving."""
        if not window and self.confirm_quit is None:
            self.confirm_quit = "ask"
            saved = " (the game is saved first)" if self.session.actions else ""
            self.say(f"Quit{saved}? Esc again or Y: quit; any other key: go on playing.", True)
            return
        if self.confirm_quit != "unsaved" and self.session.actions:
            try:
                self.save()
            except OSError as exc:
                self.confirm_quit = "unsaved"
                self.say(f"Game not saved: {exc.strerror or exc}. Esc or Y (or close the "
                         "window) again to quit without saving; any other key: go on.", True)
                return
        self.confirm_quit = None
        self.running = False

    def key(self, key: int, mod: int = 0) -> None:
        ctrl = bool(mod & pygame.KMOD_CTRL)
        if self.confirm_quit is not None:
            if key in (pygame.K_ESCAPE, pygame.K_y):
                self.request_quit()
            else:
                self.confirm_quit = None
                self.say("Quit cancelled")
            return
        if key == pygame.K_F11:
            self.toggle_fullscreen()
        elif key == pygame.K_F12 or (ctrl and key == pygame.K_p):
            try:
                self.screenshot()
            except (OSError, pygame.error) as exc:  # e.g. a full disk: nothing was saved
                self.say(f"Screenshot not saved: {getattr(exc, 'strerror', None) or exc}", True)
        elif key == pygame.K_F5 or (ctrl and key == pygame.K_s):
            try:
                self.save()
            except OSError as exc:  # the previous save, if any, is left as it was
                self.say(f"Game not saved: {exc.strerror or exc}", True)
        elif key == pygame.K_F9 or (ctrl and key == pygame.K_l):
            self.load()
        elif key == pygame.K_u or (ctrl and key == pygame.K_z):
            self.undo()
        elif key == pygame.K_v:
            self.say("Sound off" if self.sound.toggle_mute() else "Sound on" if
                     self.sound.available else f"Sound on, but {self.sound.reason}")
        elif key == pygame.K_g:
            self.export_gif()
        elif self.mode == "menu":
            self.menu_key(key)
        elif self.mode == "animate" or key in (pygame.K_SPACE, pygame.K_m, pygame.K_r):
            self.playback_key(key)
        elif self.mode in ("intermission", "over", "pick_game") and key != pygame.K_ESCAPE \
                or self.mode == "pick_game":
            self.end_key(key)
        elif key == pygame.K_ESCAPE:
            if self.mode in ("call_ball", "call_pocket"):
                self.mode = "aim"
                self.declaration.pop("called_ball", None)
                self.declaration.pop("called_pocket", None)
                self.say("Call withdrawn")
            else:
                self.request_quit()
        elif self.mode == "choice":
            self.choice_key(key)
        elif self.mode in ("aim", "call_ball", "call_pocket"):
            self.aim_key(key)

    def playback_key(self, key: int) -> None:
        pb = self.playback
        if key == pygame.K_r:
            if self.session.last_result is None:
                self.say("No shot to replay yet", True)
                return
            if pb is None or pb.result is not self.session.last_result:
                pb = self.playback = Playback(self.session.last_result)
            pb.restart()
            self.mode = "animate"
        elif pb is None:
            return
        elif key == pygame.K_SPACE:
            pb.paused = not pb.paused
        elif key == pygame.K_m:
            k = SPEEDS.index(pb.rate) if pb.rate in SPEEDS else 0
            pb.rate = SPEEDS[(k + 1) % len(SPEEDS)]
            self.say(f"Playback speed x{pb.rate:g}")
        elif key in (pygame.K_RETURN, pygame.K_TAB, pygame.K_ESCAPE):
            pb.finish()

    def aim_key(self, key: int) -> None:
        s, e = self.tip
        step = 0.1
        if key == pygame.K_LEFT:
            s -= step
        elif key == pygame.K_RIGHT:
            s += step
        elif key == pygame.K_UP and self.session.tip_vertical:
            e += step
        elif key == pygame.K_DOWN and self.session.tip_vertical:
            e -= step
        elif key == pygame.K_c and "call" in self.session.declarations():
            self.mode = "call_ball"  # a new call replaces the one made before
            self.declaration.pop("called_ball", None)
            self.declaration.pop("called_pocket", None)
            self.say("Call: click the ball you call")
        elif key == pygame.K_x:
            self.declaration = {}
            self.mode = "aim"  # a call being made is cleared too
            self.say("Declarations cleared")
        elif key == pygame.K_k:
            requests = self.session.requests()
            if requests:
                try:
                    self.session.request(next(iter(requests)))
                except ValueError as exc:
                    self.say(str(exc), True)
                else:  # the referee changed the table: the turn starts again from it
                    self.ruling_shown = self.session.ruling_text  # shown as the ruling
                    self._reset_turn()
                    self.say("")
            else:
                self.say("Nothing to request now", True)
        elif key == pygame.K_s and "safety" in self.session.declarations():
            self.declaration["safety"] = not self.declaration.get("safety", False)
            self.say(f"Safety {'declared' if self.declaration['safety'] else 'withdrawn'}")
        elif key == pygame.K_p and "push_out" in self.session.declarations():
            self.declaration["push_out"] = not self.declaration.get("push_out", False)
            self.say(f"Push-out {'declared' if self.declaration['push_out'] else 'withdrawn'}")
        elif key == pygame.K_f:
            if self.session.infraction_codes():
                self.mode, self.menu_index = "menu", 0
            else:
                self.say("No referee here: nothing to declare", True)
        self.set_tip(s, e)

    def set_tip(self, side: float, height: float) -> None:
        """The tip offset, kept inside the miscue limit (|offset| <= 0.5 radius for balls;
        0.9 of the striker's radius in novus, where only the side offset exists)."""
        if not self.session.tip_vertical:
            self.tip = (max(-0.9, min(0.9, side)), 0.0)
        else:
            n = math.hypot(side, height)
            if n > 0.5:
                side, height = side * 0.5 / n, height * 0.5 / n
            self.tip = (side, height)

    def choice_key(self, key: int) -> None:
        pending = self.session.pending()
        if pending is None:
            self._reset_turn()
            return
        k = key - pygame.K_1
        if 0 <= k < len(pending[2]):
            self.session.choose(pending[2][k])
            self.ruling_shown = self.session.ruling_text
            self._reset_turn()

    def menu_key(self, key: int) -> None:
        codes = list(self.session.infraction_codes())
        if key == pygame.K_ESCAPE or key == pygame.K_f:
            self.mode = "aim"
        elif key == pygame.K_DOWN:
            self.menu_index = min(len(codes) - 1, self.menu_index + 1)
        elif key == pygame.K_UP:
            self.menu_index = max(0, self.menu_index - 1)
        elif key in (pygame.K_RETURN, pygame.K_n, pygame.K_o):
            code = codes[self.menu_index]
            last = key == pygame.K_RETURN
            player = ""
            if key == pygame.K_o:
                player = self._opponent(self.session.shooter())
            try:
                self.session.declare(code, player, last_shot=last)
            except (ValueError, ShotError) as exc:
                self.say(f"Refused: {exc}", True)
                self.mode = "aim"
                return
            self.ruling_shown = self.session.ruling_text
            self.playback = None
            self._reset_turn()
            where = "in the last shot" if last and self.session.actions[-1]["kind"] == "shot" \
                else "now"
            self.say(f"Declared {code} {where}")

    def _opponent(self, player: str) -> str:
        players = self.session.players
        k = players.index(player)
        if len(players) == 4:
            return players[(k + 2) % 4]
        return players[1 - k]

    def motion(self, pos: tuple[int, int]) -> None:
        self.mouse = pos
        self._drop_stale_drag()
        if self.drag == "place":
            self.pos = self.view.to_table(*pos)
        elif self.drag == "tip":
            self._tip_at(pos)
        elif self.drag is None and self.mode == "aim" and self._on_table(pos):
            x, y = self.view.to_table(*pos)
            if math.hypot(x - self.pos[0], y - self.pos[1]) > 1e-6:
                self.angle = math.atan2(y - self.pos[1], x - self.pos[0])
        if self.drag == "power":
            d = math.dist(pos, self.drag_start)
            self.power = max(0.0, min(1.0, d / POWER_DRAG_PX))

    def _on_table(self, pos: tuple[int, int]) -> bool:
        return pos[0] < self.size[0] - PANEL_WIDTH

    def _tip_at(self, pos: tuple[int, int]) -> None:
        r = self.tip_rect.width / 2 - 2
        self.set_tip((pos[0] - self.tip_rect.centerx) / r, -(pos[1] - self.tip_rect.centery) / r)

    def press(self, pos: tuple[int, int], button: int) -> None:
        self.mouse = pos
        if self.confirm_quit is not None:  # a click answers "quit?" with no
            self.confirm_quit = None
            self.say("Quit cancelled")
            return
        if self.drag is not None:  # a second button during a drag: the drag goes on
            return
        if self.tip_rect.collidepoint(pos) and self.mode == "aim" and button == 1:
            self._begin_drag("tip", button)
            self._tip_at(pos)
            return
        if not self._on_table(pos):
            return
        xy = self.view.to_table(*pos)
        if self.mode == "call_ball" and button == 1:
            self._call_ball(xy)
        elif self.mode == "call_pocket" and button == 1:
            self._call_pocket(xy)
        elif self.mode == "aim" and self.session.shooter() not in self.session.computer:
            can_place = self.session.placement() is not None
            grab = self.view.pixels(self.session.radius()) + 4
            if can_place and button == 3:
                self.place(xy)
            elif can_place and button == 1 and math.dist(pos, self.view.to_screen(*self.pos)) \
                    <= grab:
                self._place_from = self.pos
                self._begin_drag("place", button)
            elif button == 1:
                self.drag_start, self.power = pos, 0.0
                self._begin_drag("power", button)

    def release(self, pos: tuple[int, int], button: int) -> None:
        self._drop_stale_drag()
        if self.drag is None or button != self._drag_button:
            return
        drag, self.drag = self.drag, None
        if drag == "place":
            self.pos = self._place_from
            self.place(self.view.to_table(*pos))
        elif drag == "power":
            self.motion_power(pos)
            if self.power < 0.03:
                self.say("Drag farther before releasing to shoot", True)
                return
            self.shoot()

    def motion_power(self, pos: tuple[int, int]) -> None:
        self.power = max(0.0, min(1.0, math.dist(pos, self.drag_start) / POWER_DRAG_PX))

    def place(self, xy: tuple[float, float]) -> bool:
        """Put the struck piece at xy if the rules allow it (only a player with the piece in
        hand may place it); otherwise say why not."""
        if self.session.placement() is None:
            self.say(f"Refused: no ball in hand: the {self.session.struck_id()} is played where "
                     "it lies", True)
            return False
        reason = self.session.check_place(*xy)
        if reason:
            self.say(f"Refused: {reason}", True)
            return False
        self.pos = (float(xy[0]), float(xy[1]))
        self._preview_key = None
        self.say(f"{self.session.struck_id()} placed")
        return True

    def _call_ball(self, xy: tuple[float, float]) -> None:
        pieces = [p for p in self.session.layout().pieces if p.id != self.session.struck_id()]
        if not pieces:
            self.mode = "aim"
            return
        p = min(pieces, key=lambda q: math.hypot(q.x - xy[0], q.y - xy[1]))
        self.declaration["called_ball"] = p.id
        self.mode = "call_pocket"
        self.say(f"Called the {p.id}: now click the pocket")

    def _call_pocket(self, xy: tuple[float, float]) -> None:
        if "called_ball" not in self.declaration:  # the call was cleared: start it again
            self.mode = "call_ball"
            self.say("Call: click the ball you call first", True)
            return
        holes = self.session.table.geometry.holes
        h = min(holes, key=lambda q: math.hypot(q.x - xy[0], q.y - xy[1]))
        self.declaration["called_pocket"] = h.name
        self.mode = "aim"
        self.say(f"Called the {self.declaration['called_ball']} in {h.name}")

    # -- shooting ----------------------------------------------------------------------
    def current_action(self, power: float | None = None) -> dict[str, Any]:
        p = self.power if power is None else power
        return self.session.shot_action(self.pos, self.angle, max(p, 0.01) *
                                        self.session.max_speed, self.tip[0], self.tip[1],
                                        self.declaration)

    def shoot(self) -> None:
        self._shoot_action(self.current_action())

    def _shoot_action(self, action: dict[str, Any]) -> None:
        before = copy.copy(self.session)  # what the panel shows while the shot is animated
        before.ref = copy.deepcopy(self.session.ref)
        try:
            self.session.apply(action)
        except (ShotError, LayoutError, SimulationError, ValueError) as exc:
            self.say(f"Refused: {exc}", True)
            return
        assert self.session.last_result is not None
        self.playback = Playback(self.session.last_result)
        self.before = before
        self.mode = "animate"
        self.say("")

    def undo(self) -> None:
        s = self.session
        if not s.undo():
            self.say("Nothing to undo", True)
            return
        while s.actions and s.shooter() in s.computer and s.computer != tuple(s.players):
            s.undo()
        self.playback = None
        self.ruling_shown = s.ruling_text or "Last action taken back."
        self._reset_turn()
        self.say("Undone")

    def save(self, path: str | Path | None = None) -> Path:
        target = Path(path) if path is not None else self.save_path
        self.session.save(target)
        self.say(f"Saved to {target}")
        return target

    def load(self, path: str | Path | None = None) -> None:
        target = Path(path) if path is not None else self.save_path
        try:
            session = load_session(target)
        except ValueError as exc:
            self.say(f"Cannot load: {exc}", True)
            return
        self.set_session(session)
        self.say(f"Loaded {target}")

    def screenshot(self, path: str | Path | None = None) -> Path:
        self.render()
        if path is None:
            self.screenshots += 1
            path = self.screenshot_dir / f"cuesim-{self.session.game}-{self.screenshots}.png"
        path = Path(path)
        png = io.BytesIO()  # pygame reports no write error (a full disk gave an empty file)
        pygame.image.save(self.screen, png, "png")
        write_atomic(path, png.getvalue())
        self.say(f"Screenshot saved to {path}")
        return path

    def export_gif(self) -> None:
        """The last shot's animation as a GIF in the screenshot folder (viewer/export.py)."""
        try:
            path = export.save_last_shot(self.session, self.screenshot_dir)
        except (ValueError, OSError) as exc:  # export.ExportError, OutputError, a full disk
            self.say(f"Shot not exported: {getattr(exc, 'strerror', None) or exc}", True)
        else:
            self.say(f"Shot saved to {path}")

    # -- drawing -----------------------------------------------------------------------
    def preview(self) -> Prediction:
        """The struck piece's path up to its first contact as the real simulator predicts it,
        where it is then, what it touches, the touched piece's path just after, and the
        ruling the referee would give the shot (aim.predict)."""
        power = self.power if self.drag == "power" else max(self.power, 0.3)
        key = (self.pos, self.angle, round(power, 2), self.tip, len(self.session.actions),
               tuple(sorted(self.declaration.items())))
        if key == self._preview_key:
            return self._preview
        self._preview_key = key
        self._preview = predict(self.session, self.current_action(power))
        return self._preview

    def foul_warning(self) -> str:
        """'Foul: WPA 5.8, ...' when the shot as aimed would be a foul, else ''."""
        if self.mode != "aim" or self.session.over() or self.session.shooter() in \
                self.session.computer:
            return ""
        ruling = self.preview().ruling
        return panel_text.foul_warning(ruling) if ruling is not None else ""

    def render(self) -> None:
        screen = self.screen
        screen.blit(self.background, (0, 0))
        s, view, table = self.session, self.view, self.session.table
        board = self._end_board()
        if self.playback is not None and self.mode == "animate":
            pos, on = self.playback.frame()
            draw.draw_pieces(screen, view, table, self.playback.result.initial.pieces,
                             [tuple(p) for p in pos], list(on), self.playback.fallen_angles())
        elif board is not None:
            draw.draw_pieces(screen, view, table, board[0], board[1], board[2], board[3])
        else:
            if s.placement() is not None and self.mode == "aim":
                draw.draw_strip(screen, view, s.place_area(), (255, 255, 255, 40))
            draw.draw_pieces(screen, view, table, self._resting_pieces(),
                             fallen=s.fallen_pins())
            if self.mode == "aim" and not s.over():
                self._draw_aim()
        if self.mode == "call_pocket" or self.declaration.get("called_pocket"):
            self._draw_call()
        screen.blit(self.panel.render(self.hud_lines()), self.panel.rect.topleft)
        screen.blit(self.help_panel.render([Line(t, V.DIM, 17) for t in self.help_text()]),
                    self.help_panel.rect.topleft)
        pygame.draw.rect(screen, V.PANEL, self.tools)
        draw.draw_tip_widget(screen, self.tip_rect, self.tip[0], self.tip[1],
                             s.tip_vertical)
        draw.draw_power(screen, self.power_rect, self.power,
                        f"power {self.power * s.max_speed:.1f} m/s")
        if self.mode in ("intermission", "over", "pick_game"):
            self._draw_sheet()

    def _end_board(self) -> tuple[list[Piece], list[tuple[float, float]], list[bool],
                                  dict[str, float]] | None:
        """The final board of the set, game or match just ended, while its end is shown."""
        if self.mode in ("intermission", "over", "pick_game") and self.end_board is not None \
                and self.session.last_result is not None and self.playback is not None \
                and self.playback.result is self.session.last_result:
            return self.end_board
        return None

    def end_keys(self) -> list[str]:
        """What the end screen's keys do."""
        if self.mode == "intermission":
            return [f"Enter: play the next {self.session.unit}.", "R: replay the last shot.",
                    "U: undo."]
        if self.mode == "pick_game":
            return [f"{k + 1}: {panel_text.TITLES[g]}" for k, g in enumerate(SESSION_GAMES)] \
                + ["Esc: back."]
        return ["Enter: rematch (the other side opens).", "N: a new game.",
                "R: replay the last shot.", "U: undo.", "Esc: quit."]

    def _draw_sheet(self) -> None:
        area = self.screen_layout.table
        scale = self.screen_layout.scale
        board = self._end_board()
        if board is not None:
            points = [self.view.to_screen(*xy) for xy, on in
                      zip(board[1], board[2], strict=True) if on]
        else:
            points = [self.view.to_screen(p.x, p.y) for p in self.session.layout().pieces]
        scoresheet.draw_sheet(self.screen, area, self.session, self.end_keys(),
                              draw.font(round(19 * scale)), draw.font(round(26 * scale)),
                              points)

    def _resting_pieces(self) -> list[Piece]:
        layout = self.session.layout()
        struck = self.session.struck_id()
        if self.mode == "over":
            return list(layout.pieces)
        piece = Piece(struck, "striker" if struck == "striker" else "ball", *self.pos,
                      "" if struck == "striker" else struck)
        return [p for p in layout.pieces if p.id != struck] + [piece]

    def _draw_aim(self) -> None:
        pred = self.preview()
        ok = self.session.placement() is None or self.session.check_place(*self.pos) is None
        foul = pred.ruling is not None and not pred.ruling.legal
        colour = V.BAD if not ok or foul else (250, 250, 250)
        if pred.path:
            draw.draw_path(self.screen, self.view, pred.path, colour)
        else:
            end = (self.pos[0] + 0.4 * math.cos(self.angle),
                   self.pos[1] + 0.4 * math.sin(self.angle))
            draw.draw_path(self.screen, self.view, [self.pos, end], V.BAD)
        if pred.ghost is not None:
            draw.draw_ghost(self.screen, self.view, pred.ghost, self.session.radius(),
                            V.BAD if foul else (240, 240, 240))
        if pred.after:
            draw.draw_path(self.screen, self.view, pred.after, V.ACCENT)
        if pred.hit:
            self._draw_label(pred.hit.rstrip("."), pred.ghost or pred.path[-1],
                             V.BAD if foul else V.TEXT)

    def _draw_label(self, text: str, at_table: tuple[float, float],
                    colour: tuple[int, int, int]) -> None:
        """A label near a point of the table that covers no piece and no aim path."""
        font = draw.font(round(18 * self.screen_layout.scale))
        img = font.render(text, True, colour)
        at = self.view.to_screen(*at_table)
        circles = []
        for p in self._resting_pieces():
            x, y = self.view.to_screen(p.x, p.y)
            circles.append((x, y, draw.piece_radius_px(self.view, self.session.table, p)))
        pred = self._preview
        for x, y in (pred.path + pred.after)[::2]:
            sx, sy = self.view.to_screen(x, y)
            circles.append((sx, sy, 2.0))
        bounds = self.screen_layout.table
        x, y = label_place(img.get_size(), at, circles, bounds)
        back = pygame.Surface((img.get_width() + 6, img.get_height() + 2), pygame.SRCALPHA)
        back.fill((0, 0, 0, 120))
        self.screen.blit(back, (x - 3, y - 1))
        self.screen.blit(img, (x, y))

    def _draw_call(self) -> None:
        name = self.declaration.get("called_pocket")
        for h in self.session.table.geometry.holes:
            if name is None or h.name == name:
                c = self.view.to_screen(h.x, h.y)
                pygame.draw.circle(self.screen, V.ACCENT, (round(c[0]), round(c[1])),
                                   round(self.view.pixels(h.radius)) + 4, 2)

    def help_text(self) -> list[str]:
        return panel_text.help_lines(self.session.game)

    def hud_lines(self) -> list[Line]:
        """The panel's lines now (panel_text says what they say)."""
        s = self.session
        lines = [Line(f"cuesim: {panel_text.TITLES[s.game]}", V.ACCENT, 28)]
        animating = self.mode == "animate" and self.playback is not None
        shown = self.before if animating and self.before is not None else s
        if self.mode in ("intermission", "over", "pick_game"):
            lines += self._end_lines()
        elif animating:
            lines += self._shot_lines(shown)
        else:
            who = s.shooter()
            lines.append(Line(panel_text.to_play_line(who, who in s.computer), V.TEXT, 24))
            place = panel_text.PLACES.get(s.placement() or "", "")
            if place:
                lines.append(Line(place, V.DIM, 19))
            lines.append(Line(""))
            lines += [Line(t, V.TEXT, 19) for t in s.scoreboard()]
        if self.mode == "menu":
            return self._fit_menu(lines)
        lines.append(Line(""))
        if not animating and self.ruling_shown:
            lines.append(Line("Referee:", V.ACCENT, 20))
            lines.append(Line(self.ruling_shown, V.TEXT, 19))
        warning = self.foul_warning()
        if warning:
            lines.append(Line(warning, V.BAD, 20))
        decl = self._declaration_text()
        if decl:
            lines.append(Line(decl, V.ACCENT, 19))
        if not animating and self.mode in ("aim", "call_ball", "call_pocket") \
                and not s.over():
            lines += [Line(label, V.DIM, 18) for label in s.requests().values()]
        if self.mode == "choice":
            pending = s.pending()
            if pending is not None:
                lines.append(Line(panel_text.chooser_line(pending[0], pending[1]),
                                  V.ACCENT, 20))
                lines += [Line(f"  {k + 1}: {panel_text.option_label(opt)}.", V.TEXT, 20)
                          for k, opt in enumerate(pending[2])]
        if self.message:
            lines.append(Line(self.message, V.BAD if self.message_bad else V.GOOD, 19))
        return lines

    def _shot_lines(self, shown: Session) -> list[Line]:
        """While a shot is shown: the game as it was before it, with the pieces still on the
        table and what has dropped so far; nothing that happens later."""
        pb = self.playback
        assert pb is not None
        replay = self.before is None
        pos, on = pb.frame()
        pieces = pb.result.initial.pieces
        board = Layout(pb.result.initial.table, tuple(
            Piece(p.id, p.kind, float(pos[k][0]), float(pos[k][1]), p.group)
            for k, p in enumerate(pieces) if on[k]))
        who = pb.result.initial.ids()
        shooter = shown.shooter() if not replay else "the last shot"
        out = [Line(f"Shooting: {shooter}" if not replay else "Replay of the last shot",
                    V.TEXT, 24), Line("")]
        if not replay:
            out += [Line(t, V.TEXT, 19) for t in shown.scoreboard(board)]
        live = panel_text.live_line(pb.pocketed(), pb.fallen(),
                                    {pid: pieces[who.index(pid)] for pid in who})
        if live:
            out += [Line(""), Line(live, V.ACCENT, 19)]
        state = "paused" if pb.paused else f"x{pb.rate:g}"
        out += [Line(""), Line(f"Shot time {pb.t:.2f} s ({state}). Enter skips to the end.",
                              V.DIM, 19)]
        return out

    def _end_lines(self) -> list[Line]:
        s = self.session
        board = s.scoreboard()
        title = scoresheet.title(s)
        out = [Line(title, V.GOOD, 26), Line("")]
        return out + [Line(t, V.TEXT, 19) for t in board if t != title]

    def _fit_menu(self, lines: list[Line]) -> list[Line]:
        """The referee's menu after `lines`, as many entries as the panel can show, the
        selected one always among them (the list scrolls), the last line never cut off."""
        codes = self.session.infraction_codes()
        names = list(codes)
        head = [Line(""), Line("Referee: declare an infraction.", V.ACCENT, 20),
                Line("Up and Down choose; Enter: in the last shot, N: now, O: by the "
                     "opponent, Esc: close.", V.DIM, 17)]
        tail = [Line(self.message, V.BAD if self.message_bad else V.GOOD, 19)] \
            if self.message else []
        budget = self.panel.rect.height - 8

        def entry(k: int) -> Line:
            mark = ">" if k == self.menu_index else " "
            colour = V.ACCENT if k == self.menu_index else V.TEXT
            return Line(f"{mark} {panel_text.menu_label(codes[names[k]])}", colour, 17)

        base = lines + head
        if self.panel.height(base + tail + [entry(self.menu_index)]) > budget:
            base = lines[:2] + head  # keep the title and the player, drop the scoreboard
        shown = [self.menu_index] if names else []
        grew = True
        while grew:  # widen the window around the selected entry while it fits
            grew = False
            for k in (shown[-1] + 1, shown[0] - 1) if shown else ():
                if 0 <= k < len(names):
                    trial = sorted([*shown, k])
                    if self.panel.height(base + [entry(j) for j in trial] + tail) <= budget:
                        shown, grew = trial, True
        more = []
        if shown and shown[0] > 0:
            more.append(f"{shown[0]} more above")
        if shown and shown[-1] < len(names) - 1:
            more.append(f"{len(names) - 1 - shown[-1]} more below")
        out = base + [entry(k) for k in shown]
        if more and self.panel.height(out + tail + [Line(", ".join(more), V.DIM, 17)]) \
                <= budget:
            out.append(Line(", ".join(more).capitalize() + ".", V.DIM, 17))
        return out + tail

    def _declaration_text(self) -> str:
        d = self.declaration
        parts = []
        if d.get("called_ball"):
            ball, pocket = d["called_ball"], d.get("called_pocket")
            where = f" in the {pocket.replace('_', ' ')} pocket" if pocket else ""
            parts.append(f"ball {ball}{where} called")
        if d.get("safety"):
            parts.append("a safety")
        if d.get("push_out"):
            parts.append("a push-out")
        return "Declared: " + ", ".join(parts) + "." if parts else ""

    def sheet_text(self) -> list[str]:
        """The score sheet's lines while it is shown (tests read it)."""
        if self.mode not in ("intermission", "over", "pick_game"):
            return []
        return scoresheet.sheet_lines(self.session) + self.end_keys()

    def screen_text(self) -> str:
        """Everything the panel (and the score sheet, when shown) says now, joined (tests read
        the screen through it)."""
        return "\n".join(self.panel.text_lines(self.hud_lines()) + self.sheet_text())
