"""A person against any agent in the terminal, saved fights, and their replay.

A saved fight holds the game set-up (fighters, rules, arena, turn limit), the dice seed and
every choice made, plus the event log as it was shown. Because the engine is deterministic
for a seed and a sequence of choices, replay re-runs the fight from those choices and can
draw the board at every step; the saved log is compared against the re-run so a file
recorded under different rules is flagged rather than silently shown wrong.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hexdojo.envs.rules import Choice, Game, State

from .base import Agent
from .board import LETTERS, choice_label, render_board
from .report import atomic_write_text
from .tournament import agent_seed, checked_act

FORMAT = "hexdojo-fight"
VERSION = 1


class FightFileError(ValueError):
    """A saved fight that cannot be read or replayed; the message says why."""


# --------------------------------------------------------------------------- saving
@dataclass
class FightLog:
    """What a saved fight file holds."""

    fighters: list[str]
    seed: int
    choices: list[Choice]
    agents: list[str]
    rules: str | None = None
    radius: int = 4
    turn_limit: int | None = None
    events: list[dict[str, Any]] | None = None
    result: dict[str, Any] | None = None
    scene: str | None = None  #: the scene that set the fight up (its fighters and sides)

    def game(self) -> Game:
        if self.scene is not None:
            return Game.from_scene(self.scene, rules=self.rules)
        return Game.create(self.fighters, rules=self.rules, radius=self.radius,
                           turn_limit=self.turn_limit)

    def to_json(self) -> str:
        return json.dumps({
            "format": FORMAT, "version": VERSION, "fighters": self.fighters,
            "agents": self.agents, "rules": self.rules, "radius": self.radius,
            "turn_limit": self.turn_limit, "scene": self.scene, "seed": self.seed,
            "choices": [list(c) for c in self.choices], "result": self.result,
            "events": self.events or [],
        }, indent=1) + "\n"


def save_fight(path: str | Path, log: FightLog) -> None:
    atomic_write_text(path, log.to_json())


def load_fight(path: str | Path) -> FightLog:
    """Read a saved fight, with a clear error for a missing or malformed file."""
    p = Path(path)
    if not p.is_file():
        raise FightFileError(f"fight file {str(p)!r} not found")
    try:
        raw = json.loads(p.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise FightFileError(f"fight file {str(p)!r}: not valid JSON ({exc})") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise FightFileError(f"fight file {str(p)!r}: not a hexdojo fight (format {FORMAT!r})")
    if raw.get("version") != VERSION:
        raise FightFileError(
            f"fight file {str(p)!r}: version {raw.get('version')!r}; this hexdojo reads {VERSION}")
    try:
        choices = [Choice(*c) for c in raw["choices"]]
        return FightLog(fighters=list(raw["fighters"]), seed=int(raw["seed"]),
                        choices=choices, agents=list(raw.get("agents", [])),
                        rules=raw.get("rules"), radius=int(raw.get("radius", 4)),
                        turn_limit=raw.get("turn_limit"), events=raw.get("events"),
                        result=raw.get("result"), scene=raw.get("scene"))
    except (KeyError, TypeError, ValueError) as exc:
        raise FightFileError(f"fight file {str(p)!r}: missing or bad field ({exc})") from None


# --------------------------------------------------------------------------- a person
def parse_pick(text: str, labels: Sequence[str]) -> int | None:
    """Index chosen by typed ``text``: a number (1-based), an exact label, or words that
    match exactly one label (or one label that the other matches only extend, e.g. with
    a turn). None if nothing or several match."""
    t = text.strip().lower()
    if not t:
        return None
    if t.isdigit():
        k = int(t) - 1
        return k if 0 <= k < len(labels) else None
    low = [lb.lower() for lb in labels]
    if t in low:
        return low.index(t)
    words = t.split()
    hits = [k for k, lb in enumerate(low) if all(w in lb for w in words)]
    if len(hits) == 1:
        return hits[0]
    # "strike head blunt" names the plain option when the others only add a turn to it
    for k in hits:
        base = low[k].rstrip(")")
        if all(h == k or low[h].startswith(base) for h in hits):
            return k
    return None


class HumanAgent(Agent):
    """Asks a person for each decision, showing the board and the legal options by name."""

    name = "human"

    def __init__(self, ask: Callable[[str], str] = input, say: Callable[[str], None] = print,
                 board: bool = True) -> None:
        self.ask = ask
        self.say = say
        self.board = board

    def act(self, state: State) -> Choice:
        d = state.decision
        assert d is not None
        choices = state.legal_choices()
        labels = [choice_label(state, c) for c in choices]
        if self.board and d.kind in ("action", "phase"):
            self.say(render_board(state))
        about = f" ({d.about})" if d.about else ""
        ctx = state.context()
        for line in situation(state, d.fighter, ctx):
            self.say(line)
        self.say(f"{LETTERS[d.fighter]} {state.fighters[d.fighter].name} (you), "
                 f"{d.kind} decision{about}:")
        for k, lb in enumerate(labels, 1):
            self.say(f"  {k:>3}. {lb}")
        while True:
            try:
                text = self.ask("your choice (number or name, q to quit)> ")
            except EOFError:
                raise QuitFight() from None
            if text.strip().lower() in ("q", "quit", "exit"):
                raise QuitFight()
            k = parse_pick(text, labels)
            if k is not None:
                return choices[k]
            self.say(f"  {text.strip()!r} does not pick exactly one option; "
                     "type its number or more of its name")


def _pts(half: int) -> str:
    """Half points as the rulebook writes them: 7, 11½, -1½."""
    sign, a = ("-" if half < 0 else ""), abs(half)
    whole = str(a // 2) if a // 2 or not a % 2 else ""
    return f"{sign}{whole}{'½' if a % 2 else ''}"


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
        line = f"you roll on {_pts(basics[me])}"
        other = [v for k, v in basics.items() if k != me]
        if other:
            line += f" against {_pts(other[0])}"
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
            say(f"{LETTERS[d.fighter]} {state.fighters[d.fighter].name} ({agent.name}): "
                f"{choice_label(state, c)}")
        state.apply(c)
        choices.append(c)
        if show_log:
            for line in state.render_log(shown):
                say("   " + line)
            shown = len(state.events)
    return state, choices


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
    state = game.new_state(log.seed)
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
            say(render_board(state))
        say(f"[{step}] {state.fighters[d.fighter].name} {d.kind}: {choice_label(state, c)}")
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
        say(render_board(state))
    say(result_line(state) if state.is_over else "The saved fight ends before its result.")
    return state
