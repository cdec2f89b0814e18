"""``hexdojo train`` (NPC training) and ``hexdojo run`` (the main job: train an NPC, then a
tournament of the NPC against the scripted ladder, with its report under ``runs/``).

torch and SB3 (the rl extra) and matplotlib are imported inside the commands, after the
extra is checked, so the rest of the CLI works without them and ``hexdojo --help`` stays
fast.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from ..checkpoint_meta import extends_run
from ..extras import require
from ..files import atomic_write_bytes
from ..folders import check_out_folder, folder_lock, report_folder
from ..policy import LearnedAgent
from ..registry import make_agent
from ..report import summary, write_report
from ..rllib_backend import need_rllib
from ..tournament import TournamentConfig, default_workers, run_tournament
from ..training.config import TrainConfig, load_config
from ..training.rllib_run import ready_ray, train_rllib
from ..training.rundir import RunDir, check_same_config, read_eval
from .common import clean_errors, warn

LADDER = ("random", "greedy", "striker", "grappler", "counter")


def _need_rl() -> None:
    """torch, SB3, sb3-contrib and TensorBoard (SB3 fails on a missing one only once the
    run is set up): one line before any work."""
    require("rl", "training")


def _overrides(steps: int | None, fighters: str | None, n_envs: int | None, seed: int | None,
               name: str | None, scene: str | None = None) -> dict[str, Any]:
    if scene is not None and Path(scene).is_file():  # a GM's scene file: recorded absolute
        scene = str(Path(scene).resolve())  # (npc.json), so every command finds it anywhere
    out: dict[str, Any] = {"total_steps": steps, "n_envs": n_envs, "seed": seed, "name": name,
                           "scene": scene}
    if fighters is not None:
        parts = [p.strip() for p in fighters.split(",") if p.strip()]
        out["fighters"] = parts * 2 if len(parts) == 1 else parts
    return out


def learning_curve(eval_csv: Path, png: Path) -> Path | None:
    """Win rate against each ladder opponent over training steps, as a PNG."""
    rows = read_eval(eval_csv)
    if not rows:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    steps = [r["steps"] for r in rows]
    for key in [k for k in rows[-1] if k != "steps"]:
        ax.plot(steps, [r.get(key, float("nan")) for r in rows], marker="o", label=key)
    ax.set_xlabel("environment steps")
    ax.set_ylabel("win rate (draws count half)")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title("NPC learning curve: evaluation against the ladder")
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    atomic_write_bytes(png, buf.getvalue())
    return png


def _train_rllib(config: Path | None, overrides: dict[str, Any], out: Path | None, resume: bool,
                 address: str | None) -> None:
    """``train --backend rllib``: the same TOML as SB3's (its ``rllib`` section for Ray's
    scale), on ``--address``, ``RAY_ADDRESS`` or a local Ray; the run folder is an agent
    (``make_agent(folder)``)."""
    address = ready_ray(address)  # before ray is imported: where it binds is decided then
    if overrides.pop("total_steps", None) is not None:
        raise ValueError("--steps: the rllib backend counts --iterations (rllib.iterations; "
                         "each samples rllib.train_batch_per_runner env steps per runner)")
    cfg = _load(config, overrides, need=need_rllib)
    folder = check_out_folder(out or Path("runs") / f"{cfg.name}_rllib")
    with folder_lock(folder, "train", warn=warn):
        res = train_rllib(cfg, folder, resume, address, log=typer.echo)
    typer.echo(f"NPC: {folder} (agent spec for tournament/play: {folder}); "
               f"checkpoint {folder / res['checkpoint']}")


def _rllib_overrides(iterations: int | None, env_runners: int | None) -> dict[str, Any]:
    """``--iterations`` and ``--env-runners`` as overrides of the ``rllib`` section."""
    section = {k: v for k, v in (("iterations", iterations), ("num_env_runners", env_runners))
               if v is not None}
    return {"rllib": section} if section else {}


ConfigOpt = Annotated[Path | None, typer.Option(
    "--config", "-c",
    help="TOML file overriding the shipped defaults (agents/hyperparams/duel_v1.toml)",
    dir_okay=False)]
StepsOpt = Annotated[int | None, typer.Option("--steps", help="total env steps")]
ProgressOpt = Annotated[bool, typer.Option(help="show progress bars")]


@clean_errors
def train(
    config: ConfigOpt = None,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="run folder (default runs/<name>)")] = None,
    resume: Annotated[bool, typer.Option(help="continue the run in --out")] = False,
    steps: StepsOpt = None,
    fighters: Annotated[str | None, typer.Option(
        "--fighters", help="two presets or fighter files, comma-separated")] = None,
    n_envs: Annotated[int | None, typer.Option("--n-envs", help="parallel envs")] = None,
    seed: Annotated[int | None, typer.Option("--seed")] = None,
    progress: ProgressOpt = True,
    scene: Annotated[str | None, typer.Option(
        "--scene", help="train one place of a scene (hexdojo/Skirmish-v0), the pool "
                        "playing the others; `place` in the config fixes which")] = None,
    backend: Annotated[str, typer.Option(
        help="sb3 (MaskablePPO, one machine) or rllib (Ray RLlib multi-agent self-play "
             "PPO; docs/integrations.md)")] = "sb3",
    iterations: Annotated[int | None, typer.Option(
        min=1, max=1_000_000, help="rllib: PPO iterations in all (rllib.iterations)")] = None,
    env_runners: Annotated[int | None, typer.Option(
        min=0, max=4096, help="rllib: env runners (rllib.num_env_runners; 0: sample in "
                              "the driver)")] = None,
    address: Annotated[str | None, typer.Option(
        help="rllib: a Ray cluster to join (HEAD:6379; default: RAY_ADDRESS, else a local "
             "Ray on 127.0.0.1)")] = None,
) -> None:
    """Train an NPC with MaskablePPO (opponent pool: scripted ladder + self-play), or
    with ``--backend rllib`` multi-agent self-play PPO on Ray RLlib."""
    if backend not in ("sb3", "rllib"):
        raise ValueError(f"backend {backend!r}: allowed sb3, rllib")
    if backend == "rllib":
        overrides = {**_overrides(steps, fighters, n_envs, seed, None, scene),
                     **_rllib_overrides(iterations, env_runners)}
        _train_rllib(config, overrides, out, resume, address)
        return
    _need_rl()  # before ppo.py imports SB3, which would fail with a traceback
    from ..training.ppo import train as run_training  # optional: torch, SB3

    cfg = _load(config, _overrides(steps, fighters, n_envs, seed, None, scene))
    folder = check_out_folder(out or Path("runs") / cfg.name)
    if resume and not RunDir(folder).latest.is_file():
        raise ValueError(f"{folder}: no checkpoint to resume (checkpoints/latest.zip)")
    with folder_lock(folder, "train", warn=warn):
        final = run_training(cfg, folder, resume=resume,
                             progress=progress and sys.stderr.isatty())
        png = learning_curve(RunDir(folder).eval_csv, folder / "learning_curve.png")
    typer.echo(f"NPC: {final}")
    if png:
        typer.echo(f"learning curve: {png}")


def _load(config: Path | None, overrides: dict[str, Any],
          need: Callable[[], None] = _need_rl) -> TrainConfig:
    """The run's configuration, after checking the file exists and the extra is there."""
    if config is not None and not config.is_file():
        raise ValueError(f"config: file {str(config)!r} not found")
    need()
    return load_config(config, overrides)


@clean_errors
def run(
    config: Annotated[Path | None, typer.Option(
        "--config", "-c",
        help="training TOML (default: agents/hyperparams/duel_v1.toml)",
        dir_okay=False)] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="run folder")] = Path("runs/npc"),
    fights: Annotated[int, typer.Option(
        "--fights", "-n", min=1, max=1_000_000, help="tournament fights per ordered pair")] = 200,
    steps: Annotated[int | None, typer.Option("--steps", help="training env steps")] = None,
    progress: ProgressOpt = True,
    scene: Annotated[str | None, typer.Option(
        "--scene", help="a two-side scene: train on it and play the tournament on it")] = None,
) -> None:
    """The main job: train an NPC (or finish/reuse the one in --out), play it against
    the scripted ladder, and write the report under --out."""
    cfg = _load(config, _overrides(steps, None, None, None, None, scene))
    rd = RunDir(check_out_folder(out))
    bar = progress and sys.stderr.isatty()
    with folder_lock(out, "run", warn=warn):
        _train_or_reuse(cfg, rd, steps, bar)
        curve = learning_curve(rd.eval_csv, out / "learning_curve.png")
        typer.echo(f"[2/3] tournament: npc vs {', '.join(LADDER)}, {fights} fights per "
                   "ordered pair, both sides, common dice")
        # the final model: with a decaying learning rate it held up at least as well on
        # held-out fights as the checkpoint picked on the (small) evaluation sets
        html = _ladder_tournament(cfg, rd.final, fights, out, bar)
    typer.echo(f"report:         {html}")
    if curve:
        typer.echo(f"learning curve: {curve}")
    typer.echo(f"NPC checkpoint: {rd.final} (best evaluated: {rd.best})")


def _train_or_reuse(cfg: TrainConfig, rd: RunDir, steps: int | None, bar: bool) -> None:
    """Step 1 of ``run``: reuse the trained NPC in the folder, or train (resume) it."""
    from ..training.ppo import train as run_training  # optional: torch (`run` checked the rl extra)

    out = rd.root
    if rd.config.is_file() and (rd.latest.is_file() or rd.final.is_file()):
        check_same_config(rd, cfg)  # a run that never checkpointed holds nothing to keep
    if rd.final.is_file() and not extends_run(rd.progress, rd.final, steps, out):
        typer.echo(f"[1/3] NPC already trained in {out}: reusing {rd.final}")
        return
    resuming = rd.latest.is_file()
    what = f"scene {cfg.scene}" if cfg.scene else f"{cfg.fighters[0]} vs {cfg.fighters[1]}"
    typer.echo(f"[1/3] {'resuming' if resuming else 'training'} the NPC "
               f"({what}, {cfg.total_steps:,} env steps) in {out}")
    run_training(cfg, out, resume=resuming, progress=bar)


def _ladder_tournament(cfg: TrainConfig, npc_path: Path, fights: int, out: Path,
                       bar: bool) -> Path:
    """Steps 2 and 3 of ``run``: the NPC against the ladder, the report; its HTML page."""
    npc = LearnedAgent.load(npc_path, name="npc")
    agents = [npc, *(make_agent(n) for n in LADDER)]
    tcfg = TournamentConfig(tuple(a.name for a in agents), fights, tuple(cfg.fighters),
                            cfg.seed, cfg.rules, cfg.radius, cfg.turn_limit,
                            default_workers(), cfg.scene)
    with report_folder(out / "tournament", "run", warn=warn) as tmp:
        result = run_tournament(tcfg, agents, progress=bar, lines=not bar)
        write_report(result, tmp)
    s = summary(result)
    typer.echo(f"[3/3] report written ({s['fights']} fights in {s['elapsed_s']:.0f} s)")
    for r in s["ratings"]["table"]:
        typer.echo(f"  {r['rank']:>2}. {r['agent']:<10} Elo {r['elo']:7.1f} "
                   f"[{r['ci_lo']:.0f}, {r['ci_hi']:.0f}]")
    return out / "tournament" / "report.html"
