"""Draw the README's screenshots of the viewer, headless (SDL's dummy video driver), at the
default window size:

    python docs/screenshots/make_screenshots.py [OUT_DIR]      # default: this folder

9-ball.png (the opening aim and its predicted first contact), 8-ball.png (the break in
motion: the panel tells only what has happened so far), 14.1.png (a called shot after the
break), novus.png (the opening aim), novus-doubles.png (a game under way), 5-pins.png (the
end of a shot with the pins down where the physics threw them) and end-of-match.png (the final
board and the score sheet of a 9-ball race to 2) and computer-aim.png (the computer's turn in
14.1: after thinking it shows its aim line, its called ball and pocket, the tip and its
power before it shoots). The computer player's choices stand in for a
person's, so the pictures are the same on every run.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

HERE = Path(__file__).resolve().parent
CANDIDATES = 40  # shots the computer player weighs per turn here (enough for a good game)
MAX_TURNS = 120  # a match that has not ended by then is a bug in the game, not a picture


_SCRATCH: list[Path] = []  # the apps' save and screenshot folders, removed at the end


def _scratch() -> Path:
    made = Path(tempfile.mkdtemp(prefix="cuesim-shots-"))
    _SCRATCH.append(made)
    return made


def _app(game: str, **options: object):  # noqa: ANN202 (pygame is imported late)
    from cuesim.viewer.app import App
    from cuesim.viewer.session import new_session

    tmp = _scratch()
    return App(new_session(game, options=dict(options) or None), candidates=CANDIDATES,
               save_path=tmp / "save.json", screenshot_dir=tmp)


def _turn(app, watch: bool = True) -> None:  # noqa: ANN001
    """The computer player's choice for whoever is to play, then the animation to its end."""
    from cuesim.viewer import ai

    s = app.session
    if s.pending() is not None:
        s.choose(ai.choose_option(s))
        app.ruling_shown = s.ruling_text
        app._reset_turn()
        return
    choice = ai.choose_shot(s, n=CANDIDATES)
    app.declaration = dict(choice.action.get("declaration") or {})
    app._shoot_action(choice.action)
    if watch:
        while app.mode == "animate":
            app.step([], 0.5)


def main(argv: list[str] | None = None) -> list[Path]:
    """Draw every picture into the folder given (default: this one); returns their paths."""
    try:
        return _draw(argv)
    finally:
        while _SCRATCH:
            shutil.rmtree(_SCRATCH.pop(), ignore_errors=True)


def _draw(argv: list[str] | None) -> list[Path]:
    import pygame

    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else HERE
    out.mkdir(parents=True, exist_ok=True)
    saved = []

    def shot(app, name: str) -> None:  # noqa: ANN001
        app.step([], 0.0)
        saved.append(app.screenshot(out / name))

    shot(_app("9-ball"), "9-ball.png")

    app = _app("8-ball")  # the break, 0.3 s in
    _turn(app, watch=False)
    app.step([], 0.3)
    shot(app, "8-ball.png")

    app = _app("14.1", points_to=25)
    _turn(app)
    while app.mode in ("choice",):
        _turn(app)
    layout = app.session.layout()
    ball = next(p for p in layout.pieces if p.id != "cue")
    hole = min(app.session.table.geometry.holes,
               key=lambda h: (h.x - ball.x) ** 2 + (h.y - ball.y) ** 2)
    app.declaration = {"called_ball": ball.id, "called_pocket": hole.name}
    shot(app, "14.1.png")

    shot(_app("novus"), "novus.png")

    app = _app("novus-doubles")
    for _ in range(3):
        _turn(app)
    shot(app, "novus-doubles.png")

    app = _app("5-pins")  # the end of a shot that knocked pins, lying where they fell
    for _ in range(MAX_TURNS):
        _turn(app, watch=False)
        pb = app.playback
        if pb is not None and app.mode == "animate":
            pb.t = pb.result.duration
            if pb.fallen():
                break
        while app.mode == "animate":
            app.step([], 0.5)
    shot(app, "5-pins.png")

    app = _app("9-ball", race_to=2)
    for _ in range(MAX_TURNS):
        if app.session.over():
            break
        _turn(app)
        if app.mode == "intermission":
            app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0)], 0.0)
    if not app.session.over():
        raise RuntimeError(f"the 9-ball match did not end in {MAX_TURNS} turns")
    shot(app, "end-of-match.png")

    from cuesim.viewer.app import App
    from cuesim.viewer.session import new_session

    tmp = _scratch()
    app = App(new_session("14.1", ["You", "Computer"], ("Computer",), {"points_to": 25}),
              candidates=CANDIDATES, save_path=tmp / "save.json", screenshot_dir=tmp,
              level="strong")
    _turn(app)  # "You" break (the computer player's choice stands in)
    for _ in range(100000):  # the computer thinks over frames, then shows its shot
        turn = app.ai_turn
        if turn is not None and not app.thinking and turn.shown >= 0.5:
            break
        app.step([], 1 / 60)
    shot(app, "computer-aim.png")
    pygame.quit()
    for path in saved:
        print(f"saved {path}")
    return saved


if __name__ == "__main__":
    main()
