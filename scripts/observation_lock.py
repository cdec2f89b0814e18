"""The observations' regression lock (issue 32): a hash of every fighter's observation and
mask at every decision of seeded fights, over every preset pairing and scene and the engine
lock's rule variant, in every layout an env hands out.

    python scripts/observation_lock.py [--fights-per-game 2]

A duel (two fighters on two sides) is observed through ``ObservationEncoder`` in both
scalings (raw: Duel-v0; unit: Duel-v1) with the unarmed catalogue where the fight has no
weapon, and with the armed one always (ArmedDuel-v0's layout); a group fight through
``skirmish_spaces.observe`` (its slots too). The fights are played by the engine lock's
chooser (``engine_lock._step``'s weights: grabs, locks, throws and holds favoured), so holds,
follow-ons, soaks and weapon windows come up.

Why a lock: the observation was written twice, in Python and in the core; this lock was
pinned from the Python writer before it was deleted, so the core's writer is held to it
number for number (``tests/envs/test_observation_lock.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
from pathlib import Path
from typing import Any

import numpy as np

from hexdojo.envs.catalogue import catalogue_for, is_armed
from hexdojo.envs.observation import ObservationEncoder
from hexdojo.envs.skirmish_spaces import observe as observe_group


def _engine_lock() -> Any:
    """``scripts/engine_lock.py`` (its games and its chooser's weights), as a module."""
    spec = importlib.util.spec_from_file_location("engine_lock", Path(__file__).with_name("engine_lock.py"))
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


ENGINE_LOCK = _engine_lock()


def duel_encoders(g: Any) -> list[ObservationEncoder]:
    """The duel layouts of game ``g``: unarmed (if no fighter is armed) and armed."""
    armed = [True] if is_armed(g) else [False, True]
    return [ObservationEncoder(g, catalogue_for(g.tables, a)) for a in armed]


def _observe_all(digest: Any, s: Any, encs: list[ObservationEncoder], group: bool) -> None:
    """Every fighter's observation and mask of ``s`` into ``digest``."""
    for me in range(len(s.fighters)):
        if group:
            obs, mask, slots = observe_group(s, me, flat=True)
            digest.update(obs.tobytes() + mask.tobytes() + bytes(slots))
            continue
        for enc in encs:
            flat, mask = enc.encode_with_mask(s, me)
            digest.update(flat.tobytes() + mask.tobytes())
            digest.update(enc.rescale(flat.copy(), "unit").tobytes())


def fight(g: Any, seed: int, digest: Any) -> int:
    """One fight of ``g``, every fighter observed at every decision: the decisions."""
    group = len(g.profiles) > 2 or g.sides[0] == g.sides[1]
    encs = [] if group else duel_encoders(g)
    s = g.new_state(seed)
    rng = np.random.default_rng([seed, 78])
    n = 0
    while not s.is_over:
        _observe_all(digest, s, encs, group)
        legal = s.legal_choices()
        s.apply(legal[int(rng.choice(len(legal), p=ENGINE_LOCK._weights(s, legal)))])
        n += 1
    _observe_all(digest, s, encs, group)
    return n


def lock(per_game: int = 2) -> tuple[str, int]:
    """(sha256, decisions) of ``per_game`` fights of every game of ``engine_lock.games``."""
    digest = hashlib.sha256()
    decisions = 0
    for name, g in ENGINE_LOCK.games():
        digest.update(name.encode())
        for seed in range(per_game):
            decisions += fight(g, seed, digest)
    return digest.hexdigest(), decisions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fights-per-game", type=int, default=2)
    args = ap.parse_args()
    h, n = lock(args.fights_per_game)
    print(f"{h} ({n} decisions)")


if __name__ == "__main__":
    main()
