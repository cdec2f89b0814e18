"""Round-robin tournaments with common random numbers, and the single-fight runner.

Every ordered pairing (A as fighter 0 against B as fighter 1, and B against A) plays the
same fight seeds, so both orders meet the same dice (common random numbers) and the side
advantage cancels out of the comparison. Agents re-seed from the fight's seed, so results
are identical whatever the number of worker processes or the order chunks finish in.

Per fight the runner records the winner, the length, each side's maneuvers and its
maneuver *chains* (a maneuver followed by the follow-ons it opened, RULES §3, e.g.
``Martial Strike > Arm Grab > Martial Throw``), from the choices the agents made.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hexdojo.envs.rules import DECISION_KINDS, Choice, Game, State, _core
from hexdojo.envs.rules import state as rules_state
from hexdojo.envs.rules.menus import boundary_of

from . import _bots, scripted_core  # _bots's functions by module: a test spies on play_fight
from .base import Agent, AgentError
from .interrupts import worker_pool
from .lab.common import rules_spec
from .plugins import PluginFault, forfeit_on_error
from .registry import as_agent, spec_of
from .scaleout import ray_address, ray_pool

CHAIN_SEP = " > "
#: the core's id of a maneuver choice (its decisions' kinds are DECISION_KINDS, in order)
MANEUVER = tuple(_core.CHOICE_KINDS).index("maneuver")


@dataclass
class FightRecord:
    """One finished fight, seen from its two sides."""

    seed: int
    winner: int | None
    reason: str
    turns: int
    decisions: int
    usage: tuple[Counter, Counter] = field(default_factory=lambda: (Counter(), Counter()))
    chains: tuple[Counter, Counter] = field(default_factory=lambda: (Counter(), Counter()))
    choices: list[Choice] | None = None
    #: each side's chains in play order with where they stand in the event log:
    #: (chain, first event, end event), what the lab credits wounds to
    spans: tuple[list[tuple[str, int, int]], list[tuple[str, int, int]]] = field(
        default_factory=lambda: ([], []))


def agent_seed(fight_seed: int, side: int) -> int:
    """The seed an agent on ``side`` gets for the fight with ``fight_seed``."""
    return int(np.random.SeedSequence([fight_seed, side, 7919]).generate_state(1)[0])


def play_fight(
    game: Game,
    agents: Sequence[Agent],
    seed: int,
    record_choices: bool = False,
    spans: bool = True,
) -> FightRecord:
    """Play one fight to the end; agents[k] plays every fighter of side k (in a duel,
    fighter k; a scene's sides may hold several fighters, e.g. two guards). Without
    ``spans`` the record's spans are left empty (a round robin needs only the chains),
    which lets the fast path skip the event log.

    Raises ``RuntimeError`` if an agent returns an illegal choice, naming the agent, the
    choice and the engine's reason (agents must only return legal choices).
    """
    fast = play_native(game, agents, seed, record_choices, spans)
    if fast is not None:
        return fast
    state = game.new_state(seed)
    usage: tuple[Counter, Counter] = (Counter(), Counter())
    walks = (ChainWalk(), ChainWalk())
    choices: list[Choice] | None = [] if record_choices else None
    for side, a in enumerate(agents):
        try:
            a.reset(agent_seed(seed, side))
        except PluginFault as exc:
            return forfeit(exc, side, seed, state, 0, choices)
    n = 0
    while not state.is_over:
        d = state.decision
        assert d is not None
        i = game.sides[d.fighter]
        try:
            c = checked_act(agents[i], state)
        except PluginFault as exc:
            return forfeit(exc, i, seed, state, n, choices)
        if c.kind == "maneuver" and i < 2:
            usage[i][c.maneuver or ""] += 1
            walks[i].note(state, c)
        state.apply(c)
        if choices is not None:
            choices.append(c)
        n += 1
    return _record(seed, state.result or {}, state.turn, n, usage, walks, len(state.events),
                   choices, spans)


def forfeit(exc: PluginFault, side: int, seed: int, state: State, n: int,
            choices: list[Choice] | None) -> FightRecord:
    """A plug-in's fault: without ``--forfeit-on-error`` the command stops on it (one
    line); with it, the fight is a loss of the plug-in's side, said on stderr."""
    if not forfeit_on_error():
        raise exc
    print(f"warning: {exc} (seed {seed}): the fight is scored as a loss of side "
          f"{'AB'[side] if side < 2 else side} (--forfeit-on-error)", file=sys.stderr)
    empty = (Counter(), Counter())
    return FightRecord(seed, 1 - side if side < 2 else None, "forfeit", state.turn, n, empty,
                       empty, choices, ([], []))


def _record(seed: int, res: dict[str, Any], turn: int, n: int, usage: tuple[Counter, Counter],
            walks: tuple[ChainWalk, ChainWalk], end: int, choices: list[Choice] | None,
            spans: bool) -> FightRecord:
    """The FightRecord of a finished fight (both paths): the chains closed at event ``end``."""
    played = (walks[0].close(end), walks[1].close(end))
    chains = (Counter(ch for ch, _, _ in played[0]), Counter(ch for ch, _, _ in played[1]))
    return FightRecord(seed, res.get("winner"), str(res.get("reason", "")), turn, n, usage,
                       chains, choices, played if spans else ([], []))


def play_native(game: Game, agents: Sequence[Agent], seed: int, record_choices: bool,
                spans: bool = True) -> FightRecord | None:
    """:func:`play_fight` inside the native core, where every agent has a native player
    (``Agent.native_player``): the whole fight without a Python call per decision. The
    same fight, choices and record as through the Python API (tests/agents/test_tournament_native.py);
    None where it cannot (an agent without a native form, e.g. a plug-in or a learned
    policy the core cannot run; or ``HEXDOJO_NATIVE_AGENTS=0``)."""
    if not scripted_core.enabled():
        return None
    players = [a.native_player(game) if hasattr(a, "native_player") else None for a in agents]
    if any(p is None for p in players):
        return None

    for side, p in enumerate(players):  # the players are re-seeded, as the agents would be
        p.reset(_bots.agent_seed(seed, side))
    core, b = native_fight(game, seed)
    rows = _bots.play_fight(core, players, list(game.sides), spans).tolist()
    usage: tuple[Counter, Counter] = (Counter(), Counter())
    walks = (ChainWalk(), ChainWalk())
    choices = [] if record_choices else None
    for fighter, kind, _, *ids, events, after in rows:
        side = game.sides[fighter]
        if ids[0] == MANEUVER and side < 2:
            name = b.maneuvers[ids[1]]
            usage[side][name] += 1
            walks[side].step(DECISION_KINDS[kind], name,
                             b.maneuvers[after] if after >= 0 else None, events)
        if choices is not None:
            choices.append(b.to_python(tuple(ids)))
    return _record(seed, core.result or {}, core.turn, len(rows), usage, walks, core.n_events,
                   choices, spans)


def native_fight(game: Game, seed: int) -> tuple[Any, Any]:
    """(core fight, its Boundary) of ``game.new_state(seed)``; a game
    without a scene's random start gets its dice seeded natively (numpy's default_rng(seed)
    took half of the ~30 us a fight's set-up cost)."""
    if game.scene is not None:
        s = game.new_state(seed)
        return s._core, s._b
    t = game.tables
    dice = _bots.fresh_dice(seed, t.data.dice.die_sides)
    return rules_state.core_fight(game, game.start_positions(), dice), boundary_of(t)


def checked_act(agent: Agent, state: State) -> Choice:
    """The agent's choice, or ``RuntimeError`` naming the agent if it is not legal."""
    c = agent.act(state)
    reason = state.why_illegal(c)
    if reason is not None:
        raise RuntimeError(f"agent {agent.name!r} returned an illegal choice {c}: {reason}")
    return c


class ChainWalk:
    """One side's maneuver chains as they are played (RULES §3): a maneuver and the
    follow-ons it opened, each as ``(chain, first event, end event)``: ``play_fight``'s
    record counts them and keeps their spans, to which the lab credits wounds."""

    def __init__(self) -> None:
        self.chains: list[tuple[str, int, int]] = []
        self._cur: list[str] = []
        self._start = 0

    def note(self, state: State, c: Choice) -> None:
        """The side's choice ``c`` at ``state.decision``, before it is applied."""
        d = state.decision
        if c.kind != "maneuver" or d is None:
            return
        after = state.context().get("after") if d.kind == "follow_on" else None
        self.step(d.kind, c.maneuver or "", after, len(state.events))

    def step(self, kind: str, name: str, after: str | None, events: int) -> None:
        """The side's maneuver ``name`` in a ``kind`` decision (a follow-on's: of the
        maneuver ``after``), ``events`` logged before it."""
        if kind == "follow_on":
            if not self._cur or self._cur[-1] != after:
                self.close(events)
                self._cur = [after] if after else []
                self._start = events
            self._cur.append(name)
        elif kind in ("action", "reaction"):
            self.close(events)
            self._cur = [name]
            self._start = events

    def close(self, end: int) -> list[tuple[str, int, int]]:
        """End the chain being played (one of two or more maneuvers is kept); all so far."""
        if len(self._cur) >= 2:
            self.chains.append((CHAIN_SEP.join(self._cur), self._start, end))
        self._cur = []
        return self.chains


# --------------------------------------------------------------------------- config
@dataclass(frozen=True)
class TournamentConfig:
    """What a round robin plays. ``fights`` is per ordered pairing."""

    agents: tuple[str, ...]
    fights: int = 100
    fighters: tuple[str, str] = ("chu", "chu")
    seed: int = 0
    rules: str | None = None
    radius: int = 4
    turn_limit: int | None = None
    workers: int = 1
    scene: str | None = None  #: a two-side scene (its fighters, start, arena) instead of fighters

    def check(self) -> None:
        if len(self.agents) < 2:
            raise AgentError(f"agents: {list(self.agents)!r}: a tournament needs at least two")
        dup = [a for a, k in Counter(self.agents).items() if k > 1]
        if dup:
            raise AgentError(f"agents: {dup[0]!r} given twice; every agent needs its own name")
        if not 1 <= self.fights <= 10_000_000:
            raise ValueError(f"fights: value {self.fights!r}: allowed 1..10000000")
        if not 1 <= self.workers <= 256:
            raise ValueError(f"workers: value {self.workers!r}: allowed 1..256")
        if len(self.fighters) != 2:
            raise ValueError(f"fighters: value {list(self.fighters)!r}: exactly two needed")
        if not 0 <= self.seed < 2**62:
            raise ValueError(f"seed: value {self.seed!r}: allowed 0..2^62")

    def game(self) -> Game:
        rules = rules_spec(self.rules)  # a TOML file or inline section.key=value;...
        if self.scene is not None:
            g = Game.from_scene(self.scene, rules=rules)
            if len(set(g.sides)) != 2:
                raise ValueError(f"scene: value {self.scene!r}: a tournament pits two agents, "
                                 f"one per side; this scene has {len(set(g.sides))} sides")
            return g
        return Game.create(list(self.fighters), rules=rules, radius=self.radius,
                           turn_limit=self.turn_limit)


# --------------------------------------------------------------------------- results
@dataclass
class PairStats:
    """Results of one ordered pairing (first agent plays fighter 0)."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    turns: int = 0
    decisions: int = 0

    @property
    def n(self) -> int:
        return self.wins + self.draws + self.losses


@dataclass
class TournamentResult:
    """Everything a round robin measured; :mod:`.report` turns it into files."""

    config: TournamentConfig
    names: list[str]
    pairs: dict[tuple[int, int], PairStats]
    usage: dict[str, Counter]
    chains: dict[str, Counter]
    fights: list[tuple[str, str, int, int | None, str, int, int]]
    elapsed: float
    rules_id: str = ""
    #: each side's name and fighters (side 0 is played by a pairing's first agent)
    sides: list[tuple[str, list[str]]] = field(default_factory=list)
    #: the spec that re-builds each agent (``registry.spec_of``: plug-ins and checkpoints too)
    agent_specs: list[str] = field(default_factory=list)


_W: dict[str, Any] = {}


def _init_worker(agents: list[Agent], config: TournamentConfig) -> None:
    _W["agents"] = agents
    _W["game"] = config.game()


def _run_unit(unit: tuple[int, int, int, int]) -> tuple[int, int, list, list, list]:
    """Play seeds [start, stop) of the ordered pairing (i, j)."""
    i, j, start, stop = unit
    agents = _W["agents"]
    game = _W["game"]
    rows = []
    usage: list[Counter] = [Counter(), Counter()]
    chains: list[Counter] = [Counter(), Counter()]
    pair = (agents[i], agents[j])
    for seed in range(start, stop):
        rec = play_fight(game, pair, seed, spans=False)
        rows.append((seed, rec.winner, rec.reason, rec.turns, rec.decisions))
        for side in (0, 1):
            usage[side].update(rec.usage[side])
            chains[side].update(rec.chains[side])
    return i, j, rows, usage, chains


def _units(n_agents: int, seed: int, fights: int, chunk: int) -> list[tuple[int, int, int, int]]:
    out = []
    for i in range(n_agents):
        for j in range(n_agents):
            if i == j:
                continue
            for start in range(seed, seed + fights, chunk):
                out.append((i, j, start, min(seed + fights, start + chunk)))
    return out


def default_workers() -> int:
    """One worker per available core."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def run_tournament(
    config: TournamentConfig,
    agents: Sequence[Agent | str] | None = None,
    progress: bool = False,
    lines: bool = False,
) -> TournamentResult:
    """Play the round robin described by ``config`` (agents built from its specs unless
    given). With ``progress`` a progress bar is shown on the terminal; with ``lines`` (for
    logs and CI, where there is no terminal) a progress line every ``LINE_EVERY`` s."""
    config.check()
    built = [as_agent(a) for a in (agents if agents is not None else config.agents)]
    names = [a.name for a in built]
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise AgentError(f"agents: {dup!r} given twice; every agent needs its own name")
    game = config.game()  # validates fighters / rules before any work starts
    t0 = time.perf_counter()
    results = _play_units(config, built, game, progress, lines)
    elapsed = time.perf_counter() - t0
    pairs, usage, chains, fights = _collect(results, names)
    return TournamentResult(config, names, pairs, usage, chains, fights, elapsed,
                            getattr(game.tables, "id", ""), side_roster(game),
                            [spec_of(a) for a in built])


def _play_units(config: TournamentConfig, built: list[Agent], game: Game,
                progress: bool, lines: bool = False) -> dict[tuple[int, int, int], tuple]:
    """Every unit of fights (an ordered pairing's chunk of seeds), in worker processes
    when there are several; results keyed by (i, j, first seed)."""
    n = len(built)
    chunk = max(1, min(50, config.fights // max(1, 4 * config.workers) or 1))
    units = _units(n, config.seed, config.fights, chunk)
    total = n * (n - 1) * config.fights
    results: dict[tuple[int, int, int], tuple] = {}
    if (config.workers > 1 and len(units) > 1) or ray_address():
        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
        # the pool forks before the progress bar starts its refresh thread; --ray: on Ray
        with (ray_pool(_init_worker, (built, config)) if ray_address() else
              worker_pool(ctx, config.workers, _init_worker, (built, config))) as pool:
            bar = _progress(progress, total, lines)
            try:
                for res in pool.imap_unordered(_run_unit, units):
                    results[(res[0], res[1], res[2][0][0])] = res
                    bar.advance(len(res[2]))
            finally:
                bar.stop()
    else:
        _W["agents"], _W["game"] = built, game
        bar = _progress(progress, total, lines)
        try:
            for u in units:
                res = _run_unit(u)
                results[(res[0], res[1], res[2][0][0])] = res
                bar.advance(len(res[2]))
        finally:
            bar.stop()
    return results


def _collect(results: dict[tuple[int, int, int], tuple], names: list[str]) -> tuple[
        dict[tuple[int, int], PairStats], dict[str, Counter], dict[str, Counter], list[tuple]]:
    """The units' results in seed order: per-pairing stats, usage, chains, the fights."""
    n = len(names)
    pairs = {(i, j): PairStats() for i in range(n) for j in range(n) if i != j}
    usage = {nm: Counter() for nm in names}
    chains = {nm: Counter() for nm in names}
    fights = []
    for key in sorted(results):
        i, j, rows, us, ch = results[key]
        ps = pairs[(i, j)]
        for seed, winner, reason, turns, decisions in rows:
            if winner == 0:
                ps.wins += 1
            elif winner == 1:
                ps.losses += 1
            else:
                ps.draws += 1
            ps.turns += turns
            ps.decisions += decisions
            fights.append((names[i], names[j], seed, winner, reason, turns, decisions))
        usage[names[i]].update(us[0])
        usage[names[j]].update(us[1])
        chains[names[i]].update(ch[0])
        chains[names[j]].update(ch[1])
    return pairs, usage, chains, fights


def side_roster(game: Game) -> list[tuple[str, list[str]]]:
    """Each side's name and the names of its fighters, in side order."""
    out = []
    for side in sorted(set(game.sides)):
        members = [p.name for p, sd in zip(game.profiles, game.sides, strict=True) if sd == side]
        out.append((game.side_name(side), members))
    return out


class _RichBar:
    def __init__(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.progress import Progress as RichProgress

        self.p = RichProgress(TextColumn("fights"), BarColumn(), MofNCompleteColumn(),
                          TimeElapsedColumn(), TimeRemainingColumn(), transient=True,
                          console=Console(stderr=True))
        self.task = self.p.add_task("fights", total=total)
        self.p.start()

    def advance(self, k: int) -> None:
        self.p.advance(self.task, k)

    def stop(self) -> None:
        self.p.stop()


#: seconds between two progress lines when there is no terminal (logs and CI)
LINE_EVERY = 30.0


class Progress:
    """How far a long run of fights is: a bar on a terminal (``bar``); otherwise, where
    ``say`` is given, a line every ``LINE_EVERY`` s starting with ``label``. Tournaments,
    the lab and calibration all report through it."""

    def __init__(self, total: int, bar: bool, say: Callable[[str], None] | None = None,
                 label: str = "") -> None:
        self.total, self.done, self.say, self.label = total, 0, say, label
        self.t0 = self.last = time.perf_counter()
        self.bar = _RichBar(total) if bar else None

    def advance(self, k: int) -> None:
        self.done += k
        if self.bar is not None:
            self.bar.advance(k)
            return
        now = time.perf_counter()
        if self.say is not None and now - self.last >= LINE_EVERY:
            self.last = now
            self.say(f"{self.label}{self.done:,}/{self.total:,} fights "
                     f"({100 * self.done // max(1, self.total)}%), {now - self.t0:.0f} s")

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _progress(enabled: bool, total: int, lines: bool) -> Progress:
    """A tournament's reporter: the bar, or lines on stdout (``lines``), or silence."""
    return Progress(total, enabled, (lambda s: print(s, flush=True)) if lines else None,
                    "tournament: ")
