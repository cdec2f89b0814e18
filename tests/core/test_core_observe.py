"""The native observation writer equals envs/observation.py number for number: every field
of the duel's layout (decision, roll, incoming attack, geometry, fighters, holds, and the
weapon fields of the armed layout), for both fighters, at every decision of seeded random
fights, unarmed (Duel-v1's layout), armed (ArmedDuel-v0's) and mounted."""

from __future__ import annotations

import numpy as np
import pytest

from hexdojo.envs.observation import encoder_for
from hexdojo.envs.observation_layout import NativeObserver, native_context
from hexdojo.envs.rules import Game, _core
from hexdojo.envs.rules.to_core import core_state
from tests.core.test_core_state import decisions

PAIRINGS = {
    "chu-urlik": lambda: Game.create(["chu", "urlik"]),
    "boris-cogan": lambda: Game.create(["boris", "cogan"]),
    "chu-guard": lambda: Game.create(["chu", "guard"]),
    "spearman-knife": lambda: Game.create(["spearman", "knife_fighter"]),
    "rider_vs_foot": lambda: Game.from_scene("rider_vs_foot"),
}


@pytest.mark.parametrize("name", sorted(PAIRINGS))
def test_the_native_observation_is_the_python_one(name: str) -> None:
    g = PAIRINGS[name]()
    enc = encoder_for(g)
    nat = NativeObserver(enc)
    kinds: set[str] = set()
    seen: set[str] = set()  # fields that were ever nonzero
    for seed in range(3):
        for s in decisions(g, seed, limit=300):
            kinds.add(s.decision.kind)
            for me in (0, 1):
                want = enc.encode_flat(s, me)
                got = nat.encode_flat(s, me)
                if not np.array_equal(got, want):
                    bad = [k for k, sl in enc.slices if not np.array_equal(got[sl], want[sl])]
                    pytest.fail(f"{name} seed {seed} turn {s.turn} fighter {me}: fields {bad}")
                seen.update(k for k, sl in enc.slices if got[sl].any())
    assert {"action", "reaction", "risk"} <= kinds  # the decision fields were exercised
    # every field but heights (none on foot), holds or stuck weapons in some pairings was met
    assert len(seen) >= len(enc.keys) - 4, sorted(set(enc.keys) - seen)


def test_a_wrong_buffer_or_fighter_is_refused() -> None:
    g = PAIRINGS["chu-urlik"]()
    nat = NativeObserver(encoder_for(g))
    s = g.new_state(seed=1)
    args = (nat.tables, nat.catalogue, nat.layout, core_state(s), native_context(s, nat.ids, None))
    with pytest.raises(ValueError, match="the layout has"):
        _core.observe(*args, 0, 1, np.zeros(3, dtype=np.float32))
    with pytest.raises(ValueError, match="two fighters of the state"):
        _core.observe(*args, 0, 0, np.zeros(nat.layout.size, dtype=np.float32))
