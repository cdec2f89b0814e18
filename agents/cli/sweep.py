"""``hexdojo sweep`` and ``hexdojo balance``: the lab's commands over one number.

Bad input is one ``error:`` line before any fight, and the report folder is written whole
under a lock (:func:`.lab.in_folder`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ..base import Agent
from ..folders import check_out_folder
from ..lab.balance_report import build as build_balance_report
from ..lab.balance_run import BalanceConfig, check_balance, run_balance
from ..lab.common import parse_fighters as parse_pairings
from ..lab.common import parse_rules, require_lab
from ..lab.sweep import SweepConfig, check_sweep, parse_sweep
from ..lab.sweep_report import run_and_report as run_sweep
from ..registry import make_agent
from ..scaleout import use_ray
from .common import RayOpt, clean_errors, warn
from .lab import (
    Correction,
    Progress,
    Radius,
    Seed,
    TurnLimit,
    Workers,
    check_correction,
    distinct_agents,
    in_folder,
    precision_fraction,
    show_result,
    workers_or_default,
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
    if fighters and scene:
        raise ValueError("fighters: give --fighters or --scene, not both")
    return parse_pairings([fighters] if fighters else [] if scene else ["chu,chu"], scene)[0]


@clean_errors
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
    check_correction(correction, "sweep")
    use_ray(ray)
    check_out_folder(out)
    built = distinct_agents(agents)
    if len(built) < 2:
        raise ValueError("agents: give at least two")
    cfg = SweepConfig(parse_sweep(key), tuple(a.name for a in built), parse_rules(rules),
                      _pairing(fighters, scene), seed, fights, precision_fraction(precision),
                      radius, turn_limit, workers_or_default(workers), correction)
    check_sweep(cfg)
    res, paths = in_folder(out, "sweep", lambda tmp: run_sweep(cfg, built, tmp, progress, warn))
    show_result(res, paths)


@clean_errors
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
                        radius, turn_limit, workers_or_default(workers))
    check_balance(cfg)
    res, paths = in_folder(out, "balance", lambda tmp: _solve(cfg, built, tmp, progress))
    for h in res["headlines"]:
        typer.echo(f"* {h}")
    typer.echo(f"{res['fights']} fights in {res['elapsed_s']:.1f} s ({cfg.workers} worker(s))")
    typer.echo(f"report: {paths['html']}")


def _solve(cfg: BalanceConfig, built: list[Agent], tmp: Path,
           progress: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """``balance``'s work in its report folder: the bisection, then its report."""
    res = run_balance(cfg, built, progress, warn)
    return res, build_balance_report(cfg, built, res, tmp)
