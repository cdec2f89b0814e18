"""Learnable out of the box (issue 20): SB3 MaskablePPO with its DEFAULT hyper-parameters
on the environment's DEFAULT options, as a researcher's first try would run it.

    MaskablePPO(policy, make_vec_env(env_id, n_envs=4, seed=seed)).learn(steps)

then ``--episodes`` evaluation fights in a fresh env of the same id and options, fight
``k`` reset with seed ``1_000_000 + k`` (training's envs are seeded ``seed .. seed + 3``
and never reseeded, so it never saw these fights), deterministic policy, against the
env's default opponent (uniform random legal play). Prints the win rate with its Wilson
95 % interval, draws and losses, and the policy's most frequent actions.

    python scripts/learnability.py                                 # Duel-v1, Dict, 100k
    python scripts/learnability.py --policy MlpPolicy --seed 1     # the flat observation
    python scripts/learnability.py --env hexdojo/Duel-v0 --steps 50000   # the old defaults
    python scripts/learnability.py --option shaping=0 --steps 50000      # ablate an option
    python scripts/learnability.py --hyperparams agents/hyperparams/duel_v1.toml \\
        --eval-every 10000 --curve docs/learnability_curve.png         # the tuned settings

``--option KEY=VALUE`` (repeatable; VALUE read as JSON, else a string) overrides one env
option; ``MlpPolicy`` implies ``flat_observation=true``. ``--hyperparams`` takes the
``[ppo]`` table of a training TOML instead of SB3's defaults (the env options stay the
env's). ``--eval-every`` adds a learning curve (``--curve-episodes`` fights per point,
evaluated after each update; the last point is the final evaluation) to ``--json`` and
``--curve`` (a PNG; ``--plot-with RUN.json`` draws earlier runs' curves with it, and
``--replot`` only redraws them).
A progress line is printed at least every 30 s.

    python scripts/learnability.py --side-balance random greedy striker --fighters chu,urlik

measures how much a pairing's side decides the fight (no training).
"""

from __future__ import annotations

import argparse
import io
import json
import threading
import time
from pathlib import Path
from typing import Any

EVAL_SEED = 1_000_000
PROGRESS_EVERY_S = 30.0


def parse_options(pairs: list[str], policy: str) -> dict[str, Any]:
    """``KEY=VALUE`` pairs as env options (values JSON where they parse)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise SystemExit(f"--option {pair!r}: expected KEY=VALUE")
        try:
            out[key] = json.loads(raw)
        except json.JSONDecodeError:
            out[key] = raw
    if policy == "MlpPolicy":
        out.setdefault("flat_observation", True)
    return out


def ppo_settings(path: str | None) -> dict[str, Any]:
    """SB3's defaults (nothing passed) or the ``[ppo]`` table of a training TOML."""
    if path is None:
        return {}
    from hexdojo.agents.training.config import load_config
    from hexdojo.agents.training.ppo import ppo_kwargs

    return ppo_kwargs(load_config(path).ppo)


def wilson_text(k: int, n: int) -> str:
    from hexdojo.agents.ratings import wilson

    lo, hi = wilson(k, n)
    return f"{k / n:.1%} [{lo:.1%}, {hi:.1%}]"


def curve_point(steps: int, r: dict[str, Any]) -> dict[str, Any]:
    return {"steps": steps, **{k: r[k] for k in ("wins", "draws", "losses", "episodes")}}


def make_callback(args: argparse.Namespace, env_id: str, options: dict[str, Any],
                  curve: list[dict[str, Any]]) -> Any:
    """Progress lines every ~30 s and, with ``--eval-every``, the learning curve."""
    import gymnasium as gym
    from stable_baselines3.common.callbacks import BaseCallback

    from hexdojo.agents.training.evaluate import evaluate_env

    class Progress(BaseCallback):
        """The progress line comes from a timer thread: PPO's gradient phase calls no
        callback, and with SB3's defaults (batch 64, 10 epochs) it can outlast 30 s."""

        def _on_training_start(self) -> None:
            self.t0 = time.perf_counter()
            self.next_eval = args.eval_every or 0
            self.stop = threading.Event()
            threading.Thread(target=self._report, daemon=True).start()

        def _on_training_end(self) -> None:
            self.stop.set()

        def _report(self) -> None:
            while not self.stop.wait(PROGRESS_EVERY_S):
                n = self.model.num_timesteps
                buf = list(self.model.ep_info_buffer or [])
                mean_r = sum(e["r"] for e in buf) / len(buf) if buf else float("nan")
                print(f"  {n:>7,} / {args.steps:,} steps, "
                      f"{n / (time.perf_counter() - self.t0):.0f} steps/s, "
                      f"mean episode reward {mean_r:+.3f}", flush=True)

        def _on_rollout_start(self) -> None:
            """After each update (a curve point is the policy the steps so far made)."""
            n = self.model.num_timesteps
            if args.eval_every and n >= self.next_eval:
                self.next_eval = (n // args.eval_every + 1) * args.eval_every
                with gym.make(env_id, **options) as env:
                    r = evaluate_env(self.model, env, args.curve_episodes, EVAL_SEED)
                curve.append(curve_point(n, r))
                print(f"  curve: {n:>7,} steps: wins {wilson_text(r['wins'], r['episodes'])}",
                      flush=True)

        def _on_step(self) -> bool:
            return True

    return Progress()


def run_label(result: dict[str, Any]) -> str:
    ppo = "SB3 defaults" if not result.get("hyperparams") else Path(result["hyperparams"]).name
    return f"{result['env']} {result['policy']}, {ppo}, seed {result['seed']}"


def plot_curve(runs: list[dict[str, Any]], png: Path) -> None:
    """Win rate over env steps of each run (its ``curve``) with Wilson 95 % bars, written
    atomically."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from hexdojo.agents.ratings import wilson
    from hexdojo.agents.report import atomic_write_bytes

    fig, ax = plt.subplots(figsize=(7, 4))
    for result in runs:
        curve = result["curve"]
        xs = [c["steps"] for c in curve]
        ps = [c["wins"] / c["episodes"] for c in curve]
        cis = [wilson(c["wins"], c["episodes"]) for c in curve]
        ax.errorbar(xs, ps, yerr=[[p - lo for p, (lo, _) in zip(ps, cis, strict=True)],
                                  [hi - p for p, (_, hi) in zip(ps, cis, strict=True)]],
                    marker="o", ms=3, capsize=2, label=run_label(result))
    ax.axhline(0.9, color="grey", ls="--", lw=1, label="target 90 %")
    ax.set_xlabel("environment steps")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=7)
    ax.set_title("wins vs uniform random play, fresh-seed fights (Wilson 95 %)", fontsize=9)
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    atomic_write_bytes(png, buf.getvalue())


def side_balance(fighters: list[str], agents: list[str], fights: int) -> None:
    """Each agent against uniform random play as each fighter of a pairing: how much the
    side dealt decides the fight (with a random side per episode, the best any policy can
    average is about the mean of its two rows)."""
    from hexdojo.agents.registry import make_agent
    from hexdojo.agents.tournament import play_fight
    from hexdojo.envs.rules import Game

    game = Game.create(fighters)
    for name in agents:
        cells = []
        for side in (0, 1):
            agent, rnd = make_agent(name), make_agent("random")
            wins = draws = 0
            for k in range(fights):
                s = play_fight(game, (agent, rnd) if side == 0 else (rnd, agent), EVAL_SEED + k)
                wins += s.winner == side
                draws += s.winner is None
            cells.append(f"as {fighters[side]} wins {wilson_text(wins, fights)} "
                         f"(draws {draws / fights:.1%})")
        print(f"{' vs '.join(fighters)}, {name} vs random ({fights} fights a side): "
              f"{'; '.join(cells)}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--env", default="hexdojo/Duel-v1")
    ap.add_argument("--policy", default="MultiInputPolicy", choices=["MultiInputPolicy", "MlpPolicy"])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--steps", type=int, default=100_000)
    ap.add_argument("--episodes", type=int, default=200, help="evaluation fights")
    ap.add_argument("--n-envs", type=int, default=4)
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--hyperparams", default=None, help="a training TOML: use its [ppo] table")
    ap.add_argument("--eval-every", type=int, default=0, help="learning-curve interval (steps)")
    ap.add_argument("--curve-episodes", type=int, default=100)
    ap.add_argument("--curve", type=Path, default=None, help="learning-curve PNG")
    ap.add_argument("--json", type=Path, default=None, help="write the results here")
    ap.add_argument("--plot-with", action="append", default=[], metavar="JSON",
                    help="another run's --json to draw in the same --curve plot")
    ap.add_argument("--threads", type=int, default=1, help="torch threads")
    ap.add_argument("--side-balance", nargs="+", metavar="AGENT", default=None,
                    help="train nothing: these agents vs random as each fighter of --fighters")
    ap.add_argument("--fighters", default="chu,urlik", help="the pairing of --side-balance")
    ap.add_argument("--replot", action="store_true",
                    help="train nothing: draw the --plot-with runs into --curve")
    args = ap.parse_args()
    if args.side_balance:
        side_balance(args.fighters.split(","), args.side_balance, args.episodes)
        return
    if args.replot:
        if not args.curve or not args.plot_with:
            raise SystemExit("--replot needs --curve PNG and at least one --plot-with JSON")
        plot_curve([json.loads(Path(f).read_text()) for f in args.plot_with], args.curve)
        return
    run(args)


def run(args: argparse.Namespace) -> dict[str, Any]:
    import gymnasium as gym
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    import hexdojo.envs  # noqa: F401  (registers the ids)
    from hexdojo.agents.report import atomic_write_bytes
    from hexdojo.agents.training.evaluate import evaluate_env

    torch.set_num_threads(args.threads)
    options = parse_options(args.option, args.policy)
    settings = ppo_settings(args.hyperparams)
    label = (f"{args.env} {args.policy} options={options or 'defaults'} "
             f"ppo={'SB3 defaults' if not settings else args.hyperparams} seed {args.seed}")
    print(f"training: {label}, {args.steps:,} env steps, {args.n_envs} envs", flush=True)
    t0 = time.perf_counter()
    venv = make_vec_env(args.env, n_envs=args.n_envs, seed=args.seed, env_kwargs=options)
    model = MaskablePPO(args.policy, venv, seed=args.seed, device="cpu", **settings)
    curve: list[dict[str, Any]] = []
    model.learn(args.steps, callback=make_callback(args, args.env, options, curve))
    train_s = time.perf_counter() - t0
    with gym.make(args.env, **options) as env:
        r = evaluate_env(model, env, args.episodes, EVAL_SEED)
    total_s = time.perf_counter() - t0
    if args.eval_every:
        curve.append(curve_point(int(model.num_timesteps), r))
    top = ", ".join(f"{k} {v}" for k, v in list(r["actions"].items())[:5])
    print(f"{label}: after {model.num_timesteps:,} env steps ({train_s:.0f} s training): wins "
          f"{wilson_text(r['wins'], r['episodes'])} of {r['episodes']} fresh-seed fights vs the "
          f"default opponent (draws {r['draws']}, losses {r['losses']}; wins by side "
          f"{r['by_side']['0'][0]}/{r['by_side']['0'][1]} as fighter 0, "
          f"{r['by_side']['1'][0]}/{r['by_side']['1'][1]} as fighter 1); top actions: {top}; "
          f"{total_s:.0f} s in all", flush=True)
    result = {"env": args.env, "policy": args.policy, "options": options, "seed": args.seed,
              "hyperparams": args.hyperparams, "steps": int(model.num_timesteps),
              "train_seconds": round(train_s, 1), **r, "curve": curve}
    if args.json:
        atomic_write_bytes(args.json, json.dumps(result, indent=1).encode())
    if args.curve and curve:
        others = [json.loads(Path(f).read_text()) for f in args.plot_with]
        plot_curve([*others, result], args.curve)
    return result


if __name__ == "__main__":
    main()
