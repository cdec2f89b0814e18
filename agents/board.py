"""Text rendering of the hex board and of choices, for play, replay and the demo.

The board is drawn row by row (axial ``r`` from top to bottom), each row shifted by half a
cell so the hexes interlock. A fighter shows as a letter (``A`` = fighter 0, ``B`` =
fighter 1, lower case when prone) followed by an arrow for its facing; ``X`` marks a hex
shared by two fighters (close combat).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexdojo.envs.rules import Choice
from hexdojo.envs.rules import hexgrid as hx

if TYPE_CHECKING:
    from hexdojo.envs.rules import State

ARROWS = ("→", "↗", "↖", "←", "↙", "↘")  # directions 0..5: E, NE, NW, W, SW, SE
LETTERS = "ABCDEFGH"
TURN_WORDS = {1: "turning left", -1: "turning right"}
TURN_MANEUVER = {1: "60° left", -1: "60° right", 2: "120° left", -2: "120° right", 3: "180°"}
REAR_HEX = {2: "rear-left", 3: "rear", 4: "rear-right"}


def render_board(state: State) -> str:
    """The arena with the fighters on it, and one status line per fighter."""
    radius = state.game.radius
    at: dict[hx.Hex, list[int]] = {}
    for f in state.fighters:
        at.setdefault(f.pos, []).append(f.idx)
    lines = []
    for r in range(-radius, radius + 1):
        cells = []
        for q in range(-radius, radius + 1):
            if not hx.in_arena((q, r), radius):
                continue
            here = at.get((q, r), [])
            if not here:
                cells.append(" ·  ")
            elif len(here) > 1:
                cells.append(" X  ")
            else:
                f = state.fighters[here[0]]
                letter = LETTERS[f.idx % len(LETTERS)]
                if f.prone:
                    letter = letter.lower()
                if not f.active:
                    letter = "+"
                cells.append(f" {letter}{ARROWS[f.facing]} ")
        lines.append("  " * abs(r) + "".join(cells).rstrip())
    lines.append("")
    lines.extend(fighter_line(state, f.idx) for f in state.fighters)
    return "\n".join(lines)


def fighter_line(state: State, i: int) -> str:
    f = state.fighters[i]
    t = state.t
    bits = [f"{LETTERS[i % len(LETTERS)]} = {f.name}", f"at {f.pos}",
            f"facing {hx.DIRECTION_NAMES[f.facing]}", f"{f.ap} AP"]
    if f.prone:
        bits.append("prone")
    if f.status:
        bits.append(f.status)
    if f.out:
        bits.append(f.out)
    for h in state.holds:
        if h.holder == i:
            bits.append(f"holds {state.fighters[h.held].name} ({h.kind})")
        if h.held == i:
            bits.append(f"held by {state.fighters[h.holder].name} ({h.kind})")
    if f.wounds:
        bits.append("wounds: " + ", ".join(f"{t.wound_levels[lv]} {loc}" for loc, lv in f.wounds))
    return ", ".join(bits)


def choice_label(state: State, c: Choice) -> str:
    """A readable name for a legal choice of the current decision."""
    d = state.decision
    kind = d.kind if d is not None else ""
    if c.kind == "phase":
        return "take my phase now" if c.option == 1 else "wait (let others phase first)"
    if c.kind == "end":
        return "end my phase"
    if c.kind == "release":
        return "release my hold"
    if c.kind == "pass":
        return {"reaction": "no reaction", "follow_on": "no follow-on",
                "soak": "no soak (take the wound)"}.get(kind, "pass")
    if c.kind == "risk":
        return f"risk {c.risk} dice" if c.risk != 1 else "risk 1 die"
    if c.kind == "hold":
        return "move along with the held opponent" if c.option == 1 else "let go"
    t = state.t
    name = c.maneuver or "?"
    m = t.maneuvers[name]
    text = name
    if c.target is not None:
        text += f" -> {state.fighters[c.target].name}"
        if c.location:
            text += f" at the {c.location}"
    extras = []
    opt = option_words(state, name, c.option)
    if opt:
        extras.append(opt)
    if m.category == "turn":
        extras.append(TURN_MANEUVER.get(c.turn, str(c.turn)))
    elif c.turn:
        extras.append(TURN_WORDS.get(c.turn, f"turn {c.turn}"))
    return f"{text} ({', '.join(extras)})" if extras else text


def option_words(state: State, name: str, option: int) -> str:
    """What a maneuver's ``option`` means (see ``Choice``), in words."""
    t = state.t
    m = t.maneuvers[name]
    data = t.data
    if m.category == "move":
        return f"{option} forward" if option > 0 else f"{-option} back"
    if m.moves == "side":
        return ("to the left", "to the right")[option] if option in (0, 1) else f"way {option}"
    if m.may_advance:
        return "flying" if option == 1 else ""
    if len(m.damage_types) > 1:
        return m.damage_types[option] if option < len(m.damage_types) else ""
    if m.category == "throw":
        return f"landing {REAR_HEX.get(option, str(option))}"
    if m.category == "break":
        methods = data.break_hold.escaper_methods
        return f"by {methods[option]}" if option < len(methods) else ""
    return ""
