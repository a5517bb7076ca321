"""Adjudicators: turn a shot's event log and layouts into rulings that cite rule articles."""

from cuesim.rules.ruling import Infraction, Ruling, Violation

__all__ = ["Infraction", "Ruling", "Violation"]
