"""Readable one-line renderings of the engine's structured events.

Every event is a JSON-serialisable dict with ``type``, ``turn`` and ``rule`` (the section
or page id it applies); rolls are dicts with basic value, terms, risk, dice and result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .notation import points

if TYPE_CHECKING:
    from .state import State


def num(v: float | int) -> str:
    """A logged value (9 or 9.5, see ``state.half``) as the rulebook writes it: the one
    half-point writer, :func:`.notation.points`."""
    h = v * 2
    return points(int(h)) if float(h).is_integer() else str(v)


def signed(v: float | int) -> str:
    return num(v) if v < 0 else "+" + num(v)


def roll_text(r: dict[str, Any] | None) -> str:
    """``12 (Martial Arts 4, CO +1, encumbrance +4, risk 1d6: 4)``: the die as the roll
    record names it (``sides``, from ``dice.die_sides``)."""
    if not r:
        return "?"
    if "terms" not in r:
        return num(r["result"])
    parts = []
    for i, (name, v) in enumerate(r["terms"]):
        parts.append(f"{name} {num(v) if i == 0 else signed(v)}")
    if r.get("risk"):
        parts.append(f"risk {r['risk']}d{r['sides']}: {'+'.join(str(d) for d in r['dice'])}")
    return f"{num(r['result'])} ({', '.join(parts)})"


def _who(e: dict[str, Any]) -> str:
    return e.get("actor", "?")


Event = dict[str, Any]
Renderer = Callable[[Event, str, "State | None"], str]


def _declare(e: Event, who: str, state: State | None) -> str:
    where = f" at the {e['location']}" if e.get("location") else ""
    close = ", closing" if e.get("closing") else ""
    return f"{who} {e['maneuver']} -> {e['target']}{where} ({e['via']}{close})"


def _attack(e: Event, who: str, state: State | None) -> str:
    head = f"{who} {e['maneuver']} -> {e['target']}: attack {roll_text(e['attack'])} vs "
    if "counter" in e:
        return head + f"counter {e['counter']} {roll_text(e['defence'])}: {e['outcome']}"
    margin = f" by {num(e['margin'])}" if e["outcome"] == "hit" else ""
    return head + f"{e['defence_maneuver']} {roll_text(e['defence'])}: {e['outcome']}{margin}"


_DAMAGE_KIND = {"attack": "", "lock": " (lock, no attack roll)", "self": " (self-injury on armour)"}


def _damage(e: Event, who: str, state: State | None) -> str:
    return (f"{e['target']} takes {roll_text(e['roll'])} {e['damage_type']} to the {e['location']}"
            f"{_DAMAGE_KIND[e['kind']]} vs DR {num(e['dr'])}: {e['wound']} wound")


def _wound(e: Event, who: str, state: State | None) -> str:
    extra = ", killed" if e.get("effect") == "killed" else f" (worst {e.get('worst')})"
    return f"{who}: {e['wound']} wound to the {e['location']}{extra}"


def _hold_ends(e: Event, who: str, state: State | None) -> str:
    holder, held = _names(state, e)
    return f"{holder}'s {e['hold']} hold on {held} ends: {e['why']}"


def _fight_ends(e: Event, who: str, state: State | None) -> str:
    if e["winner"] is None:
        return f"Fight ends: draw ({e['reason']})"
    name = e.get("side") or (state.fighters[e["winner"]].name if state is not None else e["winner"])
    return f"Fight ends: {name} wins ({e['reason']})"


#: event type -> its one-line renderer (the body; :func:`render_event` adds the rule)
RENDERERS: dict[str, Renderer] = {
    "turn_start": lambda e, who, _: (f"Turn {e['turn']}: {who} {e['ap']} AP (roll "
                                     f"{roll_text(e['ap_roll'])}), initiative "
                                     f"{roll_text(e['initiative_roll'])}"),
    "initiative": lambda e, who, _: "Initiative order: " + ", ".join(e["order"]),
    "phase": lambda e, who, _: f"{who}'s phase ({e['ap']} AP)",
    "wait": lambda e, who, _: f"{who} waits",
    "phase_ends": lambda e, who, _: f"{who} ends the phase ({e['ap']} AP left)",
    "move": lambda e, who, _: f"{who} moves to {tuple(e['to'])} facing {e['facing']}",
    "dodge_move": lambda e, who, _: f"{who} dodges to {tuple(e['to'])}",
    "turn": lambda e, who, _: f"{who} turns to face {e['facing']} ({e['via']})",
    "stand_up": lambda e, who, _: f"{who} stands up ({e['via']})",
    "declare": _declare,
    "reaction": lambda e, who, _: f"{who} reacts to {e['against']} with {e['maneuver']}",
    "attack": _attack,
    "damage": _damage,
    "soak": lambda e, who, _: (f"{who} soaks {roll_text(e['roll'])}: -{e['levels']} level(s), "
                               f"{e['before']} -> {e['after']}"),
    "wound": _wound,
    "pain": lambda e, who, _: f"{who} immediate reaction {roll_text(e['roll'])}: {e['effect']}",
    "knockback": lambda e, who, _: (
        f"{who} knock-back {roll_text(e['roll'])} vs {num(e['difficulty'])}: "
        f"{e['effect']}{', falls prone' if e.get('falls') else ''}"),
    "hold": lambda e, who, _: (f"{who} holds {e['target']}: {e['hold']}"
                               f"{_paren(e.get('location'))}"),
    "hold_ends": _hold_ends,
    "break_hold": lambda e, who, _: (f"{who} Break Hold vs {e['target']}: "
                                     f"{roll_text(e['escaper'])} vs {roll_text(e['holder'])}: "
                                     f"{e['outcome']}"),
    "foiled": lambda e, who, _: f"{who}'s {e['maneuver']} on {e['target']} is foiled: {e['why']}",
    "prone": lambda e, who, _: f"{who} is prone ({e['why']})",
    "falls_off": lambda e, who, _: f"{who} falls off the mount ({e['why']})",
    "stay_mounted": lambda e, who, _: (f"{who} stays mounted? {roll_text(e['roll'])} vs "
                                       f"{num(e['difficulty'])}: {e['outcome']}"),
    "hold_kept": lambda e, who, _: f"{who} keeps the {e['hold']} hold ({e['ap']} AP)",
    "moves_along": lambda e, who, _: f"{who} moves along with the held opponent",
    "fight_ends": _fight_ends,
}


def _paren(location: str | None) -> str:
    return f" ({location})" if location else ""


def _generic(e: Event, who: str, state: State | None) -> str:
    """An event type without a renderer: its fields as ``key=value``."""
    return f"{e['type']}: " + ", ".join(f"{k}={v}" for k, v in e.items() if k not in ("type", "rule"))


def render_event(e: Event, state: State | None = None) -> str:
    """One readable line for event ``e`` (its type's renderer, then the rule it applied);
    ``state`` names the fighters an event only numbers."""
    body = RENDERERS.get(e["type"], _generic)(e, _who(e), state)
    return f"{body} ({e['rule']})"


def _names(state: State | None, e: dict[str, Any]) -> tuple[str, str]:
    if state is None:
        return str(e.get("holder")), str(e.get("held"))
    return state.fighters[e["holder"]].name, state.fighters[e["held"]].name
