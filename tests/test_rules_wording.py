"""Rulings in words (rules.wording): numbers in brackets that are no articles stay as they are,
and players' names are written as given."""

from __future__ import annotations

from cuesim.rules.ruling import Ruling, Violation
from cuesim.rules.wording import sentence, uncited_articles
from cuesim.rulings import describe_ruling


def test_coordinates_in_brackets_are_no_articles() -> None:
    """A position, '(0.9266, 0.5000)', took the rulebook cited elsewhere as if it were an
    article list: '(novus 0.9266, 0.5000)'."""
    assert sentence("novus 12: the striker at (0.9266, 0.5000) is outside its strip") == \
        "The striker at (0.9266, 0.5000) is outside its strip (novus 12)."
    assert sentence("5-pins 13.5: on the top spot (0.710, 2.740), not at (0.500, 2.000)") == \
        "On the top spot (0.710, 2.740), not at (0.500, 2.000) (WCBS 13.5)."
    assert uncited_articles("the striker at (0.9266, 0.5000)") == []


def test_bare_articles_still_take_their_rulebook() -> None:
    """Bare numbers take the rulebook cited elsewhere; a citation group that ends the text
    joins the sentence's own article (WPA 6.5, novus 17.1.а) as one group."""
    assert sentence("WPA 6.5: a foul (6.7.1) and (10.2, 10.3)") == \
        "A foul (WPA 6.7.1) and (WPA 10.2, 10.3, 6.5)."
    assert sentence("novus 17.1.а: punishable shot (novus 13)") == \
        "Punishable shot (novus 13, 17.1.а)."
    assert sentence("a count (2) (WPA 5.8)") == "A count (2) (WPA 5.8)."


def test_a_players_name_opening_a_sentence_is_written_as_given() -> None:
    """'player1 chooses ...' stayed 'Player1 chooses ...' (WCBS 13.5)."""
    r = Ruling(True, [], notes=["player1 chooses 'in_hand' (5-pins 13.5)"],
               next_player="player1", placement="table")
    assert r.describe("game", stroke=False).startswith(
        "No foul. player1 chooses to take the ball in hand (WCBS 13.5). player1 plays next")
    assert describe_ruling(r.to_dict(), stroke=False).startswith(
        "No foul. player1 chooses to take the ball in hand (WCBS 13.5).")
    assert sentence("the ball hit (WPA 6.3)", ["player1"]) == "The ball hit (WPA 6.3)."
    r = Ruling(False, [Violation("5-pins 15.3.б", "bob touched a ball", "foul")],
               next_player="ann", points={"bob": 2})
    assert "bob touched a ball (WCBS 15.3.б)." in r.describe("game")
