"""``hexdojo agents`` and ``hexdojo rules``: what can fight, and the rules they fight by."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Annotated

import typer

from hexdojo.envs.rules import load_tables
from hexdojo.envs.rules.reference import maneuver_reference, rules_reference

from ..files import atomic_write_text
from ..registry import describe_agents
from .common import clean_errors


def list_agents() -> None:
    """List the agents and their parameters."""
    for name, doc, params in describe_agents():
        typer.echo(f"{name:<10} {doc}" + (f"  [{params}]" if params else ""))
    typer.echo("*.zip      a learned checkpoint (needs the rl extra)")
    typer.echo("FILE.py:Class[:key=value,...]  your own agent class (docs/plugins.md)")


@clean_errors
def rules_cmd(
    maneuver: Annotated[str | None, typer.Argument(help="one maneuver, e.g. 'Arm Grab'")] = None,
    rules: Annotated[Path | None, typer.Option(help="rule overrides (TOML)")] = None,
    write: Annotated[Path | None, typer.Option(help="write the whole reference to this file")] = None,
) -> None:
    """The rules reference generated from the rules data (docs/rules.md), or one maneuver."""
    t = load_tables(rules)
    if maneuver is None:
        text = rules_reference(t)
        if write is None:
            typer.echo(text, nl=False)
            return
        atomic_write_text(write, text)
        typer.echo(f"wrote {write}")
        return
    if maneuver not in t.maneuvers:
        close = difflib.get_close_matches(maneuver, list(t.maneuvers), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise ValueError(f"maneuver: value {maneuver!r}: unknown{hint} (see `hexdojo rules`)")
    typer.echo(maneuver_reference(maneuver, t))
