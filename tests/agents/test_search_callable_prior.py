"""A Python prior steers the native search (issue 32: "the native search takes a prior (a
callable or a checkpoint)").

``GuidedMCTS(prior=...)`` takes, besides a learned SB3 actor run inside the core, a Python
prior asked through ``_bots.CallbackPrior`` whenever the tree expands a node: a callable
``f(state)`` or an object's ``prior(state)`` (one score per legal choice, higher first), an
agent's ``ranked(state)``, or a checkpoint path. A prior that ranks as a native policy ranks
must give the native search's pinned choices digit for digit (``tests/agents/search_fights.py``),
so the callback changes who ranks, never what the tree does with the ranking.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from hexdojo.agents import _bots, scripted_core, search_core
from hexdojo.agents.base import AgentError
from hexdojo.agents.guided import GuidedMCTS
from hexdojo.agents.registry import make_agent
from hexdojo.agents.search_core import Rotate
from hexdojo.agents.tournament import play_fight
from hexdojo.envs.rules import Game, State
from hexdojo.envs.rules.pairings import make_game

from . import search_fights as sf


def _rotate_scores(state: State) -> list[float]:
    """Rotate's ranking as scores (a plain callable): the first of the rotated list highest."""
    n, k = len(state.legal_choices()), Rotate.start(state)
    return [float(-((j - k) % n)) for j in range(n)]


@pytest.mark.parametrize("prior", [Rotate(), _rotate_scores], ids=["ranked", "callable"])
def test_a_python_prior_ranking_as_rotate_gives_the_pinned_tree(prior) -> None:
    """Every pairing (duels, armed, mounted, the two-against-one group): the tree over a
    Python prior that ranks as ``Rotate`` plays ``MCTSAgent(policy=Rotate)``'s pinned fights."""
    def make(k: int) -> GuidedMCTS:
        g = GuidedMCTS(prior, sims=16, width=4, seed=k)
        g.policy = Rotate()
        return g

    digest, tally = sf.searched_fights(make, sf.PAIRINGS, 100, 60)
    assert digest == sf.PINNED["trivial mcts rotate"], tally
    assert tally["searched"] > 100 and tally["changed"] > 20, tally


def test_a_scripted_agents_ranking_as_prior_is_the_scripted_mcts() -> None:
    """``greedy``'s ``ranked(state)`` asked from Python gives the pinned scripted MCTS (whose
    tree the core ranks with the same bot), mid-fight, duels and the group alike."""
    pairings = ["chu-boris", "urlik-cogan", "guard-spearman", "rider_vs_foot", "two_vs_one"]

    def make(k: int) -> GuidedMCTS:
        return GuidedMCTS(make_agent("greedy"), sims=16, width=4, seed=20 + k)

    digest, tally = sf.searched_fights(make, pairings, 500, 12, prefix=8)
    assert digest == sf.PINNED["scripted mcts"], tally


class NetworkScores:
    """A prior object (``prior(state)``) that scores with a learned actor's logits, here the
    native network's own (``PriorPolicy.legal_logits``) over the State's core fight."""

    def __init__(self, agent: Any) -> None:
        self.agent, self.nets = agent, {}

    def prior(self, state: State) -> list[float]:
        game = state.game
        if id(game) not in self.nets:
            self.nets[id(game)] = (game, search_core.prior_policy(GuidedMCTS(self.agent), game))
        return self.nets[id(game)][1].legal_logits(scripted_core.core_of(state))


@pytest.fixture(scope="module")
def duel_npc(tmp_path_factory):
    pytest.importorskip("sb3_contrib")
    return sf.duel_prior(tmp_path_factory.mktemp("prior"))


def test_a_callable_with_the_networks_logits_searches_as_the_native_prior(duel_npc) -> None:
    """Chu against Boris and against Urlik, alone and with an opponent model: the same choices
    and generator states as the native PriorPolicy (the pinned guided digests)."""
    digest, tally = sf.guided(NetworkScores(duel_npc))
    assert digest == sf.PINNED["guided duel"] and tally["searched"] > 25, tally
    assert sf.guided(NetworkScores(duel_npc), "greedy")[0] == sf.PINNED["guided duel model greedy"]


def test_a_torch_scored_callable_plays_the_native_priors_fights(duel_npc) -> None:
    """The policy's logits computed by torch (SB3's distribution, float32 sums in torch's
    order) rank as the core's network does on these fights: the native prior's whole fights,
    on the tournament's fast path (a native player whose prior calls back into Python)."""
    import torch

    def torch_logits(state: State) -> np.ndarray:
        obs, mask, _, ids = duel_npc.duel_inputs(state)
        policy = duel_npc.model.policy
        with torch.no_grad():
            o, _ = policy.obs_to_tensor(obs)
            z = policy.get_distribution(o, action_masks=mask[None]).distribution.logits[0]
        return z.numpy()[ids]

    game, played = Game.create(["chu", "boris"]), 0
    for seed in (3, 4, 5):
        fights = [play_fight(game, (GuidedMCTS(p, sims=8, width=3, seed=seed),
                                    make_agent("greedy")), seed, record_choices=True)
                  for p in (duel_npc, torch_logits)]
        assert fights[0].choices == fights[1].choices
        played += len(fights[0].choices)
    assert played > 50
    assert GuidedMCTS(torch_logits).native_player(game) is not None


def _preferred(state: State) -> list[float]:
    """Martial Kick first, the rest tied (so in legal order)."""
    return [2.0 if c.maneuver == "Martial Kick" else 0.0 for c in state.legal_choices()]


def test_a_prior_that_prefers_one_maneuver_is_all_a_one_wide_tree_searches() -> None:
    """Width 1: the tree's only child is the prior's first, so the search plays Martial Kick
    wherever it is legal at a searched decision; width 2: the root's first child is the kick,
    both children visited."""
    one = GuidedMCTS(_preferred, sims=8, width=1, seed=1)
    two = GuidedMCTS(_preferred, sims=16, width=2, seed=1)
    met = 0
    for seed in (6, 7):
        state, greedy = make_game("chu-boris").new_state(seed), make_agent("greedy")
        while not state.is_over:
            legal, core = state.legal_choices(), scripted_core.core_of(state)
            if any(c.maneuver == "Martial Kick" for c in legal) and len(legal) > 1:
                assert one.act(state).maneuver == "Martial Kick"
                prior = search_core.prior_policy(two, state.game)
                assert legal[prior.ranked(core)[0]].maneuver == "Martial Kick"
                _, visits = _bots.mcts_counts(core, prior, None, 16, 2, 2, 0.7, 0.0, 6,
                                              search_core._draw(two))
                assert len(visits) == 2 and sum(visits) == 16 and min(visits) > 0, visits
                met += 1
            state.apply(greedy.act(state))
    assert met > 6


def test_a_python_prior_plays_the_group_scene_the_same_twice() -> None:
    """Two against one (the native network ranks duels only): a callable prior searches every
    fighter's decisions, and a seeded agent replays its fight."""
    game = make_game("two_vs_one")
    runs = [play_fight(game, [GuidedMCTS(_rotate_scores, sims=6, seed=5) for _ in range(2)],
                       12, record_choices=True) for _ in range(2)]
    assert runs[0].choices == runs[1].choices and len(runs[0].choices) > 20


def _state() -> State:
    return Game.create(["chu", "boris"]).new_state(1)


class _NoPrior:
    name = "plain"


def _raises(state: State) -> list[float]:
    raise ZeroDivisionError("the prior divided by zero")


@pytest.mark.parametrize("prior,match", [
    (lambda s: [1.0], r"its prior '<lambda>' answered \[1.0\] at turn 1, fighter 0's phase "
                      r"decision \(2 legal\): allowed 2 finite numbers, one per "
                      r"state.legal_choices\(\) entry, higher first"),
    (lambda s: [float("nan")] * len(s.legal_choices()), r"answered \[nan, nan\].*allowed 2 finite"),
    (lambda s: s.legal_choices(), r"answered \[Choice\(.*\.\.\. at turn 1.*allowed 2 finite"),
    (_raises, r"its prior '_raises' failed at turn 1, fighter 0's phase decision \(2 legal\): "
              r"ZeroDivisionError: the prior divided by zero"),
    (_NoPrior(), r"its prior 'plain' \(_NoPrior\) is not a prior the search can ask: allowed a "
                 r"learned SB3 MlpPolicy actor.*or a callable f\(state\)"),
])
def test_a_bad_prior_is_one_line_naming_it(prior, match) -> None:
    with pytest.raises(AgentError, match=match) as got:
        GuidedMCTS(prior, sims=4).act(_state())
    assert "\n" not in str(got.value)


def test_a_ranking_that_leaves_out_a_legal_choice_is_one_line() -> None:
    class Half(Rotate):
        name = "half"

        def ranked(self, state):
            return super().ranked(state)[:1]

    with pytest.raises(AgentError, match=r"'half' \(Half\) failed at .*ValueError: ranked\(state\) "
                                         r"listed 1 choices, the decision has 2 legal ones"):
        GuidedMCTS(Half(), sims=4).act(_state())


def test_a_checkpoint_path_is_the_learned_prior(duel_npc, tmp_path) -> None:
    """``GuidedMCTS(prior="…/npc.zip")`` (or its run folder) is the policy loaded: the same
    native prior, the same choices; a path without a checkpoint is one line."""
    path = duel_npc.path
    state = _state()
    for _ in range(6):
        state.apply(make_agent("greedy").act(state))
    for prior in (path, str(path)):
        guided = GuidedMCTS(prior, sims=8, seed=2)
        assert guided.prior.path == str(path)
        assert guided.act(state) == GuidedMCTS(duel_npc, sims=8, seed=2).act(state)
    (tmp_path / "npc.zip").write_bytes(open(path, "rb").read())
    assert GuidedMCTS(tmp_path).prior.path == str(tmp_path / "npc.zip")
    with pytest.raises(AgentError, match=r"prior '.*nowhere.zip': no checkpoint there; allowed a "
                                         r"checkpoint file \(\*.zip\) or a run folder"):
        GuidedMCTS(str(tmp_path / "nowhere.zip"))


def test_the_scorer_sees_a_copy_it_may_play_out() -> None:
    """The State a prior gets is a copy of the searched fight: playing it out leaves the
    search's fight as it was, and the search still chooses as with a prior that does not."""
    def greedy_then_rotate(state: State) -> list[float]:
        scores = _rotate_scores(state)
        while not state.is_over:
            state.apply(state.legal_choices()[0])
        return scores

    state = make_game("chu-urlik").new_state(2)
    for _ in range(5):
        state.apply(state.legal_choices()[0])
    before = state.legal_choices()
    a = GuidedMCTS(greedy_then_rotate, sims=8, seed=3).act(state)
    assert state.legal_choices() == before
    assert a == GuidedMCTS(_rotate_scores, sims=8, seed=3).act(state)


PLUGIN = '''
class Kicks:
    """A plug-in whose prior prefers Martial Kick (its act is never asked by the search)."""

    def act(self, state):
        return state.legal_choices()[0]

    def prior(self, state):
        return [2.0 if c.maneuver == "Martial Kick" else 0.0 for c in state.legal_choices()]
'''


def _searched_positions(n: int = 8) -> list[State]:
    state, greedy, out = make_game("chu-boris").new_state(7), make_agent("greedy"), []
    while not state.is_over and len(out) < n:
        if len(state.legal_choices()) > 1 and state.decision.kind in ("action", "reaction"):
            out.append(state.clone())
        state.apply(greedy.act(state))
    return out


def test_a_guided_spec_is_the_search_over_the_prior_its_spec_makes(duel_npc, tmp_path) -> None:
    """``guided:prior=SPEC,...`` (the CLI's and the tournaments' spec): a checkpoint, an agent
    name, a plug-in's prior(state); the same choices as GuidedMCTS built by hand, and a spec
    that rebuilds it from anywhere (the checkpoint's path absolute)."""
    from hexdojo.agents.registry import spec_of

    (tmp_path / "kicks.py").write_text(PLUGIN)
    made = make_agent(f"guided:prior={duel_npc.path},sims=8,width=3")
    assert made.sims == 8 and made.width == 3 and made.prior.path == duel_npc.path
    assert made.name == f"guided:prior={duel_npc.path},sims=8,width=3" == spec_of(made)
    pairs = [(made, GuidedMCTS(duel_npc, sims=8, width=3)),
             (make_agent("guided:prior=greedy,sims=8,width=3,c=0.5"),
              GuidedMCTS(make_agent("greedy"), sims=8, width=3, c=0.5)),
             (make_agent(f"guided:prior={tmp_path / 'kicks.py'}:Kicks,sims=8,width=1"),
              GuidedMCTS(_preferred, sims=8, width=1))]
    for state in _searched_positions():
        for a, b in pairs:
            a.reset(3)
            b.reset(3)
            assert a.act(state) == b.act(state)


@pytest.mark.parametrize("spec,match", [
    ("guided", r"agent 'guided': name the search's prior, e.g. guided:prior=runs/npc/npc.zip"),
    ("guided:prior=greedy,depth=2", r"unknown parameter 'depth'; allowed: prior, sims"),
    ("guided:prior=greedy,sims=0", r"sims=0: allowed 1..100000"),
    ("guided:prior=random", r"its prior 'random' \(RandomAgent\) is not a prior the search can ask"),
    ("guided:prior=tests", r"prior 'tests': no checkpoint there; allowed a checkpoint file"),
])
def test_a_bad_guided_spec_is_one_line(spec, match) -> None:
    with pytest.raises(AgentError, match=match) as got:
        make_agent(spec)
    assert "\n" not in str(got.value)


def test_a_learned_policy_the_core_cannot_run_is_one_line() -> None:
    """A learned policy of another shape (here a Dict observation) is named as such, with
    the way out: a callable of its logits."""
    from types import SimpleNamespace

    from gymnasium import spaces

    from hexdojo.agents.base import Agent

    class Odd(Agent):
        name = "odd"
        model = SimpleNamespace(observation_space=spaces.Dict({}), policy=None)

    with pytest.raises(AgentError, match=r"'odd' \(Odd\) is a learned policy whose network the "
                                         r"core cannot run .* a callable f\(state\) returning"):
        GuidedMCTS(Odd(), sims=4).act(_state())
