"""The monk against armed opponents (issue 19): win rates of the styles playing Chu against
the guard (sword and shield), and the guard's side, with 95 % Wilson intervals.

For every monk agent M and every armed-side agent G, M plays ``chu`` and G the armed preset
over ``--fights`` seeds with Chu as fighter A and the same seeds with Chu as fighter B
(the board's side advantage cancels). Fights are seeded by their index (agents re-seed
from the fight's seed, ``tournament.play_fight``), so the figures do not depend on the
worker count. Chu's win rate (draws count as not won) is printed with its interval, the
draws, and the armed side's win rate; ``--json`` writes the rows atomically.

    python scripts/monk_vs_guard.py                              # 200 seeds x 2 sides
    python scripts/monk_vs_guard.py --armed spearman --fights 100
    python scripts/monk_vs_guard.py --monk greedy striker --guard swordsman greedy
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
import time
from typing import Any

from hexdojo.agents.files import write_bench_json
from hexdojo.agents.ratings import strength
from hexdojo.agents.registry import make_agent
from hexdojo.agents.tournament import Progress, play_fight
from hexdojo.envs.rules import Game

MONK = ["greedy", "striker", "grappler", "counter"]
GUARD = ["greedy", "swordsman"]
CHUNK = 25


def play_unit(unit: tuple[str, str, str, str, int, int, int]) -> tuple[tuple, list[int | None]]:
    """Seeds [start, stop) of monk agent ``m`` (as ``monk``) against armed agent ``g`` (as
    ``armed``), Chu as fighter A (``side_b`` 0) or B (1); the winners as 1 = Chu, 0 = armed,
    None = draw."""
    m, g, monk, armed, side_b, start, stop = unit
    fighters = [armed, monk] if side_b else [monk, armed]
    game = Game.create(fighters)
    agents = (make_agent(g), make_agent(m)) if side_b else (make_agent(m), make_agent(g))
    chu = 1 if side_b else 0
    out: list[int | None] = []
    for seed in range(start, stop):
        w = play_fight(game, agents, seed).winner
        out.append(None if w is None else int(w == chu))
    return unit, out


def units(monks: list[str], guards: list[str], monk: str, armed: str, seed: int,
          fights: int) -> list[tuple]:
    out = []
    for m in monks:
        for g in guards:
            for side_b in (0, 1):
                for a in range(seed, seed + fights, CHUNK):
                    b = min(seed + fights, a + CHUNK)
                    out.append((m, g, monk, armed, side_b, a, b))
    return out


def run(monks: list[str], guards: list[str], monk: str, armed: str, seed: int, fights: int,
        workers: int) -> list[dict[str, Any]]:
    """Every pairing's tally, in a fixed order whatever the workers did; progress on stderr
    (a bar on a terminal, else a line every 30 s: ``tournament.Progress``)."""
    todo = units(monks, guards, monk, armed, seed, fights)
    progress = Progress(sum(u[6] - u[5] for u in todo), sys.stderr.isatty(),
                        lambda s: print(s, file=sys.stderr, flush=True), "monk_vs_guard: ")
    done: dict[tuple, list[int | None]] = {}
    with mp.get_context("fork").Pool(workers) if workers > 1 else _Serial() as pool:
        for unit, res in pool.imap_unordered(play_unit, todo):
            done[unit] = res
            progress.advance(len(res))
    progress.stop()
    rows = []
    for m in monks:
        for g in guards:
            res = [r for u in todo if u[0] == m and u[1] == g for r in done[u]]
            rows.append(tally(m, g, monk, armed, res))
    return rows


class _Serial:
    """A one-process stand-in for ``multiprocessing.Pool`` (same ``imap_unordered``)."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap_unordered(self, fn: Any, items: list[Any]) -> Any:
        return map(fn, items)


def tally(m: str, g: str, monk: str, armed: str, res: list[int | None]) -> dict[str, Any]:
    w = sum(1 for r in res if r == 1)
    lo = sum(1 for r in res if r == 0)
    d = len(res) - w - lo
    s, a = strength(w, d, lo), strength(lo, d, w)
    return {"monk_agent": m, "armed_agent": g, "monk": monk, "armed": armed, "wins": w,
            "draws": d, "losses": lo, "n": s.n, "win_rate": s.rate, "win_lo": s.rate_lo,
            "win_hi": s.rate_hi, "armed_rate": a.rate, "armed_lo": a.rate_lo,
            "armed_hi": a.rate_hi}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--monk", nargs="+", default=MONK, help="agents playing the monk")
    ap.add_argument("--guard", nargs="+", default=GUARD, help="agents playing the armed side")
    ap.add_argument("--monk-fighter", default="chu")
    ap.add_argument("--armed", default="guard", help="the armed preset (guard, spearman, ...)")
    ap.add_argument("--fights", type=int, default=200, help="seeds per side (x2 fights)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", help="also write the rows to this file (atomically)")
    args = ap.parse_args(argv)
    if args.fights < 1 or args.workers < 1:
        ap.error("--fights and --workers: at least 1")
    t0 = time.perf_counter()
    rows = run(args.monk, args.guard, args.monk_fighter, args.armed, args.seed, args.fights,
               args.workers)
    print(f"| {args.monk_fighter} agent | {args.armed} agent | W/D/L ({args.monk_fighter}) | "
          f"{args.monk_fighter} win rate [95% CI] | {args.armed} win rate [95% CI] |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['monk_agent']} | {r['armed_agent']} | {r['wins']}/{r['draws']}/"
              f"{r['losses']} | {r['win_rate']:.1%} [{r['win_lo']:.1%}, {r['win_hi']:.1%}] | "
              f"{r['armed_rate']:.1%} [{r['armed_lo']:.1%}, {r['armed_hi']:.1%}] |")
    if args.json:
        write_bench_json(args.json, "python scripts/monk_vs_guard.py "
                         + " ".join(argv if argv is not None else sys.argv[1:]),
                         args.workers, time.perf_counter() - t0, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
