"""The observation (issue 3): each documented field says what the engine state says.

Situations are built with the engine's scenarios, so expected values come from the
scenario, not from the encoder's own helpers.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from hexdojo.envs.catalogue import catalogue_for
from hexdojo.envs.observation import (
    FLAGS,
    RISK_ABOUT,
    encode_observation,
    encoder_for,
)
from hexdojo.envs.rules import DECISION_KINDS, Choice, Game


@pytest.fixture(scope="module")
def game() -> Game:
    return Game.create(["chu", "urlik"], radius=4)


def scenario(game: Game, **kw: Any):
    sc = {"fighters": [{"pos": [0, 0], "facing": 0, "ap": 6},
                       {"pos": [1, 0], "facing": 3, "ap": 5}], "phase": 0}
    sc.update(kw)
    return game.new_state(0, scenario=sc)


def onehot(v: np.ndarray) -> int:
    (idx,) = np.flatnonzero(v)
    return int(idx)


def test_positions_facings_arcs_and_distances(game: Game) -> None:
    s = scenario(game, fighters=[{"pos": [-1, 2], "facing": 1, "ap": 6},
                                 {"pos": [0, 1], "facing": 0, "ap": 5}])
    a, b = encode_observation(s, 0), encode_observation(s, 1)
    assert a["self_pos"].tolist() == [-1, 2] and a["opp_pos"].tolist() == [0, 1]
    assert b["self_pos"].tolist() == [0, 1] and b["opp_pos"].tolist() == [-1, 2]
    assert a["opp_offset"].tolist() == [1, -1] and b["opp_offset"].tolist() == [-1, 1]
    assert a["distance"][0] == 1 and a["same_hex"][0] == 0
    assert onehot(a["self_facing"]) == 1 and onehot(a["opp_facing"]) == 0
    # B is at direction NE (1) of A, who faces NE: dead ahead (0). A is SW (4) of B, who
    # faces E (0): relative direction 4, rear-right.
    assert onehot(a["arc_of_opp"]) == 0 and onehot(a["arc_of_self"]) == 4
    assert onehot(b["arc_of_opp"]) == 4 and onehot(b["arc_of_self"]) == 0
    assert a["self_edge"][0] == 4 - 2 and a["opp_edge"][0] == 4 - 1


def test_same_hex_holds_prone_wounds_and_flags(game: Game) -> None:
    s = scenario(
        game,
        fighters=[{"pos": [0, 0], "facing": 0, "ap": 4, "status": "staggered"},
                  {"pos": [0, 0], "facing": 3, "ap": 2, "prone": True,
                   "wounds": [["Head", "Light"], ["Chest", "Serious"], ["Head", "Scratch"]]}],
        holds=[{"holder": 0, "held": 1, "kind": "arm_lock", "location": "R Arm"}],
    )
    t = game.tables
    a, b = encode_observation(s, 0), encode_observation(s, 1)
    assert a["same_hex"][0] == 1 and a["distance"][0] == 0
    kinds = list(t.hold_kinds)
    assert onehot(a["self_hold"]) == kinds.index("arm_lock") and a["opp_hold"].sum() == 0
    assert onehot(b["opp_hold"]) == kinds.index("arm_lock") and b["self_hold"].sum() == 0
    assert a["self_ap"][0] == 4 and a["opp_ap"][0] == 2
    assert a["opp_flags"][FLAGS.index("prone")] == 1 and a["self_flags"][FLAGS.index("prone")] == 0
    assert a["self_flags"][FLAGS.index("staggered")] == 1
    locs = list(t.locations)
    lv = list(t.wound_levels)
    assert a["opp_wounds"][locs.index("Head")] == lv.index("Light")  # the worse of two
    assert a["opp_wounds"][locs.index("Chest")] == lv.index("Serious")
    assert onehot(a["opp_worst"]) == lv.index("Serious") and onehot(a["self_worst"]) == 0


def test_decision_phase_and_incoming_attack(game: Game) -> None:
    s = scenario(game)
    a, b = encode_observation(s, 0), encode_observation(s, 1)
    assert onehot(a["decision_kind"]) == DECISION_KINDS.index("action") and a["deciding"][0] == 1
    assert b["decision_kind"].sum() == 0 and b["deciding"][0] == 0
    assert onehot(a["phase"]) == 0 and onehot(b["phase"]) == 1  # A's phase: self / opp
    s.apply(Choice("maneuver", "Martial Strike", 1, "Head", 0, 0))
    b = encode_observation(s, 1)
    cat = catalogue_for(game.tables)
    assert onehot(b["decision_kind"]) == DECISION_KINDS.index("reaction")
    assert onehot(b["incoming_maneuver"]) == cat.maneuvers.index("Martial Strike")
    assert onehot(b["incoming_location"]) == list(game.tables.locations).index("Head")
    assert onehot(b["incoming_arc"]) == 0  # from B's front
    assert b["incoming_closing"][0] == 1  # A stepped into B's hex
    assert onehot(b["phase"]) == 1  # still A's phase


def _walk_until(game: Game, pred, seeds=range(200)):
    rng = np.random.default_rng(0)
    for seed in seeds:
        s = game.new_state(seed)
        while not s.is_over:
            if pred(s):
                return s
            legal = s.legal_choices()
            s.apply(legal[int(rng.integers(len(legal)))])
    raise AssertionError("situation not reached")


def test_follow_ons_multi_hot_matches_the_legal_maneuvers(game: Game) -> None:
    cat = catalogue_for(game.tables)
    s = _walk_until(game, lambda s: s.decision.kind == "follow_on"
                    and len({c.maneuver for c in s.legal_choices()}) > 2)
    i = s.decision.fighter
    o = encode_observation(s, i)
    legal_maneuvers = {c.maneuver for c in s.legal_choices() if c.kind == "maneuver"}
    assert {cat.maneuvers[k] for k in np.flatnonzero(o["follow_ons"])} == legal_maneuvers
    assert cat.maneuvers[onehot(o["follow_on_after"])] == s.context()["after"]


@pytest.mark.parametrize("about", RISK_ABOUT[:4])
def test_risk_roll_names_the_roll(game: Game, about: str) -> None:
    s = _walk_until(game, lambda s: s.decision.kind == "risk" and s.decision.about == about)
    o = encode_observation(s, s.decision.fighter)
    assert RISK_ABOUT[onehot(o["risk_roll"])] == about


def test_risk_decisions_show_the_attack_reaction_and_both_basics(game: Game) -> None:
    """§1.3/§1.8: choosing dice, a fighter sees the attack, its aim, the declared defence
    and both basic values; checked against the rolls the engine logs (risk 0: result =
    basic)."""
    cat = catalogue_for(game.tables)
    s = scenario(game)
    s.apply(Choice("maneuver", "Martial Strike", 1, "Chest", 0, 0))
    s.apply(next(c for c in s.legal_choices() if c.maneuver == "Forearm Block"))
    a = encode_observation(s, 0)  # A chooses its attack dice
    idle = encode_observation(s, 1)
    s.apply(Choice("risk", risk=0))
    b = encode_observation(s, 1)  # B chooses its defence dice
    s.apply(Choice("risk", risk=0))
    e = next(e for e in reversed(s.events) if e["type"] == "attack")
    for o in (a, b):
        assert cat.maneuvers[onehot(o["roll_attack"])] == "Martial Strike"
        assert cat.maneuvers[onehot(o["roll_reaction"])] == "Forearm Block"
        assert game.tables.locations[onehot(o["roll_location"])] == "Chest"
        assert o["soak_wound"].sum() == 0
    assert a["roll_basics"].tolist() == [e["attack"]["result"], e["defence"]["result"]]
    assert b["roll_basics"].tolist() == [e["defence"]["result"], e["attack"]["result"]]
    for k in ("roll_attack", "roll_reaction", "roll_location", "roll_basics"):
        assert idle[k].sum() == 0  # decision fields are zero for the fighter not deciding


def test_soak_decisions_show_the_wound_and_the_soak_basic(game: Game) -> None:
    s = _walk_until(game, lambda s: s.decision.kind == "soak")
    i = s.decision.fighter
    o = encode_observation(s, i)
    s.apply(next(c for c in s.legal_choices() if c.kind == "maneuver"))
    r = encode_observation(s, i)  # the soak's risk decision
    s.apply(Choice("risk", risk=0))
    e = next(e for e in reversed(s.events) if e["type"] == "soak")
    for x in (o, r):
        assert game.tables.wound_levels[onehot(x["soak_wound"])] == e["before"]
        assert x["roll_basics"].tolist() == [e["roll"]["result"], 0]
        assert x["roll_attack"].sum() == 0


def test_turn_and_initiative(game: Game) -> None:
    s = _walk_until(game, lambda s: s.turn == 3)
    first = s.order[0]
    assert encode_observation(s, first)["initiative"].tolist() == [1, 0]
    assert encode_observation(s, 1 - first)["initiative"].tolist() == [0, 1]
    assert encode_observation(s, 0)["turn"][0] == 3


def test_the_arcs_are_the_engines_at_every_distance() -> None:
    """``arc_of_opp``/``arc_of_self``: the engine's attack direction of each fighter at the
    other, relative to the other's facing (aom3141's arcs), at every distance of a radius-5
    arena (the core's memoised direction for non-adjacent fighters included)."""
    g = Game.create(["chu", "boris"], radius=5)
    rng = np.random.default_rng(4)
    seen = set()
    for seed in range(15):
        s = g.new_state(seed)
        while not s.is_over:
            for a in (0, 1):
                o, f = encode_observation(s, a), s.fighters
                assert o["arc_of_opp"].argmax() == (s.attack_direction(1 - a, a) - f[a].facing) % 6
                assert o["arc_of_self"].argmax() == (s.attack_direction(a, 1 - a) - f[1 - a].facing) % 6
                seen.add(s.arc(a, 1 - a))
            legal = s.legal_choices()
            s.apply(legal[int(rng.integers(len(legal)))])
    assert seen == set(range(6))


def test_observations_stay_in_space_and_fresh(game: Game) -> None:
    enc = encoder_for(game)
    rng = np.random.default_rng(2)
    prev = None
    for seed in range(20):
        s = game.new_state(seed)
        while True:
            for f in (0, 1):
                o = enc.encode(s, f)
                assert o in enc.space
                assert enc.encode_flat(s, f) in enc.flat_space
                if prev is not None:
                    assert not np.shares_memory(prev["turn"], o["turn"])
                prev = o
            if s.is_over:
                break
            legal = s.legal_choices()
            s.apply(legal[int(rng.integers(len(legal)))])


def test_ap_is_clipped_to_the_bound(game: Game) -> None:
    s = scenario(game, fighters=[{"pos": [0, 0], "facing": 0, "ap": 80}])
    o = encode_observation(s, 0)
    assert o["self_ap"][0] == encoder_for(game).space["self_ap"].high[0]
