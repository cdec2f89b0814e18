"""The search agents (agents/native/search.hpp, the only search since issue 32 deleted its
Python copy): their choices in seeded fights pinned (tests/agents/search_fights.py, recorded
from both paths while there were two), the tree's and the flat search's counts checked by
hand over the trivial policies, the time budget (counted, never timed), evaluate's values
pinned, the simulations' fresh dice against numpy's, and the boundary: what has no native
form is one AgentError line, bad parameters a ValueError, never a crash.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any

import numpy as np
import pytest

from hexdojo.agents import _bots, search_core
from hexdojo.agents.base import Agent, AgentError
from hexdojo.agents.mcts import MCTSAgent
from hexdojo.agents.registry import make_agent
from hexdojo.agents.scripted import RandomAgent
from hexdojo.agents.search import SEARCHED, SearchAgent, evaluate
from hexdojo.agents.search_core import FirstChoice, Rotate
from hexdojo.envs.rules.dice import Dice
from hexdojo.envs.rules.pairings import make_game

from . import search_fights as sf

SCRIPTED_MCTS = ["chu-boris", "urlik-cogan", "guard-spearman", "rider_vs_foot", "two_vs_one"]
SCRIPTED_SEARCH = ["novice-chu", "knife_fighter-guard", "two_vs_one"]


# ------------------------------------------------------------------ seeding
def test_fresh_dice_are_numpys():
    """Dice(seed) = default_rng(seed): the native SeedSequence/PCG64 seeding gives numpy's
    generator state and the same first faces, for 0, 2**63 - 2, word boundaries and random
    seeds."""
    rng = np.random.default_rng(20261201)
    seeds = [0, 1, 2, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**63 - 2, 2**63 - 1, 2**64 - 1]
    seeds += [int(x) for x in rng.integers(0, 2**63 - 1, size=400)]
    seeds += [int(x) for x in rng.integers(0, 2**32, size=100)]
    for s in seeds:
        st = np.random.PCG64(s).state["state"]
        (sh, sl), (ih, il) = _bots.seed_state(s)
        assert ((sh << 64) | sl, (ih << 64) | il) == (st["state"], st["inc"]), s
    for s in seeds[:60]:  # two blocks of 512 faces: the refill too
        assert _bots.fresh_faces(s, 1100) == Dice(s).faces(1100), s
    for s in seeds[60:]:
        assert _bots.fresh_faces(s, 24) == Dice(s).faces(24), s
    assert _bots.fresh_faces(7, 40, 4) == Dice(7, 4).faces(40)
    with pytest.raises(TypeError):
        _bots.seed_state(-1)
    with pytest.raises(ValueError, match="sides"):
        _bots.fresh_faces(1, 5, 0)


# ------------------------------------------------------------------ the pinned choices
@pytest.mark.parametrize("cls,policy,key", [
    (MCTSAgent, FirstChoice, "trivial mcts first"), (MCTSAgent, Rotate, "trivial mcts rotate"),
    (SearchAgent, FirstChoice, "trivial search first"),
    (SearchAgent, Rotate, "trivial search rotate")])
def test_trivial_policies_pinned(cls, policy, key):
    """The tree logic alone: FirstChoice and Rotate as the policy."""
    digest, tally = sf.trivial(cls, policy)
    assert digest == sf.PINNED[key], tally
    assert tally["searched"] > 200 and tally["searched:reaction"] > 50, tally
    assert tally["searched:action"] > 0 and tally["searched:phase"] > 0, tally
    if policy is Rotate:  # FirstChoice's fights rarely give the search anything to weigh
        assert tally["changed"] > 10 and tally["searched:follow_on"] > 0, tally


@pytest.mark.parametrize("params,key", [
    ({"opponent_model": FirstChoice}, "variant model first"),
    ({"opponent_model": RandomAgent}, "variant model random"),
    ({"caution": 1.5}, "variant caution"), ({"width": 2, "horizon": 1}, "variant narrow"),
    ({"width": 7, "horizon": 3, "c": 1.3}, "variant wide")])
def test_variants_pinned(params, key):
    """MCTS over Rotate with an opponent model (a random one reset from each simulation's
    seed), caution, other widths, horizons and exploration."""
    digest, tally = sf.variant(params)
    assert digest == sf.PINNED[key], tally
    assert tally["searched"] > 80 and tally["changed"] > 20, tally


@pytest.mark.parametrize("cls,pairings,key", [(MCTSAgent, SCRIPTED_MCTS, "scripted mcts"),
                                              (SearchAgent, SCRIPTED_SEARCH, "scripted search")])
def test_scripted_policy_pinned(cls, pairings, key):
    """The default scripted policy (greedy), mid-fight, unarmed, armed, mounted and group."""
    digest, tally = sf.scripted(cls, pairings)
    assert digest == sf.PINNED[key], tally
    assert tally["searched"] > 5 * len(pairings) and tally["changed"] > 5, tally
    assert tally["searched:action"] > 0 and tally["searched:reaction"] > 0, tally


@pytest.mark.parametrize("params,key", [
    ({"model": "striker"}, "scripted model striker"), ({"model": "random"}, "scripted model random"),
    ({"caution": 2.0, "policy": "grappler"}, "scripted grappler caution"),
    ({"width": 2, "horizon": 1, "policy": "counter"}, "scripted counter narrow"),
    ({"width": 6, "horizon": 3, "c": 1.5}, "scripted wide")])
def test_scripted_variants_pinned(params, key):
    """MCTS with a scripted or random opponent model, caution, other styles and widths."""
    digest, tally = sf.scripted_variant(params)
    assert digest == sf.PINNED[key] and tally["searched"] == 8, tally


@pytest.mark.parametrize("cls,key", [(MCTSAgent, "whole mcts"), (SearchAgent, "whole search")])
def test_whole_fights_pinned(cls, key):
    """Whole fights over every kind of pairing, the scripted policy."""
    digest, tally = sf.whole_fights(cls)
    assert digest == sf.PINNED[key], tally
    assert tally["changed"] > 50 and tally["searched:follow_on"] > 5, tally
    assert tally["searched:reaction"] > 40 and tally["searched:phase"] > 10, tally


@pytest.mark.parametrize("cls,model,key", [
    (MCTSAgent, None, "tournament mcts"), (MCTSAgent, "striker", "tournament mcts model striker"),
    (MCTSAgent, "random", "tournament mcts model random"), (SearchAgent, None, "tournament search")])
def test_tournament_fast_path_pinned(cls, model, key, monkeypatch):
    """play_fight between search agents as native players (the whole fight inside the core,
    their generators native) plays the pinned fights."""
    played: Counter = Counter()
    real = _bots.play_fight

    def spy(*a: Any) -> Any:
        played["native"] += 1
        return real(*a)

    monkeypatch.setattr(_bots, "play_fight", spy)
    assert sf.tournament(cls, model) == sf.PINNED[key]
    assert played["native"] == 3


# ------------------------------------------------------------------ the counts, by hand
def searched_state(pairing: str = "chu-boris", seed: int = 3, n: int = 4) -> Any:
    """A fight at a searched decision with at least ``n`` legal choices (seeded)."""
    s = make_game(pairing).new_state(seed)
    while s.decision.kind not in SEARCHED or len(s.legal_choices()) < n:
        s.apply(s.legal_choices()[0])
    return s


def seeds_from(seed: int) -> Any:
    rng = np.random.default_rng(seed)
    return lambda n: rng.integers(0, 2**63 - 1, size=n).tolist()


def mcts(s: Any, sims: int, width: int = 4, time_ms: float = 0.0, policy: Any = None) -> Any:
    return _bots.mcts_counts(s._core, policy or _bots.FirstChoicePolicy(), None, sims, width, 2,
                             0.7, 0.0, 6, seeds_from(1), time_ms)


def flat(s: Any, sims: int, width: int = 4, time_ms: float = 0.0) -> Any:
    return _bots.search_counts(s._core, _bots.FirstChoicePolicy(), sims, width, 2, 0.0, 6,
                               seeds_from(1), time_ms)


def test_the_tree_counts_by_hand():
    """Every simulation passes through the root and one child; UCB1 tries every child (in
    rank order) before revisiting one; the most visited child is played (ties: the rank
    order); the real fight is untouched. width 1, or a decision left to the policy:
    nothing searched, the policy's choice."""
    s = searched_state()
    before = s.clone()
    assert mcts(s, 4) == (0, [1, 1, 1, 1])
    assert mcts(s, 3) == (0, [1, 1, 1, 0])
    k, visits = mcts(s, 40)
    assert sum(visits) == 40 and min(visits) >= 1 and k == visits.index(max(visits))
    k, visits = mcts(s, 40, policy=_bots.RotatePolicy())
    ranked = Rotate().ranked(s)[:4]
    assert sum(visits) == 40 and s.legal_choices()[k] == ranked[visits.index(max(visits))]
    assert s.events == before.events and s.legal_choices() == before.legal_choices()
    assert mcts(s, 40, width=1) == (0, [0])  # one child: played without a simulation
    s, rng = make_game("chu-boris").new_state(2), np.random.default_rng(2)
    while s.decision.kind in SEARCHED or len(s.legal_choices()) < 2:  # a risk or soak
        ch = s.legal_choices()
        s.apply(ch[int(rng.integers(len(ch)))])
    assert mcts(s, 40) == (0, [])


def test_the_flat_search_counts_by_hand():
    """sims // candidates rounds, one rollout per candidate each (at least one round)."""
    s = searched_state()
    assert flat(s, 12)[1] == [3, 3, 3, 3]
    assert flat(s, 5)[1] == [1, 1, 1, 1]
    assert flat(s, 2, width=2)[1] == [1, 1]
    assert flat(s, 9, width=1) == (0, [])  # one candidate: played without a rollout


# ------------------------------------------------------------------ the time budget
def test_a_spent_time_budget_runs_exactly_one_simulation():
    """A budget of a nanosecond is spent during the first simulation (MCTS) or round of
    rollouts (flat): the search stops after it; the seeds for the whole budget of
    simulations are drawn all the same, so the generator moves as without a budget."""
    s = searched_state()
    assert mcts(s, 50, time_ms=1e-6) == (0, [1, 0, 0, 0])
    assert flat(s, 48, time_ms=1e-6)[1] == [1, 1, 1, 1]
    timed, plain = MCTSAgent(sims=50, time=1e-6), MCTSAgent(sims=50)
    timed.act(s)
    plain.act(s)
    assert timed.rng.bit_generator.state == plain.rng.bit_generator.state


def test_an_unspent_time_budget_changes_nothing():
    """A budget the search never reaches (10 minutes for 24 simulations) gives the counts
    and the choice of no budget."""
    s = searched_state("guard-spearman", 5)
    assert mcts(s, 24, time_ms=600_000.0) == mcts(s, 24)
    assert flat(s, 24, time_ms=600_000.0) == flat(s, 24)


def test_the_agents_pass_their_time_budget(monkeypatch):
    """MCTSAgent, SearchAgent and their native players take ``time`` (ms) to the search."""
    seen: list[float] = []
    for name in ("mcts_act", "search_act"):
        real = getattr(_bots, name)

        def spy(*a: Any, _real: Any = real) -> int:
            seen.append(a[-2])  # time_ms, then the root's bans
            return _real(*a)

        monkeypatch.setattr(search_core._bots, name, spy)
    s = searched_state()
    MCTSAgent(sims=8, time=25.0).act(s)
    SearchAgent(sims=8, time=0.5).act(s)
    assert seen == [25.0, 0.5]
    game = make_game("chu-boris")
    assert isinstance(MCTSAgent(time=5.0).native_player(game), _bots.SearchPlayer)
    for bad in (-1.0, float("nan"), 600_001.0):
        with pytest.raises(ValueError, match="time"):
            mcts(s, 8, time_ms=bad)
        with pytest.raises(ValueError, match="time"):
            _bots.SearchPlayer(True, _bots.FirstChoicePolicy(), None, 8, 4, 2, 0.7, 0.0, 6,
                               (0, 0), (0, 1), False, 0, bad)


# ------------------------------------------------------------------ the tournament's fast path
def test_native_seeds_are_numpys():
    """A native player's per-decision seeds: default_rng(seed).integers(0, 2**63 - 1)."""
    for s in (0, 1, 7919, 2**32 + 5, 2**63 - 2, 2**64 - 1, 123456789012345):
        want = np.random.default_rng(s).integers(0, 2**63 - 1, size=300).tolist()
        assert _bots.integers63(s, 300) == want, s


def test_native_player_and_its_errors():
    """A native player for a time budget and any policy with a native form; a generator
    other than numpy's PCG64: none (the tournament asks act); a bad parameter or a fight of
    another rule set: a ValueError."""
    game = make_game("chu-boris")
    rotate = SearchAgent()
    rotate.policy = Rotate()
    for a in (MCTSAgent(), MCTSAgent(time=5.0), rotate):
        assert isinstance(a.native_player(game), _bots.SearchPlayer)
    other_rng = MCTSAgent()
    other_rng.rng = np.random.Generator(np.random.MT19937(1))
    assert other_rng.native_player(game) is None
    other = make_game("chu-boris", rules={"turn": {"turn_limit": 6}}).new_state(1)
    with pytest.raises(ValueError, match="rules"):  # a fight of another rule set
        MCTSAgent().native_player(game).act(other._core)
    with pytest.raises(ValueError, match="out of range"):
        _bots.SearchPlayer(True, _bots.FirstChoicePolicy(), None, 0, 4, 2, 0.7, 0.0, 6,
                           (0, 0), (0, 1), False, 0)
    with pytest.raises(ValueError, match="odd"):
        _bots.SearchPlayer(True, _bots.FirstChoicePolicy(), None, 8, 4, 2, 0.7, 0.0, 6,
                           (0, 0), (0, 2), False, 0)


# ------------------------------------------------------------------ evaluate
#: evaluate's values along seeded random fights (each fighter, caution 0 and 0.7): equal,
#: before issue 32 deleted it, to the Python evaluate's (math.tanh), double for double
EVALUATE = ("da07b33ca21b6fed174e9db0a4917c6d7b410068b5c9ec9eebf23dd3bfce6982", 2894)


def evaluate_digest() -> tuple[tuple[str, int], Counter]:
    """(digest, values) of evaluate along seeded random fights, and what they met."""
    h, n, met = hashlib.sha256(), 0, Counter()
    for k, pairing in enumerate(sf.PAIRINGS):
        s = make_game(pairing).new_state(40 + k)
        rng = np.random.default_rng(k)
        while True:
            for me in range(len(s.fighters)):
                for caution in (0.0, 0.7):
                    v = evaluate(s, me, caution)
                    h.update(repr(v).encode())
                    n += 1
                    met["nonzero"] += v != 0.0
                    met["won"] += v == 1.0
            if s.is_over:
                break
            met["prone"] += any(f.prone for f in s.fighters)
            ch = s.legal_choices()
            s.apply(ch[int(rng.integers(len(ch)))])
    return (h.hexdigest(), n), met


def test_evaluate_pinned():
    got, met = evaluate_digest()
    assert got == EVALUATE
    assert met["nonzero"] > 100 and met["prone"] > 0 and met["won"] > 0, met


# ------------------------------------------------------------------ the boundary
def test_no_native_form_is_one_line():
    """A policy or an opponent model without a native form, or a state that is not the
    core's: one AgentError line saying why (the search runs inside the core only)."""
    s = searched_state()

    class Plain(Agent):  # a plug-in policy: act only
        name = "plain"

        def act(self, state: Any) -> Any:
            return state.legal_choices()[0]

    for cls in (MCTSAgent, SearchAgent):
        a = cls(sims=4)
        a.policy = Plain()
        with pytest.raises(AgentError, match=r"policy 'plain' \(Plain\) has no native form"):
            a.act(s)
        with pytest.raises(AgentError, match="no native form"):
            a.native_player(s.game)
    modelled = MCTSAgent(sims=4, opponent_model=Plain())
    with pytest.raises(AgentError, match=r"opponent model 'plain' \(Plain\) has no native"):
        modelled.act(s)
    flat_modelled = SearchAgent(sims=4)
    flat_modelled.opponent_model = Plain()
    assert flat_modelled.act(s) in s.legal_choices()  # a flat search plays no model
    with pytest.raises(AgentError, match="fights of the native core"):
        search_core.core(object())


def test_a_restricted_view_gets_the_policys_allowed_choice():
    """agents/lab's bans ask again on a view without the banned maneuvers: the search
    leaves that decision to its policy's best allowed choice."""
    from hexdojo.agents.lab.runner import _Restricted

    s = searched_state()
    best = make_agent("greedy").act(s)
    assert best.kind == "maneuver", best
    view = _Restricted(s, frozenset({best.maneuver}))
    for a in (MCTSAgent(sims=8), SearchAgent(sims=8)):
        got = a.act(view)
        assert got in view.legal_choices() and got == make_agent("greedy").act(view)


def test_bad_arguments_raise():
    """Bad budgets, seeds and finished fights from Python: exceptions, never a crash."""
    s = make_game("chu-boris").new_state(5)
    f, pol = s._core, _bots.FirstChoicePolicy()

    def draw(n: int) -> list[int]:
        return list(range(n))

    base = dict(sims=8, width=4, horizon=2, c=0.7, caution=0.0, sides=6)
    for bad in ({"sims": 0}, {"width": 0}, {"width": 65}, {"horizon": 0}, {"sides": 0},
                {"c": float("nan")}, {"caution": -1.0}):
        with pytest.raises(ValueError):
            _bots.mcts_act(f, pol, None, **{**base, **bad}, draw=draw)
    while s.decision.kind not in SEARCHED or len(s.legal_choices()) < 2:  # a searched one
        s.apply(s.legal_choices()[0])
    f = s._core
    with pytest.raises(ValueError, match="seeds"):
        _bots.mcts_act(f, pol, None, **base, draw=lambda n: [1] * (n - 1))
    with pytest.raises(ValueError, match="seeds"):
        _bots.mcts_act(f, pol, None, **base, draw=lambda n: [-1] * n)
    while not s.is_over:
        s.apply(s.legal_choices()[0])
    with pytest.raises(ValueError, match="finished"):
        _bots.mcts_act(s._core, pol, None, **base, draw=draw)
    with pytest.raises(ValueError, match="finished"):
        _bots.search_act(s._core, pol, 8, 4, 2, 0.0, 6, draw)
