"""The pygame viewer: draw each table to scale, animate shots from their exact trajectories,
and play whole games against the referees (two players on one screen, or one against the
computer).

Modules: `view` (metres <-> pixels), `draw` (tables, pieces, aim line, widgets), `anim`
(playing a ShotResult back at frame times, the way knocked pins fall), `session` (one game:
its referee, the action log, save/load and undo), `ai` (the computer player), `aim` (the
predicted first contact, the foul warning, a legal opening aim), `hud` (the text panel),
`panel_text` (what the panel says, in sentences), `scoresheet` (the end of a set, game or
match), `layout` (where things go in a window of a given size), `app` (the event loop:
`App.step(events, dt)`); `bench` helpers live in bench/viewer_frames.py.
"""

from cuesim.viewer.session import SESSION_GAMES, Session, new_session

__all__ = ["SESSION_GAMES", "Session", "new_session"]
