"""The lab's commands over agents and rule sets: ``compare``, ``ablate``, ``tactics`` (and
the tactics step of ``tournament``).

Bad input becomes one ``error:`` line before any fight (``common.clean_errors``); each
command prints how long it took and where its report is, written whole under a lock
(:func:`in_folder`). ``sweep`` and ``balance``, over one number, are in :mod:`.sweep`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from ..base import Agent
from ..checkpoint_meta import lab_defaults, warn_outside
from ..folders import check_out_folder, moved, report_folder
from ..lab.ablate import AblateConfig
from ..lab.ablate_report import run_and_report as run_ablate
from ..lab.common import check_game, game_for, parse_rules, require_lab, usable_maneuvers
from ..lab.common import parse_fighters as parse_pairings
from ..lab.compare import CompareConfig
from ..lab.compare_report import run_and_report as run_compare
from ..lab.stats import correct
from ..lab.tactics_report import load_config, run_tactics
from ..plugins import forfeit_mode
from ..registry import make_agent
from ..scaleout import use_ray
from ..tournament import default_workers
from .common import ForfeitOpt, RayOpt, clean_errors, warn

DEFAULT_FIELD = "greedy,striker,grappler,counter"

Fighters = Annotated[list[str] | None, typer.Option(
    "--fighters", help="a fighter pairing, e.g. chu,urlik (repeat for more; one name = mirror)")]
Seed = Annotated[int, typer.Option("--seed", min=0, help="first dice seed")]
N = Annotated[int | None, typer.Option("-n", "--fights", min=2, max=1_000_000,
                                       help="seeds per ordered pairing (default: from --precision)")]
Workers = Annotated[int | None, typer.Option("--workers", "-j", min=1, max=256,
                                             help="processes (default: one per core)")]
Radius = Annotated[int, typer.Option("--radius", min=1, max=20, help="arena radius")]
LabScene = Annotated[str | None, typer.Option(
    "--scene", help="a two-side scene (shipped name or TOML): its sides fight as a pairing")]
TurnLimit = Annotated[int | None, typer.Option("--turn-limit", min=1, max=10_000,
                                               help="turns before a draw (default: rules)")]
Correction = Annotated[str, typer.Option("--correction", help="holm or bh (Benjamini-Hochberg)")]
Progress = Annotated[bool, typer.Option(help="progress bar on a terminal")]
Out = Annotated[Path, typer.Option("--out", "-o", help="folder for the report")]
RULES_HELP = "default, a TOML file or section.key=value;..."


def precision_fraction(points: float) -> float:
    """``--precision`` (points of a score) as a fraction, refused outside (0, 100)."""
    if not 0 < points < 100:
        raise ValueError(f"precision: value {points:g}: allowed 0 < points < 100")
    return points / 100


def check_correction(correction: str, command: str) -> None:
    """A bad ``--correction`` fails before any fight (``correct`` names what is allowed),
    and so does a missing ``lab`` extra."""
    require_lab(f"hexdojo {command}")
    correct([], correction)


def workers_or_default(workers: int | None) -> int:
    return workers or default_workers()


def _pairings(fighters: list[str] | None, scene: str | None, rule_sets: tuple,
              radius: int, turn_limit: int | None) -> tuple:
    """The fighter pairings of ``--fighters`` (or the scene's; a Chu mirror by default),
    each checked to make a game under every rule set before any fight is played."""
    fps = parse_pairings(fighters or ([] if scene else ["chu,chu"]), scene)
    for r in rule_sets:
        check_game(r, fps, radius, turn_limit)
    return tuple(fps)


def distinct_agents(specs: list[str]) -> list[Agent]:
    """The agents of ``specs``, each built now (a bad one fails before any fight); a name
    given twice is refused."""
    built = [make_agent(s) for s in specs]
    names = [a.name for a in built]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup:
        raise ValueError(f"agents: {dup!r} given twice")
    return built


@clean_errors
def compare(
    agents: Annotated[list[str], typer.Argument(help="agents (see `hexdojo agents`)")],
    rules_a: Annotated[str, typer.Option("--rules-a", help=RULES_HELP)] = "default",
    rules_b: Annotated[str, typer.Option("--rules-b", help="as --rules-a")] = "default",
    fighters: Fighters = None, scene: LabScene = None, fights: N = None,
    precision: Annotated[float, typer.Option(help="target ±points of each agent's score "
                                             "difference (sets -n)")] = 3.0,
    seed: Seed = 0, workers: Workers = None, out: Out = Path("compare"),
    radius: Radius = 4, turn_limit: TurnLimit = None, correction: Correction = "holm",
    progress: Progress = True, forfeit_on_error: ForfeitOpt = False, ray: RayOpt = None,
) -> None:
    """Same agents and seeds under two rule sets: paired score shifts with 95 % intervals."""
    check_correction(correction, "compare")
    use_ray(ray)
    check_out_folder(out)
    built = distinct_agents(agents)
    if len(built) < 2:
        raise ValueError("agents: give at least two")
    ra, rb = parse_rules(rules_a), parse_rules(rules_b)
    fighters, scene, turn_limit = lab_defaults(built, fighters, scene, turn_limit, warn)
    fps = _pairings(fighters, scene, (ra, rb), radius, turn_limit)
    warn_outside(built, game_for(fps[0], ra.spec, radius, turn_limit), scene, warn)
    cfg = CompareConfig(tuple(a.name for a in built), ra, rb, fps, seed, fights,
                        precision_fraction(precision), radius, turn_limit,
                        workers_or_default(workers), correction)
    res, paths = in_folder(out, "compare", lambda tmp: run_compare(
        cfg, built, tmp, progress, warn), forfeit_on_error)
    show_result(res, paths)


def in_folder(out: Path, command: str, work: Callable[[Path], tuple[dict, dict]],
              forfeit: bool = False) -> tuple[dict, dict]:
    """Run ``work(folder)`` and write its report into ``out`` whole (replaced at the end,
    never a mix of an old and a new report), with ``out`` locked against a second run
    (``forfeit``: ``--forfeit-on-error`` while it runs)."""
    with report_folder(out, command, warn=warn) as tmp, forfeit_mode(forfeit):
        res, paths = work(tmp)
    return res, moved(paths, tmp, out)


@clean_errors
def ablate(
    agents: Annotated[list[str], typer.Argument(help="agents whose maneuvers are banned")],
    field: Annotated[str, typer.Option("--field", help="the unrestricted opponents, "
                                       "comma-separated")] = DEFAULT_FIELD,
    maneuvers: Annotated[str | None, typer.Option(
        "--maneuvers", help="comma-separated maneuvers (default: every unarmed one)")] = None,
    rules: Annotated[str, typer.Option("--rules", help=RULES_HELP)] = "default",
    fighters: Fighters = None, scene: LabScene = None, fights: N = None,
    precision: Annotated[float, typer.Option(help="target ±points of each value (sets -n)")] = 5.0,
    essential: Annotated[float, typer.Option(help="points a significant value needs to be "
                                             "flagged essential")] = 10.0,
    negligible: Annotated[float, typer.Option(help="points under which a value's upper bound "
                                              "reads 'worth at most X points'")] = 2.0,
    seed: Seed = 0, workers: Workers = None, out: Out = Path("ablate"),
    radius: Radius = 4, turn_limit: TurnLimit = None, correction: Correction = "holm",
    progress: Progress = True, forfeit_on_error: ForfeitOpt = False, ray: RayOpt = None,
) -> None:
    """Restricted play: each maneuver's value to an agent = its score drop when banned."""
    check_correction(correction, "ablate")
    use_ray(ray)
    check_out_folder(out)
    rs = parse_rules(rules)
    field_specs = [f.strip() for f in field.split(",") if f.strip()]
    built = distinct_agents(list(dict.fromkeys(agents + field_specs)))
    names = [a.name for a in built]
    ablated = tuple(names[: len(dict.fromkeys(agents))])
    fld = tuple(a.name for a in distinct_agents(field_specs))
    fighters, scene, turn_limit = lab_defaults(built, fighters, scene, turn_limit, warn)
    fps = _pairings(fighters, scene, (rs,), radius, turn_limit)
    warn_outside(built, game_for(fps[0], rs.spec, radius, turn_limit), scene, warn)
    ms = _ablated_maneuvers(maneuvers, rs, fps, radius, turn_limit)
    for opt, v in (("essential", essential), ("negligible", negligible)):
        if not 0 <= v <= 100:
            raise ValueError(f"{opt}: value {v:g}: allowed 0..100 points")
    cfg = AblateConfig(ablated, fld, tuple(ms), rs, fps, seed, fights,
                       precision_fraction(precision), radius, turn_limit,
                       workers_or_default(workers), correction, essential / 100,
                       negligible / 100)
    res, paths = in_folder(out, "ablate", lambda tmp: run_ablate(
        cfg, built, tmp, progress, warn), forfeit_on_error)
    show_result(res, paths)


def _ablated_maneuvers(maneuvers: str | None, rs: Any, fps: tuple, radius: int,
                       turn_limit: int | None) -> list[str]:
    """``--maneuvers`` checked against those the pairings' fighters can use (every unarmed
    one, and the weapon maneuvers when a fighter is armed); all of them by default."""
    known = usable_maneuvers(rs, [game_for(fp, rs.spec, radius, turn_limit) for fp in fps])
    ms = known if maneuvers is None else [m.strip() for m in maneuvers.split(",") if m.strip()]
    bad = [m for m in ms if m not in known]
    if bad or not ms:
        raise ValueError(f"maneuvers: value {bad[0] if bad else maneuvers!r}: allowed "
                         f"{', '.join(known)}")
    return ms


@clean_errors
def tactics(
    results: Annotated[Path, typer.Argument(help="a tournament (or compare) results folder")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="report folder "
                                             "(default: RESULTS/tactics)")] = None,
    workers: Workers = None, progress: Progress = True,
    separate: Annotated[bool, typer.Option(
        "--separate", help="size the run that would separate the meta-game's two leaders")] = False,
    ray: RayOpt = None, forfeit_on_error: ForfeitOpt = False,
) -> None:
    """Tactics mined from a tournament's fights: chains, lifts, decisive blows, meta-game."""
    require_lab("hexdojo tactics")
    use_ray(ray)
    folder = results if results.is_dir() else results.parent
    target = check_out_folder(out or folder / "tactics")
    conf = {**load_config(results), "separate": separate}
    built = distinct_agents(list(conf["specs"]))  # plug-ins and checkpoints by their recorded spec
    res, paths = in_folder(target, "tactics", lambda tmp: run_tactics(
        conf, built, tmp, workers_or_default(workers), progress, warn), forfeit_on_error)
    show_result(res, paths)


def tournament_tactics(out: Path, built: list[Agent], workers: int, progress: bool = True,
                       shown: Path | None = None) -> None:
    """The tactics report of a tournament just written to ``out`` (``OUT/tactics``; said
    as under ``shown``, the folder ``out`` becomes when the report is swapped in)."""
    _, paths = run_tactics(load_config(out), built, out / "tactics", workers, progress, warn)
    typer.echo(f"tactics: {(shown or out) / paths['html'].relative_to(out)}")


def show_result(res: dict, paths: dict) -> None:
    """A lab report's headlines, the fights and time it took, and where its page is."""
    for h in res.get("headlines", []):
        typer.echo(f"* {h}")
    t = res.get("elapsed_s", res.get("play_s", 0.0))
    w = res["config"].get("workers", 1)
    typer.echo(f"{res['fights']} fights in {t:.1f} s ({w} worker(s))")
    typer.echo(f"report: {paths['html']}")
