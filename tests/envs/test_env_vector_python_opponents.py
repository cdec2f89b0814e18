"""The native vector env's Python opponents and ranged starts (issue 32, one step path per
env): an opponent only Python can play answers each waiting slot through its ``act`` on a
``State`` over a copy of the slot's fight, its own copy per slot, reset with the seed the core
drew for it; the same agent played inside the core and through ``act`` gives the same
episodes slot for slot. A scene whose start distance is a range draws each episode's start
in the core from the slot's generator; slot k plays the same episodes whatever the number of
slots."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from hexdojo.agents.registry import make_agent
from hexdojo.envs.rules import Choice, State
from hexdojo.envs.vector_env import NativeDuelVectorEnv

#: a two-fighter scene whose start distance is drawn (1..4 hexes) each episode
RANGED = {"name": "ranged", "start": {"distance": [1, 4]},
          "fighters": [{"fighter": "chu"}, {"fighter": "boris"}]}
PAIRINGS = {
    "chu mirror": {"fighters": ("chu", "chu")},
    "chu vs boris": {"fighters": ("chu", "boris")},
    "armed chu vs guard": {"fighters": ("chu", "guard"), "armed": True},
}


class PythonOnly:
    """An agent's ``act`` and ``reset`` without its native player: the env must ask it. Its
    copies record the seeds and the fighters they were asked for in ``log``, shared by all."""

    def __init__(self, inner: Any, log: list | None = None) -> None:
        self.inner, self.name = inner, f"python {inner.name}"
        self.log = [] if log is None else log

    def __deepcopy__(self, memo: dict) -> PythonOnly:
        """A slot's copy: its own agent (deep-copied), the test's log shared."""
        import copy

        return PythonOnly(copy.deepcopy(self.inner, memo), self.log)

    def reset(self, seed: int | None = None) -> None:
        self.log.append(("reset", seed))
        self.inner.reset(seed=seed)

    def act(self, state: State) -> Choice:
        assert isinstance(state, State)
        self.log.append(("act", id(self), state.decision.fighter))
        return self.inner.act(state)


def trace(opponent: Any, n: int = 4, steps: int = 120, seed: int = 7, **kwargs: Any):
    """Every slot's observations, masks, rewards and ends under random legal agent actions
    (slot k's actions from its own generator, so slot k's trace does not depend on ``n``),
    one list per slot; and the env."""
    env = NativeDuelVectorEnv(n, opponent=opponent, flat_observation=True, shaping=0.1, **kwargs)
    obs, info = env.reset(seed=seed)
    rngs = [np.random.default_rng(100 + k) for k in range(n)]
    out: list[list] = [[(obs[k].tobytes(), info["action_mask"][k].tobytes())] for k in range(n)]
    for _ in range(steps):
        masks = env.action_masks()
        a = np.array([r.choice(np.flatnonzero(m)) for r, m in zip(rngs, masks, strict=True)])
        obs, rew, term, trunc, info = env.step(a)
        for k in range(n):
            final = info["final_obs"][k].tobytes() if term[k] or trunc[k] else None
            out[k].append((obs[k].tobytes(), info["action_mask"][k].tobytes(), float(rew[k]),
                           bool(term[k]), bool(trunc[k]), final))
    return out, env


def ended(t: list[list]) -> int:
    return sum(row[3] for slot in t for row in slot[1:])


@pytest.mark.parametrize("pairing", sorted(PAIRINGS))
def test_native_and_python_greedy_give_the_same_episodes(pairing: str) -> None:
    """greedy inside the core, greedy through act (native player hidden) and greedy with
    native=False: the same observations, masks, rewards and ends in every slot."""
    kw = PAIRINGS[pairing]
    native, env_n = trace("greedy", **kw)
    log: list = []
    python, env_p = trace(PythonOnly(make_agent("greedy"), log), **kw)
    asked, _ = trace(make_agent("greedy"), native=False, **kw)
    assert ended(native) >= 4
    assert python == native
    assert asked == native
    assert env_p.opponent_seconds > 0 and env_p._ext["waiting"].sum() == 0
    acts = [e for e in log if e[0] == "act"]
    assert len(acts) >= 100
    assert len({e[1] for e in acts}) == 4  # one copy per slot asked, never the object passed in
    assert id(env_p.opponent) not in {e[1] for e in acts}


@pytest.mark.parametrize("name", ["striker", "random"])
def test_other_agents_play_alike_in_either_language(name: str) -> None:
    """striker and random play (whose choices draw from the seed the core gives them) too."""
    assert make_agent(name).native_player(NativeDuelVectorEnv(1).single_env.game) is not None
    native, _ = trace(make_agent(name), fighters=("chu", "boris"))  # its native player
    assert ended(native) >= 4
    assert trace(PythonOnly(make_agent(name)), fighters=("chu", "boris"))[0] == native


def test_a_python_opponent_is_reset_with_the_cores_seed_each_episode() -> None:
    """Each slot's copy is reset once per episode it plays in, with the core's opponent_seed."""
    log: list = []
    env = NativeDuelVectorEnv(2, opponent=PythonOnly(make_agent("striker"), log),
                              flat_observation=True)
    env.reset(seed=3)
    seeds = {env.core.opponent_seed(k) for k in range(2)}
    assert {e[1] for e in log if e[0] == "reset"} <= seeds and len(seeds) == 2
    t, _ = trace(PythonOnly(make_agent("striker"), log), n=2, steps=150)
    resets = [e[1] for e in log if e[0] == "reset"]
    assert len(resets) >= ended(t) and len(set(resets)) == len(resets)  # a fresh seed each


class Counting:
    """A stateful Python opponent: its n-th decision takes legal choice n (modulo), its count
    restarting at each reset. Shared by the slots it would play other episodes."""

    name = "counting"

    def __init__(self) -> None:
        self.count = 0

    def reset(self, seed: int | None = None) -> None:
        self.count = 0

    def act(self, state: State) -> Choice:
        legal = state.legal_choices()
        self.count += 1
        return legal[self.count % len(legal)]


def test_slot_k_plays_the_same_episodes_whatever_the_number_of_slots() -> None:
    """Slots 0-3 of an 8-slot vector play what a 4-slot vector plays (seeded alike), against
    stateful Python opponents (a copy per slot; random play's generator seeded by the core)
    and from a ranged start; a native player keeping state (random play) is one per slot too."""
    for kw in ({"opponent": Counting()}, {"opponent": make_agent("random")},
               {"opponent": PythonOnly(make_agent("random")), "scene": RANGED, "fighters": None}):
        four, _ = trace(n=4, **kw)
        eight, _ = trace(n=8, **kw)
        assert ended(four) >= 4
        assert eight[:4] == four


def test_a_ranged_start_is_drawn_per_episode_and_seeded() -> None:
    """A ranged scene: the same seed, the same episodes; another seed, others; over the
    episodes every distance of the range is drawn, and each slot starts where the core says."""
    a, env = trace(None, n=8, steps=200, scene=RANGED, fighters=None)
    b, _ = trace(None, n=8, steps=200, scene=RANGED, fighters=None)
    c, _ = trace(None, n=8, steps=200, seed=8, scene=RANGED, fighters=None)
    assert a == b and a != c
    starts = set()
    env.reset(seed=0)
    for _ in range(300):
        env.step(np.array([np.flatnonzero(m)[0] for m in env.action_masks()]))
        starts.update(env.core.start(k) for k in range(8))
    assert starts == {0, 1, 2, 3}  # distances 1..4


def test_an_illegal_python_choice_is_one_line_naming_the_slot() -> None:
    """A Python opponent answering a choice that is not legal now: one ValueError line with
    the slot, the opponent, the fighter and the choice."""
    def bad(state: State) -> Any:
        return "Strike"

    with pytest.raises(ValueError, match=r"^slot \d: opponent '.*bad.*' \(fighter \d\) returned "
                                         r"'Strike': not a legal choice now \(a str, not a Choice"):
        trace(bad, n=2, steps=20)

    def stale(state: State) -> Choice:  # a legal choice of another decision (the first's)
        stale.first = getattr(stale, "first", None) or state.legal_choices()[-1]
        return stale.first

    with pytest.raises(ValueError) as got:
        trace(stale, n=2, steps=40)
    assert "\n" not in str(got.value) and "not a legal choice now" in str(got.value)
