"""A trained NPC's own fight as the fight commands' defaults (``demo``, ``play``,
``tournament``): when the user names no fighters, scene, turn limit or rules, a checkpoint
agent's sidecar (its ``.json``) says what it trained on, and each default taken from it is
said in one line; a fight other than the one it trained on gets one warning line."""

from __future__ import annotations

from typing import Any

import typer

from ..checkpoint_meta import agent_meta, checkpoint_defaults, describe, mismatch, npc_rules


def own_fighters(built: list[Any], fighters: str | None,
                 scene: str | None) -> tuple[str, str | None]:
    """The fighters and scene: the user's, else the first trained NPC's own (said in one
    line), else the chu mirror."""
    got = checkpoint_defaults(built) if fighters is None and scene is None else None
    if got is None:
        return fighters or "chu,chu", scene
    path, meta = got
    typer.echo(f"playing the NPC's own {'scene' if meta.get('scene') else 'fighters'}: "
               f"{describe(meta)} (from {path})")
    if meta.get("scene"):
        return "chu,chu", meta["scene"]
    return ",".join(meta["fighters"]), None


def own_turn_limit(agents: list[Any], turn_limit: int | None) -> int | None:
    """``--turn-limit`` if given, else the first trained NPC's own (from its .json)."""
    got = checkpoint_defaults(agents) if turn_limit is None else None
    if got is None or got[1].get("turn_limit") is None or got[1].get("scene"):
        return turn_limit
    typer.echo(f"turn limit: {got[1]['turn_limit']} (the NPC's own, from {got[0]})")
    return int(got[1]["turn_limit"])


def own_rules(agents: list[Any], rules: Any) -> Any:
    """``--rules`` if given (played with the NPC's own fighters all the same; a rule set
    it did not train on is warned about), else the first trained NPC's own rules file
    (from its .json, said in one line), else None: the shipped rules."""
    got = checkpoint_defaults(agents) if rules is None else None
    own = npc_rules(got[1], got[0]) if got is not None else None
    if own is None:
        return rules
    typer.echo(f"rules: {own} (the NPC's own, from {got[0]})")
    return own


def warn_mismatch(agents: list[Any], game: Any, scene: str | None) -> None:
    """One warning line per checkpoint agent whose .json says it trained on another fight."""
    for a in agents:
        got = agent_meta(a)
        if got is not None:
            line = mismatch(a.name, dict(got[1], _path=str(got[0])), game, scene)
            if line:
                typer.echo(line, err=True)
