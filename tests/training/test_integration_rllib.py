"""Ray RLlib (issue 17): ``hexdojo train --backend rllib`` trains multi-agent self-play PPO
on the PettingZoo duel through RLlib's PettingZoo wrapper with RLlib's action-masking
RLModule, on a local Ray with one remote env runner, and its run folder plays as a hexdojo
agent (a run on a ``ray start`` cluster, killed and resumed: tests/training/test_rllib_cluster.py).
Slow (a Ray start, two PPO iterations): marked ``rllib``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

from hexdojo.agents import rllib_backend as rb  # noqa: E402
from hexdojo.agents.cli import main  # noqa: E402
from hexdojo.agents.registry import make_agent  # noqa: E402
from hexdojo.envs.duel import make_game  # noqa: E402

pytestmark = [pytest.mark.rllib, pytest.mark.slow]


SMALL = """\
fighters = ["chu", "chu"]
n_envs = 2
[ppo]
batch_size = 128
n_epochs = 2
[rllib]
train_batch_per_runner = 256
"""


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    tmp = tmp_path_factory.mktemp("rllib")
    (tmp / "small.toml").write_text(SMALL)
    out = tmp / "npc"
    with pytest.raises(SystemExit) as exc:
        main(["train", "--backend", "rllib", "--config", str(tmp / "small.toml"),
              "--iterations", "2", "--env-runners", "1", "--seed", "3", "-o", str(out)])
    assert exc.value.code == 0
    return out, ""


def test_the_run_trained_two_iterations_and_checkpointed(run_folder, capsys) -> None:
    out, _ = run_folder
    meta = rb.read_marker(out)
    assert meta["iteration"] == 2 and meta["checkpoint"] == "checkpoints/iter_000002"
    modules = out / meta["checkpoint"] / "learner_group" / "learner" / "rl_module"
    assert sorted(p.name for p in modules.iterdir() if p.is_dir()) == [rb.POLICY]  # one shared policy
    assert not list((out / "checkpoints").glob(".iter_*"))  # written to a temp folder, then renamed
    assert meta["config"]["n_envs"] == 2 and meta["config"]["seed"] == 3  # the TOML and the flags


def test_self_play_maps_both_fighters_to_the_one_policy() -> None:
    assert {rb.self_play_mapping(a, None) for a in ("player_0", "player_1")} == {rb.POLICY}


def test_the_wrapped_env_has_rllibs_masking_keys_and_ends_fights() -> None:
    env = rb.masked_env({"turn_limit": 4})
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(5_000):
        (agent, o), = obs.items()
        assert set(o) == {"observations", "action_mask"} and o["action_mask"].dtype == np.float32
        a = int(rng.choice(np.flatnonzero(o["action_mask"])))
        obs, rew, term, trunc, info = env.step({agent: a})
        if term["__all__"] or trunc["__all__"]:
            break
    assert term["__all__"] and sum(rew.values()) == 0.0


def test_the_run_folder_is_an_agent_that_plays_legal_tournament_fights(run_folder) -> None:
    out, _ = run_folder
    agent = make_agent(str(out))
    assert isinstance(agent, rb.RLlibAgent)
    from hexdojo.agents.tournament import TournamentConfig, run_tournament

    cfg = TournamentConfig((agent.name, "random"), 2, ("chu", "chu"), 0, None, 4, 6, 1)
    result = run_tournament(cfg, [agent, make_agent("random")], progress=False)
    assert len(result.fights) == 4  # an illegal choice would have raised IllegalChoice


def test_the_module_masks_illegal_actions(run_folder) -> None:
    import torch

    out, _ = run_folder
    agent = rb.RLlibAgent(out)
    st = make_game(("chu", "chu")).new_state(5)
    flat, mask = agent.encoder.encode_with_mask(st, st.decision.fighter)
    agent.encoder.rescale(flat, "unit")
    batch = {"obs": {"observations": torch.as_tensor(flat[None]),
                     "action_mask": torch.as_tensor(mask[None].astype(np.float32))}}
    logits = agent.module.forward_inference(batch)["action_dist_inputs"][0].detach().numpy()
    assert np.all(logits[mask == 0] < -1e30) and np.all(logits[mask == 1] > -1e30)
    assert agent.act(st) in st.legal_choices()
