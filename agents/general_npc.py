"""The general NPC (issue 33): one policy for any fighter sheet, trained over random sheets
within the creation limits, shipped inside the package (``agents/data/general_npc.zip``).

Training reads top to bottom (:func:`train_general`):

1. draw the training pairings (``agents/sheetgen.py``; seeds apart from the held-out ones);
2. warm start: clone the ``greedy`` style's decisions in fights of those pairings (the
   imitation step of ``hexdojo train``, with the general observation);
3. MaskablePPO on :class:`~hexdojo.agents.general_vec.GeneralVecEnv` (groups of native
   duels, one pairing each, a scripted pool inside the core), every group given fresh
   pairings every ``resample_every`` rollouts;
4. the model saved atomically with its sidecar (``general_npc.train.json``: what it was
   trained on, for the commands and the tests).

``hexdojo npc new`` (:mod:`.npc_new`) turns it into a calibrated NPC for a GM's sheets.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from hexdojo.envs.rules import Game, preset_names
from hexdojo.envs.rules.reference import readings
from hexdojo.envs.sheets import SheetEncoder, general_inputs

from .files import atomic_write_text
from .imitation import Demonstrations, Recorder, clone, fight_outcome, stack_fights
from .registry import make_agent
from .sheetgen import balanced_pairings, random_pairings
from .tournament import play_fight
from .training.pool import PoolOpponent
from .training.rundir import atomic_save_model

#: the shipped general policy and its sidecar
SHIPPED = Path(__file__).resolve().parent / "data" / "general_npc.zip"
FORMAT = "hexdojo-general-npc"
#: the held-out pairings' seeds (scripts/general_npc_heldout.py: HELDOUT_SEED + k, k <
#: HELDOUT_SPAN); training never draws them
HELDOUT_SEED = 20261202
HELDOUT_SPAN = 100_000


@dataclass
class GeneralConfig:
    """The general NPC's training run (``scripts/train_general_npc.py`` flags)."""

    total_steps: int = 1_500_000
    """PPO steps after the warm start."""
    groups: int = 16
    """pairings trained on at once (one group of native duels each)."""
    slots: int = 4
    """duels per group: the rollout is groups x slots x n_steps."""
    resample_every: int = 2
    """rollouts between fresh pairings for every group."""
    preset_share: float = 0.125
    """share of groups given a pairing of the shipped presets instead of random sheets."""
    balanced_share: float = 0.75
    """share of random pairings kept only if fair (``sheetgen.balanced_pairings``: greedy
    in the NPC's seat scores within ``balance_band`` against greedy); the rest as drawn."""
    balance_band: float = 0.25
    """the fairness band's lower edge (the upper is 1 - it)."""
    variant_share: float = 0.25
    """share of groups played under the other reading of one of the rules' readings
    (``envs/rules/data/readings.toml``: where the pages read two ways)."""
    scripted: tuple[str, ...] = ("greedy", "greedy", "striker", "grappler", "counter", "random")
    """the pool inside the core (drawn per episode; greedy twice: the bar to clear)."""
    demo_pairings: int = 200
    """warm start: pairings the teacher fights in."""
    demo_fights: int = 8
    """warm start: fights per pairing (sides alternate, opponents cycle)."""
    seed: int = 0
    """everything is drawn from it (pairings, pools, PPO)."""
    shaping: float = 0.05
    """reward per wound level inflicted minus taken (``hexdojo train``'s default)."""
    turn_limit: int = 20
    """turns before a draw (the main job's)."""
    n_steps: int = 64
    batch_size: int = 512
    n_epochs: int = 5
    learning_rate: float = 3e-4
    gamma: float = 0.995
    net_arch: tuple[int, ...] = (256, 256)
    notes: dict[str, Any] = field(default_factory=dict)
    """figures written into the sidecar (filled by the run)."""


def reading_variants() -> list[dict[str, Any]]:
    """Each reading's other value as a rules override (``{"table": {"key": other}}``)."""
    out = []
    for r in readings():
        table, _, key = str(r["key"]).rpartition(".")
        out.append({table: {key: r["other"]}})
    return out


def training_pairings(cfg: GeneralConfig, draw: int) -> list[tuple[tuple[Any, Any], Any]]:
    """The ``draw``-th set of ``cfg.groups`` (pairing, rules): random sheets (seeds from
    ``cfg.seed * 1_000_003 + draw + 1``, never a held-out one), most of them fair ones, a
    share of presets, a share under another reading of the rules (:func:`reading_variants`)."""
    seed = cfg.seed * 1_000_003 + draw + 1
    if HELDOUT_SEED <= seed < HELDOUT_SEED + HELDOUT_SPAN:
        seed += HELDOUT_SPAN
    rules = Game.create(["chu", "chu"]).tables.data
    rng = np.random.default_rng(seed)
    presets = [p for p in preset_names() if p != "rider"]
    variants = reading_variants()
    fair = round(cfg.groups * cfg.balanced_share)
    pairs = balanced_pairings(rules, seed * 1000, fair, cfg.balance_band, fights=24)[0] \
        + random_pairings(rules, seed, cfg.groups - fair)
    out = []
    for k, (a, b) in enumerate(pairs):
        if rng.random() < cfg.preset_share:
            a, b = (str(x) for x in rng.choice(presets, 2))
        variant = variants[int(rng.integers(len(variants)))] if rng.random() < cfg.variant_share \
            else None
        out.append(((a, b) if k % 2 == 0 else (b, a), variant))
    return out


def general_demonstrations(cfg: GeneralConfig, teacher: str = "greedy") -> Demonstrations:
    """The teacher's decisions, recorded with the general observation, in fights of
    ``cfg.demo_pairings`` training pairings (the imitation warm start's data)."""
    opponents = [make_agent(n) for n in cfg.scripted]
    pairings = [p for d in range(-(-cfg.demo_pairings // cfg.groups))
                for p in training_pairings(cfg, 10_000 + d)][:cfg.demo_pairings]

    def recorded() -> Iterator[tuple[list, float]]:
        for k, (fighters, rules) in enumerate(pairings):
            game = Game.create(list(fighters), rules=rules, turn_limit=cfg.turn_limit)
            for f in range(cfg.demo_fights):
                rec = GeneralRecorder(make_agent(teacher))
                side, opp = f % 2, opponents[(k + f) % len(opponents)]
                r = play_fight(game, (rec, opp) if side == 0 else (opp, rec), cfg.seed + 97 * k + f)
                yield rec.rows, fight_outcome(r.winner, side)

    return stack_fights(recorded(), cfg.gamma)


class GeneralRecorder(Recorder):
    """:class:`~hexdojo.agents.imitation.Recorder` writing down the general observation
    (``envs/sheets.py``: the armed duel's, then both sheets) and the armed catalogue's id."""

    def record(self, state: Any, choice: Any) -> tuple[np.ndarray, np.ndarray, int]:
        obs, mask, legal, ids, _ = general_inputs(state)
        return obs, mask, ids[legal.index(choice)]


def train_general(cfg: GeneralConfig, out: Path, say: Any = print, init: Path | None = None) -> Path:
    """Train the general NPC (see the module) and save it to ``out`` with its sidecar;
    ``init``: go on from that general policy instead of the warm start."""
    import torch
    from sb3_contrib import MaskablePPO

    # optional: stable_baselines3 and torch (the rl extra), only to train
    from .general_vec import GeneralVecEnv, Resample
    from .training.ppo import LinearSchedule  # optional: torch, SB3

    torch.set_num_threads(1)
    torch.distributions.Distribution.set_default_validate_args(False)
    t0 = time.perf_counter()
    count = iter(range(10**9))
    env = GeneralVecEnv(training_pairings(cfg, 0), cfg.slots,
                        lambda: PoolOpponent(list(cfg.scripted), None, 0.0,
                                             seed=cfg.seed * 1000 + next(count)),
                        turn_limit=cfg.turn_limit, shaping=cfg.shaping)
    env.seed(cfg.seed)
    if init is not None:
        model = MaskablePPO.load(str(init), env=env, device="cpu", seed=cfg.seed,
                                 learning_rate=LinearSchedule(cfg.learning_rate))
        cfg.notes["init"] = str(init)
    else:
        model = MaskablePPO("MlpPolicy", env, learning_rate=LinearSchedule(cfg.learning_rate),
                            n_steps=cfg.n_steps, batch_size=cfg.batch_size, n_epochs=cfg.n_epochs,
                            gamma=cfg.gamma, ent_coef=0.0, seed=cfg.seed, device="cpu", verbose=0,
                            policy_kwargs={"net_arch": list(cfg.net_arch)})
        demos = general_demonstrations(cfg)
        warm = clone(model.policy, demos, seed=cfg.seed)
        cfg.notes.update(warm_agreement=round(warm["agreement"], 4), demo_decisions=len(demos))
        say(f"warm start: {len(demos)} greedy decisions cloned, agreement "
            f"{warm['agreement']:.1%} ({time.perf_counter() - t0:.0f} s)")
    resample = Resample(env, lambda draw: training_pairings(cfg, draw), cfg.resample_every,
                        cfg.seed, cfg.total_steps, say)
    model.learn(total_timesteps=cfg.total_steps, callback=resample, progress_bar=False)
    cfg.notes["seconds"] = round(time.perf_counter() - t0, 1)
    out.parent.mkdir(parents=True, exist_ok=True)
    slim(model)
    atomic_save_model(model, out)
    write_sidecar(out, cfg, Game.create(["chu", "chu"]), init)
    return out


def slim(model: Any) -> None:
    """A fresh optimizer (no Adam moments): the shipped file is the policy, 2.9 MB instead
    of 8.2; ``npc new --tune`` starts its own moments."""
    opt = model.policy.optimizer
    model.policy.optimizer = type(opt)(model.policy.parameters(), **opt.defaults)


def sidecar_path(model: Path) -> Path:
    """``general_npc.zip`` -> ``general_npc.train.json`` (not ``.json``: that name is a
    checkpoint's NPC sidecar, ``checkpoint_meta``, which every command reads)."""
    return model.with_name(model.stem + ".train.json")


def write_sidecar(model: Path, cfg: GeneralConfig, game: Game, init: Path | None = None) -> None:
    """What the general policy was trained on: the observation's layout and every stage of
    its training (a run from ``init`` carries that policy's stages first), each with the
    config that reproduces it."""
    stage = {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(cfg).items()}
    before = (read_sidecar(init) or {}).get("stages", []) if init is not None else []
    doc = {"format": FORMAT, "version": 1, "observation": "general",
           "sheet_fields": list(SheetEncoder(game.tables).names), "rules_id": game.tables.id,
           "stages": [*before, stage]}
    atomic_write_text(sidecar_path(model), json.dumps(doc, indent=2) + "\n")


def read_sidecar(model: Path) -> dict[str, Any] | None:
    p = sidecar_path(model)
    return json.loads(p.read_text(encoding="utf-8")) if p.is_file() else None
