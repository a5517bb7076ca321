"""The viewer's input: pygame events turned into aiming, placing, calling, menus and choices
(`InputHandlers`, a part of `viewer.app.App`). Input acts only in the mode and turn it
began in: a drag is dropped when the mode, the turn or the game changes."""

from __future__ import annotations

import math

import pygame

from cuesim.shot import ShotError
from cuesim.viewer.anim import SPEEDS, Playback

POWER_DRAG_PX = 220.0  # a drag this long is full power


class InputHandlers:
    """The input half of App: every method here reads and changes App's state."""

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
            if getattr(event, "rel", None) == (0, 0) and self.drag is None:
                # SDL's motion when the window opens (or is entered) under a still pointer:
                # no hand moved, so the turn's aim (a legal opening) stays
                self.mouse = event.pos
            else:
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
            self.ask_quit(f"Quit{saved}? Esc again or Y: quit; any other key: go on playing.")
            return
        if self.confirm_quit != "unsaved" and self.session.actions:
            try:
                self.save()
            except OSError as exc:
                self.confirm_quit = "unsaved"
                self.ask_quit(f"Game not saved: {exc.strerror or exc}. Esc or Y (or close the "
                              "window) again to quit without saving; any other key: go on.")
                return
        self.confirm_quit = None
        self.running = False

    def ask_quit(self, question: str) -> None:
        """Show the quit question; it stays on the panel until it is answered (the computer
        waits meanwhile), whatever else is said."""
        self.say(question, True)
        self.quit_question = self.message

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
        elif key == pygame.K_j:
            self.export_shot_file()
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
                    self.kept_ruling = ""  # a person acted: the computer's turn is over
                    self._reset_turn()
                    self.say("")
            else:
                self.say("Nothing to request now", True)
        elif key == pygame.K_s and "safety" in self.session.declarations():
            self.declaration["safety"] = not self.declaration.get("safety", False)
            self.say("" if self.declaration["safety"] else "Safety withdrawn")  # the panel's
            # "Declared: ..." line says what is declared
        elif key == pygame.K_p and "push_out" in self.session.declarations():
            self.declaration["push_out"] = not self.declaration.get("push_out", False)
            self.say("" if self.declaration["push_out"] else "Push-out withdrawn")
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
            board = self._board_now()
            self.session.choose(pending[2][k])
            self.ruling_shown = self.session.ruling_text
            self.kept_ruling = ""  # a person acted: the computer's turn is over
            self._reset_turn()
            self._end_without_shot(board)

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
            board = self._board_now()
            try:
                self.session.declare(code, player, last_shot=last)
            except (ValueError, ShotError) as exc:
                self.say(f"Refused: {exc}", True)
                self.mode = "aim"
                return
            self.ruling_shown = self.session.ruling_text
            self.kept_ruling = ""  # a person acted: the computer's turn is over
            self.playback = None
            self._reset_turn()
            self._end_without_shot(board)
            where = "in the last shot" if last and self.session.actions[-1]["kind"] == "shot" \
                else "now"
            label = self.session.infraction_codes().get(code, code)
            self.say(f"Declared {where}: {label}")  # shown: 'Declared now: touched a puck (...).'

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
        return pos[0] < self.screen_layout.panel.left

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
        struck = self.session.struck_id()
        noun = {"cue": "the cue ball", "striker": "the striker"}.get(struck, f"the {struck} ball")
        self.say(f"{noun} is placed")
        return True

    def _call_ball(self, xy: tuple[float, float]) -> None:
        pieces = [p for p in self.session.layout().pieces if p.id != self.session.struck_id()]
        if not pieces:
            self.mode = "aim"
            return
        p = min(pieces, key=lambda q: math.hypot(q.x - xy[0], q.y - xy[1]))
        self.declaration["called_ball"] = p.id
        self.mode = "call_pocket"
        self.say("Now click the pocket")  # the ball is named once, by the "Declared:" line

    def _call_pocket(self, xy: tuple[float, float]) -> None:
        if "called_ball" not in self.declaration:  # the call was cleared: start it again
            self.mode = "call_ball"
            self.say("Call: click the ball you call first", True)
            return
        holes = self.session.table.geometry.holes
        h = min(holes, key=lambda q: math.hypot(q.x - xy[0], q.y - xy[1]))
        self.declaration["called_pocket"] = h.name
        self.mode = "aim"
        self.say("")  # the call is said once, by the "Declared:" line
