"""The learned policy as the MCTS agent's prior (issue 14: the strongest level's shape)."""

from __future__ import annotations

import pytest

pytest.importorskip("sb3_contrib")

from hexdojo.agents import scripted_core, search_core  # noqa: E402
from hexdojo.agents.base import AgentError  # noqa: E402
from hexdojo.agents.guided import GuidedMCTS  # noqa: E402
from hexdojo.agents.levels import build  # noqa: E402
from hexdojo.agents.policy import LearnedAgent  # noqa: E402
from hexdojo.agents.registry import make_agent  # noqa: E402
from hexdojo.envs.rules import Game  # noqa: E402


@pytest.fixture(scope="module")
def npc(tmp_path_factory):
    from sb3_contrib import MaskablePPO

    from hexdojo.envs.duel import DuelEnv

    env = DuelEnv(fighters=["chu", "boris"], turn_limit=6, flat_observation=True,
                  observation_scale="unit")
    path = tmp_path_factory.mktemp("run") / "npc.zip"
    MaskablePPO("MlpPolicy", env, seed=1, policy_kwargs={"net_arch": [16]}).save(str(path))
    return path


def _positions(n: int = 25):
    """States at searched decisions of a seeded greedy fight."""
    state = Game.create(["chu", "boris"], radius=4, turn_limit=6).new_state(4)
    greedy, out = make_agent("greedy"), []
    while not state.is_over and len(out) < n:
        if state.decision.kind in ("action", "reaction", "follow_on") and \
                len(state.legal_choices()) > 1:
            out.append(state.clone())
        state.apply(greedy.act(state))
    return out


def test_the_ranking_is_the_legal_choices_most_probable_first(npc) -> None:
    """The search's prior (``_bots.PriorPolicy``) ranks every legal choice once, the
    deterministic policy's own choice first."""
    agent = LearnedAgent.load(npc)
    for s in _positions():
        prior = search_core.prior_policy(GuidedMCTS(agent), s.game)
        ranked = prior.ranked(scripted_core.core_of(s))
        assert sorted(ranked) == list(range(len(s.legal_choices())))
        assert s.legal_choices()[ranked[0]] == agent.act(s)


def test_a_one_child_tree_plays_the_policys_choice(npc) -> None:
    """With width 1 the tree's only child is the prior's first choice: the search adds
    nothing, so the agent must play exactly what the policy plays."""
    agent = LearnedAgent.load(npc)
    guided = GuidedMCTS(agent, sims=4, width=1)
    for s in _positions():
        assert guided.act(s) == agent.act(s)


def test_a_level_with_search_is_the_policy_inside_mcts(npc) -> None:
    root = npc.parent
    lv = build(root, {"agent": "npc.zip", "options": {"search": 8}}, "run:master", make_agent)
    assert isinstance(lv, GuidedMCTS) and lv.sims == 8 and lv.name == "run:master"
    s = _positions(1)[0]
    assert lv.act(s) in s.legal_choices()
    with pytest.raises(AgentError, match="search=0.*1..100000"):
        build(root, {"agent": "npc.zip", "options": {"search": 0}}, None, make_agent)
    with pytest.raises(AgentError, match="not a learned policy"):
        build(root, {"agent": "greedy", "options": {"search": 8}}, None, make_agent)


def test_the_master_script_replays_a_fight_the_same(npc) -> None:
    """scripts/master_vs_mcts.py: fight k is seeded by k alone (any worker count gives the
    same score), and a searched fight is the same fight when played again."""
    import importlib.util
    from pathlib import Path

    from hexdojo.agents.checkpoint_meta import npc_meta, write_meta
    from hexdojo.agents.training.config import load_config
    from hexdojo.agents.training.ppo import train_game

    root = npc.parent
    cfg = load_config(overrides={"turn_limit": 4})
    write_meta(npc, npc_meta(cfg, train_game(cfg), 0))  # the script reads the sidecar
    path = Path(__file__).parents[2] / "scripts" / "master_vs_mcts.py"
    spec = importlib.util.spec_from_file_location("master_vs_mcts", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod._init(str(root), 4, 2, None, "random")
    first = [mod._fight(k) for k in (3, 0, 1)]
    mod._init(str(root), 4, 2, None, "random")
    assert [mod._fight(k) for k in (0, 1, 3)] == [first[1], first[2], first[0]]
    assert set(first) <= {0.0, 0.5, 1.0}
