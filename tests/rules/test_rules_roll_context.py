"""What a fighter knows when choosing the dice to risk (§1.3, aom112): ``State.context()``
at risk and soak decisions names the roll's maneuvers and gives both sides' basic values
(§1.8 attack and defence, aom315; soak aom314c; Break Hold aom322d). Checked against the
rolls the engine then logs, over many random games (hypothesis): the numbers offered
before the choice are exactly the numbers rolled on after it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexdojo.envs.rules import Game, preset_names

PRESETS = preset_names()


def _check_attack(ctx: dict[str, Any], e: dict[str, Any]) -> None:
    """An ``attack`` event against the context of the risk decisions before it."""
    assert ctx["attacker"] == e["a"] and ctx["attack"] == e["maneuver"]
    assert ctx["location"] == e["location"]
    reaction = e.get("counter") or e.get("defence_maneuver")
    assert ctx["reaction"] == (None if reaction == "none" else reaction)
    assert ctx["basics"][e["a"]] / 2 == e["attack"]["basic"]
    assert ctx["basics"][e["t"]] / 2 == e["defence"]["basic"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a=st.sampled_from(PRESETS), b=st.sampled_from(PRESETS), seed=st.integers(0, 2**31 - 1))
def test_risk_context_gives_the_basic_values_rolled(a: str, b: str, seed: int) -> None:
    s = Game.create([a, b], turn_limit=8).new_state(seed)
    rng = np.random.default_rng(seed)
    attack_ctx: dict[str, Any] | None = None
    soak_ctx: dict[str, Any] | None = None
    break_ctx: dict[str, Any] | None = None
    checked = 0
    while not s.is_over:
        d = s.decision
        assert d is not None
        ctx = s.context()
        if d.kind == "risk" and d.about in ("attack", "defence", "counter-attack"):
            if attack_ctx is not None:  # both risk decisions of one attack agree
                assert ctx["basics"] == attack_ctx["basics"]
            attack_ctx = ctx
        elif d.kind == "soak" or (d.kind == "risk" and d.about == "soak"):
            assert 0 < ctx["wound"] and set(ctx["basics"]) == {d.fighter}
            soak_ctx = ctx
        elif d.kind == "risk" and d.about in ("break hold", "resist break hold"):
            assert len(ctx["basics"]) == 2
            break_ctx = ctx
        else:
            assert "basics" not in ctx
        ch = s.legal_choices()
        n = len(s.events)
        s.apply(ch[int(rng.integers(len(ch)))])
        for e in s.events[n:]:
            if e["type"] == "attack" and attack_ctx is not None:
                _check_attack(attack_ctx, e)
                attack_ctx, checked = None, checked + 1
            elif e["type"] == "foiled":
                attack_ctx = None
            elif e["type"] == "soak" and soak_ctx is not None:
                assert soak_ctx["basics"][e["a"]] / 2 == e["roll"]["basic"]
                assert s.t.wound_levels[soak_ctx["wound"]] == e["before"]
                soak_ctx, checked = None, checked + 1
            elif e["type"] == "break_hold" and break_ctx is not None:
                assert break_ctx["basics"][e["a"]] / 2 == e["escaper"]["basic"]
                assert break_ctx["basics"][e["t"]] / 2 == e["holder"]["basic"]
                break_ctx, checked = None, checked + 1
            elif e["type"] in ("wound", "take_wound"):
                soak_ctx = None  # a soak declined
    assert attack_ctx is None or s.is_over


def test_context_of_an_attack_risk_names_the_reaction() -> None:
    """A scripted attack: Chu's Martial Strike at the Chest, Urlik's Forearm Block."""
    g = Game.create(["chu", "urlik"])
    s = g.new_state(3, scenario={"fighters": [{"pos": [0, 0], "facing": 0, "ap": 6},
                                              {"pos": [1, 0], "facing": 3, "ap": 5}],
                                 "phase": 0})
    from hexdojo.envs.rules import Choice

    s.apply(Choice("maneuver", "Martial Strike", target=1, location="Chest"))
    block = next(c for c in s.legal_choices() if c.maneuver == "Forearm Block")
    s.apply(block)
    assert s.decision is not None and (s.decision.kind, s.decision.about) == ("risk", "attack")
    ctx = s.context()
    assert (ctx["attack"], ctx["location"], ctx["reaction"]) == (
        "Martial Strike", "Chest", "Forearm Block")
    s.apply(next(c for c in s.legal_choices() if c.risk == 0))
    s.apply(next(c for c in s.legal_choices() if c.risk == 0))
    e = next(e for e in reversed(s.events) if e["type"] == "attack")
    assert e["attack"]["risk"] == 0 and e["attack"]["result"] == ctx["basics"][0] / 2
    assert e["defence"]["result"] == ctx["basics"][1] / 2
