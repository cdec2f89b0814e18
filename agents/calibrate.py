"""``hexdojo calibrate RUN``: a trained run's named levels (easy, fair, hard, master).

Why: a GM wants "a brawler who fights well but not perfectly", not a checkpoint. A level
is an agent spec plus options (a snapshot of the run, the final policy sampled at a
temperature, or any agent spec given with ``--candidate``: the hook for the policy with
search at play time), measured **on the NPC's own side(s)** (its sidecar's ``side``)
against a stand-in for a competent player (a scripted style, default the best of the
main job's ladder) on common seeds, with its score and 95 % Wilson interval. The levels
are a chain picked from the measured candidates so that easy < fair < hard < master in
measured score, as evenly spread as the candidates allow; where the candidates' natural
order (a lower temperature, a later snapshot) is not monotone, or two levels' intervals
overlap, ``levels.json`` and the command say so.

Levels are agents by name everywhere (``runs/npc:hard``: :mod:`.levels`, used by the
registry's ``make_agent``). The commands are in :mod:`.cli.npc`.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from itertools import combinations
from pathlib import Path
from typing import Any

from hexdojo.envs.rules import Game

from .base import Agent, AgentError
from .checkpoint_meta import read_meta
from .imitation import scene_sides, twin
from .interrupts import worker_pool
from .lab.runner import NO_WOUND, observe_fight
from .levels import FORMAT, LEVELS_FILE, build
from .ratings import wilson
from .registry import make_agent
from .report import atomic_write_text
from .style import Recorder, StyleStats
from .tournament import ChainWalk, Progress
from .training.rundir import snapshot_paths

LEVELS = ("easy", "fair", "hard", "master")
#: the best scripted style of the main job's ladder (chu vs boris: greedy 1587, striker
#: 1576, counter 1575; README benchmarks)
DEFAULT_OPPONENT = "greedy"
#: the final policy sampled at these temperatures (0: its most probable choice)
TEMPERATURES = (0.0, 0.5, 1.0, 2.0, 5.0)
#: the confirming fights' seeds start this far from the selection's
CONFIRM_SEEDS = 1_000_000


# --------------------------------------------------------------------------- candidates
@dataclass
class Candidate:
    """One agent that may become a level; ``chain``/``rank`` order the natural ladder
    it belongs to (higher rank: expected stronger), for the monotonicity note."""

    label: str
    entry: dict[str, Any]
    chain: str = ""
    rank: float = 0.0


def candidates(root: Path, temperatures: tuple[float, ...] = TEMPERATURES,
               extra: tuple[str, ...] = (), search: tuple[int, ...] = (),
               options: dict[str, Any] | None = None) -> list[Candidate]:
    """The final policy at each temperature, the best-evaluated model and the run's
    snapshots at temperature 0, the final policy as the prior of an MCTS search of each
    ``search`` budget (simulations per decision), then the ``extra`` agent specs.
    ``options`` (e.g. a style's lean) go with every temperature candidate."""
    more = dict(options or {})
    out = [Candidate(f"npc.zip T={t:g}", {"agent": "npc.zip", "options": {"temperature": t, **more}},
                     "temperature", -t) for t in temperatures]
    if (root / "best.zip").is_file():
        out.append(Candidate("best.zip T=0", {"agent": "best.zip",
                                              "options": {"temperature": 0.0}}))
    for p in snapshot_paths(root / "snapshots"):
        steps = int(p.stem.rpartition("_")[2]) if p.stem.rpartition("_")[2].isdigit() else 0
        out.append(Candidate(f"{p.stem} T=0", {"agent": f"snapshots/{p.name}",
                                               "options": {"temperature": 0.0}},
                             "training", float(steps)))
    out += [Candidate(f"npc.zip + search {n}", {"agent": "npc.zip",
                                                 "options": {"search": n, **more}},
                      "search", float(n)) for n in search]
    out += [Candidate(spec, {"agent": spec, "options": {}}) for spec in extra]
    return out


# --------------------------------------------------------------------------- measuring
@dataclass
class Measured:
    """A candidate's fights against the stand-in, from the NPC's side."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    stats: StyleStats = field(default_factory=StyleStats)
    chains: Counter = field(default_factory=Counter)  #: chain -> uses
    chain_wounds: Counter = field(default_factory=Counter)  #: chain -> wounds dealt in it
    turns: int = 0

    @property
    def n(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.n if self.n else 0.0

    def ci(self) -> tuple[float, float]:
        return wilson(self.wins + 0.5 * self.draws, self.n)

    def add(self, other: Measured) -> None:
        self.wins += other.wins
        self.draws += other.draws
        self.losses += other.losses
        self.turns += other.turns
        self.stats.add(other.stats)
        self.chains.update(other.chains)
        self.chain_wounds.update(other.chain_wounds)

    def summary(self) -> dict[str, Any]:
        lo, hi = self.ci()
        return {"score": round(self.score, 4), "ci": [round(lo, 4), round(hi, 4)],
                "wins": self.wins, "draws": self.draws, "losses": self.losses, "n": self.n}


@dataclass
class Match:
    """What a measurement plays: the game, the NPC's sides, the seeds; for a scene's NPC
    (``places``), the places it plays: the NPC in its place, the opponent in every other
    (allies included, as in training on Skirmish-v0), scored for the place's side."""

    game: Any
    sides: tuple[int, ...]
    fights: int
    seed: int = 0
    places: tuple[int, ...] | None = None

    def seats(self) -> tuple[int, ...]:
        """Where the NPC is measured: its sides (a duel) or its places (a scene)."""
        return self.sides if self.places is None else self.places


_W: dict[str, Any] = {}


def _init(agents: list[Agent], opponents: list[Agent], match: Match) -> None:
    _W.update(agents=agents, opponents=opponents, match=match, allies={})


class PlaceRecorder(Recorder):
    """A :class:`Recorder` that also walks the chains of its own place's choices (in a
    scene a side's chains would mix its allies' in)."""

    def __init__(self, inner: Agent) -> None:
        super().__init__(inner)
        self.walk = ChainWalk()

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.walk = ChainWalk()

    def act(self, state: Any) -> Any:
        c = super().act(state)
        self.walk.note(state, c)
        return c


def _fight(npc: Recorder, opp: Agent, seat: int, o: int, key: tuple) -> tuple[float, int,
                                                                            list[tuple[str, int]]]:
    """One fight of the NPC at ``seat``: (its score, turns, its chains with the wounds
    dealt in each)."""
    match: Match = _W["match"]
    if match.places is None:
        pair = (npc, opp) if seat == 0 else (opp, npc)
        f, _ = observe_fight(match.game, pair, key)
        return f.score(seat), f.turns, list(f.sides[seat].chains)
    allies = _W.setdefault("allies", {})
    if o not in allies:
        allies[o] = twin(opp)
    sides = scene_sides(match.game, seat, npc, opp, allies[o])
    f, state = observe_fight(match.game, sides, key)
    events = state.events if state is not None else []
    spans = npc.walk.close(len(events)) if isinstance(npc, PlaceRecorder) else []
    hits = [k for k, e in enumerate(events) if e.get("a") == seat and e["type"] == "damage"
            and e.get("kind") == "attack" and e.get("wound") not in NO_WOUND]
    chains = [(ch, sum(lo <= k < hi for k in hits)) for ch, lo, hi in spans]
    return f.score(match.game.sides[seat]), f.turns, chains


def _unit(unit: tuple[int, int, int, int, int]) -> tuple[int, int, Measured]:
    """Seeds [start, stop) of agent ``a`` at ``seat`` (a side, or a scene's place)
    against opponent ``o``."""
    a, o, seat, start, stop = unit
    match: Match = _W["match"]
    inner, opp = _W["agents"][a], _W["opponents"][o]
    npc = Recorder(inner) if match.places is None else PlaceRecorder(inner)
    m = Measured()
    for seed in range(start, stop):
        sc, turns, chains = _fight(npc, opp, seat, o, ("npc", seat, a, o, match.seed + seed))
        m.wins += sc == 1.0
        m.draws += sc == 0.5
        m.losses += sc == 0.0
        m.turns += turns
        for chain, dealt in chains:
            m.chains[chain] += 1
            m.chain_wounds[chain] += dealt
    m.stats = npc.stats
    return a, o, m


def side_split(fights: int, sides: tuple[int, ...]) -> list[tuple[int, int]]:
    """(seat, fights there): ``fights`` shared between the NPC's sides or places (same
    seeds)."""
    per = max(1, fights // len(sides))
    return [(s, per) for s in sides]


def measure(agents: list[Agent], opponents: list[Agent], match: Match, workers: int = 1,
            say: Callable[[str], None] | None = None, progress: bool = True
            ) -> dict[tuple[int, int], Measured]:
    """Every agent against every opponent on the NPC's sides; (agent, opponent) -> results.
    The same seeds for all, so the comparisons are paired; identical for any ``workers``."""
    chunk = 25
    units = [(a, o, s, lo, min(n, lo + chunk)) for a in range(len(agents))
             for o in range(len(opponents)) for s, n in side_split(match.fights, match.seats())
             for lo in range(0, n, chunk)]
    out = {(a, o): Measured() for a in range(len(agents)) for o in range(len(opponents))}
    bar = Progress(sum(u[4] - u[3] for u in units), progress and sys.stderr.isatty(), say)
    try:
        if workers > 1 and len(units) > 1:
            ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
            with worker_pool(ctx, workers, _init, (agents, opponents, match)) as pool:
                done = list(_advance(pool.imap(_unit, units), bar))
        else:
            _init(agents, opponents, match)
            done = list(_advance(map(_unit, units), bar))
    finally:
        bar.stop()
    for a, o, m in done:  # in unit order: the sums do not depend on who finished first
        out[(a, o)].add(m)
    return out


def _advance(results: Any, bar: Any) -> Any:
    for a, o, m in results:
        bar.advance(m.n)
        yield a, o, m


# --------------------------------------------------------------------------- choosing
def pick_chain(scores: list[float], n: int = len(LEVELS),
               cis: list[tuple[float, float]] | None = None) -> list[int]:
    """Indices of ``n`` candidates, weakest to strongest by measured score: the weakest,
    the strongest, and between them those that separate most (given ``cis``: the most
    adjacent pairs whose 95 % intervals do not overlap, so the levels can be told apart)
    and spread the chain most evenly (the largest smallest step). Monotone in measured
    score by construction; ties keep list order."""
    if len(scores) < n:
        raise ValueError(f"calibrate: {len(scores)} candidate(s) measured; {n} levels need "
                         f"at least {n} (give more --temperatures or --candidate)")
    order = sorted(range(len(scores)), key=lambda i: (scores[i], -i))
    lo, hi = order[0], order[-1]

    def spread(mid: tuple[int, ...]) -> tuple[int, float, float]:
        idx = (lo, *mid, hi)
        chain = [scores[i] for i in idx]
        steps = [b - a for a, b in zip(chain, chain[1:], strict=False)]
        apart = 0 if cis is None else sum(cis[b][0] > cis[a][1]
                                          for a, b in zip(idx, idx[1:], strict=False))
        return apart, min(steps), -sum((s - sum(steps) / len(steps)) ** 2 for s in steps)

    mid = max(combinations(order[1:-1], n - 2), key=spread)
    return [lo, *mid, hi]


def monotony_notes(cands: list[Candidate], results: list[Measured]) -> list[str]:
    """Where a natural order (lower temperature, later snapshot) is not monotone in score."""
    notes = []
    for chain in sorted({c.chain for c in cands if c.chain}):
        idx = sorted((i for i, c in enumerate(cands) if c.chain == chain), key=lambda i: cands[i].rank)
        for a, b in zip(idx, idx[1:], strict=False):
            if results[b].score < results[a].score:
                ra, rb = results[a], results[b]
                overlap = ra.ci()[0] <= rb.ci()[1]
                notes.append(
                    f"not monotone in {chain}: {cands[b].label} scored {rb.score:.1%} < "
                    f"{cands[a].label} {ra.score:.1%}" + (" (the intervals overlap: within "
                                                          "the noise)" if overlap else ""))
    return notes


def overlap_notes(levels: list[dict[str, Any]]) -> list[str]:
    """Adjacent levels whose 95 % intervals overlap: not told apart at this many fights."""
    out = []
    for a, b in zip(levels, levels[1:], strict=False):
        if b["ci"][0] <= a["ci"][1]:
            out.append(f"{a['name']} [{a['ci'][0]:.1%}, {a['ci'][1]:.1%}] and {b['name']} "
                       f"[{b['ci'][0]:.1%}, {b['ci'][1]:.1%}] overlap: not told apart at "
                       f"{b['n']} fights (more --fights may separate them)")
    return out


#: below this best score (or above this worst one) against the stand-in, the matchup
#: leaves the levels no room: every level loses (or wins) nearly every fight
NO_ROOM = 0.10


def room_notes(results: list[Measured], opponent: str) -> list[str]:
    """A warning when the matchup leaves no room for levels: the strongest candidate's
    interval wholly under ``NO_ROOM`` (a hopeless matchup: 0-3 % levels that cannot be
    told apart) or the weakest's wholly over ``1 - NO_ROOM``."""
    best = max(results, key=lambda m: m.score)
    worst = min(results, key=lambda m: m.score)
    if best.ci()[1] < NO_ROOM:
        return [f"no room for levels: the strongest candidate scores {best.score:.1%} "
                f"[{best.ci()[0]:.1%}, {best.ci()[1]:.1%}] against {opponent}: the matchup is "
                "hopeless on the NPC's side(s), so its levels are all near 0 % (train longer, "
                "give it another side or fighters, or calibrate against a weaker --opponent)"]
    if worst.ci()[0] > 1 - NO_ROOM:
        return [f"no room for levels: the weakest candidate scores {worst.score:.1%} "
                f"[{worst.ci()[0]:.1%}, {worst.ci()[1]:.1%}] against {opponent}: every level "
                "wins nearly every fight (calibrate against a stronger --opponent)"]
    return []


def ladder_notes(levels: list[str], ladder: dict[str, float]) -> list[str]:
    """Where the levels' mean score against the ladder (their cards) is not in the order
    easy < fair < hard < master: the order against one stand-in does not carry over."""
    known = [n for n in levels if n in ladder]
    out = []
    for a, b in zip(known, known[1:], strict=False):
        if ladder[b] < ladder[a]:
            out.append(f"on the ladder {b} scores {ladder[b]:.1%} < {a} {ladder[a]:.1%} "
                       "(mean over the cards' opponents): the levels are in order against "
                       "the stand-in only")
    return out


def add_notes(root: Path, notes: list[str]) -> None:
    """Append ``notes`` to the run's ``levels.json`` (written atomically)."""
    if not notes:
        return
    path = root / LEVELS_FILE
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["notes"] = list(doc.get("notes") or []) + notes
    atomic_write_text(path, json.dumps(doc, indent=2) + "\n")


# --------------------------------------------------------------------------- the run
def run_match(root: Path, fights: int, seed: int) -> tuple[dict[str, Any], Match]:
    """The run's sidecar and what its NPC is measured on: its game and its side(s)."""
    final = root / "npc.zip"
    if not final.is_file():
        raise AgentError(f"{root}: no npc.zip (a finished `hexdojo train` / `hexdojo run` "
                         "folder is needed)")
    meta = read_meta(final)
    if meta is None:
        raise AgentError(f"{root}: npc.zip has no sidecar npc.json (an older run): calibrate "
                         "needs its fighters and sides; retrain it with this hexdojo")
    if meta.get("scene"):
        return meta, scene_match(meta, fights, seed)
    game = Game.create(list(meta["fighters"]), rules=meta.get("rules"),
                       radius=int(meta.get("radius", 4)), turn_limit=meta.get("turn_limit"))
    side = str(meta.get("side", "alternate"))
    sides = (int(side),) if side in ("0", "1") else (0, 1)
    return meta, Match(game, sides, fights, seed)


def scene_match(meta: dict[str, Any], fights: int, seed: int) -> Match:
    """A scene NPC's measurement: its scene (with the rules it trained on), in its place
    (a run with no fixed place: every place in turn), the stand-in in every other place."""
    game = Game.from_scene(meta["scene"], rules=meta.get("rules"))
    place = meta.get("place")
    if place is not None and place >= len(game.profiles):
        raise AgentError(f"npc.json: field 'place': value {place}: the scene "
                         f"{meta['scene']!r} has places 0..{len(game.profiles) - 1}")
    places = (int(place),) if place is not None else tuple(range(len(game.profiles)))
    sides = tuple(sorted({game.sides[p] for p in places}))
    return Match(game, sides, fights, seed, places)


def where(match: Match, meta: dict[str, Any]) -> str:
    """``side A only (chu vs boris)`` or ``place 1 (Boris, side guards) of two_vs_one``."""
    if match.places is None:
        return f"{side_words(match.sides)} ({' vs '.join(meta['fighters'])})"
    g = match.game
    at = ", ".join(f"{p} ({g.profiles[p].name}, side {g.side_name(g.sides[p])})"
                   for p in match.places)
    return f"place{'s' if len(match.places) > 1 else ''} {at} of scene {meta['scene']}"


@dataclass
class Calibration:
    """What ``calibrate`` measured and chose (``doc`` is ``levels.json``)."""

    doc: dict[str, Any]
    chosen: list[int]
    cands: list[Candidate]
    results: list[Measured]
    match: Match


def calibrate(root: Path, opponent: str = DEFAULT_OPPONENT, fights: int = 200, seed: int = 0,
              temperatures: tuple[float, ...] = TEMPERATURES, extra: tuple[str, ...] = (),
              workers: int = 1, say: Callable[[str], None] = print, progress: bool = True,
              search: tuple[int, ...] = (), separate: int = 0,
              options: dict[str, Any] | None = None) -> Calibration:
    """Measure the candidates, pick the levels (``separate``: :func:`confirm`), write
    ``levels.json`` atomically (``options``: :func:`candidates`)."""
    meta, match = run_match(root, fights, seed)
    opp = make_agent(opponent)  # a bad name fails before any fight
    cands = candidates(root, temperatures, extra, search, options)
    agents = [build(root, c.entry, c.label, make_agent) for c in cands]
    say(f"calibrating {root}: {len(cands)} candidates x {match.fights} fights against "
        f"{opp.name} on {where(match, meta)}")
    got = measure(agents, [opp], match, workers, say, progress)
    results = [got[(a, 0)] for a in range(len(cands))]
    chain = pick_chain([r.score for r in results], cis=[r.ci() for r in results])
    chosen, fresh, notes = confirm(chain, cands, agents, opp, match, workers, say, progress,
                                   separate)
    levels = [{"name": name, "label": cands[i].label, **cands[i].entry, **m.summary(),
               "selection": results[i].summary()}
              for name, i, m in zip(LEVELS, chosen, fresh, strict=False)]
    notes = (room_notes(results, opp.name) + monotony_notes(cands, results) + notes
             + overlap_notes(levels))
    doc = {"format": FORMAT, "version": 1, "run": str(root), "opponent": opp.name,
           "fighters": list(meta["fighters"]), "sides": list(match.sides),
           "scene": meta.get("scene"), "places": None if match.places is None else
           list(match.places),
           "rules_id": meta.get("rules_id"), "steps": meta.get("steps"),
           "fights": match.fights, "seed": seed, "levels": levels,
           "candidates": [{"label": c.label, **c.entry, **r.summary()}
                          for c, r in zip(cands, results, strict=False)], "notes": notes}
    atomic_write_text(root / LEVELS_FILE, json.dumps(doc, indent=2) + "\n")
    return Calibration(doc, chosen, cands, results, match)


def confirm(chosen: list[int], cands: list[Candidate], agents: list[Agent], opp: Agent,
            match: Match, workers: int, say: Callable[[str], None], progress: bool,
            separate: int = 0) -> tuple[list[int], list[Measured], list[str]]:
    """Measure the chosen chain again on fresh seeds: the best of many noisy candidates
    scores high partly by luck (the winner's curse), so the levels' scores are these;
    while adjacent levels' intervals overlap, up to ``separate`` more rounds of as many
    fresh fights are added (more fights narrow the intervals). If the fresh scores are not
    monotone, say so and order the levels by them."""
    say(f"confirming the {len(chosen)} levels on {match.fights} fresh fights each")
    again = replace(match, seed=match.seed + CONFIRM_SEEDS)
    got = measure([agents[i] for i in chosen], [opp], again, workers, say, progress)
    fresh = [got[(k, 0)] for k in range(len(chosen))]
    for extra in range(1, separate + 1):
        if not overlapping(fresh):
            break
        say(f"adjacent levels overlap: {match.fights} more fresh fights each to separate them")
        more = replace(match, seed=match.seed + CONFIRM_SEEDS + extra * match.fights)
        got = measure([agents[i] for i in chosen], [opp], more, workers, say, progress)
        for k in range(len(chosen)):
            fresh[k].add(got[(k, 0)])
    order = sorted(range(len(chosen)), key=lambda k: (fresh[k].score, k))
    if order == list(range(len(chosen))):
        return chosen, fresh, []
    was = ", ".join(f"{cands[i].label} {m.score:.1%}" for i, m in zip(chosen, fresh, strict=False))
    note = (f"on fresh seeds the chosen chain was not monotone ({was}): the levels are "
            "ordered by their fresh scores")
    return [chosen[k] for k in order], [fresh[k] for k in order], [note]


def overlapping(ms: list[Measured]) -> bool:
    """Whether two adjacent results (in score order) have overlapping 95 % intervals."""
    ordered = sorted(ms, key=lambda m: m.score)
    return any(b.ci()[0] <= a.ci()[1] for a, b in zip(ordered, ordered[1:], strict=False))


def side_words(sides: tuple[int, ...] | list[int]) -> str:
    return "both sides" if len(sides) == 2 else f"side {'AB'[sides[0]]} only"


def table_lines(doc: dict[str, Any]) -> list[str]:
    """The candidates and the chosen levels, for the terminal."""
    chosen = {e["label"]: e["name"] for e in doc["levels"]}
    lines = [f"{'candidate':<28} {'score':>7}  95 % interval      level"]
    for c in sorted(doc["candidates"], key=lambda c: c["score"]):
        lines.append(f"{c['label']:<28} {c['score']:>7.1%}  [{c['ci'][0]:.1%}, {c['ci'][1]:.1%}]"
                     f"{'':<4}{chosen.get(c['label'], '')}")
    lines += [f"note: {n}" for n in doc["notes"]]
    return lines

