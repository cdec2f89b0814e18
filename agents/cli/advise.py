"""``hexdojo advise``: an agent's ranked choices for one position (:mod:`..advise` makes
them; this is the command that reads the position and prints them)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..advise import advise, fold_turns, load_position, render, warn_npc
from ..registry import make_agent
from .common import clean_errors, parse_fighters, warn


@clean_errors
def advise_cmd(
    position: Annotated[Path, typer.Argument(
        help="a scenario .toml ([game] + the engine's scenario fields) or a saved "
             "fight .json (demo --save / play --save)")],
    agent: Annotated[str, typer.Option(
        "--agent", "-a", help="any agent spec: a scripted style, a checkpoint .zip, "
                              "a plug-in FILE.py:Class")] = "greedy",
    step: Annotated[int | None, typer.Option(
        "--step", "-k", min=0, help="saved fight: the position after this many choices "
        "(default 0: its first decision)")] = None,
    fighters: Annotated[str | None, typer.Option(
        "--fighters", help="scenario: two presets or fighter files (overrides [game])")] = None,
    scene: Annotated[str | None, typer.Option("--scene", help="scenario: a scene")] = None,
    seed: Annotated[int | None, typer.Option("--seed", min=0, help="scenario: dice seed")] = None,
    top: Annotated[int, typer.Option("--top", min=1, help="choices shown")] = 12,
    turns: Annotated[bool, typer.Option(
        help="list the turning variants of each maneuver too (default: its best one)")] = False,
) -> None:
    """An agent's ranked choices for one position, with values or probabilities and
    the hit odds of each attack: for a GM deciding the NPC's move at the table."""
    fs = None if fighters is None else parse_fighters(fighters)
    who = make_agent(agent)
    state = load_position(position, step, fs, scene, seed, warn)
    warn_npc(who, state, warn)
    what, rows = advise(who, state)
    folded = 0
    if not turns:
        rows, folded = fold_turns(rows)
    for line in render(who, state, what, rows, top):
        typer.echo(line)
    if folded:
        typer.echo(f"     ({folded} variants that only add a turn folded; --turns lists them)")
