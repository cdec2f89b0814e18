"""The engines' differential sweep (issue 15): play seeded fights through the Python engine
and the native core with the same dice and the same choices, over every preset pairing and
scene, and require identical decisions, legal lists, events (keys, order, values, types) and
results at every decision. A third of the fights are driven by the scripted styles (they
decide on the Python state; the same choice goes to the core), the rest by seeded random play.

    python scripts/diff_engines.py --fights 10000            # the issue's gate
    python scripts/diff_engines.py --fights 500 --pairings chu-boris two_vs_two
    python scripts/diff_engines.py --fights 1000 --rules my_variant.toml

Prints fights, decisions, events compared, seconds and the situations met; on a divergence,
the first one (pairing, seed, decision index, both sides' events) and exit status 1.
``--out FILE`` also writes the figures as JSON (written whole or not at all).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from hexdojo.agents.registry import make_agent
from hexdojo.envs.rules.native_fight import (
    STYLES,
    Tally,
    agent_chooser,
    differential,
    make_game,
    pairings,
    random_chooser,
)


def play(game, pairing: str, seed: int):
    """One fight of the sweep: every third seed is driven by scripted styles."""
    if seed % 3 == 2:
        agents = [make_agent(STYLES[(seed + k) % len(STYLES)]) for k in range(len(game.profiles))]
        for k, a in enumerate(agents):
            a.reset(seed * 16 + k)
        return differential(game, seed, agent_chooser(agents))
    return differential(game, seed, random_chooser(seed))


def sweep(names: list[str], fights: int, first_seed: int, rules: Path | None = None
          ) -> tuple[Tally, str | None, float]:
    total = Tally()
    t0 = time.perf_counter()
    per = -(-fights // len(names))
    games = {n: make_game(n, rules) for n in names}
    for k in range(per):
        for n in names:
            if total.fights >= fights:
                break
            seed = first_seed + k
            tally, div = play(games[n], n, seed)
            total.add(tally)
            if div is not None:
                return total, f"{n}, seed {seed}: {div}", time.perf_counter() - t0
        if k and k % 20 == 0:
            print(f"  {total.fights} fights, {total.decisions} decisions, "
                  f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    return total, None, time.perf_counter() - t0


def write_json(path: Path, data: dict) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent or Path("."), suffix=".tmp")
    with os.fdopen(fd, "w") as fh:
        json.dump(data, fh, indent=1)
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fights", type=int, default=1000, help="fights in all (default 1000)")
    ap.add_argument("--pairings", nargs="*", default=None,
                    help=f"pairings or scenes (default all {len(pairings())})")
    ap.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--rules", type=Path, default=None,
                    help="a rules override file (TOML) for every fight, e.g. a variant")
    ap.add_argument("--out", type=Path, default=None, help="also write the figures as JSON")
    a = ap.parse_args(argv)
    names = a.pairings or pairings()
    bad = [n for n in names if n not in pairings()]
    if bad or a.fights < 1:
        print(f"diff_engines: --pairings {bad} / --fights {a.fights}: allowed {pairings()}, "
              "fights >= 1", file=sys.stderr)
        return 2
    if a.rules is not None and not a.rules.is_file():
        print(f"diff_engines: --rules {str(a.rules)!r}: no such file", file=sys.stderr)
        return 2
    total, div, secs = sweep(names, a.fights, a.seed, a.rules)
    print(f"fights {total.fights}  decisions {total.decisions}  events {total.events}  "
          f"pairings {len(names)}  seconds {secs:.1f}  divergences {0 if div is None else 1}")
    print("situations: " + ", ".join(f"{k} {v}" for k, v in sorted(total.situations.items())))
    if div is not None:
        print("FIRST DIVERGENCE: " + div)
    if a.out is not None:
        write_json(a.out, {"fights": total.fights, "decisions": total.decisions,
                           "events": total.events, "pairings": names, "seconds": round(secs, 1),
                           "divergence": div, "situations": dict(total.situations)})
    return 0 if div is None else 1


if __name__ == "__main__":
    sys.exit(main())
