"""``hexdojo sweep`` and ``hexdojo balance``: the lab's commands over one number.

Registered by ``lab.cli.register``; bad input is one ``error:`` line before any fight, and
the report folder is written whole under a lock (``lab.cli._in_folder``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .cli import (
    Correction,
    Progress,
    Radius,
    Seed,
    TurnLimit,
    Workers,
    _agents,
    _check_correction,
    _finish,
    _in_folder,
    _precision,
    _say,
    _workers,
)

RULES_HELP = "base rules: default, a TOML file or section.key=value;..."
Agents = Annotated[list[str], typer.Argument(help="agents (at least two: a round robin)")]
OneFighters = Annotated[str | None, typer.Option(
    "--fighters", help="the fighter pairing, e.g. chu,boris (one name = mirror; default chu,chu)")]
OneScene = Annotated[str | None, typer.Option(
    "--scene", help="a two-side scene instead of --fighters (rules keys only)")]
N = Annotated[int | None, typer.Option("-n", "--fights", min=2, max=1_000_000,
                                       help="seeds per ordered pairing at each value")]


def _pairing(fighters: str | None, scene: str | None) -> tuple[str, str]:
    from .common import parse_fighters

    if fighters and scene:
        raise ValueError("fighters: give --fighters or --scene, not both")
    return parse_fighters([fighters] if fighters else [] if scene else ["chu,chu"], scene)[0]


def sweep(
    key: Annotated[str, typer.Argument(help="KEY=a..b[:step] or KEY=v1,v2,...: a rules key "
                                       "(attack.rear_bonus), a maneuver's or weapon's number, or "
                                       "a fighter field (boris.skills.Martial Arts)")],
    agents: Agents,
    rules: Annotated[str, typer.Option("--rules", help=RULES_HELP)] = "default",
    fighters: OneFighters = None, scene: OneScene = None, fights: N = None,
    precision: Annotated[float, typer.Option(
        help="target ±points of each agent's per-side score (sets -n)")] = 5.0,
    seed: Seed = 0, workers: Workers = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="folder for the report")] = Path("sweep"),
    radius: Radius = 4, turn_limit: TurnLimit = None, correction: Correction = "holm",
    progress: Progress = True,
) -> None:
    """Every agent's score per side against one number, the same seeds at every value."""
    from ..folders import check_out_folder
    from .common import parse_rules
    from .sweep import SweepConfig, check_sweep, parse_sweep
    from .sweep_report import run_and_report

    _check_correction(correction)
    check_out_folder(out)
    built = _agents(agents)
    if len(built) < 2:
        raise ValueError("agents: give at least two")
    cfg = SweepConfig(parse_sweep(key), tuple(a.name for a in built), parse_rules(rules),
                      _pairing(fighters, scene), seed, fights, _precision(precision), radius,
                      turn_limit, _workers(workers), correction)
    check_sweep(cfg)
    res, paths = _in_folder(out, "sweep", lambda tmp: run_and_report(
        cfg, built, tmp, progress, _say))
    _finish(res, paths)


def register(app: typer.Typer) -> None:
    """Add ``sweep`` (and ``balance``) to the ``hexdojo`` app."""
    from ..cli_common import clean_errors

    app.command("sweep")(clean_errors(sweep))
