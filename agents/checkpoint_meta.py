"""Checkpoints that remember what they were trained on: a ``.json`` sidecar per ``.zip``.

``hexdojo train`` writes ``npc.json`` next to ``npc.zip`` (and ``best.json``,
``checkpoints/latest.json``): the fighters, the rule set's id, the scene and place, the
side(s), the environment version, the observation scale and the steps. ``hexdojo play``
and ``hexdojo tournament`` read it so that a trained NPC is played with its own fighters
when the user names none (and say so), and so that a fight the NPC was not trained for is
warned about in one line instead of silently played. Checkpoints without a sidecar (older
runs, a user's own MaskablePPO) keep working as before: nothing is assumed about them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexdojo.envs import DUEL_ID, DUEL_V1_ID, SKIRMISH_ID

from .base import RUN_CHECKPOINT, AgentError
from .files import read_format_json
from .report import atomic_write_text
from .sidecars import check_npc_meta

if TYPE_CHECKING:
    from hexdojo.envs.rules import Game

    from .training.config import TrainConfig

FORMAT = "hexdojo-npc"
VERSION = 1
SIDE_WORDS = {"alternate": "both sides (alternating)", "random": "both sides (random)",
              "0": "side A only", "1": "side B only"}


def meta_path(checkpoint: str | Path) -> Path:
    """``runs/npc/npc.zip`` -> ``runs/npc/npc.json``."""
    return Path(checkpoint).with_suffix(".json")


def env_id(cfg: TrainConfig) -> str:
    """The environment (and version) the run trained on."""
    if cfg.scene is not None:
        return SKIRMISH_ID
    return DUEL_V1_ID if cfg.observation_scale == "unit" else DUEL_ID


def hexdojo_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hexdojo")
    except PackageNotFoundError:  # pragma: no cover - not installed
        return "unknown"


def npc_meta(cfg: TrainConfig, game: Game, steps: int) -> dict[str, Any]:
    """What a checkpoint of the run ``cfg`` (on ``game``) was trained on."""
    return {
        "format": FORMAT, "version": VERSION,
        "fighters": list(cfg.fighters) if cfg.scene is None else [p.name for p in game.profiles],
        "profiles": [p.name for p in game.profiles],
        "rules": cfg.rules, "rules_id": game.tables.id,
        "scene": cfg.scene, "place": cfg.place, "side": cfg.side,
        "radius": cfg.radius, "turn_limit": cfg.turn_limit,
        "env": env_id(cfg), "observation_scale": cfg.observation_scale,
        "style": getattr(cfg, "style", None),
        "steps": int(steps), "hexdojo": hexdojo_version(),
    }


def write_meta(checkpoint: str | Path, meta: dict[str, Any]) -> Path:
    """The sidecar of ``checkpoint``, written atomically."""
    path = meta_path(checkpoint)
    atomic_write_text(path, json.dumps(meta, indent=2) + "\n")
    return path


def read_meta(checkpoint: str | Path | None) -> dict[str, Any] | None:
    """The sidecar of ``checkpoint``, or None if it has none (or is not a checkpoint)."""
    if checkpoint is None or not str(checkpoint).lower().endswith(".zip"):
        return None
    path = meta_path(checkpoint)
    if not path.is_file():
        return None

    doc = read_format_json(path, FORMAT, str(path), "checkpoint description", AgentError,
                           "; delete it or retrain")
    check_npc_meta(doc, str(path))
    return doc


def agent_meta(agent: Any) -> tuple[Path, dict[str, Any]] | None:
    """(sidecar path, metadata) of a checkpoint agent or of a run's level (its run's
    ``npc.json``), None for any other agent."""
    path = getattr(agent, RUN_CHECKPOINT, None) or getattr(agent, "path", None)
    meta = read_meta(path)
    return (meta_path(path), meta) if meta is not None and path is not None else None


def npc_rules(meta: dict[str, Any], src: str) -> str | None:
    """The rules file the NPC trained with (its sidecar's ``rules``), checked: a file
    since moved or deleted is one line naming the sidecar, not a fight on other rules."""
    rules = meta.get("rules")
    if not rules:
        return None
    if not Path(rules).is_file():
        raise AgentError(f"{src}: field 'rules': value {rules!r}: file not found (the NPC "
                         "trained with it); put it back or give --rules")
    return str(rules)


def describe(meta: dict[str, Any]) -> str:
    """``chu vs boris`` or ``scene two_vs_one (place 0)``."""
    if meta.get("scene"):
        place = meta.get("place")
        return f"scene {meta['scene']}" + (f" (place {place})" if place is not None else "")
    return " vs ".join(meta["fighters"])


def mismatch(what: str, meta: dict[str, Any], game: Game, scene: str | None) -> str | None:
    """One warning line if ``game`` is not what the checkpoint was trained on, else None."""
    src = meta.get("_path", "its .json")
    if (meta.get("scene") or None) != (scene or None):
        trained = describe(meta)
        now = f"scene {scene}" if scene else "no scene"
        return (f"warning: {what} was trained on {trained} ({src}); this fight has {now}: "
                "it plays outside its training")
    names = [p.name for p in game.profiles]
    if meta.get("profiles") and list(meta["profiles"]) != names:
        return (f"warning: {what} was trained as {' vs '.join(meta['profiles'])} ({src}); "
                f"this fight is {' vs '.join(names)}: it plays outside its training")
    if meta.get("rules_id") and meta["rules_id"] != game.tables.id:
        return (f"warning: {what} was trained on rule set {meta['rules_id']} ({src}); this "
                f"fight uses {game.tables.id}: it plays outside its training")
    return None


def checkpoint_defaults(agents: list[Any]) -> tuple[str, dict[str, Any]] | None:
    """The first checkpoint agent with a sidecar: (its sidecar path, its metadata)."""
    for a in agents:
        got = agent_meta(a)
        if got is not None:
            path, meta = got
            meta = dict(meta, _path=str(path))
            return str(path), meta
    return None


def trained_steps(progress: Path, checkpoint: Path) -> int | None:
    """Env steps a finished run trained for: its ``run.json``, else its sidecar."""
    for src in (progress, meta_path(checkpoint)):
        try:
            return int(json.loads(src.read_text(encoding="utf-8"))["steps"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return None


def extends_run(progress: Path, final: Path, steps: int | None, out: Path) -> bool:
    """``hexdojo run --steps N`` on a folder whose NPC is trained: True to train on up
    to N (more than it has), False to reuse it (no --steps, or exactly N); fewer than it
    has is refused in one line (a trained NPC is never silently reused for other steps)."""
    if steps is None or not final.is_file():
        return False
    done = trained_steps(progress, final)
    if done is None or steps > done:
        return True
    if steps < done:
        raise ValueError(f"{out}: its NPC is already trained for {done:,} env steps; "
                         f"--steps {steps:,} is fewer: leave out --steps to reuse it, give "
                         "more to extend it, or use another --out")
    return False


def lab_defaults(agents: list[Any], fighters: list[str] | None, scene: str | None,
                 turn_limit: int | None, say: Any) -> tuple[list[str] | None, str | None,
                                                          int | None]:
    """``hexdojo compare`` / ``ablate`` as ``tournament``: given no ``--fighters`` and no
    ``--scene``, the first trained NPC's own fighters (or scene); without
    ``--turn-limit``, its turn limit; each said in one line (``say``)."""
    got = checkpoint_defaults(agents)
    if got is None:
        return fighters, scene, turn_limit
    path, meta = got
    if fighters is None and scene is None:
        say(f"playing the NPC's own {'scene' if meta.get('scene') else 'fighters'}: "
            f"{describe(meta)} (from {path})")
        if meta.get("scene"):
            scene = str(meta["scene"])
        else:
            fighters = [",".join(meta["fighters"])]
    if turn_limit is None and meta.get("turn_limit") is not None and not meta.get("scene"):
        turn_limit = int(meta["turn_limit"])
        say(f"turn limit: {turn_limit} (the NPC's own, from {path})")
    return fighters, scene, turn_limit


def warn_outside(agents: list[Any], game: Game, scene: str | None, say: Any) -> None:
    """One warning line (``say``) per checkpoint agent trained on another fight than
    ``game`` (its fighters, scene or rule set; :func:`mismatch`)."""
    for a in agents:
        got = agent_meta(a)
        if got is not None:
            line = mismatch(a.name, dict(got[1], _path=str(got[0])), game, scene)
            if line is not None:
                say(line)
