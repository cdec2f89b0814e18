"""The menus a person picks from in ``hexdojo play``: grouped, with AP and odds beside each.

An action decision has 80-300 legal choices; a flat list of them is unreadable. Here they
are grouped the way a player thinks: the maneuver first, then its aim (target and hit
location), then its option and optional turn; a level with one entry is skipped. Each
row carries the AP it costs and the AP left after it, and for attacks and defences the
chance to hit or to defend, from the engine's values and the exact dice tables (the odds
``hexdojo advise`` shows, :func:`hexdojo.agents.advise.hit_odds`; nothing re-derived
here). A dice (risk) decision is one menu numbered by the dice count, so typing 6 risks
6 dice. Rows are written in the notation (:mod:`hexdojo.envs.rules.notation`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hexdojo.envs.rules import weapons as wp
from hexdojo.envs.rules.notation import LETTERS, PASS_MEANS, option_words, turn_words, words

from .advise import RiskOdds, hit_odds, risk_odds

if TYPE_CHECKING:
    from rich.text import Text

    from hexdojo.envs.rules import Choice, State


@dataclass
class Entry:
    """One row: a choice, or a group of choices that opens a menu of its own."""

    label: str
    choices: list[Choice]
    note: str = ""  #: AP and odds, shown beside the label
    number: int = 0  #: what to type to pick it


@dataclass
class Menu:
    title: str
    entries: list[Entry]
    level: int = 0  #: 0 maneuvers, 1 aims, 2 options (a dice menu is level 0)
    dice: bool = False  #: numbered by dice count
    by_number: dict[int, Entry] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for k, e in enumerate(self.entries):
            if not self.dice:
                e.number = k + 1
            self.by_number[e.number] = e

    def lines(self) -> list[str]:
        texts = [e.label + (f"  ▸ {len(e.choices)}" if len(e.choices) > 1 else "")
                 for e in self.entries]
        width = min(max(map(len, texts), default=0), 48)
        out = [self.title]
        for e, text in zip(self.entries, texts, strict=True):
            out.append(f"  {e.number:>3}. {text:<{width}}   {e.note}".rstrip())
        return out


# --------------------------------------------------------------------------- costs and odds
def ap_cost(state: State, c: Choice) -> int:
    """AP a choice spends: a maneuver its ``ap`` in the rules data, releasing a hold
    ``holds.release_ap`` (§5.17); everything else nothing."""
    if c.kind == "maneuver" and c.maneuver is not None:
        d = state.decision  # a weapon attack's mode sets its AP (aom3142)
        return wp.cost(state, d.fighter, c.maneuver, c.option) if d is not None \
            else state.t.maneuvers[c.maneuver].ap
    if c.kind == "release":
        return state.t.data.holds.release_ap
    return 0


def odds_note(state: State, c: Choice) -> tuple[float, str] | None:
    """(probability, words) for an attack (its chance to hit the target's best defence)
    or a defence at a reaction (its chance to stop the attack), else None."""
    o = hit_odds(state, c)
    if o is None:
        return None
    if o.incoming:
        return 1.0 - o.p, f"defend {1.0 - o.p:.0%}"
    return o.p, f"hit {o.p:.0%} vs {o.defence_name}"


def _note(state: State, group: list[Choice], with_odds: bool = True) -> str:
    """AP (the same for every choice of a group) and the odds, or their range."""
    d = state.decision
    ap = state.fighters[d.fighter].ap if d is not None else 0
    costs = sorted({ap_cost(state, c) for c in group})
    cost = costs[0] if len(costs) == 1 else f"{costs[0]}-{costs[-1]}"
    bits = [f"{cost} AP, {ap - costs[-1]} left" if costs[-1] else f"0 AP, {ap} left"]
    if with_odds:
        odds = [o for o in map(lambda c: odds_note(state, c), group) if o is not None]
        if len(odds) == 1 or (odds and len({round(p, 3) for p, _ in odds}) == 1):
            bits.append(odds[0][1])
        elif odds:
            lo, hi = min(p for p, _ in odds), max(p for p, _ in odds)
            word = "defend" if odds[0][1].startswith("defend") else "hit"
            bits.append(f"{word} {lo:.0%}-{hi:.0%}")
    return "   ".join(bits)


# --------------------------------------------------------------------------- grouping
def _label(state: State, c: Choice) -> str:
    """A row's words: the notation, with what ``pass`` means at this decision."""
    d = state.decision
    text = words(state, c)
    if c.kind == "pass" and d is not None and d.kind in PASS_MEANS:
        text += f" ({PASS_MEANS[d.kind]})"
    return text


def _group_key(level: int) -> Callable[[Choice], Hashable]:
    if level == 0:
        return lambda c: c.maneuver if c.kind == "maneuver" else tuple(c)
    if level == 1:
        return lambda c: (c.target, c.location)
    return lambda c: tuple(c)


def _group_label(state: State, level: int, group: list[Choice]) -> str:
    c = group[0]
    if len(group) == 1:
        return _label(state, c)
    if level == 0:
        return c.maneuver or c.kind
    if level == 1:
        aim = f"-> {LETTERS[c.target]} " if c.target is not None and len(state.fighters) > 2 else ""
        return (aim + (f"@ {c.location}" if c.location else "(no aim)")).strip()
    name = c.maneuver or ""
    bits = [w for w in (_option_label(state, c), turn_words(state.t, name, c.turn)) if w]
    return ", ".join(bits) or "plain"


def _option_label(state: State, c: Choice) -> str:
    """An option's words; a weapon maneuver's names the deciding fighter's weapon and mode
    (``sword cut``, ``shield``) as the notation's :func:`words` does, not the hand."""
    name = c.maneuver or ""
    plain = option_words(state.t, name, c.option)
    m = state.t.maneuvers.get(name)
    d = state.decision
    if m is None or m.weapon is None or d is None:
        return plain
    wid = wp.used_weapon(state, d.fighter, name, c.option)
    if wid is None:
        return plain
    mode = wp.attack_mode(state, d.fighter, name, c.option)
    return state.t.weapons[wid].name + (f" {mode.name}" if mode is not None else "")


def menu(state: State, choices: list[Choice], level: int = 0, title: str = "") -> Menu:
    """The menu of ``choices`` at ``level``; levels with one group are skipped."""
    d = state.decision
    if d is not None and d.kind == "risk" and level == 0:
        return dice_menu(state, choices, title)
    while True:
        key = _group_key(level)
        groups: dict[Hashable, list[Choice]] = {}
        for c in choices:
            groups.setdefault(key(c), []).append(c)
        if len(groups) > 1 or level >= 2:
            break
        level += 1
    rows = list(groups.values())
    if level == 0:  # maneuvers first, then end phase / release / pass
        rows.sort(key=lambda g: g[0].kind != "maneuver")
    entries = [Entry(_group_label(state, level, g), g, _note(state, g)) for g in rows]
    return Menu(title, entries, level)


def dice_menu(state: State, choices: list[Choice], title: str = "") -> Menu:
    """A risk decision: one row per dice count, numbered by it, with what those dice buy
    (``hexdojo advise``'s figure, :func:`.advise.risk_odds`: the engine's rule for each
    kind of roll over the exact dice tables)."""
    odds = risk_odds(state)
    entries = [Entry(words(state, c), [c], _dice_note(state, odds.get(c.risk)), number=c.risk)
               for c in sorted(choices, key=lambda c: c.risk)]
    return Menu(title, entries, dice=True)


def _dice_note(state: State, o: RiskOdds | None) -> str:
    if o is None:
        return ""
    if o.worst is None:
        return f"{o.what} {o.p:.0%}"
    most = f"{o.what} {o.p:.0%} if they risk {state.t.max_risk}"
    if o.worst_dice == state.t.max_risk or round(o.worst, 2) == round(o.p, 2):
        return most
    return f"{most}, {o.worst:.0%} if they risk {o.worst_dice}"


# --------------------------------------------------------------------------- colour
_BOARD_CHARS = set(".ABCDEFGHabcdefgh→↗↖←↙↘* ")
_FIGHTER_STYLES = ("bold blue", "bold red", "bold green", "bold magenta")
_STYLES = (
    (r"^\s+\d+\.", "bold"),
    (r"▸ \d+", "bold magenta"),
    (r"\d+ AP, -?\d+ left", "yellow"),
    (r"hit \d+%(?:-\d+%)?", "green"),
    (r"defend \d+%(?:-\d+%)?", "cyan"),
    (r"^turn \d+ .*", "bold"),
)


def paint(line: str) -> Text:
    """A line of the board or of a menu with colours for a terminal (rich): the fighters
    in their image colours (``envs.render.COLOURS``' order), row numbers, groups, AP
    and odds; the plain text is unchanged (tests and pipes get it without colour)."""
    from rich.text import Text

    text = Text(line)
    board_row = bool(line.strip()) and set(line) <= _BOARD_CHARS
    for k, letter in enumerate(LETTERS[:len(_FIGHTER_STYLES)]):
        style = _FIGHTER_STYLES[k]
        if board_row:
            text.highlight_regex(f"[{letter}{letter.lower()}]", style)
        elif line.startswith(f"{letter} "):
            text.stylize(style, 0, 1)
    for pattern, style in _STYLES:
        text.highlight_regex(pattern, style)
    return text
