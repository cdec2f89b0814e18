"""The general NPC on held-out sheets (issue 33): 10 pairings drawn by a seeded script from
the creation limits (``agents/sheetgen.py``, seed ``HELDOUT_SEED``: not the presets, never
drawn in training), the NPC playing the first sheet against ``greedy`` playing the second.

A pairing counts only if it is a fight worth playing: ``greedy`` in the NPC's seat scores
between ``--balance`` and 1 - ``--balance`` against ``greedy`` (40 fights; a GM pits a
villain against characters of his class, and where one sheet crushes the other no policy
can show anything); the script draws pairings from the seeded stream until it has
``--pairings`` such ones, and says how many it passed over.

For each pairing: the NPC's score at each temperature of ``hexdojo npc new``'s levels
(T=0 is its top level) with the 95 % Wilson interval, whether the levels are monotone,
and, for scale, ``greedy`` itself in the NPC's seat (what the seat is worth against
greedy). Target: the top level beats greedy (interval clear of 50 %) in >= 8 of 10.

    python scripts/general_npc_heldout.py                   # 100 fights a level, -j 2
    python scripts/general_npc_heldout.py --fights 20 --pairings 3 --json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from hexdojo.agents.calibrate import Match, measure
from hexdojo.agents.general_npc import HELDOUT_SEED, SHIPPED
from hexdojo.agents.npc_new import NEW_TEMPERATURES
from hexdojo.agents.policy import LearnedAgent
from hexdojo.agents.registry import make_agent
from hexdojo.agents.sheetgen import random_pairings
from hexdojo.envs.rules import Game


def pairing_row(k: int, a: dict, b: dict, policy: Path, fights: int, workers: int) -> dict[str, Any]:
    """One held-out pairing's figures (see the module)."""
    game = Game.create([a, b], turn_limit=20)
    agents: list[Any] = []
    for t in NEW_TEMPERATURES:
        ag = LearnedAgent.load(policy, name=f"T={t:g}")
        ag.temperature = t
        agents.append(ag)
    agents.append(make_agent("greedy"))  # the seat's worth, for scale
    got = measure(agents, [make_agent("greedy")], Match(game, (0,), fights, seed=1000 * k),
                  workers=workers, progress=False)
    levels = [got[(i, 0)].summary() for i in range(len(NEW_TEMPERATURES))]
    scores = [lv["score"] for lv in levels]
    return {"pairing": k, "npc": f"{a['style']} ({a['name']})", "opponent": f"{b['style']} ({b['name']})",
            "levels": dict(zip([f"T={t:g}" for t in NEW_TEMPERATURES], levels, strict=True)),
            "top": levels[0], "beats_greedy": levels[0]["ci"][0] > 0.5,
            "monotone": all(x >= y for x, y in zip(scores, scores[1:], strict=False)),
            "greedy_in_seat": got[(len(NEW_TEMPERATURES), 0)].summary()}


def balanced(rules: Any, n: int, balance: float, workers: int) -> tuple[list[tuple[dict, dict]], int]:
    """The first ``n`` pairings of the held-out stream where greedy in the NPC's seat scores
    within [balance, 1 - balance] against greedy (40 fights), and how many were passed over."""
    kept: list[tuple[dict, dict]] = []
    k = 0
    while len(kept) < n:
        (a, b), = random_pairings(rules, HELDOUT_SEED + k, 1)
        k += 1
        game = Game.create([a, b], turn_limit=20)
        got = measure([make_agent("greedy")], [make_agent("greedy")], Match(game, (0,), 40, seed=k),
                      workers=workers, progress=False)
        if balance <= got[(0, 0)].score <= 1 - balance:
            kept.append((a, b))
    return kept, k - n


def table(rows: list[dict[str, Any]]) -> list[str]:
    """The Markdown table of docs/npc.md."""
    out = ["| # | NPC's sheet | opponent (greedy) | top level (T=0) | levels T=0 / 0.7 / 2 / 6 | "
           "monotone | greedy in the seat |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        t = r["top"]
        lv = " / ".join(f"{v['score']:.0%}" for v in r["levels"].values())
        g = r["greedy_in_seat"]
        out.append(f"| {r['pairing']} | {r['npc']} | {r['opponent']} | **{t['score']:.1%}** "
                   f"[{t['ci'][0]:.1%}, {t['ci'][1]:.1%}] | {lv} | {'yes' if r['monotone'] else 'no'} "
                   f"| {g['score']:.1%} [{g['ci'][0]:.1%}, {g['ci'][1]:.1%}] |")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairings", type=int, default=10)
    ap.add_argument("--fights", type=int, default=100, help="fights per level and pairing")
    ap.add_argument("--policy", type=Path, default=SHIPPED)
    ap.add_argument("-j", "--workers", type=int, default=2)
    ap.add_argument("--balance", type=float, default=0.3,
                    help="keep pairings where greedy in the seat scores within [b, 1-b]")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    rules = Game.create(["chu", "chu"]).tables.data
    pairs, skipped = balanced(rules, a.pairings, a.balance, a.workers)
    print(f"{skipped} lopsided pairings passed over", file=sys.stderr)
    rows = []
    for k, (x, y) in enumerate(pairs):
        rows.append(pairing_row(k, x, y, a.policy, a.fights, a.workers))
        print(f"pairing {k}: top {rows[-1]['top']['score']:.1%} {rows[-1]['top']['ci']}",
              file=sys.stderr, flush=True)
    wins = sum(r["beats_greedy"] for r in rows)
    mono = sum(r["monotone"] for r in rows)
    if a.json:
        print(json.dumps({"rows": rows, "beats_greedy": wins, "monotone": mono,
                          "passed_over": skipped}))
    else:
        print("\n".join(table(rows)))
        print(f"\ntop level beats greedy (interval clear of 50 %): {wins} of {len(rows)}; "
              f"levels monotone: {mono} of {len(rows)}; {skipped} lopsided pairings passed over")
    return 0


if __name__ == "__main__":
    sys.exit(main())
