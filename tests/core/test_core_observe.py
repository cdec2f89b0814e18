"""The core writes every duel observation (issue 32: ``_core.observe_fight``, one writer for
the envs, the learned agents and the vector env). Its numbers are pinned field for field by
tests/envs/test_observation_lock.py (taken from the deleted Python writer) and checked by hand
in tests/envs/test_env_observation.py; here: its mask is the catalogue's reading of the
fight's legal list at every decision of seeded fights (unarmed, armed, mounted), only the
decider has one, and bad arguments are one clear line each."""

from __future__ import annotations

import numpy as np
import pytest

from hexdojo.envs.observation import encoder_for
from hexdojo.envs.rules import Game, _core
from tests.core.test_core_state import decisions

PAIRINGS = {
    "chu-urlik": lambda: Game.create(["chu", "urlik"]),
    "boris-cogan": lambda: Game.create(["boris", "cogan"]),
    "chu-guard": lambda: Game.create(["chu", "guard"]),
    "spearman-knife": lambda: Game.create(["spearman", "knife_fighter"]),
    "rider_vs_foot": lambda: Game.from_scene("rider_vs_foot"),
}


@pytest.mark.parametrize("name", sorted(PAIRINGS))
def test_the_mask_is_the_legal_list_and_only_the_decider_has_one(name: str) -> None:
    g = PAIRINGS[name]()
    enc = encoder_for(g)
    kinds: set[str] = set()
    for seed in range(2):
        for s in decisions(g, seed, limit=200):
            d = s.decision
            kinds.add(d.kind)
            for me in (0, 1):
                flat, mask = enc.encode_with_mask(s, me)
                want = np.zeros(enc.cat.n, np.int8)
                if me == d.fighter:
                    want[enc.cat.ids(s.legal_choices())] = 1
                assert np.array_equal(mask, want), (name, seed, s.turn, me)
                assert flat[enc.offset["deciding"]] == (me == d.fighter)
                assert np.array_equal(flat, enc.encode_flat(s, me))  # one writer, one answer
    assert {"action", "reaction", "risk"} <= kinds


def test_a_wrong_buffer_mask_or_fighter_is_one_clear_line() -> None:
    g = PAIRINGS["chu-urlik"]()
    enc = encoder_for(g)
    s = g.new_state(seed=1)
    args = (s._core, enc.core_catalogue, enc.core_layout)
    with pytest.raises(ValueError, match=f"buffer of 3 floats, the layout has {enc.size}"):
        _core.observe_fight(*args, 0, 1, np.zeros(3, np.float32))
    with pytest.raises(ValueError, match="me 0 and op 0: two fighters of the fight's 2"):
        _core.observe_fight(*args, 0, 0, np.zeros(enc.size, np.float32))
    with pytest.raises(ValueError, match="me 2 and op 1"):
        _core.observe_fight(*args, 2, 1, np.zeros(enc.size, np.float32))
    with pytest.raises(ValueError, match=f"mask of 5 entries, the catalogue has {enc.cat.n}"):
        _core.observe_fight(*args, 0, 1, np.zeros(enc.size, np.float32), np.zeros(5, np.int8))
