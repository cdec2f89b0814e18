"""The NPC commands over a trained run folder: ``hexdojo calibrate`` (its levels) and
``hexdojo card`` (its cards); and ``hexdojo npc new`` (a calibrated NPC for any two fighter
sheets from the shipped general policy, no training first)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from ..calibrate import (
    DEFAULT_OPPONENT,
    LEVELS,
    TEMPERATURES,
    add_notes,
    calibrate,
    ladder_notes,
    table_lines,
)
from ..card import LADDER, ladder_specs, make_cards
from ..folders import check_out_folder, folder_lock
from ..general_npc import SHIPPED
from ..levels import LEVELS_FILE, split_level_spec
from ..npc_new import new_npc
from ..registry import make_agent
from ..style import STYLE_NAMES
from .common import clean_errors, parse_fighters, warn

#: the ``npc`` command group's help (its one command: ``npc new``)
NPC_HELP = "NPCs for any fighter sheets, from the shipped general policy."


def _floats(text: str) -> tuple[float, ...]:
    try:
        values = tuple(float(x) for x in text.split(",") if x.strip())
    except ValueError:
        values = ()
    if not values or any(not 0 <= v <= 100 for v in values):
        raise ValueError(f"--temperatures: value {text!r}: numbers 0..100, comma-separated "
                         "(0: the policy's most probable choice)")
    return values


@clean_errors
def calibrate_cmd(
    run: Annotated[Path, typer.Argument(help="a trained run folder (hexdojo train/run)")],
    opponent: Annotated[str, typer.Option(
        "--opponent", help="the stand-in for a competent player")] = DEFAULT_OPPONENT,
    fights: Annotated[int, typer.Option("--fights", "-n", min=4, max=1_000_000,
                                        help="fights per candidate")] = 200,
    temperatures: Annotated[str, typer.Option(
        help="the final policy's sampling temperatures tried")] = ",".join(
            f"{t:g}" for t in TEMPERATURES),
    candidate: Annotated[list[str] | None, typer.Option(
        "--candidate", help="another agent spec to measure (repeatable), e.g. search")] = None,
    search: Annotated[list[int] | None, typer.Option(
        "--search", min=1, max=100_000, help="also the final policy as the prior of an MCTS "
        "search of this many simulations per decision (repeatable; the master level's "
        "shape, slow: about 2 s a fight at 96)")] = None,
    seed: Annotated[int, typer.Option(min=0)] = 0,
    workers: Annotated[int, typer.Option("--workers", "-j", min=1, max=64)] = 1,
    cards: Annotated[bool, typer.Option(help="write every level's card")] = True,
    card_fights: Annotated[int, typer.Option(
        min=2, max=100_000, help="cards: fights per ladder opponent")] = 100,
    card_ladder: Annotated[str, typer.Option(
        help="cards: the ladder's opponents, comma-separated")] = ",".join(LADDER),
    separate: Annotated[int, typer.Option(
        min=0, max=10, help="while adjacent levels' intervals overlap, up to this many "
        "more rounds of --fights fresh fights for the levels")] = 0,
    progress: Annotated[bool, typer.Option(help="a progress bar (or a line every 30 s)")] = True,
) -> None:
    """A trained run's levels (easy, fair, hard, master), measured on the NPC's side(s)
    against a scripted stand-in; writes RUN/levels.json (and the levels' cards)."""
    ladder = _checked_ladder(card_ladder, "--card-ladder") if cards else ()
    temps = _floats(temperatures)
    _writable_run(run)
    with folder_lock(run, "calibrate", warn=warn):
        cal = calibrate(run, opponent, fights, seed, temps, tuple(candidate or ()),
                        workers, warn, progress, tuple(search or ()), separate)
        for line in table_lines(cal.doc):
            typer.echo(line)
        typer.echo(f"wrote {run / LEVELS_FILE}: use them as {run}:easy ... {run}:master")
        if cards:
            _cards_and_ladder_order(run, card_fights, seed, workers, ladder, progress)


def _cards_and_ladder_order(run: Path, fights: int, seed: int, workers: int,
                            ladder: tuple[str, ...], progress: bool) -> None:
    """Every level's card, then the levels' order on the ladder (their cards' mean score)
    checked as well as against the stand-in: a level out of order is a note, said and
    added to ``levels.json``."""
    files = make_cards(run, None, fights, seed, workers, ladder, say=warn, progress=progress)
    for f in files:
        if f.suffix != ".json":
            typer.echo(f"wrote {f}")
    means = {}
    for f in (f for f in files if f.suffix == ".json"):
        rows = json.loads(f.read_text(encoding="utf-8"))["ladder"]
        means[f.stem] = sum(r["score"] for r in rows) / len(rows)
    notes = ladder_notes(list(LEVELS), means)
    for n in notes:
        typer.echo(f"note: {n}")
    add_notes(run, notes)


def _checked_ladder(text: str, option: str) -> tuple[str, ...]:
    """A ladder option's agent specs, each built once now, so that a bad name fails before
    any fight is played or any file written."""
    specs = ladder_specs(text)
    for spec in specs:
        try:
            make_agent(spec)
        except ValueError as exc:
            raise ValueError(f"{option}: {exc}") from None
    return specs


def _writable_run(run: Path) -> None:
    """The run folder (where levels.json and cards/ go): a folder that can be written."""
    if not run.is_dir():
        raise ValueError(f"{run}: not a run folder (hexdojo train/run makes one)")
    check_out_folder(run / "cards", "run folder")


@clean_errors
def card(
    run: Annotated[str, typer.Argument(help="a trained run folder, or RUN:LEVEL")],
    fights: Annotated[int, typer.Option("--fights", "-n", min=2, max=100_000,
                                        help="fights per ladder opponent")] = 100,
    ladder: Annotated[str, typer.Option(help="opponents, comma-separated")] = ",".join(LADDER),
    seed: Annotated[int, typer.Option(min=0)] = 0,
    workers: Annotated[int, typer.Option("--workers", "-j", min=1, max=64)] = 1,
    progress: Annotated[bool, typer.Option(help="a progress bar (or a line every 30 s)")] = True,
) -> None:
    """An NPC's card (Markdown and HTML): how it fights, its strength against the
    ladder on its side(s), its levels; written to RUN/cards/."""
    got = split_level_spec(run)
    root, levels = (got[0], [got[1]]) if got else (Path(run), None)
    if not root.is_dir():
        raise ValueError(f"{run}: not a run folder (or RUN:LEVEL)")
    specs = _checked_ladder(ladder, "--ladder")
    _writable_run(root)
    with folder_lock(root, "card", warn=warn):
        files = make_cards(root, levels, fights, seed, workers, specs, say=warn,
                           progress=progress)
    for f in files:
        if f.suffix != ".json":
            typer.echo(f"wrote {f}")


@clean_errors
def new(
    fighters: Annotated[str, typer.Option(
        "--fighters", help="the NPC's sheet, then its opponent's (presets or fighter files)")],
    out: Annotated[Path | None, typer.Option(
        "--out", help="the NPC's folder (default runs/npc-<NPC>-vs-<opponent>)")] = None,
    rules: Annotated[str | None, typer.Option(help="house rules (a rules TOML)")] = None,
    style: Annotated[str | None, typer.Option(
        help="lean to a style: grappler, striker or counter")] = None,
    level: Annotated[str, typer.Option(help="the level to show first")] = "hard",
    side: Annotated[str, typer.Option(
        help="the NPC's side: 0 (the first sheet) or 1")] = "0",
    tune_steps: Annotated[int, typer.Option(
        "--tune", min=0, max=10_000_000, help="fine-tune this many PPO steps first")] = 0,
    fights: Annotated[int, typer.Option(
        "--fights", "-n", min=4, max=100_000, help="calibration fights per candidate")] = 40,
    seed: Annotated[int, typer.Option(min=0)] = 0,
    policy: Annotated[Path, typer.Option(help="the general policy")] = SHIPPED,
    workers: Annotated[int, typer.Option("--workers", "-j", min=1, max=64)] = 1,
    search: Annotated[list[int] | None, typer.Option(
        "--search", min=1, max=100_000, help="also the policy as the prior of a search of this "
        "many simulations per decision (repeatable; the master level's shape, slower)")] = None,
) -> None:
    """A playable, calibrated NPC for two fighter sheets in seconds (no training first)."""
    pair = parse_fighters(fighters)
    _check_new(style, level, side)
    if out is None:
        out = Path("runs") / f"npc-{Path(pair[0]).stem}-vs-{Path(pair[1]).stem}"
    check_out_folder(out)
    doc = new_npc(pair, out, rules, style, side, tune_steps, fights, seed, policy, workers, warn,
                  tuple(search or ()))
    for line in table_lines(doc):
        typer.echo(line)
    typer.echo(f"made {out} in {doc['seconds']:.1f} s; play it: hexdojo play --opponent "
               f"{out}:{level}  (levels {out}:easy ... {out}:master)")


def _check_new(style: str | None, level: str, side: str) -> None:
    """``npc new``'s --style, --level and --side, each refused in one line."""
    if style is not None and style not in STYLE_NAMES:
        raise ValueError(f"style: value {style!r}: allowed {', '.join(STYLE_NAMES)}")
    if level not in LEVELS:
        raise ValueError(f"level: value {level!r}: allowed {', '.join(LEVELS)}")
    if side not in ("0", "1"):
        raise ValueError(f"side: value {side!r}: allowed 0 or 1")

