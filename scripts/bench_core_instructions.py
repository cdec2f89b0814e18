"""Instructions the core spends, counted by valgrind's callgrind: the figure that stays the
same from run to run on a shared machine, where the wall clock's ratios to connect_four_v3
move by 5-10 % between runs and hide a change of that size (issue 30, the engine's remaining
targets).

Three deterministic workloads, each counted only inside one core function
(``--toggle-collect``), so Python's share is left out:

- ``legal``: ``maneuver_choices`` of every window met in random play (10 fights, each window
  listed 6 times), the legal list alone;
- ``decision``: ``Combat::apply`` of random play through ``apply_index`` (30 fights), a core
  decision with its legal list;
- ``vector``: ``DuelVector::step`` of the native vector env, 64 duels, 6,400 env steps with
  the harness of ``bench_native_env.py``.

callgrind needs the core's symbols, which ``pip install`` strips: ``--core PATH`` loads a
build of ``_core`` that keeps them, one per tree to compare (the rules library is built -O3
whatever the build type):

    cmake -S . -B /tmp/corebuild -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -Dnanobind_DIR=$(python -m nanobind --cmake_dir) && cmake --build /tmp/corebuild --target _core
    python scripts/bench_core_instructions.py --core /tmp/corebuild/_core.cpython-311-x86_64-linux-gnu.so
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# the core function each workload is counted in (callgrind's --toggle-collect)
COUNTED = {"legal": "hexdojo::maneuver_choices*", "decision": "hexdojo::Combat::apply*",
           "vector": "hexdojo::DuelVector::step*"}


def _use_core(path: str | None) -> None:
    """Make ``path`` the module hexdojo.envs.rules._core before hexdojo imports it."""
    if not path:
        return
    spec = importlib.util.spec_from_file_location("hexdojo.envs.rules._core", path)
    if spec is None or spec.loader is None:
        sys.exit(f"--core: {path}: not a loadable extension module (a built _core*.so is allowed)")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["hexdojo.envs.rules._core"] = mod
    spec.loader.exec_module(mod)


def _fights(n: int):
    """Random play of n fights over every preset pairing: yields each live core fight after
    every decision, and returns the decisions made."""
    import itertools
    import random

    from hexdojo.envs.rules import Game, preset_names

    games = [Game.create([a, b]) for a, b in itertools.permutations(preset_names(), 2)]
    rng = random.Random(0)
    for seed in range(n):
        game = games[seed % len(games)]
        c = game.new_state(seed)._core
        while not c.is_over:
            yield game, c
            c.apply_index(rng.randrange(c.n_legal))


def work_legal() -> None:
    """maneuver_choices of every window of 10 random fights, 6 times each."""
    from hexdojo.envs.rules import _core
    from hexdojo.envs.rules.to_core import compile_tables

    tables: dict[int, object] = {}
    for game, c in _fights(10):
        w = c.window
        if w is None:
            continue
        ct = tables.setdefault(id(game), compile_tables(game.tables))
        _core.time_maneuver_choices(ct, c.state, w, 5)
        _core.maneuver_choices(ct, c.state, w)


def work_decision() -> None:
    """Every decision of 30 random fights (the fights advance inside _fights)."""
    for _ in _fights(30):
        pass


def work_vector() -> None:
    """6,400 env steps of the native vector env, 64 duels (bench_native_env's harness)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_native_env import bench_native

    bench_native(64, 6400, 0, True, "hexdojo/Duel-v1")


def count(workload: str, core: str | None) -> int:
    """Instructions callgrind counts inside the workload's core function."""
    if shutil.which("valgrind") is None:
        sys.exit("valgrind: not found (this script counts instructions with callgrind)")
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
               f"--toggle-collect={COUNTED[workload]}", sys.executable, __file__,
               "--child", workload] + (["--core", core] if core else [])
        out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    found = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if out.returncode != 0 or found is None:
        sys.exit(f"callgrind of {workload}: failed (exit {out.returncode}): {out.stderr[-400:]}")
    n = int(found.group(1).replace(",", ""))
    if n == 0:
        sys.exit(f"--core: {core or 'the installed core'}: no {COUNTED[workload]} symbol "
                 "(stripped; a build with symbols is allowed, see the module docstring)")
    return n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--core", help="a built _core*.so to load instead of the installed one")
    ap.add_argument("--only", choices=sorted(COUNTED), nargs="+", default=sorted(COUNTED))
    ap.add_argument("--child", choices=sorted(COUNTED), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.core and not Path(args.core).is_file():
        sys.exit(f"--core: {args.core}: no such file (a built _core*.so is allowed)")
    if args.child:
        _use_core(args.core)
        {"legal": work_legal, "decision": work_decision, "vector": work_vector}[args.child]()
        return 0
    for w in args.only:
        print(f"{w:9s} {count(w, args.core):>14,} instructions in {COUNTED[w]}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
