"""``hexdojo sweep`` and ``hexdojo balance``: the lab's commands over one number.

Registered by ``lab.cli.register``; bad input is one ``error:`` line before any fight, and
the report folder is written whole under a lock (``lab.cli._in_folder``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..scaleout import RayOpt, use_ray
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
    progress: Progress = True, ray: RayOpt = None,
) -> None:
    """Every agent's score per side against one number, the same seeds at every value."""
    from ..folders import check_out_folder
    from .common import parse_rules
    from .sweep import SweepConfig, check_sweep, parse_sweep
    from .sweep_report import run_and_report

    _check_correction(correction, "sweep")
    use_ray(ray)
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


def balance(
    key: Annotated[str, typer.Argument(help="KEY=a..b: the number to solve for and its bracket "
                                       "(whole numbers: an integer key)")],
    agents: Annotated[list[str], typer.Argument(help="the target agent and its opponent (one "
                                                "agent: it plays both sides; the target is side A)")],
    goal: Annotated[float, typer.Option(help="the target's score to reach, in %")] = 50.0,
    side: Annotated[str, typer.Option(help="the target agent's side: both, A or B")] = "both",
    rules: Annotated[str, typer.Option("--rules", help=RULES_HELP)] = "default",
    fighters: OneFighters = None, scene: OneScene = None,
    fights: Annotated[int, typer.Option("-n", "--fights", min=2, max=1_000_000,
                                        help="seeds per value")] = 200,
    steps: Annotated[int, typer.Option(min=0, max=20, help="bisection steps")] = 4,
    seed: Seed = 0, workers: Workers = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="folder for the report")] = Path("balance"),
    radius: Radius = 4, turn_limit: TurnLimit = None, progress: Progress = True,
    ray: RayOpt = None,
) -> None:
    """The value of one number that brings a target's score to a goal, with its 95 % interval."""
    from ..folders import check_out_folder
    from ..registry import make_agent
    from .balance_run import BalanceConfig, check_balance
    from .common import parse_rules, require_lab
    from .sweep import parse_sweep

    require_lab("hexdojo balance")
    use_ray(ray)
    check_out_folder(out)
    if len(agents) not in (1, 2) or side not in ("both", "A", "B"):
        raise ValueError(f"agents/side: value {agents!r}/{side!r}: give one or two agents and "
                         "--side both, A or B")
    pair = (agents * 2)[:2]
    built = [make_agent(a) for a in pair]  # two instances: each side its own agent
    cfg = BalanceConfig(parse_sweep(key), (built[0].name, built[1].name), side, goal / 100,
                        parse_rules(rules), _pairing(fighters, scene), seed, fights, steps,
                        radius, turn_limit, _workers(workers))
    check_balance(cfg)
    res, paths = _in_folder(out, "balance", lambda tmp: _solve(cfg, built, tmp, progress))
    for h in res["headlines"]:
        typer.echo(f"* {h}")
    typer.echo(f"{res['fights']} fights in {res['elapsed_s']:.1f} s ({cfg.workers} worker(s))")
    typer.echo(f"report: {paths['html']}")


def _solve(cfg, built, tmp, progress):  # noqa: ANN001, ANN202 - the folder's work
    from .balance_report import build
    from .balance_run import run_balance

    res = run_balance(cfg, built, progress, _say)
    return res, build(cfg, built, res, tmp)


def register(app: typer.Typer) -> None:
    """Add ``sweep`` and ``balance`` to the ``hexdojo`` app."""
    from ..cli_common import clean_errors

    app.command("sweep")(clean_errors(sweep))
    app.command("balance")(clean_errors(balance))
