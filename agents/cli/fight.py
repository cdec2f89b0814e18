"""``hexdojo demo``, ``play`` and ``replay``: one fight, watched, played or stepped through.

The fighters, scene, turn limit and rules default to a trained NPC's own
(:mod:`.npc_defaults`); a fight can be saved (``--save``) for ``replay``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from hexdojo.envs.render import render_text
from hexdojo.envs.rules import Game

from ..checkpoint_meta import agent_meta, checkpoint_defaults, describe
from ..fightfile import rules_changed
from ..play import FightLog, HumanAgent, QuitFight, load_fight, result_line, run_fight, save_fight
from ..play import replay as run_replay
from ..registry import make_agent
from ..team import teams_by_place
from ..team_checks import check_sides
from .common import clean_errors, parse_fighters
from .npc_defaults import own_fighters, own_rules, own_turn_limit, warn_mismatch

RulesOpt = Annotated[Path | None, typer.Option(
    "--rules", help="TOML file overriding rule values", dir_okay=False)]
SeedOpt = Annotated[int, typer.Option("--seed", min=0, help="dice seed")]
TurnLimitOpt = Annotated[int | None, typer.Option(
    "--turn-limit", min=1, max=10_000, help="turns before a draw (default: rules data)")]
RadiusOpt = Annotated[int, typer.Option("--radius", min=1, max=20, help="arena radius in hexes")]
SceneOpt = Annotated[str | None, typer.Option(
    "--scene", help="a scene (shipped name or TOML file): fighters, sides, start, arena; "
                    "replaces --fighters, --radius and --turn-limit")]
SaveOpt = Annotated[Path | None, typer.Option("--save", help="save the fight for `replay`")]


def _game(fighters: list[str], rules: Path | None, radius: int, turn_limit: int | None,
          scene: str | None = None) -> Game:
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
    save_fight(save, FightLog(fs, seed, choices, [a.name for a in pair],
                              str(rules) if rules else None, radius, turn_limit,
                              state.events, state.result, scene, state.game.tables.id))
    typer.echo(f"saved to {save}")


def _sides_line(game: Game, names: list[str]) -> str:
    """Which agent plays which side and fighters (a scene), for the demo's first line."""
    out = []
    for side, agent in enumerate(names):
        members = [p.name for p, sd in zip(game.profiles, game.sides, strict=True) if sd == side]
        out.append(f"{agent} plays {game.side_name(side)} ({', '.join(members)})")
    return "; ".join(out)


# --------------------------------------------------------------------------- demo
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
    save: SaveOpt = None,
    scene: SceneOpt = None,
) -> None:
    """A demo fight between two presets (or a scene's two sides), printing the event log."""
    names = _split_agents(agents)
    if len(names) < 2:
        raise ValueError(f"agents: value {agents!r}: give one per side (e.g. striker,counter), "
                         "one per place of a scene, or a side's team A+B")
    pair = [make_agent(n) for n in names]
    fighters, scene = _demo_setup(pair, fighters, scene)
    turn_limit = own_turn_limit(pair, turn_limit)
    rules = own_rules(pair, rules)
    fs = parse_fighters(fighters) if scene is None else []
    game = _game(fs, None if rules is None else Path(rules), radius, turn_limit, scene)
    if len(pair) != 2:  # one agent per place: each side's places become a team
        pair = teams_by_place(pair, game)
    warn_mismatch(pair, game, scene)
    check_sides(pair, game)
    if scene is not None:
        _two_sides(game, scene)
        fs = [p.name for p in game.profiles]
        typer.echo(_sides_line(game, [a.name for a in pair]))
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
    """``demo``'s fighters and scene as ``tournament``'s (:func:`.own_fighters`: the
    user's, else the first trained NPC's own, else chu vs urlik), and one warning line
    when a one-sided NPC is listed on the side it did not train (``--agents`` sets the
    sides)."""
    if fighters is None and scene is None and not any(agent_meta(a) for a in pair):
        return "chu,urlik", None
    for side, a in enumerate(pair if len(pair) == 2 else []):  # one per place: no sides yet
        got = agent_meta(a)
        if got is not None and got[1].get("side") in ("0", "1") \
                and int(got[1]["side"]) != side:
            typer.echo(f"warning: {a.name} was trained on side {'AB'[int(got[1]['side'])]} "
                       f"only ({got[0]}); --agents puts it on side {'AB'[side]}", err=True)
    return own_fighters(pair, fighters, scene)


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


def _two_sides(game: Game, scene: str) -> None:
    if len(set(game.sides)) != 2:
        raise ValueError(f"scene: value {scene!r}: {len(set(game.sides))} sides; two agents "
                         "play two sides (give every fighter a side)")


# --------------------------------------------------------------------------- play / replay
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
    save: SaveOpt = None,
    scene: SceneOpt = None,
) -> None:
    """Fight an agent in the terminal, choosing from the legal options by number or name
    (with ``--scene``, you play side ``--side`` of the scene: all its fighters)."""
    opp = make_agent(opponent)
    fighter, opponent_fighter, side, scene = _npc_setup(opp, fighter, opponent_fighter, side,
                                                        scene)
    fs = [fighter, opponent_fighter] if side == 0 else [opponent_fighter, fighter]
    turn_limit = own_turn_limit([opp], turn_limit)
    rules = own_rules([opp], rules)
    game = _game(fs, None if rules is None else Path(rules), radius, turn_limit, scene)
    warn_mismatch([opp], game, scene)
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
    game = Game.from_scene(meta["scene"], rules=meta.get("rules"))
    place = int(meta["place"])
    return min(1, game.sides[place]) if place < len(game.sides) else 0


@clean_errors
def replay(
    file: Annotated[Path, typer.Argument(help="a fight saved by play --save or demo --save")],
    pause: Annotated[bool, typer.Option(help="wait for Enter between steps")] = True,
    board: Annotated[bool, typer.Option(help="draw the board")] = True,
) -> None:
    """Step through a saved fight's event log with the board."""
    log = load_fight(file)
    warning = rules_changed(file, log, log.game())
    if warning:
        typer.echo(warning, err=True)
    interactive = pause and sys.stdin.isatty()
    run_replay(log, say=typer.echo, pause=input if interactive else None, board=board)
