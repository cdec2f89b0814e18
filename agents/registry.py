"""Agents by name: ``make_agent("striker:aggression=0.8,risk=2")``.

One registry for the CLI, tournaments and the environments' opponent slot, so that an
agent is named the same way everywhere. A spec is ``NAME`` or ``NAME:KEY=VALUE,...``, or
the path of a learned checkpoint (``*.zip``), or ``guided:prior=SPEC[,sims=N,...]`` (the
MCTS search over a prior made from another spec: :func:`make_guided`). Bad specs raise
:class:`AgentError` with a message that names the bad part and lists what is allowed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from .base import Agent, AgentError, FunctionAgent, key_values
from .guided import GuidedMCTS, load_prior
from .levels import level_agent, split_level_spec
from .mcts import MCTS_PARAMS, MCTSAgent
from .plugins import PluginAgent, is_plugin_spec
from .policy import LearnedAgent
from .scripted import STYLE_PARAMS, RandomAgent, style_agent
from .search import SEARCH_PARAMS, SearchAgent
from .team import make_team, split_team

ParamSpec = dict[str, tuple[type, float, float, str]]


def _random(params: dict[str, Any]) -> Agent:
    return RandomAgent()


def _style(kind: str) -> Callable[[dict[str, Any]], Agent]:
    def build(params: dict[str, Any]) -> Agent:
        return style_agent(kind, **params)

    return build


def _search(params: dict[str, Any]) -> Agent:
    return SearchAgent(**params)


def _mcts(params: dict[str, Any]) -> Agent:
    return MCTSAgent(**params)


def _mcts_params() -> ParamSpec:
    return MCTS_PARAMS


def _style_params() -> ParamSpec:
    return STYLE_PARAMS


def _search_params() -> ParamSpec:
    return SEARCH_PARAMS


#: name -> (description, builder, parameter table loader)
AGENTS: dict[str, tuple[str, Callable[[dict[str, Any]], Agent], Callable[[], ParamSpec]]] = {
    "random": ("uniformly random legal choices", _random, dict),
    "greedy": ("best immediate expected outcome (one-ply)", _style("greedy"), _style_params),
    "striker": ("chains Martial Strikes and kicks", _style("striker"), _style_params),
    "grappler": ("goes for grab, lock and throw", _style("grappler"), _style_params),
    "counter": ("waits, blocks or dodges, punishes with follow-ons", _style("counter"),
                _style_params),
    "search": ("Monte-Carlo search over clone() with scripted rollouts", _search,
               _search_params),
    "mcts": ("open-loop UCT tree search over clone(), scripted prior and rollouts", _mcts,
             _mcts_params),
    "swordsman": ("armed: keeps the opponent in its strike zone, out of its own hex; "
                  "strikes with the best weapon mode, blocks and parries", _style("swordsman"),
                  _style_params),
}


def agent_names() -> list[str]:
    """The registered agent names (checkpoints ``*.zip`` are accepted besides these)."""
    return list(AGENTS)


def as_agent(obj: Any) -> Agent:
    """An :class:`Agent` from an agent, a spec string (see ``make_agent``) or a callable."""
    if isinstance(obj, Agent):
        return obj
    if isinstance(obj, str):
        return make_agent(obj)
    if callable(obj):
        return FunctionAgent(obj)
    raise AgentError(
        f"agent {obj!r}: expected an Agent, an agent name (e.g. 'greedy') or a callable "
        "f(state) -> Choice"
    )


def describe_agents() -> list[tuple[str, str, str]]:
    """(name, what it does, its parameters) for help texts."""
    out = []
    for name, (doc, _, params) in AGENTS.items():
        ps = ", ".join(f"{k}={lo:g}..{hi:g}" for k, (_, lo, hi, _) in params().items())
        out.append((name, doc, ps))
    return out


def _parse_value(agent: str, key: str, raw: str, spec: tuple[type, float, float, str]) -> Any:
    typ, lo, hi, _ = spec
    try:
        value: Any = typ(float(raw)) if typ is int and float(raw).is_integer() else typ(raw)
    except ValueError:
        kind = "a whole number" if typ is int else "a number"
        raise AgentError(
            f"agent {agent!r}: {key}={raw!r} is not {kind}; allowed {lo:g}..{hi:g}"
        ) from None
    if not lo <= value <= hi:
        raise AgentError(f"agent {agent!r}: {key}={raw}: allowed {lo:g}..{hi:g}")
    return value


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``NAME:KEY=VALUE,...`` into a registered name and checked parameters."""
    text = spec.strip()
    name, _, rest = text.partition(":")
    name = name.strip().lower()
    if name not in AGENTS:
        raise AgentError(
            f"unknown agent {spec!r}; allowed: {', '.join(AGENTS)} "
            "(optionally NAME:key=value,...), a checkpoint path ending in .zip, a "
            "plug-in FILE.py:Class[:key=value,...], a calibrated run's level RUN:LEVEL or a team "
            "A+B (one agent per place of a side)"
        )
    table = AGENTS[name][2]()
    raw = key_values(spec, rest, table, lambda key: f"unknown parameter {key!r}")
    return name, {key: _parse_value(name, key, v, table[key]) for key, v in raw.items()}


def canonical(name: str, params: dict[str, Any]) -> str:
    """The spec string an agent is reported under (parameters sorted)."""
    if not params:
        return name
    return name + ":" + ",".join(f"{k}={params[k]:g}" if isinstance(params[k], float)
                                 else f"{k}={params[k]}" for k in sorted(params))


def is_checkpoint(spec: str) -> bool:
    return spec.strip().lower().endswith(".zip")


def make_agent(spec: str) -> Agent:
    """An agent from a spec: a registered name with parameters, or a checkpoint path."""
    if not isinstance(spec, str) or not spec.strip():
        raise AgentError(f"agent spec {spec!r}: expected a name such as {', '.join(AGENTS)}")

    if split_team(spec) is not None:  # a side's places, one agent each: greedy+runs/npc:hard
        return make_team(spec, make_agent)

    if is_guided_spec(spec):  # the search over a prior: guided:prior=runs/npc/npc.zip
        return make_guided(spec)

    if split_level_spec(spec) is not None:  # a calibrated run's level: runs/npc:hard
        return level_agent(spec, make_agent)

    if is_plugin_spec(spec):  # the user's own class: FILE.py:Class[:key=value,...]
        return PluginAgent(spec)
    from .rllib_backend import is_rllib_run  # optional: pettingzoo (the RLlib backend)

    if is_rllib_run(spec):  # a `hexdojo train --backend rllib` run folder
        from .rllib_backend import RLlibAgent  # optional: pettingzoo, ray

        return RLlibAgent(spec.strip())
    if is_checkpoint(spec):
        path = Path(spec.strip())
        if not path.is_file():
            raise AgentError(f"checkpoint {str(path)!r} not found")

        agent = LearnedAgent.load(path)  # a missing rl extra: one line (policy._maskable_ppo)
        agent.name = agent.name if agent.name not in ("agent", "") else path.stem
        agent.spec = spec.strip()
        return agent
    name, params = parse_spec(spec)
    agent = AGENTS[name][1](params)
    agent.name = canonical(name, params)
    return agent


#: the spec form of :class:`~.guided.GuidedMCTS` (not a registered name: it needs a prior)
GUIDED = "guided"


def is_guided_spec(spec: str) -> bool:
    return spec.strip().partition(":")[0].strip().lower() == GUIDED


def make_guided(spec: str) -> Agent:
    """``guided:prior=SPEC[,sims=N,width=W,horizon=H,c=C,time=MS,caution=X]``: GuidedMCTS
    (defaults 96 simulations, width 2) over the prior SPEC makes: a checkpoint ``*.zip`` or a
    run folder (its ``npc.zip``), a level ``RUN:LEVEL``, a registered name without parameters
    (its ranking) or a plug-in ``FILE.py:Class`` (its ``prior(state)`` or ``ranked(state)``).
    Its name keeps the prior as given, its spec the prior's own spec (a path made absolute)."""
    rest = spec.strip().partition(":")[2]
    raw = key_values(spec, rest, {"prior": None, **MCTS_PARAMS}, lambda k: f"unknown parameter {k!r}")
    given = raw.pop("prior", "")
    if not given:
        raise AgentError(f"agent {spec!r}: name the search's prior, e.g. "
                         "guided:prior=runs/npc/npc.zip,sims=96; allowed a checkpoint (*.zip), "
                         "a run folder, a level RUN:LEVEL, an agent name or a plug-in FILE.py:Class")
    params = {k: _parse_value(GUIDED, k, v, MCTS_PARAMS[k]) for k, v in raw.items()}
    prior = load_prior(given) if Path(given).is_dir() and not is_checkpoint(given) else make_agent(given)
    agent = GuidedMCTS(prior, **params)
    agent.name = canonical(GUIDED, {**params, "prior": given})
    agent.spec = canonical(GUIDED, {**params, "prior": spec_of(prior)})
    return agent


def spec_of(agent: Agent) -> str:
    """The spec that re-builds ``agent`` in another run (results record it, so that
    ``hexdojo tactics RESULTS`` re-builds plug-ins and checkpoints, not only named agents);
    a file's path is made absolute so the results can be read from any folder."""
    spec = str(getattr(agent, "spec", None) or agent.name)

    if is_plugin_spec(spec):
        path, _, rest = spec.partition(":")
        return f"{Path(path).resolve()}:{rest}"
    if (is_checkpoint(spec) or Path(spec).is_dir()) and Path(spec).exists():
        return str(Path(spec).resolve())
    return spec
