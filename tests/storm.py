"""A seeded storm of random mouse and key input for the viewer, driven through `App.step` with a
fake clock, and the checks that make it a test: no exception, no dead end (a state from which
no input can ever lead to a shot), no unplayable state (overlapping pieces, a piece off the
table), input in one mode never acting in another, ball in hand only for the player who has it.

`storm(game, ...)` returns a `StormReport`; the suite (tests/test_viewer_storm.py) runs short
storms, and `python -m tests.storm --events 36000` runs a big one and prints what it found.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pygame

from cuesim.shot import ShotError
from cuesim.sim.engine import SimulationError
from cuesim.tables.layout import Layout, LayoutError
from cuesim.viewer.app import PANEL_WIDTH, App
from cuesim.viewer.savefile import SaveFileError
from cuesim.viewer.session import COMPUTER, Session, load_session, new_session

GAMES = ("novus", "novus-doubles", "8-ball", "9-ball", "14.1", "5-pins")

KEYS = (pygame.K_c, pygame.K_x, pygame.K_f, pygame.K_r, pygame.K_u, pygame.K_k, pygame.K_s,
        pygame.K_p, pygame.K_m, pygame.K_SPACE, pygame.K_RETURN, pygame.K_TAB,
        pygame.K_ESCAPE, pygame.K_y, pygame.K_n, pygame.K_o, pygame.K_1, pygame.K_2,
        pygame.K_3, pygame.K_4, pygame.K_UP, pygame.K_DOWN, pygame.K_LEFT, pygame.K_RIGHT,
        pygame.K_F5, pygame.K_F9, pygame.K_a)
DTS = (0.0, 0.016, 0.05, 0.2, 1.0, 3.0)
PROBE_EVERY = 250  # events between two dead-end probes
# frames in a row with the computer to play, aiming, and no action: it is stuck (it may think
# and show its aim over several frames, but not over this many)
STALL_FRAMES = 400
SAVE_PROBE_EVERY = 4  # probes between two save-and-load round trips (and one at a match's end)


class StormFailure(AssertionError):
    """A finding of the storm: what broke, the game, the seed and the event number."""


@dataclass
class StormReport:
    game: str
    computer: tuple[str, ...]
    seed: int
    events: int = 0
    shots: int = 0
    human_shots: int = 0
    computer_shots: int = 0
    matches_over: int = 0
    quits: int = 0
    modes: dict[str, int] = field(default_factory=dict)
    findings: list[str] = field(default_factory=list)

    def line(self) -> str:
        who = "vs computer" if self.computer else "two people"
        modes = " ".join(f"{k}:{v}" for k, v in sorted(self.modes.items()))
        return (f"{self.game:14s} {who:11s} seed {self.seed}: {self.events} events, "
                f"{self.shots} shots ({self.human_shots} human, {self.computer_shots} "
                f"computer), {self.matches_over} matches over, {self.quits} quits; modes "
                f"{modes}; findings {len(self.findings)}")


def _players(game: str, vs_computer: bool) -> tuple[list[str] | None, tuple[str, ...]]:
    if not vs_computer:
        return None, ()
    if game == "novus-doubles":
        return ["You", "Partner", COMPUTER, COMPUTER + " 2"], (COMPUTER, COMPUTER + " 2")
    return ["You", COMPUTER], (COMPUTER,)


def playable_check(session: Session) -> str | None:
    """Why the table as it stands cannot be played on (overlapping pieces, a piece off the
    table or over a hole), or None. The pins a finished 5-pins match's last shot knocked down
    lie where they fell, out of play (`Session.fallen_pins`): each must lie on the bed, and
    may share its place with another piece."""
    fallen = session.fallen_pins()
    try:
        for pid in fallen:
            session.table.check_layout(Layout(session.layout().table,
                                              (session.layout().get(pid),)))
        session.table.check_layout(session.layout().without(fallen))
    except LayoutError as exc:
        return f"unplayable layout: {exc}"
    return None


def some_shot_accepted(session: Session, directions: int = 24) -> bool:
    """True when at least one plain shot (a fan of directions at half speed from where the
    struck piece stands or may be placed) is accepted by the session; the game is unchanged."""
    spots = [session.struck_position()]
    if session.placement() is not None:
        spots.append(session.default_place())
    for pos in spots:
        for k in range(directions):
            action = session.shot_action(pos, 2 * math.pi * k / directions,
                                         0.5 * session.max_speed)
            try:
                session.trial(action)
            except (ShotError, LayoutError, SimulationError, ValueError):
                continue
            return True
    return False


class Storm:
    """One storm: an App, a random generator and the running checks."""

    def __init__(self, game: str, vs_computer: bool, seed: int, folder: Path,
                 candidates: int = 4) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.folder = folder
        self.candidates = candidates
        players, computer = _players(game, vs_computer)
        self.players, self.computer = players, computer
        self.report = StormReport(game, computer, seed)
        self.app = self._app(new_session(game, players, computer))
        self.k = 0
        self.probes = 0
        self.stalled = 0

    def _app(self, session: Session) -> App:
        app = App(session, candidates=self.candidates, save_path=self.folder / "save.json",
                  screenshot_dir=self.folder)
        handle = app.handle

        def checked_handle(event: pygame.event.Event) -> None:
            self._before_event(app)
            handle(event)
            self._after_event(app, event)

        app.handle = checked_handle  # type: ignore[method-assign]
        return app

    # -- checks --------------------------------------------------------------------------
    def fail(self, what: str) -> None:
        raise StormFailure(f"{self.game} {'vs computer' if self.computer else 'two people'} "
                           f"seed {self.report.seed}, event {self.k}: {what}")

    def _before_event(self, app: App) -> None:
        s = app.session
        self._mode = app.mode
        self._n = len(s.actions)
        self._session = s
        self._placement = s.placement()
        struck = s.struck_id()
        layout = s.layout()
        self._struck_at = (layout.get(struck).x, layout.get(struck).y) \
            if struck in layout.ids() else None

    def _after_event(self, app: App, event: pygame.event.Event) -> None:
        s = app.session
        if s is not self._session or len(s.actions) <= self._n:
            return
        action = s.actions[-1]
        if action["kind"] != "shot" or len(s.actions) != self._n + 1:
            return
        if action["player"] in s.computer:
            return  # the computer plays in update(), not on input
        if self._mode != "aim":
            self.fail(f"a shot was played by input ({pygame.event.event_name(event.type)}) "
                      f"begun in mode {self._mode!r}")
        if self._placement is None and self._struck_at is not None and math.dist(
                (action["x"], action["y"]), self._struck_at) > 1e-9:
            self.fail(f"{action['player']} played the {s.struck_id()} from ({action['x']:.4f}, "
                      f"{action['y']:.4f}), not where it lies {self._struck_at}: no ball in "
                      "hand")

    def check_state(self) -> None:
        app, s = self.app, self.app.session
        why = playable_check(s)
        if why:
            self.fail(why)
        if app.mode == "animate" and app.playback is None:
            self.fail("animating with nothing to play back: the game is stuck")
        if app.mode == "choice" and (s.pending() is None or not s.pending()[2]):
            self.fail("a choice with no options pending: the game is stuck")

    def probe(self) -> None:
        """A dead end: it is somebody's turn to shoot and no shot at all is accepted. And, every
        SAVE_PROBE_EVERY-th probe (and at each match's end, in `run`), a game that cannot be
        saved and loaded again as it is."""
        app, s = self.app, self.app.session
        self.probes += 1
        if self.probes % SAVE_PROBE_EVERY == 0:
            self.save_and_load()
        if s.over() or app.mode not in ("aim", "call_ball", "call_pocket", "menu"):
            return
        if s.pending() is not None:
            return
        if not some_shot_accepted(s):
            self.fail(f"dead end: no shot is accepted for {s.shooter()} ({app.message!r})")

    def save_and_load(self) -> None:
        s = self.app.session
        path = self.folder / "probe-save.json"
        s.save(path)
        try:
            again = load_session(path)
        except SaveFileError as exc:
            self.fail(f"the game as saved cannot be loaded again: {exc}")
        if again.layout() != s.layout() or again.over() != s.over() or \
                again.shooter() != s.shooter():
            self.fail("the game loaded again is not the game that was saved")

    # -- input ---------------------------------------------------------------------------
    def point(self) -> tuple[int, int]:
        app, rng = self.app, self.rng
        w, h = app.size
        r = rng.random()
        if r < 0.45:
            return rng.randrange(0, w - PANEL_WIDTH), rng.randrange(0, h)
        if r < 0.62:  # on or near the struck piece
            x, y = app.view.to_screen(*app.pos)
            return round(x + rng.gauss(0, 4)), round(y + rng.gauss(0, 4))
        if r < 0.80:
            pieces = app.session.layout().pieces
            if pieces:
                p = rng.choice(pieces)
                x, y = app.view.to_screen(p.x, p.y)
                return round(x), round(y)
        if r < 0.85:
            holes = app.session.table.geometry.holes
            if holes:
                hole = rng.choice(holes)
                x, y = app.view.to_screen(hole.x, hole.y)
                return round(x), round(y)
        if r < 0.92:
            c = app.tip_rect
            return rng.randrange(c.left, c.right), rng.randrange(c.top, c.bottom)
        return rng.randrange(0, w), rng.randrange(0, h)

    def events(self) -> list[pygame.event.Event]:
        rng = self.rng
        r = rng.random()
        if r < 0.28:
            still = rng.random() < 0.1  # SDL's motion of a window opening under the pointer
            return [pygame.event.Event(pygame.MOUSEMOTION, pos=self.point(),
                                       rel=(0, 0) if still else (1, 1), buttons=(0, 0, 0))]
        if r < 0.42:
            button = rng.choice((1, 1, 1, 3, 3, 2))
            return [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=self.point(), button=button)]
        if r < 0.54:
            button = rng.choice((1, 1, 1, 3))
            return [pygame.event.Event(pygame.MOUSEBUTTONUP, pos=self.point(), button=button)]
        if r < 0.68:  # a whole drag: aim, pull, release (the way shots are played)
            start = self.point()
            out = [pygame.event.Event(pygame.MOUSEMOTION, pos=start, rel=(1, 1),
                                      buttons=(0, 0, 0)),
                   pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1)]
            end = start
            for _ in range(rng.randrange(1, 4)):
                end = (start[0] + round(rng.gauss(0, 90)), start[1] + round(rng.gauss(0, 90)))
                out.append(pygame.event.Event(pygame.MOUSEMOTION, pos=end, rel=(1, 1),
                                              buttons=(1, 0, 0)))
            if rng.random() < 0.15:  # a key in the middle of the drag
                out.append(self.key_event())
            out.append(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
            return out
        if r < 0.9995:
            return [self.key_event()]
        return [pygame.event.Event(pygame.QUIT)]

    def key_event(self) -> pygame.event.Event:
        k = self.rng.choice(KEYS)
        mod = pygame.KMOD_CTRL if self.rng.random() < 0.03 else 0
        return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)

    # -- the run ---------------------------------------------------------------------------
    def restart_after_quit(self) -> None:
        """The user quit: the game must have been saved (when anything was played); start
        again from the save, as a person reopening it would."""
        self.report.quits += 1
        s = self.app.session
        save = self.folder / "save.json"
        if s.actions:
            if not save.exists():
                self.fail("quit without saving the game")
            loaded = load_session(save)
            if loaded.actions != s.actions:
                self.fail("the game saved on quitting is not the game that was played")
            self.app = self._app(loaded)
        else:
            self.app = self._app(new_session(self.game, self.players, self.computer))

    def run(self, n_events: int) -> StormReport:
        rep = self.report
        next_probe = PROBE_EVERY
        while self.k < n_events:
            # a frame's worth of input: one to six gestures (a real frame often has several)
            batch = [e for _ in range(self.rng.randint(1, 6)) for e in self.events()]
            self.k += len(batch)
            app = self.app
            n_before = len(app.session.actions)
            computer_turn = (app.mode == "aim" and not app.session.over()
                             and app.session.shooter() in app.session.computer)
            for e in batch:
                pygame.event.post(e)
            app.step(pygame.event.get(), self.rng.choice(DTS))
            s = app.session
            rep.modes[app.mode] = rep.modes.get(app.mode, 0) + 1
            for a in s.actions[n_before:]:
                if a["kind"] == "shot":
                    rep.shots += 1
                    if a["player"] in s.computer:
                        rep.computer_shots += 1
                    else:
                        rep.human_shots += 1
            if computer_turn and app.session is s and len(s.actions) == n_before and \
                    app.mode == "aim" and s.shooter() in s.computer and not s.over():
                self.stalled += 1
                if self.stalled >= STALL_FRAMES:
                    self.fail(f"dead end: the computer ({s.shooter()}) has not played in "
                              f"{STALL_FRAMES} frames ({app.message!r})")
            else:
                self.stalled = 0
            self.check_state()
            if s.over() and app.mode == "over":
                rep.matches_over += 1
                self.save_and_load()  # the finished match, as a player would keep it
                # a rematch (Enter), as players at the end of a match would start one
                app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0,
                                             unicode="", scancode=0)], 0.0)
            if not app.running:
                self.restart_after_quit()
            if self.k >= next_probe:
                next_probe += PROBE_EVERY
                self.probe()
        self.probe()
        rep.events = self.k
        return rep


def storm(game: str, vs_computer: bool, seed: int, n_events: int, folder: Path,
          candidates: int = 4) -> StormReport:
    """Run one storm; raises StormFailure on the first finding."""
    return Storm(game, vs_computer, seed, folder, candidates).run(n_events)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=36000, help="events in all")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1])
    parser.add_argument("--games", nargs="+", default=list(GAMES))
    parser.add_argument("--candidates", type=int, default=4)
    args = parser.parse_args(argv)
    runs = [(g, c, s) for g in args.games for c in (False, True) for s in args.seeds]
    per = max(1, args.events // len(runs))
    failures = 0
    for game, vs, seed in runs:
        t0 = time.perf_counter()
        with tempfile.TemporaryDirectory() as tmp:
            st = Storm(game, vs, seed, Path(tmp), args.candidates)
            try:
                rep = st.run(per)
                print(f"{rep.line()} [{time.perf_counter() - t0:.0f} s]", flush=True)
            except StormFailure as exc:
                failures += 1
                print(f"FINDING: {exc}\n  {st.report.line()}", flush=True)
            except Exception as exc:  # noqa: BLE001 - a crash is a finding too
                failures += 1
                import traceback

                print(f"CRASH: {game} vs_computer={vs} seed {seed} event {st.k}: "
                      f"{type(exc).__name__}: {exc}", flush=True)
                traceback.print_exc(limit=6)
    print(f"{failures} finding(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    sys.exit(main())
