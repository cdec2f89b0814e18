"""Strength of each ladder agent against random legal play, as odds with 95 % intervals.

For every agent X, X and ``random`` play a round robin (X as fighter A and as fighter B on
the same dice seeds), and X's win rate p (draws count as not won) is reported with its
Wilson interval and as odds p / (1 - p), the poke-env convention (ANCHORS: the strongest
scripted bot should reach >= 100x); the last column gives the odds among decided fights
only (wins : losses), which matters where the turn limit draws many fights. Results go to
stdout as a markdown table and, with --json, to a file (written atomically).

    python scripts/ladder_vs_random.py                      # 500 fights per side, chu mirror
    python scripts/ladder_vs_random.py --fights 1000 --fighters boris,boris
    python scripts/ladder_vs_random.py --agents greedy "search:sims=96" --fights 100
"""

from __future__ import annotations

import argparse
import sys
import time

from hexdojo.agents.ratings import strength
from hexdojo.agents.report import write_bench_json
from hexdojo.agents.tournament import TournamentConfig, default_workers, run_tournament

LADDER = ["greedy", "striker", "grappler", "counter", "search", "mcts"]


def measure(agent: str, fights: int, fighters: tuple[str, str], seed: int,
            workers: int) -> dict:
    cfg = TournamentConfig(("random", agent), fights=fights, fighters=fighters, seed=seed,
                           workers=workers)
    res = run_tournament(cfg, progress=sys.stderr.isatty())
    name = res.names[1]
    w = d = lo = 0
    for (i, _), ps in res.pairs.items():
        if i == 1:  # agent as fighter A
            w, d, lo = w + ps.wins, d + ps.draws, lo + ps.losses
        else:
            w, d, lo = w + ps.losses, d + ps.draws, lo + ps.wins
    s = strength(w, d, lo)
    dec = strength(w, 0, lo)  # decided fights only: wins against losses
    return {"agent": name, "fighters": list(fighters), "wins": w, "draws": d, "losses": lo,
            "n": s.n, "win_rate": s.rate, "win_lo": s.rate_lo, "win_hi": s.rate_hi,
            "odds": s.odds, "odds_lo": s.odds_lo, "odds_hi": s.odds_hi,
            "decided_odds": dec.odds, "decided_odds_lo": dec.odds_lo,
            "decided_odds_hi": dec.odds_hi, "seconds": round(res.elapsed, 1)}


def fmt_odds(x: float) -> str:
    return "inf" if x == float("inf") else f"{x:.1f}x"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agents", nargs="+", default=LADDER)
    ap.add_argument("--fights", type=int, default=500, help="fights per side (per ordered pair)")
    ap.add_argument("--fighters", default="chu,chu")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=default_workers())
    ap.add_argument("--json", help="also write the results to this file")
    args = ap.parse_args(argv)
    fighters = tuple(args.fighters.split(","))
    if len(fighters) != 2:
        ap.error("--fighters: two presets, comma-separated")
    rows = []
    t0 = time.perf_counter()
    print(f"| agent | vs random ({' vs '.join(fighters)}) W/D/L | win rate [95% CI] | "
          "odds [95% CI] | wins:losses [95% CI] |")
    print("|---|---|---|---|---|")
    for a in args.agents:
        r = measure(a, args.fights, fighters, args.seed, args.workers)
        rows.append(r)
        print(f"| {r['agent']} | {r['wins']}/{r['draws']}/{r['losses']} | "
              f"{r['win_rate']:.1%} [{r['win_lo']:.1%}, {r['win_hi']:.1%}] | "
              f"{fmt_odds(r['odds'])} [{fmt_odds(r['odds_lo'])}, {fmt_odds(r['odds_hi'])}] | "
              f"{fmt_odds(r['decided_odds'])} [{fmt_odds(r['decided_odds_lo'])}, "
              f"{fmt_odds(r['decided_odds_hi'])}] |", flush=True)
    if args.json:
        write_bench_json(args.json, "python scripts/ladder_vs_random.py " + " ".join(argv or sys.argv[1:]),
                         args.workers, time.perf_counter() - t0, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
