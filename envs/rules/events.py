"""Readable one-line renderings of the engine's structured events.

Every event is a JSON-serialisable dict with ``type``, ``turn`` and ``rule`` (the section
or page id it applies); rolls are dicts with basic value, terms, risk, dice and result.
"""

from __future__ import annotations

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


def render_event(e: dict[str, Any], state: State | None = None) -> str:  # noqa: C901
    t = e["type"]
    who = _who(e)
    if t == "turn_start":
        body = (f"Turn {e['turn']}: {who} {e['ap']} AP (roll {roll_text(e['ap_roll'])}), "
                f"initiative {roll_text(e['initiative_roll'])}")
    elif t == "initiative":
        body = "Initiative order: " + ", ".join(e["order"])
    elif t == "phase":
        body = f"{who}'s phase ({e['ap']} AP)"
    elif t == "wait":
        body = f"{who} waits"
    elif t == "phase_ends":
        body = f"{who} ends the phase ({e['ap']} AP left)"
    elif t == "move":
        body = f"{who} moves to {tuple(e['to'])} facing {e['facing']}"
    elif t == "dodge_move":
        body = f"{who} dodges to {tuple(e['to'])}"
    elif t == "turn":
        body = f"{who} turns to face {e['facing']} ({e['via']})"
    elif t == "stand_up":
        body = f"{who} stands up ({e['via']})"
    elif t == "declare":
        where = f" at the {e['location']}" if e.get("location") else ""
        close = ", closing" if e.get("closing") else ""
        body = f"{who} {e['maneuver']} -> {e['target']}{where} ({e['via']}{close})"
    elif t == "reaction":
        body = f"{who} reacts to {e['against']} with {e['maneuver']}"
    elif t == "attack":
        if "counter" in e:
            body = (f"{who} {e['maneuver']} -> {e['target']}: attack {roll_text(e['attack'])} vs "
                    f"counter {e['counter']} {roll_text(e['defence'])}: {e['outcome']}")
        else:
            margin = f" by {num(e['margin'])}" if e["outcome"] == "hit" else ""
            body = (f"{who} {e['maneuver']} -> {e['target']}: attack {roll_text(e['attack'])} vs "
                    f"{e['defence_maneuver']} {roll_text(e['defence'])}: {e['outcome']}{margin}")
    elif t == "damage":
        what = {"attack": "", "lock": " (lock, no attack roll)",
                "self": " (self-injury on armour)"}[e["kind"]]
        body = (f"{e['target']} takes {roll_text(e['roll'])} {e['damage_type']} to the {e['location']}"
                f"{what} vs DR {num(e['dr'])}: {e['wound']} wound")
    elif t == "soak":
        body = (f"{who} soaks {roll_text(e['roll'])}: -{e['levels']} level(s), "
                f"{e['before']} -> {e['after']}")
    elif t == "wound":
        extra = ", killed" if e.get("effect") == "killed" else f" (worst {e.get('worst')})"
        body = f"{who}: {e['wound']} wound to the {e['location']}{extra}"
    elif t == "pain":
        body = f"{who} immediate reaction {roll_text(e['roll'])}: {e['effect']}"
    elif t == "knockback":
        falls = ", falls prone" if e.get("falls") else ""
        body = (f"{who} knock-back {roll_text(e['roll'])} vs {num(e['difficulty'])}: "
                f"{e['effect']}{falls}")
    elif t == "hold":
        where = f" ({e['location']})" if e.get("location") else ""
        body = f"{who} holds {e['target']}: {e['hold']}{where}"
    elif t == "hold_ends":
        names = _names(state, e)
        body = f"{names[0]}'s {e['hold']} hold on {names[1]} ends: {e['why']}"
    elif t == "break_hold":
        body = (f"{who} Break Hold vs {e['target']}: {roll_text(e['escaper'])} vs "
                f"{roll_text(e['holder'])}: {e['outcome']}")
    elif t == "foiled":
        body = f"{who}'s {e['maneuver']} on {e['target']} is foiled: {e['why']}"
    elif t == "prone":
        body = f"{who} is prone ({e['why']})"
    elif t == "falls_off":
        body = f"{who} falls off the mount ({e['why']})"
    elif t == "stay_mounted":
        body = f"{who} stays mounted? {roll_text(e['roll'])} vs {num(e['difficulty'])}: {e['outcome']}"
    elif t == "hold_kept":
        body = f"{who} keeps the {e['hold']} hold ({e['ap']} AP)"
    elif t == "moves_along":
        body = f"{who} moves along with the held opponent"
    elif t == "fight_ends":
        if e["winner"] is None:
            body = f"Fight ends: draw ({e['reason']})"
        else:
            name = e.get("side") or (state.fighters[e["winner"]].name if state is not None else e["winner"])
            body = f"Fight ends: {name} wins ({e['reason']})"
    else:
        body = f"{t}: " + ", ".join(f"{k}={v}" for k, v in e.items() if k not in ("type", "rule"))
    return f"{body} ({e['rule']})"


def _names(state: State | None, e: dict[str, Any]) -> tuple[str, str]:
    if state is None:
        return str(e.get("holder")), str(e.get("held"))
    return state.fighters[e["holder"]].name, state.fighters[e["held"]].name
