"""Time of the lab's sweep and balance solver on the docs' questions (issue 34).

    python scripts/bench_lab.py                      # both, 2 workers
    python scripts/bench_lab.py --only sweep --workers 1
    python scripts/bench_lab.py --json bench_lab.json

The sweep: how Martial Strike's damage (0..8, step 2) moves greedy, striker and counter on
each side of Chu vs the guard, ±5 points per side (the default precision: 384 seeds per
ordered pairing and value). The solver: the Martial Strike damage at which counter scores
50 % against greedy (both sides, Chu mirror), 400 seeds per value. Both print what they
found, the number of fights and the wall time, so the README row quotes this script.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time

from hexdojo.agents.files import write_bench_json
from hexdojo.agents.lab.balance_report import headlines as balance_heads
from hexdojo.agents.lab.balance_run import BalanceConfig, run_balance
from hexdojo.agents.lab.common import parse_rules
from hexdojo.agents.lab.sweep import SweepConfig, parse_sweep, run_sweep
from hexdojo.agents.lab.sweep_report import headlines as sweep_heads
from hexdojo.agents.registry import make_agent

STRIKE = 'maneuvers."Martial Strike".damage'


def sweep(workers: int) -> dict:
    names = ("greedy", "striker", "counter")
    cfg = SweepConfig(parse_sweep(f"{STRIKE}=0..8:2"), names, parse_rules(None),
                      ("chu", "guard"), precision=0.05, workers=workers)
    t0 = time.perf_counter()
    res, _ = run_sweep(cfg, [make_agent(a) for a in names], progress=sys.stderr.isatty())
    took = time.perf_counter() - t0
    return {"what": "sweep", "command": f"hexdojo sweep '{STRIKE}=0..8:2' greedy striker "
            f"counter --fighters chu,guard -j {workers}", "fights": res["fights"],
            "seconds": round(took, 1), "answers": [h["text"] for h in sweep_heads(cfg, res)]}


def balance(workers: int) -> dict:
    cfg = BalanceConfig(parse_sweep(f"{STRIKE}=0..10"), ("counter", "greedy"), "both", 0.5,
                        parse_rules(None), ("chu", "chu"), n=400, workers=workers)
    t0 = time.perf_counter()
    res = run_balance(cfg, [make_agent("counter"), make_agent("greedy")],
                      progress=sys.stderr.isatty())
    took = time.perf_counter() - t0
    return {"what": "balance", "command": f"hexdojo balance '{STRIKE}=0..10' counter greedy "
            f"-n 400 -j {workers}", "fights": res["fights"], "seconds": round(took, 1),
            "evaluations": res["evaluations"], "answers": balance_heads(res)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", choices=("sweep", "balance"))
    ap.add_argument("--json", help="write the figures to this file")
    args = ap.parse_args(argv)
    print(f"machine: {platform.platform()}, python {platform.python_version()}")
    t0 = time.perf_counter()
    rows = [f(args.workers) for name, f in (("sweep", sweep), ("balance", balance))
            if args.only in (None, name)]
    for r in rows:
        print(f"{r['what']}: {r['fights']:,} fights in {r['seconds']:.1f} s "
              f"({r['fights'] / r['seconds']:.0f} fights/s, {args.workers} worker(s))")
        print(f"  {r['command']}")
        for a in r["answers"]:
            print(f"  * {a}")
    if args.json:
        write_bench_json(args.json, " ".join(sys.argv), args.workers,
                         time.perf_counter() - t0, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
