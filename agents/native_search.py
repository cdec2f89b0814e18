"""The search agents' native path: ``MCTSAgent.act`` and ``SearchAgent.act`` inside the core.

Why: a simulation is a clone, fresh dice and a few dozen scripted decisions; in Python the
policy's scoring and the engine's facade cost nearly all of it (issue 15: MCTS simulations/s
>= 10x). The native search (``agents/native/search.hpp``) plays the same simulations on the
same dice (numpy's SeedSequence and PCG64 seeding, ported bit for bit) with the same tree
statistics, so it makes exactly the Python agent's choice; the per-decision seeds still come
from the agent's numpy generator, drawn where the Python agent draws them.

It runs when the state is a ``NativeState``, the time budget is 0, the agent's policy and
opponent model (if any) have a native form (``native_policy``), and the agent's search
methods are the stock ones. ``GuidedMCTS`` (a learned policy as the tree's prior) runs
natively too: its network's layers are copied out of torch once per game into a
``_bots.PriorPolicy`` that ranks the tree's children on the core's own observation, the
scripted policy playing the rollouts (its Python tree stays for a style lean, an opponent
model or a network of another shape). The instance attribute ``native = False`` or
``HEXDOJO_NATIVE_AGENTS=0`` forces the Python path: the reference of
``tests/agents/test_bots_search.py`` and ``tests/agents/test_search_prior.py``.
"""

from __future__ import annotations

from typing import Any

from hexdojo.envs.rules import Choice, State
from hexdojo.envs.rules.state import State as NativeState

from . import _bots, native_bots
from .base import Agent

#: the methods a native search replaces: a subclass or an instance overriding one keeps Python
ROLLOUT_PARTS = ("policy_only", "fresh_clone", "score", "play_out")
MCTS_PARTS = (*ROLLOUT_PARTS, "_expand", "_select", "_simulate")
SEARCH_PARTS = (*ROLLOUT_PARTS, "rollout")


class FirstChoice(Agent):
    """The tests' trivial policy: the first legal choice, candidates in legal order; its
    native form is ``_bots.FirstChoicePolicy`` (the tree logic checked without the bot)."""

    name = "first"

    def act(self, state: State) -> Choice:
        choices = state.legal_choices()
        if not choices:
            raise ValueError("act() called on a finished fight")
        return choices[0]

    def ranked(self, state: State) -> list[Choice]:
        return state.legal_choices()

    def native_policy(self, game: Any) -> Any:
        return _bots.FirstChoicePolicy()


class Rotate(FirstChoice):
    """The tests' other trivial policy (the first choice rarely changes a fight): the legal
    list rotated to start at (3 turn + 5 fighter + n) % n; native form ``_bots.RotatePolicy``."""

    name = "rotate"

    @staticmethod
    def start(state: State) -> int:
        n = len(state.legal_choices())
        if n == 0:
            raise ValueError("act() called on a finished fight")
        return (3 * state.turn + 5 * state.decision.fighter + n) % n  # type: ignore[union-attr]

    def act(self, state: State) -> Choice:
        return state.legal_choices()[self.start(state)]

    def ranked(self, state: State) -> list[Choice]:
        ch, k = state.legal_choices(), self.start(state)
        return ch[k:] + ch[:k]

    def native_policy(self, game: Any) -> Any:
        return _bots.RotatePolicy()


def enabled(agent: Any) -> bool:
    """Whether the agent may take its native path at all (its flag and the environment)."""
    return bool(getattr(agent, "native", True)) and native_bots.enabled()


def native_policy(agent: Any, game: Any) -> Any | None:
    """The agent's native search policy for ``game``'s fights (``_bots.SearchPolicy``), or
    None if it has none: its own ``native_policy``, or a scripted agent's native bot."""
    make = getattr(agent, "native_policy", None)
    if make is not None:
        return make(game)
    player = getattr(agent, "native_player", None)
    bot = None if player is None else player(game)
    return _bots.ScriptedPolicy(bot) if isinstance(bot, _bots.ScriptedBot) else None


def _stock(agent: Any, base: type, parts: tuple[str, ...]) -> bool:
    """No part overridden by a subclass or on the instance (a wrapped ``_simulate``...)."""
    cls, own = type(agent), vars(agent)
    return all(getattr(cls, p) is getattr(base, p) and p not in own for p in parts)


def _ready(agent: Any, state: Any, base: type, parts: tuple[str, ...],
           model: Any = None) -> tuple[Any, Any] | None:
    """The native (policy, model) where the native path may run, else None."""
    if not (isinstance(state, NativeState) and enabled(agent) and agent.time_ms == 0):
        return None
    if state.decision is None or not _stock(agent, base, parts):
        return None  # a finished fight: the Python path raises its error
    pol = native_policy(agent.policy, state.game)
    nmodel = None if model is None else native_policy(model, state.game)
    return None if pol is None or (model is not None and nmodel is None) else (pol, nmodel)


def _draw(agent: Any) -> Any:
    """The agent's per-decision seeds, as the Python agent draws them."""
    return lambda n: agent.rng.integers(0, 2**63 - 1, size=n).tolist()


def mcts_choice(agent: Any, state: Any, base: type) -> Choice | None:
    """``MCTSAgent.act`` natively, or None where the Python path must run (``base``: the
    MCTSAgent class, whose methods a subclass must not override)."""
    got = _ready(agent, state, base, MCTS_PARTS, agent.opponent_model)
    if got is None:
        return None
    pol, model = got
    k = _bots.mcts_act(native_bots.core_of(state), pol, model, agent.sims, agent.width, agent.horizon,
                       float(agent.c), float(agent.caution), state.t.data.dice.die_sides,
                       _draw(agent))
    return state.legal_choices()[k]


def search_choice(agent: Any, state: Any, base: type) -> Choice | None:
    """``SearchAgent.act`` natively, or None where the Python path must run (``base``: the
    SearchAgent class)."""
    got = _ready(agent, state, base, SEARCH_PARTS)  # its rollouts play no model
    if got is None:
        return None
    k = _bots.search_act(native_bots.core_of(state), got[0], agent.sims, agent.width, agent.horizon,
                         float(agent.caution), state.t.data.dice.die_sides, _draw(agent))
    return state.legal_choices()[k]


def search_player(agent: Any, game: Any, base: type, mcts: bool) -> Any | None:
    """The agent (``mcts``: an MCTSAgent, else a SearchAgent; ``base``: that class) as a
    native player of ``game``'s fights (``_bots.SearchPlayer``, the tournament's fast path),
    starting from its generator's state; None where its native path cannot run."""
    parts = MCTS_PARTS if mcts else SEARCH_PARTS
    if not (enabled(agent) and agent.time_ms == 0 and _stock(agent, base, parts)):
        return None
    st = agent.rng.bit_generator.state
    if st["bit_generator"] != "PCG64":
        return None
    model = agent.opponent_model if mcts else None
    pol = native_policy(agent.policy, game)
    nmodel = None if model is None else native_policy(model, game)
    if pol is None or (model is not None and nmodel is None):
        return None
    halves = [(v >> 64, v & (2**64 - 1)) for v in (st["state"]["state"], st["state"]["inc"])]
    return _bots.SearchPlayer(mcts, pol, nmodel, agent.sims, agent.width, agent.horizon,
                              float(getattr(agent, "c", 0.7)), float(agent.caution),
                              game.tables.data.dice.die_sides, *halves,
                              bool(st["has_uint32"]), int(st["uinteger"]))


# ------------------------------------------------------------------ a learned prior
#: SB3 activation modules by the name the native prior takes
_ACTIVATIONS = {"Tanh": "tanh", "ReLU": "relu"}


def actor_layers(model: Any) -> list[tuple[Any, Any, str]] | None:
    """An SB3 MlpPolicy actor as dense layers ``(W, b, activation)`` (float32, W rows =
    outputs): its ``mlp_extractor.policy_net`` then ``action_net``; None for another shape
    (a Dict observation, another activation, a custom network)."""
    import numpy as np
    from gymnasium import spaces
    from torch import nn

    policy = model.policy
    if not isinstance(model.observation_space, spaces.Box):
        return None
    mods = [*policy.mlp_extractor.policy_net, policy.action_net]
    layers: list[list[Any]] = []
    for mod in mods:
        if isinstance(mod, nn.Linear):
            w = mod.weight.detach().cpu().numpy().astype(np.float32)
            b = mod.bias.detach().cpu().numpy().astype(np.float32)
            layers.append([np.ascontiguousarray(w), np.ascontiguousarray(b), "none"])
        elif type(mod).__name__ in _ACTIVATIONS and layers and layers[-1][2] == "none":
            layers[-1][2] = _ACTIVATIONS[type(mod).__name__]
        else:
            return None
    return [tuple(x) for x in layers]  # type: ignore[misc]


def prior_policy(agent: Any, game: Any) -> Any | None:
    """``agent`` (a GuidedMCTS) prior's network over ``game``'s observation, its rollout
    policy native (``_bots.PriorPolicy``, cached per game on the agent), or None where
    either has no native form."""
    cache = agent.__dict__.setdefault("_native_priors", {})
    hit = cache.get(id(game))
    if hit is not None and hit[0] is game:
        return hit[1]
    made = _make_prior(agent, game)
    if len(cache) > 16:
        cache.clear()
    cache[id(game)] = (game, made)
    return made


def _make_prior(agent: Any, game: Any) -> Any | None:
    from hexdojo.envs.native_observation import native_layout
    from hexdojo.envs.observation import encoder_for
    from hexdojo.envs.rules import _core
    from hexdojo.envs.rules.native import compile_tables

    prior = agent.prior
    rollout = native_policy(agent.policy, game)
    layers = None if getattr(prior, "model", None) is None else actor_layers(prior.model)
    if rollout is None or layers is None or getattr(prior, "style", None) is not None:
        return None
    if getattr(prior, "general", False):
        from hexdojo.envs.sheets import sheet_views

        enc, unit, extra = encoder_for(game, armed=True), True, sheet_views(game)
    else:
        enc, extra = encoder_for(game), None
        unit = prior._scaling_for(enc) == "unit"
        prior._check_spaces(enc.size, enc.cat.n)
    views = ([], []) if extra is None else (extra[0].tolist(), extra[1].tolist())
    return _bots.PriorPolicy(rollout, _core.Catalogue(compile_tables(game.tables), enc.armed),
                             native_layout(enc), enc.unit_factor.tolist() if unit else [],
                             *views, layers)


def _prior_ready(agent: Any, state: Any) -> Any | None:
    if not (isinstance(state, NativeState) and enabled(agent) and agent.time_ms == 0):
        return None
    if state.decision is None or agent.opponent_model is not None or len(state.fighters) != 2:
        return None
    return prior_policy(agent, state.game)


def prior_choice(agent: Any, state: Any) -> Choice | None:
    """``GuidedMCTS.act`` inside the core: the tree's children are the prior network's
    best ``width`` (``_bots.PriorPolicy``), the rollouts the scripted policy's; None where
    the Python search must run (a time budget, an opponent model, no native prior)."""
    prior = _prior_ready(agent, state)
    if prior is None:
        return None
    k = _bots.mcts_act(native_bots.core_of(state), prior, None, agent.sims, agent.width,
                       agent.horizon, float(agent.c), float(agent.caution),
                       state.t.data.dice.die_sides, _draw(agent))
    return state.legal_choices()[k]


def prior_player(agent: Any, game: Any) -> Any | None:
    """A GuidedMCTS as a native player of ``game``'s duels (``_bots.SearchPlayer`` over its
    ``PriorPolicy``), starting from its generator's state; None where it cannot run."""
    if not (enabled(agent) and agent.time_ms == 0) or agent.opponent_model is not None:
        return None
    if len(game.profiles) != 2:
        return None
    pol = prior_policy(agent, game)
    st = agent.rng.bit_generator.state
    if pol is None or st["bit_generator"] != "PCG64":
        return None
    halves = [(v >> 64, v & (2**64 - 1)) for v in (st["state"]["state"], st["state"]["inc"])]
    return _bots.SearchPlayer(True, pol, None, agent.sims, agent.width, agent.horizon,
                              float(agent.c), float(agent.caution),
                              game.tables.data.dice.die_sides, *halves,
                              bool(st["has_uint32"]), int(st["uinteger"]))
