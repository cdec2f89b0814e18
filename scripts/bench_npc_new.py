"""How long ``hexdojo npc new`` takes (issue 33: <= 30 s on 2 cores): the command run on
held-out pairings (``agents/sheetgen.py``'s held-out stream, written as fighter files as a
GM's own sheets would be), wall and CPU seconds each, with the load average beside them
(the machine is shared: a loaded machine's wall time says little, its CPU time more).

    python scripts/bench_npc_new.py                  # 3 pairings, -j 2, the shipped policy
    python scripts/bench_npc_new.py --pairings 1 -j 1 --style counter
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hexdojo.agents.general_npc import HELDOUT_SEED
from hexdojo.agents.sheetgen import random_pairings, write_sheet
from hexdojo.envs.rules import Game


def one(k: int, a: dict, b: dict, tmp: Path, extra: list[str]) -> dict[str, float]:
    fa, fb = write_sheet(a, tmp / f"a{k}.toml"), write_sheet(b, tmp / f"b{k}.toml")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "hexdojo.agents.cli", "npc", "new", "--fighters",
                    f"{fa},{fb}", "--out", str(tmp / f"npc{k}"), *extra], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "load": round(os.getloadavg()[0], 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairings", type=int, default=3)
    ap.add_argument("-j", "--workers", type=int, default=2)
    ap.add_argument("--style", default=None)
    a = ap.parse_args(argv)
    extra = ["-j", str(a.workers)] + (["--style", a.style] if a.style else [])
    rules = Game.create(["chu", "chu"]).tables.data
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for k, (x, y) in enumerate(random_pairings(rules, HELDOUT_SEED + 50_000, a.pairings)):
            rows.append(one(k, x, y, Path(d), extra))
            print(f"pairing {k}: {rows[-1]}", flush=True)
    print(json.dumps({"runs": rows, "max_wall_s": max(r["wall_s"] for r in rows),
                      "max_cpu_s": max(r["cpu_s"] for r in rows)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
