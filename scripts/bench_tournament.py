"""Speed of a scripted round robin: 6 agents, both sides, N fights per ordered pair.

The issue's target is 1,000 fights per ordered pair (30,000 fights) in under 2 minutes on
one core; with more cores the tournament uses one process per core. This script times the
real thing (``--fights 1000``) or a shorter run and reports fights/s, so the README row can
quote the command that produced it.

    python scripts/bench_tournament.py                   # 1000 per pair, one core
    python scripts/bench_tournament.py --workers 2       # all cores of a 2-core machine
    python scripts/bench_tournament.py --fights 100      # quick look
    python scripts/bench_tournament.py --fights 50 --path both   # fast path vs Python API

Issue 15's target: the 30,000 fights in <= 10 s on one core (it was 64 s on the Python
engine, deleted since). A fight between agents that all have a native player (random and
the scripted styles) is played inside the core in one call (``tournament.play_native``);
``--path python`` plays every decision through the Python API instead
(``HEXDOJO_NATIVE_AGENTS=0``, which the workers inherit), ``both`` runs the two one after
the other with the ratio of their times.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

from hexdojo.agents.tournament import TournamentConfig, run_tournament

AGENTS = ("random", "greedy", "striker", "grappler", "counter", "striker:risk=2")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fights", type=int, default=1000, help="fights per ordered pair")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--fighters", default="chu,chu")
    ap.add_argument("--agents", nargs="+", default=list(AGENTS))
    ap.add_argument("--path", choices=("native", "python", "both"), default="native")
    args = ap.parse_args(argv)
    cfg = TournamentConfig(tuple(args.agents), fights=args.fights,
                           fighters=tuple(args.fighters.split(",")), workers=args.workers)
    print(f"machine: {platform.platform()}, python {platform.python_version()}")
    paths = ("python", "native") if args.path == "both" else (args.path,)
    took = {e: bench(cfg, e) for e in paths}
    if len(took) == 2:
        print(f"fast path / Python API speed: {took['python'] / took['native']:.1f}x")
    return 0


def bench(cfg: TournamentConfig, engine: str) -> float:
    """One round robin on path ``engine``; prints its figures, returns seconds per fight."""
    os.environ["HEXDOJO_NATIVE_AGENTS"] = "1" if engine == "native" else "0"
    cpu0 = time.process_time()
    res = run_tournament(cfg, progress=sys.stderr.isatty())
    cpu = time.process_time() - cpu0
    n = len(res.fights)
    decisions = sum(f[6] for f in res.fights)
    turns = sum(f[5] for f in res.fights)
    print(f"[{engine}] {len(cfg.agents)} agents, {cfg.fights} fights per ordered pair, "
          f"{' vs '.join(cfg.fighters)}, {cfg.workers} worker(s)")
    print(f"[{engine}] {n} fights in {res.elapsed:.1f} s: {n / res.elapsed:.0f} fights/s, "
          f"{decisions / res.elapsed:.0f} decisions/s, {turns / n:.2f} turns and "
          f"{decisions / n:.1f} decisions per fight")
    full = len(cfg.agents) * (len(cfg.agents) - 1) * 1000
    target = "10 s (issue 15)"
    print(f"[{engine}] => {full} fights (1,000 per ordered pair) would take "
          f"{full * res.elapsed / n:.1f} s (target: {target} on one core)")
    if cfg.workers == 1:  # the process's own CPU time: the steadier figure on a shared machine
        print(f"[{engine}]    by this process's CPU time: {full * cpu / n:.1f} s")
    return res.elapsed / n


if __name__ == "__main__":
    sys.exit(main())
