"""``hexdojo npc new``: a calibrated NPC for any two fighter sheets in seconds, from the
general policy shipped in the package (issue 33, :mod:`.general_npc`), no training first.

What it writes is an ordinary NPC run folder, so every forge command takes it as it takes a
trained run (``play --opponent OUT:hard``, ``card OUT:hard``, ``tournament``, ``advise``):

* ``npc.zip``: the general policy (or, with ``--tune STEPS``, the policy fine-tuned on this
  pairing, starting from the general one instead of from scratch);
* ``npc.json``: its sidecar (the fighters, the rules, the NPC's side, ``observation =
  "general"``, the style it leans to);
* ``levels.json``: easy .. master, measured on the spot against ``greedy`` on the NPC's
  side as ``hexdojo calibrate`` does (the final policy at several temperatures, with the
  style's lean when ``--style`` is given), with fewer fights and every interval shown.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from hexdojo.envs.rules import Game
from hexdojo.envs.rules.scene import resolve_path

from .base import AgentError
from .cli_common import clean_errors, parse_fighters
from .general_npc import SHIPPED

#: the calibration's temperatures (fewer than ``calibrate``'s: seconds, not minutes)
NEW_TEMPERATURES = (0.0, 2.0, 4.0, 8.0)
#: how hard the style's lean pushes (added to the logit of each of its moves)
STYLE_BIAS = 2.0


def check_general(policy: Path, game: Game) -> None:
    """Refuse in one line a missing general policy, or rules whose spaces it cannot read."""
    from hexdojo.envs.sheets import general_space

    from .policy import general_size

    if not policy.is_file():
        raise AgentError(f"general NPC {str(policy)!r}: file not found (the package ships "
                         "agents/data/general_npc.zip; scripts/train_general_npc.py makes it)")
    want = int(general_space(game).shape[0])
    if want != general_size():
        raise AgentError(f"rules {game.tables.id!r}: their catalogue or observation differ from "
                         "the shipped rules' (the general NPC reads "
                         f"{general_size()} numbers, these rules give {want}); train an NPC for "
                         "them with `hexdojo train`")


def write_run(out: Path, policy: Path, fighters: Sequence[str], rules: str | None,
              side: str, style: str | None, game: Game) -> None:
    """``npc.zip`` (a copy of ``policy``) and its sidecar ``npc.json`` in ``out``."""
    from .checkpoint_meta import FORMAT, VERSION, hexdojo_version, write_meta
    from .files import atomic_write_bytes

    out.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(out / "npc.zip", policy.read_bytes())
    write_meta(out / "npc.zip", {
        "format": FORMAT, "version": VERSION, "fighters": list(fighters),
        "profiles": [p.name for p in game.profiles], "rules": rules,
        "rules_id": game.tables.id, "scene": None, "place": None, "side": side,
        "radius": game.radius, "turn_limit": game.turn_limit, "env": "general",
        "observation": "general", "style": style, "steps": 0, "hexdojo": hexdojo_version()})


def tune(out: Path, fighters: Sequence[str], rules: str | None, steps: int, seed: int,
         say: Callable[[str], None]) -> None:
    """Fine-tune ``out/npc.zip`` on this pairing for ``steps`` PPO steps (16 duels in the
    core against the training pool's scripted styles), starting from the general policy."""
    from sb3_contrib import MaskablePPO

    from .general_npc import GeneralConfig
    from .general_vec import GeneralVecEnv
    from .training.pool import PoolOpponent
    from .training.rundir import atomic_save_model

    cfg = GeneralConfig(seed=seed)
    env = GeneralVecEnv([(tuple(fighters), rules)], 16,
                        lambda: PoolOpponent(list(cfg.scripted), None, 0.0, seed=seed),
                        turn_limit=cfg.turn_limit, shaping=cfg.shaping)
    env.seed(seed)
    model = MaskablePPO.load(str(out / "npc.zip"), env=env, device="cpu")
    model.n_steps = max(8, min(model.n_steps, steps // env.num_envs))
    model.rollout_buffer.buffer_size = model.n_steps
    model.rollout_buffer.reset()
    say(f"tuning on this pairing: {steps:,} steps")
    model.learn(total_timesteps=steps, progress_bar=False)
    atomic_save_model(model, out / "npc.zip")


def new_npc(fighters: Sequence[str], out: Path, rules: str | None = None,
            style: str | None = None, side: str = "0", tune_steps: int = 0, fights: int = 40,
            seed: int = 0, policy: Path = SHIPPED, workers: int = 1,
            say: Callable[[str], None] = print) -> dict[str, Any]:
    """The NPC folder ``out`` for ``fighters`` (see the module); returns ``levels.json``."""
    from .calibrate import calibrate

    t0 = time.perf_counter()
    # fighter and rules files recorded absolute, as training records them: the folder is
    # used from anywhere (play, calibrate, card run from another working directory)
    here = Path.cwd()
    fighters = [resolve_path(f, here) for f in fighters]
    rules = None if rules is None else resolve_path(rules, here)
    game = Game.create(list(fighters), rules=rules, turn_limit=20)
    check_general(policy, game)
    write_run(out, policy, fighters, rules, side, style, game)
    if tune_steps > 0:
        tune(out, fighters, rules, tune_steps, seed, say)
    options = {"style": style, "style_bias": STYLE_BIAS} if style else {}
    cal = calibrate(out, fights=fights, seed=seed, temperatures=NEW_TEMPERATURES,
                    workers=workers, say=say, progress=False, options=options)
    cal.doc["seconds"] = round(time.perf_counter() - t0, 1)
    return cal.doc


# --------------------------------------------------------------------------- the command
def register(app: Any) -> None:
    """Add the ``npc`` group (``hexdojo npc new``) to the ``hexdojo`` app."""
    npc = typer.Typer(help="NPCs for any fighter sheets, from the shipped general policy.",
                      no_args_is_help=True)
    npc.command("new")(_new_cmd)
    app.add_typer(npc, name="npc")


@clean_errors
def _new_cmd(
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
) -> None:
    """A playable, calibrated NPC for two fighter sheets in seconds (no training first)."""
    from .calibrate import LEVELS, table_lines
    from .folders import check_out_folder
    from .style import STYLE_NAMES

    pair = parse_fighters(fighters)
    if style is not None and style not in STYLE_NAMES:
        raise ValueError(f"style: value {style!r}: allowed {', '.join(STYLE_NAMES)}")
    if level not in LEVELS:
        raise ValueError(f"level: value {level!r}: allowed {', '.join(LEVELS)}")
    if side not in ("0", "1"):
        raise ValueError(f"side: value {side!r}: allowed 0 or 1")
    if out is None:
        out = Path("runs") / f"npc-{Path(pair[0]).stem}-vs-{Path(pair[1]).stem}"
    check_out_folder(out)
    say = lambda s: typer.echo(s, err=True)  # noqa: E731
    doc = new_npc(pair, out, rules, style, side, tune_steps, fights, seed, policy, workers, say)
    for line in table_lines(doc):
        typer.echo(line)
    typer.echo(f"made {out} in {doc['seconds']:.1f} s; play it: hexdojo play --opponent "
               f"{out}:{level}  (levels {out}:easy ... {out}:master)")
