"""The general NPC on held-out sheets (issue 33): 10 pairings drawn by a seeded script from
the creation limits (``agents/sheetgen.py``'s held-out stream, seeds ``HELDOUT_SEED + k``:
not the presets, never drawn in training), each made into an NPC by ``hexdojo npc new``'s
own pipeline (``npc_new.new_npc``: the NPC plays the first sheet, its levels calibrated
against ``greedy`` playing the second, on fresh seeds), the sheets written as fighter files
as a GM's would be.

A pairing counts only if it is a fight worth playing (``sheetgen.balanced_pairings``, as in
training): ``greedy`` in the NPC's seat scores between ``--balance`` and 1 - ``--balance``
against ``greedy`` (40 fights; a GM pits a villain against characters of his class, and
where one sheet crushes the other no policy can show anything); the script draws pairings
from the held-out stream until it has ``--pairings`` such ones, and says how many it passed
over.

For each pairing: each level's score against greedy on fresh fights with its 95 % Wilson
interval, whether the levels are monotone (easy < fair < hard < master), and ``greedy``
itself in the NPC's seat for scale. Target: the top level (master) beats greedy, interval
clear of 50 %, in >= 8 of 10.

    python scripts/general_npc_heldout.py                   # 100 fights a candidate, -j 2
    python scripts/general_npc_heldout.py --fights 20 --pairings 3 --json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from hexdojo.agents.general_npc import HELDOUT_SEED, SHIPPED
from hexdojo.agents.npc_new import new_npc
from hexdojo.agents.sheetgen import balanced_pairings, seat_score, write_sheet
from hexdojo.envs.rules import Game


def pairing_row(k: int, a: dict, b: dict, policy: Path, fights: int, workers: int,
                tmp: Path) -> dict[str, Any]:
    """One held-out pairing's figures (see the module)."""
    fa, fb = write_sheet(a, tmp / f"npc{k}.toml"), write_sheet(b, tmp / f"opp{k}.toml")
    doc = new_npc([str(fa), str(fb)], tmp / f"run{k}", fights=fights, seed=1000 * k,
                  policy=policy, workers=workers, say=lambda s: None)
    levels = {lv["name"]: {"label": lv["label"], "score": lv["score"], "ci": lv["ci"]}
              for lv in doc["levels"]}
    scores = [lv["score"] for lv in levels.values()]
    top = levels["master"]
    return {"pairing": k, "npc": f"{a['style']} ({a['name']})",
            "opponent": f"{b['style']} ({b['name']})", "levels": levels, "top": top,
            "beats_greedy": top["ci"][0] > 0.5,
            "monotone": all(x < y for x, y in zip(scores, scores[1:], strict=False)),
            "greedy_in_seat": seat_score((a, b), fights, seed=1000 * k),
            "seconds": doc["seconds"]}


def table(rows: list[dict[str, Any]]) -> list[str]:
    """The Markdown table of docs/npc.md."""
    out = ["| # | NPC's sheet | opponent (greedy) | master vs greedy | easy / fair / hard / master "
           "| monotone | greedy in the seat |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        t = r["top"]
        lv = " / ".join(f"{v['score']:.0%}" for v in r["levels"].values())
        out.append(f"| {r['pairing']} | {r['npc']} | {r['opponent']} | **{t['score']:.1%}** "
                   f"[{t['ci'][0]:.1%}, {t['ci'][1]:.1%}] | {lv} | "
                   f"{'yes' if r['monotone'] else 'no'} | {r['greedy_in_seat']:.1%} |")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairings", type=int, default=10)
    ap.add_argument("--fights", type=int, default=100, help="fights per candidate and level")
    ap.add_argument("--policy", type=Path, default=SHIPPED)
    ap.add_argument("-j", "--workers", type=int, default=2)
    ap.add_argument("--balance", type=float, default=0.3,
                    help="keep pairings where greedy in the seat scores within [b, 1-b]")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    rules = Game.create(["chu", "chu"]).tables.data
    pairs, skipped = balanced_pairings(rules, HELDOUT_SEED, a.pairings, a.balance, fights=40)
    print(f"{skipped} lopsided pairings passed over", file=sys.stderr)
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for k, (x, y) in enumerate(pairs):
            rows.append(pairing_row(k, x, y, a.policy, a.fights, a.workers, Path(d)))
            print(f"pairing {k}: master {rows[-1]['top']}", file=sys.stderr, flush=True)
    wins = sum(r["beats_greedy"] for r in rows)
    mono = sum(r["monotone"] for r in rows)
    if a.json:
        print(json.dumps({"rows": rows, "beats_greedy": wins, "monotone": mono,
                          "passed_over": skipped, "policy": str(a.policy), "fights": a.fights}))
    else:
        print("\n".join(table(rows)))
        print(f"\nmaster beats greedy (interval clear of 50 %): {wins} of {len(rows)}; levels "
              f"monotone: {mono} of {len(rows)}; {skipped} lopsided pairings passed over")
    return 0


if __name__ == "__main__":
    sys.exit(main())
