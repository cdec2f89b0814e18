"""Fingerprint of the engine's behaviour: a hash of the event logs of many seeded random
fights (every preset pairing). A pure refactor or speed-up must leave it unchanged.

    python scripts/engine_fingerprint.py [--fights-per-pair 10] [--rules overrides.toml] [--unarmed]

``--unarmed``: only the presets without weapons (the fingerprint before issue 19, which
the weapons must leave unchanged).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json

import numpy as np

from hexdojo.envs.rules import Game, preset_names
from hexdojo.envs.rules.fighter import load_profile
from hexdojo.envs.rules.ruleset import load_rules_data


def presets(unarmed: bool = False) -> list[str]:
    """Every preset, or only those without weapons."""
    if not unarmed:
        return preset_names()
    data, _ = load_rules_data()
    return [p for p in preset_names() if not load_profile(p, data).armed]


def fingerprint(per_pair: int, rules: str | None = None, unarmed: bool = False) -> tuple[str, int]:
    digest = hashlib.sha256()
    decisions = 0
    for a, b in itertools.product(presets(unarmed), repeat=2):
        g = Game.create([a, b], rules=rules)
        for seed in range(per_pair):
            s = g.new_state(seed)
            rng = np.random.default_rng(seed)
            while not s.is_over:
                ch = s.legal_choices()
                digest.update(str(len(ch)).encode())
                s.apply(ch[int(rng.integers(len(ch)))])
                decisions += 1
            digest.update(json.dumps(s.events, sort_keys=True).encode())
    return digest.hexdigest(), decisions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fights-per-pair", type=int, default=10)
    ap.add_argument("--rules", default=None, help="rule overrides (TOML), e.g. to see what a key changes")
    ap.add_argument("--unarmed", action="store_true", help="only the presets without weapons")
    args = ap.parse_args()
    h, n = fingerprint(args.fights_per_pair, args.rules, args.unarmed)
    print(f"{h} ({n} decisions)")


if __name__ == "__main__":
    main()
