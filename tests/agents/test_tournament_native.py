"""The tournament's fast path (issue 15): a fight between agents that all have a native
player is played inside the core in one call (``tournament.play_native``), and must give the
very record the Python path gives: winner, reason, turns, decisions, each side's maneuver
usage and chains with their event spans, and the choices themselves."""

from __future__ import annotations

import pytest

from hexdojo.agents.registry import make_agent
from hexdojo.agents.tournament import (
    TournamentConfig,
    play_fight,
    play_native,
    run_tournament,
)
from hexdojo.envs.rules import Game

PAIRINGS = [
    (("chu", "chu"), None, ("greedy", "striker")),
    (("boris", "urlik"), None, ("grappler", "counter")),
    (("guard", "spearman"), None, ("swordsman", "greedy")),
    (None, "rider_vs_foot", ("greedy", "grappler")),
    (None, "two_vs_one", ("striker", "counter")),
    (("chu", "cogan"), None, ("random", "greedy")),
    (("novice", "chu"), None, ("random", "random")),
]


def _game(fighters, scene):
    return Game.from_scene(scene) if scene else Game.create(list(fighters))


def _record(game, agents, seed, monkeypatch, native):
    monkeypatch.setenv("HEXDOJO_NATIVE_AGENTS", "1" if native else "0")
    return play_fight(game, agents, seed, record_choices=True)


@pytest.mark.parametrize(("fighters", "scene", "names"), PAIRINGS)
def test_native_fights_give_the_python_record(fighters, scene, names, monkeypatch):
    game = _game(fighters, scene)
    agents = [make_agent(n) for n in names]
    chains = 0
    for seed in range(6):
        fast = _record(game, agents, seed, monkeypatch, native=True)
        ref = _record(game, agents, seed, monkeypatch, native=False)
        assert fast == ref, (names, seed)
        chains += sum(sum(c.values()) for c in fast.chains)
    assert chains > 0 or scene == "rider_vs_foot"  # the chains' record is compared too


def test_native_random_play_draws_numpys_numbers():
    """RandomPlayer = RandomAgent: default_rng(seed).integers(n), call after call."""
    import numpy as np

    from hexdojo.agents._bots import RandomPlayer

    game = Game.create(["chu", "chu"])
    for seed in (0, 1, 2**31 + 5, 4_000_000_000):
        rng, player = np.random.default_rng(seed), RandomPlayer()
        player.reset(seed)
        s = game.new_state(seed)
        while not s.is_over:
            n = len(s.legal_choices())
            k = player.act(s._core)
            assert k == int(rng.integers(n))
            s.apply(s.legal_choices()[k])


def test_native_agent_seeds_are_the_tournaments():
    from hexdojo.agents._bots import agent_seed as native_seed
    from hexdojo.agents.tournament import agent_seed

    for seed in (0, 1, 7919, 2**32 - 1, 2**32, 2**40 + 3, 2**62 - 1, *range(100, 140)):
        for side in (0, 1):
            assert native_seed(seed, side) == agent_seed(seed, side), (seed, side)


def test_the_fast_path_is_taken_only_where_every_agent_is_native(monkeypatch):
    game = Game.create(["chu", "chu"])
    monkeypatch.delenv("HEXDOJO_NATIVE_AGENTS", raising=False)
    assert play_native(game, [make_agent("greedy"), make_agent("counter")], 1, False) is not None
    learned_like = make_agent("greedy")
    learned_like.native_player = lambda game: None  # e.g. a learned policy: no native form
    assert play_native(game, [make_agent("greedy"), learned_like], 1, False) is None
    monkeypatch.setenv("HEXDOJO_NATIVE_AGENTS", "0")  # the Python loop asked for
    assert play_native(game, [make_agent("greedy"), make_agent("counter")], 1, False) is None


def test_a_round_robin_is_the_same_on_both_paths(monkeypatch):
    cfg = TournamentConfig(("greedy", "striker", "grappler"), fights=4, fighters=("chu", "boris"))
    monkeypatch.setenv("HEXDOJO_NATIVE_AGENTS", "0")
    ref = run_tournament(cfg)
    monkeypatch.setenv("HEXDOJO_NATIVE_AGENTS", "1")
    fast = run_tournament(cfg)
    assert fast.fights == ref.fights
    assert fast.usage == ref.usage and fast.chains == ref.chains
