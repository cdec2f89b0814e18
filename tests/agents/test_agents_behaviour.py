"""Scripted and search agents: exact odds, rules knowledge, determinism, styles."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from hexdojo.agents.knowledge_core import native_knowledge
from hexdojo.agents.odds import Odds
from hexdojo.agents.registry import make_agent
from hexdojo.agents.tournament import play_fight
from hexdojo.envs.rules import Game


def brute(ba: int, ra: int, bd: int, rd: int) -> tuple[float, float]:
    """P(attack > defence) and E[margin; hit] by enumerating every die face (§1.3)."""
    p = m = 0.0
    n = 6 ** (ra + rd)
    for faces in itertools.product(range(1, 7), repeat=ra + rd):
        att = 2 * sum(faces[:ra]) + ba - 6 * ra
        dfn = 2 * sum(faces[ra:]) + bd - 6 * rd
        if att > dfn:
            p += 1 / n
            m += (att - dfn) / n
    return p, m


@pytest.mark.parametrize("ba,ra,bd,rd", [(10, 2, 10, 1), (6, 0, 4, 2), (3, 3, 11, 0),
                                         (8, 1, 8, 1), (0, 2, 20, 2)])
def test_odds_tables_match_enumeration(ba, ra, bd, rd) -> None:
    o = Odds(6, 3, 6)
    p, m = brute(ba, ra, bd, rd)
    assert o.p_beat(ba, ra, bd, rd) == pytest.approx(p, abs=1e-12)
    assert o.margin(ba, ra, bd, rd) * o.p_beat(ba, ra, bd, rd) == pytest.approx(m, abs=1e-9)
    # ties: ">=" is "> " with one more half point
    assert o.p_beat(ba, ra, bd, rd, strict=False) == pytest.approx(brute(ba + 1, ra, bd, rd)[0])


def test_risk_choice_is_the_minimax_of_the_tables() -> None:
    o = Odds(6, 3, 6)
    for diff in (-12, -4, 0, 4, 12):
        best = o.first_risk(diff, 0)
        worst = [min(o.p_beat(diff, ra, 0, rd) for rd in range(4)) for ra in range(4)]
        assert worst[best] == pytest.approx(max(worst))
        ans = o.answer_risk(0, diff, best)
        assert o.p_beat(diff, best, 0, ans) == pytest.approx(
            min(o.p_beat(diff, best, 0, rd) for rd in range(4)))


@pytest.mark.parametrize("fighters", [("chu", "urlik"), ("boris", "cogan"), ("rider", "novice"),
                                      ("chu", "chu")])
def test_attack_basic_matches_the_engine(fighters) -> None:
    """The agents' own attack values equal the basic value the engine then rolls on
    (RULES §1.8: skill, specialisms, CO with doubled encumbrance, aim, rear, holds...)."""
    g = Game.create(list(fighters))
    checked = 0
    for seed in range(12):
        s = g.new_state(seed)
        rng = np.random.default_rng(seed)
        k = native_knowledge(s.t)
        while not s.is_over:
            d = s.decision
            expect = None
            if d.kind == "risk" and d.about == "attack":
                dec = next(e for e in reversed(s.events) if e["type"] == "declare")
                expect = k.attack_basic(s, dec["a"], dec["t"], dec["maneuver"], dec["location"])
                start = len(s.events)
            ch = s.legal_choices()
            s.apply(ch[int(rng.integers(len(ch)))])
            if expect is not None:
                while not s.is_over and not any(e["type"] == "attack" for e in s.events[start:]):
                    ch = s.legal_choices()
                    s.apply(ch[int(rng.integers(len(ch)))])
                att = next((e for e in s.events[start:] if e["type"] == "attack"), None)
                if att is not None:
                    assert att["attack"]["basic"] * 2 == expect, att
                    checked += 1
    assert checked > 10


@pytest.mark.parametrize("spec", ["greedy", "striker", "grappler", "counter", "random",
                                  "search:sims=6,width=3", "mcts:sims=6,width=3"])
def test_agents_do_not_change_the_state(spec) -> None:
    g = Game.create(["chu", "boris"])
    s = g.new_state(4)
    agent = make_agent(spec)
    rng = np.random.default_rng(0)
    for _ in range(40):
        if s.is_over:
            break
        before = s.clone()
        c = agent.act(s)
        assert s.events == before.events and s.decision == before.decision
        assert [f.pos for f in s.fighters] == [f.pos for f in before.fighters]
        # the real fight's future dice are untouched (search rolls fresh dice)
        s.apply(c)
        before.apply(c)
        assert s.events == before.events
        ch = s.legal_choices()
        if ch:
            r = ch[int(rng.integers(len(ch)))]
            s.apply(r)
            before.apply(r)


@pytest.mark.parametrize("spec", ["random", "greedy", "counter", "search:sims=4,width=2",
                                  "mcts:sims=6,width=2"])
def test_same_seed_same_fight(spec) -> None:
    g = Game.create(["chu", "urlik"])
    recs = [play_fight(g, [make_agent(spec), make_agent("random")], 9, record_choices=True)
            for _ in range(2)]
    assert recs[0].choices == recs[1].choices


def _usage(spec: str, fights: int = 30) -> Counter:
    g = Game.create(["chu", "chu"])
    use: Counter = Counter()
    for seed in range(fights):
        rec = play_fight(g, [make_agent(spec), make_agent("greedy")], seed)
        use.update(rec.usage[0])
    return use


def test_styles_fight_differently() -> None:
    """The grappler grabs, locks and throws more than the striker, who strikes and kicks
    more; the counter-fighter relies on defensive reactions more than the striker."""
    grabs = ("Arm Grab", "Leg Grab", "Grapple", "Arm/wrist Lock", "Martial Throw", "Head Lock")
    defences = ("Rolling Dodge", "Drop Dodge", "Side-step dodge", "Jump back dodge",
                "Forearm Block", "Leg Grab")
    st, gr, co = _usage("striker"), _usage("grappler"), _usage("counter")

    def share(u: Counter, names: tuple[str, ...]) -> float:
        return sum(u[n] for n in names) / max(1, sum(u.values()))

    assert share(gr, grabs) > 2 * share(st, grabs)
    strikes = ("Martial Strike", "Martial Kick", "Punch", "Kick", "Spinning Kick")
    assert share(st, strikes) > share(gr, strikes)
    assert share(co, defences) > share(st, defences)


def test_greedy_beats_random_clearly() -> None:
    """A weak sanity bound only; the measured ladder is scripts/ladder_vs_random.py."""
    g = Game.create(["chu", "chu"])
    wins = 0
    for seed in range(40):
        for side in (0, 1):
            pair = [make_agent("greedy"), make_agent("random")]
            if side:
                pair.reverse()
            wins += play_fight(g, pair, seed).winner == side
    assert wins / 80 > 0.7


def action_with_choices(fighters: list[str], seed: int, n: int = 5):
    """A fight played at random from ``seed`` up to an action decision with >= ``n``
    legal choices (something for a search to choose between)."""
    s = Game.create(fighters).new_state(seed)
    rng = np.random.default_rng(seed)
    while s.decision.kind != "action" or len(s.legal_choices()) < n:
        ch = s.legal_choices()
        s.apply(ch[int(rng.integers(len(ch)))])
    return s


def test_mcts_tree_statistics() -> None:
    """Open-loop UCT mechanics (the native search's root counts, ``_bots.mcts_counts``):
    every simulation passes through exactly one of the root's children (the root's state is
    the same in every simulation, only the dice differ); UCB1 tries every child before
    revisiting one; act() returns the most visited child, and the real fight's dice are
    untouched."""
    from hexdojo.agents import _bots
    from hexdojo.agents.mcts import MCTSAgent

    s = action_with_choices(["chu", "boris"], 3)
    agent = MCTSAgent(sims=20, width=4, seed=1)
    pol = _bots.ScriptedPolicy(agent.policy._bot(s.t))
    before = s.clone()

    def counts(sims: int) -> tuple[int, list[int]]:
        rng = np.random.default_rng(1)
        return _bots.mcts_counts(s._core, pol, None, sims, 4, 2, 0.7, 0.0, 6,
                                 lambda n: rng.integers(0, 2**63 - 1, size=n).tolist())

    assert counts(4)[1] == [1, 1, 1, 1]
    k, visits = counts(20)
    assert sum(visits) == 20 and min(visits) >= 1
    assert s.legal_choices()[k] == agent.policy.ranked(s)[visits.index(max(visits))]
    assert s.events == before.events
    pick = agent.act(s)
    assert pick == s.legal_choices()[k]  # the agent's generator: seed 1, as counts drew


def test_caution_weighs_own_wounds_more() -> None:
    """``caution`` scales the searcher's own hurt: equal wounds score 0 when even, below 0
    for a cautious searcher (from either side), and a finished fight is still +-1."""
    from hexdojo.agents.search import evaluate

    g = Game.create(["chu", "chu"])
    s = g.new_state(0, scenario={"fighters": [
        {"pos": [0, 0], "facing": 0, "wounds": [["Chest", "Light"]]},
        {"pos": [1, 0], "facing": 3, "wounds": [["Chest", "Light"]]}]})
    assert evaluate(s, 0) == 0.0 == evaluate(s, 1)
    assert evaluate(s, 0, caution=1.0) < evaluate(s, 0, caution=0.5) < 0.0
    assert evaluate(s, 1, caution=1.0) == evaluate(s, 0, caution=1.0)
    fresh = g.new_state(0)
    assert evaluate(fresh, 0, caution=3.0) == 0.0


@pytest.mark.parametrize("athletics", [8.5, 8, 5.5, 5, 2, 1.5])
def test_knockback_estimate_matches_the_engine_aom1d34(athletics) -> None:
    """§1.13 (aom1d34): the agents' knock-back estimate puts a blow in the same band as
    the engine (none, off balance -1 AP, knocked back -2 AP, knocked over -2 AP and a
    fall), for the deterministic kicks of tests/rules/test_rules_knockback.py."""
    from hexdojo.agents import heuristics as hz
    from tests.rules.test_rules_knockback import kicked

    state = kicked(athletics)
    ev = [e for e in state.events if e["type"] == "knockback"][-1]
    b = state.fighters[1]
    k = native_knowledge(state.t)
    got = k.knockback_value(b.p, 0, 0, 5, False, False, int(ev["difficulty"] * 2), 0,
                            "Chest", "Blunt")
    ap_lost = {"none": 0, "off balance": 1, "knocked back": 2, "knocked over": 2}
    want = ap_lost[ev["effect"]] * hz.KNOCKBACK_AP_VALUE
    if ev["effect"] == "knocked over":
        want += hz.KNOCKBACK_FALL_VALUE
    assert got == pytest.approx(want)
    # a fighter already prone cannot fall again; one short of AP falls (aom1d34)
    prone = k.knockback_value(b.p, 0, 0, 5, True, False, int(ev["difficulty"] * 2), 0,
                              "Chest", "Blunt")
    assert prone == pytest.approx(ap_lost[ev["effect"]] * hz.KNOCKBACK_AP_VALUE)
    if ev["effect"] != "none":
        short = k.knockback_value(b.p, 0, 0, 0, False, False, int(ev["difficulty"] * 2), 0,
                                  "Chest", "Blunt")
        assert short == pytest.approx(hz.KNOCKBACK_FALL_VALUE)


def test_knockback_makes_leg_blows_worth_more_than_arm_blows_aom1d34() -> None:
    """§1.13 modifiers: Leg (on foot) -2, Arm +2, Blunt -2, Impaling +2: the estimate
    orders locations and damage types so. It values no knock-back where a rider is
    involved (a rider knocked down is out of the saddle's reach, §1.20)."""
    s = Game.create(["chu", "chu"]).new_state(0)
    k = native_knowledge(s.t)
    p = s.fighters[1].p

    def kb(loc: str, dtype: str = "Blunt", mounted: bool = False) -> float:
        return k.knockback_value(p, 0, 0, 4, False, mounted, 11, 1, loc, dtype)

    assert kb("L Leg") > kb("Chest") > kb("L Arm")
    assert kb("Chest", "Blunt") > kb("Chest", "Impaling")
    assert kb("L Leg", mounted=True) == 0.0
    assert k.knockback_value(p, 0, 0, 4, False, False, 11, 1, "L Leg", "Blunt",
                             x_mounted=True) == 0.0
