"""Environment speed: random legal play through hexdojo/Duel-v0 and PettingZoo's
connect_four_v3 in the same process, on one core.

Both loops do the same work per step: read the mask the environment hands out (Duel-v0:
``info["action_mask"]``; connect four: ``env.last()``'s ``obs["action_mask"]``, which
builds its observation), pick a uniformly random legal action with the same numpy code,
and step. Duel-v0 is made with ``gymnasium.make`` (default wrappers), as users make it;
its observation (the ``Dict``) and mask are computed on every step. Three Duel measures,
each as a ratio to connect_four_v3 measured in the same rounds: the env against the random
opponent, played in the core (``envs/duel_core.py``), with the ``Dict`` and with the flat
observation (``flat_observation=True``); and against a Python opponent (issue 32: the random
agent asked through its ``act`` on a ``State`` of each of its decisions, ``native=False``;
the ``Dict``). Besides: engine decisions per Duel-v0 step (the agent's and the opponent's)
and the rules API's bare speed (``State.apply`` over ``legal_choices``, no env), for scale.

    python scripts/bench_env.py            # prints steps/s of all and the ratios
    python scripts/bench_env.py --steps 50000 --rounds 5 --json
    python scripts/bench_env.py --floors   # also the floors of a fast-path step (below)

The floors (``--floors``, same loop, same rounds): a no-op Gymnasium env with the duel's
spaces made through ``gymnasium.make`` (what the loop and ``env.step`` cost with no env
behind them: the highest ratio any env reaches here), and the fast path's core call alone
(``step_bound``: the agent's choice, the opponent's, observation and mask) with the pick.

connect_four_v3 imports pygame at module level but only draws with it; where pygame is
not installed a stub module stands in (nothing here renders).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import types
from typing import Any


def _pin_one_core() -> str:
    try:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to cpu {cpu}"
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return "not pinned"


def _connect_four():
    try:
        import pygame  # noqa: F401
    except ImportError:
        sys.modules["pygame"] = types.ModuleType("pygame")
    from pettingzoo.classic import connect_four_v3

    return connect_four_v3


def bench_duel(steps: int, seed: int, fighters: tuple[str, str] | None = None,
               env_id: str = "hexdojo/Duel-v0", native: bool | None = None,
               flat: bool = False, opponent: Any = None) -> float:
    """Env steps/s of ``env_id`` (default hexdojo/Duel-v0; ``fighters``: None for the id's
    own) under random legal actions (obs + mask included); ``native``: DuelEnv's option
    (None: the core plays an opponent it can), ``flat``: ``flat_observation``, ``opponent``:
    DuelEnv's (None: the core's random play)."""
    import gymnasium as gym

    import hexdojo.envs  # noqa: F401 - registers the env

    kw: dict = {"native": native, "flat_observation": flat, "opponent": opponent}
    env = gym.make(env_id, **kw, **({} if fighters is None else {"fighters": fighters}))
    return bench_duel_env(env, steps, seed)


def bench_python_opponent(steps: int, seed: int, fighters: tuple[str, str]) -> float:
    """bench_duel against the random agent asked from Python (``native=False``: its ``act``
    on a ``State`` over a copy of the fight at each of its decisions)."""
    from hexdojo.agents.registry import make_agent

    return bench_duel(steps, seed, fighters, native=False, opponent=make_agent("random"))


def _noop_env_id(size: int, n: int) -> str:
    """A registered no-op env with a flat observation of ``size`` and ``n`` masked actions."""
    import gymnasium as gym
    import numpy as np

    class Noop(gym.Env):
        observation_space = gym.spaces.Box(-1.0, 1.0, (size,), np.float32)
        action_space = gym.spaces.Discrete(n)

        def __init__(self) -> None:
            self.obs, self.mask = np.zeros(size, np.float32), np.ones(n, np.int8)

        def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple:
            super().reset(seed=seed)
            return self.obs.copy(), {"action_mask": self.mask.copy()}

        def step(self, action: int) -> tuple:
            return self.obs.copy(), 0.0, False, False, {"action_mask": self.mask.copy()}

    env_id = f"bench/Noop-{size}-{n}-v0"
    if env_id not in gym.registry:
        gym.register(env_id, entry_point=Noop, disable_env_checker=True)
    return env_id


def bench_floors(steps: int, seed: int, fighters: tuple[str, str]) -> dict[str, float]:
    """Steps/s of a no-op env (gymnasium.make, the duel's spaces) and of the fast path's
    core call with the pick (no env around it), in the same loop as bench_duel."""
    import gymnasium as gym
    import numpy as np

    import hexdojo.envs  # noqa: F401 - registers the env

    duel = gym.make("hexdojo/Duel-v0", native=True, flat_observation=True,
                    fighters=fighters).unwrapped
    noop = gym.make(_noop_env_id(duel.encoder.size, duel.catalogue.n))
    out = {"noop": bench_duel_env(noop, steps, seed)}
    fast, rng = duel._duel, np.random.default_rng(seed)
    rand, flatnonzero = rng.random, np.flatnonzero
    fast.reset(rng, 0)
    core, mask = fast.core, fast.mask_row
    t0 = time.perf_counter()
    for _ in range(steps):
        ids = flatnonzero(mask)
        over, _ = core.step_bound(int(ids[int(rand() * len(ids))]))
        if over:
            fast.reset(rng, 0)
    out["core"] = steps / (time.perf_counter() - t0)
    return out


def bench_duel_env(env: Any, steps: int, seed: int) -> float:
    """bench_duel's loop over a made env."""
    import numpy as np

    rng = np.random.default_rng(seed)
    rand, flatnonzero = rng.random, np.flatnonzero
    _, info = env.reset(seed=seed)
    t0 = time.perf_counter()
    for _ in range(steps):
        ids = flatnonzero(info["action_mask"])
        _, _, term, trunc, info = env.step(ids[int(rand() * len(ids))])
        if term or trunc:
            _, info = env.reset()
    return steps / (time.perf_counter() - t0)


def bench_connect_four(steps: int, seed: int) -> float:
    """Env steps/s of connect_four_v3 (AEC, wrapped as env()) under random legal actions."""
    import numpy as np

    c4 = _connect_four()
    env = c4.env()
    rng = np.random.default_rng(seed)
    rand = rng.random
    flatnonzero = np.flatnonzero
    env.reset(seed=seed)
    done = 0
    t0 = time.perf_counter()
    while done < steps:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.reset()
            continue
        ids = flatnonzero(obs["action_mask"])
        env.step(int(ids[int(rand() * len(ids))]))
        done += 1
    return steps / (time.perf_counter() - t0)


def decisions_per_step(steps: int, seed: int, fighters: tuple[str, str]) -> float:
    """Engine decisions per Duel-v0 step (the agent's plus the random opponent's), counted
    in an untimed pass."""
    import numpy as np

    from hexdojo.envs.duel import DuelEnv

    rng = np.random.default_rng(seed)
    calls = [0]

    def counting_random(state):
        calls[0] += 1
        legal = state.legal_choices()
        return legal[int(rng.random() * len(legal))]

    env = DuelEnv(fighters=fighters, opponent=counting_random)
    _, info = env.reset(seed=seed)
    for _ in range(steps):
        ids = np.flatnonzero(info["action_mask"])
        _, _, term, trunc, info = env.step(ids[int(rng.random() * len(ids))])
        if term or trunc:
            _, info = env.reset()
    return (steps + calls[0]) / steps


def bench_engine(decisions: int, seed: int, fighters: tuple[str, str]) -> float:
    """Bare engine decisions/s on random legal play (no observation, no mask)."""
    import numpy as np

    from hexdojo.envs.duel import make_game

    game = make_game(fighters)
    rand = np.random.default_rng(seed).random
    n, k = 0, 0
    t0 = time.perf_counter()
    while n < decisions:
        st = game.new_state(seed + k)
        k += 1
        while not st.is_over:
            legal = st.legal_choices()
            st.apply(legal[int(rand() * len(legal))])
            n += 1
    return n / (time.perf_counter() - t0)


def _parse(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=40_000, help="env steps per round and env")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds; medians reported")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--fighters", nargs=2, default=["chu", "urlik"])
    ap.add_argument("--json", action="store_true", help="one JSON line instead of text")
    ap.add_argument("--floors", action="store_true", help="also a no-op env and the core alone")
    return ap.parse_args(argv)


def measure(args: argparse.Namespace) -> dict[str, float]:
    """The medians of every measure, in rounds interleaved so that machine noise hits all
    alike; and the engine decisions per step (an untimed pass)."""
    fighters = tuple(args.fighters)
    bench_duel(2000, args.seed, fighters)  # warm-up: imports, caches
    bench_connect_four(2000, args.seed)
    per_step = decisions_per_step(args.steps // 4, args.seed, fighters)
    runs: dict[str, list[float]] = {"python": [], "c4": [], "dict": [], "flat": [], "engine": []}
    for r in range(args.rounds):
        seed = args.seed + r
        runs["python"].append(bench_python_opponent(args.steps, seed, fighters))
        runs["c4"].append(bench_connect_four(args.steps, seed))
        for kind in ("dict", "flat"):
            runs[kind].append(bench_duel(args.steps, seed, fighters, flat=kind == "flat"))
        runs["engine"].append(bench_engine(int(args.steps * per_step), seed, fighters))
        if args.floors:
            for k, v in bench_floors(args.steps, seed, fighters).items():
                runs.setdefault(k, []).append(v)
    return {**{k: statistics.median(v) for k, v in runs.items()}, "per_step": per_step}


def summary(m: dict[str, float], args: argparse.Namespace, pin: str) -> dict[str, Any]:
    """The JSON record: steps/s and ratios to connect_four_v3 (``c``)."""
    c = m["c4"]
    out: dict[str, Any] = {"connect_four_v3_steps_per_s": round(c), "steps": args.steps,
                           "rounds": args.rounds, "fighters": args.fighters, "cpu": pin}
    for key, name in (("dict", "native_dict"), ("flat", "native_flat"),
                      ("python", "python_opponent"), ("noop", "noop_env"), ("core", "core_step")):
        if key in m:
            out.update({f"{name}_steps_per_s": round(m[key]), f"{name}_ratio": round(m[key] / c, 2)})
    out.update(engine_decisions_per_step=round(m["per_step"], 2),
               engine_decisions_per_s=round(m["engine"]))
    return out


def report(out: dict[str, Any], pin: str) -> None:
    """The text report of ``summary``'s record."""
    for name, label, target in (("native_dict", "random opponent, Dict", " (target >= 3x)"),
                                ("native_flat", "random opponent, flat", " (target >= 10x)"),
                                ("python_opponent", "Python opponent, Dict", "")):
        print(f"hexdojo/Duel-v0 {label:<22} {out[name + '_steps_per_s']:>9,} env steps/s = "
              f"{out[name + '_ratio']:.2f}x{target}")
    print(f"connect_four_v3 {'':<22} {out['connect_four_v3_steps_per_s']:>9,} env steps/s "
          f"(random legal, obs + mask; {pin})")
    print("  (the Python opponent: the random agent asked through its act on a State of each of "
          "its decisions, native=False)")
    print(f"per Duel-v0 step: {out['engine_decisions_per_step']} engine decisions (agent + "
          f"opponent); the rules API alone (State.apply, no env): "
          f"{out['engine_decisions_per_s']:,} decisions/s")
    if "noop_env_ratio" in out:
        fn, fc = out["noop_env_steps_per_s"], out["core_step_steps_per_s"]
        print(f"floor: a no-op env  {fn:>9,} steps/s = {out['noop_env_ratio']:.2f}x  "
              f"({1e6 / fn:.1f} us a step: the loop's pick and env.step with nothing behind them)")
        print(f"floor: core alone   {fc:>9,} steps/s = {out['core_step_ratio']:.2f}x  "
              f"({1e6 / fc:.1f} us a step: step_bound and the pick, no env)")


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    pin = _pin_one_core()
    out = summary(measure(args), args, pin)
    if args.json:
        print(json.dumps(out))
    else:
        report(out, pin)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
