"""Training configuration: the shipped recommended settings, optionally overridden.

``hexdojo train``'s defaults are data, the way the RL Zoo keeps a ``hyperparams/*.yml``
per environment: ``agents/hyperparams/duel_v1.toml`` (``HYPERPARAMS``), then the user's
TOML file, then command-line flags. Every value is validated; a bad one gets one error
naming the file, the field, the value and what is allowed. The defaults train a Chu NPC
against a mixed pool for a few minutes on two cores. The models' ``Field`` defaults are
the schema's fallback and equal the shipped file (tested).

Every field carries its meaning as a ``description`` (CleanRL's ``Args`` docstrings): the
configuration table of ``docs/training.md`` is generated from them (:func:`config_table`;
regenerate with ``python -m hexdojo.agents.training.config --write docs/training.md``,
a test keeps it in sync).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from hexdojo.envs.rules.ruleset import RulesError, deep_merge, read_toml
from hexdojo.envs.rules.scene import resolve_path

#: The recommended settings for hexdojo/Duel-v1 that ``load_config`` starts from.
HYPERPARAMS = Path(__file__).resolve().parent.parent / "hyperparams" / "duel_v1.toml"

#: the scripted styles the NPC trains and is evaluated against: the whole ladder, greedy
#: included (without greedy in the pool the NPC rated below it, docs/benchmarks.md)
LADDER_POOL = ("random", "greedy", "striker", "grappler", "counter")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PPOConfig(_Model):
    """MaskablePPO hyper-parameters (sb3-contrib names)."""

    # Chosen by measurement (scripts/learning_targets.py, docs/benchmarks.md): a 256x256
    # net with 10 epochs won more than 128x128 / 5 epochs and spends a smaller share of
    # the wall time in the environments; a linearly decaying learning rate kept the late
    # part of a 1M-step run from drifting (80.5 % vs 73.5 % against the striker); no
    # entropy bonus won more in 1M steps against the grappler on both seeds tried
    # (79.6 % / 74.5 % vs 78.6 % / 71.0 % with 0.01) and the same within 50k vs random.
    # 2 epochs (issue 30, scripts/bench_ppo_update.py): on 64 native duels the updates
    # were 80 % of the learning phase and cost the same per epoch at any batch size (the
    # matmuls and the masked distribution at 256x256, not Python); 2 epochs cut them 5x.
    # Over 600k steps instead of 250k the main job's NPC rated 1682 [1667, 1698] against
    # 1649 [1634, 1663] for 10 epochs x 250k, back to back, in 110 s of training against
    # 132 s. At 250k steps fewer epochs were weaker (4: 1645, 3 of batch 1024: 1604, not
    # clear of greedy's ~1575); 4 x 400k was as strong but 3.2-3.7x the Python envs' steps
    # per CPU second, short of issue 30's 4x (docs/benchmarks.md).
    learning_rate: float = Field(3e-4, gt=0, le=1, description="Adam learning rate (the start "
                                 "of the schedule)")
    n_steps: int = Field(64, ge=8, le=1_000_000, description="steps per environment between "
                         "updates (the rollout is `n_steps * n_envs`)")
    batch_size: int = Field(512, ge=8, le=1_000_000, description="minibatch size")
    n_epochs: int = Field(2, ge=1, le=100, description="passes over each rollout (2: the "
                          "updates cost per epoch; 10 over fewer steps trained no stronger "
                          "an NPC in the same wall time, docs/benchmarks.md)")
    gamma: float = Field(0.995, gt=0, le=1, description="discount factor")
    gae_lambda: float = Field(0.95, gt=0, le=1, description="GAE lambda")
    ent_coef: float = Field(0.0, ge=0, le=1, description="entropy bonus (0: none; it won more "
                            "without, docs/benchmarks.md)")
    clip_range: float = Field(0.2, gt=0, le=1, description="PPO clipping range")
    lr_schedule: Literal["constant", "linear"] = Field(
        "linear", description="`linear`: the learning rate decays to 0 at the end of the run; "
        "`constant` keeps it")
    net_arch: list[int] = Field(default_factory=lambda: [256, 256],
                                description="hidden layer sizes of the policy and value nets")

    @field_validator("net_arch")
    @classmethod
    def _arch(cls, v: list[int]) -> list[int]:
        if not v or any(n < 1 or n > 4096 for n in v):
            raise ValueError("layer sizes must be 1..4096, at least one layer")
        return v


class PoolConfig(_Model):
    """Who the learner fights: scripted ladder bots mixed with frozen snapshots of itself."""

    scripted: list[str] = Field(default_factory=lambda: list(LADDER_POOL), min_length=1,
                                description="agent specs of the scripted opponents in the pool")
    self_play: bool = Field(True, description="also fight frozen snapshots of the learner")
    self_play_prob: float = Field(0.3, ge=0, le=1, description="chance that a fight's opponent "
                                  "is a snapshot (once one exists)")
    snapshot_every: int = Field(10_000, ge=1, description="env steps between snapshots")
    max_snapshots: int = Field(5, ge=1, le=100, description="snapshots kept (the newest)")


class EvalConfig(_Model):
    """The periodic evaluation: the deterministic policy against fixed opponents."""

    every: int = Field(25_000, ge=1, description="env steps between evaluations (`eval.csv`, "
                       "TensorBoard `eval/win_rate_*`; the best mean is kept as `best.zip`)")
    episodes: int = Field(20, ge=1, le=100_000, description="fights per opponent on the "
                          "run's trained side(s) (`side`; alternating: half on each, with "
                          "each side's rate in `eval.csv` too)")
    opponents: list[str] = Field(default_factory=lambda: list(LADDER_POOL),
                                 description="agent specs evaluated against")


class ImitationConfig(_Model):
    """The imitation warm start (:mod:`hexdojo.agents.imitation`): before PPO, the policy
    clones a scripted teacher's decisions and its value head learns their outcomes."""

    # Measured (scripts/npc_strength.py, docs/benchmarks.md): PPO alone for 150k steps
    # reached 42.5 % against greedy; the clone alone 49 %; the clone then 150k PPO steps
    # 57.5 % against greedy, 57 % against the striker and 70 % against the counter.
    fights: int = Field(2000, ge=0, le=1_000_000, description="fights of demonstrations, "
                        "the teacher on each side in turn (0: no warm start, PPO from scratch)")
    teacher: str = Field("greedy", description="agent spec of the teacher (any agent: a "
                         "style, `mcts`, a plug-in)")
    opponents: list[str] = Field(default_factory=lambda: list(LADDER_POOL), min_length=1,
                                 description="agent specs the teacher fights in the "
                                 "demonstrations, in turn")
    epochs: int = Field(8, ge=1, le=1000, description="passes over the demonstrations")
    batch_size: int = Field(256, ge=8, le=1_000_000, description="minibatch size")
    learning_rate: float = Field(1e-3, gt=0, le=1, description="Adam learning rate")
    value_weight: float = Field(0.5, ge=0, le=100, description="weight of the value head's "
                                "squared error next to the actions' cross-entropy")


class RLlibConfig(_Model):
    """``hexdojo train --backend rllib``: PPO on Ray RLlib, on this machine or a Ray cluster.

    The backend also reads the duel's fields of the run (``fighters``, ``scene``, ``rules``,
    ``radius``, ``turn_limit``, ``shaping``, ``observation_scale``, ``seed``), ``n_envs``
    (environments per env runner) and ``ppo``'s ``learning_rate`` (constant),
    ``batch_size`` (the minibatch), ``n_epochs``, ``gamma``, ``gae_lambda``, ``ent_coef``,
    ``clip_range`` and ``net_arch``; the pool, evaluation and imitation are SB3's (RLlib's
    run is pure self-play: both fighters are the one policy)."""

    # The train batch is per runner (issue 35): fixed at 1,024 steps, 32 runners sampled 32
    # steps each and the cluster sat idle between updates.
    iterations: int = Field(10, ge=1, le=1_000_000, description="PPO iterations of the run in "
                            "all (`--iterations`; a resumed run trains the ones left)")
    num_env_runners: int = Field(1, ge=0, le=4096, description="env runners: Ray actors "
                                 "sampling the duel, placed on the cluster's CPUs "
                                 "(`--env-runners`; 0: sample in the driver)")
    train_batch_per_runner: int | None = Field(
        None, ge=8, le=10_000_000, description="env steps each env runner samples per "
        "iteration; the train batch is this times the runners (at least one), so it grows "
        "with them (none: `ppo.n_steps * n_envs`, an SB3 rollout per runner)")
    num_learners: int = Field(0, ge=0, le=1024, description="learner actors on the cluster, "
                              "the train batch split among them (torch DDP); 0: one learner "
                              "in the driver")
    checkpoint_every: int = Field(1, ge=1, le=1_000_000, description="iterations between "
                                  "checkpoints (`checkpoints/iter_N/`, committed by rewriting "
                                  "`hexdojo_rllib.json`; the last iteration always is one)")
    keep_checkpoints: int = Field(2, ge=1, le=1000, description="checkpoints kept (the newest)")


class TrainConfig(_Model):
    """A training run (``hexdojo train --config FILE``)."""

    name: str = Field("npc", pattern=r"^[A-Za-z0-9_.-]{1,64}$",
                      description="run name (default folder `runs/<name>`)")
    fighters: list[str] = Field(default_factory=lambda: ["chu", "boris"], min_length=2,
                                max_length=2, description="the two fighter presets or files; "
                                "the learner plays both sides")
    side: Literal["alternate", "random", "0", "1"] = Field(
        "alternate", description="the learner's side: `alternate` (swapped every episode), "
        "`random`, `0` or `1`")
    scene: str | None = Field(None, description="a scene (shipped name or TOML): train one "
                              "place of it on hexdojo/Skirmish-v0, every other place played by "
                              "the pool; its fighters, start and arena replace `fighters`")
    place: int | None = Field(None, ge=0, le=7, description="with a scene, the place the "
                              "learner plays (none: a random place each episode)")
    radius: int = Field(4, ge=1, le=20, description="arena radius in hexes")
    turn_limit: int = Field(20, ge=1, le=10_000, description="turns before a fight is a draw")
    rules: str | None = Field(None, description="a TOML file overriding rule values (none: "
                              "the shipped rules)")
    shaping: float = Field(0.05, ge=0, le=1, description="reward per wound level inflicted "
                           "minus taken, on top of +1 win, -1 loss, 0 draw")
    style: Literal["grappler", "striker", "counter"] | None = Field(
        None, description="fight in a scripted style (agents/style.py): `style_weight` is "
        "added per attack of the style's categories (grappler: grab, lock, throw, pull down; "
        "striker: strikes; counter: a defence against an attack) and taken per other one")
    # Measured (scripts/style_tradeoff.py, docs/npc.md): the grappler's clone then 150k PPO
    # steps kept a 52.9 % grappler share and beat the grappler 61.4 %; +0.05 per move
    # raised the share to 81.8 % but fell to 54.1 %, +0.15 to 86.6 % and 45.4 %.
    style_weight: float = Field(0.0, ge=0, le=1, description="with `style`, the reward per "
                                "style move on top of the clone of the style's bot (0: the "
                                "clone alone; more: a purer style, a weaker NPC, docs/npc.md)")
    observation_scale: Literal["raw", "unit"] = Field(
        "unit", description="`unit`: Duel-v1's observation (every number in [-1, 1]); `raw`: "
        "Duel-v0's; a checkpoint of the other scaling is refused in one line")
    # 600k with 2 epochs (issue 30): the 250k of 10 epochs took as long, rated the same
    total_steps: int = Field(600_000, ge=1, le=1_000_000_000,
                             description="environment steps of the learner")
    n_envs: int = Field(64, ge=1, le=256, description="vectorised environments")
    vec_env: Literal["dummy", "subproc", "native"] = Field(
        "native", description="`dummy` (one process) or `subproc` (a process per environment) of "
        "Python envs; `native`: every duel stepped in the core, the pool's scripted bots played "
        "there and its snapshots answered in one batch per step (issue 30; a scene's or a "
        "style's run trains on `dummy` envs instead)")
    seed: int = Field(0, ge=0, le=2**32 - 1, description="seed of the model, the "
                      "environments and the pool")
    checkpoint_every: int = Field(25_000, ge=1, description="env steps between checkpoints "
                                  "(`checkpoints/latest.zip`, `run.json`)")
    checkpoint_seconds: float = Field(
        60.0, gt=0, le=86_400, description="also checkpoint after this many seconds of wall "
        "time since the last one, so that a run killed in its first minutes resumes")
    device: Literal["cpu", "auto", "cuda"] = Field("cpu", description="torch device")
    ppo: PPOConfig = Field(default_factory=PPOConfig, description="MaskablePPO hyper-parameters")
    pool: PoolConfig = Field(default_factory=PoolConfig, description="the opponent pool")
    eval: EvalConfig = Field(default_factory=EvalConfig, description="the periodic evaluation")
    imitation: ImitationConfig = Field(default_factory=ImitationConfig,
                                       description="the imitation warm start before PPO "
                                       "(a scene's run clones in its place, the pool's "
                                       "opponents in every other place)")
    rllib: RLlibConfig = Field(default_factory=RLlibConfig,
                               description="`--backend rllib`: Ray RLlib's run")

    @model_validator(mode="after")
    def _together(self) -> TrainConfig:
        """Settings that mean something only with another one."""
        if self.style_weight > 0 and self.style is None:
            raise ValueError(f"style_weight {self.style_weight:g} needs a `style` (grappler, "
                             "striker or counter); allowed without one: 0")
        if self.place is not None and self.scene is None:
            raise ValueError(f"place {self.place} needs a `scene` (the place is one of its "
                             "fighters); set scene, or leave place out")
        return self


def load_config(path: str | Path | None = None, overrides: Mapping[str, Any] | None = None) -> TrainConfig:
    """``HYPERPARAMS``, then the TOML file at ``path``, then ``overrides`` (e.g. CLI flags)."""
    raw: dict[str, Any] = read_toml(HYPERPARAMS)
    source = str(HYPERPARAMS)
    if path is not None:
        raw = deep_merge(raw, with_paths_from(read_toml(path), Path(path)))
        source = str(path)
    if overrides:
        raw = deep_merge(raw, {k: v for k, v in overrides.items() if v is not None})
    try:
        return TrainConfig.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"])
        msg = str(err["msg"]).removeprefix("Value error, ")
        if not field:  # a rule between fields (the model's own check)
            raise RulesError(f"{source}: {msg}") from None
        raise RulesError(f"{source}: field '{field}': value {err.get('input')!r}: {msg}") from None


def with_paths_from(raw: dict[str, Any], toml: Path) -> dict[str, Any]:
    """``raw`` (the TOML at ``toml``) with its relative fighter, scene and rules files
    made absolute from the TOML's folder, as a scene file's are: the same config trains
    the same NPC from any working directory, and the sidecar records where the files are
    (a relative path there would break ``play`` or ``calibrate`` run from elsewhere)."""
    base = toml.resolve().parent
    out = dict(raw)
    if isinstance(out.get("fighters"), list):
        out["fighters"] = [resolve_path(f, base) if isinstance(f, str) else f
                           for f in out["fighters"]]
    for key in ("scene", "rules"):
        if isinstance(out.get(key), str):
            out[key] = resolve_path(out[key], base)
    return out


# ----------------------------------------------------------------------------- the doc table

TABLE_START = "<!-- config table: generated from agents/training/config.py, do not edit -->"
TABLE_END = "<!-- end of config table -->"


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, str):
        return value
    return json.dumps(value)


def _rows(model: type[BaseModel], prefix: str = "") -> list[str]:
    rows = []
    defaults = model().model_dump()
    for name, field in model.model_fields.items():
        if isinstance(field.annotation, type) and issubclass(field.annotation, BaseModel):
            rows += _rows(field.annotation, f"{prefix}{name}.")
            continue
        rows.append(f"| `{prefix}{name}` | `{_shown(defaults[name])}` | {field.description} |")
    return rows


def config_table() -> str:
    """The Markdown table of every field: dotted name, default, description."""
    return "\n".join(["| field | default | meaning |", "|---|---|---|", *_rows(TrainConfig)])


def with_config_table(doc: str) -> str:
    """``doc`` with the text between the table markers replaced by :func:`config_table`."""
    head, sep, rest = doc.partition(TABLE_START)
    _, sep2, tail = rest.partition(TABLE_END)
    if not sep or not sep2:
        raise ValueError(f"the page has no {TABLE_START!r} ... {TABLE_END!r} markers")
    return f"{head}{TABLE_START}\n{config_table()}\n{TABLE_END}{tail}"


if __name__ == "__main__":  # python -m hexdojo.agents.training.config [--write PAGE]
    if sys.argv[1:2] == ["--write"] and len(sys.argv) == 3:
        from hexdojo.agents.report import atomic_write_text

        page = Path(sys.argv[2])
        atomic_write_text(page, with_config_table(page.read_text(encoding="utf-8")))
    else:
        print(config_table())
