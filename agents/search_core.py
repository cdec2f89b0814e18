"""The search agents' Python side: ``MCTSAgent``, ``SearchAgent`` and ``GuidedMCTS`` ask
the native search (``agents/native/search.hpp``) for each decision.

Why one search, in C++: a simulation is a clone, fresh dice and a few dozen scripted
decisions; in Python the policy's scoring and the engine's facade cost nearly all of it
(issue 15: MCTS simulations/s >= 10x). The Python copy of the search, kept bit-identical
for a while, is gone (issue 32); ``tests/agents/search_fights.py`` pins the choices it made.
The agents hold the parameters and the numpy generator whose per-decision seeds the search
draws (where the Python search drew them), so a seeded agent replays its fights.

What the search plays (the rollout policy, an opponent model) must have a native form
(:func:`native_policy`): the scripted styles, random play (as an opponent model), the tests'
``FirstChoice`` and ``Rotate``, or any agent with a ``native_policy(game)`` method; anything
else is one :class:`~.base.AgentError` line saying so.

``GuidedMCTS``'s prior (the tree's ranking only; the search's pluggable evaluator, as in
OpenSpiel's ``MCTSBot``) is one of (:func:`prior_policy`):

- a learned SB3 MlpPolicy actor (a ``LearnedAgent``; ``GuidedMCTS`` loads a checkpoint path
  into one): its layers are copied out of torch once per game into a ``_bots.PriorPolicy``
  that runs inside the core, duels only;
- a Python prior, asked through ``_bots.CallbackPrior`` each time the tree expands a node
  (:func:`prior_scorer`): an object with a ``prior(state)`` method or a plain callable
  ``f(state)``, answering one finite score per ``state.legal_choices()`` entry (legal order;
  higher ranks first, ties keep the legal order), or an agent with ``ranked(state)`` (every
  legal choice once, best first: the scripted styles, plug-ins). ``state`` is a ``State``
  over a copy of the searched fight (the prior may play it out). Duels and groups alike; a
  Python call per expansion (``scripts/bench_mcts.py --prior callable`` measures it).

A prior that is none of these, a wrong answer or an exception inside the prior is one
AgentError line naming the prior, the decision and what was wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from hexdojo.envs.observation import encoder_for
from hexdojo.envs.rules import DECISION_KINDS, Choice, State
from hexdojo.envs.sheets import sheet_views

from . import _bots, scripted_core
from .base import Agent, AgentError
from .scripted import HeuristicAgent, RandomAgent
from .style import style_sign


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


def native_policy(agent: Any, game: Any) -> Any | None:
    """The agent's native search policy for ``game``'s fights (``_bots.SearchPolicy``), or
    None if it has none: its own ``native_policy``, random play, or a scripted agent's
    native bot."""
    make = getattr(agent, "native_policy", None)
    if make is not None:
        return make(game)
    if type(agent) is RandomAgent:  # an opponent model: reset from each simulation's seed
        return _bots.RandomPolicy()
    player = getattr(agent, "native_player", None)
    bot = None if player is None else player(game)
    if bot is None and type(agent) is HeuristicAgent:  # HEXDOJO_NATIVE_AGENTS=0: no player,
        bot = agent._bot(game.tables)  # but the search still plays the bot
    return _bots.ScriptedPolicy(bot) if isinstance(bot, _bots.ScriptedBot) else None


def core(state: Any) -> Any:
    """The core fight of ``state``; a state of another kind is one AgentError line."""
    c = scripted_core.core_of(state)
    if c is None:
        raise AgentError(f"the search plays fights of the native core (Game.new_state), not a "
                         f"{type(state).__name__}")
    return c


def _named(agent: Any) -> str:
    return f"{getattr(agent, 'name', '?')!r} ({type(agent).__name__})"


def _policies(agent: Any, game: Any, policy: Any = None,
              model: bool = True) -> tuple[Any, Any]:
    """(native policy, native opponent model or None) of a search agent; AgentError where
    either has no native form (the search runs inside the core only)."""
    pol = native_policy(agent.policy, game) if policy is None else policy
    if pol is None:
        raise AgentError(f"{agent.name}: its policy {_named(agent.policy)} has no native form; "
                         "the search runs inside the core and plays a scripted style, or an "
                         "agent with a native_policy(game) method")
    other = agent.opponent_model if model else None
    nmodel = None if other is None else native_policy(other, game)
    if other is not None and nmodel is None:
        raise AgentError(f"{agent.name}: its opponent model {_named(other)} has no native "
                         "form; the search runs inside the core and models a scripted style, "
                         "random play, or an agent with a native_policy(game) method")
    return pol, nmodel


def _draw(agent: Any) -> Any:
    """The agent's per-decision seeds, drawn from its numpy generator."""
    return lambda n: agent.rng.integers(0, 2**63 - 1, size=n).tolist()


def _root(state: Any) -> tuple[Any, list[int]]:
    """The real fight and the legal indices its root may not take: a view that leaves
    choices out (``agents/lab``'s bans; its ``unrestricted`` is the real fight) bans the
    real legal choices it does not list; a real fight bans none."""
    real = getattr(state, "unrestricted", state)
    if real is state:
        return state, []
    allowed = set(state.legal_choices())
    return real, [k for k, c in enumerate(real.legal_choices()) if c not in allowed]


def mcts_choice(agent: Any, state: Any, prior: Any = None) -> Choice:
    """``MCTSAgent.act`` (``prior``: the tree's ranking, else the agent's policy); on a
    view with bans, the tree's root leaves the banned choices out."""
    real, banned = _root(state)
    pol, model = _policies(agent, real.game, prior)
    k = _bots.mcts_act(core(real), pol, model, agent.sims, agent.width, agent.horizon,
                       float(agent.c), float(agent.caution), real.t.data.dice.die_sides,
                       _draw(agent), float(agent.time_ms), banned)
    return real.legal_choices()[k]


def search_choice(agent: Any, state: Any) -> Choice:
    """``SearchAgent.act`` (its rollouts play no opponent model; bans as in
    :func:`mcts_choice`)."""
    real, banned = _root(state)
    pol, _ = _policies(agent, real.game, model=False)
    k = _bots.search_act(core(real), pol, agent.sims, agent.width, agent.horizon,
                         float(agent.caution), real.t.data.dice.die_sides, _draw(agent),
                         float(agent.time_ms), banned)
    return real.legal_choices()[k]


def search_player(agent: Any, game: Any, mcts: bool, prior: Any = None) -> Any | None:
    """The agent (``mcts``: an MCTSAgent, else a SearchAgent; ``prior``: the tree's ranking)
    as a native player of ``game``'s fights (``_bots.SearchPlayer``, the tournament's fast
    path), starting from its generator's state; None for a generator other than numpy's
    PCG64 (the tournament then asks ``act``)."""
    st = agent.rng.bit_generator.state if hasattr(agent.rng, "bit_generator") else {}
    if st.get("bit_generator") != "PCG64":
        return None
    pol, nmodel = _policies(agent, game, prior, model=mcts)
    halves = [(v >> 64, v & (2**64 - 1)) for v in (st["state"]["state"], st["state"]["inc"])]
    return _bots.SearchPlayer(mcts, pol, nmodel, agent.sims, agent.width, agent.horizon,
                              float(getattr(agent, "c", 0.7)), float(agent.caution),
                              game.tables.data.dice.die_sides, *halves,
                              bool(st["has_uint32"]), int(st["uinteger"]), float(agent.time_ms))


# ------------------------------------------------------------------ a learned prior
#: SB3 activation modules by the name the native prior takes
_ACTIVATIONS = {"Tanh": "tanh", "ReLU": "relu"}


def actor_layers(model: Any) -> list[tuple[Any, Any, str]] | None:
    """An SB3 MlpPolicy actor as dense layers ``(W, b, activation)`` (float32, W rows =
    outputs): its ``mlp_extractor.policy_net`` then ``action_net``; None for another shape
    (a Dict observation, another activation, a custom network)."""
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


def prior_policy(agent: Any, game: Any) -> Any:
    """``agent`` (a GuidedMCTS)'s prior for ``game``'s fights, its rollout policy native:
    a ``_bots.PriorPolicy`` over a learned network, else a ``_bots.CallbackPrior`` over a
    Python prior (cached per game on the agent); AgentError where the prior is neither or
    the rollout policy has no native form."""
    cache = agent.__dict__.setdefault("_native_priors", {})
    hit = cache.get(id(game))
    if hit is not None and hit[0] is game:
        return hit[1]
    made = _make_prior(agent, game)
    if len(cache) > 16:
        cache.clear()
    cache[id(game)] = (game, made)
    return made


def _make_prior(agent: Any, game: Any) -> Any:
    """The native network where the prior is one (the fast form), else its Python scores."""
    prior = agent.prior
    rollout, _ = _policies(agent, game, model=False)
    layers = None if getattr(prior, "model", None) is None else actor_layers(prior.model)
    if layers is None:
        score = prior_scorer(agent)
        return _bots.CallbackPrior(rollout, lambda fight: score(State.from_core(game, fight)))
    return _network_prior(agent, game, rollout, layers)


def _network_prior(agent: Any, game: Any, rollout: Any, layers: Any) -> Any:
    """A learned actor's ``_bots.PriorPolicy`` on ``game``'s observation (the duel NPC's
    layout and scaling, or the general NPC's armed layout plus both sheets)."""
    prior = agent.prior
    if len(game.profiles) != 2:
        raise AgentError(f"{agent.name}: a learned prior ranks duel decisions; this fight has "
                         f"{len(game.profiles)} fighters")
    if not getattr(prior, "general", False):
        enc = encoder_for(game)
        prior._scaling_for(enc)  # its scaling's refusal first, then the sizes'
        prior._check_spaces(enc.size, enc.cat.n)
    return _bots.PriorPolicy(rollout, learned_network(prior, game, layers))


def learned_network(prior: Any, game: Any, layers: Any) -> Any:
    """A learned actor (a LearnedAgent, ``layers`` from :func:`actor_layers`) as the core runs
    it on ``game``'s duel decisions (``_bots.Network``, shared by the search's prior and the
    native player): the duel NPC's layout and scaling, or the general NPC's armed layout plus
    both sheets, and its style's lean. The caller checks the model fits the duel's spaces."""
    if getattr(prior, "general", False):
        enc, unit, extra = encoder_for(game, armed=True), True, sheet_views(game)
    else:
        enc, extra = encoder_for(game), None
        unit = prior._scaling_for(enc) == "unit"
    views = ([], []) if extra is None else (extra[0].tolist(), extra[1].tolist())
    return _bots.Network(enc.core_catalogue, enc.core_layout,
                         enc.unit_factor.tolist() if unit else [],
                         *views, layers, style_lean(prior, game.tables, enc.cat))


def style_lean(prior: Any, t: Any, cat: Any) -> list[float]:
    """A styled prior's lean (``LearnedAgent.style``, ``style_bias``) as the native prior
    takes it: ``style_bias * style_sign`` per decision kind (the core's order,
    ``DECISION_KINDS``) and catalogue action, added to the logits as ``LearnedAgent.act``
    adds it; empty for the policy as trained."""
    style, bias = getattr(prior, "style", None), float(getattr(prior, "style_bias", 0.0))
    if style is None or bias == 0.0:
        return []
    return [bias * style_sign(t, kind, c, style) for kind in DECISION_KINDS
            for c in cat.templates]


def prior_choice(agent: Any, state: Any) -> Choice:
    """``GuidedMCTS.act``: the tree's children are the prior's best ``width``
    (:func:`prior_policy`), the rollouts the scripted policy's."""
    return mcts_choice(agent, state, prior_policy(agent, getattr(state, "unrestricted", state).game))


def prior_player(agent: Any, game: Any) -> Any | None:
    """A GuidedMCTS as a native player of ``game``'s fights (``_bots.SearchPlayer`` over its
    prior, :func:`prior_policy`), starting from its generator's state (see :func:`search_player`)."""
    return search_player(agent, game, True, prior_policy(agent, game))


# ------------------------------------------------------------------ a Python prior
def prior_scorer(agent: Any) -> Callable[[State], list[float]]:
    """``agent`` (a GuidedMCTS)'s Python prior as ``score(state) -> one float per legal
    choice``, its answers checked and its failures one AgentError line (the search calls it
    from inside the core, where a traceback would point at C++)."""
    who = f"{agent.name}: its prior {_prior_name(agent.prior)}"
    raw = check_prior(agent)
    if raw is None:
        raise AgentError(f"{who} is a learned policy whose network the core cannot run (not "
                         "an SB3 MlpPolicy actor on flat observations with tanh or relu "
                         "layers); give the search a callable f(state) returning its logits "
                         "of state.legal_choices() instead")

    def score(state: State) -> list[float]:
        where = (state.turn, state.decision, len(state.legal_choices()))  # the prior may play on
        try:
            got = raw(state)
        except AgentError:
            raise
        except Exception as err:  # the user's code: any failure is reported as one line
            raise AgentError(f"{who} failed at {_at(*where)}: {type(err).__name__}: "
                             f"{err}") from err
        return _checked(who, where, got)

    return score


def check_prior(agent: Any) -> Callable[[State], Any] | None:
    """``agent`` (a GuidedMCTS)'s Python prior unchecked (:func:`_raw_scorer`), None for a
    learned policy (its network runs in the core, or says why not); AgentError for a prior
    that is neither (``GuidedMCTS`` asks at once, so a bad prior fails where it is given)."""
    prior = agent.prior
    raw = _raw_scorer(prior)
    if raw is None and getattr(prior, "model", None) is None:
        raise AgentError(f"{agent.name}: its prior {_prior_name(prior)} is not a prior the "
                         "search can ask: allowed a learned SB3 MlpPolicy actor on flat "
                         "observations with tanh or relu layers (a LearnedAgent, or its "
                         "checkpoint path), an object with prior(state), an agent with "
                         "ranked(state), or a callable f(state) -> one score per legal choice")
    return raw


def _raw_scorer(prior: Any) -> Callable[[State], Any] | None:
    """The prior's unchecked scores: its ``prior(state)``, its ranking's places (an agent's
    ``ranked(state)``), or the prior itself called (a plain callable; an agent called gives a
    Choice, not scores); a plug-in (``PluginAgent``) is asked through the user's object
    (``inner``); None for none of these."""
    inner = getattr(prior, "inner", None)
    if inner is not None and isinstance(prior, Agent):
        return _raw_scorer(inner)
    method = getattr(prior, "prior", None)
    if callable(method) and not isinstance(method, Agent):
        return method
    ranked = getattr(prior, "ranked", None)
    if callable(ranked):
        return lambda state: rank_scores(state, ranked(state))
    if callable(prior) and not isinstance(prior, Agent):
        return prior
    return None


def rank_scores(state: State, ranked: list[Choice]) -> list[float]:
    """A ranking (every legal choice once, best first) as scores in legal order: the first
    gets n, the last 1; ValueError for another list."""
    legal = state.legal_choices()
    place = {c: k for k, c in enumerate(ranked)}
    if len(ranked) != len(legal) or len(place) != len(legal) or any(c not in place for c in legal):
        raise ValueError(f"ranked(state) listed {len(ranked)} choices, the decision has "
                         f"{len(legal)} legal ones: allowed each legal choice once, best first")
    return [float(len(legal) - place[c]) for c in legal]


def _checked(who: str, where: tuple[int, Any, int], got: Any) -> list[float]:
    """The prior's answer at ``where`` (turn, decision, legal count) as floats, or one
    AgentError line saying what was wrong."""
    n = where[2]
    try:
        z = np.asarray(got, dtype=np.float64)
    except (TypeError, ValueError):
        z = None
    if z is None or z.shape != (n,) or not np.isfinite(z).all():
        text = repr(got)
        text = text if len(text) <= 60 else text[:57] + "..."
        raise AgentError(f"{who} answered {text} at {_at(*where)}: allowed {n} finite numbers, "
                         "one per state.legal_choices() entry, higher first")
    return z.tolist()


def _at(turn: int, decision: Any, n: int) -> str:
    return f"turn {turn}, fighter {decision.fighter}'s {decision.kind} decision ({n} legal)"


def _prior_name(prior: Any) -> str:
    if isinstance(prior, Agent) or hasattr(prior, "name"):
        return _named(prior)
    return repr(getattr(prior, "__qualname__", None) or type(prior).__name__)
