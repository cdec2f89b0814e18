"""``hexdojo.envs.sb3.NativeVecEnv`` (issue 30): SB3's VecEnv conventions over the native
vector of duels (terminal observations, Monitor's episode records, exact masks through
``action_masks`` and ``env_method``, seeding), MaskablePPO trains on it without an illegal
action, and ``hexdojo train`` runs on it (``vec_env = "native"``)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402

from hexdojo.envs.sb3 import NativeVecEnv  # noqa: E402


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", category=DeprecationWarning)


def _play(venv: NativeVecEnv, steps: int, seed: int = 0) -> tuple[list, list]:
    venv.seed(seed)
    obs = venv.reset()
    rng = np.random.default_rng(0)
    rewards, ends = [], []
    for _ in range(steps):
        masks = venv.action_masks()
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, r, dones, infos = venv.step(acts)
        rewards.append(r.tolist())
        for k in np.flatnonzero(dones):
            ends.append((k, infos[k]["outcome"], infos[k]["episode"]["l"]))
            assert infos[k]["terminal_observation"].shape == obs[k].shape
            assert infos[k]["TimeLimit.truncated"] is False
            assert infos[k]["episode"]["r"] == pytest.approx(infos[k]["outcome"], abs=1e-6)
    return rewards, ends


def test_sb3_conventions_and_seeding() -> None:
    """dones, terminal observations and Monitor's records per SB3; the masks MaskablePPO
    reads (both ways) are the env's; the same seed replays the same rewards."""
    venv = NativeVecEnv(num_envs=6, opponent="greedy", flat_observation=True)
    assert is_masking_supported(venv)
    venv.reset()
    assert np.array_equal(get_action_masks(venv), venv.action_masks())
    assert venv.get_attr("num_envs") == [6] * 6 and venv.env_is_wrapped(object) == [False] * 6
    a, ends = _play(venv, 80)
    b, _ = _play(venv, 80)
    assert a == b and len(ends) >= 6
    assert {o for _, o, _ in ends} <= {-1, 0, 1}


def test_a_python_opponent_and_a_ranged_start_through_sb3() -> None:
    """Issue 32: greedy asked through its act (native=False) replays greedy played in the
    core, reward for reward and end for end; a ranged scene's start runs here too."""
    native, ends = _play(NativeVecEnv(num_envs=4, opponent="greedy", flat_observation=True), 60)
    python = _play(NativeVecEnv(num_envs=4, opponent="greedy", native=False,
                                flat_observation=True), 60)
    assert python == (native, ends) and len(ends) >= 2
    ranged = {"name": "r", "start": {"distance": [1, 3]},
              "fighters": [{"fighter": "chu"}, {"fighter": "chu"}]}
    venv = NativeVecEnv(num_envs=4, scene=ranged, fighters=None, flat_observation=True)
    assert _play(venv, 40) == _play(venv, 40)


def test_maskable_ppo_learns_on_it_without_an_illegal_action() -> None:
    venv = NativeVecEnv(num_envs=16, opponent="random", flat_observation=True)
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=128, n_epochs=1, seed=0, verbose=0)
    model.learn(1024)
    assert model.num_timesteps >= 1024 and venv.venv.illegal_total == 0


def test_hexdojo_train_runs_on_the_native_vector_env(tmp_path) -> None:
    """The main job's configuration on the native path, a few rollouts: a model is written
    and the time profile counts the environments."""
    import json

    from hexdojo.agents.training.config import load_config
    from hexdojo.agents.training.ppo import train

    cfg = load_config(None, {"total_steps": 1024, "n_envs": 16, "ppo": {"n_steps": 32, "batch_size": 128},
                             "imitation": {"fights": 0}, "eval": {"every": 100_000}})
    assert cfg.vec_env == "native"
    import torch

    before = torch.distributions.Distribution._validate_args
    final = train(cfg, tmp_path / "run", progress=False)
    assert final.is_file()
    assert torch.distributions.Distribution._validate_args == before  # put back after training
    prof = json.loads((tmp_path / "run" / "run.json").read_text())
    assert prof["steps"] >= 1024 and prof["env_seconds"] > 0


def test_a_scene_or_a_style_trains_on_python_envs() -> None:
    """The style reward and a scene's places need the Python envs: vec_env = "native" (the
    shipped default) gives them DummyVecEnv; a plain duel gets the native env."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from hexdojo.agents.training.config import load_config
    from hexdojo.agents.training.vecenv import make_vec_env

    styled = make_vec_env(load_config(None, {"style": "grappler", "n_envs": 2}), None)
    plain = make_vec_env(load_config(None, {"n_envs": 2}), None)
    assert isinstance(styled.venv, DummyVecEnv) and isinstance(plain.venv, NativeVecEnv)
    styled.close()
    plain.close()


def test_a_checkpoint_opponent_answers_in_batches_with_its_own_choices() -> None:
    """A trained policy as the vector env's opponent (issue 30): LearnedAgent.batch_act is
    the model's deterministic choice (predict's), a sample only among legal ids otherwise,
    and the env asks it once per round for every slot waiting on it."""
    from hexdojo.agents.policy import LearnedAgent
    from hexdojo.envs.vector_env import NativeDuelVectorEnv

    venv = NativeVecEnv(num_envs=8, opponent="greedy", flat_observation=True)
    model = MaskablePPO("MlpPolicy", venv, n_steps=8, seed=0, verbose=0)
    agent = LearnedAgent(model, deterministic=True, seed=3)
    obs, masks = venv.reset(), venv.action_masks()
    want, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert np.array_equal(agent.batch_act(obs, masks), want)
    agent.deterministic = False
    rows = np.arange(len(obs))
    assert all(masks[rows, agent.batch_act(obs, masks)].all() for _ in range(20))
    calls = []
    act = agent.batch_act
    agent.batch_act = lambda o, m: calls.append(len(o)) or act(o, m)
    env = NativeDuelVectorEnv(8, opponent=agent, flat_observation=True)
    env.reset(seed=0)
    for _ in range(10):
        env.step(np.array([np.flatnonzero(m)[0] for m in env.action_masks()]))
    assert calls and max(calls) > 1 and env.illegal_total == 0


def test_the_pool_never_loads_a_snapshot_still_being_written(tmp_path) -> None:
    """A run killed while saving a snapshot leaves ``snap_N.tmp.zip`` (atomic_save_model's
    temp file): the snapshot listing (the native pool loads every snapshot it lists) skips it."""
    from hexdojo.agents.training.rundir import snapshot_paths

    for name in ("snap_0000000100.zip", "snap_0000000200.tmp.zip", "snap_0000000300.zip"):
        (tmp_path / name).write_bytes(b"")
    assert [p.name for p in snapshot_paths(tmp_path)] == ["snap_0000000100.zip", "snap_0000000300.zip"]


def test_a_pool_with_snapshots_replays_its_seed(tmp_path) -> None:
    """The native pool's snapshots sample their batched answers from a generator seeded by the
    pool's seed and the snapshot's name: two runs of the same seed play the same episodes
    (an unseeded sampler made the main job's rating differ between two clean runs)."""
    from hexdojo.agents.training.pool import PoolOpponent

    venv = NativeVecEnv(num_envs=4, opponent="greedy", flat_observation=True, observation_scale="unit")
    MaskablePPO("MlpPolicy", venv, n_steps=8, seed=0, verbose=0).save(str(tmp_path / "snap_0000000008.zip"))

    def run() -> list:
        pool = PoolOpponent(["greedy"], tmp_path, 1.0, seed=5)
        env = NativeVecEnv(num_envs=6, opponent=pool, flat_observation=True, observation_scale="unit")
        rewards, _ = _play(env, 40, seed=2)
        return rewards

    assert run() == run()


# ------------------------------------------------------------------ SB3's VecEnv conventions (issue 35)
def test_seeding_is_slot_k_at_s_plus_k_and_reset_keeps_the_spaces() -> None:
    """``seed(s)`` returns and applies s + k for slot k (so seed 11's slot k is seed 10's slot
    k + 1), the next reset only; observations are float32 rows of the space."""
    venv = NativeVecEnv(num_envs=4, opponent="greedy", flat_observation=True)
    assert venv.seed(10) == [10, 11, 12, 13]
    a = venv.reset()
    assert a.dtype == np.float32 and a.shape == (4, *venv.observation_space.shape)
    assert all(venv.observation_space.contains(o) for o in a)
    venv.seed(10)
    assert np.array_equal(venv.reset(), a)
    venv.seed(11)
    b = venv.reset()
    assert np.array_equal(b[:-1], a[1:]) and not np.array_equal(b, a)


def test_env_method_get_attr_set_attr_by_index() -> None:
    venv = NativeVecEnv(num_envs=4, opponent="greedy", flat_observation=True)
    venv.reset()
    rows = venv.env_method("action_masks", indices=[1, 3])
    assert np.array_equal(np.stack(rows), venv.action_masks()[[1, 3]])
    assert len(venv.env_method("action_masks", indices=2)) == 1
    assert venv.get_attr("illegal_total", indices=[0, 2]) == [0, 0]
    assert venv.get_attr("num_envs") == [4] * 4
    venv.set_attr("refresh_every", 0)
    assert venv.get_attr("refresh_every", indices=0) == [0]
    assert venv.env_method("set_opponent_pool", indices=[0]) == [None]


def test_autoreset_gives_the_native_envs_final_observation() -> None:
    """A done slot's ``terminal_observation`` is the episode's last observation (the native
    vector env's ``final_obs``) and ``obs`` already the next episode's first, step for step
    the same as the Gymnasium vector env under the same seed and actions."""
    from hexdojo.envs.vector_env import NativeDuelVectorEnv

    venv = NativeVecEnv(num_envs=5, opponent="greedy", flat_observation=True)
    gym_env = NativeDuelVectorEnv(5, opponent="greedy", flat_observation=True)
    venv.seed(4)
    obs = venv.reset()
    obs2, _ = gym_env.reset(seed=4)
    rng = np.random.default_rng(1)
    ends = 0
    for _ in range(120):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])
        obs, rewards, dones, infos = venv.step(acts)
        obs2, r2, term, trunc, info = gym_env.step(acts)
        assert np.array_equal(obs, obs2) and np.array_equal(rewards, r2)
        assert np.array_equal(dones, term | trunc) and dones.dtype == bool
        for k in np.flatnonzero(dones):
            assert np.array_equal(infos[k]["terminal_observation"], info["final_obs"][k])
            assert not np.array_equal(infos[k]["terminal_observation"], obs[k])
            ends += 1
        assert all(infos[k] == {} for k in np.flatnonzero(~dones))
    assert ends >= 5


def test_sb3_wrappers_and_a_dict_observation() -> None:
    """SB3's own checks and wrappers stack on it (VecCheckNan raising on NaN or inf,
    VecNormalize) and MaskablePPO still reads exact masks through them; the Dict observation
    trains with MultiInputPolicy and its terminal observations are dicts of the space."""
    from stable_baselines3.common.vec_env import VecCheckNan, VecNormalize

    venv = NativeVecEnv(num_envs=8, opponent="random", flat_observation=True)
    wrapped = VecNormalize(VecCheckNan(venv, raise_exception=True))
    MaskablePPO("MlpPolicy", wrapped, n_steps=32, batch_size=64, n_epochs=1, seed=0).learn(512)
    assert venv.venv.illegal_total == 0
    dict_env = NativeVecEnv(num_envs=4, opponent="random")
    obs = dict_env.reset()
    assert set(obs) == set(dict_env.observation_space.spaces)
    MaskablePPO("MultiInputPolicy", dict_env, n_steps=32, batch_size=64, n_epochs=1, seed=0).learn(256)
    assert dict_env.venv.illegal_total == 0
    dict_env.seed(0)
    dict_env.reset()
    for _ in range(200):
        _, _, dones, infos = dict_env.step(np.array([np.flatnonzero(m)[0] for m in dict_env.action_masks()]))
        if dones.any():
            last = infos[int(np.flatnonzero(dones)[0])]["terminal_observation"]
            assert dict_env.observation_space.contains(last)
            break
    else:
        pytest.fail("no episode ended in 200 steps")
