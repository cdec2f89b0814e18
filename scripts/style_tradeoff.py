"""The style/strength trade-off of style-conditioned NPCs (issue 14, docs/npc.md).

For each trained run: its style share (the share of its attacks in the style's
categories; counter: of the attacks it faced, met with a defence; ``agents/style.py``)
and its score against the scripted bot of the same style and against the stand-in
(greedy), on the NPC's own side(s), common seeds, 95 % Wilson intervals. The share's
interval pools the attacks of all fights (attacks within a fight are not independent,
so it is somewhat too narrow).

    python scripts/style_tradeoff.py grappler runs/npc runs/style_g0.05 --style grappler

(a name that is not a folder is an agent spec measured for reference, e.g. the scripted
grappler itself, on chu vs boris with the main job's turn limit 20)
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from hexdojo.agents.calibrate import Match, Measured, measure, run_match
from hexdojo.agents.levels import build
from hexdojo.agents.ratings import wilson
from hexdojo.agents.registry import make_agent
from hexdojo.agents.style import STYLE_NAMES, style_share


def weight_of(root: Path) -> str:
    if not root.is_dir():
        return "(scripted)"
    cfg = json.loads((root / "config.json").read_text())
    return f"{cfg.get('style') or '-'} {cfg.get('style_weight', 0) if cfg.get('style') else 0:g}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", type=Path)
    ap.add_argument("--style", choices=STYLE_NAMES, default="grappler")
    ap.add_argument("--fights", type=int, default=400, help="per opponent, both sides together")
    ap.add_argument("--also", default="greedy", help="a second opponent (the stand-in)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    a = ap.parse_args()
    opps = [make_agent(a.style), make_agent(a.also)]
    print(f"| run | style, weight | {a.style} share of attacks | vs {a.style} | vs {a.also} |")
    print("|---|---|---|---|---|")
    for root in a.runs:
        t0 = time.perf_counter()
        if root.is_dir():
            _, match = run_match(root, a.fights, a.seed)
            npc = build(root, {"agent": "npc.zip", "options": {"temperature": 0.0}}, root.name,
                        make_agent)
        else:  # an agent spec for reference (the scripted style itself), the main job's fight
            from hexdojo.envs.rules import Game

            match = Match(Game.create(["chu", "boris"], turn_limit=20), (0, 1), a.fights, a.seed)
            npc = make_agent(str(root))
        got = measure([npc], opps, match, a.workers, progress=False)
        both = Measured()  # the style share pools both opponents' fights
        both.add(got[(0, 0)])
        both.add(got[(0, 1)])
        k, n = style_share(both.stats, a.style)
        lo, hi = wilson(k, n)
        cells = [f"{m.score:.1%} [{m.ci()[0]:.1%}, {m.ci()[1]:.1%}]"
                 for m in (got[(0, 0)], got[(0, 1)])]
        print(f"| {root} | {weight_of(root)} | {k / max(n, 1):.1%} [{lo:.1%}, {hi:.1%}] "
              f"({k}/{n}) | {cells[0]} | {cells[1]} |  <!-- {time.perf_counter() - t0:.0f} s -->",
              flush=True)


if __name__ == "__main__":
    main()
