"""Speed of the rules formulas through their Python API (formulas.py) against the same
formulas inside the native core.

Times one hit's arithmetic as resolution does it (damage basic value, damage resistance,
wound level, soak, pain and knock-back basic values: six formulas), for a striker and victim
pairing, best of ``--rounds``:

- the Python API: the chain of formulas.py calls (names, ``Tables`` and ``Profile`` sheets
  turned into the core's ids on each call; what an agent, a script or a test pays);
- the bindings: the same chain of ``_core.formulas`` calls from Python on ids (the cost of
  a call across the boundary alone);
- inside the core: ``_core.formulas.time_hits`` (the chain in a C++ loop, timed there: what
  the native engine pays).

Since issue 15 formulas.py has no Python copy of the formulas to time: all three routes run
the core's one copy, and the checksums of the three must agree (the bench is also a check).

    python scripts/bench_core_formulas.py --calls 200000
"""

from __future__ import annotations

import argparse
import time

from hexdojo.envs.rules import _core, to_core
from hexdojo.envs.rules import formulas as F
from hexdojo.envs.rules.fighter import load_profile
from hexdojo.envs.rules.tables import load_tables


def api_chain(t, x, y, m: str, calls: int) -> tuple[float, int]:
    """The chain through formulas.py, as _core.formulas.time_hits runs it (same k -> same inputs)."""
    locs, types = t.locations, t.maneuvers[m].damage_types
    total = 0
    start = time.perf_counter()
    for k in range(calls):
        loc = locs[k % len(locs)]
        dtype = F.damage_type(t, m, k % 2) if types else next(iter(t.data.damage_types))
        dmg = F.damage_basic_of(t, x, 0, m, k % 41 - 10, loc) + 2 * (k % 13)
        level = F.wound_level(t, dmg - F.damage_resistance(t, y, loc))
        total += dmg + level + F.soak_basic_of(t, y) + F.pain_basic_of(t, y, 0, dtype, loc, level) \
            + F.knockback_basic_of(t, y, 0, dtype, loc, y.mounted)
    return time.perf_counter() - start, total


def binding_chain(ct, cx, cy, mid: int, calls: int) -> tuple[float, int]:
    f = _core.formulas
    n = len(ct.location_names)
    has_types = bool(ct.maneuvers[mid].damage_types)
    total = 0
    start = time.perf_counter()
    for k in range(calls):
        loc = k % n
        dtype = f.damage_type(ct, mid, k % 2) if has_types else 0
        dmg = f.damage_basic_of(ct, cx, 0, mid, k % 41 - 10, loc) + 2 * (k % 13)
        level = f.wound_level(ct, dmg - f.damage_resistance(ct, cy, loc))
        total += dmg + level + f.soak_basic_of(ct, cy, 0) + f.pain_basic_of(ct, cy, 0, dtype, loc, level) \
            + f.knockback_basic_of(ct, cy, 0, dtype, loc, cy.mounted)
    return time.perf_counter() - start, total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=100_000, help="hit chains per timing")
    ap.add_argument("--rounds", type=int, default=3, help="best of this many timings")
    ap.add_argument("--pair", default="chu,urlik", help="striker,victim presets")
    ap.add_argument("--maneuver", default="Martial Strike")
    a = ap.parse_args()
    t = load_tables()
    x, y = (load_profile(n, t.data) for n in a.pair.split(","))
    ct = to_core.compile_tables(t)
    cx, cy = to_core.compile_profile(ct, x), to_core.compile_profile(ct, y)
    mid = list(t.maneuvers).index(a.maneuver)
    py_calls = max(1, a.calls // 20)  # from Python: fewer calls, the same per-chain figure
    rows = {
        "python API (formulas.py)": min(api_chain(t, x, y, a.maneuver, py_calls)
                                        for _ in range(a.rounds)) + (py_calls,),
        "native, bindings from Python": min(binding_chain(ct, cx, cy, mid, py_calls)
                                            for _ in range(a.rounds)) + (py_calls,),
        "native, inside the core": min(_core.formulas.time_hits(ct, cx, cy, mid, a.calls)
                                       for _ in range(a.rounds)) + (a.calls,),
    }
    sums = {k: v[1] for k, v in rows.items() if v[2] == py_calls}
    check = _core.formulas.time_hits(ct, cx, cy, mid, py_calls)[1]
    assert set(sums.values()) == {check}, (sums, check)
    base = rows["python API (formulas.py)"][0] / py_calls
    print(f"hit chain (6 formulas), {a.pair}, {a.maneuver}; checksums agree ({check})")
    print(f"{'route':32} {'us/chain':>10} {'chains/s':>12} {'x API':>9}")
    for name, (secs, _, n) in rows.items():
        per = secs / n
        print(f"{name:32} {per * 1e6:10.3f} {1 / per:12,.0f} {base / per:9.1f}")


if __name__ == "__main__":
    main()
