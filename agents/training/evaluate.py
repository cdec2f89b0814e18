"""How well a learner plays: against named opponents on the engine (the run's periodic
evaluation), or inside a Gymnasium environment exactly as a user's run meets it."""

from __future__ import annotations

from collections import Counter
from typing import Any

import gymnasium as gym

from hexdojo.envs.boundary import DRAW
from hexdojo.envs.rules import Game

from ..base import Agent
from ..imitation import scene_sides, twin
from ..registry import make_agent
from ..tournament import play_fight


def evaluate(learner: Agent, game: Game, opponents: list[str], episodes: int, seed: int,
             sides: tuple[int, ...] = (0, 1)) -> dict[str, float]:
    """Win rate of ``learner`` against each opponent, the fights shared in turn between
    ``sides`` (default half on each side; a one-sided NPC is measured on its side only)."""
    return {k: v for k, v in evaluate_sides(learner, game, opponents, episodes, seed,
                                            sides).items() if SIDE_MARK not in k}


#: ``eval.csv``'s per-side columns: ``greedy@A``, ``greedy@B`` (not the model selection's)
SIDE_MARK = "@"


def evaluate_sides(learner: Agent, game: Game, opponents: list[str], episodes: int,
                   seed: int, sides: tuple[int, ...] = (0, 1)) -> dict[str, float]:
    """:func:`evaluate`'s rates, and with two sides each side's own (``name@A``,
    ``name@B``): a pairing lopsided by its seat shows, and a mean over both sides is
    never mistaken for the score of an NPC that plays only one of them."""
    out: dict[str, float] = {}
    for name in opponents:
        opp = make_agent(name)
        got = {s: [0.0, 0] for s in sides}  # side -> [points, fights]
        for k in range(episodes):
            side = sides[k % len(sides)]
            pair = (learner, opp) if side == 0 else (opp, learner)
            s = play_fight(game, pair, seed + k)
            got[side][0] += 1.0 if s.winner == side else 0.5 if s.winner is None else 0.0
            got[side][1] += 1
        out[name] = sum(p for p, _ in got.values()) / episodes
        if len(sides) > 1:
            out.update({f"{name}{SIDE_MARK}{'AB'[s]}": p / n for s, (p, n) in got.items() if n})
    return out


def evaluate_places(learner: Agent, game: Game, opponents: list[str], episodes: int,
                    seed: int, places: tuple[int, ...]) -> dict[str, float]:
    """A scene run's evaluation: the learner in its place (``places``: the run's place, or
    every place in turn), the opponent in every other place, allies included, as in
    training (before issue 33 the learner played its whole side, allies' places too);
    scored for the place's side. With several places, each one's rate too (``name@P2``)."""
    out: dict[str, float] = {}
    for name in opponents:
        opp = make_agent(name)
        ally = twin(opp)
        got = {p: [0.0, 0] for p in places}  # place -> [points, fights]
        for k in range(episodes):
            place = places[k % len(places)]
            s = play_fight(game, scene_sides(game, place, learner, opp, ally), seed + k)
            side = game.sides[place]
            got[place][0] += 1.0 if s.winner == side else 0.5 if s.winner is None else 0.0
            got[place][1] += 1
        out[name] = sum(p for p, _ in got.values()) / episodes
        if len(places) > 1:
            out.update({f"{name}{SIDE_MARK}P{p}": v / n for p, (v, n) in got.items() if n})
    return out


def trained_sides(side: str) -> tuple[int, ...]:
    """The side(s) a run's ``side`` setting trains: ``"1"`` -> (1,), alternating -> both."""
    return (int(side),) if side in ("0", "1") else (0, 1)


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
