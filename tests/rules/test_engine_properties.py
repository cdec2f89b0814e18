"""Invariants over many random legal games (issue 2 quality bar; hypothesis).

Checked after every decision: no exception, AP never negative, everyone on the board,
every hold joins two fighters in one hex (§1.18), a held fighter never leaves its hex
except when knocked back with the holder following (aom3225), the fight ends by the turn
limit, every listed choice is legal and the decision has at least two choices.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexdojo.envs.rules import Game, preset_names
from hexdojo.envs.rules import hexgrid as hx

PRESETS = preset_names()


def _check_invariants(s, before_holds, before_pos, n_events_before) -> None:
    radius = s.game.radius
    for f in s.fighters:
        assert f.ap >= 0, f"{f.name} has negative AP"
        assert hx.in_arena(f.pos, radius), f"{f.name} left the arena"
    for h in s.holds:
        assert s.fighters[h.holder].pos == s.fighters[h.held].pos, "a hold across hexes"
        assert s.fighters[h.holder].active and s.fighters[h.held].active or s.is_over
    new_types = {e["type"] for e in s.events[n_events_before:]}
    for h in before_holds:
        if h in s.holds and not new_types & {"knockback", "moves_along"}:
            assert s.fighters[h.held].pos == before_pos[h.held], "a held fighter left its hex"
    assert sorted(weapons_in_play(s)) == sorted(weapons_at_start(s)), "a weapon appeared or vanished"
    for f in s.fighters:
        for wid in f.hands:
            if wid is not None and s.t.weapons[wid].hands == 2:
                assert f.hands == (wid, wid), "a two-handed weapon fills both hands"
    if not s.is_over:
        ch = s.legal_choices()
        assert len(ch) >= 2, "single-choice decisions must be auto-applied"
        assert s.decision is not None


def _held(s, hands) -> list[str]:
    """The weapons in two hands (a two-handed weapon fills both but counts once)."""
    held = [w for w in hands if w is not None]
    if hands[0] is not None and hands[0] == hands[1] and s.t.weapons[hands[0]].hands == 2:
        held = held[:1]
    return held


def weapons_in_play(s) -> list[str]:
    """Every weapon of the fight, wherever it is now (hands, sheaths, stuck, the floor):
    weapons move (§1.12, §1.15, aom314a, aom3227) but are never made or lost."""
    out = [wid for _, wid in s.dropped]
    for f in s.fighters:
        out += _held(s, f.hands) + list(f.sheathed) + [w for w, _ in f.stuck]
    return out


def weapons_at_start(s) -> list[str]:
    return [w for f in s.fighters for w in _held(s, f.p.hands) + list(f.p.sheathed)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    a=st.sampled_from(PRESETS),
    b=st.sampled_from(PRESETS),
    seed=st.integers(0, 2**31 - 1),
    radius=st.integers(1, 5),
    limit=st.integers(1, 12),
)
def test_random_games_keep_invariants(a, b, seed, radius, limit):
    g = Game.create([a, b], radius=radius, turn_limit=limit)
    s = g.new_state(seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while not s.is_over:
        ch = s.legal_choices()
        c = ch[int(rng.integers(len(ch)))]
        assert s.why_illegal(c) is None
        before_holds = list(s.holds)
        before_pos = [f.pos for f in s.fighters]
        n = len(s.events)
        s.apply(c)
        _check_invariants(s, before_holds, before_pos, n)
        steps += 1
        assert steps < 20_000
    assert s.turn <= limit
    assert s.result["reason"] in ("last standing", "turn limit")
    if s.result["reason"] == "turn limit":
        assert s.winner is None and s.turn == limit
    else:
        assert sum(f.active for f in s.fighters) <= 1
    json.dumps(s.events)  # the whole log is JSON-serialisable


@pytest.mark.slow
def test_thousands_of_random_games_keep_the_invariants():
    """4,860 complete fights (60 per preset pairing, armed presets included) with the
    invariants checked after every decision: the broad sweep behind the hypothesis test above."""
    total = 0
    for i, a in enumerate(PRESETS):
        for j, b in enumerate(PRESETS):
            g = Game.create([a, b], turn_limit=8, radius=2 + (i + j) % 3)
            for seed in range(60):
                s = g.new_state(seed * 100 + i * 10 + j)
                rng = np.random.default_rng(seed)
                while not s.is_over:
                    ch = s.legal_choices()
                    before_holds = list(s.holds)
                    before_pos = [f.pos for f in s.fighters]
                    n = len(s.events)
                    s.apply(ch[int(rng.integers(len(ch)))])
                    _check_invariants(s, before_holds, before_pos, n)
                assert s.turn <= 8
                total += 1
    assert total == len(PRESETS) ** 2 * 60 == 4860


def test_every_maneuver_and_decision_kind_occurs_in_random_play():
    """Random play reaches every unarmed maneuver and every decision kind (coverage of §2)."""
    seen_maneuvers: set[str] = set()
    seen_kinds: set[str] = set()
    for k, (a, b) in enumerate([("chu", "boris"), ("chu", "cogan"), ("rider", "chu"),
                                ("urlik", "chu"), ("boris", "novice")]):
        g = Game.create([a, b])
        for seed in range(40):
            s = g.new_state(seed + 1000 * k)
            rng = np.random.default_rng(seed)
            while not s.is_over:
                seen_kinds.add(s.decision.kind)
                ch = s.legal_choices()
                s.apply(ch[int(rng.integers(len(ch)))])
            seen_maneuvers |= {e["maneuver"] for e in s.events if e["type"] in ("declare", "reaction")}
            seen_maneuvers |= {"Soak" for e in s.events if e["type"] == "soak"}
            seen_maneuvers |= {"Break Hold" for e in s.events if e["type"] == "break_hold"}
            seen_maneuvers |= {"Move" for e in s.events if e["type"] == "move"}
            seen_maneuvers |= {"Turn" for e in s.events if e["type"] == "turn"}
            seen_maneuvers |= {"Stand up" for e in s.events if e["type"] == "stand_up"}
    unarmed = set(g.tables.unarmed_maneuvers)
    # Pull Down needs Arm Grab -> Pull Down with 2 AP left: too rare for uniform random
    # play; its reachability is checked from a scenario below.
    assert unarmed - seen_maneuvers <= {"Pull Down"}
    assert seen_kinds == {"phase", "action", "reaction", "follow_on", "soak", "risk", "hold"}


def test_pull_down_is_offered_after_an_arm_grab():
    """§3 (aom3225): Arm Grab -> Pull Down is reachable from a plain fight situation."""
    from hexdojo.envs.rules import Choice, LoadedDice

    g = Game.create(["chu", "boris"])
    s = g.new_state(LoadedDice([6] * 20), scenario={
        "fighters": [{"pos": [0, 0], "facing": 0, "ap": 8}, {"pos": [0, 0], "facing": 3, "ap": 5}],
        "phase": 0})
    s.apply(Choice("maneuver", "Arm Grab", 1, "R Arm"))
    from hexdojo.envs.rules import PASS

    s.apply(PASS)  # no reaction
    s.apply(Choice("risk", risk=0))
    s.apply(Choice("risk", risk=0))
    assert s.context()["after"] == "Arm Grab"
    assert Choice("maneuver", "Pull Down", 1, None) in s.legal_choices()
