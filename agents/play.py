"""A person against any agent in the terminal, saved fights, and their replay.

A saved fight holds the game set-up (fighters, rules, arena, turn limit), the dice seed and
every choice made, plus the event log as it was shown. Because the engine is deterministic
for a seed and a sequence of choices, replay re-runs the fight from those choices and can
draw the board at every step; the saved log is compared against the re-run so a file
recorded under different rules is flagged rather than silently shown wrong.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence

from hexdojo.envs.render import render_text
from hexdojo.envs.rules import Choice, Game, State
from hexdojo.envs.rules.notation import LETTERS, NotationError, match, parse, points, words

from .base import Agent
from .fightfile import FORMAT, VERSION, FightFileError, FightLog, load_fight, save_fight
from .menus import Entry, Menu, menu, paint
from .team import PlacesAgent
from .tournament import agent_seed, checked_act

#: saved fights live in :mod:`.fightfile`; these names stay importable from here
__all__ = ["FORMAT", "VERSION", "FightFileError", "FightLog", "HumanAgent", "QuitFight",
           "load_fight", "replay", "result_line", "run_fight", "save_fight", "situation"]


# --------------------------------------------------------------------------- a person
HELP = """\
  how to choose:
    a number       picks that row; a row with  ▸ N  opens its N choices (a maneuver's
                   aims, then its options and turns); in a dice menu the number is the
                   dice: 6 risks 6 dice
    words          a choice in the notation, e.g. "Martial Strike @ Head (Blunt)";
                   case and punctuation do not matter, words may be shortened or left
                   out while one choice fits ("strike head blunt", "move 1 forward")
    b  (or ..)     back up one menu
    q              quit the fight
    ?              this help
  beside each row: the AP it costs and the AP left after it; for attacks the chance to
  hit the target's best defence, for defences the chance to stop the attack (both sides
  risking the most dice, as `hexdojo advise` shows)"""


class HumanAgent(Agent):
    """Asks a person for each decision: the board, what the decision is about, then
    grouped menus (:mod:`.menus`) with AP and odds; ``?`` for help, ``b`` back, ``q`` quit,
    or the choice typed in words (:func:`hexdojo.envs.rules.notation.parse`)."""

    name = "human"

    def __init__(self, ask: Callable[[str], str] = input, say: Callable[[str], None] = print,
                 board: bool = True, colour: bool | None = None) -> None:
        self.ask = ask
        self.say = say
        self.board = board
        #: colour the board and the menus (rich); None: when printing to a terminal
        self.colour = colour if colour is not None else _to_terminal(say)

    def show(self, text: str) -> None:
        """Say board or menu lines, in colour on a terminal (:func:`.menus.paint`)."""
        if not self.colour:
            self.say(text)
            return
        from rich.console import Console

        console = Console(highlight=False)
        for line in text.split("\n"):
            console.print(paint(line))

    def act(self, state: State) -> Choice:
        d = state.decision
        assert d is not None
        legal = state.legal_choices()
        if self.board:
            self.show(render_text(state))
        for line in situation(state, d.fighter, state.context()):
            self.say(line)
        about = f" ({d.about})" if d.about else ""
        f = state.fighters[d.fighter]
        title = (f"{LETTERS[d.fighter]} {f.name} (you), {d.kind.replace('_', '-')} "
                 f"decision{about}, {f.ap} AP:")
        stack = [menu(state, legal, title=title)]
        while True:
            self.show("\n".join(stack[-1].lines()))
            picked = self._pick(state, legal, stack)
            if picked is not None:
                return picked

    def _pick(self, state: State, legal: list[Choice], stack: list[Menu]) -> Choice | None:
        """Read answers until one picks a choice (returned) or opens or leaves a menu
        (None: the caller shows the new menu)."""
        m = stack[-1]
        while True:
            try:
                text = self.ask("your choice (number or words, ? help, b back, q quit)> ")
            except EOFError:
                raise QuitFight() from None
            t = text.strip().lower()
            if t in ("q", "quit", "exit"):
                raise QuitFight()
            if t in ("?", "h", "help"):
                self.say(HELP)
                continue
            if t in ("b", "back", ".."):
                if len(stack) > 1:
                    stack.pop()
                    return None
                self.say("  already at the first menu (q quits the fight)")
                continue
            if not t:
                return None
            entry = self._entry(state, legal, m, t)
            if entry is None:
                continue
            if len(entry.choices) == 1:
                return entry.choices[0]
            stack.append(menu(state, entry.choices, m.level + 1, title=f"{entry.label}:"))
            return None

    def _entry(self, state: State, legal: list[Choice], m: Menu, text: str) -> Entry | None:
        """The row a number names, or the row or choice typed words name; None (after one
        line saying why) when they name none or several."""
        if text.isdigit():
            entry = m.by_number.get(int(text))
            if entry is None:
                nums = sorted(m.by_number)
                self.say(f"  {text}: no such row; allowed {nums[0]}..{nums[-1]} (? for help)")
            return entry
        try:
            return by_words(state, legal, m, text)
        except NotationError as exc:
            self.say(f"  {exc} (? for help)")
            return None


def _to_terminal(say: Callable[[str], None]) -> bool:
    """Whether ``say`` prints to a terminal that takes colour (``NO_COLOR`` unset)."""
    import typer

    return (say is print or say is typer.echo) and sys.stdout.isatty() \
        and "NO_COLOR" not in os.environ


def by_words(state: State, legal: list[Choice], m: Menu, text: str) -> Entry:
    """Typed words: a row of menu ``m`` by its label, else one of the menu's choices, else
    any legal choice (the notation); :class:`NotationError` if none or several fit."""
    hits = match(text, [e.label for e in m.entries])
    if len(hits) == 1:
        return m.entries[hits[0]]
    inside = [c for e in m.entries for c in e.choices]
    try:
        return Entry(text, [parse(state, text, inside)])
    except NotationError:
        if len(inside) == len(legal):
            raise
    return Entry(text, [parse(state, text, legal)])


def situation(state: State, me: int, ctx: dict) -> list[str]:
    """What the decision is about, from ``State.context()``: the attack being reacted to
    or rolled for, the declared reaction, the wound a soak would reduce, and the basic
    values both sides roll on (§1.3: risking n dice turns basic b into nD + b - 3n)."""
    lines = []
    att, x = ctx.get("attack"), ctx.get("attacker")
    if att and x is not None:
        loc = ctx.get("location")
        if x == me:
            them = state.fighters[1 - me].name
            line = f"your {att} " + (f"at {them}'s {loc}" if loc else f"on {them}")
        else:
            line = f"{state.fighters[x].name}: {att}" + (f" at your {loc}" if loc else "")
        if ctx.get("reaction"):
            line += f"; {'their' if x == me else 'your'} reaction: {ctx['reaction']}"
        lines.append(line)
    if ctx.get("wound") is not None:
        lines.append(f"the hit would be a {state.t.wound_levels[ctx['wound']]} wound")
    basics = ctx.get("basics")
    if basics:
        line = f"you roll on {points(basics[me])}"
        other = [v for k, v in basics.items() if k != me]
        if other:
            line += f" against {points(other[0])}"
        lines.append(line + " (basic values)")
    return lines


class QuitFight(Exception):
    """The person left the fight."""


def run_fight(
    game: Game,
    agents: Sequence[Agent],
    seed: int,
    say: Callable[[str], None] = print,
    show_log: bool = True,
) -> tuple[State, list[Choice]]:
    """Play a fight between ``agents`` (one a side; one may be human), printing the
    readable event log as it happens. Returns the final state and the choices made."""
    for side, a in enumerate(agents):
        a.reset(agent_seed(seed, side))
    state = game.new_state(seed)
    choices: list[Choice] = []
    # a person never sees the other side's dice before choosing theirs: both risks are
    # sealed until the roll (which the log then shows with its dice), as for learners
    sealed = any(isinstance(a, HumanAgent) for a in agents)
    shown = 0
    if show_log:
        for line in state.render_log(0):
            say(line)
        shown = len(state.events)
    while not state.is_over:
        d = state.decision
        assert d is not None
        agent = agents[game.sides[d.fighter]]
        c = checked_act(agent, state)
        if show_log and not isinstance(agent, HumanAgent) and not (sealed and c.kind == "risk"):
            who = place_agent(agent, game, d.fighter)  # a team: the member of this place
            say(f"{LETTERS[d.fighter]} {state.fighters[d.fighter].name} ({who.name}): "
                f"{words(state, c)}")
        state.apply(c)
        choices.append(c)
        if show_log:
            for line in state.render_log(shown):
                say("   " + line)
            shown = len(state.events)
    return state, choices


def place_agent(agent: Agent, game: Game, fighter: int) -> Agent:
    """Who plays ``fighter``: the side's agent, or the member of its place in a team."""
    return agent.member_for(game, fighter) if isinstance(agent, PlacesAgent) else agent


def result_line(state: State) -> str:
    res = state.result or {}
    if res.get("winner") is None:
        return f"Draw ({res.get('reason', '?')}) after {state.turn} turn(s)."
    g = state.game
    who = g.side_name(res["winner"]) if g.side_names else state.fighters[res["winner"]].name
    return f"{who} wins ({res.get('reason', '?')}) after {state.turn} turn(s)."


# --------------------------------------------------------------------------- replay
def replay(
    log: FightLog,
    say: Callable[[str], None] = print,
    pause: Callable[[str], str] | None = None,
    board: bool = True,
) -> State:
    """Step through a saved fight: each choice, the events it caused, and the board.

    ``pause`` (e.g. ``input``) is called between steps; answering ``q`` stops, ``a`` plays
    the rest without pausing. Raises :class:`FightFileError` if a saved choice is not
    legal under the current rules.
    """
    try:
        game = log.game()
    except ValueError as exc:
        raise FightFileError(f"cannot rebuild the fight's game: {exc}") from None
    state = game.new_state(log.seed, scenario=log.scenario)
    names = [f"{LETTERS[i]} {f.name}" for i, f in enumerate(state.fighters)]
    agents = log.agents or ["?"] * len(names)
    say("Replay: " + " vs ".join(f"{n} ({a})" for n, a in zip(names, agents, strict=False))
        + f", seed {log.seed}, {len(log.choices)} choices")
    for line in state.render_log(0):
        say(line)
    shown = len(state.events)
    mismatch = False
    auto = pause is None
    for step, c in enumerate(log.choices, 1):
        if state.is_over:
            raise FightFileError(f"step {step}: the fight is already over but the file has "
                                 "more choices (recorded under other rules?)")
        d = state.decision
        assert d is not None
        reason = state.why_illegal(c)
        if reason is not None:
            raise FightFileError(f"step {step}: saved choice {tuple(c)} is not legal now: "
                                 f"{reason} (recorded under other rules?)")
        if board and d.kind == "action" and not auto:
            say(render_text(state))
        say(f"[{step}] {state.fighters[d.fighter].name} {d.kind}: {words(state, c)}")
        state.apply(c)
        for line in state.render_log(shown):
            say("   " + line)
        if log.events and not mismatch and state.events[shown:] != log.events[shown:len(state.events)]:
            mismatch = True
            say("   (warning: this differs from the saved event log; the rules or engine "
                "changed since the fight was recorded)")
        shown = len(state.events)
        if not auto and pause is not None and not state.is_over:
            ans = pause("[enter] next, a = all, q = quit> ").strip().lower()
            if ans == "q":
                say("Replay stopped.")
                return state
            if ans == "a":
                auto = True
    if board:
        say(render_text(state))
    say(result_line(state) if state.is_over else "The saved fight ends before its result.")
    return state
