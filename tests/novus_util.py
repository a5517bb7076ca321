"""Helpers for the novus referee tests: hand-written layouts, event logs and scenarios."""

from __future__ import annotations

from typing import Any

from cuesim.rules.novus import adjudicate_scenario

STRIKER_Y = 0.07  # inside the south strip


def puck(pid: str, x: float, y: float, group: str | None = None) -> dict[str, Any]:
    group = group if group is not None else pid.rstrip("0123456789")
    return {"id": pid, "kind": "puck", "group": group, "x": x, "y": y}


def striker(x: float = 0.5, y: float = STRIKER_Y) -> dict[str, Any]:
    return {"id": "striker", "kind": "striker", "x": x, "y": y}


def layout(*pieces: dict[str, Any]) -> dict[str, Any]:
    return {"table": "novus", "pieces": list(pieces)}


def hit(t: float, b: str, a: str = "striker") -> dict[str, Any]:
    return {"t": t, "kind": "collide", "a": a, "b": b}


def rail(t: float, name: str, a: str = "striker") -> dict[str, Any]:
    return {"t": t, "kind": "rail", "a": a, "feature": name}


def pocket(t: float, a: str, hole: str = "north_west") -> dict[str, Any]:
    return {"t": t, "kind": "pocket", "a": a, "feature": hole}


def line(t: float, name: str, direction: int, a: str = "striker") -> dict[str, Any]:
    return {"t": t, "kind": "line", "a": a, "feature": name, "direction": direction}


def strike() -> dict[str, Any]:
    return {"t": 0.0, "kind": "strike", "a": "striker"}


def scenario(before: list[dict[str, Any]], after: list[dict[str, Any]] | None,
             events: list[dict[str, Any]] | None = None, state: dict[str, Any] | None = None,
             infractions: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"game": "novus", "state": state or {}, "before": layout(*before)}
    if after is not None:
        data["after"] = layout(*after)
        data["events"] = [strike(), *(events or [])]
    if infractions:
        data["infractions"] = infractions
    return data


def rule(*args: Any, **kwargs: Any) -> dict[str, Any]:
    return adjudicate_scenario(scenario(*args, **kwargs))


def articles(out: dict[str, Any]) -> list[str]:
    return [v["article"] for v in out["ruling"]["violations"]]


def moved(pieces: list[dict[str, Any]], pid: str, x: float, y: float) -> list[dict[str, Any]]:
    return [dict(p, x=x, y=y) if p["id"] == pid else p for p in pieces]


def drop(pieces: list[dict[str, Any]], *pids: str) -> list[dict[str, Any]]:
    return [p for p in pieces if p["id"] not in pids]


def row(colour: str, y: float, n: int = 8, first: int = 1, x0: float = 0.395
        ) -> list[dict[str, Any]]:
    """n pucks in a touching row at height y."""
    return [puck(f"{colour}{first + k}", x0 + 0.03 * k, y, colour) for k in range(n)]
