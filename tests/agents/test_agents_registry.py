"""Agents by name: specs, parameters, checkpoints and the errors for bad ones."""

from __future__ import annotations

import pytest

from hexdojo.agents.base import Agent, AgentError, FunctionAgent
from hexdojo.agents.mcts import MCTSAgent
from hexdojo.agents.registry import agent_names, as_agent, make_agent, parse_spec
from hexdojo.agents.scripted import HeuristicAgent, RandomAgent
from hexdojo.agents.search import SearchAgent
from hexdojo.envs.rules import Game


def test_registered_names() -> None:
    assert agent_names() == ["random", "greedy", "striker", "grappler", "counter", "search",
                             "mcts", "swordsman"]


@pytest.mark.parametrize("spec,cls,name", [
    ("random", RandomAgent, "random"),
    ("greedy", HeuristicAgent, "greedy"),
    ("Striker", HeuristicAgent, "striker"),
    ("striker:risk=2,aggression=0.8", HeuristicAgent, "striker:aggression=0.8,risk=2"),
    ("counter: aggression = 0 ", HeuristicAgent, "counter:aggression=0"),
    ("search:sims=200", SearchAgent, "search:sims=200"),
    ("mcts:c=1.5,sims=50", MCTSAgent, "mcts:c=1.5,sims=50"),
])
def test_make_agent(spec: str, cls: type, name: str) -> None:
    a = make_agent(spec)
    assert isinstance(a, cls)
    assert a.name == name


def test_parameters_reach_the_agent() -> None:
    a = make_agent("striker:aggression=0.25,risk=2")
    assert isinstance(a, HeuristicAgent)
    assert a.style.aggression == 0.25 and a.style.risk == 2
    s = make_agent("search:sims=7,width=2,horizon=3")
    assert isinstance(s, SearchAgent)
    assert (s.sims, s.width, s.horizon) == (7, 2, 3)
    m = make_agent("mcts:sims=9,width=3,horizon=1,c=0.5")
    assert isinstance(m, MCTSAgent)
    assert (m.sims, m.width, m.horizon, m.c) == (9, 3, 1, 0.5)
    assert make_agent("mcts:caution=1.5").caution == 1.5
    assert make_agent("search:caution=2").caution == 2.0
    assert make_agent("mcts").caution == 0.0


def test_risk_cap_is_obeyed() -> None:
    """risk=N caps the dice the agent ever risks."""
    g = Game.create(["chu", "chu"])
    a = make_agent("greedy:risk=2")
    for seed in range(5):
        s = g.new_state(seed)
        while not s.is_over:
            c = a.act(s)
            if s.decision.kind == "risk":
                assert c.risk <= 2
            s.apply(c)


@pytest.mark.parametrize("spec,words", [
    ("nobody", ["unknown agent 'nobody'", "random, greedy, striker, grappler, counter, search, mcts"]),
    ("striker:speed=1", ["unknown parameter 'speed'", "aggression, risk"]),
    ("striker:aggression=2", ["aggression=2", "allowed 0..1"]),
    ("striker:risk=7", ["risk=7", "allowed 0..6"]),
    ("striker:risk=two", ["'two'", "not a whole number"]),
    ("striker:risk=1.5", ["not a whole number"]),
    ("striker:risk", ["must be key=value"]),
    ("striker:risk=1,risk=2", ["given twice"]),
    ("random:seed=1", ["unknown parameter 'seed'", "allowed: none"]),
    ("search:sims=0", ["sims=0", "allowed 1..100000"]),
    ("mcts:c=11", ["c=11", "allowed 0..10"]),
    ("", ["agent spec"]),
])
def test_bad_specs_name_the_problem(spec: str, words: list[str]) -> None:
    with pytest.raises(AgentError) as e:
        make_agent(spec)
    for w in words:
        assert w in str(e.value)


def test_missing_checkpoint(tmp_path) -> None:
    with pytest.raises(AgentError, match="not found"):
        make_agent(str(tmp_path / "model.zip"))


def test_existing_checkpoint_goes_to_the_learned_hook(tmp_path) -> None:
    """A .zip that exists is handed to the learned-agent loader, whose failures are
    AgentErrors too (never a bare traceback)."""
    p = tmp_path / "bogus.zip"
    p.write_bytes(b"not a checkpoint")
    with pytest.raises(AgentError):
        make_agent(str(p))


def test_a_model_of_another_observation_layout_is_refused_clearly() -> None:
    """A checkpoint trained before the observation changed (e.g. 211 numbers) must not
    reach torch with the wrong shape: the agent names both layouts and says to retrain."""
    from types import SimpleNamespace

    from gymnasium import spaces

    from hexdojo.agents.policy import LearnedAgent
    from hexdojo.envs.catalogue import catalogue_for
    from hexdojo.envs.rules import Game

    game = Game.create(["chu", "chu"])
    n = catalogue_for(game.tables).n
    old = SimpleNamespace(observation_space=spaces.Box(0, 1, (211,)),
                          action_space=spaces.Discrete(n))
    agent = LearnedAgent(old, name="old")
    with pytest.raises(AgentError, match=f"observations of 211 numbers and {n} actions; "
                                         f"this game has 280 and {n}.*retrain"):
        agent.act(game.new_state(0))


def test_callables_and_agents_are_accepted() -> None:
    g = Game.create(["chu", "chu"])
    s = g.new_state(0)

    def first(state):
        return state.legal_choices()[0]

    fa = as_agent(first)
    assert isinstance(fa, FunctionAgent) and fa.name == "first"
    assert fa.act(s) == s.legal_choices()[0]
    ra = RandomAgent()
    assert as_agent(ra) is ra
    assert isinstance(as_agent("greedy"), Agent)
    with pytest.raises(AgentError, match="expected an Agent"):
        as_agent(42)


def test_parse_spec_types() -> None:
    name, params = parse_spec("counter:aggression=1,risk=3")
    assert name == "counter"
    assert params == {"aggression": 1.0, "risk": 3}
    assert isinstance(params["risk"], int) and isinstance(params["aggression"], float)
