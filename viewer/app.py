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
Once the computer's turn acts (a choice, its shot), the ruling on the action before it (the
person's shot) stays on the panel until the computer's shot has been shown or a person acts
(`keep_ruling`).
The window is resizable (and F11 goes full screen); the layout is `layout.ScreenLayout`.
App is three parts: this module (the window, the session, the loop, shooting, the computer's
turn), `input.InputHandlers` (events to aiming, placing, calls, menus, choices) and
`drawing.Drawing` (the table, the aim line, the panel, the end screens).
"""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import Any

import pygame

from cuesim.output import write_atomic
from cuesim.shot import ShotError
from cuesim.sim.engine import SimulationError
from cuesim.sim.result import ShotResult
from cuesim.tables.layout import LayoutError, Piece
from cuesim.viewer import ai, assets, draw, export, panel_text
from cuesim.viewer import view as V
from cuesim.viewer.aim import Prediction, legal_opening
from cuesim.viewer.anim import Playback
from cuesim.viewer.drawing import Drawing
from cuesim.viewer.hud import Line, Panel
from cuesim.viewer.input import InputHandlers
from cuesim.viewer.layout import DEFAULT_SIZE, MIN_SIZE, ScreenLayout
from cuesim.viewer.savefile import options_for
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
# a final board as drawn: the pieces, their positions, on the table or not, fallen pins' angles
EndBoard = tuple[list[Piece], list[tuple[float, float]], list[bool], dict[str, float]]
OPENING_TRIES = 24  # simulated shots at most to find a legal opening aim for a turn


def caption(session: Session) -> str:
    """The window's title: the game, and the impact resolution, the cue's end mass and the
    coefficients of `cuesim play --physics` when they are not the defaults."""
    steps, end_mass = session.options.get("impact_steps"), session.options.get("end_mass")
    notes = ([f"impact steps {steps:g}"] if steps is not None else []) + (
        [f"cue end mass {end_mass * 1000:g} g"] if end_mass is not None else []) + [
        f"{name} {value:g}" for name, value in session.options.get("physics", {}).items()]
    return f"cuesim: {session.game}" + (f" ({', '.join(notes)})" if notes else "")


class App(InputHandlers, Drawing):
    """One window playing one game session."""

    def __init__(self, session: Session, size: tuple[int, int] = SIZE,
                 candidates: int | None = None, save_path: str | Path = "cuesim-save.json",
                 screenshot_dir: str | Path = ".", level: str = ai.DEFAULT_LEVEL,
                 seed: int = 0) -> None:
        pygame.display.init()  # not pygame.init(): the mixer is opened by SoundPlayer alone,
        pygame.font.init()  # which keeps a machine without a sound card quiet
        draw.reset_cache()
        pygame.display.set_icon(assets.icon())
        size = (max(size[0], MIN_SIZE[0]), max(size[1], MIN_SIZE[1]))
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.display.set_caption(caption(session))
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
        if session.load_note:  # a saved game whose replay drifted from its saved layout
            self.say(f"Note: {session.load_note}", True)

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
        pygame.display.set_caption(caption(session))
        self.playback: Playback | None = None
        self.before: Session | None = None  # the game as it was before the shot being shown
        self.end_board: EndBoard | None = None
        self.end_board_shot: ShotResult | None = None  # the shot that ended it, if one did
        self.ruling_shown = session.ruling_text
        # the ruling shown when the computer's turn began to act, kept on the panel until its
        # shot has been shown or a person acts (keep_ruling)
        self.kept_ruling = ""
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
        self.quit_question = ""  # shown while confirm_quit is set
        self.contact_label_rect: pygame.Rect | None = None  # where the last label was drawn
        self.mouse = (0, 0)
        self.ai_turn: ai.ComputerTurn | None = None
        self._preview_key: tuple | None = None
        self._preview = Prediction()
        self._reset_turn()

    def _reset_turn(self) -> None:
        """Start a turn: the struck piece where it lies or at its default legal place, aimed
        at a shot the referee would rule legal (aim.legal_opening) when there is one, the cue
        tip centred (no spin carried over from the last shot, the computer's included)."""
        self.drag = None
        self.tip = (0.0, 0.0)
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
        if self.mode in ("aim", "choice") and not self.session.over() and \
                self.confirm_quit is None:  # the computer waits for the answer to "quit?"
            if self.session.shooter() in self.session.computer or (
                    self.mode == "choice" and self.session.pending()[0]  # type: ignore[index]
                    in self.session.computer):
                self.computer_turn(dt)

    def _shot_shown(self) -> None:
        """The animation has reached its end (or was skipped): the ruling, the scores and the
        player to play are shown now; a shot that ended a set or game leaves its final board
        and the score sheet on screen. A replay (R) leaves a ruling kept through the computer's
        turn (`keep_ruling`) on the panel."""
        pb = self.playback
        replay = self.before is None  # R: the last shot again (the turn has not moved on)
        self.before = None
        self.ruling_shown = self.session.ruling_text
        if not replay:
            self.kept_ruling = ""  # the shot's own ruling is shown now
        ruling = self.session.last_ruling
        self.end_board = None
        self._reset_turn()
        if pb is not None and ruling is not None and ruling.frame_over and \
                pb.result is self.session.last_result:
            pos, on = pb.frame()
            self.end_board = (list(pb.result.initial.pieces), [tuple(p) for p in pos],
                              [bool(o) for o in on], pb.fallen_angles())
            self.end_board_shot = pb.result
            if not self.session.over():
                self.mode = "intermission"

    def _board_now(self) -> EndBoard:
        """The board as it stands (the pieces on the table, the fallen pins as they lie)."""
        lay = self.session.layout()
        return (list(lay.pieces), [(p.x, p.y) for p in lay.pieces], [True] * len(lay.pieces),
                dict(self.session.fallen_pins()))

    def _end_without_shot(self, board: EndBoard) -> None:
        """A set or game ended by a ruling with no shot to show (a declared infraction, a
        choice): `board`, the table as it stood, and the score sheet stay on screen as after a
        shot that ends one (the match's end shows them in 'over')."""
        ruling = self.session.last_ruling
        if ruling is None or not ruling.frame_over:
            return
        self.end_board, self.end_board_shot = board, None
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
        self.set_session(new_session(game, players, computer, options_for(game, s.options)))
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
            self.keep_ruling()
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
        self.keep_ruling()
        self._shoot_action(action)
        if self.mode == "animate":
            how = {"break": "broke as planned",
                   "fallback": "found no good shot and played a safe one"}.get(
                choice.plan, f"played the best of {choice.tried} shots, {choice.samples} "
                             "simulations under its error")
            self.say(f"{name} {how}")

    def keep_ruling(self) -> None:
        """The computer's turn acts (a choice, a shot): the ruling on the screen, the one on
        the action before its turn (the person's shot, break or foul), stays on the panel
        ('Before that:', and while the computer's shot is shown 'Referee, before this shot:')
        until the computer's shot has been shown with its own ruling, or a person acts. The
        computer thinks and shoots within seconds: without this the person's ruling was gone
        almost at once."""
        if not self.kept_ruling:
            self.kept_ruling = self.ruling_shown

    def _computer_name(self) -> str:
        """The shooter as the computer names itself: 'Computer (club)', 'Boris (computer,
        club)'."""
        who = self.session.shooter()
        if "computer" in who.lower():
            return f"{who} ({self.level.name})"
        return f"{who} (computer, {self.level.name})"

    # -- messages ----------------------------------------------------------------------
    def say(self, text: str, bad: bool = False) -> None:
        """Tell the player something in the panel (as a sentence: panel_text.message)."""
        self.message, self.message_bad = panel_text.message(text), bad

    # -- shooting ----------------------------------------------------------------------
    def current_action(self, power: float | None = None) -> dict[str, Any]:
        p = self.power if power is None else power
        return self.session.shot_action(self.pos, self.angle, max(p, 0.01) *
                                        self.session.max_speed, self.tip[0], self.tip[1],
                                        self.declaration)

    def shoot(self) -> None:
        """The person at the keyboard plays the shot as aimed."""
        self.kept_ruling = ""  # a person acted: the computer's turn is over
        self._shoot_action(self.current_action())

    def _shoot_action(self, action: dict[str, Any]) -> None:
        before = self.session.snapshot()  # what the panel shows while the shot is animated
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
        self.kept_ruling = ""
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
        if session.load_note:
            self.say(f"Loaded; note: {session.load_note}", True)
        else:
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

    def export_shot_file(self) -> None:
        """The last shot as a shot file in the screenshot folder (viewer/export.py), for
        `cuesim show`."""
        try:
            path = export.save_last_shot_file(self.session, self.screenshot_dir)
        except (ValueError, OSError) as exc:  # export.ExportError, OutputError, a full disk
            self.say(f"Shot file not saved: {getattr(exc, 'strerror', None) or exc}", True)
        else:
            self.say(f"Shot file saved to {path}")

    def export_gif(self) -> None:
        """The last shot's animation as a GIF in the screenshot folder (viewer/export.py)."""
        try:
            path = export.save_last_shot(self.session, self.screenshot_dir)
        except (ValueError, OSError) as exc:  # export.ExportError, OutputError, a full disk
            self.say(f"Shot not exported: {getattr(exc, 'strerror', None) or exc}", True)
        else:
            self.say(f"Shot saved to {path}")

