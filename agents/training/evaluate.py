"""How well a learner plays: against named opponents on the engine (the run's periodic
evaluation), or inside a Gymnasium environment exactly as a user's run meets it."""

from __future__ import annotations

from collections import Counter
from typing import Any

import gymnasium as gym

from hexdojo.envs.boundary import DRAW
from hexdojo.envs.rules import Game

from ..base import Agent
from ..registry import make_agent
from ..tournament import play_fight


def evaluate(learner: Agent, game: Game, opponents: list[str], episodes: int, seed: int
             ) -> dict[str, float]:
    """Win rate of ``learner`` against each opponent, half the fights on each side."""
    out: dict[str, float] = {}
    for name in opponents:
        opp = make_agent(name)
        wins = 0.0
        for k in range(episodes):
            side = k % 2
            pair = (learner, opp) if side == 0 else (opp, learner)
            s = play_fight(game, pair, seed + k)
            if s.winner == side:
                wins += 1
            elif s.winner is None:
                wins += 0.5
        out[name] = wins / episodes
    return out


def evaluate_env(model: Any, env: gym.Env, episodes: int, seed: int,
                 deterministic: bool = True) -> dict[str, Any]:
    """Play ``model`` (a MaskablePPO) in ``env`` itself, fight ``k`` reset with seed
    ``seed + k``: the env's own opponent, sides and observation, exactly as a user's
    ``make_vec_env`` run meets them. Returns wins, draws, losses and the agent's action
    counts by name (what a policy that learnt nothing shows: pass, wait, turn)."""
    out: dict[str, Any] = {"wins": 0, "draws": 0, "losses": 0, "episodes": episodes}
    by_side = {0: [0, 0], 1: [0, 0]}  # side -> [wins, fights]: a lopsided pairing shows here
    actions: Counter[str] = Counter()
    base = env.unwrapped
    for k in range(episodes):
        obs, info = env.reset(seed=seed + k)
        while True:
            mask = base.action_masks()
            action, _ = model.predict(obs, action_masks=mask, deterministic=deterministic)
            actions[base.action_names[int(action)]] += 1
            obs, _, terminated, truncated, info = env.step(int(action))
            if terminated or truncated:
                break
        winner = (info.get("result") or {}).get("winner", DRAW)  # no result: truncated
        key = "draws" if winner == DRAW else ("wins" if winner == base.side else "losses")
        out[key] += 1
        by_side[base.side][0] += key == "wins"
        by_side[base.side][1] += 1
    out["by_side"] = {str(k): v for k, v in by_side.items()}
    out["actions"] = dict(actions.most_common())
    return out
