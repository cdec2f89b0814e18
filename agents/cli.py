"""The ``hexdojo`` command line: demo, tournament, play, replay, agents.

Every command turns bad input (an unknown agent, a missing checkpoint or file, a value out
of range, a broken rules file) into one line on stderr and a non-zero exit status, never a
traceback. Other commands (e.g. ``train``) plug in through :data:`EXTRA_COMMANDS`: a module
listed there that exists and defines ``register(app)`` adds its commands to this app.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from .cli_common import EXIT_BAD_INPUT, ForfeitOpt, clean_errors, fail, parse_fighters
from .folders import check_out_folder, report_folder
from .interrupts import exit_within, on_sigterm
from .registry import agent_names
from .scaleout import RayOpt, use_ray

app = typer.Typer(
    add_completion=False,
    no_args_is_help=False,
    help="hexdojo: Age of Magic unarmed combat on a hex board, for AI fighters.",
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        from hexdojo.envs.rules import load_tables

        typer.echo(f"hexdojo {version('hexdojo')} (rules {load_tables().id})")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, help="print the version and the rule set id")] = False,
) -> None:
    """hexdojo: Age of Magic unarmed combat on a hex board, for AI fighters."""

#: modules that may add commands (``register(app)``); missing ones are skipped
EXTRA_COMMANDS = ("hexdojo.agents.training.cli", "hexdojo.agents.lab.cli", "hexdojo.agents.advise",
                  "hexdojo.agents.npc_cli", "hexdojo.agents.lab.sweep_cli", "hexdojo.agents.table.cli",
                  "hexdojo.agents.benchmark_cli", "hexdojo.agents.npc_new")

_fighters = parse_fighters  # the name advise.py imports


FightersOpt = Annotated[str, typer.Option(
    "--fighters", help="two fighter presets or TOML files, comma-separated (one = mirror)")]
RulesOpt = Annotated[Path | None, typer.Option(
    "--rules", help="TOML file overriding rule values", dir_okay=False)]
#: a tournament's rules: a TOML file, or the lab's inline form (issue 34)
TournamentRulesOpt = Annotated[str | None, typer.Option(
    "--rules", help="TOML file overriding rule values, or inline section.key=value;...")]
SeedOpt = Annotated[int, typer.Option("--seed", min=0, help="dice seed")]
TurnLimitOpt = Annotated[int | None, typer.Option(
    "--turn-limit", min=1, max=10_000, help="turns before a draw (default: rules data)")]
RadiusOpt = Annotated[int, typer.Option("--radius", min=1, max=20, help="arena radius in hexes")]
SceneOpt = Annotated[str | None, typer.Option(
    "--scene", help="a scene (shipped name or TOML file): fighters, sides, start, arena; "
                    "replaces --fighters, --radius and --turn-limit")]


def _game(fighters: list[str], rules: Path | None, radius: int, turn_limit: int | None,
          scene: str | None = None) -> Any:
    from hexdojo.envs.rules import Game

    if rules is not None and not rules.is_file():
        raise ValueError(f"rules: file {str(rules)!r} not found")
    if scene is not None:
        return Game.from_scene(scene, rules=str(rules) if rules else None)
    return Game.create(fighters, rules=str(rules) if rules else None, radius=radius,
                       turn_limit=turn_limit)


def _save(save: Path, fs: list[str], seed: int, choices: list[Any], pair: list[Any],
          rules: Path | None, radius: int, turn_limit: int | None, state: Any,
          scene: str | None = None) -> None:
    """Write a played fight (seed + choices + its log) for ``hexdojo replay``."""
    from .play import FightLog, save_fight

    save_fight(save, FightLog(fs, seed, choices, [a.name for a in pair],
                              str(rules) if rules else None, radius, turn_limit,
                              state.events, state.result, scene, state.game.tables.id))
    typer.echo(f"saved to {save}")


def game_agents_names(agents: list[Any]) -> list[str]:
    """Each side's agent's name (a team's: its members', joined by '+')."""
    return [a.name for a in agents]


def _sides_line(game: Any, names: list[str]) -> str:
    """Which agent plays which side and fighters (a scene), for the demo's first line."""
    out = []
    for side, agent in enumerate(names):
        members = [p.name for p, sd in zip(game.profiles, game.sides, strict=True) if sd == side]
        out.append(f"{agent} plays {game.side_name(side)} ({', '.join(members)})")
    return "; ".join(out)


# --------------------------------------------------------------------------- demo
@app.command()
@clean_errors
def demo(
    fighters: Annotated[str | None, typer.Option(
        "--fighters", help="two fighter presets or TOML files, comma-separated (one = mirror; "
                           "default chu,urlik, or a trained NPC's own from its .json)")] = None,
    agents: Annotated[str, typer.Option(
        "--agents", help="one agent per side, comma-separated (see `hexdojo agents`); in a "
                         "scene, one per place, or a side's team A+B")] = "striker,counter",
    seed: SeedOpt = 1,
    rules: RulesOpt = None,
    radius: RadiusOpt = 4,
    turn_limit: TurnLimitOpt = None,
    save: Annotated[Path | None, typer.Option("--save", help="save the fight for `replay`")] = None,
    scene: SceneOpt = None,
) -> None:
    """A demo fight between two presets (or a scene's two sides), printing the event log."""
    from hexdojo.envs.render import render_text

    from .play import result_line, run_fight
    from .registry import make_agent
    from .team import teams_by_place
    from .team_checks import check_sides

    names = _split_agents(agents)
    if len(names) < 2:
        raise ValueError(f"agents: value {agents!r}: give one per side (e.g. striker,counter), "
                         "one per place of a scene, or a side's team A+B")
    pair = [make_agent(n) for n in names]
    fighters, scene = _demo_setup(pair, fighters, scene)
    turn_limit = _npc_turn_limit(pair, turn_limit)
    rules = _npc_rules(pair, rules)
    fs = parse_fighters(fighters) if scene is None else []
    game = _game(fs, None if rules is None else Path(rules), radius, turn_limit, scene)
    if len(pair) != 2:  # one agent per place: each side's places become a team
        pair = teams_by_place(pair, game)
    _warn_mismatch(pair, game, scene)
    check_sides(pair, game)
    if scene is not None:
        _two_sides(game, scene)
        fs = [p.name for p in game.profiles]
        typer.echo(_sides_line(game, game_agents_names(pair)))
    typer.echo(render_text(game.new_state(seed)))
    typer.echo("")
    state, choices = run_fight(game, pair, seed, say=typer.echo)
    typer.echo("")
    typer.echo(render_text(state))
    typer.echo(result_line(state))
    if save is not None:
        _save(save, fs, seed, choices, pair, rules, radius, turn_limit, state, scene)


def _demo_setup(pair: list[Any], fighters: str | None,
                scene: str | None) -> tuple[str, str | None]:
    """``demo``'s fighters and scene as ``tournament``'s (:func:`_tournament_setup`: the
    user's, else the first trained NPC's own, else chu vs urlik), and one warning line
    when a one-sided NPC is listed on the side it did not train (``--agents`` sets the
    sides)."""
    from .checkpoint_meta import agent_meta

    if fighters is None and scene is None and not any(agent_meta(a) for a in pair):
        return "chu,urlik", None
    for side, a in enumerate(pair if len(pair) == 2 else []):  # one per place: no sides yet
        got = agent_meta(a)
        if got is not None and got[1].get("side") in ("0", "1") \
                and int(got[1]["side"]) != side:
            typer.echo(f"warning: {a.name} was trained on side {'AB'[int(got[1]['side'])]} "
                       f"only ({got[0]}); --agents puts it on side {'AB'[side]}", err=True)
    return _tournament_setup(pair, fighters, scene)


def _split_agents(text: str) -> list[str]:
    """``a,b`` -> [a, b], keeping a spec's own ``key=value,...`` list together:
    ``striker:aggression=0.8,risk=2,greedy`` -> [striker:aggression=0.8,risk=2, greedy]."""
    out: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if out and "=" in part and ":" not in part and ":" in out[-1]:
            out[-1] += "," + part  # a further parameter of the previous spec
        else:
            out.append(part)
    return out


def _two_sides(game: Any, scene: str) -> None:
    if len(set(game.sides)) != 2:
        raise ValueError(f"scene: value {scene!r}: {len(set(game.sides))} sides; two agents "
                         "play two sides (give every fighter a side)")


# --------------------------------------------------------------------------- tournament
@app.command()
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
    from .lab.common import parse_rules, require_lab
    from .plugins import forfeit_mode
    from .registry import make_agent
    from .team_checks import check_round_robin
    from .tournament import TournamentConfig, default_workers

    if tactics:  # the tactics report's statistics: one line before anything else
        require_lab("hexdojo tournament's tactics step (--no-tactics skips it)")
    check_out_folder(out)
    built = [make_agent(a) for a in agents]  # fails fast on bad names / checkpoints
    use_ray(ray)
    if rules is not None:
        parse_rules(rules)  # a missing file or a bad key: one line before any fight
    fighters, scene = _tournament_setup(built, fighters, scene)
    turn_limit = _npc_turn_limit(built, turn_limit)
    rules = _npc_rules(built, rules)
    cfg = TournamentConfig(tuple(a.name for a in built), fights, tuple(parse_fighters(fighters)),
                           seed, rules, radius, turn_limit, workers or default_workers(), scene)
    _warn_mismatch(built, cfg.game(), scene)
    check_round_robin(built, cfg.game())
    with report_folder(out, "tournament", owns=("tactics",)) as tmp, \
            forfeit_mode(forfeit_on_error):
        _tournament_report(cfg, built, tmp, out, progress, tactics)


def _tournament_report(cfg: Any, built: list[Any], tmp: Path, out: Path, progress: bool,
                       tactics: bool) -> None:
    """Play the round robin and write its report (and tactics) into ``tmp``, which becomes
    ``out`` when all of it is written."""
    from .report import summary, write_report
    from .tournament import run_tournament

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
        from .lab.cli import tournament_tactics

        tournament_tactics(tmp, built, cfg.workers, progress, shown=out)


def _tournament_setup(built: list[Any], fighters: str | None,
                      scene: str | None) -> tuple[str, str | None]:
    """The tournament's fighters and scene: the user's, else the first trained NPC's own
    (said in one line), else the chu mirror."""
    from .checkpoint_meta import checkpoint_defaults, describe

    got = checkpoint_defaults(built) if fighters is None and scene is None else None
    if got is None:
        return fighters or "chu,chu", scene
    path, meta = got
    typer.echo(f"playing the NPC's own {'scene' if meta.get('scene') else 'fighters'}: "
               f"{describe(meta)} (from {path})")
    if meta.get("scene"):
        return "chu,chu", meta["scene"]
    return ",".join(meta["fighters"]), None


# --------------------------------------------------------------------------- play / replay
@app.command()
@clean_errors
def play(
    opponent: Annotated[str, typer.Option(
        "--opponent", help="the agent to fight (a scene side's team: A+B, one per place)")
                        ] = "greedy",
    fighter: Annotated[str | None, typer.Option(
        "--fighter", help="your fighter (preset or TOML; default chu, or a trained NPC's "
                          "own fighters from its .json)")] = None,
    opponent_fighter: Annotated[str | None, typer.Option(
        "--opponent-fighter", help="the opponent's fighter (default chu, or the NPC's own)")] = None,
    side: Annotated[int | None, typer.Option(
        "--side", min=0, max=1, help="0: you are fighter A (default 0, or the side a "
                                     "one-sided NPC did not train on)")] = None,
    seed: SeedOpt = 0,
    rules: RulesOpt = None,
    radius: RadiusOpt = 4,
    turn_limit: TurnLimitOpt = None,
    save: Annotated[Path | None, typer.Option("--save", help="save the fight for `replay`")] = None,
    scene: SceneOpt = None,
) -> None:
    """Fight an agent in the terminal, choosing from the legal options by number or name
    (with ``--scene``, you play side ``--side`` of the scene: all its fighters)."""
    from .play import HumanAgent, QuitFight, result_line, run_fight
    from .registry import make_agent
    from .team_checks import check_sides

    opp = make_agent(opponent)
    fighter, opponent_fighter, side, scene = _npc_setup(opp, fighter, opponent_fighter, side,
                                                        scene)
    fs = [fighter, opponent_fighter] if side == 0 else [opponent_fighter, fighter]
    turn_limit = _npc_turn_limit([opp], turn_limit)
    rules = _npc_rules([opp], rules)
    game = _game(fs, None if rules is None else Path(rules), radius, turn_limit, scene)
    _warn_mismatch([opp], game, scene)
    human = HumanAgent(ask=input, say=typer.echo)
    pair = [human, opp] if side == 0 else [opp, human]
    check_sides(pair, game)
    if scene is not None:
        _two_sides(game, scene)
        fs = [p.name for p in game.profiles]
        typer.echo(_sides_line(game, ["you" if a is human else a.name for a in pair]) + ". Type q to quit.")
    else:
        typer.echo(f"You are fighter {'AB'[side]} ({game.profiles[side].name}) against "
                   f"{opp.name} ({game.profiles[1 - side].name}). Type q to quit.")
    try:
        state, choices = run_fight(game, pair, seed, say=typer.echo)
    except QuitFight:
        typer.echo("You left the fight.")
        return
    typer.echo(result_line(state))
    if save is not None:
        _save(save, fs, seed, choices, pair, rules, radius, turn_limit, state, scene)


def _npc_setup(opp: Any, fighter: str | None, opponent_fighter: str | None,
               side: int | None, scene: str | None) -> tuple[str, str, int, str | None]:
    """``play``'s fighters, side and scene: the user's, else a trained NPC's own (from its
    checkpoint's .json, said in one line), else chu vs chu with the user as fighter A."""
    from .checkpoint_meta import checkpoint_defaults, describe

    got = checkpoint_defaults([opp]) if (fighter, opponent_fighter, scene) == (None,) * 3 else None
    if got is None:
        return fighter or "chu", opponent_fighter or "chu", side or 0, scene
    path, meta = got
    if side is None:  # a one-sided NPC plays the side it learnt; the user takes the other
        side = 1 - int(meta["side"]) if meta.get("side") in ("0", "1") else 0
        if meta.get("scene") and meta.get("place") is not None:  # a scene NPC: its place's
            side = 1 - _place_side(meta)
    if meta.get("scene"):
        typer.echo(f"playing the NPC's own scene: {describe(meta)} (from {path})")
        return "chu", "chu", side, meta["scene"]
    fs = list(meta["fighters"])
    typer.echo(f"playing the NPC's own fighters: {' vs '.join(fs)} (from {path})")
    return fs[side], fs[1 - side], side, None


def _place_side(meta: dict[str, Any]) -> int:
    """The side of a scene NPC's place (0 or 1; a scene of more sides counts as 0)."""
    from hexdojo.envs.rules import Game

    game = Game.from_scene(meta["scene"], rules=meta.get("rules"))
    place = int(meta["place"])
    return min(1, game.sides[place]) if place < len(game.sides) else 0


def _npc_turn_limit(agents: list[Any], turn_limit: int | None) -> int | None:
    """``--turn-limit`` if given, else the first trained NPC's own (from its .json)."""
    from .checkpoint_meta import checkpoint_defaults

    got = checkpoint_defaults(agents) if turn_limit is None else None
    if got is None or got[1].get("turn_limit") is None or got[1].get("scene"):
        return turn_limit
    typer.echo(f"turn limit: {got[1]['turn_limit']} (the NPC's own, from {got[0]})")
    return int(got[1]["turn_limit"])


def _npc_rules(agents: list[Any], rules: Any) -> Any:
    """``--rules`` if given (played with the NPC's own fighters all the same; a rule set
    it did not train on is warned about), else the first trained NPC's own rules file
    (from its .json, said in one line), else None: the shipped rules."""
    from .checkpoint_meta import checkpoint_defaults, npc_rules

    got = checkpoint_defaults(agents) if rules is None else None
    own = npc_rules(got[1], got[0]) if got is not None else None
    if own is None:
        return rules
    typer.echo(f"rules: {own} (the NPC's own, from {got[0]})")
    return own


def _warn_mismatch(agents: list[Any], game: Any, scene: str | None) -> None:
    """One warning line per checkpoint agent whose .json says it trained on another fight."""
    from .checkpoint_meta import agent_meta, mismatch

    for a in agents:
        got = agent_meta(a)
        if got is not None:
            line = mismatch(a.name, dict(got[1], _path=str(got[0])), game, scene)
            if line:
                typer.echo(line, err=True)


@app.command()
@clean_errors
def replay(
    file: Annotated[Path, typer.Argument(help="a fight saved by play --save or demo --save")],
    pause: Annotated[bool, typer.Option(help="wait for Enter between steps")] = True,
    board: Annotated[bool, typer.Option(help="draw the board")] = True,
) -> None:
    """Step through a saved fight's event log with the board."""
    from .fightfile import rules_changed
    from .play import load_fight
    from .play import replay as run_replay

    log = load_fight(file)
    warning = rules_changed(file, log, log.game())
    if warning:
        typer.echo(warning, err=True)
    interactive = pause and sys.stdin.isatty()
    run_replay(log, say=typer.echo, pause=input if interactive else None, board=board)


@app.command("agents")
def list_agents() -> None:
    """List the agents and their parameters."""
    from .registry import describe_agents

    for name, doc, params in describe_agents():
        typer.echo(f"{name:<10} {doc}" + (f"  [{params}]" if params else ""))
    typer.echo("*.zip      a learned checkpoint (needs the rl extra)")
    typer.echo("FILE.py:Class[:key=value,...]  your own agent class (docs/plugins.md)")


@app.command("rules")
@clean_errors
def rules_cmd(
    maneuver: Annotated[str | None, typer.Argument(help="one maneuver, e.g. 'Arm Grab'")] = None,
    rules: Annotated[Path | None, typer.Option(help="rule overrides (TOML)")] = None,
    write: Annotated[Path | None, typer.Option(help="write the whole reference to this file")] = None,
) -> None:
    """The rules reference generated from the rules data (docs/rules.md), or one maneuver."""
    import difflib

    from hexdojo.envs.rules import load_tables
    from hexdojo.envs.rules.reference import maneuver_reference, rules_reference

    t = load_tables(rules)
    if maneuver is None:
        text = rules_reference(t)
        if write is None:
            typer.echo(text, nl=False)
            return
        from .report import atomic_write_text

        atomic_write_text(write, text)
        typer.echo(f"wrote {write}")
        return
    if maneuver not in t.maneuvers:
        close = difflib.get_close_matches(maneuver, list(t.maneuvers), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise ValueError(f"maneuver: value {maneuver!r}: unknown{hint} (see `hexdojo rules`)")
    typer.echo(maneuver_reference(maneuver, t))


def _register_extras() -> None:
    for mod in EXTRA_COMMANDS:
        try:
            m = importlib.import_module(mod)
        except ModuleNotFoundError as exc:
            if exc.name == mod:
                continue
            raise
        reg = getattr(m, "register", None)
        if callable(reg):
            reg(app)


_register_extras()


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``hexdojo`` script: Typer's usage errors (an unknown option, a
    value out of range, a missing argument) as the one line ``error: ...`` on stderr with
    exit status 2, like every other bad input, instead of Typer's boxed message. SIGTERM
    is handled as Ctrl-C is (one line, exit 143; ``interrupts.Terminated``)."""
    on_sigterm()
    try:
        rc = app(args=argv, standalone_mode=False, prog_name="hexdojo")
    except typer.Abort:
        fail("interrupted", 130)
    except typer.TyperException as exc:  # click's ClickException / UsageError family
        fmt = getattr(exc, "format_message", None)
        message = " ".join((fmt() if callable(fmt) else str(exc)).split())
        ctx = getattr(exc, "ctx", None)
        hint = f" (try '{ctx.command_path} --help')" if ctx is not None else ""
        typer.echo(f"error: {message}{hint}", err=True)
        raise SystemExit(getattr(exc, "exit_code", EXIT_BAD_INPUT)) from None
    rc = rc if isinstance(rc, int) else 0
    if rc in (130, 143):  # interrupted: the exit itself must not hang either
        exit_within(3.0, rc)
    raise SystemExit(rc)


if __name__ == "__main__":  # pragma: no cover
    main()
