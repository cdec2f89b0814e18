"""How much the side decides a pairing: each agent's win rate on each side against the
other, with 95 % intervals (issue 14's "beats mcts in >= 60 % of fights, both sides").

Why: in the main job's pairing (chu vs boris) the first fighter wins most fights whoever
plays him well, so a win rate "over both sides" is capped by how often anyone wins as
boris. If ``mcts`` as chu beats even a much larger search as boris ~92 % of the time, 60 %
over both sides needs ~20 % as boris against ``mcts``'s chu; the script measures that cap
(e.g. four times the search, or ``mcts`` against the greedy bot it searches with).

    python scripts/side_ceiling.py                         # mcts vs mcts:sims=384,width=6 and vs greedy
    python scripts/side_ceiling.py --agents mcts "mcts:sims=384,width=6" --fights 100
"""

from __future__ import annotations

import argparse
import sys

from hexdojo.agents.ratings import wilson
from hexdojo.agents.tournament import TournamentConfig, run_tournament


def side_table(a: str, b: str, fights: int, fighters: tuple[str, str], seed: int) -> list[str]:
    """One line per (agent, side): wins of ``fights`` (draws half) with the interval."""
    r = run_tournament(TournamentConfig((a, b), fights=fights, fighters=fighters, seed=seed))
    out = []
    for (i, j), ps in sorted(r.pairs.items()):
        for who, side, w, lose in ((i, 0, ps.wins, ps.losses), (j, 1, ps.losses, ps.wins)):
            k = w + ps.draws / 2
            lo, hi = wilson(k, ps.n)
            out.append(f"  {r.names[who]:>24} as {fighters[side]:<6} against "
                       f"{r.names[j if who == i else i]:<24} {w}/{ps.draws}/{lose}  "
                       f"{100 * k / ps.n:5.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agents", nargs=2, action="append",
                    help="a pairing (repeatable); default: mcts vs mcts:sims=384,width=6 and mcts vs greedy")
    ap.add_argument("--fights", type=int, default=60, help="fights per ordered pairing")
    ap.add_argument("--fighters", default="chu,boris")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    pairs = args.agents or [["mcts", "mcts:sims=384,width=6"], ["mcts", "greedy"]]
    fighters = tuple(args.fighters.split(","))
    for a, b in pairs:
        print(f"{a} vs {b}, {args.fighters}, {args.fights} fights per ordered pairing:")
        print("\n".join(side_table(a, b, args.fights, fighters, args.seed)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
