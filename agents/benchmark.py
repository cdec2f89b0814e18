"""``hexdojo benchmark``: a fixed, versioned protocol whose numbers two papers can compare.

Why a protocol and not a tournament's options: a tournament's numbers depend on its seeds,
fighters, opponents and fight count, which every user picks anew. A benchmark version
(:data:`V1`) freezes all of them in one frozen dataclass: the named seed ranges, both sides
of every pairing, the ladder of opponents, the arenas (the Chu mirror duel and one group
scene) and the statistics. Everything is played by :func:`~.tournament.run_tournament`
(common random numbers, results independent of the worker count) and measured by the
tournament report's statistics (:mod:`.report`, :mod:`.ratings`): nothing is computed a
second way here. A run that leaves the protocol (``--quick``, ``--fights``) says so in its
record, so that nobody cites it as ``v1``.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .base import Agent, AgentError
from .checkpoint_meta import hexdojo_version
from .registry import make_agent, spec_of
from .report import _cell, _matrix_by_side, ratings_of
from .tournament import TournamentConfig, TournamentResult, run_tournament, side_roster

FORMAT = "hexdojo-benchmark"
#: fights per ordered pairing of a ``--quick`` run (a smoke test, never a result)
QUICK_FIGHTS = 2


@dataclass(frozen=True)
class Arena:
    """Where the agents meet: two fighters (a duel) or a shipped scene (a group fight),
    the first seed of its named seed range and the fights per ordered pairing."""

    name: str
    title: str
    seed: int
    fights: int
    fighters: tuple[str, str] = ("chu", "chu")
    scene: str | None = None
    radius: int = 4
    turn_limit: int | None = None


@dataclass(frozen=True)
class Protocol:
    """One benchmark version: changing anything here makes a new version, never a new v1."""

    version: str
    ladder: tuple[str, ...]
    arenas: tuple[Arena, ...]
    rules: str = "shipped"
    score: str = ("score = (wins + draws / 2) / fights; 95 % Wilson score interval "
                  "(ratings.wilson), per side: the agent on side 0, then on side 1")
    rating: str = ("Bradley-Terry maximum likelihood over every fight of the arena (both "
                   "sides pooled, draws half), Elo scale, mean 1500 over the arena's field, "
                   "95 % interval +- 1.96 standard errors from the observed information, "
                   "1 virtual draw per pairing (ratings.bradley_terry)")


V1 = Protocol(
    version="v1",
    ladder=("random", "greedy", "striker", "grappler", "counter", "search", "mcts"),
    arenas=(
        Arena("duel", "Duel (Chu mirror)", seed=1_000, fights=100),
        Arena("two_vs_one", "Scene two_vs_one (Chu against Boris and Novice)",
              seed=2_000, fights=100, scene="two_vs_one"),
    ),
)
PROTOCOLS: dict[str, Protocol] = {"v1": V1}
NAME = "hexdojo benchmark"


@dataclass(frozen=True)
class Plan:
    """A run of a protocol: its agents under test, and what (if anything) it changed."""

    protocol: Protocol
    candidates: tuple[Agent, ...]
    fights: int | None = None
    quick: bool = False
    workers: int = 1

    def fights_for(self, arena: Arena) -> int:
        """``--fights`` if given, else the quick count, else the protocol's."""
        if self.fights is not None:
            return self.fights
        return QUICK_FIGHTS if self.quick else arena.fights

    def deviations(self) -> list[str]:
        """Every way this run leaves the protocol (empty: it is the protocol)."""
        out = []
        if PROTOCOLS.get(self.protocol.version) != self.protocol:
            out.append(f"the protocol's definition is not the published "
                       f"{self.protocol.version}'s (see protocol.definition)")
        for a in self.protocol.arenas:
            n = self.fights_for(a)
            if n != a.fights:
                why = "--fights" if self.fights is not None else "--quick"
                out.append(f"{a.name}: {n} fights per ordered pairing instead of "
                           f"{a.fights} ({why})")
        return out


def protocol(version: str) -> Protocol:
    """The protocol of a version name, or one line listing the known ones."""
    if version not in PROTOCOLS:
        raise ValueError(f"protocol: value {version!r}: allowed {', '.join(PROTOCOLS)}")
    return PROTOCOLS[version]


def build_candidates(specs: Sequence[str]) -> tuple[Agent, ...]:
    """The agents under test from their specs (registry names, checkpoints, RUN:LEVEL,
    plug-ins): a bad one fails here, in one line, before any fight."""
    if not specs:
        raise AgentError("agents: give at least one agent to benchmark, e.g. greedy")
    built = tuple(make_agent(s) for s in specs)
    names = [a.name for a in built]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise AgentError(f"agents: {dup!r} given twice; every agent needs its own name")
    return built


def field_of(plan: Plan) -> tuple[list[Agent], dict[str, str]]:
    """The candidates, then the ladder agents not among them; each name's role. A
    candidate named like a ladder agent must be that agent (same spec): one line if not."""
    ladder = [make_agent(s) for s in plan.protocol.ladder]
    by_name = {a.name: a for a in ladder}
    roles = {}
    for a in plan.candidates:
        same = by_name.get(a.name)
        if same is not None and spec_of(same) != spec_of(a):
            raise AgentError(f"agent {spec_of(a)!r} is named {a.name!r} like the ladder's "
                             f"{spec_of(same)!r}; give it another name")
        roles[a.name] = "candidate, ladder" if same is not None else "candidate"
    field = list(plan.candidates)
    for a in ladder:
        if a.name not in roles:
            roles[a.name] = "ladder"
            field.append(a)
    return field, roles


def arena_config(arena: Arena, names: Sequence[str], fights: int,
                 workers: int) -> TournamentConfig:
    """The tournament an arena is: its fighters or scene, its seeds, the shipped rules."""
    return TournamentConfig(tuple(names), fights, arena.fighters, arena.seed, None,
                            arena.radius, arena.turn_limit, workers, arena.scene)


def probe(agents: Sequence[Agent], game: Any, seed: int) -> dict[str, str]:
    """The agents that cannot play this arena (a checkpoint trained on a duel's spaces in a
    group scene, or the reverse), with the reason: asked for one decision before any fight,
    so that a run does not stop half-way; they are left out of the arena and said so."""
    out = {}
    for a in agents:
        state = game.new_state(seed)
        try:
            a.reset(seed)
            a.act(state)
        except AgentError as exc:
            out[a.name] = str(exc)
    return out


# --------------------------------------------------------------------------- the record
def arena_record(arena: Arena, result: TournamentResult, roles: dict[str, str],
                 absent: dict[str, str]) -> dict[str, Any]:
    """One arena's part of the record: its set-up, the ratings, every ordered pairing per
    side (the tournament report's by-side matrix) and each agent against the ladder."""
    names = result.names
    by_side = _matrix_by_side(result)
    pairings = [{"agent": names[i], "opponent": names[j], **by_side[i][j]}
                for i in range(len(names)) for j in range(len(names)) if i != j]
    rt = ratings_of(result)
    return {
        "name": arena.name, "title": arena.title, "scene": arena.scene,
        "fighters": None if arena.scene else list(arena.fighters),
        "sides": [{"side": k, "name": nm, "fighters": fs}
                  for k, (nm, fs) in enumerate(result.sides)],
        "seeds": {"first": result.config.seed, "count": result.config.fights},
        "fights_per_ordered_pairing": result.config.fights,
        "rules_id": result.rules_id,
        "absent": dict(absent),
        "ratings": {"converged": rt.converged, "table": rt.as_rows()},
        "pairings": pairings,
        "vs_ladder": {nm: vs_ladder(pairings, nm, roles) for nm in names},
    }


def vs_ladder(pairings: list[dict[str, Any]], name: str,
              roles: dict[str, str]) -> dict[str, Any]:
    """``name``'s fights against the ladder (itself left out), per side and pooled: the
    figure that does not depend on which other candidates a run brought."""
    w = [0, 0, 0]
    d = [0, 0, 0]
    lo = [0, 0, 0]
    for p in pairings:
        if p["agent"] != name or "ladder" not in roles.get(p["opponent"], ""):
            continue
        for k, side in enumerate(("side0", "side1")):
            for acc, key in ((w, "wins"), (d, "draws"), (lo, "losses")):
                acc[k] += p[side][key]
                acc[2] += p[side][key]
    return {"side0": _cell(w[0], d[0], lo[0]), "side1": _cell(w[1], d[1], lo[1]),
            "both": _cell(w[2], d[2], lo[2])}


def ladder_digest(arenas: list[dict[str, Any]], roles: dict[str, str]) -> str:
    """A sha256 of the ladder's results among themselves in every arena: two records with
    the same digest met the same ladder (same agents' code, rules and seeds), whatever
    candidates they brought."""
    rows = [[a["name"], p["agent"], p["opponent"], p["side0"]["wins"], p["side0"]["draws"],
             p["side0"]["losses"]]
            for a in arenas for p in a["pairings"]
            if "ladder" in roles[p["agent"]] and "ladder" in roles[p["opponent"]]]
    return hashlib.sha256(json.dumps(rows).encode()).hexdigest()


def git_state() -> dict[str, Any] | None:
    """The commit of the source tree hexdojo runs from (and whether tracked files were
    changed), or None where it is no git checkout (an installed wheel)."""
    root = Path(__file__).resolve().parent.parent
    if not (root / ".git").exists():
        return None
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                              text=True, timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain",
                                "--untracked-files=no"], capture_output=True, text=True,
                               timeout=30, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return {"commit": head, "dirty": bool(dirty)}


def _file_hash(spec: str) -> str | None:
    """The sha256 of an agent's file (a checkpoint, a plug-in's module), so that a record
    names exactly which weights or code it measured; None for a registered name."""
    path = Path(spec)
    if not path.is_file() and ".py:" in spec:
        path = Path(spec.split(".py:")[0] + ".py")
    if not path.is_file():
        return None
    return hashlib.sha256(path.read_bytes()).hexdigest()


def record(plan: Plan, field: Sequence[Agent], roles: dict[str, str],
           arenas: list[dict[str, Any]]) -> dict[str, Any]:
    """The whole JSON record: protocol (and any deviation), software, agents, arenas."""
    dev = plan.deviations()
    specs = {a.name: spec_of(a) for a in field}
    return {
        "format": FORMAT,
        "protocol": {"name": NAME, "version": plan.protocol.version, "followed": not dev,
                     "deviations": dev, "definition": json.loads(json.dumps(asdict(plan.protocol)))},
        "rules_id": arenas[0]["rules_id"] if arenas else "",
        "software": {"hexdojo": hexdojo_version(), "git": git_state()},
        "created_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "agents": [{"name": a.name, "spec": specs[a.name], "role": roles[a.name],
                    "sha256": _file_hash(specs[a.name])} for a in field],
        "ladder_digest": ladder_digest(arenas, roles),
        "arenas": arenas,
    }


# --------------------------------------------------------------------------- running
def run_benchmark(plan: Plan, progress: bool = False, lines: bool = False,
                  say: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Play every arena of the plan's protocol and return the record (see :func:`record`).
    ``progress``/``lines``: the tournament's bar or progress lines; ``say``: one line per
    arena (what is played, who is left out and why)."""
    field, roles = field_of(plan)
    arenas = []
    for k, arena in enumerate(plan.protocol.arenas, 1):
        fights = plan.fights_for(arena)
        game = arena_config(arena, [a.name for a in field], fights, plan.workers).game()
        absent = probe(field, game, arena.seed)
        players = [a for a in field if a.name not in absent]
        if say is not None:
            _say_arena(say, k, len(plan.protocol.arenas), arena, game, len(players), fights,
                       absent)
        cfg = arena_config(arena, [a.name for a in players], fights, plan.workers)
        result = run_tournament(cfg, players, progress=progress, lines=lines)
        arenas.append(arena_record(arena, result, roles, absent))
    return record(plan, field, roles, arenas)


def _say_arena(say: Callable[[str], None], k: int, n: int, arena: Arena, game: Any,
               players: int, fights: int, absent: dict[str, str]) -> None:
    sides = "; ".join(f"side {i} {nm} ({', '.join(fs)})"
                      for i, (nm, fs) in enumerate(side_roster(game)))
    say(f"arena {k}/{n}: {arena.title}: {sides}; {players} agents, {fights} fights per "
        f"ordered pairing ({players * (players - 1) * fights:,} fights)")
    for name, why in absent.items():
        say(f"  {name} cannot play this arena and is left out of it: {why}")

