"""The one notation for a choice: a ``Choice`` in words, and words back to the legal ``Choice``.

Like python-chess's ``Board.san()`` / ``Board.parse_san()``: :func:`words` names a choice
of the current decision, :func:`parse` reads typed text back into the legal choice it
names. Everything that shows a choice to a person derives from here: the action
catalogue's names (``hexdojo.envs.catalogue``: in a duel ``words(state, c)`` *is* the
catalogue name of ``c``), the play menus, the replay, ``hexdojo advise`` and the lab's
replay viewer. :func:`points` is the one writer of half-point values (7, 11½, -½).

The words are::

    phase: act now | phase: wait | end phase | release hold | pass
    hold: move along | hold: let go | risk: N dice
    MANEUVER [-> LETTER] [@ LOCATION] [(OPTION[, turning left|right])]
    Turn 60 left | Turn 120 right | Turn 180 ...

``-> LETTER`` (the target's board letter, A for fighter 0) is written only when the fight
has more than two fighters: in a duel an attack's target is always the opponent. The
option words follow ``Choice``'s docstring (``Move (1 back)``, ``Side-step dodge
(left)``, ``Martial Kick (flying)``, ``Martial Strike @ Head (Blunt)``, ``Martial Throw
(land rear-left)``, ``Break Hold (strength)``).

Parsing is forgiving in the way a person types: case, punctuation and spacing do not
matter, words may be left out and abbreviated, as long as exactly one legal choice is
meant; a choice whose words the other candidates only add to (a turn, say) is the one
meant ("strike head blunt" is the plain strike, not the one turning left).
"""

from __future__ import annotations

import difflib
import re
from typing import TYPE_CHECKING, Any

from .hexgrid import RELATIVE_NAMES
from .model import Choice
from .weapons import HAND_NAMES, attack_mode, used_weapon

if TYPE_CHECKING:
    from .state import State
    from .tables import Tables

#: Board letters of fighters 0, 1, ... (the renderer's and the notation's).
LETTERS = "ABCDEFGH"

#: The choices that are not maneuvers or risks, with their words (the catalogue's order).
FIXED_WORDS: tuple[tuple[Choice, str], ...] = (
    (Choice("phase", option=1), "phase: act now"),
    (Choice("phase", option=0), "phase: wait"),
    (Choice("end"), "end phase"),
    (Choice("release"), "release hold"),
    (Choice("pass"), "pass"),
    (Choice("hold", option=1), "hold: move along"),
    (Choice("hold", option=0), "hold: let go"),
)
_FIXED = dict(FIXED_WORDS)
_TURN_WORDS = {0: "", 1: "turning left", -1: "turning right"}
_TURN_MANEUVER_WORDS = {1: "60 left", -1: "60 right", 2: "120 left", -2: "120 right", 3: "180"}
#: what a ``pass`` means at each kind of decision (a gloss for menus, not notation)
PASS_MEANS = {"reaction": "no reaction", "follow_on": "no follow-on",
              "soak": "no soak: take the wound"}


class NotationError(ValueError):
    """Typed text that names no legal choice, or several; the message is one line."""


# --------------------------------------------------------------------------- half points
def points(half: int) -> str:
    """Half points as the rulebook writes them: 7, 11½, -1½, ½."""
    sign, a = ("-" if half < 0 else ""), abs(half)
    whole = str(a // 2) if a // 2 or not a % 2 else ""
    return f"{sign}{whole}{'½' if a % 2 else ''}"


def sheet_lines(p: Any) -> list[str]:
    """A fighter's sheet (a ``Profile``) in lines for people: style, characteristics,
    skills, specialisms, armour, encumbrance, the dice he risks, mounted; the half points
    as the rulebook writes them. The rules layer reads its own sheet here, so a display
    (the table's hover) reads no rule number itself."""

    def vals(d: Any) -> str:
        return ", ".join(f"{k} {points(v)}" for k, v in d.items() if v) or "-"

    pv = sorted(set(p.pv.values()))
    lines = [f"{p.name}: {p.style}", p.description,
             f"characteristics: {vals(p.chars)}", f"skills: {vals(p.skills)}",
             f"specialisms: {vals(p.specs)}",
             f"armour PV {'/'.join(points(v) for v in pv)}, {p.encumbrance}",
             f"risk: {p.risk.ap} AP, {p.risk.initiative} initiative, {p.risk.damage} damage"]
    if p.mounted or p.height:
        lines.append(f"mounted, height {p.height}")
    return lines


# --------------------------------------------------------------------------- choice -> words
def option_words(tables: Tables, name: str, option: int) -> str:
    """What ``option`` means for maneuver ``name`` (see ``Choice``'s docstring); "" when
    the option carries no meaning for it."""
    m = tables.maneuvers[name]
    data = tables.data
    if m.weapon in ("melee", "close"):
        hand, mode = divmod(option, tables.max_modes)
        return f"{HAND_NAMES[hand % 2]} hand, mode {mode + 1}"
    if m.weapon is not None or m.category == "drop":
        return f"{HAND_NAMES[option % 2]} hand"
    if m.category == "ready":
        return tables.weapons[tables.weapon_ids[option]].name
    if m.category == "move":
        return f"{option} forward" if option > 0 else f"{-option} back"
    if m.moves == "side":
        offs = data.movement.side_step_offsets_adjacent
        return ("left", "right")[option] if len(offs) == 2 else f"way {option}"
    if m.may_advance:
        return "flying" if option == 1 else ""
    if len(m.damage_types) > 1:
        return m.damage_types[option]
    if m.category == "throw":
        return f"land {RELATIVE_NAMES[option]}"
    if m.category == "break":
        return data.break_hold.escaper_methods[option]
    return ""


def turn_words(tables: Tables, name: str, turn: int) -> str:
    """The turn of a maneuver in words: Turn's own size ("120 left"), else the optional
    60-degree turn ("turning left"), "" for none."""
    if tables.maneuvers[name].category == "turn":
        return _TURN_MANEUVER_WORDS.get(turn, str(turn))
    return _TURN_WORDS.get(turn, f"turning {turn}")


def choice_words(tables: Tables, c: Choice, target: str | None = None) -> str:
    """``c`` in words, without a state: the action catalogue's names. ``target`` is the
    target's letter, written as ``-> B`` (None: not written, as in a duel)."""
    if c.kind == "risk":
        return f"risk: {c.risk} dice"
    if c.kind != "maneuver":
        fixed = _FIXED.get(Choice(c.kind, option=c.option if c.kind in ("phase", "hold") else 0))
        if fixed is None:
            raise NotationError(f"choice {tuple(c)}: kind {c.kind!r} has no words")
        return fixed
    name = c.maneuver or "?"
    if name not in tables.maneuvers:
        raise NotationError(f"choice {tuple(c)}: unknown maneuver {name!r}")
    if tables.maneuvers[name].category == "turn":
        return f"{name} {turn_words(tables, name, c.turn)}"
    parts = [name]
    if target is not None:
        parts.append(f"-> {target}")
    if c.location is not None:
        parts.append(f"@ {c.location}")
    extras = [w for w in (option_words(tables, name, c.option), turn_words(tables, name, c.turn))
              if w]
    if extras:
        parts.append("(" + ", ".join(extras) + ")")
    return " ".join(parts)


def words(state: State, c: Choice) -> str:
    """``c`` (a choice of ``state``'s fight) in words; the target's letter only when the
    fight has more than two fighters. A weapon maneuver of the deciding fighter names the
    weapon (and mode) instead of the hand: ``Stand and attack @ Chest (sword cut)``."""
    target = None
    if c.target is not None and len(state.fighters) > 2:
        target = LETTERS[c.target % len(LETTERS)]
    text = choice_words(state.t, c, target)
    m = state.t.maneuvers.get(c.maneuver or "") if c.kind == "maneuver" else None
    d = state.decision
    if m is None or d is None or m.weapon is None:
        return text
    wid = used_weapon(state, d.fighter, c.maneuver or "", c.option)
    if wid is None:
        return text
    named = state.t.weapons[wid].name
    mode = attack_mode(state, d.fighter, c.maneuver or "", c.option)
    if mode is not None:
        named += f" {mode.name}"
    return text.replace(option_words(state.t, c.maneuver or "", c.option), named, 1)


# --------------------------------------------------------------------------- words -> choice
def tokens(text: str) -> tuple[str, ...]:
    """The words that count when matching: lower case, letters and digits only."""
    return tuple(re.findall(r"[a-z0-9]+", text.lower()))


def _contains(have: tuple[str, ...], typed: tuple[str, ...], prefix: bool = True) -> bool:
    """Every typed word is a distinct word of ``have`` (or, with ``prefix``, the start of
    one), in any order."""
    rest = list(have)
    for w in typed:
        k = next((i for i, h in enumerate(rest) if h == w), None)
        if k is None and prefix:
            k = next((i for i, h in enumerate(rest) if h.startswith(w)), None)
        if k is None:
            return False
        rest.pop(k)
    return True


def match(text: str, labels: list[str]) -> list[int]:
    """Indices of ``labels`` that ``text`` names: the exact one if any, else those that
    contain all its words, cut to the one that the others only add words to."""
    typed = tokens(text)
    if not typed:
        return []
    toks = [tokens(lb) for lb in labels]
    exact = [k for k, t in enumerate(toks) if t == typed]
    if exact:
        return exact
    hits = [k for k, t in enumerate(toks) if _contains(t, typed)]
    for k in hits:
        if all(h == k or _contains(toks[h], toks[k], prefix=False) for h in hits):
            return [k]
    return hits


def parse(state: State, text: str, choices: list[Choice] | None = None) -> Choice:
    """The legal choice (of ``choices``, default all legal choices now) that ``text``
    names; :class:`NotationError` with one line naming the text and the close choices."""
    legal = state.legal_choices() if choices is None else choices
    labels = [words(state, c) for c in legal]
    hits = match(text, labels)
    if len(hits) == 1:
        return legal[hits[0]]
    if hits:
        shown = "; ".join(labels[k] for k in hits[:4]) + ("; ..." if len(hits) > 4 else "")
        raise NotationError(f"{text.strip()!r} could be {len(hits)} choices: {shown}")
    close = difflib.get_close_matches(" ".join(tokens(text)),
                                      [" ".join(tokens(lb)) for lb in labels], n=3, cutoff=0.4)
    near = [labels[[" ".join(tokens(lb)) for lb in labels].index(c)] for c in close]
    hint = f"; close: {'; '.join(near)}" if near else f"; {len(legal)} legal choice(s) now"
    raise NotationError(f"{text.strip()!r} is not a legal choice now{hint}")
