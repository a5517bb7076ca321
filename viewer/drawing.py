"""The viewer's drawing: the table, the pieces, the aim line with its predicted first contact,
the panel's text, the menus and the end screens (`Drawing`, a part of `viewer.app.App`)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import pygame

from cuesim.tables.balls import CUE_END_MASS
from cuesim.tables.carom import pin_spots
from cuesim.tables.contact import IMPACT_STEPS
from cuesim.tables.layout import Layout, Piece
from cuesim.viewer import draw, panel_text, scoresheet
from cuesim.viewer import view as V
from cuesim.viewer.aim import Prediction, label_place, predict
from cuesim.viewer.hud import Line
from cuesim.viewer.session import SESSION_GAMES, Session

PATH_STEP_PX = 6.0  # px between the points of the aim lines a contact label keeps off


def board_of(table: str, pieces: Sequence[Piece], positions: Sequence[Sequence[float]],
             on: Sequence[bool]) -> Layout:
    """The pieces on the table (`on`) at their positions, as a layout (for the scoreboard's
    counts of a board drawn mid-shot or at the end of a set)."""
    return Layout(table, tuple(Piece(p.id, p.kind, float(xy[0]), float(xy[1]), p.group)
                               for p, xy, o in zip(pieces, positions, on, strict=True) if o))


class Drawing:
    """The drawing half of App: every method here reads App's state and draws it."""

    def preview(self) -> Prediction:
        """The struck piece's path up to its first contact as the real simulator predicts it,
        where it is then, what it touches, the touched piece's path just after, and the
        ruling the referee would give the shot (aim.predict). At the power shown while it is
        dragged and on the computer's turn (the shot it plays); a person's line before the drag
        sets the power is a hint, at least 30 % of the full power."""
        shown = self.drag == "power" or self.session.shooter() in self.session.computer
        power = self.power if shown else max(self.power, 0.3)
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
        if self.mode not in ("intermission", "over", "pick_game") or self.end_board is None:
            return None
        shot = self.end_board_shot
        if shot is None or (self.playback is not None and self.playback.result is shot
                            and self.session.last_result is shot):
            return self.end_board
        return None

    def end_keys(self) -> list[str]:
        """What the end screen's keys do."""
        replay = ["R: replay the last shot."] if self.end_board_shot is not None else []
        if self.mode == "intermission":
            return [f"Enter: play the next {self.session.unit}.", *replay, "U: undo."]
        if self.mode == "pick_game":
            return [f"{k + 1}: {panel_text.TITLES[g]}" for k, g in enumerate(SESSION_GAMES)] \
                + ["Esc: back."]
        return ["Enter: rematch (the other side opens).", "N: a new game.", *replay, "U: undo.",
                "Esc: quit."]

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
                              points, self.view.surface_rect(self.view.margin),
                              self.view.surface_rect())

    def _resting_pieces(self) -> list[Piece]:
        layout = self.session.layout()
        struck = self.session.struck_id()
        if self.mode == "over" or (self.session.pending() is not None
                                   and struck not in layout.ids()):
            return list(layout.pieces)  # (a choice pending: nobody has the piece in hand yet)
        piece = Piece(struck, "striker" if struck == "striker" else "ball", *self.pos,
                      "" if struck == "striker" else struck)
        return [p for p in layout.pieces if p.id != struck] + [piece]

    def _draw_aim(self) -> None:
        """The aim line to the predicted first contact (red for a foul); none while the
        computer thinks (its chosen aim is drawn once it has chosen)."""
        if self.thinking:
            return
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
            self._draw_label(panel_text.on_screen(pred.hit.rstrip("."), self.screen_sides()),
                             pred.ghost or pred.path[-1],
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
        for line in (pred.path, pred.after):  # each drawn line, every few pixels along it
            pts = [self.view.to_screen(x, y) for x, y in line]
            for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
                n = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / PATH_STEP_PX))
                circles += [(x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n, 2.0)
                            for k in range(n)]
            circles += [(x, y, 2.0) for x, y in pts[-1:]]
        bounds = self.screen_layout.table
        x, y = label_place(img.get_size(), at, circles, bounds)
        self.contact_label_rect = pygame.Rect(x, y, *img.get_size())  # (tests read it)
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

    def screen_sides(self) -> dict[str, str]:
        """5-pins: the screen's word for each side word of the table's frame, in which its pins
        and rails are named (tables.carom.pin_spots: 'pin_bottom' lies at -y), as this window
        draws the table; other games: none (pool's rails are named by the head and foot,
        novus's by the compass)."""
        if self.session.game != "5-pins":
            return {}
        spots = pin_spots()
        cx, cy = spots.pop("pin_centre")
        return {pid.removeprefix("pin_"): self.view.screen_side(x - cx, y - cy)
                for pid, (x, y) in spots.items()}

    def hud_lines(self) -> list[Line]:
        """The panel's lines now (panel_text says what they say), pins and rails named by
        where they are on the screen (screen_sides)."""
        sides = self.screen_sides()
        return [dataclasses.replace(
            line, text=panel_text.addressed(panel_text.on_screen(line.text, sides)))
            for line in self._panel_lines()]

    def _panel_lines(self) -> list[Line]:
        s = self.session
        lines = [Line(f"cuesim: {panel_text.TITLES[s.game]}", V.ACCENT, 28)]
        steps = s.options.get("impact_steps")
        if steps is not None:  # `cuesim play --impact-steps`: not the default physics
            lines.append(Line(f"Multiple impact at {steps:g} steps (default "
                              f"{IMPACT_STEPS:g})", V.DIM, 17))
        physics = s.options.get("physics")
        if physics:  # `cuesim play --physics`: not the default coefficients
            lines.append(Line("Physics: " + ", ".join(f"{k} {v:g}" for k, v in physics.items()),
                              V.DIM, 17))
        end_mass = s.options.get("end_mass")
        if end_mass is not None:  # `cuesim play --end-mass`: not a standard shaft
            squirt = ("no squirt" if end_mass == 0 else "less squirt" if end_mass < CUE_END_MASS
                      else "more squirt" if end_mass > CUE_END_MASS else "standard squirt")
            lines.append(Line(f"Cue end mass {end_mass * 1000:g} g (standard "
                              f"{CUE_END_MASS * 1000:g} g): {squirt}", V.DIM, 17))
        animating = self.mode == "animate" and self.playback is not None
        shown = self.before if animating and self.before is not None else s
        score: list[Line] = []
        if self.mode in ("intermission", "over", "pick_game"):
            lines += self._end_lines()
        elif animating:
            lines += self._shot_lines(shown)
        else:
            who = s.shooter()
            lines.append(Line(panel_text.to_play_line(who, who in s.computer), V.TEXT, 24))
            place = s.place_line()
            if place:
                lines.append(Line(place, V.DIM, 19))
            lines.append(Line(""))
            score = [Line(t, V.TEXT, 19) for t in s.scoreboard()]
            lines += score
        if self.mode == "menu":
            return self._fit_menu(lines)
        lines.append(Line(""))
        if not animating and self.ruling_shown:
            lines.append(Line("Referee:", V.ACCENT, 20))
            lines.append(Line(self.ruling_shown, V.TEXT, 19))
        replay = animating and self.before is None  # R: the last shot again, ruled later
        kept = self.kept_ruling if not replay and (
            self.kept_ruling != self.ruling_shown or animating) else ""
        before_that: list[Line] = []
        if kept:  # the computer's turn runs: the ruling on the action before it stays readable
            before_that = [Line("Referee, before this shot:" if animating else "Before that:",
                                V.ACCENT, 20 if animating else 18), Line(kept, V.TEXT, 19)]
            lines += before_that
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
        if self.confirm_quit is not None and self.quit_question != self.message:
            lines.append(Line(self.quit_question, V.BAD, 19))  # until it is answered
        return self._fit_panel(lines, [score, before_that])

    def _fit_panel(self, lines: list[Line], droppable: list[list[Line]]) -> list[Line]:
        """The lines, less what the panel has no room for: the scoreboard first, then the
        ruling kept from before the computer's turn, so that the latest ruling and what to do
        now are never cut off at the panel's foot (a small window)."""
        budget = self.panel.rect.height - 8
        for group in droppable:
            if self.panel.height(lines) <= budget:
                break
            lines = [line for line in lines if not any(line is g for g in group)]
        return lines

    def _shot_lines(self, shown: Session) -> list[Line]:
        """While a shot is shown: the game as it was before it, with the pieces still on the
        table and what has dropped so far; nothing that happens later."""
        pb = self.playback
        assert pb is not None
        replay = self.before is None
        pos, on = pb.frame()
        pieces = pb.result.initial.pieces
        board = board_of(pb.result.initial.table, pieces, pos, on)
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
        """The end of a set, game or match: the title and the scoreboard, its counts of the
        pieces on the board drawn (the final board of what ended, not the next one's start)."""
        s = self.session
        end = self._end_board()
        drawn = None if end is None else board_of(s.layout().table, end[0], end[1], end[2])
        board = s.scoreboard(drawn)
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
        # room kept for the line that says how many more entries the list scrolls to
        note = [Line(f"{len(names)} more above, {len(names)} more below.", V.DIM, 17)]
        grew = True
        while grew:  # widen the window around the selected entry while it fits
            grew = False
            for k in (shown[-1] + 1, shown[0] - 1) if shown else ():
                if 0 <= k < len(names):
                    trial = sorted([*shown, k])
                    rest = [] if len(trial) == len(names) else note
                    if self.panel.height(base + [entry(j) for j in trial] + rest + tail) \
                            <= budget:
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
        return [panel_text.addressed(t) for t in scoresheet.sheet_lines(self.session)] \
            + self.end_keys()

    def screen_text(self) -> str:
        """Everything the panel (and the score sheet, when shown) says now, joined (tests read
        the screen through it)."""
        return "\n".join(self.panel.text_lines(self.hud_lines()) + self.sheet_text())
