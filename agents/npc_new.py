"""``hexdojo npc new``: a calibrated NPC for any two fighter sheets in seconds, from the
general policy shipped in the package (issue 33, :mod:`.general_npc`), no training first
(the command itself: :func:`.cli.npc.new`).

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
from typing import Any

from hexdojo.envs.rules import Game
from hexdojo.envs.rules.scene import resolve_path
from hexdojo.envs.sheets import general_space

from .base import AgentError
from .calibrate import calibrate
from .checkpoint_meta import FORMAT, VERSION, hexdojo_version, write_meta
from .files import atomic_write_bytes
from .general_npc import SHIPPED, GeneralConfig
from .policy import general_size
from .training.pool import PoolOpponent
from .training.rundir import atomic_save_model

#: the calibration's temperatures (fewer than ``calibrate``'s: seconds, not minutes)
NEW_TEMPERATURES = (0.0, 2.0, 4.0, 8.0)
#: how hard the style's lean pushes (added to the logit of each of its moves)
STYLE_BIAS = 2.0


def check_general(policy: Path, game: Game) -> None:
    """Refuse in one line a missing general policy, or rules whose spaces it cannot read."""
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

    from .general_vec import GeneralVecEnv  # optional: stable_baselines3 (the rl extra)

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
            say: Callable[[str], None] = print, search: tuple[int, ...] = ()) -> dict[str, Any]:
    """The NPC folder ``out`` for ``fighters`` (see the module); returns ``levels.json``.
    ``search``: also the policy as the prior of the native search of each budget (the
    master level's shape: issue 33 section 3's master beats ``mcts`` as Boris this way)."""
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
                    workers=workers, say=say, progress=False, options=options, search=search)
    cal.doc["seconds"] = round(time.perf_counter() - t0, 1)
    return cal.doc
