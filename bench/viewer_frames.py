"""Frame time of the pygame viewer: a full novus doubles layout (33 discs) and a 15-ball rack
(8-ball), each drawn at rest with the aim line (the shot preview cached, as while the mouse is
still) and during a shot's animation (positions from `positions_at` at each frame's time).

    python bench/viewer_frames.py            # 300 frames per case
    python bench/viewer_frames.py --frames 60

Runs headless (SDL_VIDEODRIVER=dummy unless a display driver is set); the figure is the time
to build one frame in the window's surface, without the display flip (which a real display
adds, usually vsync-bound).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from cuesim.commands import positive_int  # noqa: E402
from cuesim.viewer.anim import Playback  # noqa: E402
from cuesim.viewer.app import App  # noqa: E402
from cuesim.viewer.session import new_session  # noqa: E402


def frame_times(app: App, frames: int, animate: bool) -> list[float]:
    if animate:
        s = app.session
        result = s.simulate(s.shot_action(app.pos, app.angle, 0.8 * s.max_speed))
        app.playback = Playback(result)
        app.mode = "animate"
        dt = result.duration / frames
    out = []
    for _ in range(frames):
        t0 = time.perf_counter()
        if animate:
            app.playback.advance(dt)
        app.render()
        out.append((time.perf_counter() - t0) * 1000.0)
    if animate:
        app.mode = "aim"
    return out


def opening_app(game: str) -> App:
    """The viewer at a game's opening, aimed (8-ball: at the 1 ball), its first frame drawn
    (sprites, fonts and the shot preview are built on the first frame)."""
    app = App(new_session(game))
    if game == "8-ball":
        app.angle = math.atan2(app.session.layout().get("1").y - app.pos[1],
                               app.session.layout().get("1").x - app.pos[0])
    app.render()
    return app


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=positive_int, default=300)
    args = parser.parse_args(argv)
    print(f"{'case':48s} {'median ms':>10s} {'p95 ms':>8s} {'max fps':>8s}")
    for game, label in (("novus-doubles", "novus doubles, 33 discs"),
                        ("8-ball", "8-ball, 15-ball rack + cue")):
        app = opening_app(game)
        for animate, what in ((False, "at rest, aim line"), (True, "animating a shot")):
            ms = frame_times(app, args.frames, animate)
            med = statistics.median(ms)
            p95 = sorted(ms)[int(0.95 * (len(ms) - 1))]
            print(f"{label + ', ' + what:48s} {med:10.2f} {p95:8.2f} {1000 / med:8.0f}")


if __name__ == "__main__":
    main()
