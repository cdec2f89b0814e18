"""``hexdojo tournament``: the round robin, its report and (``--tactics``) its tactics."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from ..folders import check_out_folder, report_folder
from ..lab.common import parse_rules, require_lab
from ..plugins import forfeit_mode
from ..registry import agent_names, make_agent
from ..report import summary, write_report
from ..scaleout import use_ray
from ..team_checks import check_round_robin
from ..tournament import TournamentConfig, default_workers, run_tournament
from .common import ForfeitOpt, RayOpt, clean_errors, parse_fighters
from .fight import RadiusOpt, SceneOpt, SeedOpt, TurnLimitOpt
from .lab import tournament_tactics
from .npc_defaults import own_fighters, own_rules, own_turn_limit, warn_mismatch

#: a tournament's rules: a TOML file, or the lab's inline form (issue 34)
TournamentRulesOpt = Annotated[str | None, typer.Option(
    "--rules", help="TOML file overriding rule values, or inline section.key=value;...")]


@clean_errors
def tournament(
    agents: Annotated[list[str], typer.Argument(
        help=f"agents: names ({', '.join(agent_names())}), "
             "NAME:key=value,..., checkpoint .zip files, plug-ins FILE.py:Class[:k=v,...] "
             "or a scene side's team A+B (one agent per place)")],
    fights: Annotated[int, typer.Option("--fights", "-n", min=1, max=10_000_000,
                                        help="fights per ordered pairing")] = 100,
    fighters: Annotated[str | None, typer.Option(
        "--fighters", help="two fighter presets or TOML files, comma-separated (one = mirror; "
                           "default chu,chu, or a trained NPC's own from its .json)")] = None,
    seed: SeedOpt = 0,
    workers: Annotated[int | None, typer.Option(
        "--workers", "-j", min=1, max=256, help="processes (default: one per core)")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="folder for the results")
                   ] = Path("tournament"),
    rules: TournamentRulesOpt = None,
    radius: RadiusOpt = 4,
    turn_limit: TurnLimitOpt = None,
    progress: Annotated[bool, typer.Option(help="show a progress bar")] = True,
    tactics: Annotated[bool, typer.Option(
        help="also mine tactics (re-plays the fights): OUT/tactics/report.html")] = True,
    scene: SceneOpt = None,
    forfeit_on_error: ForfeitOpt = False,
    ray: RayOpt = None,
) -> None:
    """Round robin: every pairing on both sides with the same dice seeds; writes JSON, CSV,
    plots and an HTML report."""
    if tactics:  # the tactics report's statistics: one line before anything else
        require_lab("hexdojo tournament's tactics step (--no-tactics skips it)")
    check_out_folder(out)
    built = [make_agent(a) for a in agents]  # fails fast on bad names / checkpoints
    use_ray(ray)
    if rules is not None:
        parse_rules(rules)  # a missing file or a bad key: one line before any fight
    fighters, scene = own_fighters(built, fighters, scene)
    turn_limit = own_turn_limit(built, turn_limit)
    rules = own_rules(built, rules)
    cfg = TournamentConfig(tuple(a.name for a in built), fights, tuple(parse_fighters(fighters)),
                           seed, rules, radius, turn_limit, workers or default_workers(), scene)
    warn_mismatch(built, cfg.game(), scene)
    check_round_robin(built, cfg.game())
    with report_folder(out, "tournament", owns=("tactics",)) as tmp, \
            forfeit_mode(forfeit_on_error):
        _tournament_report(cfg, built, tmp, out, progress, tactics)


def _tournament_report(cfg: TournamentConfig, built: list[Any], tmp: Path, out: Path,
                       progress: bool, tactics: bool) -> None:
    """Play the round robin and write its report (and tactics) into ``tmp``, which becomes
    ``out`` when all of it is written."""
    tty = sys.stderr.isatty()
    result = run_tournament(cfg, built, progress=progress and tty, lines=progress and not tty)
    paths = write_report(result, tmp)
    s = summary(result)
    typer.echo(f"{s['fights']} fights in {s['elapsed_s']:.1f} s "
               f"({s['fights_per_s']} fights/s, {cfg.workers} worker(s))")
    for r in s["ratings"]["table"]:
        typer.echo(f"{r['rank']:>3}. {r['agent']:<32} {r['elo']:7.1f}  "
                   f"[{r['ci_lo']:.0f}, {r['ci_hi']:.0f}]")
    typer.echo(f"report: {out / paths['html'].relative_to(tmp)}")
    if tactics:
        tournament_tactics(tmp, built, cfg.workers, progress, shown=out)
