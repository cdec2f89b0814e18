"""Opponents inside the core (issue 30): the native vector env and the single env's fast path
play a scripted style (or the search) as a native player, a training pool draws among native
players and batched policies per episode, and an external policy answers every waiting slot
in one call. The native player makes the Python agent's own choices: answering the same slots
externally with ``HeuristicAgent.act`` gives the same fights, decision for decision."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from hexdojo.agents.registry import make_agent
from hexdojo.agents.training.pool import PoolOpponent
from hexdojo.envs.duel import DuelEnv
from hexdojo.envs.rules import State
from hexdojo.envs.vector_env import NativeDuelVectorEnv


class ActOnState:
    """An external policy that answers each waiting slot with a Python agent's ``act`` on
    that slot's fight (the reference the native player must equal), counting the batches."""

    def __init__(self, env: NativeDuelVectorEnv, agent: Any) -> None:
        self.env, self.agent, self.calls, self.rows = env, agent, 0, 0

    def batch_act(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        self.calls += 1
        self.rows += len(obs)
        out = []
        for k in np.flatnonzero(self.env._ext["waiting"] > 0):
            st = State.from_core(self.env.single_env.game, self.env.core.fight(int(k)))
            ch = self.agent.act(st)
            out.append(self.env.catalogue.id_for(ch))
        got = np.array(out, np.int64)
        assert masks[np.arange(len(got)), got].all()  # the mask the env hands out is exact
        return got


def _first_episodes(opponent: Any, n: int = 8, steps: int = 60, fighters=("chu", "boris")):
    """Each slot's first episode (rewards, ends) under random legal agent actions."""
    build = opponent if callable(opponent) else None
    env = NativeDuelVectorEnv(n, opponent=None if build else opponent, fighters=fighters,
                              flat_observation=True)
    if build is not None:
        env = build(env)
    env.reset(seed=3)
    rngs = [np.random.default_rng(k) for k in range(n)]  # one per slot: slot k's actions alike
    done = np.zeros(n, bool)
    trace = []
    for _ in range(steps):
        masks = env.action_masks()
        a = np.array([rng.choice(np.flatnonzero(m)) for rng, m in zip(rngs, masks, strict=True)])
        _, r, te, tr, _ = env.step(a)
        trace.append(np.where(done, 0, r).tolist())
        done |= te | tr
    return trace, done, env


def _external(agent_name: str):
    def build(env: NativeDuelVectorEnv) -> NativeDuelVectorEnv:
        env.opponent = ActOnState(env, make_agent(agent_name))
        env.set_opponent_pool()
        return env
    return build


def test_the_native_scripted_opponent_plays_the_agents_own_choices() -> None:
    """The greedy bot inside the core and HeuristicAgent.act answering from Python make the
    same choices: every slot's first episode is the same, reward for reward."""
    native, done_n, _ = _first_episodes("greedy")
    python, done_p, env = _first_episodes(_external("greedy"))
    assert done_n.all() and done_p.all()
    assert native == python
    pol = env.opponent
    assert pol.calls >= 1 and pol.rows >= pol.calls  # batches: several slots per call


def test_a_group_free_asymmetric_pairing_and_an_armed_one() -> None:
    """The same holds for an asymmetric, armed pairing (chu against the guard)."""
    native, _, _ = _first_episodes("counter", fighters=("chu", "guard"))
    python, _, _ = _first_episodes(_external("counter"), fighters=("chu", "guard"))
    assert native == python


def test_a_seed_gives_the_same_episodes_whatever_the_number_of_slots() -> None:
    """Slot k's opponent and dice come from its own generator: slots 0-3 of an 8-slot vector
    play what a 4-slot vector plays (seeded alike), against a scripted opponent."""
    eight, _, _ = _first_episodes("striker", n=8)
    four, _, _ = _first_episodes("striker", n=4)
    assert [row[:4] for row in eight] == four


def test_a_pool_draws_native_players_and_batched_policies() -> None:
    """A pool with a batched policy answers its episodes in batches; a pool of scripted bots
    only never waits; the single env plays a native opponent inside the core and a Python
    one as its external player."""
    pool = PoolOpponent(["greedy", "striker"], None, 0.0)
    players, external, policies = pool.native_pool(NativeDuelVectorEnv(2).single_env.game)
    assert len(players) == 2 and external == 0.0 and policies == []
    env = NativeDuelVectorEnv(16, opponent=pool, flat_observation=True)
    env.reset(seed=1)
    for _ in range(20):
        env.step(np.array([np.flatnonzero(m)[0] for m in env.action_masks()]))
        assert not env._ext["waiting"].any()
    assert DuelEnv(opponent="greedy")._duel.player is not None  # played inside the core
    assert DuelEnv(opponent=lambda s: s.legal_choices()[0])._duel.external  # Python only


def test_native_true_refuses_an_opponent_only_python_can_play_in_one_line() -> None:
    """Since issue 32 the vector env asks such an opponent's act (test_env_vector_python_opponents);
    native=True asks for the core's play and refuses it."""
    with pytest.raises(ValueError, match=r"^native=True: opponent .* has no native player"):
        NativeDuelVectorEnv(2, opponent=lambda s: s.legal_choices()[0], native=True)
