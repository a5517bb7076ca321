"""Rulings in sentences a player reads: each article with its rulebook named, sentences that
start with a capital and end with a full stop.

The referees cite articles as `novus 17.1.б`, `WPA 5.8` and `5-pins 15.3.б` (the game's own
name); in words the 5-pins rulebook is named by the body that issued it, the WCBS (World
Confederation of Billiards Sports, rulebooks/five_pins_ru.txt, line 1), and an article number
with no rulebook in front takes the one cited before it in the same parentheses
("(WPA 6.5, 6.7.1)" reads as WPA 6.5 and WPA 6.7.1). The original numbering stays as it is,
Cyrillic sub-letters included.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# the rulebook a referee's article prefix stands for, as a reader knows it
RULEBOOKS = {"novus": "novus", "WPA": "WPA", "5-pins": "WCBS"}
# an article number: 17.1.б, 5.8, 6.7.1, 20 (1-99, then dot-separated numbers of one or two
# digits, then letters), so that a coordinate, '(0.9266, 0.5000)', is none
ARTICLE = r"[1-9]\d?(?:\.\d{1,2})*(?:\.[a-zа-я]+)?(?![\d])"
_PREFIXED = re.compile(r"(?<![\w-])(novus|WPA|5-pins) (" + ARTICLE + r")(?![\w.])")
_LEADING = re.compile(r"^(novus|WPA|WCBS) (" + ARTICLE + r"): (.+)$", re.S)
_IDENT = re.compile(r"(\bthe |(?<![\w'])|(?<=')\b)([a-z]+(?:_[a-z]+)+)\b")
_PARENS = re.compile(r"\(([^()]*)\)")


# where the next shot is played from, after "X plays next"
PLACES = {
    "own_zone": "",  # every novus shot is played from the own zone (novus 12)
    "kitchen": "with the cue ball in hand behind the head string",
    "table": "with the cue ball in hand anywhere on the table",
    "half_table": "with the ball in hand in a half of the table",
    "bottom_half": "with the ball in hand in the bottom half",
    "top_half": "with the ball in hand in the top half",
}


# the incoming player's options (a referee's state.pending) as a player reads them
CHOICES = {
    "shoot": "shoot from here",
    "pass": "pass the shot back",
    "accept": "accept the table and shoot",
    "kitchen": "shoot with the cue ball in hand behind the head string",
    "shoot_kitchen": "shoot from behind the head string",
    "pass_kitchen": "let the offender shoot from behind the head string",
    "spot_eight": "spot the 8 and play on",
    "spot_eight_kitchen": "spot the 8 and shoot from behind the head string",
    "rerack": "rack the balls again",
    "rerack_and_break": "rack again and break",
    "rerack_opponent_breaks": "rack again and let the offender break again",
    "in_hand": "take the ball in hand",
    "spot_offender": "have the offender's ball put on its spot",
    "break": "break",
}
_CHOOSES = re.compile(r"\bchooses '([a-z_]+)'")


def cite(text: str) -> str:
    """The text with every article's rulebook named as a reader knows it: '5-pins 15.3.б'
    becomes 'WCBS 15.3.б'; 'novus 17.1.б' and 'WPA 5.8' stay."""
    return _PREFIXED.sub(lambda m: f"{RULEBOOKS[m.group(1)]} {m.group(2)}", text)


_BARE = re.compile(r"\((" + ARTICLE + r"(?:, " + ARTICLE + r")*)\)")
_BOOK = re.compile(r"\b(novus|WPA|WCBS) " + ARTICLE)


def complete(text: str, book: str | None = None) -> str:
    """Article numbers in parentheses with no rulebook, '(7.2)', take `book` or else the
    rulebook cited elsewhere in the text: '(WCBS 7.2)'. Only numbers with a dot count as
    articles ('(2)' may be a count)."""
    if book is None:
        m = _BOOK.search(text)
        if m is None:
            return text
        book = m.group(1)

    def fix(m: re.Match[str]) -> str:
        if "." not in m.group(1):
            return m.group(0)
        return f"({book} {m.group(1)})"
    return _BARE.sub(fix, text)


def labels(text: str) -> str:
    """Identifiers read as words: 'pin_bottom' -> 'the bottom pin' (after 'the': 'bottom
    pin'), 'top_spot' -> 'top spot', 'in_hand' -> 'in hand'."""
    def word(m: re.Match[str]) -> str:
        ident = m.group(2)
        if ident.startswith("pin_"):
            return f"{m.group(1)}the {ident[4:]} pin" if not m.group(1).endswith("the ") \
                else f"{m.group(1)}{ident[4:]} pin"
        return m.group(1) + ident.replace("_", " ")
    text = _CHOOSES.sub(lambda m: f"chooses to {CHOICES[m.group(1)]}" if m.group(1) in CHOICES
                        else m.group(0), text)
    return _IDENT.sub(word, text)


def sentence(text: str, names: Iterable[str] = ()) -> str:
    """One sentence: the rulebooks named (cite), identifiers as words (labels), an opening
    'novus 17.4: ...' turned into '... (novus 17.4).', the first letter a capital (unless the
    sentence opens with one of the players' `names`, which are written as given) and a full
    stop at the end."""
    text = complete(labels(cite(" ".join(text.split()))))
    if not text:
        return ""
    m = _LEADING.match(text)
    if m:
        body = m.group(3).rstrip(".")
        text = f"{body} ({m.group(1)} {m.group(2)})"
    text = join_citations(text)
    if not any(text.startswith(name) for name in names if name):
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


_NAMED = ("novus", "WPA", "WCBS", *RULEBOOKS)
_GROUP_PAIR = re.compile(r"\(([^()]*)\)\s+\(([^()]*)\)")


def _citations(group: str) -> list[tuple[str, str]] | None:
    """[(rulebook, article)] of a parenthesised group of citations, 'WPA 6.5, 6.7.1' (a bare
    number takes the rulebook before it), or None when the group is anything else ('4
    points, WCBS 8.1', 'scratch', '2')."""
    out: list[tuple[str, str]] = []
    book = None
    for part in group.split(","):
        words = part.split()
        if len(words) == 2 and words[0] in _NAMED:
            book, number = words
        elif len(words) == 1 and book is not None:
            number = words[0]
        else:
            return None
        if not re.fullmatch(ARTICLE, number):
            return None
        out.append((book, number))
    return out or None


def _citation_group(cited: list[tuple[str, str]]) -> str:
    """'(WCBS 7.2, 15.3.б)': the rulebook named once for each run of its articles."""
    parts, book = [], None
    for b, number in cited:
        parts.append(number if b == book else f"{b} {number}")
        book = b
    return f"({', '.join(parts)})"


def join_citations(text: str) -> str:
    """Citation groups side by side as one: '... (WCBS 7.2) (WCBS 15.3.б)' -> '... (WCBS 7.2,
    15.3.б)' (a violation whose text ends with its own citation, followed by its article);
    an article cited in both is named once. Groups that are not only citations stay apart."""
    def merge(m: re.Match[str]) -> str:
        first, second = _citations(m.group(1)), _citations(m.group(2))
        if first is None or second is None:
            return m.group(0)
        return _citation_group(first + [c for c in second if c not in first])

    pos = 0
    while True:
        m = _GROUP_PAIR.search(text, pos)
        if m is None:
            return text
        merged = merge(m)
        if merged == m.group(0):  # not two citation groups: look on from the second group
            pos = m.start(2) - 1
            continue
        text = text[:m.start()] + merged + text[m.end():]  # it may join the group after it
        pos = m.start()


def uncited_articles(text: str) -> list[str]:
    """The article numbers in parentheses that no rulebook names (for tests and checks):
    '(5.8)' is uncited; '(WPA 5.8)', '(WPA 6.5, 6.7.1)' and '(WCBS 15.3.б)' are not."""
    out = []
    for group in _PARENS.findall(text):
        book = None
        for part in group.split(","):
            words = part.split()
            for k, w in enumerate(words):
                if w in ("novus", "WPA", "WCBS") and k + 1 < len(words):
                    book = w
                if re.fullmatch(ARTICLE, w.rstrip(".;:")) and "." in w.rstrip(".;:") \
                        and book is None and (k == 0 or words[k - 1] not in RULEBOOKS):
                    out.append(w)
    return out


def count_of(n: int, noun: str) -> str:
    """'1 penalty puck', '3 penalty pucks' (a regular plural: the noun's last word + s)."""
    return f"{n} {noun}{'s' if n != 1 else ''}"


def named(noun: str, ids: list[str]) -> str:
    """'object ball 5', 'object balls 5, 7': a noun and the ids it names."""
    return f"{noun}{'s' if len(ids) != 1 else ''} {', '.join(ids)}"


def points_text(points: dict[str, int]) -> str:
    """'Ann scores 7 points.' / 'Bob loses 1 point.' for each player, joined."""
    out = []
    for player, n in points.items():
        verb = "scores" if n >= 0 else "loses"
        out.append(f"{player} {verb} {abs(n)} point{'s' * (abs(n) != 1)}.")
    return " ".join(out)


def lead(legal: bool, stroke: bool = True) -> str:
    """A ruling's first sentence: 'A legal shot.' or 'A foul.'; with no shot played (a choice,
    a request, an infraction between shots) a legal ruling is 'No foul.'."""
    if not legal:
        return "A foul."
    return "A legal shot." if stroke else "No foul."
