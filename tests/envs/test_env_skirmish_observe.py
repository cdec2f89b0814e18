"""The group observation and mask as the core writes them (issue 32: ``observe_group.cpp``,
declared by ``skirmish_spaces``), checked field by field on hand-set ``two_vs_one``
positions: the slot order, distances and offsets, the ally flag, the attacker flag of a
reaction (``State.context()["attacker"]``), the holds both ways (RULES §1.18), the mask's
slot ids, and the one-line refusals of a bad call. The whole layout over played fights is
held to the Python writer's numbers by ``test_observation_lock.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from hexdojo.envs.rules import Game
from hexdojo.envs.skirmish_spaces import observe, spaces_for

GAME = Game.from_scene("two_vs_one")  # Chu (hero), Boris and the Novice (guards); radius 4
N_HOLD = len(GAME.tables.hold_kinds) + 1  # per slot: the hold kinds, then "from behind"


def _unit(value: float, bound: float) -> np.float32:
    """A raw number in the "unit" scaling, as float32 arithmetic gives it."""
    return np.float32(value) * np.float32(1.0 / bound)


def _slot(obs: dict[str, np.ndarray], field: str, slot: int) -> np.ndarray:
    return obs[f"others_{field}"].reshape(2, -1)[slot]


def _held_by_boris() -> object:
    """Boris in Chu's hex holding his arm (§1.18: holder and held share a hex), the Novice
    two hexes W of them; the turn's phase choice comes next."""
    sc = {"fighters": [{"pos": [0, 0], "facing": 0, "ap": 10}, {"pos": [0, 0], "facing": 3, "ap": 6},
                       {"pos": [-2, 0], "facing": 0, "ap": 10}],
          "holds": [{"holder": 1, "held": 0, "kind": "arm", "location": "R Arm"}]}
    return GAME.new_state(0, scenario=sc)


def test_slots_distances_allies_and_holds_by_hand() -> None:
    s = _held_by_boris()
    arm = list(GAME.tables.hold_kinds).index("arm")
    chu, chu_mask, chu_slots = observe(s, 0)
    assert chu_slots == (1, 2)  # no ally: the enemies by distance (0, then 2)
    assert chu["others_distance"].tolist() == [0.0, 2 / 8]  # divided by 2 x radius
    assert chu["others_offset"].tolist() == [0.0, 0.0, -2 / 8, 0.0]
    assert chu["others_ally"].tolist() == [0.0, 0.0]
    assert _slot(chu, "holds_me", 0).tolist() == [float(k == arm) for k in range(N_HOLD)]
    assert not chu["others_held_by_me"].any() and not _slot(chu, "holds_me", 1).any()
    assert _slot(chu, "facing", 0).argmax() == 3 and _slot(chu, "ap", 0)[0] == _unit(6, 30)
    assert chu["self_ap"][0] == _unit(10, 30) and chu["self_pos"].tolist() == [0.0, 0.0]
    boris, _, boris_slots = observe(s, 1)
    assert boris_slots == (2, 0)  # the ally first (2 hexes), then Chu
    assert boris["others_ally"].tolist() == [1.0, 0.0]
    assert _slot(boris, "held_by_me", 1).tolist() == [float(k == arm) for k in range(N_HOLD)]
    assert not boris["others_holds_me"].any() and not _slot(boris, "held_by_me", 0).any()
    novice, novice_mask, novice_slots = observe(s, 2)
    assert novice_slots == (1, 0)  # the ally, then Chu, both 2 hexes away
    assert not novice["others_holds_me"].any() and not novice["others_held_by_me"].any()
    assert not novice_mask.any() and not novice["deciding"].any()


def test_the_attacker_flag_marks_the_attacker_for_the_reacting_fighter_only() -> None:
    """Boris punches Chu's head: Chu reacts to his attacker (context "attacker" = Boris,
    slot 0); the Novice, who does not decide, sees no attacker."""
    sc = {"fighters": [{"pos": [0, 0], "facing": 0, "ap": 10}, {"pos": [1, 0], "facing": 3, "ap": 10},
                       {"pos": [-2, 0], "facing": 0, "ap": 10}], "phase": 1}
    s = GAME.new_state(0, scenario=sc)
    cat, _ = spaces_for(GAME)
    _, mask, slots = observe(s, 1)
    assert slots == (2, 0)
    punch = next(c for c in s.legal_choices() if c.target == 0 and c.maneuver == "Punch")
    base = cat.base.id_for(punch)
    assert mask[cat.id_of(base, 1)] == 1 and mask[base] == 0  # at Chu's slot, not the ally's
    assert int(mask.sum()) == len(s.legal_choices())
    s.apply(punch)
    assert s.decision.fighter == 0 and s.decision.kind == "reaction"
    assert s.context()["attacker"] == 1
    chu, chu_mask, chu_slots = observe(s, 0)
    assert chu_slots[0] == 1 and chu["others_attacker"].tolist() == [1.0, 0.0]
    assert chu["deciding"][0] == 1 and chu_mask.any()
    novice, _, _ = observe(s, 2)
    assert not novice["others_attacker"].any()


def test_a_bad_call_is_refused_in_one_line() -> None:
    s = _held_by_boris()
    _, enc = spaces_for(GAME)
    with pytest.raises(ValueError, match=r"^GroupObserver: 1 slots for a fight of 3 fighters"):
        enc.observe(s, 0, (1,))
    with pytest.raises(ValueError, match=r"^GroupObserver: slots: each other fighter once \(got 0\)"):
        enc.observe(s, 0, (1, 0))
    with pytest.raises(ValueError, match=r"^GroupObserver: me 3: allowed 0..2"):
        enc.observe(s, 3, (1, 2))
    other = Game.from_scene("two_vs_one", rules={"dice": {"max_risk_dice": 2}})
    with pytest.raises(ValueError, match="rules \\(tables\\) are not the observer's"):
        spaces_for(other)[1].observe(s, 0, (1, 2))
