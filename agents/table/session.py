"""One fight at the table: its set-up, the line of choices made, the cursor on it, and who
plays each fighter.

Why a line and a cursor rather than a stack of states: the engine is deterministic for a
seed, a starting position and a sequence of choices, so any earlier decision is the start
re-played up to it. Undo, replay's steps and "jump to decision k" are then one operation
(:meth:`Session.goto`), a saved fight is the line itself (the file ``hexdojo replay``
reads), and a choice made anywhere but at the end starts a new branch from there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hexdojo.envs.rules import Choice, Game, RulesError
from hexdojo.envs.rules.fighter import profile_from_dict
from hexdojo.envs.rules.notation import LETTERS, words
from hexdojo.envs.rules.tables import load_tables

from ..base import Agent
from ..fightfile import FightLog
from ..registry import make_agent
from ..tournament import agent_seed, checked_act

if TYPE_CHECKING:
    from hexdojo.envs.rules import State

HUMAN = "human"  #: a fighter the person at the table plays
MAX_AUTO = 20_000  #: NPC decisions played in a row before the table stops (a stuck agent)


class TableError(ValueError):
    """A request the table cannot do; the message is the one line the page shows."""


@dataclass
class GameSpec:
    """Who fights under which rules: preset names or uploaded sheets (``sheets``: label ->
    the sheet's table), or a scene; house rules as a table; the dice seed."""

    fighters: list[str] = field(default_factory=lambda: ["chu", "urlik"])
    sheets: dict[str, dict[str, Any]] = field(default_factory=dict)
    scene: str | None = None
    rules: dict[str, Any] | str | None = None
    rules_name: str | None = None
    seed: int = 0
    radius: int = 4
    turn_limit: int | None = None

    def fighter_specs(self, data: Any) -> list[Any]:
        """The fighters as ``Game.create`` takes them: an uploaded sheet validated here,
        so that its error names its file (``sheets[label]``), not "fighter description"."""
        return [profile_from_dict(self.sheets[f], data, f) if f in self.sheets else f
                for f in self.fighters]

    def game(self) -> Game:
        if self.scene:
            return Game.from_scene(self.scene, rules=self.rules)
        tables = load_tables(self.rules)
        return Game.create(self.fighter_specs(tables.data), rules=self.rules, radius=self.radius,
                           turn_limit=self.turn_limit)

    def fight_fighters(self) -> list[Any]:
        """The fighters as a fight file records them: a preset's name, a sheet's table."""
        return [self.sheets.get(f, f) for f in self.fighters]


@dataclass
class Step:
    """A choice made: who made it at which decision, in words, and the events it caused."""

    fighter: int
    kind: str
    text: str
    human: bool
    events: tuple[int, int] = (0, 0)


class Session:
    """The table's fight; ``state`` is the position after ``line[:at]``."""

    def __init__(self, spec: GameSpec, scenario: dict[str, Any] | None = None,
                 line: list[Choice] | None = None, controllers: list[str] | None = None) -> None:
        self.spec = spec
        self.game = spec.game()
        self.scenario = scenario
        first = self.fresh()
        if first.decision is None:
            raise TableError("scenario: the position is already over; nothing to decide")
        n = len(self.game.profiles)
        self.controllers = list(controllers or [HUMAN] * n)
        if len(self.controllers) != n:
            raise TableError(f"controllers: value {self.controllers!r}: one per fighter ({n})")
        self.line: list[Choice] = list(line or [])
        self._agents: dict[tuple[str, int], Agent] = {}
        self.goto(0)

    # ------------------------------------------------------------------ moving on the line
    def fresh(self) -> State:
        return self.game.new_state(self.spec.seed, scenario=self.scenario)

    def goto(self, k: int) -> None:
        """The position after the line's first ``k`` choices (every one checked legal:
        a saved fight recorded under other rules stops at the first that is not)."""
        if not 0 <= k <= len(self.line):
            raise TableError(f"step: value {k}: allowed 0..{len(self.line)}")
        self.state, self.steps, self.at = self.fresh(), [], 0
        for n, c in enumerate(self.line[:k], 1):
            reason = (self.state.why_illegal(c) if self.state.decision is not None
                      else "the fight is over")
            if reason is not None:
                del self.line[n - 1:]
                raise TableError(f"fight: step {n}: saved choice {list(c)} is not legal now: "
                                 f"{reason} (recorded under other rules?); kept the {n - 1} before it")
            self._apply(c)

    def _apply(self, c: Choice) -> None:
        s = self.state
        d = s.decision
        assert d is not None
        text = f"{LETTERS[d.fighter]} {s.fighters[d.fighter].name} " \
               f"({d.kind.replace('_', '-')}{', ' + d.about if d.about else ''}): {words(s, c)}"
        n0 = len(s.events)
        s.apply(c)
        self.steps.append(Step(d.fighter, d.kind, text, self.controllers[d.fighter] == HUMAN,
                               (n0, len(s.events))))
        self.at += 1

    def choose(self, c: Choice, auto: bool = True) -> None:
        """Play ``c`` at the cursor (a new branch if the line went on past it), then let
        the NPCs decide until it is a person's turn again."""
        s = self.state
        if s.decision is None:
            raise TableError("choice: the fight is over (undo, or start a new one)")
        reason = s.why_illegal(c)
        if reason is not None:
            raise TableError(f"choice: value {list(c)}: not legal now: {reason}")
        del self.line[self.at:]
        self.line.append(c)
        self._apply(c)
        if auto:
            self.advance()

    def advance(self, one: bool = False, agent: str = "greedy") -> None:
        """NPCs decide until a person must; ``one``: a single decision, whoever's it is
        (a person's is made by ``agent``)."""
        for _ in range(MAX_AUTO):
            d = self.state.decision
            if d is None or (self.controllers[d.fighter] == HUMAN and not one):
                return
            spec = self.controllers[d.fighter] if self.controllers[d.fighter] != HUMAN else agent
            c = checked_act(self.agent(spec, d.fighter), self.state)
            del self.line[self.at:]
            self.line.append(c)
            self._apply(c)
            if one:
                return
        raise TableError(f"NPCs: {MAX_AUTO} decisions without a person's turn; stopped")

    def undo(self, to: int | None = None) -> None:
        """Back to decision ``to``, or to the last decision a person made."""
        if to is None:
            mine = [k for k, st in enumerate(self.steps) if st.human]
            if not mine:
                raise TableError("undo: no decision of yours to take back")
            to = mine[-1]
        self.goto(to)

    # ------------------------------------------------------------------ agents
    def agent(self, spec: str, fighter: int) -> Agent:
        """The agent ``spec`` playing ``fighter``'s side, made once and seeded as a
        tournament seeds it (``agent_seed``): the same seed and line, the same fight."""
        key = (spec, fighter)
        if key not in self._agents:
            a = make_agent(spec)
            a.reset(agent_seed(self.spec.seed, self.game.sides[fighter]))
            self._agents[key] = a
        return self._agents[key]

    def set_controllers(self, controllers: list[str]) -> None:
        n = len(self.game.profiles)
        if len(controllers) != n:
            raise TableError(f"controllers: value {controllers!r}: one per fighter ({n})")
        for i, spec in enumerate(controllers):
            if spec != HUMAN:
                self.agent(spec, i)  # a bad spec: one line now, not mid-fight
        self.controllers = list(controllers)

    # ------------------------------------------------------------------ files
    def fight_log(self) -> FightLog:
        """The whole line as the fight file ``hexdojo replay`` and ``advise`` read."""
        end = self.fresh()
        for c in self.line:
            end.apply(c)
        return FightLog(fighters=self.spec.fight_fighters(), seed=self.spec.seed,
                        choices=list(self.line), agents=list(self.controllers),
                        rules=self.spec.rules, radius=self.game.radius,
                        turn_limit=self.game.turn_limit, events=end.events, result=end.result,
                        scene=self.spec.scene, rules_id=self.game.tables.id,
                        scenario=self.scenario)


def spec_of_fight(log: FightLog) -> GameSpec:
    """A saved fight's set-up as the table's: a sheet recorded inline keeps its name."""
    names, sheets = [], {}
    for f in log.fighters:
        if isinstance(f, dict):
            label = str(f.get("name", f"sheet{len(sheets)}"))
            sheets[label] = f
            names.append(label)
        else:
            names.append(str(f))
    if log.rules is not None and not isinstance(log.rules, (str, dict)):
        raise RulesError(f"fight: field 'rules': value {log.rules!r}: a file name or a table")
    return GameSpec(fighters=names, sheets=sheets, scene=log.scene, rules=log.rules,
                    seed=log.seed, radius=log.radius, turn_limit=log.turn_limit)
