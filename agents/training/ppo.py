"""NPC training with MaskablePPO on ``hexdojo/Duel-v1`` (``hexdojo train``), read top to
bottom like CleanRL's ``ppo.py``: config -> vector env -> model -> learn -> save.

* the configuration (:mod:`.config`): the shipped ``agents/hyperparams/duel_v1.toml``,
  a TOML file, flags; every field documented;
* vectorised duel environments (:mod:`.vecenv`): flat observation, exact masks, the
  learner's side swapped every episode, an opponent pool (:mod:`.pool`) in each mixing
  the scripted ladder with frozen snapshots of the learner;
* the model: a new MaskablePPO, or the run's last checkpoint when resuming;
* learning, with the run's callback (:mod:`.callbacks`): periodic evaluation against the
  ladder (``eval.csv``, TensorBoard), checkpoints, snapshots and progress;
* saving into the run folder (:mod:`.rundir`), every file atomically, so a run killed at
  any point resumes from its last checkpoint.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import torch
from sb3_contrib import MaskablePPO

from hexdojo.envs.observation import encoder_for
from hexdojo.envs.rules import Game

from ..imitation import clone, demonstrate, demonstrate_scene
from ..policy import check_checkpoint_observation
from ..registry import make_agent
from ..report import atomic_write_text
from ..style import teacher_for
from .callbacks import RunCallback
from .config import PPOConfig, TrainConfig
from .rundir import RunDir, check_resume_steps, check_same_config
from .vecenv import VecTimer, make_vec_env, time_profile, worker_fault


def train(cfg: TrainConfig, out: str | Path | None = None, resume: bool = False,
          progress: bool = True) -> Path:
    """Train (or resume) a run; returns the path of the final model ``npc.zip``."""
    torch.set_num_threads(1)
    # the distributions' argument checks cost a fifth of an update (scripts/bench_train.py)
    # and check what the masked policy builds itself; put back afterwards (a notebook, a
    # script that trains and then samples, goes on with its own setting)
    validate = torch.distributions.Distribution._validate_args
    torch.distributions.Distribution.set_default_validate_args(False)
    try:
        return _train(cfg, out, resume, progress)
    finally:
        torch.distributions.Distribution.set_default_validate_args(validate)


def _train(cfg: TrainConfig, out: str | Path | None, resume: bool, progress: bool) -> Path:
    """:func:`train`'s run: the folder, the envs, the model, learning, saving."""
    game, run = prepare_run(cfg, out, resume)
    vec = make_vec_env(cfg, run.snapshots)
    resumed = resume and run.latest.exists()
    model = load_model(cfg, run, vec, game) if resumed else new_model(cfg, run, vec)
    warm = None if resumed else warm_start(model, cfg, game)
    callback = RunCallback(cfg, run, game, lines=not progress)
    try:
        t0 = time.perf_counter()
        remaining = cfg.total_steps - model.num_timesteps
        if remaining > 0:
            try:
                model.learn(total_timesteps=remaining, callback=callback,
                            reset_num_timesteps=not resumed, tb_log_name="ppo",
                            progress_bar=progress)
            except KeyboardInterrupt:  # Ctrl-C or SIGTERM (interrupts.Terminated)
                save_interrupted(model, run, cfg, game)
                raise
            except (EOFError, BrokenPipeError, ConnectionResetError):
                raise worker_fault(run.root) or ValueError(
                    f"{run.root}: a training environment's process stopped (its message, if "
                    "any, is above); the last checkpoint is kept: resume with --resume") from None
        profile = time_profile(vec, time.perf_counter() - t0, callback.eval_seconds)
        if warm is not None:
            profile["imitation"] = warm
        save_final(model, run, cfg, game, profile)
    except BaseException:
        stop_envs(vec)
        raise
    vec.close()
    return run.final


def stop_envs(vec: VecTimer) -> None:
    """The environments of a run that stops on an exception (Ctrl-C, SIGTERM, a worker's
    fault): subprocess workers are killed, not asked to close: one may have died, or the
    interrupt may have cut a message on its pipe, and a polite close would wait on it."""
    procs = getattr(vec.unwrapped, "processes", None)
    if not procs:
        vec.close()
        return
    for proc in procs:
        proc.kill()
    for proc in procs:
        proc.join(timeout=5)
    for remote in getattr(vec.unwrapped, "remotes", ()):
        remote.close()
    vec.unwrapped.closed = True  # nothing left to close


def warm_start(model: MaskablePPO, cfg: TrainConfig, game: Game) -> dict[str, Any] | None:
    """Clone the ``[imitation]`` teacher (with a ``style``, that style's bot) into a new
    model before PPO, in the observation the run trains on (a duel's, or a scene place's:
    before issue 33 a scene's run skipped it and its styled NPC started from scratch);
    returns what it measured
    (decisions, the share the clone agrees with the teacher on, seconds), None if off."""
    im = cfg.imitation
    if im.fights == 0:
        return None

    t0 = time.perf_counter()
    teacher = teacher_for(cfg)  # with a style, that style's scripted bot
    where = "" if cfg.scene is None else (f" in place {cfg.place}" if cfg.place is not None
                                          else " in every place in turn")
    print(f"imitation: {teacher} plays {im.fights:,} fights of demonstrations{where}", flush=True)
    opponents = [make_agent(o) for o in im.opponents]
    if cfg.scene is not None:  # the scene's place, in Skirmish-v0's group observation
        demos = demonstrate_scene(game, make_agent(teacher), opponents, im.fights,
                                  seed=cfg.seed * 1_000_003 + 17, place=cfg.place,
                                  gamma=cfg.ppo.gamma)
    else:
        demos = demonstrate(game, make_agent(teacher), opponents, im.fights,
                            seed=cfg.seed * 1_000_003 + 17, scaling=cfg.observation_scale,
                            gamma=cfg.ppo.gamma)
    fit = clone(model.policy, demos, epochs=im.epochs, batch=im.batch_size,
                lr=im.learning_rate, value_weight=im.value_weight, seed=cfg.seed)
    out = {"teacher": teacher, "decisions": len(demos), "agreement": round(fit["agreement"], 4),
           "seconds": round(time.perf_counter() - t0, 1)}
    print(f"imitation: cloned {out['decisions']:,} decisions, the policy agrees with "
          f"{teacher} on {100 * out['agreement']:.1f} % ({out['seconds']:.0f} s)", flush=True)
    return out


def train_game(cfg: TrainConfig) -> Game:
    """The engine game a run trains and evaluates on: its two fighters, or its scene (whose
    sides the evaluation fights pit the learner against each opponent on)."""
    if cfg.scene is not None:
        game = Game.from_scene(cfg.scene, rules=cfg.rules)
        if len(set(game.sides)) < 2:
            raise ValueError(f"scene: value {cfg.scene!r}: every fighter is on one side; a "
                             "scene to train on needs two sides")
        if cfg.place is not None and cfg.place >= len(game.profiles):
            raise ValueError(f"place: value {cfg.place}: the scene {cfg.scene!r} has places "
                             f"0..{len(game.profiles) - 1}")
        return game
    return Game.create(list(cfg.fighters), rules=cfg.rules, radius=cfg.radius,
                       turn_limit=cfg.turn_limit)


def prepare_run(cfg: TrainConfig, out: str | Path | None, resume: bool) -> tuple[Game, RunDir]:
    """Check everything that can be wrong before anything is written, then the run folder
    with its ``config.json``."""
    for spec in [*cfg.pool.scripted, *cfg.eval.opponents, cfg.imitation.teacher,
                 *cfg.imitation.opponents]:
        make_agent(spec)  # a bad agent name fails here
    game = train_game(cfg)  # a bad scene, place or fighter fails here
    run = RunDir(out or Path("runs") / cfg.name)
    if run.root.exists() and not resume and (run.latest.exists() or run.final.exists()):
        raise FileExistsError(
            f"{run.root}: a run is already there; use --resume to continue it or another --out"
        )
    if resume and run.config.is_file():
        check_same_config(run, cfg)
    if resume:
        check_resume_steps(run, cfg.total_steps)
    run.root.mkdir(parents=True, exist_ok=True)

    atomic_write_text(run.config, cfg.model_dump_json(indent=2))
    return game, run


class LinearSchedule:
    """Learning rate falling linearly to 0 over the run (SB3 passes the progress left)."""

    def __init__(self, start: float) -> None:
        self.start = start

    def __call__(self, progress_remaining: float) -> float:
        return self.start * progress_remaining


def ppo_kwargs(p: PPOConfig) -> dict[str, Any]:
    """MaskablePPO keyword arguments of a ``[ppo]`` table (training and the scripts)."""
    lr: Any = LinearSchedule(p.learning_rate) if p.lr_schedule == "linear" else p.learning_rate
    return {"learning_rate": lr, "n_steps": p.n_steps, "batch_size": p.batch_size,
            "n_epochs": p.n_epochs, "gamma": p.gamma, "gae_lambda": p.gae_lambda,
            "ent_coef": p.ent_coef, "clip_range": p.clip_range,
            "policy_kwargs": {"net_arch": list(p.net_arch)}}


def new_model(cfg: TrainConfig, run: RunDir, vec: VecTimer) -> MaskablePPO:
    """A fresh MaskablePPO with the run's hyper-parameters and seed."""
    return MaskablePPO("MlpPolicy", vec, **ppo_kwargs(cfg.ppo), tensorboard_log=str(run.tb),
                       seed=cfg.seed, device=cfg.device, verbose=0)


def load_model(cfg: TrainConfig, run: RunDir, vec: VecTimer, game: Game) -> MaskablePPO:
    """The run's last checkpoint, refused in one line if its observation is not the env's."""
    if cfg.scene is None:  # a scene's run: check_same_config keeps its spaces
        check_checkpoint_observation(run.latest, vec.observation_space, encoder_for(game))
    return MaskablePPO.load(str(run.latest), env=vec, device=cfg.device,
                            tensorboard_log=str(run.tb))


def save_final(model: MaskablePPO, run: RunDir, cfg: TrainConfig, game: Game,
               profile: dict[str, Any]) -> None:
    """The last checkpoint, the final model ``npc.zip`` and ``run.json`` marked done."""
    steps = int(model.num_timesteps)
    run.save(model, run.latest, cfg, game, steps)
    run.save(model, run.final, cfg, game, steps)
    run.write_progress(steps, cfg, done=True, **profile)


def save_interrupted(model: MaskablePPO, run: RunDir, cfg: TrainConfig, game: Game) -> None:
    """On Ctrl-C or SIGTERM: the learner as ``checkpoints/latest.zip`` and ``run.json``,
    so ``--resume`` continues from here, not from the last periodic checkpoint. A second
    interrupt during the save keeps the older checkpoint (the save is atomic)."""
    steps = int(model.num_timesteps)
    run.save(model, run.latest, cfg, game, steps)
    run.write_progress(steps, cfg, done=False)
