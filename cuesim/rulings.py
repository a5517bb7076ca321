"""Rulings at the command line: the referee of a game ruling on one simulated shot (`cuesim
shoot GAME ... --rule`), and rulings told in sentences with their articles (`cuesim
adjudicate`).

`referee(game, state)` is the game's referee at its start, or resumed from the `state` object
of the game's scenario schema (rules/novus/README.md, rules/pool/README.md,
rules/fivepins/README.md); `rule(referee, game, result)` rules on a simulated shot and moves
the referee on; `describe(output)` tells an adjudication (`cuesim.rules.files.adjudicate`)
or a `rule` output in words.
"""

from __future__ import annotations

from typing import Any

from cuesim.rules.ruling import Ruling, Violation
from cuesim.rules.wording import cite, labels
from cuesim.sim.result import ShotResult
from cuesim.tables.layout import Layout

POOL = {"8-ball": "eight_ball", "9-ball": "nine_ball", "14.1": "straight_pool"}
GAME_WORDS = {"novus": "novus", "eight_ball": "8-ball", "nine_ball": "9-ball",
              "straight_pool": "14.1 continuous", "five_pins": "5-pins"}


def referee(game: str, state: dict[str, Any] | None = None) -> Any:
    """The referee of `game` (a cuesim game name) at the start of a match, or resumed from
    `state`; a ValueError naming the field when the state does not fit."""
    if not isinstance(game, str):
        raise ValueError(f"no referee for game {game!r}: a game's name is a string")
    if game in ("novus", "novus-doubles"):
        from cuesim.rules.novus.scenario import game_from_dict

        return game_from_dict(novus_state(game, state))
    if game in POOL:
        from cuesim.rules.pool.scenario import make_game

        data = {"game": POOL[game]} if state is None else {"game": POOL[game], "state": state}
        return make_game(data)
    if game == "5-pins":
        from cuesim.rules.fivepins.scenario import make_game as make_five_pins

        data = {"game": "five_pins"} if state is None else {"game": "five_pins",
                                                            "state": state}
        return make_five_pins(data)
    raise ValueError(f"no referee for game {game!r}")


def check_layout(ref: Any, game: str, layout: Layout, where: str) -> None:
    """What the referee of `game` needs of the layout a shot starts from, asked before the shot
    is simulated: pool's balls by id and a table where the game goes on (`check_table_in_play`:
    WPA 4.1, 5.3), 5-pins' eight pieces by id (5-pins 4.1), novus's pucks of the match's two
    colours (novus 10); at a break, the game's opening position: pool's rack (4.1 and 4.3,
    5.1 and 5.2, 6.4: `racks.check_rack`), 5-pins' (4.1). A ValueError starting with `where`
    names the piece or what the rack lacks."""
    if game in ("novus", "novus-doubles"):
        from cuesim.rules.novus.shotlog import check_match_pucks

        check_match_pucks(layout, ref.colours, ref.pucks_per_team(), where)
        return
    pool = game in POOL
    known = ref.ball_ids if pool else ref.piece_ids
    what = "ball" if pool else "piece"
    foreign = [pid for pid in layout.ids() if pid not in known]
    if foreign:
        raise ValueError(f"{where}: {what} {foreign[0]!r} is no {what} of {game}; its "
                         f"{what}s are {list(known)}")
    try:
        if pool:
            ref.check_table_in_play(ref.state, layout)
            if ref.state.phase == "break":  # a break is of the game's whole rack
                from cuesim.rules.pool.racks import check_rack

                problems = check_rack(POOL[game], layout)
                if problems:
                    raise ValueError(f"the {game} break is played on its opening "
                                     f"rack, and this is none: {'; '.join(problems)} (a "
                                     "state in play rules shots from any position)")
        elif ref.state.phase == "break":  # the opening position (5-pins 4.1)
            from cuesim.rules.fivepins.placement import check_opening

            check_opening(layout, ref.state.ball_of(ref.state.opponent()))
    except ValueError as exc:
        raise ValueError(f"{where}: {str(exc).removeprefix('initial: ')}") from None


def state_start(ref: Any, game: str, table: Any) -> Layout | None:
    """The layout the referee's next shot starts from when none is given, where the game's
    start is not it: a 5-pins break of the other player (4.1, 4.2: the breaker's ball in hand
    on the lag line, the opponent's on the top spot). None: the game's start layout."""
    if game == "5-pins" and ref.state.phase == "break":
        from cuesim.tables.carom import five_pins_layout

        return five_pins_layout(table, breaker=shooter_ball(ref))
    return None


def novus_state(game: str, state: dict[str, Any] | None) -> dict[str, Any]:
    """The novus state for `game` ("novus" or "novus-doubles"): a state without a mode takes
    the game's; one whose mode is the other game's is refused (ValueError), never ruled as
    the game it is not."""
    mode = "doubles" if game == "novus-doubles" else "singles"
    data = dict(state) if state is not None else {}
    given = data.setdefault("mode", mode)
    if given != mode and given in ("singles", "doubles"):
        raise ValueError(f"state.mode is {given!r}, but the game is {game}: give a {mode} "
                         f"state, or play {'novus' if given == 'singles' else 'novus-doubles'}")
    return data


def shooter_side(ref: Any) -> str:
    """novus: the side of the player to shoot."""
    return str(ref.side_of(ref.shooter))


def shooter_ball(ref: Any) -> str:
    """5-pins: the ball of the player to shoot."""
    return str(ref.state.ball_of(ref.state.shooter))


def rule(ref: Any, game: str, result: ShotResult) -> dict[str, Any]:
    """{"game", "ruling": Ruling.to_dict(), "state": the referee's next state} for a simulated
    shot (no declaration, no declared infractions)."""
    if game in ("novus", "novus-doubles"):
        out = ref.adjudicate(result)
        return {"game": "novus", "ruling": out.ruling.to_dict(), "state": ref.to_dict()}
    if game in POOL:
        from cuesim.rules.pool import shot_from_result

        out = ref.play(shot_from_result(result))
        return {"game": POOL[game], "ruling": out.ruling.to_dict(), "state": out.state.to_dict()}
    from cuesim.rules.fivepins import shot_from_result as five_pins_shot

    out = ref.play(five_pins_shot(result))
    return {"game": "five_pins", "ruling": out.ruling.to_dict(), "state": out.state.to_dict()}


def ruled_fields(ruled: dict[str, Any] | None) -> dict[str, Any]:
    """The `--json` output's 'ruling' and 'referee_state' of a `rule` output (None for a
    truncated shot, which is not ruled on): `shoot --rule`, `show --rule`."""
    return {"ruling": None if ruled is None else ruled["ruling"],
            "referee_state": None if ruled is None else ruled["state"]}


def ruling_line(ruled: dict[str, Any] | None) -> str:
    """The summary's 'ruling: ...' line of a `rule` output (None: a truncated shot)."""
    return "ruling: " + ("none: a TRUNCATED shot is not ruled on" if ruled is None
                         else describe_ruling(ruled["ruling"]))


def ruling_from_dict(data: dict[str, Any]) -> Ruling:
    """The Ruling of `Ruling.to_dict()`."""
    fields = dict(data)
    fields["violations"] = [Violation.from_dict(v) for v in data.get("violations", [])]
    known = set(Ruling.__dataclass_fields__)
    return Ruling(**{k: v for k, v in fields.items() if k in known})


def _spotted(items: list[dict[str, Any]]) -> list[str]:
    out = []
    for s in items:
        where = f" at ({s['x']:.3f}, {s['y']:.3f}) m" if "x" in s and "y" in s else ""
        article = f" ({cite(s['article'])})" if s.get("article") else ""
        out.append(f"The referee puts {labels(str(s.get('id', 'a piece')))} back{where}{article}.")
    return out


PLACES = {
    "own_zone": "from the own zone",
    "kitchen": "with the cue ball in hand behind the head string",
    "table": "with the cue ball in hand anywhere on the table",
    "half_table": "with the ball in hand in a half of the table",
    "bottom_half": "with the ball in hand in the bottom half",
    "top_half": "with the ball in hand in the top half",
}


def _sentence(text: str, names: list[str]) -> str:
    """A sentence with its articles' rulebooks named, the players' names as given
    (cuesim.rules.wording.sentence)."""
    from cuesim.rules.wording import sentence

    return sentence(text, names)


def describe_ruling(data: dict[str, Any], stroke: bool = True) -> str:
    """One ruling in sentences, each with the article it comes from: legal or a foul, the
    violations, the referee's notes, the points, the end of a frame or match, who plays next
    and from where, and what the referee puts back. stroke=False: no shot was played (a
    choice, an infraction between shots): a legal ruling leads with 'No foul.'."""
    from cuesim.rules.wording import lead

    r = ruling_from_dict(data)
    parts = [lead(r.legal, stroke)]
    names = [*r.points, r.next_player or "", r.winner or ""]
    parts += [_sentence(f"{v.text} ({v.article})", names) for v in r.violations]
    parts += [_sentence(n, names) for n in r.notes]
    for player, points in r.points.items():
        verb = "scores" if points >= 0 else "loses"
        parts.append(f"{player} {verb} {abs(points)} point{'s' * (abs(points) != 1)}.")
    if r.match_over:
        parts.append(f"The match is over{f', won by {r.winner}' if r.winner else ''}.")
    elif r.frame_over:
        parts.append(f"The frame is over{f', won by {r.winner}' if r.winner else ''}.")
    if r.next_player:
        where = PLACES.get(r.placement or "", (r.placement or "").replace("_", " "))
        parts.append(f"{r.next_player} plays next{' ' + where if where else ''}.")
    parts += _spotted(data.get("spotted", []))
    return " ".join(p for p in parts if p)


def describe(output: dict[str, Any], strokes: list[bool] | None = None) -> str:
    """An adjudication (one ruling, or the steps of a scenario) or a `rule` output in words;
    `strokes` says which of them ruled on a shot (`cuesim.rules.files.scenario_strokes`;
    None: every one)."""
    game = GAME_WORDS.get(str(output.get("game", "novus")), str(output.get("game", "")))
    if "steps" not in output:
        stroke = strokes[0] if strokes else True
        return f"The {game} referee: {describe_ruling(output['ruling'], stroke)}"
    steps = output["steps"]
    lines = [f"The {game} referee rules on {len(steps)} step{'s' * (len(steps) != 1)}:"]
    for k, step in enumerate(steps, 1):
        stroke = strokes[k - 1] if strokes and k <= len(strokes) else True
        text = describe_ruling(step["ruling"], stroke)
        if step.get("rack"):
            text += f" The balls are racked again ({step['rack']})."
        lines.append(f"{k}. {text}")
    return "\n".join(lines)
