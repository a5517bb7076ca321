"""The viewer's event loop. `App.step(events, dt)` handles a batch of pygame events, advances
the animation by dt seconds and draws one frame; `App.run()` feeds it from the real clock and
the real event queue, and tests feed it scripted events and a fake dt.

Modes: 'aim' (aim with the mouse, drag to set the power and release to shoot; drag the struck
piece to place it where the rules allow), 'animate', 'call_ball' / 'call_pocket' (calling a
shot), 'menu' (the referee's menu of declared infractions), 'choice' (the incoming player's
options), 'over' (the match is over).
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
from cuesim.sim.events import EventKind
from cuesim.tables.layout import LayoutError, Piece
from cuesim.viewer import ai, assets, draw, export
from cuesim.viewer import view as V
from cuesim.viewer.anim import SPEEDS, Playback
from cuesim.viewer.hud import HELP, Line, Panel
from cuesim.viewer.session import Session, load_session, new_session
from cuesim.viewer.sound import SoundPlayer
from cuesim.viewer.view import Viewport

SIZE = (1200, 760)
PANEL_WIDTH = 350
POWER_DRAG_PX = 220.0  # a drag this long is full power
MENU_PAGE = 12


class App:
    """One window playing one game session."""

    def __init__(self, session: Session, size: tuple[int, int] = SIZE,
                 candidates: int = 300, save_path: str | Path = "cuesim-save.json",
                 screenshot_dir: str | Path = ".") -> None:
        pygame.init()
        draw.reset_cache()
        pygame.display.set_icon(assets.icon())
        self.screen = pygame.display.set_mode(size)
        pygame.display.set_caption(f"cuesim: {session.game}")
        self.size = size
        self.candidates = candidates
        self.save_path = Path(save_path)
        self.screenshot_dir = Path(screenshot_dir)
        self.screenshots = 0
        self.running = True
        self.sound = SoundPlayer()
        left = size[0] - PANEL_WIDTH
        self.panel = Panel(pygame.Rect(left, 0, PANEL_WIDTH, size[1] - 235))
        self.help_panel = Panel(pygame.Rect(left, size[1] - 125, PANEL_WIDTH, 125))
        self.tools = pygame.Rect(left, size[1] - 235, PANEL_WIDTH, 110)
        self.tip_rect = pygame.Rect(left + 16, size[1] - 230, 96, 96)
        self.power_rect = pygame.Rect(left + 125, size[1] - 195, 205, 26)
        self.set_session(session)

    # -- setup -------------------------------------------------------------------------
    def set_session(self, session: Session) -> None:
        self.session = session
        table = session.table
        area = pygame.Rect(0, 0, self.size[0] - PANEL_WIDTH, self.size[1])
        self.view = Viewport.fit(area.inflate(-20, -20), table.geometry.width,
                                 table.geometry.length, draw.table_margin(table))
        self.background = draw.background(self.size, self.view, table)
        self.playback: Playback | None = None
        self.ruling_shown = session.ruling_text
        self.message, self.message_bad = "", False
        self.mode = "aim"
        self.power = 0.5
        self.tip = (0.0, 0.0)
        self.declaration: dict[str, Any] = {}
        self.menu_index = 0
        self.drag: str | None = None  # 'power' | 'place' | 'tip'
        self.drag_start = (0, 0)
        self.mouse = (0, 0)
        self._preview_key: tuple | None = None
        self._preview: tuple[list[tuple[float, float]], tuple[float, float] | None, str,
                             list[tuple[float, float]]] = ([], None, "", [])
        self._reset_turn()

    def _reset_turn(self) -> None:
        """Start a turn: the struck piece where it lies or at its default legal place."""
        self.pos = self.session.struck_position()
        self.angle = self.default_angle()
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
                self.ruling_shown = self.session.ruling_text
                self._reset_turn()
            return
        if self.mode in ("aim", "choice") and not self.session.over():
            if self.session.shooter() in self.session.computer or (
                    self.mode == "choice" and self.session.pending()[0]  # type: ignore[index]
                    in self.session.computer):
                self.computer_turn()

    def computer_turn(self) -> None:
        pending = self.session.pending()
        if pending is not None:
            option = ai.choose_option(self.session)
            self.session.choose(option)
            self.ruling_shown = self.session.ruling_text
            self._reset_turn()
            return
        choice = ai.choose_shot(self.session, self.candidates)
        self._shoot_action(choice.action)
        self.say(f"{self.session.actions[-1]['player']} (computer) chose the best of "
                 f"{choice.tried} simulated shots")

    # -- input ---------------------------------------------------------------------------
    def say(self, text: str, bad: bool = False) -> None:
        self.message, self.message_bad = text, bad

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.KEYDOWN:
            self.key(event.key, event.mod)
        elif event.type == pygame.MOUSEMOTION:
            self.motion(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.press(event.pos, event.button)
        elif event.type == pygame.MOUSEBUTTONUP:
            self.release(event.pos, event.button)

    def key(self, key: int, mod: int = 0) -> None:
        ctrl = bool(mod & pygame.KMOD_CTRL)
        if key == pygame.K_F12 or (ctrl and key == pygame.K_p):
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
        elif self.mode == "choice":
            self.choice_key(key)
        elif key == pygame.K_ESCAPE:
            if self.mode in ("call_ball", "call_pocket"):
                self.mode = "aim"
            else:
                self.running = False
        elif key == pygame.K_n and self.mode == "over":
            s = self.session
            self.set_session(new_session(s.game, s.players, s.computer, s.options))
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
            self.mode = "call_ball"
            self.say("Call: click the ball you call")
        elif key == pygame.K_x:
            self.declaration = {}
            self.say("Declarations cleared")
        elif key == pygame.K_k:
            requests = self.session.requests()
            if requests:
                try:
                    self.session.request(next(iter(requests)))
                    self.say(self.session.ruling_text)
                except ValueError as exc:
                    self.say(str(exc), True)
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
        if self.tip_rect.collidepoint(pos) and self.mode == "aim":
            self.drag = "tip"
            self._tip_at(pos)
            return
        if not self._on_table(pos):
            return
        xy = self.view.to_table(*pos)
        if self.mode == "call_ball":
            self._call_ball(xy)
        elif self.mode == "call_pocket":
            self._call_pocket(xy)
        elif self.mode == "aim" and self.session.shooter() not in self.session.computer:
            can_place = self.session.placement() is not None
            grab = self.view.pixels(self.session.radius()) + 4
            if can_place and button == 3:
                self.place(xy)
            elif can_place and button == 1 and math.dist(pos, self.view.to_screen(*self.pos)) \
                    <= grab:
                self.drag, self._place_from = "place", self.pos
            elif button == 1:
                self.drag, self.drag_start, self.power = "power", pos, 0.0

    def release(self, pos: tuple[int, int], button: int) -> None:
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
        """Put the struck piece at xy if the rules allow it; otherwise say why not."""
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
        try:
            self.session.apply(action)
        except (ShotError, LayoutError, SimulationError, ValueError) as exc:
            self.say(f"Refused: {exc}", True)
            return
        assert self.session.last_result is not None
        self.playback = Playback(self.session.last_result)
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
    def preview(self) -> tuple[list[tuple[float, float]], tuple[float, float] | None, str,
                               list[tuple[float, float]]]:
        """The struck piece's path up to its first contact as the real simulator predicts it,
        where it is then, what it touches, and the touched piece's path just after."""
        power = self.power if self.drag == "power" else max(self.power, 0.3)
        key = (self.pos, self.angle, round(power, 2), self.tip, len(self.session.actions))
        if key == self._preview_key:
            return self._preview
        self._preview_key = key
        try:
            result = self.session.simulate(self.current_action(power))
        except (ShotError, LayoutError, SimulationError, ValueError):
            self._preview = ([], None, "", [])
            return self._preview
        struck = self.session.struck_id()
        ids = result.initial.ids()
        k = ids.index(struck)
        hit, t_hit, other = "", result.duration, None
        for e in result.event_log():
            if struck in (e.a, e.b) and e.kind in (EventKind.COLLIDE, EventKind.RAIL,
                                                   EventKind.POCKET, EventKind.PIN):
                t_hit = e.t
                if e.kind == EventKind.COLLIDE:
                    other = e.b if e.a == struck else e.a
                    hit = f"first contact: {other}"
                elif e.kind == EventKind.PIN:
                    other = e.b
                    hit = f"first contact: {e.b}"
                elif e.kind == EventKind.RAIL:
                    hit = f"first contact: {e.feature} rail"
                else:
                    hit = f"into {e.feature}"
                break
        path = [tuple(result.positions_at(t_hit * j / 24)[0][k]) for j in range(25)]
        after: list[tuple[float, float]] = []
        if other is not None and other in ids:
            j = ids.index(other)
            after = [tuple(result.positions_at(t_hit + 0.05 * m)[0][j]) for m in range(12)]
        self._preview = (path, path[-1] if hit else None, hit, after)
        return self._preview

    def render(self) -> None:
        screen = self.screen
        screen.blit(self.background, (0, 0))
        s, view, table = self.session, self.view, self.session.table
        if self.playback is not None and self.mode == "animate":
            pos, on = self.playback.frame()
            draw.draw_pieces(screen, view, table, self.playback.result.initial.pieces,
                             [tuple(p) for p in pos], list(on), self.playback.fallen())
        else:
            if s.placement() is not None and self.mode == "aim":
                draw.draw_strip(screen, view, s.place_area(), (255, 255, 255, 40))
            draw.draw_pieces(screen, view, table, self._resting_pieces())
            if self.mode == "aim" and not s.over():
                self._draw_aim()
        if self.mode == "call_pocket" or self.declaration.get("called_pocket"):
            self._draw_call()
        screen.blit(self.panel.render(self.hud_lines()), self.panel.rect.topleft)
        screen.blit(self.help_panel.render([Line(t, V.DIM, 18) for t in HELP]),
                    self.help_panel.rect.topleft)
        pygame.draw.rect(screen, V.PANEL, self.tools)
        draw.draw_tip_widget(screen, self.tip_rect, self.tip[0], self.tip[1],
                             s.tip_vertical)
        draw.draw_power(screen, self.power_rect, self.power,
                        f"power {self.power * s.max_speed:.1f} m/s")

    def _resting_pieces(self) -> list[Piece]:
        layout = self.session.layout()
        struck = self.session.struck_id()
        if self.mode == "over":
            return list(layout.pieces)
        piece = Piece(struck, "striker" if struck == "striker" else "ball", *self.pos,
                      "" if struck == "striker" else struck)
        return [p for p in layout.pieces if p.id != struck] + [piece]

    def _draw_aim(self) -> None:
        path, ghost, hit, after = self.preview()
        ok = self.session.placement() is None or self.session.check_place(*self.pos) is None
        colour = (250, 250, 250) if ok else V.BAD
        if path:
            draw.draw_path(self.screen, self.view, path, colour)
        else:
            end = (self.pos[0] + 0.4 * math.cos(self.angle),
                   self.pos[1] + 0.4 * math.sin(self.angle))
            draw.draw_path(self.screen, self.view, [self.pos, end], V.BAD)
        if ghost is not None:
            draw.draw_ghost(self.screen, self.view, ghost, self.session.radius())
        if after:
            draw.draw_path(self.screen, self.view, after, V.ACCENT)
        if hit:
            font = self.panel.font(18)
            img = font.render(hit, True, V.TEXT)
            at = self.view.to_screen(*(ghost or path[-1]))
            x = at[0] + 12
            if x + img.get_width() > self.size[0] - PANEL_WIDTH:
                x = at[0] - 12 - img.get_width()
            self.screen.blit(img, (x, at[1] - 18))

    def _draw_call(self) -> None:
        name = self.declaration.get("called_pocket")
        for h in self.session.table.geometry.holes:
            if name is None or h.name == name:
                c = self.view.to_screen(h.x, h.y)
                pygame.draw.circle(self.screen, V.ACCENT, (round(c[0]), round(c[1])),
                                   round(self.view.pixels(h.radius)) + 4, 2)

    def hud_lines(self) -> list[Line]:
        s = self.session
        title = {"novus": "Novus", "novus-doubles": "Novus doubles", "8-ball": "8-ball",
                 "9-ball": "9-ball", "14.1": "14.1 continuous", "5-pins": "5-pins"}[s.game]
        lines = [Line(f"cuesim - {title}", V.ACCENT, 28)]
        if s.over():
            lines.append(Line("MATCH OVER", V.GOOD, 26))
            lines.append(Line("N: new game   U: undo   Esc: quit", V.DIM, 18))
        else:
            who = s.shooter()
            tag = " (computer)" if who in s.computer else ""
            where = s.placement()
            place = {"own_zone": "place the striker in your zone (novus 12)",
                     "kitchen": "ball in hand behind the head string",
                     "table": "ball in hand anywhere",
                     "half_table": "place your ball in the bottom half",
                     "bottom_half": "ball in hand in the bottom half (5-pins 13)",
                     "top_half": "ball in hand in the top half (5-pins 13)"}.get(where or "", "")
            lines.append(Line(f"To play: {who}{tag}", V.TEXT, 24))
            if place:
                lines.append(Line(place, V.DIM, 19))
        lines.append(Line(""))
        lines += [Line(t, V.TEXT, 19) for t in s.scoreboard()]
        lines.append(Line(""))
        if self.mode != "animate" and self.ruling_shown:
            lines.append(Line("Referee:", V.ACCENT, 20))
            lines.append(Line(self.ruling_shown, V.TEXT, 19))
        elif self.mode == "animate" and self.playback is not None:
            pb = self.playback
            state = "paused" if pb.paused else f"x{pb.rate:g}"
            lines.append(Line(f"Shot t = {pb.t:.2f} s ({state})", V.DIM, 19))
        decl = self._declaration_text()
        if decl:
            lines.append(Line(decl, V.ACCENT, 19))
        if self.mode != "animate" and not s.over():
            lines += [Line(label, V.DIM, 18) for label in s.requests().values()]
        if self.mode == "choice":
            pending = s.pending()
            if pending is not None:
                lines.append(Line(f"{pending[0]} chooses ({pending[1]}):", V.ACCENT, 20))
                lines += [Line(f"  {k + 1}: {opt}", V.TEXT, 20)
                          for k, opt in enumerate(pending[2])]
        if self.mode == "menu":
            lines += self._menu_lines()
        if self.message:
            lines.append(Line(self.message, V.BAD if self.message_bad else V.GOOD, 19))
        return lines

    def _declaration_text(self) -> str:
        d = self.declaration
        parts = []
        if d.get("called_ball"):
            parts.append(f"call: {d['called_ball']} in {d.get('called_pocket', '?')}")
        if d.get("safety"):
            parts.append("safety")
        if d.get("push_out"):
            parts.append("push-out")
        return "Declared: " + ", ".join(parts) if parts else ""

    def _menu_lines(self) -> list[Line]:
        codes = self.session.infraction_codes()
        names = list(codes)
        first = max(0, min(self.menu_index - MENU_PAGE // 2, len(names) - MENU_PAGE))
        out = [Line("Referee: declare an infraction", V.ACCENT, 20),
               Line("Up/Down, Enter: in the last shot, N: now, O: by the opponent, Esc",
                    V.DIM, 17)]
        for k in range(first, min(len(names), first + MENU_PAGE)):
            mark = ">" if k == self.menu_index else " "
            colour = V.ACCENT if k == self.menu_index else V.TEXT
            out.append(Line(f"{mark} {names[k]}: {codes[names[k]]}", colour, 17))
        return out

    def screen_text(self) -> str:
        """Everything the panel says now, joined (tests read the screen through it)."""
        return "\n".join(self.panel.text_lines(self.hud_lines()))

