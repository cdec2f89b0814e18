"""A scene NPC in its place against that place's scripted bot, with intervals (issue 33).

Why: ``hexdojo train --scene ... `` with ``style = "striker"`` must give an NPC at least as
strong in its place as the scripted striker there. This plays both in the run's place of
its scene (the NPC's most probable choice; the style's bot, or ``--bot``), every other
place (allies included) played by each ``--against`` agent, the same fight seeds for
both (paired), and prints each one's score (wins + draws/2) with its 95 % Wilson
interval and the paired difference with a 95 % interval (a normal approximation over the
per-seed differences).

    python scripts/scene_npc_strength.py runs/bandit_striker --fights 400
    python scripts/scene_npc_strength.py runs/bandit_striker --checkpoint best.zip
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

from hexdojo.agents.calibrate import scene_match
from hexdojo.agents.checkpoint_meta import read_meta
from hexdojo.agents.imitation import scene_sides, twin
from hexdojo.agents.policy import LearnedAgent
from hexdojo.agents.ratings import wilson
from hexdojo.agents.registry import make_agent
from hexdojo.agents.tournament import play_fight


def scores(agent: Any, match: Any, opponent: str, fights: int, seed: int) -> list[float]:
    """Per fight: 1 win, 1/2 draw, 0 loss for the place's side, seeds ``seed + k``."""
    opp = make_agent(opponent)
    ally = twin(opp)
    game, place = match.game, match.places[0]
    side = game.sides[place]
    out = []
    for k in range(fights):
        r = play_fight(game, scene_sides(game, place, agent, opp, ally), seed + k)
        out.append(0.5 if r.winner is None else float(r.winner == side))
    return out


def paired(a: list[float], b: list[float]) -> tuple[float, float, float]:
    """Mean of a - b and its 95 % interval (normal approximation, paired by seed)."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    m = sum(d) / len(d)
    sd = math.sqrt(sum((x - m) ** 2 for x in d) / max(1, len(d) - 1))
    half = 1.96 * sd / math.sqrt(len(d))
    return m, m - half, m + half


def row(name: str, pts: list[float]) -> dict[str, Any]:
    lo, hi = wilson(sum(pts), len(pts))
    return {"agent": name, "score": sum(pts) / len(pts), "ci": [lo, hi], "n": len(pts),
            "wins": sum(p == 1.0 for p in pts), "draws": sum(p == 0.5 for p in pts)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path, help="a scene run folder (hexdojo train --scene)")
    ap.add_argument("--checkpoint", default="npc.zip", help="the run's model to measure")
    ap.add_argument("--bot", default=None, help="the scripted bot (default: the run's style)")
    ap.add_argument("--against", nargs="+", default=["greedy"])
    ap.add_argument("--fights", type=int, default=400)
    ap.add_argument("--seed", type=int, default=2_000_000, help="first fight seed")
    ap.add_argument("--json", type=Path, default=None)
    a = ap.parse_args()

    meta = read_meta(a.run / "npc.zip")
    if meta is None or not meta.get("scene") or meta.get("place") is None:
        raise SystemExit(f"{a.run}: not a scene run with a fixed place (npc.json)")
    bot = a.bot or meta.get("style") or "greedy"
    match = scene_match(meta, a.fights, a.seed)
    npc = LearnedAgent.load(a.run / a.checkpoint, name="npc", temperature=0.0)
    place = match.places[0]
    print(f"{meta['scene']}: place {place} ({match.game.profiles[place].name}); NPC "
          f"{a.run / a.checkpoint} ({meta['steps']:,} steps, style {meta.get('style')}) vs "
          f"{bot}; {a.fights} fights per row, seeds {a.seed}..")
    rows = []
    for opp in a.against:
        t0 = time.perf_counter()
        got_npc = scores(npc, match, opp, a.fights, a.seed)
        got_bot = scores(make_agent(bot), match, opp, a.fights, a.seed)
        d, lo, hi = paired(got_npc, got_bot)
        for r in (row("npc", got_npc), row(bot, got_bot)):
            print(f"  others {opp:<10} {r['agent']:<10} {100 * r['score']:5.1f} % "
                  f"[{100 * r['ci'][0]:.1f}, {100 * r['ci'][1]:.1f}]  "
                  f"({r['wins']} wins, {r['draws']} draws of {r['n']})")
            rows.append({"others": opp, **r})
        print(f"  npc - {bot}: {100 * d:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}] "
              f"({time.perf_counter() - t0:.0f} s)")
    if a.json is not None:
        a.json.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
