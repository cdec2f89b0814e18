"""Calibrated levels by name: ``runs/npc:hard`` is the level ``hard`` of ``runs/npc``.

Why a module of its own: the registry resolves ``RUN:LEVEL`` specs (so a level is an
agent wherever agents are taken) and :mod:`.calibrate` measures agents made by the
registry; this leaf holds what both need (the ``levels.json`` format, reading it,
building a level's agent from its spec and options) without either importing the other
in a cycle. A level entry is an agent spec plus options (``temperature`` for a learned
policy): the hook for the master level's policy-with-search agent is a spec.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from .base import RUN_CHECKPOINT, Agent, AgentError
from .files import read_format_json
from .guided import GuidedMCTS
from .sidecars import check_levels

LEVELS_FILE = "levels.json"
FORMAT = "hexdojo-levels"
#: options a level entry may set on its agent: a learned policy's sampling temperature,
#: and ``search`` (simulations per decision): the policy then plays as the prior of the
#: MCTS agent (:class:`hexdojo.agents.guided.GuidedMCTS`), the strongest level's shape
#: ``style`` and ``style_bias``: the style a policy leans to (the general NPC's ``--style``)
OPTIONS = ("temperature", "search", "style", "style_bias")


def split_level_spec(spec: str) -> tuple[Path, str] | None:
    """``runs/npc:hard`` -> (run folder, level); None if ``spec`` is no run folder's level."""
    folder, sep, level = spec.strip().rpartition(":")
    if not sep or not folder or not level or "=" in level or "/" in level:
        return None
    root = Path(folder)
    if not root.is_dir() or not any((root / f).is_file()
                                    for f in (LEVELS_FILE, "npc.zip", "config.json")):
        return None
    return root, level.strip().lower()


def read_levels(root: Path) -> dict[str, Any]:
    """The run's ``levels.json``, or one line saying how to make it."""
    path = root / LEVELS_FILE
    if not path.is_file():
        raise AgentError(f"{root}: no {LEVELS_FILE} yet; run `hexdojo calibrate {root}` "
                         "to make its levels")

    doc = read_format_json(path, FORMAT, str(path), "levels file", AgentError,
                           "; run hexdojo calibrate again")
    if not doc.get("levels"):
        raise AgentError(f"{path}: not a hexdojo levels file (format {FORMAT!r})")

    check_levels(doc, str(path))
    return doc


def build(root: Path, entry: dict[str, Any], name: str | None,
          make: Callable[[str], Agent]) -> Agent:
    """The agent of a level (or candidate) entry: its spec (a file of the run folder, or
    any agent spec, made by ``make``: the registry's ``make_agent``) with its options applied."""
    spec = str(entry["agent"])
    local = root / spec
    agent = make(str(local) if local.is_file() else spec)
    options = dict(entry.get("options") or {})
    sims = options.pop("search", None)
    for key, value in options.items():
        if key not in OPTIONS:
            raise AgentError(f"{root / LEVELS_FILE}: option {key!r}: unknown; allowed: "
                             f"{', '.join(OPTIONS)}")
        if not hasattr(agent, key):
            raise AgentError(f"{root / LEVELS_FILE}: option {key}={value!r}: {spec} is not a "
                             "learned policy (only learned policies take a temperature)")
        setattr(agent, key, value if value is None or key == "style" else float(value))
    if sims is not None:
        agent = searched(root, spec, agent, sims)
    if name is not None:
        agent.name = name
    if (root / "npc.json").is_file():  # the level plays its run's fight in every command
        setattr(agent, RUN_CHECKPOINT, root / "npc.zip")
    return agent


def searched(root: Path, spec: str, agent: Agent, sims: Any) -> Agent:
    """The learned ``agent`` as the prior of an MCTS search of ``sims`` simulations."""
    if not hasattr(agent, "duel_inputs"):
        raise AgentError(f"{root / LEVELS_FILE}: option search={sims!r}: {spec} is not a "
                         "learned policy (only a learned policy can be the search's prior)")
    if _scene_of(root):  # the search asks the policy for duel decisions only
        raise AgentError(f"{root / LEVELS_FILE}: option search={sims!r}: {root} is an NPC of "
                         f"scene {_scene_of(root)!r}; a search's prior must be a duel NPC (a "
                         "scene's policy sees the group observation): leave out --search")
    if not isinstance(sims, int) or isinstance(sims, bool) or not 1 <= sims <= 100_000:
        raise AgentError(f"{root / LEVELS_FILE}: option search={sims!r}: allowed a whole "
                         "number of simulations, 1..100000")

    return GuidedMCTS(agent, sims=sims, name=agent.name)


def _scene_of(root: Path) -> str | None:
    """The scene the run's NPC trained on (its ``npc.json``), None for a duel's."""
    import json

    try:
        return json.loads((root / "npc.json").read_text(encoding="utf-8")).get("scene")
    except (OSError, ValueError, AttributeError):
        return None


def level_agent(spec: str, make: Callable[[str], Agent]) -> Agent:
    """``runs/npc:hard``: the level ``hard`` of the run ``runs/npc`` (its agent made by
    ``make``: the registry passes its ``make_agent``, so this module imports no registry)."""
    got = split_level_spec(spec)
    if got is None:
        raise AgentError(f"agent {spec!r}: not a run folder's level (RUN:LEVEL)")
    root, level = got
    doc = read_levels(root)
    names = [e["name"] for e in doc["levels"]]
    if level not in names:
        raise AgentError(f"{root}: no level {level!r}; allowed: {', '.join(names)} "
                         f"(from {root / LEVELS_FILE})")
    entry = doc["levels"][names.index(level)]
    return build(root, entry, f"{root.name}:{level}", make)
