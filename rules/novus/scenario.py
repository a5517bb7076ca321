"""Adjudication scenarios: JSON in, ruling JSON out. The schema is in README.md (same folder).

    out = adjudicate_scenario(json.load(open("tests/novus_scenarios/opening_miss.json")))
    out["ruling"]["violations"][0]["article"]   # 'novus 17.1.а'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cuesim.rules.api_checks import check_names
from cuesim.rules.files import check_shot, hand_moved, parse_infraction, read_json
from cuesim.rules.novus.game import NovusGame
from cuesim.rules.novus.infractions import HAND_MOVES
from cuesim.rules.novus.shotlog import ShotRecord, event_from_dict
from cuesim.rules.novus.terms import SIDES
from cuesim.rules.ruling import Infraction
from cuesim.tables.layout import Layout
from cuesim.tables.novus import NovusTable

_TABLE = NovusTable()
_STATE_KEYS = {"mode", "players", "sets", "play_all_sets", "deciding_swap", "first", "colours",
               "set_number",
               "replays", "seats", "start_side", "opener", "shooter", "debt", "misses",
               "series", "first_clear", "responder", "pending", "skip", "warnings",
               "time_warned", "sets_won", "history", "history_from", "match_over", "winner"}
_TOP_KEYS = {"game", "description", "state", "before", "after", "events", "pocketed",
             "infractions", "expect"}


def game_from_dict(state: Any) -> NovusGame:
    """A NovusGame from the 'state' object of a scenario (NovusGame.to_dict() output, or any
    part of it: missing fields take the values of a fresh game at the start of its set)."""
    if not isinstance(state, dict):
        raise ValueError(f"scenario 'state' must be an object, got {type(state).__name__}")
    unknown = set(state) - _STATE_KEYS
    if unknown:
        raise ValueError(f"scenario 'state' has unknown field(s) {sorted(unknown)}; fields are "
                         f"{sorted(_STATE_KEYS)}")
    mode = state.get("mode", "singles")
    if mode not in ("singles", "doubles"):
        raise ValueError(f"state.mode must be 'singles' or 'doubles', got {mode!r}")
    doubles = mode == "doubles"
    players = state.get("players", ["A", "B", "C", "D"] if doubles else ["A", "B"])
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise ValueError(f"state.players must be a list of names, got {players!r}")
    check_names(players, "state.players")
    sets = _int(state, "sets", 1, 1)
    set_number = _int(state, "set_number", 1, 1)
    if set_number > sets:
        raise ValueError(f"state.set_number {set_number} is beyond the {sets} set(s) of the game")
    colours = state.get("colours", ["red", "black"])
    if not (isinstance(colours, list) and len(colours) == 2 and all(
            isinstance(c, str) and c for c in colours)):
        raise ValueError(f"state.colours must be two colour names, got {colours!r}")
    g = NovusGame(list(players), doubles=doubles, sets=sets,
                  play_all_sets=_bool(state, "play_all_sets"),
                  deciding_swap=_bool(state, "deciding_swap"),
                  first=_int(state, "first", 0, 0), colours=(colours[0], colours[1]),
                  set_number=set_number)
    if _bool(state, "match_over"):
        raise ValueError("state.match_over is true: a finished match has no shot to rule on")
    if state.get("winner") is not None:
        raise ValueError(f"state.winner is {state['winner']!r} but the match is on "
                         "(state.match_over false): a winner is named when it is over (23.1)")
    if "seats" in state:
        seats = state["seats"]
        if not isinstance(seats, dict) or any(s not in SIDES for s in seats) \
                or not all(isinstance(p, str) for p in seats.values()):
            raise ValueError(f"state.seats must map sides {list(SIDES)} to players, got {seats!r}")
        if sorted(seats.values()) != sorted(players):
            raise ValueError(f"state.seats must seat every player once, got {seats!r}")
        if not doubles and {*seats} not in ({"south", "north"}, {"east", "west"}):
            raise ValueError("singles players sit opposite each other (state.seats)")
        if doubles and (len(seats) != 4 or g.team_of(seats["south"]) != g.team_of(seats["north"])):
            raise ValueError("doubles partners sit opposite each other, so that the pairs "
                             f"strike in turn (21.1): state.seats {seats!r}")
        g.seats = dict(seats)
    if "start_side" in state:
        if not isinstance(state["start_side"], str) or state["start_side"] not in g.seats:
            raise ValueError(f"state.start_side {state['start_side']!r} is not an occupied seat")
        g.start_side = state["start_side"]
    elif g.start_side not in g.seats:
        raise ValueError(f"state.start_side is missing, and its default {g.start_side!r} is not "
                         f"an occupied seat of state.seats {g.seats!r}: give the side of the "
                         "first strike")
    g.opener = g.seats[g.start_side]
    for key in ("opener", "shooter", "responder"):
        if key in state and (state[key] != "" or key != "responder"):  # '': no responder
            if state[key] not in players:
                raise ValueError(f"state.{key} must be one of the players {players}, got "
                                 f"{state[key]!r}")
            setattr(g, key, state[key])
    if g.opener != g.seats[g.start_side]:
        raise ValueError(f"state.opener {g.opener!r} is not the player at state.start_side "
                         f"{g.start_side!r} ({g.seats[g.start_side]!r}): the opener strikes "
                         "first from the start side (21.1, 22.1); give seats or start_side to "
                         "match")
    if "shooter" not in state:
        g.shooter = g.opener
    g.series = {p: 0 for p in players}
    g.series[g.shooter] = 1
    for key, keyset in (("debt", set(colours)), ("misses", set(g.teams())),
                        ("series", set(players)), ("warnings", set(players)),
                        ("sets_won", set(g.teams()))):
        if key in state:
            value = state[key]
            if not isinstance(value, dict) or not set(value) <= keyset or not all(
                    isinstance(v, int) and not isinstance(v, bool) and v >= 0
                    for v in value.values()):
                raise ValueError(f"state.{key} must map {sorted(keyset)} to whole numbers >= 0,"
                                 f" got {value!r}")
            getattr(g, key).update(value)
    _check_sets_won(g)
    over = [p for p, n in g.warnings.items() if n >= 3]
    if over:
        raise ValueError(f"state.warnings: {over[0]} has {g.warnings[over[0]]}; the third "
                         "warning ends the match (novus 15.3), so a match still on has at most 2")
    if all(n >= 3 for n in g.misses.values()):
        raise ValueError(f"state.misses {g.misses!r}: both sides missed three times with only "
                         "dark pucks left, so the set was played again (novus 20.6); a set "
                         "still on has one side at 2 or fewer")
    if g.series[g.shooter] < 1:
        raise ValueError(f"state.series: the shooter {g.shooter} is in his series, which counts "
                         f"at least 1 shot, got {g.series[g.shooter]}")
    if "first_clear" in state:
        fc = state["first_clear"]
        if not isinstance(fc, dict) or not all(p in players and v in ("clean", "violated")
                                               for p, v in fc.items()):
            raise ValueError("state.first_clear must map a player to 'clean' or 'violated'")
        g.first_clear = dict(fc)
    _check_first_series_answer(g)
    for key in ("pending", "skip", "history"):
        if key in state:
            if not isinstance(state[key], list):
                raise ValueError(f"state.{key} must be a list")
            setattr(g, key, list(state[key]))
    _check_turn_losses(g)
    g.replays = _int(state, "replays", 0, 0)
    g.history_from = _int(state, "history_from", 1, 1)
    if g.history_from > g.set_number:
        raise ValueError(f"state.history_from {g.history_from} is after state.set_number "
                         f"{g.set_number}: the history records sets up to the one being played")
    if "history" in state:
        _check_history(g)
    else:  # no record of the sets before this one: the referee's history starts here
        g.history_from = g.set_number
    if "time_warned" in state:
        warned = state["time_warned"]
        if not isinstance(warned, list) or not all(p in players for p in warned):
            raise ValueError(f"state.time_warned must list players warned for delay (19.3), "
                             f"of {players}, got {warned!r}")
        g.time_warned = list(dict.fromkeys(warned))
    return g


_HISTORY_KEYS = {"set", "winner", "article", "replay"}


def _check_history(g: NovusGame) -> None:
    """state.history, the sets ended so far in a match still on (`NovusGame._end_set`): each
    entry {"set": its number, "winner": a side or null, "article": the rule that ended it,
    "replay": true when it is played again (20.4, 20.6, 21.1)}; the sets played to a result are
    sets history_from (1 by default) to set_number - 1 in order, their winners make
    state.sets_won, and the replayed ones count state.replays. A history from a later set (the
    referee's, given a state without one: `game_from_dict`) records only the sets since: its
    winners and replays are at most those counts, the sets won before it at most the sets
    before it. (A match ended by 15.3 or 14 is over and has no shot to rule on.)"""
    teams = g.teams()
    played = []
    for k, entry in enumerate(g.history):
        where = f"state.history[{k}]"
        if not isinstance(entry, dict) or set(entry) != _HISTORY_KEYS:
            raise ValueError(f"{where} must be a set's end {{'set', 'winner', 'article', "
                             f"'replay'}} (a match still on), got {entry!r}")
        if isinstance(entry["set"], bool) or not isinstance(entry["set"], int) \
                or not 1 <= entry["set"] <= g.set_number:
            raise ValueError(f"{where}.set must be a set number from 1 to state.set_number "
                             f"{g.set_number}, got {entry['set']!r}")
        if entry["winner"] is not None and entry["winner"] not in teams:
            raise ValueError(f"{where}.winner must be null or one of {teams}, got "
                             f"{entry['winner']!r}")
        if not isinstance(entry["article"], str) or not entry["article"]:
            raise ValueError(f"{where}.article must name the rule that ended the set, got "
                             f"{entry['article']!r}")
        if not isinstance(entry["replay"], bool):
            raise ValueError(f"{where}.replay must be true or false, got {entry['replay']!r}")
        if not entry["replay"]:
            played.append(entry)
    numbers = [e["set"] for e in played]
    start = g.history_from
    if numbers != list(range(start, g.set_number)):
        raise ValueError(f"state.history: the sets played to a result are {numbers}, but set "
                         f"{g.set_number} is being played, so they are sets {start} to "
                         f"{g.set_number - 1} in order")
    whole = start == 1  # a record of the whole match: its counts are the state's
    before = 0
    for team in teams:
        won = sum(e["winner"] == team for e in played)
        if won != g.sets_won[team] if whole else won > g.sets_won[team]:
            raise ValueError(f"state.history: {team} won {won} set(s) in it, but "
                             f"state.sets_won gives {g.sets_won[team]}")
        before += g.sets_won[team] - won
    if before > start - 1:
        raise ValueError(f"state.sets_won {g.sets_won}: {before} set(s) won before "
                         f"state.history_from {start}, but only {start - 1} were played")
    replayed = len(g.history) - len(played)
    if replayed != g.replays if whole else replayed > g.replays:
        raise ValueError(f"state.history: {replayed} set(s) replayed in it, but state.replays "
                         f"is {g.replays}")


def _bool(d: dict[str, Any], key: str) -> bool:
    value = d.get(key, False)
    if not isinstance(value, bool):
        raise ValueError(f"state.{key} must be true or false, got {value!r}")
    return value


def _check_first_series_answer(g: NovusGame) -> None:
    """20.4 / 21.7: when the opener clears in his first series, `first_clear` names him and
    `responder` the next opponent, who alone answers, and has the turn until the answer ends
    the set; neither is set without the other (a 17.1.п penalty clears both)."""
    if not g.first_clear and not g.responder:
        return
    art = "novus 21.7" if g.doubles else "novus 20.4"
    if list(g.first_clear) != [g.opener]:
        raise ValueError(f"state.first_clear {g.first_clear!r}: only the opener ({g.opener!r}) "
                         f"clears in his first series and is answered ({art}), and then "
                         "state.responder names who answers")
    answer = g.next_after(g.opener)
    if g.responder != answer or g.shooter != answer:
        raise ValueError(f"state.responder {g.responder!r} with state.first_clear "
                         f"{g.first_clear!r}: the next opponent, {answer!r}, answers the "
                         f"opener's clearance and has the turn ({art}); state.shooter is "
                         f"{g.shooter!r}")


def _check_turn_losses(g: NovusGame) -> None:
    """state.pending holds the 17.1.п penalties still to place ({"player", "article"}: a
    player, 'novus 17.1.п') and state.skip the players who miss their next turn by it."""
    for k, pend in enumerate(g.pending):
        if not isinstance(pend, dict) or set(pend) != {"player", "article"} \
                or pend["player"] not in g.players or pend["article"] != "novus 17.1.п":
            raise ValueError(f"state.pending[{k}] must be {{'player': one of {g.players}, "
                             f"'article': 'novus 17.1.п'}}, got {pend!r}")
    if any(pend["player"] == g.responder for pend in g.pending):
        raise ValueError(f"state.pending: {g.responder} owes a 17.1.п penalty puck, so he "
                         "missed his turn as the opener's first series ended and cannot be the "
                         "state.responder answering it (20.4, 21.7)")
    for k, who in enumerate(g.skip):
        if who not in g.players:
            raise ValueError(f"state.skip[{k}] must be a player who misses a turn by 17.1.п, "
                             f"one of {g.players}, got {who!r}")
    # 17.1.п: the offender is penalised as the series of the player with the turn ends, and
    # the turn passes over him: neither names the player who has it (state.shooter)
    for key, named in (("pending", [p["player"] for p in g.pending]), ("skip", g.skip)):
        if g.shooter in named:
            raise ValueError(f"state.{key} names {g.shooter}, who has the turn (state.shooter): "
                             "a 17.1.п penalty is owed by, and a turn missed by, a player "
                             "without it (novus 17.1.п)")


def _check_sets_won(g: NovusGame) -> None:
    """The sets won fit a match still on in set `set_number` of `sets`: no more than the sets
    played before it, and (unless every set is played, 23.1) no side with more than half."""
    won = g.sets_won
    done = g.set_number - 1
    if sum(won.values()) > done:
        raise ValueError(f"state.sets_won {won!r}: {sum(won.values())} set(s) won, but set "
                         f"{g.set_number} of {g.sets} is being played, so at most {done} "
                         "are over")
    top = max(won, key=lambda team: won[team])
    if not g.play_all_sets and won[top] * 2 > g.sets:
        raise ValueError(f"state.sets_won: {top} has {won[top]} of {g.sets} sets, more than "
                         "half, so the match is over (novus 23.1)")


def _int(d: dict[str, Any], key: str, default: int, low: int) -> int:
    value = d.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"state.{key} must be a whole number >= {low}, got {value!r}")
    return value


def load_scenario(data: Any) -> tuple[NovusGame, ShotRecord | None, list[Infraction]]:
    """Parse a scenario into the game, the shot (None when no shot was played) and the
    declared infractions; ValueError naming the first problem."""
    if not isinstance(data, dict):
        raise ValueError(f"a scenario must be a JSON object, got {type(data).__name__}")
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise ValueError(f"scenario has unknown field(s) {sorted(unknown)}; fields are "
                         f"{sorted(_TOP_KEYS)}")
    if data.get("game", "novus") != "novus":
        raise ValueError(f"scenario game {data.get('game')!r} is not 'novus'")
    game = game_from_dict(data.get("state", {}))
    raw_inf = data.get("infractions", [])
    if not isinstance(raw_inf, list):
        raise ValueError("scenario 'infractions' must be a list of objects")
    infractions = [parse_infraction(item, f"infractions[{k}]") for k, item in enumerate(raw_inf)]
    if "before" not in data:
        raise ValueError("scenario is missing 'before', the layout before the shot")
    before = Layout.from_dict(data["before"], source="scenario.before")
    _TABLE.check_layout(before)
    game.layout = before.without(["striker"], missing_ok=True) if "after" not in data \
        else before
    if "after" not in data:
        if data.get("events"):
            raise ValueError("scenario has 'events' but no 'after' layout")
        return game, None, infractions
    after = Layout.from_dict(data["after"], source="scenario.after")
    if after.table != "novus":
        raise ValueError(f"scenario.after is for table {after.table!r}, not 'novus'")
    raw_events = data.get("events", [])
    if not isinstance(raw_events, list):
        raise ValueError("scenario 'events' must be a list")
    events = [event_from_dict(e, k) for k, e in enumerate(raw_events)]
    pocketed = data.get("pocketed")
    if pocketed is not None and not (isinstance(pocketed, list)
                                     and all(isinstance(p, str) for p in pocketed)):
        raise ValueError("scenario 'pocketed' must be a list of piece ids")
    check_shot(events, before, after, "scenario", by_hand=hand_moved(infractions, HAND_MOVES))
    record = ShotRecord.from_parts(before, after, events, pocketed)
    return game, record, infractions


def adjudicate_scenario(data: dict[str, Any]) -> dict[str, Any]:
    """Scenario JSON (parsed) in, {'ruling', 'layout', 'analysis', 'state'} out."""
    game, record, infractions = load_scenario(data)
    return game.adjudicate(record, infractions).to_dict()


def adjudicate_file(path: str | Path) -> dict[str, Any]:
    return adjudicate_scenario(read_json(path))
