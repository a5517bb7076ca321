"""Drive the viewer like a person: post pygame mouse and keyboard events into the queue and
step the app's loop with a fake clock."""

from __future__ import annotations

import math
from collections.abc import Callable

import pygame

from cuesim.viewer import ai
from cuesim.viewer.app import App
from cuesim.viewer.input import POWER_DRAG_PX
from cuesim.viewer.session import new_session


def make_app(game: str, tmp_path, computer: tuple[str, ...] = (), candidates: int = 40,
             **options) -> App:
    session = new_session(game, computer=computer, options=options or None)
    return App(session, candidates=candidates, save_path=tmp_path / "save.json",
               screenshot_dir=tmp_path)


def step(app: App, events: list[pygame.event.Event] = (), dt: float = 0.0) -> None:
    """Post the events into pygame's queue, then run one loop step with a fake dt."""
    for e in events:
        pygame.event.post(e)
    app.step(pygame.event.get(), dt)


def key(k: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def move(pos: tuple[float, float]) -> pygame.event.Event:
    p = (round(pos[0]), round(pos[1]))
    # a hand's move: SDL's own motion with rel (0, 0) (a window opening under a still
    # pointer) does not aim
    return pygame.event.Event(pygame.MOUSEMOTION, pos=p, rel=(1, 1), buttons=(0, 0, 0))


def down(pos: tuple[float, float], button: int = 1) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(round(pos[0]), round(pos[1])),
                              button=button)


def up(pos: tuple[float, float], button: int = 1) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(round(pos[0]), round(pos[1])),
                              button=button)


def screen_xy(app: App, x: float, y: float) -> tuple[float, float]:
    return app.view.to_screen(x, y)


def aim_point(app: App, angle: float) -> tuple[int, int]:
    """The farthest pixel along the aim ray still inside the table area (small angle error)."""
    sx, sy = app.view.to_screen(*app.pos)
    tx, ty = app.view.to_screen(app.pos[0] + math.cos(angle), app.pos[1] + math.sin(angle))
    dx, dy = tx - sx, ty - sy
    n = math.hypot(dx, dy)
    dx, dy = dx / n, dy / n
    w, h = app.screen_layout.panel.left - 1, app.size[1] - 1
    best = (round(sx + dx * 60), round(sy + dy * 60))
    for d in range(60, 1500, 5):
        x, y = sx + dx * d, sy + dy * d
        if not (0 <= x <= w and 0 <= y <= h):
            break
        best = (round(x), round(y))
    return best


def shoot_by_mouse(app: App, angle: float, speed: float, placed: tuple[float, float] | None
                   = None) -> None:
    """Place (right-click) if asked, aim with the mouse, drag for the power and release."""
    if placed is not None and app.session.placement() is not None:
        step(app, [down(screen_xy(app, *placed), 3), up(screen_xy(app, *placed), 3)])
    target = aim_point(app, angle)
    step(app, [move(target)])
    pull = speed / app.session.max_speed * POWER_DRAG_PX
    w = app.screen_layout.panel.left - 1
    end_x = target[0] - pull if target[0] - pull >= 0 else target[0] + pull
    if end_x > w:
        end_x, end_y = target[0], target[1] - pull if target[1] - pull >= 0 else target[1] + pull
    else:
        end_y = target[1]
    step(app, [down(target), move((end_x, end_y)), up((end_x, end_y))])


def finish_animation(app: App, dt: float = 0.5, limit: int = 400) -> None:
    for _ in range(limit):
        if app.mode != "animate":
            return
        step(app, dt=dt)
    raise AssertionError("the animation did not end")


def play_turn(app: App, candidates: int = 40,
              during: Callable[[App], None] | None = None) -> None:
    """One turn as a person would play it: answer a choice with a number key, or pick a shot
    (the computer player's choice, as a stand-in for a human's judgement) and play it with
    the mouse; then watch the animation to its end (`during(app)` called once mid-shot)."""
    s = app.session
    pending = s.pending()
    if pending is not None:
        option = ai.choose_option(s)
        step(app, [key(pygame.K_1 + pending[2].index(option))])
        return
    choice = ai.choose_shot(s, n=candidates)
    call = choice.action.get("declaration", {})
    if call.get("called_ball"):
        ball = s.layout().get(call["called_ball"])
        pocket = next(h for h in s.table.geometry.holes if h.name == call["called_pocket"])
        step(app, [key(pygame.K_c), down(screen_xy(app, ball.x, ball.y)),
                   up(screen_xy(app, ball.x, ball.y)), down(screen_xy(app, pocket.x, pocket.y)),
                   up(screen_xy(app, pocket.x, pocket.y))])
    shoot_by_mouse(app, choice.action["angle"], choice.action["speed"],
                   (choice.action["x"], choice.action["y"]))
    if during is not None and app.mode == "animate":
        step(app, dt=0.05)
        if app.mode == "animate":
            during(app)
    finish_animation(app)
