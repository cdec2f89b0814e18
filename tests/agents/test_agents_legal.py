"""Every agent only ever returns legal choices (property test over many random states)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexdojo.agents.registry import make_agent
from hexdojo.agents.tournament import play_fight
from hexdojo.envs.rules import Game, preset_names

from ..conftest import play_random

AGENTS = ["random", "greedy", "striker", "grappler", "counter",
          "striker:aggression=0,risk=0", "counter:aggression=1,risk=6",
          "search:sims=4,width=3,horizon=1", "mcts:sims=4,width=3,horizon=1"]
PRESETS = preset_names()
_GAMES: dict[tuple[str, str], Game] = {}


def game(a: str, b: str) -> Game:
    if (a, b) not in _GAMES:
        _GAMES[(a, b)] = Game.create([a, b])
    return _GAMES[(a, b)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    a=st.sampled_from(PRESETS),
    b=st.sampled_from(PRESETS),
    seed=st.integers(0, 10_000),
    walk=st.integers(0, 120),
)
def test_every_agent_returns_a_legal_choice(a: str, b: str, seed: int, walk: int) -> None:
    """Random legal play for ``walk`` decisions reaches a state; each agent must answer it
    (and the next few states along its own line of play) with a legal choice."""
    s = game(a, b).new_state(seed)
    play_random(s, seed, walk)
    if s.is_over:
        return
    for spec in AGENTS:
        agent = make_agent(spec)
        agent.reset(seed)
        c = s.clone()
        for _ in range(6):
            if c.is_over:
                break
            choice = agent.act(c)
            assert c.why_illegal(choice) is None, (spec, c.decision, choice)
            assert choice in c.legal_choices()
            c.apply(choice)


@settings(max_examples=12, deadline=None)
@given(
    a=st.sampled_from(PRESETS),
    b=st.sampled_from(PRESETS),
    seed=st.integers(0, 10_000),
    pair=st.sampled_from([("greedy", "grappler"), ("striker", "counter"),
                          ("random", "counter"), ("grappler", "striker")]),
)
def test_scripted_fights_finish_with_legal_play(a: str, b: str, seed: int,
                                               pair: tuple[str, str]) -> None:
    """Whole fights between scripted styles run to a result (play_fight checks legality)."""
    rec = play_fight(game(a, b), [make_agent(pair[0]), make_agent(pair[1])], seed)
    assert rec.reason in ("last standing", "turn limit")
    assert rec.decisions > 0
