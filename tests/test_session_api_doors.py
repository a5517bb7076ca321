"""The game session's Python API (`cuesim.viewer.session`, the README's computer-player
examples) checks what it is given as a saved game's fields are checked: an action that is not
an object, lacks a field or has one of the wrong type, a place that is not (x, y), a computer
player who is not a player. ValueError naming the field, before anything is played; it used to
be an AttributeError ('tuple' object has no attribute 'get'), an IndexError or a KeyError from
inside, or a computer that never played."""

from __future__ import annotations

import math

import pytest

from cuesim.viewer.session import new_session


@pytest.mark.parametrize("action, message", [
    (("shot", 1.0), r"Session.apply: action must be an object whose kind is one of"),
    ({"kind": "shot"}, r"Session.apply: action \(shot\) is missing field"),
    ({"kind": "choice"}, r"Session.apply: action \(choice\) is missing field 'option'"),
    ({"kind": "choice", "option": 3}, r"Session.apply: action.option must be a string, got 3"),
    ({"kind": "shot", "player": "Ann", "x": "a", "y": 0.5, "angle": 1.5, "speed": 3.0,
      "side": 0.0, "height": 0.0}, r"action.x must be a finite number, got 'a'"),
    ({"kind": "shot", "player": "Zed", "x": 0.6, "y": 0.5, "angle": 1.5, "speed": 3.0,
      "side": 0.0, "height": 0.0}, r"action.player must be one of the players \['Ann', 'Bob'\]"),
    ({"kind": "request", "name": "push_out", "spin": 1}, r"action.spin must be absent"),
])
def test_a_malformed_action_is_refused_naming_its_field(action, message):
    s = new_session("9-ball")
    with pytest.raises(ValueError, match=message):
        s.apply(action)
    assert s.actions == [] and s.revision == 0


@pytest.mark.parametrize("game", ["novus", "9-ball", "5-pins"])
@pytest.mark.parametrize("pos, message", [
    ([], r"pos must be \(x, y\) in metres, got \[\]"),
    ({}, r"pos must be \(x, y\) in metres, got \{\}"),
    ((0.5, 0.5, 0.5), r"pos must be \(x, y\) in metres"),
    ("ab", r"pos must be \(x, y\) in metres, got 'ab'"),
    (("a", 0.5), r"x must be a number, got 'a'"),
    ((0.5, None), r"y must be a number, got None"),
    ((math.nan, 0.5), r"action.x must be a finite number, got nan"),
])
def test_play_refuses_a_place_that_is_not_x_y(game, pos, message):
    s = new_session(game)
    with pytest.raises(ValueError, match=message):
        s.play(pos, 1.5, 3.0)
    assert s.actions == []


def test_play_refuses_a_number_that_is_not_one():
    s = new_session("9-ball")
    pos = s.default_place()
    for kwargs, field in (({"speed": "3"}, "speed"), ({"side": True}, "side"),
                          ({"height": [0.1]}, "height")):
        args = {"pos": pos, "angle": 1.5, "speed": 3.0, **kwargs}
        with pytest.raises(ValueError, match=f"Session.play: {field} must be a number"):
            s.play(**args)
    s.play(pos, 1.5, 3.0)  # a good shot still plays
    assert len(s.actions) == 1


@pytest.mark.parametrize("computer", [("X",), "Ann", ("Ann", "Ann"), None, 5])
def test_a_computer_player_must_be_a_player(computer):
    with pytest.raises(ValueError, match=r"computer must be the players the computer plays, "
                                         r"each once \(players \['Ann', 'Bob'\]\)"):
        new_session("9-ball", computer=computer)
    assert new_session("9-ball", computer=["Bob"]).computer == ("Bob",)


@pytest.mark.parametrize("session", [None, "9-ball", {"game": "9-ball"}])
def test_the_computer_plays_a_session_only(session):
    """choose_shot and choose_option are given a session: anything else is a TypeError naming
    it (it was an AttributeError from inside)."""
    from cuesim.viewer.ai import choose_option, choose_shot

    with pytest.raises(TypeError, match=r"the computer plays a game session"):
        choose_shot(session, n=4)
    with pytest.raises(TypeError, match=r"the computer plays a game session"):
        choose_option(session)


def test_choose_option_without_a_pending_choice_is_refused():
    """With no choice pending it used to stop on an `assert` (gone under python -O, then an
    IndexError or a choice of nothing)."""
    from cuesim.viewer.ai import choose_option

    s = new_session("9-ball")
    assert s.pending() is None
    with pytest.raises(ValueError, match=r"choose_option: no choice is pending; Ann is to "
                                         r"shoot \(choose_shot\)"):
        choose_option(s)


@pytest.mark.parametrize("game", ["novus", "8-ball", "9-ball", "14.1", "5-pins"])
def test_the_pieces_of_a_player_who_is_not_playing_are_refused(game):
    """pieces_of (what the computer aims at) for a name not in the game: 5-pins raised a
    KeyError, pool answered as if for a player; now every game a ValueError as novus's."""
    s = new_session(game)
    with pytest.raises(ValueError, match=r"unknown player 'Zed'; players are "):
        s.pieces_of("Zed")
    assert s.pieces_of(s.shooter())


@pytest.mark.parametrize("game, declaration, message", [
    ("14.1", {"called_bal": "3"}, r"action.declaration: unknown field\(s\) \['called_bal'\]"),
    ("8-ball", {"ball": "3", "pocket": "foot_left"}, r"unknown field\(s\) \['ball', 'pocket'\]"),
    ("8-ball", {"called_ball": 3}, r"action.declaration.called_ball must be a string or null"),
    ("9-ball", {"called_ball": "12"}, r"action.declaration.called_ball"),
    ("5-pins", {"foo": 1}, r"action.declaration: unknown field\(s\) \['foo'\]"),
    ("novus", {"called_ball": "red1"}, r"action.declaration must be an empty object"),
])
def test_a_declaration_the_referee_cannot_read_is_refused_before_it_is_played(
        game, declaration, message, tmp_path):
    """The pool and 5-pins sessions hand the referee only the declaration's fields it knows:
    a misspelt call used to be played as no call and saved into a game that no longer loaded
    ('unknown field(s)'). Session.apply now parses it as a saved game's is parsed."""
    s = new_session(game)
    pos = s.default_place() if s.placement() else s.struck_position()
    with pytest.raises(ValueError, match=message):
        s.play(pos, 1.5, 3.0, declaration=declaration)
    assert s.actions == [] and s.revision == 0


def test_a_good_declaration_still_plays_saves_and_loads(tmp_path):
    from cuesim.viewer.session import load_session

    s = new_session("14.1")
    s.play(s.default_place(), 1.5, 3.0,
           declaration={"called_ball": "3", "called_pocket": "foot_left"})
    s.save(tmp_path / "g.json")
    assert load_session(tmp_path / "g.json").actions == s.actions


def test_a_shot_while_a_choice_is_pending_is_refused_wpa_6_6():
    """After a 14.1 breaking violation the incoming player chooses to accept the table or to
    have it racked again (WPA 6.6). A shot given before that choice, carrying it in its
    declaration ('choice': 'rerack'), was simulated on the table as it lay and then ruled
    as the breaker's new break on the racked table: a foul charged to the breaker for a
    shot his opponent played on a table that never existed. Session.apply now refuses a
    shot while a choice is pending, and a declaration that makes a choice at all."""
    s = new_session("14.1", ["A", "B"])
    s.play(s.default_place(), math.pi / 2, 0.5)  # too soft: a breaking violation
    assert s.pending() == ("B", "WPA 6.6", ["accept", "rerack"])
    before = (list(s.actions), s.state_dict())
    for declaration in ({"choice": "rerack"}, {"choice": "accept"}, {}):
        with pytest.raises(ValueError, match=r"B is to choose first \(WPA 6.6\): a choice "
                                             r"action, option one of \['accept', 'rerack'\]"):
            s.play(s.struck_position() if s.placement() is None else s.default_place(), 1.2,
                   4.0, declaration=declaration)
    assert (s.actions, s.state_dict()) == before
    s.choose("accept")
    pos = s.struck_position() if s.placement() is None else s.default_place()
    with pytest.raises(ValueError, match=r"action.declaration.choice must be absent"):
        s.play(pos, 1.5, 3.0, declaration={"choice": "accept"})
    s.play(pos, 1.5, 3.0)  # the accepted table plays on


def test_a_five_pins_shot_while_the_spot_choice_is_pending_is_refused_13_5():
    """5-pins 13.5: after a foul the incoming player takes the ball in hand or has the
    offender's ball spotted; a shot before that choice is refused, not played on the table
    the choice would have changed."""
    s = new_session("5-pins", ["A", "B"])
    s.play(s.default_place(), 1.5708, 3.0)  # through the pins into the red first: a foul
    assert s.pending() is not None and s.pending()[1] == "5-pins 13.5"
    with pytest.raises(ValueError, match=r"B is to choose first \(5-pins 13.5\)"):
        s.play(s.default_place(), 1.0, 2.0, declaration={"choice": "spot_offender"})
    assert len(s.actions) == 1


@pytest.mark.parametrize("game, foul_break", [("14.1", 0.5), ("5-pins", 3.0)])
def test_an_infraction_or_request_while_a_choice_is_pending_names_the_choice_action(
        game, foul_break):
    """WPA 6.6, 5-pins 13.5: the incoming player chooses before anything else is ruled. An
    infraction declared between shots then reached the referee, whose refusal asked a
    session's user for the scenario files' 'declaration.choice'; the session now refuses
    it itself and names its choice action, as it does for a shot."""
    s = new_session(game, ["A", "B"])
    s.play(s.default_place(), math.pi / 2, foul_break)
    chooser, article, options = s.pending()
    before = (list(s.actions), s.state_dict())
    code = next(iter(s.infraction_codes()))
    for action, what in (({"kind": "infraction", "code": code, "player": "A"},
                          "an infraction declared between shots"),
                         ({"kind": "request", "name": "kitchen_spot"}, "a request")):
        with pytest.raises(ValueError) as info:
            s.apply(action)
        message = str(info.value)
        assert message.startswith(f"Session.apply: {chooser} is to choose first ({article}): "
                                  f"a choice action, option one of {options}, not {what}")
        assert "declaration.choice" not in message
    with pytest.raises(ValueError, match="a choice action"):
        s.declare(code, "A", last_shot=False)
    assert (s.actions, s.state_dict()) == before
    s.choose(options[0])  # the choice made, the game goes on
    assert s.pending() is None


@pytest.mark.parametrize("game", ["9-ball", "novus", "novus-doubles", "5-pins"])
def test_a_shot_action_of_a_player_not_to_shoot_is_refused(game):
    """An action whose player is not the one to shoot was played and ruled as the shooter's
    shot, and saved under the other name. A shot out of turn happens at a table (novus
    16.1.ж, 16.1.з), and is declared as an infraction; an action that says one player
    played the shooter's stroke is refused, naming who is to shoot."""
    s = new_session(game)
    pos = s.default_place() if s.placement() else s.struck_position()
    action = s.shot_action(pos, 1.5, 3.0)
    other = next(p for p in s.players if p != s.shooter())
    action["player"] = other
    with pytest.raises(ValueError, match=f"action.player must be '{s.shooter()}', the player "
                                         f"to shoot, got '{other}'"):
        s.apply(action)
    assert s.actions == []


def _to_a_ball_where_it_lies(s):
    """The session played on (the computer's beginner shots, its answers to choices) until
    the struck ball is to be played where it lies: no ball in hand, no choice pending."""
    from cuesim.viewer.ai import choose_option, choose_shot

    for k in range(40):
        if s.pending() is None and s.placement() is None:
            break
        if s.pending() is not None:
            s.choose(choose_option(s))
        else:
            s.apply(choose_shot(s, n=10, seed=k, level="beginner").action)
    assert s.placement() is None and s.pending() is None
    return s


@pytest.mark.parametrize("game", ["9-ball", "5-pins"])
def test_a_ball_played_where_it_lies_takes_no_other_place(game, tmp_path):
    """With no ball in hand the struck ball is played where it lies, and the action's (x, y)
    only repeats its place. Another place was ignored but saved with the game, and one off the
    table then kept the saved game from loading ('actions[1].x must be a place of the struck
    ball on the table'). Refused now, naming where the ball lies; a place within LIES_AT is
    recorded as the ball's own, and that game saves and loads."""
    from cuesim.viewer.session import LIES_AT, load_session

    s = _to_a_ball_where_it_lies(new_session(game))
    x, y = s.struck_position()
    n = len(s.actions)
    for far in ((100.0, -50.0), (x + 0.05, y), (x, y - 3 * LIES_AT)):
        with pytest.raises(ValueError, match=r"action.x, action.y must be where the \w+ ball "
                                             r"lies, \(.*\) m \(no ball in hand\)"):
            s.play(far, 1.2, 2.0)
    assert len(s.actions) == n
    s.play((x + 0.5 * LIES_AT, y), 1.2, 2.0)
    assert (s.actions[-1]["x"], s.actions[-1]["y"]) == (x, y)
    s.save(tmp_path / "g.json")
    assert load_session(tmp_path / "g.json").actions == s.actions


def test_a_saved_shot_from_where_the_ball_lay_replays_from_where_this_version_leaves_it(
        tmp_path):
    """A game saved by a version with other physics has its balls, when played where they
    lie, a little elsewhere than this version's replay leaves them. The replay takes each
    such shot from where the ball now lies (`Session.lies_at`), as it did before Session.apply
    checked the place, and notes any drift at the end; it does not stop at the first shot
    (which would keep only the saved table and lose the game's history)."""
    import json

    from cuesim.viewer.session import load_session

    s = _to_a_ball_where_it_lies(new_session("9-ball"))
    s.play(s.struck_position(), 1.2, 2.0)
    s.save(tmp_path / "g.json")
    data = json.loads((tmp_path / "g.json").read_text())
    data["actions"][-1]["x"] += 0.002  # where another version's physics had left the ball
    (tmp_path / "other.json").write_text(json.dumps(data))
    again = load_session(tmp_path / "other.json")
    assert again.actions == s.actions and again.load_note is None
