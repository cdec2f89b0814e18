"""What is a scene worth? The win rate a set-up gives, against the plain duel of the same fighters.

Plays the same scripted agent on both sides of SCENE (default ``ambush``: Chu starts in
Boris's rear hex, Boris facing away) and of the BASELINE duel (default ``duel_1``: the same
two fighters in the same places, adjacent and facing each other), over the same fight
seeds, and prints the second place's win rate in each with Wilson 95 % intervals and the
difference (Newcombe's interval from the two Wilson intervals). ``--swap`` also plays the
scene with the two fighters exchanged (Boris ambushing Chu), so the figure is not one
pairing's strength. Same seeds, same numbers, whatever ``--workers``.

    python scripts/scene_value.py                                  # ambush vs duel_1, greedy, 1000 fights
    python scripts/scene_value.py --agent counter --fights 400 --swap --out /tmp/ambush.json
    python scripts/scene_value.py --scene duel_3 --baseline duel_1

``--balance`` instead plays a scene of any size with AGENT on every side and prints each
side's win rate (who wins ``two_vs_one`` when everyone plays alike; with ``random``, the
baseline a learner of ``hexdojo/Skirmish-v0`` starts from):

    python scripts/scene_value.py --balance --scene two_vs_one --agent random
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from hexdojo.agents.ratings import wilson
from hexdojo.agents.registry import make_agent
from hexdojo.agents.tournament import play_fight
from hexdojo.envs.rules import Game, RulesError


def fighters_of(scene: str) -> list[str]:
    """The fighter names (preset or file) of a scene's places."""
    sc = Game.from_scene(scene).scene
    assert sc is not None
    return [f.fighter if isinstance(f.fighter, str) else "dict" for f in sc.fighters]


def play_block(args: tuple[str, list[str] | None, str, list[int]]) -> list[int | None]:
    """Winners (sides) of the fights ``seeds`` of ``scene`` with ``fighters`` (None: the
    scene's), ``agent`` on every side (one process: the pool's unit of work)."""
    scene, fighters, agent, seeds = args
    game = Game.from_scene(scene, fighters=fighters)
    n_sides = len(set(game.sides))
    return [play_fight(game, [make_agent(agent) for _ in range(n_sides)], s).winner
            for s in seeds]


def balance(scene: str, agent: str, seeds: list[int], workers: int) -> str:
    """Each side's win rate [Wilson 95 %] with ``agent`` on every side, as markdown."""
    game = Game.from_scene(scene)
    ws = winners(scene, None, agent, seeds, workers)
    n = len(ws)
    rows = [f"| side ({scene}, `{agent}` everywhere) | fighters | wins % [95 % CI] |", "|---|---|---|"]
    for side in sorted(set(game.sides)):
        who = ", ".join(p.name for p, sd in zip(game.profiles, game.sides, strict=True) if sd == side)
        k = sum(w == side for w in ws)
        lo, hi = wilson(k, n)
        rows.append(f"| {game.side_name(side)} | {who} | {pct(k / n)} [{pct(lo)}, {pct(hi)}] |")
    draws = sum(w is None for w in ws)
    return "\n".join(rows) + f"\n\n({n} fights, {draws} draws)"


def winners(scene: str, fighters: list[str] | None, agent: str, seeds: list[int], workers: int
            ) -> list[int | None]:
    """All winners, in seed order (blocks of seeds are independent: same result for any
    number of workers)."""
    size = max(1, math.ceil(len(seeds) / (4 * workers)))
    blocks = [(scene, fighters, agent, seeds[i:i + size]) for i in range(0, len(seeds), size)]
    if workers <= 1:
        return [w for b in blocks for w in play_block(b)]
    with ProcessPoolExecutor(workers) as pool:
        return [w for ws in pool.map(play_block, blocks) for w in ws]


def newcombe(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float]:
    """95 % interval of p1 - p2 (Newcombe's hybrid score method, from Wilson intervals)."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p1 - p2
    return (d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
            d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2))


def summary(ws: list[int | None]) -> dict[str, Any]:
    """Counts and the second place's (side 1's) win rate with its Wilson interval."""
    n = len(ws)
    k = sum(w == 1 for w in ws)
    lo, hi = wilson(k, n)
    return {"fights": n, "wins_1": k, "wins_0": sum(w == 0 for w in ws),
            "draws": sum(w is None for w in ws), "rate_1": k / n, "ci_1": [lo, hi]}


def pct(x: float) -> str:
    return f"{100 * x:.1f}"


def measure(scene: str, baseline: str, fighters: list[str], agent: str, seeds: list[int],
            workers: int) -> dict[str, Any]:
    """The scene and its baseline with ``fighters`` in their places, and the difference."""
    s = summary(winners(scene, fighters, agent, seeds, workers))
    b = summary(winners(baseline, fighters, agent, seeds, workers))
    lo, hi = newcombe(s["wins_1"], s["fights"], b["wins_1"], b["fights"])
    return {"fighters": fighters, "scene": s, "baseline": b, "difference": s["rate_1"] - b["rate_1"],
            "difference_ci": [lo, hi]}


def table(rows: list[dict[str, Any]], scene: str, baseline: str, agent: str) -> str:
    """The result as a markdown table."""
    out = [f"| 2nd place (vs 1st) | {scene}: 2nd wins % [95 % CI] | {baseline}: 2nd wins % "
           "[95 % CI] | worth (points) [95 % CI] | draws | fights |",
           "|---|---|---|---|---|---|"]
    for r in rows:
        s, b = r["scene"], r["baseline"]
        lo, hi = r["difference_ci"]
        out.append(
            f"| {r['fighters'][1]} (vs {r['fighters'][0]}) | {pct(s['rate_1'])} "
            f"[{pct(s['ci_1'][0])}, {pct(s['ci_1'][1])}] | {pct(b['rate_1'])} "
            f"[{pct(b['ci_1'][0])}, {pct(b['ci_1'][1])}] | {100 * r['difference']:+.1f} "
            f"[{100 * lo:+.1f}, {100 * hi:+.1f}] | {s['draws']} / {b['draws']} | {s['fights']} |")
    return "\n".join(out) + f"\n\n(agent `{agent}` on both sides, same seeds in both set-ups)"


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` whole or not at all (temp file, then ``os.replace``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "w") as f:
        json.dump(data, f, indent=2)
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--scene", default="ambush", help="a two-fighter scene (default ambush)")
    p.add_argument("--baseline", default="duel_1", help="the duel to compare with (default duel_1)")
    p.add_argument("--agent", default="greedy", help="agent on both sides (default greedy)")
    p.add_argument("--fights", type=int, default=1000, help="fights per set-up (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="first fight seed (default 0)")
    p.add_argument("--swap", action="store_true", help="also with the two fighters exchanged")
    p.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    p.add_argument("--out", type=Path, help="also write the numbers as JSON here")
    p.add_argument("--balance", action="store_true",
                   help="each side's win rate in --scene (any size) instead")
    a = p.parse_args(argv)
    try:
        make_agent(a.agent)
        fighters = fighters_of(a.scene)
        if a.balance and a.fights >= 1:
            print(balance(a.scene, a.agent, list(range(a.seed, a.seed + a.fights)), a.workers))
            return 0
        if len(fighters) != 2 or len(fighters_of(a.baseline)) != 2:
            raise RulesError(f"--scene {a.scene!r} / --baseline {a.baseline!r}: both need two fighters")
    except (RulesError, ValueError, KeyError) as exc:
        print(f"scene_value: {exc}", file=sys.stderr)
        return 2
    if a.fights < 1:
        print(f"scene_value: --fights {a.fights}: allowed 1 or more", file=sys.stderr)
        return 2
    seeds = list(range(a.seed, a.seed + a.fights))
    pairings = [fighters] + ([fighters[::-1]] if a.swap else [])
    rows = [measure(a.scene, a.baseline, f, a.agent, seeds, a.workers) for f in pairings]
    print(table(rows, a.scene, a.baseline, a.agent))
    if a.out is not None:
        write_json(a.out, {"scene": a.scene, "baseline": a.baseline, "agent": a.agent,
                           "seeds": [seeds[0], seeds[-1]], "rows": rows})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
