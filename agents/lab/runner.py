"""The lab's fight runner: many conditions (rule sets, banned maneuvers) on the same seeds.

Why its own runner rather than ``run_tournament``: the lab needs every fight's details
(who dealt which wound with what, the chains and the phase sequences, where a ban stepped
in) under several conditions at once, keyed by seed so that conditions can be *paired*.
It reuses the tournament's single-fight loop (``play_fight``) and seeding, so a lab fight
is the same fight a tournament plays; agents are wrapped in :class:`Observer`, which sees
each decision (and the live state, whose events it reads at the end) and enforces bans by
asking the agent again on a view whose legal choices leave the banned maneuvers out. The
rules are never changed to ban a maneuver.

Work is split into units (a condition, a fighter pairing, an ordered agent pairing, a seed
range) played by a fork pool; results are sorted by key, so the outcome is identical for
any number of workers.
"""

from __future__ import annotations

import multiprocessing as mp
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hexdojo.envs.rules import Choice, Game, State

from ..base import Agent
from ..interrupts import worker_pool
from ..scaleout import ray_address, ray_pool
from ..tournament import Progress, play_fight
from .common import game_for

SEQ_SEP = " + "
NO_WOUND = ("None", None, "")


# --------------------------------------------------------------------------- one fight
class _Restricted:
    """A read-only view of a state whose legal choices leave out banned maneuvers."""

    def __init__(self, state: State, ban: frozenset[str]) -> None:
        self._state = state
        self._ban = ban

    @property
    def unrestricted(self) -> State:
        """The real state (the scripted agents score its choices natively, then keep the
        allowed ones: the best allowed choice first)."""
        return self._state

    def legal_choices(self) -> list[Choice]:
        return [c for c in self._state.legal_choices()
                if not (c.kind == "maneuver" and c.maneuver in self._ban)]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)


class Observer(Agent):
    """Wraps an agent: records its phase sequences, enforces a ban."""

    def __init__(self, inner: Agent, side: int, ban: Sequence[str] = ()) -> None:
        self.inner = inner
        self.side = side
        self.ban = frozenset(ban)
        self.name = inner.name
        self.reset(None)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.inner.reset(seed)
        self.state: State | None = None
        self.vetoes = 0
        self.phase_moves: list[tuple[tuple[int, int], str]] = []

    def act(self, state: State) -> Choice:
        self.state = state
        c = self.inner.act(state)
        if self.ban and c.kind == "maneuver" and c.maneuver in self.ban:
            self.vetoes += 1
            view = _Restricted(state, self.ban)
            c = self.inner.act(view)  # type: ignore[arg-type]
            if c.kind == "maneuver" and c.maneuver in self.ban:
                allowed = view.legal_choices()
                c = allowed[0] if allowed else c
        self._note(state, c)
        return c

    def _note(self, state: State, c: Choice) -> None:
        """The side's phase actions (its chains: ``play_fight``'s record, ``spans``)."""
        d = state.decision
        ph = state.phasing
        if c.kind == "maneuver" and d is not None and d.kind == "action" and ph is not None \
                and state.game.sides[ph] == self.side:  # a scene's side: several fighters
            self.phase_moves.append(((state.turn, ph), c.maneuver or ""))


@dataclass
class Side:
    """What one side did in one fight."""

    uses: Counter = field(default_factory=Counter)
    attacks: Counter = field(default_factory=Counter)
    hits: Counter = field(default_factory=Counter)
    wounds: Counter = field(default_factory=Counter)
    chains: list[tuple[str, int]] = field(default_factory=list)  # (chain, wounds dealt in it)
    seqs: list[str] = field(default_factory=list)
    vetoes: int = 0


@dataclass
class Fight:
    """One fight, compact enough to keep thousands (and to send between processes)."""

    key: tuple  # (condition, fighter pairing, i, j, seed)
    winner: int | None
    reason: str
    turns: int
    sides: tuple[Side, Side]
    first_wound: tuple[int, str] | None
    decisive: str | None

    @property
    def seed(self) -> int:
        return self.key[4]

    def score(self, side: int) -> float:
        """1 win, 1/2 draw, 0 loss for ``side``."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == side else 0.0


def _phase_seqs(moves: list[tuple[tuple[int, int], str]], longest: int = 3) -> list[str]:
    """Sequences of 2..``longest`` consecutive maneuvers within one phase (one turn of
    one fighter)."""
    by_turn: dict[tuple[int, int], list[str]] = {}
    for turn, m in moves:
        by_turn.setdefault(turn, []).append(m)
    out = []
    for ms in by_turn.values():
        for k in range(2, longest + 1):
            out += [SEQ_SEP.join(ms[s:s + k]) for s in range(len(ms) - k + 1)]
    return out


def _read_events(events: list[dict[str, Any]], sides: tuple[Side, Side], side_of: tuple[int, ...]
                 ) -> tuple[tuple[int, str] | None, dict[int, str], list[int]]:
    """Attacks, hits and wounds per maneuver; the first wound; each side's last wound
    (``side_of``: each fighter's side; a scene's side may hold several fighters)."""
    first: tuple[int, str] | None = None
    last: dict[int, str] = {}
    wound_at: list[int] = []  # event index of each wound, and who dealt it (packed)
    for k, e in enumerate(events):
        a = e.get("a")
        if a is None or not 0 <= a < len(side_of):
            continue
        a = side_of[a]
        if e["type"] == "attack":
            m = e.get("maneuver", "")
            sides[a].attacks[m] += 1
            sides[a].hits[m] += e.get("outcome") == "hit"
        elif e["type"] == "damage" and e.get("kind") == "attack" and e.get("wound") not in NO_WOUND:
            m = e.get("maneuver", "")
            sides[a].wounds[m] += 1
            first = first or (a, m)
            last[a] = m
            wound_at.append(2 * k + a)
    return first, last, wound_at


def observe_fight(game: Game, agents: Sequence[Agent], key: tuple,
                  bans: Sequence[Sequence[str]] = ((), ())) -> tuple[Fight, State | None]:
    """Play one fight (agents[i] is fighter i, ``bans[i]`` forbidden to it) and digest it."""
    obs = [Observer(a, s, bans[s]) for s, a in enumerate(agents)]
    rec = play_fight(game, obs, key[4])
    state = obs[0].state or obs[1].state
    events = state.events if state is not None else []
    sides = (Side(), Side())
    first, last, wound_at = _read_events(events, sides, game.sides)
    for s, o in enumerate(obs):
        sides[s].uses.update(rec.usage[s])
        sides[s].vetoes = o.vetoes
        sides[s].seqs = _phase_seqs(o.phase_moves)
        for chain, lo, hi in rec.spans[s]:
            dealt = sum(1 for w in wound_at if w % 2 == s and lo <= w // 2 < hi)
            sides[s].chains.append((chain, dealt))
    decisive = last.get(rec.winner) if rec.winner is not None else None
    return Fight(key, rec.winner, rec.reason, rec.turns, sides, first, decisive), state


# --------------------------------------------------------------------------- many fights
@dataclass(frozen=True)
class Unit:
    """Seeds [start, stop) of one ordered pairing under one condition."""

    cond: str
    rules: int  # index into the plan's rule specs
    fp: int  # index into the plan's fighter pairings
    i: int
    j: int
    ban0: tuple[str, ...]
    ban1: tuple[str, ...]
    start: int
    stop: int


@dataclass
class Plan:
    """Everything the workers need: agents, rule specs, fighter pairings, game options."""

    agents: list[Agent]
    rules: list[Any]
    fighters: list[tuple[str, str]]
    radius: int = 4
    turn_limit: int | None = None
    _games: dict[tuple[int, int], Game] = field(default_factory=dict)

    def game(self, rules: int, fp: int) -> Game:
        key = (rules, fp)
        if key not in self._games:
            self._games[key] = game_for(self.fighters[fp], self.rules[rules], self.radius,
                                        self.turn_limit)
        return self._games[key]


_W: dict[str, Plan] = {}


def _init(plan: Plan) -> None:
    _W["plan"] = plan


def run_unit(u: Unit) -> list[Fight]:
    plan = _W["plan"]
    game = plan.game(u.rules, u.fp)
    pair = (plan.agents[u.i], plan.agents[u.j])
    return [observe_fight(game, pair, (u.cond, u.fp, u.i, u.j, s), (u.ban0, u.ban1))[0]
            for s in range(u.start, u.stop)]


def split(units: list[Unit], workers: int) -> list[Unit]:
    """Cut units into chunks small enough to balance ``workers`` processes."""
    total = sum(u.stop - u.start for u in units)
    chunk = max(1, min(50, total // max(1, 8 * workers) or 1))
    out = []
    for u in units:
        for s in range(u.start, u.stop, chunk):
            out.append(Unit(u.cond, u.rules, u.fp, u.i, u.j, u.ban0, u.ban1, s,
                            min(u.stop, s + chunk)))
    return out


def run_units(plan: Plan, units: list[Unit], workers: int, progress: bool = True,
              say: Callable[[str], None] | None = None) -> tuple[list[Fight], float]:
    """Play every unit; the fights sorted by key, and the seconds it took."""
    for r in range(len(plan.rules)):  # bad rules or fighters fail before any work
        for fp in range(len(plan.fighters)):
            plan.game(r, fp)
    parts = split(units, workers)
    total = sum(u.stop - u.start for u in parts)
    bar = Progress(total, progress and sys.stderr.isatty(), say)
    out: list[Fight] = []
    t0 = time.perf_counter()
    try:
        if (workers > 1 and len(parts) > 1) or ray_address():
            ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
            with (ray_pool(_init, (plan,)) if ray_address() else  # --ray: the units on Ray
                  worker_pool(ctx, workers, _init, (plan,))) as pool:
                for fights in pool.imap_unordered(run_unit, parts):
                    out += fights
                    bar.advance(len(fights))
        else:
            _init(plan)
            for u in parts:
                fights = run_unit(u)
                out += fights
                bar.advance(len(fights))
    finally:
        bar.stop()
    out.sort(key=lambda f: f.key)
    return out, time.perf_counter() - t0
