"""Imitation warm start: clone a scripted teacher into the NPC's policy before PPO.

Why: PPO from a random policy spends most of a short run rediscovering what the scripted
styles already know (close, strike, defend), and within the main job's budget it
plateaus just below them. Cloning the teacher first starts PPO at the teacher's level;
the PPO phase then looks for what beats the pool instead of what any style knows.

The dataset is the learner side's decisions in seeded fights of the training game: the
teacher plays that side (both sides, alternately), an opponent drawn from a list plays
the other, and each decision is recorded as the policy would see it in training (the
duel environment's flat observation in its scaling, the exact mask, the teacher's
action id). The value head learns the fight's outcome, discounted by the decisions left,
so PPO's first advantages are not noise. Everything is seeded: the same arguments give
the same dataset and the same cloned weights.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from hexdojo.envs.observation import encoder_for
from hexdojo.envs.rules import Choice, Game, State
from hexdojo.envs.skirmish_spaces import observe, spaces_for

from .base import Agent
from .registry import make_agent, spec_of
from .team import PlacesAgent, side_places
from .tournament import play_fight


@dataclass
class Demonstrations:
    """Recorded decisions: observation, boolean mask, teacher action, value target."""

    obs: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray

    def __len__(self) -> int:
        return len(self.actions)


class Recorder(Agent):
    """Plays the teacher's choice and writes down what the policy would have seen at each
    real decision (a forced one teaches nothing): :meth:`record`, the duel environment's
    flat observation in ``scaling``; subclasses record another environment's view."""

    def __init__(self, teacher: Agent, scaling: str = "unit") -> None:
        self.teacher, self.scaling, self.name = teacher, scaling, teacher.name
        self.rows: list[tuple[np.ndarray, np.ndarray, int]] = []

    def reset(self, seed: int | None = None) -> None:
        self.teacher.reset(seed)

    def act(self, state: State) -> Choice:
        choice = self.teacher.act(state)
        if len(state.legal_choices()) > 1:
            self.rows.append(self.record(state, choice))
        return choice

    def record(self, state: State, choice: Choice) -> tuple[np.ndarray, np.ndarray, int]:
        """(observation, boolean mask, action id) of ``choice`` at ``state``."""
        enc = encoder_for(state.game)
        flat, mask = enc.encode_with_mask(state, state.decision.fighter)
        enc.rescale(flat, self.scaling)
        return flat.astype(np.float32), mask.astype(bool), enc.cat.ids([choice])[0]  # the fight's catalogue


class _PlaceRecorder(Recorder):
    """:class:`Recorder` for one place of a scene: what ``hexdojo/Skirmish-v0`` shows the
    learner there (the group observation, every number already in [-1, 1], its target
    slots and the group catalogue's action id)."""

    def record(self, state: State, choice: Choice) -> tuple[np.ndarray, np.ndarray, int]:
        obs, mask, slots = observe(state, state.decision.fighter, flat=True)
        cat, _ = spaces_for(state.game)
        return np.asarray(obs, dtype=np.float32), mask.astype(bool), cat.ids([choice], slots)[0]


def fight_outcome(winner: int | None, side: int) -> float:
    """+1 ``side`` won, -1 it lost, 0 a draw: the value targets' outcome."""
    return 0.0 if winner is None else (1.0 if winner == side else -1.0)


def stack_fights(fights: Iterable[tuple[list[tuple[np.ndarray, np.ndarray, int]], float]],
                 gamma: float) -> Demonstrations:
    """The demonstrations of recorded fights, (a recorder's rows, the fight's outcome) each:
    value targets are the outcome discounted by the decisions still to come."""
    obs, masks, acts, rets = [], [], [], []
    for rows, outcome in fights:
        n = len(rows)
        for j, (o, m, a) in enumerate(rows):
            obs.append(o)
            masks.append(m)
            acts.append(a)
            rets.append(outcome * gamma ** (n - 1 - j))
    return Demonstrations(np.stack(obs), np.stack(masks), np.asarray(acts, dtype=np.int64),
                          np.asarray(rets, dtype=np.float32))


def twin(agent: Agent) -> Agent:
    """Another agent like ``agent`` (made again from its spec): the stand-in for the
    place's allies, so each place keeps its own dice stream."""
    got = make_agent(spec_of(agent))
    for key in ("temperature", "deterministic"):
        if hasattr(agent, key):
            setattr(got, key, getattr(agent, key))
    return got


def scene_sides(game: Game, place: int, player: Agent, other: Agent,
                ally: Agent | None = None) -> list[Agent]:
    """One agent per side of a scene: ``player`` in ``place``, ``other`` in every other
    place, allies included (as Skirmish-v0's pool plays them), there ``ally`` (a
    :func:`twin` of ``other``) when given."""
    out: list[Agent] = []
    for side in sorted(set(game.sides)):
        places = side_places(game, side)
        if place not in places:
            out.append(other)
        elif len(places) == 1:
            out.append(player)
        else:
            out.append(PlacesAgent([player if f == place else (ally or other)
                                    for f in places]))
    return out


def demonstrate_scene(game: Game, teacher: Agent, opponents: list[Agent], fights: int,
                      seed: int, place: int | None, gamma: float = 0.995) -> Demonstrations:
    """:func:`demonstrate` for one place of a scene (``hexdojo train --scene``): the
    teacher plays ``place`` (None: each place in turn, as a run with no fixed place trains
    on a random one), an opponent cycling through ``opponents`` every other place; the
    value target is the outcome for the place's side."""
    places = [place] if place is not None else list(range(len(game.profiles)))
    allies = [twin(o) for o in opponents]

    def recorded() -> Iterator[tuple[list, float]]:
        for k in range(fights):
            p = places[k % len(places)]
            rec = _PlaceRecorder(teacher, "unit")
            o = (k // len(places)) % len(opponents)
            record = play_fight(game, scene_sides(game, p, rec, opponents[o], allies[o]), seed + k)
            yield rec.rows, fight_outcome(record.winner, game.sides[p])

    return stack_fights(recorded(), gamma)


def demonstrate(game: Game, teacher: Agent, opponents: list[Agent], fights: int, seed: int,
                scaling: str = "unit", gamma: float = 0.995) -> Demonstrations:
    """The teacher's decisions in ``fights`` seeded fights, alternating sides, the
    opponent cycling through ``opponents``; value targets are the outcome for the
    teacher's side (+1 win, -1 loss, 0 draw) discounted by the decisions still to come."""
    def recorded() -> Iterator[tuple[list, float]]:
        for k in range(fights):
            rec = Recorder(teacher, scaling)
            side, opp = k % 2, opponents[(k // 2) % len(opponents)]
            record = play_fight(game, (rec, opp) if side == 0 else (opp, rec), seed + k)
            yield rec.rows, fight_outcome(record.winner, side)

    return stack_fights(recorded(), gamma)


def clone(policy: Any, demos: Demonstrations, epochs: int = 8, batch: int = 256,
          lr: float = 1e-3, value_weight: float = 0.5, seed: int = 0) -> dict[str, float]:
    """Fit a MaskablePPO policy to the demonstrations (masked cross-entropy on the
    actions, squared error on the values); returns the last epoch's loss and the share of
    decisions where the policy's top action is the teacher's."""
    import torch

    gen = torch.Generator().manual_seed(seed)
    obs = torch.as_tensor(demos.obs)
    acts = torch.as_tensor(demos.actions)
    rets = torch.as_tensor(demos.returns)
    masks = demos.masks
    opt = torch.optim.Adam(policy.parameters(), lr=lr)
    policy.set_training_mode(True)
    n, last = len(demos), 0.0
    for _ in range(epochs):
        order = torch.randperm(n, generator=gen)
        total = 0.0
        for start in range(0, n, batch):
            idx = order[start:start + batch]
            values, logp, _ = policy.evaluate_actions(obs[idx], acts[idx], masks[idx.numpy()])
            loss = -logp.mean() + value_weight * torch.mean((values.flatten() - rets[idx]) ** 2)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        last = total / n
    policy.set_training_mode(False)
    with torch.no_grad():
        dist = policy.get_distribution(obs, action_masks=masks)
        top = dist.distribution.probs.argmax(dim=1)
    return {"loss": last, "agreement": float((top == acts).float().mean())}
