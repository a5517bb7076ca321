"""What the side panel says, in words: the game's title, where the struck piece is placed,
the incoming player's options as labels (not the referee's ids), the help with only the keys
that work in the game shown, and the aim's warning when the rules would call the shot a foul.
Every message is a sentence; every article names its rulebook (`cuesim.rules.wording`).
"""

from __future__ import annotations

import re
from typing import Any

from cuesim.rules.ruling import Ruling
from cuesim.rules.wording import (
    ARTICLE,
    CHOICES,
    cite,
    complete,
    join_citations,
    labels,
    sentence,
)

_CITED_FIRST = re.compile(rf"^([^:]*: )?(novus|WPA|WCBS) ({ARTICLE}(?:, {ARTICLE})*): (.+)$", re.S)

TITLES = {"novus": "Novus", "novus-doubles": "Novus doubles", "8-ball": "8-ball",
          "9-ball": "9-ball", "14.1": "14.1 continuous", "5-pins": "5-pins"}

# where the struck piece goes before the shot (Session.placement()), as the panel says it
PLACES = {
    "own_zone": "Place the striker in your zone (novus 12).",
    "kitchen": "Cue ball in hand behind the head string (WPA 3.10).",
    "table": "Cue ball in hand anywhere on the table (WPA 3.10).",
}  # 5-pins says which half, and why, itself (FivePinsRefereeSession.place_line)

# the keys of each kind of game (only those that act in it)
_COMMON_TOP = [
    "Mouse: aim. Drag: power; release to shoot.",
    "Drag or right-click the {piece}: place it.",
    "Click the small {ball}, or the arrows: tip offset.",
]
_COMMON_BOTTOM = [
    "Space pause, M slow, R replay, Enter skip.",
    "U undo, F5 save, F9 load, F12 screenshot, F11 full screen.",
    "G last shot as GIF, J as shot file, V sound on/off.",
]
_GAME_KEYS = {
    "novus": "F: the referee's menu.",
    "novus-doubles": "F: the referee's menu.",
    "8-ball": "C call, S safety, F referee's menu.",
    "9-ball": "C call, P push-out, F referee's menu.",
    "14.1": "C call, S safety, F referee's menu, K spot request.",
    "5-pins": "F: the referee's menu. K: reset request.",
}


def help_lines(game: str) -> list[str]:
    """The keys of `game`, in short sentences."""
    piece, ball = ("striker", "disc") if game.startswith("novus") else (
        "white piece" if game != "5-pins" else "ball in hand", "ball")
    top = [t.format(piece=piece, ball=ball) for t in _COMMON_TOP]
    return top + [_GAME_KEYS[game]] + _COMMON_BOTTOM


def option_label(option: str) -> str:
    """The label of a pending option id."""
    return CHOICES.get(option, option.replace("_", " ")).capitalize()


def chooser_line(player: str, article: str) -> str:
    return sentence(f"{player} chooses ({article})", [player]).rstrip(".") + ":"


def to_play_line(player: str, computer: bool) -> str:
    return f"To play: {player}" + (" (the computer)" if computer and
                                   "computer" not in player.lower() else "")


def foul_warning(ruling: Ruling) -> str:
    """What the aim line says when the predicted shot would be a foul: 'Foul: WPA 5.8, the
    cue ball hits ball 9 first.', one line for each violation the ruling lists (a scratch and
    a wrong first ball are two), each article with its rulebook."""
    if ruling.legal:
        return ""
    lines: list[str] = []
    for v in ruling.violations:
        article = cite(v.article)
        text = complete(labels(cite(v.text.rstrip("."))), article.split(" ")[0])
        line = f"Foul: {article}, {_lower_first(text)}."
        if line not in lines:
            lines.append(line)
    return "\n".join(lines)


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text


def live_line(pocketed: list[str], fallen: list[str], pieces: dict[str, Any]) -> str:
    """What has happened so far in the shot being shown: pieces pocketed, pins down."""
    parts = []
    if pocketed:
        names = [_piece_name(pid, pieces.get(pid)) for pid in pocketed]
        parts.append("Pocketed so far: " + ", ".join(names) + ".")
    if fallen:
        parts.append("Pins down so far: " + ", ".join(pin_name(p) for p in fallen) + ".")
    return " ".join(parts)


def pin_name(pin: str) -> str:
    """'pin_bottom' -> 'the bottom pin' ('pin_centre' -> 'the centre pin')."""
    if pin.startswith("pin_"):
        return f"the {pin[4:]} pin"
    return pin


# `cuesim play` names the person at the keyboard "You" (against the computer): the rulings'
# third-person verbs after that name are said in the second person ("You play next")
YOU = "You"
_IRREGULAR = {"is": "are", "has": "have", "was": "were", "does": "do"}
_VERBS = ("is has was does wins plays scores breaks chooses loses takes strikes touches reaches "
          "racks records lies needs finds continues fouls pockets passes misses keeps gets owes "
          "shoots leads gives accepts declares calls makes goes commits receives concedes "
          "forfeits leaves moves places spots stays returns answers asks requests retains "
          "pushes wants").split()
_YOU_VERB = re.compile(rf"\b{YOU}(?:('s)\b| ({'|'.join(_VERBS)})\b)")
# a second verb of the same clause: "You pocketed a ball and continues"
_YOU_AND_VERB = re.compile(rf"\b({YOU}\b[^.,;:()]*? and) ({'|'.join(_VERBS)})\b")


def _base_form(verb: str) -> str:
    """'plays' -> 'play', 'touches' -> 'touch', 'goes' -> 'go', 'is' -> 'are'."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith(("sses", "shes", "ches", "xes", "zes", "oes")):
        return verb[:-2]
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    return verb[:-1]


def addressed(text: str) -> str:
    """`text` with the player named "You" addressed in the second person: "You plays next"
    -> "You play next", "You's ball" -> "Your ball" (other names are left as they are)."""
    if YOU not in text:
        return text

    def fix(m: re.Match[str]) -> str:
        return "Your" if m.group(1) else f"{YOU} {_base_form(m.group(2))}"

    def fix_and(m: re.Match[str]) -> str:
        return f"{m.group(1)} {_base_form(m.group(2))}"
    return _YOU_AND_VERB.sub(fix_and, _YOU_VERB.sub(fix, text))


_FRAME_SIDE = re.compile(r"\b(top|bottom|left|right)(?= (pin|rail|half|spot)s?\b)")


def on_screen(text: str, sides: dict[str, str]) -> str:
    """`text` with the side word of each pin, rail, half and spot ('the bottom pin', 'the top
    half') turned from the table's frame into the screen's by `sides` (frame word -> screen
    word): the 5-pins table names them in its frame (tables.carom: top = +y) and the viewer
    draws it lengthwise, where its bottom pin is on the screen's left ('the right-hand spot',
    not 'the right spot')."""
    if not sides:
        return text

    def word(m: re.Match[str]) -> str:
        side = sides.get(m.group(1), m.group(1))
        return f"{side}-hand" if m.group(2) == "spot" and side in ("left", "right") else side
    return _FRAME_SIDE.sub(word, text)


def _piece_name(pid: str, piece: Any) -> str:
    if pid.isdigit():
        return f"ball {pid}"
    if piece is not None and getattr(piece, "kind", "") == "puck":
        return f"a {piece.group} puck"
    return f"the {pid}"


def message(text: str) -> str:
    """A message of the viewer as a sentence: the rulebooks named, identifiers as words (not
    in a file path), a capital first and a full stop at the end."""
    text = " ".join(text.split())
    if not text:
        return ""
    text = cite(text) if ("/" in text or "\\" in text) else complete(labels(cite(text)))
    m = _CITED_FIRST.match(text)
    if m:  # 'Refused: WPA 3.10: the cue ball ...' -> 'Refused: the cue ball ... (WPA 3.10)'
        body = m.group(4).rstrip(".")
        text = join_citations(f"{m.group(1) or ''}{body} ({m.group(2)} {m.group(3)})")
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ":")) else text + "."


def menu_label(text: str) -> str:
    """A referee-menu entry ('WPA 3.23: a double hit') as 'A double hit (WPA 3.23).'"""
    return sentence(text)
