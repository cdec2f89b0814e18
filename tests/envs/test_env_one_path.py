"""One step path for the single duel env (issue 32): every opponent of ``DuelEnv`` plays in
the core. A native player is played inside it; a Python opponent is the slot's external
player, asked on a ``State`` over a copy of the fight and answered with the choice's id.
Both are seeded alike (the core draws the opponent's seed after the episode's dice), so the
same agent played natively and through its Python ``act`` gives the same episodes:
observations, rewards, actions and event logs, whatever the pairing, the catalogue or a
start that rolls dice."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from hexdojo.agents.registry import make_agent
from hexdojo.envs import duel_core
from hexdojo.envs.duel import DuelEnv
from hexdojo.envs.fight_env import FightEnv
from hexdojo.envs.observation import ObservationEncoder
from hexdojo.envs.rules import Choice, State
from hexdojo.envs.rules import hexgrid as hx

#: a two-fighter scene whose start distance is drawn (1..4 hexes) each episode
RANGED = {"name": "ranged", "start": {"distance": [1, 4]},
          "fighters": [{"fighter": "chu"}, {"fighter": "boris"}]}
PAIRINGS = {
    "chu mirror": {"fighters": ("chu", "chu")},
    "chu vs boris": {"fighters": ("chu", "boris")},
    "armed": {"fighters": ("chu", "guard"), "armed": True},
    "ranged start": {"scene": RANGED, "fighters": None},
}


class PythonOnly:
    """An agent with its ``act`` and ``reset`` but no native player: the core must ask it."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.name = inner, f"python {inner.name}"
        self.seeds: list[int] = []
        self.fighters: list[int] = []

    def reset(self, seed: int | None = None) -> None:
        self.seeds.append(seed)
        self.inner.reset(seed=seed)

    def act(self, state: State) -> Choice:
        assert isinstance(state, State)
        self.fighters.append(state.decision.fighter)
        return self.inner.act(state)


def episodes(opponent: Any, native: bool | None, n: int = 2, seed: int = 5, **kwargs: Any):
    """``n`` seeded episodes of random legal agent actions: every observation, reward,
    action and the event log; and the env."""
    env = DuelEnv(opponent=opponent, native=native, flat_observation=True, shaping=0.1, **kwargs)
    act = np.random.default_rng(seed)
    out = []
    obs, info = env.reset(seed=seed)
    for _ in range(n):
        trace = [(obs.tobytes(), info["action_mask"].tobytes(), env.side)]
        while True:
            a = int(act.choice(np.flatnonzero(info["action_mask"])))
            obs, r, term, trunc, info = env.step(a)
            trace.append((a, obs.tobytes(), info["action_mask"].tobytes(), r, term, trunc))
            if term or trunc:
                break
        out.append((trace, env.fight.events))
        obs, info = env.reset()
    return out, env


@pytest.mark.parametrize("pairing", sorted(PAIRINGS))
@pytest.mark.parametrize("name", ["greedy", "striker", "random"])
def test_the_same_agent_plays_the_same_episodes_natively_and_from_python(name: str, pairing: str) -> None:
    kwargs = PAIRINGS[pairing]
    native, env_n = episodes(make_agent(name), None, **kwargs)
    python, env_p = episodes(make_agent(name), False, **kwargs)
    assert env_n._duel.player is not None and env_p._duel.external
    assert native == python
    assert sum(len(t) for t, _ in native) > 4  # the agent decided more than once
    hidden, env_h = episodes(PythonOnly(make_agent(name)), None, **kwargs)  # no native_player
    assert env_h._duel.external and hidden == native
    assert env_n.opponent_seconds == 0.0 < env_p.opponent_seconds


def test_a_python_opponent_is_reset_once_per_episode_with_the_cores_seed() -> None:
    opp = PythonOnly(make_agent("greedy"))
    _, env = episodes(opp, None, n=4, fighters=("chu", "boris"))
    assert len(opp.fighters) > 4
    # one reset per episode the core began (restarts included), with the seed it drew
    assert len(opp.seeds) == env._duel.core.episode(0) >= 5
    assert opp.seeds[-1] == env._duel.core.opponent_seed(0) and len(set(opp.seeds)) == len(opp.seeds)


def test_the_opponent_is_always_the_fighter_to_move() -> None:
    seen: list[tuple[int, int]] = []

    def first_legal(state: State) -> Choice:
        seen.append((state.decision.fighter, env.side))
        return state.legal_choices()[-1]

    env = DuelEnv(opponent=first_legal, fighters=("chu", "boris"))
    for seed in range(4):
        _, info = env.reset(seed=seed)
        for _ in range(5):
            _, _, term, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            if term:
                break
    assert len(seen) > 10 and all(f == 1 - side for f, side in seen)


@pytest.mark.parametrize("bad", ["not legal", "a string", "the agent's own"])
def test_an_illegal_opponent_choice_is_one_clear_line(bad: str) -> None:
    def cheat(state: State) -> Any:
        me = state.decision.fighter
        if bad == "a string":
            return "punch"
        legal = set(state.legal_choices())
        cat = env.catalogue.choices_for(me if bad == "not legal" else 1 - me)
        return next(c for c in cat if c not in legal)

    cheat.name = "cheat"  # type: ignore[attr-defined]
    env = DuelEnv(opponent=cheat, agent_side=0, fighters=("chu", "boris"))
    with pytest.raises(ValueError) as e:
        for seed in range(20):  # until the opponent has a decision
            _, info = env.reset(seed=seed)
            for _ in range(10):
                env.step(int(np.flatnonzero(info["action_mask"])[0]))
    msg = str(e.value)
    assert "\n" not in msg and "opponent 'cheat' (fighter 1) returned" in msg and "not a legal choice" in msg
    assert ("'punch'" in msg) if bad == "a string" else "Choice(" in msg


def test_the_python_path_is_gone(monkeypatch: pytest.MonkeyPatch) -> None:
    """DuelEnv never steps a fight in Python nor encodes its observation there: the Python
    step path (FightEnv's, SkirmishEnv's) and the Python encoder may raise."""
    def boom(*_: Any, **__: Any) -> Any:
        raise AssertionError("DuelEnv took the Python path")

    for name in ("_run_others", "reset", "step", "_observe"):
        monkeypatch.setattr(FightEnv, name, boom)
    monkeypatch.setattr(ObservationEncoder, "encode_with_mask", boom)
    assert not issubclass(DuelEnv, FightEnv)
    for opponent, native in ((lambda s: s.legal_choices()[0], None), ("greedy", False),
                             ("greedy", None), (None, False)):
        got, _ = episodes(opponent, native, n=2, fighters=("chu", "boris"))
        assert len(got) == 2


def test_a_ranged_start_is_drawn_per_episode_in_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """A scene's distance range: each reset draws the start's dice from ``np_random`` and
    sets the core's prototype to it; the same seed, the same start."""
    drawn: list[int] = []
    real = duel_core.unstarted_fight

    def spy(game: Any, start: Any = None) -> Any:
        if start is not None:
            (a, _), (b, _) = game.start_positions(copy.deepcopy(start))
            drawn.append(hx.distance(a, b))
        return real(game, start)

    monkeypatch.setattr(duel_core, "unstarted_fight", spy)
    env = DuelEnv(scene=RANGED, fighters=None)
    for seed in range(24):
        env.reset(seed=seed)
    first = list(drawn)
    assert set(first) == {1, 2, 3, 4}
    for seed in range(24):
        env.reset(seed=seed)
    assert drawn[24:] == first
    fixed = DuelEnv(scene="duel_3", fighters=None)
    fixed.reset(seed=0)
    assert len(drawn) == 48  # a fixed start keeps its one prototype


def python_digest(seed: int) -> str:
    """Hash of seeded episodes against a Python opponent (greedy through its act)."""
    got, _ = episodes("greedy", False, n=2, seed=seed, fighters=("chu", "boris"))
    h = hashlib.sha256()
    for trace, events in got:
        h.update(repr(trace).encode() + json.dumps(events, sort_keys=True).encode())
    return h.hexdigest()


@pytest.mark.slow
def test_a_python_opponent_is_deterministic_whatever_the_hash_seed() -> None:
    code = "from tests.envs.test_env_one_path import python_digest; print(python_digest(21))"
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    outs = set()
    for hs in ("0", "4242"):
        res = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                             check=True, env={**os.environ, "PYTHONHASHSEED": hs})
        outs.add(res.stdout.strip())
    assert outs == {python_digest(21)}
