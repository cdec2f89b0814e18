"""Mask exactness (issue 3), property-tested over many random states.

For the fighter who must decide: every id the mask allows is accepted by the engine,
every id it forbids is rejected by the engine with a reason, and the rejection leaves
the state untouched. Random states come from random fights between random presets on
random arenas, walked a random number of decisions.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexdojo.envs.catalogue import catalogue_for
from hexdojo.envs.rules import DECISION_KINDS, Game, IllegalChoice, preset_names

from ..conftest import play_random

# the unarmed presets: Duel-v0/v1's catalogue has no weapon maneuvers (the armed presets'
# masks are checked on the armed catalogue in tests/envs/test_env_weapons.py)
PRESETS = [p for p in preset_names() if p not in ("guard", "spearman", "knife_fighter")]
_GAMES: dict[tuple[str, str, int], Game] = {}


def game_for(a: str, b: str, radius: int) -> Game:
    key = (a, b, radius)
    if key not in _GAMES:
        _GAMES[key] = Game.create([a, b], radius=radius)
    return _GAMES[key]


def check_exact(state, cat) -> int:
    """Assert the mask of the deciding fighter is exact; returns the number of legal ids."""
    d = state.decision
    i = d.fighter
    mask = cat.mask(state, i)
    n_events = len(state.events)
    for a in range(cat.n):
        c = cat.choice_for(a, state, i)
        reason = state.why_illegal(c)
        if mask[a]:
            assert reason is None, (cat.names[a], reason)
            trial = state.clone()
            trial.apply(c)  # accepted: must not raise
        else:
            assert isinstance(reason, str) and reason, cat.names[a]
            try:
                state.apply(c)
            except IllegalChoice as exc:
                assert exc.reason == reason
            else:  # pragma: no cover - would be a mask bug
                raise AssertionError(f"engine accepted masked-out {cat.names[a]}")
            assert len(state.events) == n_events and state.decision == d
    assert cat.mask(state, 1 - i).sum() == 0  # not the other fighter's decision
    return int(mask.sum())


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    a=st.sampled_from(PRESETS),
    b=st.sampled_from(PRESETS),
    radius=st.integers(2, 5),
    seed=st.integers(0, 2**32 - 1),
    walk=st.integers(0, 200),
)
def test_mask_is_exact_on_random_states(a: str, b: str, radius: int, seed: int, walk: int) -> None:
    game = game_for(a, b, radius)
    cat = catalogue_for(game.tables)
    state = game.new_state(seed)
    play_random(state, seed, walk)
    if state.is_over:
        assert cat.mask(state, 0).sum() == 0 and cat.mask(state, 1).sum() == 0
        return
    assert check_exact(state, cat) == len(state.legal_choices())


@pytest.mark.slow
def test_mask_is_exact_along_whole_fights() -> None:
    """Every decision of a few complete fights, all decision kinds included."""
    game = game_for("chu", "boris", 3)
    cat = catalogue_for(game.tables)
    kinds: set[str] = set()
    rng = np.random.default_rng(11)
    for seed in range(8):
        state = game.new_state(seed)
        while not state.is_over:
            kinds.add(state.decision.kind)
            check_exact(state, cat)
            legal = state.legal_choices()
            state.apply(legal[int(rng.integers(len(legal)))])
    assert set(DECISION_KINDS) - {"hold"} <= kinds
