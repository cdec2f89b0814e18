"""The native search's learned prior (issue 32: "one search: the native search takes a
prior"; issue 33, section 3: the master level's shape, GuidedMCTS, inside the core).

The prior's network is copied out of torch once (``search_core.actor_layers``) and run by
the core on its own observation: its logits must be torch's (up to the log-softmax's constant)
at every decision, for a duel NPC of either scaling and activation and for the general NPC
(both sheets appended). The native GuidedMCTS's choices are pinned
(``tests/agents/search_fights.py``: recorded while the Python tree still existed, equal to its
choices for a duel NPC, with and without an opponent model).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from hexdojo.agents import _bots, scripted_core, search_core  # noqa: E402
from hexdojo.agents.base import AgentError  # noqa: E402
from hexdojo.agents.guided import GuidedMCTS  # noqa: E402
from hexdojo.agents.policy import LearnedAgent  # noqa: E402
from hexdojo.agents.registry import make_agent  # noqa: E402
from hexdojo.agents.tournament import play_fight  # noqa: E402
from hexdojo.envs.rules import Game  # noqa: E402

from . import search_fights as sf  # noqa: E402

GENERAL = Path(__file__).parents[2] / "agents" / "data" / "general_npc.zip"


def _model(tmp_path: Path, scale: str, activation: str) -> LearnedAgent:
    import torch
    from sb3_contrib import MaskablePPO

    from hexdojo.envs.duel import DuelEnv

    env = DuelEnv(fighters=["chu", "boris"], flat_observation=True, observation_scale=scale)
    act = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[activation]
    path = tmp_path / f"npc_{scale}_{activation}.zip"
    MaskablePPO("MlpPolicy", env, seed=3, policy_kwargs={"net_arch": [32, 16],
                                                          "activation_fn": act}).save(str(path))
    return LearnedAgent.load(path)


def _torch_logits(agent: LearnedAgent, state) -> np.ndarray:
    """The actor's logits of the legal choices (legal order), shifted to max 0."""
    import torch

    from hexdojo.envs.sheets import general_inputs

    if agent.general:
        obs, mask, _, ids, _ = general_inputs(state)
    else:
        obs, mask, _, ids = agent.duel_inputs(state)
    policy = agent.model.policy
    with torch.no_grad():
        o, _ = policy.obs_to_tensor(obs)
        z = policy.get_distribution(o, action_masks=mask[None]).distribution.logits[0].numpy()
    z = z[ids].astype(np.float64)
    return z - z.max()


def _check_fight(agent: LearnedAgent, fighters: list[str], seed: int) -> int:
    game = Game.create(fighters)
    prior = search_core.prior_policy(GuidedMCTS(agent), game)
    assert prior is not None
    state, greedy, n = game.new_state(seed), make_agent("greedy"), 0
    while not state.is_over:
        z = np.asarray(prior.legal_logits(scripted_core.core_of(state)), np.float64)
        assert np.allclose(z - z.max(), _torch_logits(agent, state), atol=1e-4), state.decision
        state.apply(greedy.act(state))
        n += 1
    return n


@pytest.mark.parametrize("scale,activation", [("unit", "tanh"), ("raw", "relu")])
def test_a_duel_npcs_native_logits_are_torchs(tmp_path, scale, activation) -> None:
    assert _check_fight(_model(tmp_path, scale, activation), ["chu", "boris"], 5) > 20


@pytest.mark.parametrize("fighters", [["chu", "boris"], ["chu", "urlik"]])
def test_the_general_npcs_native_logits_are_torchs(fighters) -> None:
    """Armed or not, the general NPC reads the armed layout plus both sheets (envs/sheets.py)
    from the decider's side."""
    agent = LearnedAgent.load(GENERAL)
    assert sum(_check_fight(agent, fighters, seed) for seed in (2, 3)) > 20


@pytest.mark.parametrize("model,key", [(None, "guided duel"), ("greedy", "guided duel model greedy"),
                                       ("random", "guided duel model random")])
def test_the_guided_search_is_pinned(tmp_path, model, key) -> None:
    """A duel NPC's prior, alone or with a scripted or random opponent model."""
    digest, tally = sf.guided(sf.duel_prior(tmp_path), model)
    assert digest == sf.PINNED[key], tally
    assert tally["searched"] > 25 and tally["changed"] > 20, tally


def test_the_general_npcs_guided_search_is_pinned() -> None:
    digest, tally = sf.guided(LearnedAgent.load(GENERAL))
    assert digest == sf.PINNED["guided general"] and tally["searched"] > 15, tally


def test_a_styled_prior_ranks_as_the_styled_policy_plays(tmp_path) -> None:
    """A style lean (``LearnedAgent.style``, ``style_bias``): each legal choice's logit moves
    by ``style_bias * style_move`` (the judgement of agents/style.py, handed to the core as
    a table), so the ranking's first is the styled policy's own choice; the guided search's
    choices are pinned and differ from the unstyled ones."""
    from hexdojo.agents.style import style_move

    plain = sf.duel_prior(tmp_path)
    styled = LearnedAgent.load(tmp_path / "npc_duel.zip")
    styled.style, styled.style_bias = "striker", 2.0
    game = Game.create(["chu", "boris"])
    leaned_prior = search_core.prior_policy(GuidedMCTS(styled), game)
    plain_prior = search_core.prior_policy(GuidedMCTS(plain), game)
    state, greedy, leaned = game.new_state(5), make_agent("greedy"), 0
    while not state.is_over:
        core = scripted_core.core_of(state)
        lean = [2.0 * style_move(state, c, "striker") for c in state.legal_choices()]
        moved = np.subtract(leaned_prior.legal_logits(core), plain_prior.legal_logits(core))
        assert np.allclose(moved, lean, atol=1e-5), state.decision
        assert state.legal_choices()[leaned_prior.ranked(core)[0]] == styled.act(state)
        leaned += any(lean)
        state.apply(greedy.act(state))
    assert leaned > 5
    digest = sf.guided(styled)[0]
    assert digest == sf.PINNED["guided duel styled"] != sf.PINNED["guided duel"]


def test_a_guided_search_plays_whole_fights_inside_the_core() -> None:
    """The tournament's fast path takes it (a native player), and a fight replays the same."""
    game = Game.create(["chu", "boris"])
    guided = GuidedMCTS(LearnedAgent.load(GENERAL), sims=8, width=3)
    assert guided.native_player(game) is not None
    one = play_fight(game, (guided, make_agent("greedy")), 11, record_choices=True)
    two = play_fight(game, (guided, make_agent("greedy")), 11, record_choices=True)
    assert one.choices and one.choices == two.choices and one.winner == two.winner


def test_what_the_native_search_cannot_run_is_one_line(tmp_path) -> None:
    """A group fight for the network (a Python prior plays groups:
    test_search_callable_prior.py), a prior that is neither a network nor a Python prior, an
    opponent model without a native form: one AgentError line each."""
    from hexdojo.agents.base import Agent

    class Plain(Agent):
        name = "plain"

        def act(self, state):
            return state.legal_choices()[0]

    game = Game.create(["chu", "boris"])
    with pytest.raises(AgentError, match="ranks duel decisions; this fight has 3 fighters"):
        GuidedMCTS(LearnedAgent.load(GENERAL)).act(Game.create(["chu", "boris", "urlik"]).new_state(1))
    with pytest.raises(AgentError, match="'plain' .* is not a prior the search can ask: allowed "
                                         "a learned SB3 MlpPolicy actor"):
        GuidedMCTS(Plain()).act(game.new_state(1))
    modelled = GuidedMCTS(LearnedAgent.load(GENERAL), opponent_model=Plain())
    with pytest.raises(AgentError, match="opponent model 'plain' .* no native form"):
        modelled.native_player(game)


def test_a_network_that_does_not_fit_is_one_line() -> None:
    from hexdojo.envs.observation import encoder_for
    from hexdojo.envs.observation_layout import native_layout
    from hexdojo.envs.rules import _core
    from hexdojo.envs.rules.to_core import compile_tables

    game = Game.create(["chu", "boris"])
    enc = encoder_for(game)
    cat = _core.Catalogue(compile_tables(game.tables), enc.armed)
    rollout = _bots.FirstChoicePolicy()
    w = np.zeros((4, enc.size + 1), np.float32)
    with pytest.raises(ValueError, match=r"layer 0: takes \d+ inputs, the previous gives \d+"):
        _bots.PriorPolicy(rollout, cat, native_layout(enc), [], [], [],
                          [(w, np.zeros(4, np.float32), "tanh")])
    w = np.zeros((cat.n, enc.size), np.float32)
    with pytest.raises(ValueError, match="activation 'gelu': allowed tanh, relu, none"):
        _bots.PriorPolicy(rollout, cat, native_layout(enc), [], [], [],
                          [(w, np.zeros(cat.n, np.float32), "gelu")])
    with pytest.raises(ValueError, match="gives 3 logits, the catalogue has"):
        _bots.PriorPolicy(rollout, cat, native_layout(enc), [], [], [],
                          [(np.zeros((3, enc.size), np.float32), np.zeros(3, np.float32), "none")])
