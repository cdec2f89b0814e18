"""Environment speed: random legal play through hexdojo/Duel-v0 and PettingZoo's
connect_four_v3 in the same process, on one core.

Both loops do the same work per step: read the mask the environment hands out (Duel-v0:
``info["action_mask"]``; connect four: ``env.last()``'s ``obs["action_mask"]``, which
builds its observation), pick a uniformly random legal action with the same numpy code,
and step. Duel-v0 is made with ``gymnasium.make`` (default wrappers), as users make it;
its observation (the ``Dict``) and mask are computed on every step. Three Duel measures
(issue 15): the per-decision path (``native=False``, the ``Dict``: DuelEnv's Python step
over ``Game.new_state``'s default engine, named in the output), and the native fast
path (the default against the random opponent, ``envs/duel_core.py``) with the ``Dict``
and with the flat observation (``flat_observation=True``), each as a ratio to
connect_four_v3 measured in the same rounds.

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
               flat: bool = False) -> float:
    """Env steps/s of ``env_id`` (default hexdojo/Duel-v0; ``fighters``: None for the id's
    own) under random legal actions (obs + mask included); ``native``: DuelEnv's option
    (None: the fast path where it can run), ``flat``: ``flat_observation``."""
    import gymnasium as gym

    import hexdojo.envs  # noqa: F401 - registers the env

    kw: dict = {"native": native, "flat_observation": flat}
    env = gym.make(env_id, **kw, **({} if fighters is None else {"fighters": fighters}))
    return bench_duel_env(env, steps, seed)


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


def _default_engine() -> str:
    """The engine ``Game.new_state`` runs by default (what ``native=False`` steps over)."""
    from hexdojo.envs.rules import Game

    st = Game.create(["chu", "urlik"]).new_state(0)
    return "native" if type(st).__name__ == "State" else "python"


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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=40_000, help="env steps per round and env")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds; medians reported")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--fighters", nargs=2, default=["chu", "urlik"])
    ap.add_argument("--json", action="store_true", help="one JSON line instead of text")
    ap.add_argument("--floors", action="store_true", help="also a no-op env and the core alone")
    args = ap.parse_args(argv)
    pin = _pin_one_core()
    bench_duel(2000, args.seed, tuple(args.fighters))  # warm-up: imports, caches
    bench_connect_four(2000, args.seed)
    fighters = tuple(args.fighters)
    per_step = decisions_per_step(args.steps // 4, args.seed, fighters)
    duel, c4, engine, wrapper = [], [], [], []
    fast = {"dict": [], "flat": []}
    floors: dict[str, list[float]] = {"noop": [], "core": []}
    for r in range(args.rounds):  # interleaved so that machine noise hits all alike
        duel.append(bench_duel(args.steps, args.seed + r, fighters, native=False))
        c4.append(bench_connect_four(args.steps, args.seed + r))
        for kind in fast:
            fast[kind].append(bench_duel(args.steps, args.seed + r, fighters, native=True,
                                         flat=kind == "flat"))
        engine.append(bench_engine(int(args.steps * per_step), args.seed + r, fighters))
        wrapper.append(1e6 / duel[-1] - per_step / engine[-1] * 1e6)
        if args.floors:
            for k, v in bench_floors(args.steps, args.seed + r, fighters).items():
                floors[k].append(v)
    d, c, e = statistics.median(duel), statistics.median(c4), statistics.median(engine)
    fd, ff = statistics.median(fast["dict"]), statistics.median(fast["flat"])
    out = {"duel_v0_steps_per_s": round(d), "connect_four_v3_steps_per_s": round(c),
           "ratio": round(d / c, 2), "steps": args.steps, "rounds": args.rounds,
           "fighters": args.fighters, "cpu": pin,
           "native_dict_steps_per_s": round(fd), "native_dict_ratio": round(fd / c, 2),
           "native_flat_steps_per_s": round(ff), "native_flat_ratio": round(ff / c, 2),
           "engine_decisions_per_step": round(per_step, 2),
           "engine_decisions_per_s": round(e),
           "engine_us_per_step": round(per_step / e * 1e6, 1),
           "wrapper_us_per_step": round(statistics.median(wrapper), 1)}
    if args.floors:
        fn, fc = statistics.median(floors["noop"]), statistics.median(floors["core"])
        out.update({"noop_env_steps_per_s": round(fn), "noop_env_ratio": round(fn / c, 2),
                    "core_step_steps_per_s": round(fc), "core_step_ratio": round(fc / c, 2)})
    eng = _default_engine()
    out["default_engine"] = eng
    if args.json:
        print(json.dumps(out))
    else:
        print(f"hexdojo/Duel-v0   {d:>9,.0f} env steps/s  (native=False on the {eng} engine, "
              f"Dict + mask; {pin})")
        print(f"  native, Dict    {fd:>9,.0f} env steps/s  = {fd / c:.2f}x  (target >= 3x)")
        print(f"  native, flat    {ff:>9,.0f} env steps/s  = {ff / c:.2f}x  (target >= 10x)")
        print(f"connect_four_v3   {c:>9,.0f} env steps/s  (random legal, obs + mask)")
        print(f"ratio             {d / c:>9.2f} x   (native=False)")
        print(f"per Duel-v0 step (native=False, {eng}): {out['engine_decisions_per_step']} engine "
              f"decisions (agent + opponent) = {out['engine_us_per_step']} us in the bare engine "
              f"({out['engine_decisions_per_s']:,} decisions/s), "
              f"{out['wrapper_us_per_step']} us in observation, mask and wrappers")
        if args.floors:
            print(f"floor: a no-op env  {fn:>9,.0f} steps/s = {fn / c:.2f}x  ({1e6 / fn:.1f} us a "
                  f"step: the loop's pick and env.step with nothing behind them)")
            print(f"floor: core alone   {fc:>9,.0f} steps/s = {fc / c:.2f}x  ({1e6 / fc:.1f} us a "
                  f"step: step_bound and the pick, no env)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
