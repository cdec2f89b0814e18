"""The general NPC (issue 33 part 1): sheets in the observation, random sheets within the
creation limits (RULES §1.1-§1.2, aom192, aom195), the mixed-pairing training env, the
policy playing sheets it never saw, ``hexdojo npc new`` end to end, the style's lean."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexdojo.envs.rules import Game
from hexdojo.envs.rules.fighter import profile_from_dict
from hexdojo.envs.sheets import SCALE, SheetEncoder, general_inputs, general_space, sheet_views

pytest.importorskip("sb3_contrib")

from typer.testing import CliRunner  # noqa: E402

from hexdojo.agents.cli import app  # noqa: E402
from hexdojo.agents.general_npc import (  # noqa: E402
    FORMAT,
    HELDOUT_SEED,
    HELDOUT_SPAN,
    SHIPPED,
    GeneralConfig,
    read_sidecar,
    train_general,
    training_pairings,
    write_sidecar,
)
from hexdojo.agents.general_vec import GeneralVecEnv  # noqa: E402
from hexdojo.agents.policy import LearnedAgent, general_size  # noqa: E402
from hexdojo.agents.registry import make_agent  # noqa: E402
from hexdojo.agents.sheetgen import (  # noqa: E402
    balanced_pairings,
    random_pairings,
    random_sheet,
    seat_score,
    write_sheet,
)
from hexdojo.agents.style import style_move  # noqa: E402
from hexdojo.agents.tournament import play_fight  # noqa: E402

RULES = Game.create(["chu", "chu"]).tables.data


@pytest.fixture(scope="module")
def tiny_policy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A general policy of a few thousand steps (the shipped one's pipeline, small)."""
    cfg = GeneralConfig(total_steps=1024, groups=2, slots=4, demo_pairings=2, demo_fights=2,
                        n_steps=64, batch_size=128, n_epochs=1)
    return train_general(cfg, tmp_path_factory.mktemp("general") / "g.zip", say=lambda s: None)


# ------------------------------------------------------------------ the sheets as numbers
def test_sheet_encoding_reads_the_sheet() -> None:
    """Guard (sword right, shield left, a dagger sheathed; ST 2 = 4 half points)."""
    g = Game.create(["guard", "chu"])
    enc = SheetEncoder(g.tables)
    v = dict(zip(enc.names, enc.encode(g.profiles[0]), strict=True))
    assert v["char:ST"] == pytest.approx(4 / SCALE)
    assert v["skill:Sword"] == pytest.approx(12 / SCALE)
    assert (v["right:sword"], v["left:shield"], v["sheathed:dagger"]) == (1.0, 1.0, 1.0)
    assert v["right:spear"] == 0.0 and v["left:sword"] == 0.0
    views = enc.pair(g.profiles)  # each fighter sees himself first
    assert np.array_equal(views[0][:enc.size], views[1][enc.size:])
    assert np.array_equal(views[1][:enc.size], enc.encode(g.profiles[1]))


def test_general_observation_is_the_armed_duel_plus_both_sheets() -> None:
    g = Game.create(["chu", "boris"])
    s = g.new_state(3)
    obs, mask, legal, ids, cat = general_inputs(s)
    assert cat.armed and obs.shape == general_space(g).shape
    assert np.array_equal(obs[-2 * SheetEncoder(g.tables).size:], sheet_views(g)[s.decision.fighter])
    assert mask.sum() == len(legal) == len(set(ids))
    assert general_space(g).shape[0] == general_size()  # one layout for every pairing
    other = Game.create(["knife_fighter", "guard"])
    assert general_space(other).shape == general_space(g).shape


# ------------------------------------------------------------------ random sheets
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_random_sheets_are_within_the_creation_limits(seed: int) -> None:
    """§1.2: every drawn sheet loads with the limits enforced; the same seed, the same sheet."""
    rng = np.random.default_rng(seed)
    sheet = random_sheet(RULES, rng, "x")
    profile_from_dict(sheet, RULES, "x")  # raises on any broken limit
    assert sheet == random_sheet(RULES, np.random.default_rng(seed), "x")


def test_fair_pairings_are_fair_by_the_seat_score() -> None:
    """The filter by hand: walk the stream 4242, 4243, ... scoring each pairing's first
    seat (greedy against greedy, 24 fights, seeded by its place in the stream) and keep the
    ones within [0.3, 0.7]; balanced_pairings keeps exactly those, and says how many it
    passed over (the generator does draw lopsided pairings)."""
    pairs, skipped = balanced_pairings(RULES, 4242, 3, 0.3, fights=24)
    kept, seen, k = [], [], 0
    while len(kept) < 3:
        (pair,) = random_pairings(RULES, 4242 + k, 1)
        k += 1
        score = seat_score(pair, 24, seed=k)
        seen.append(score)
        if 0.3 <= score <= 0.7:
            kept.append(pair)
    assert pairs == kept and skipped == k - 3
    assert skipped > 0 and any(not 0.3 <= x <= 0.7 for x in seen)


@pytest.mark.slow
def test_training_never_draws_the_held_out_seeds() -> None:
    held = {json.dumps(p, sort_keys=True) for p in random_pairings(RULES, HELDOUT_SEED, 3)}
    for draw in (0, 1, 10_000):
        got = {json.dumps(list(f), sort_keys=True) for f, _ in training_pairings(GeneralConfig(), draw)}
        assert not got & held
    cfg = GeneralConfig(seed=0)
    cfg_held = GeneralConfig(seed=(HELDOUT_SEED - 1) // 1_000_003)
    assert training_pairings(cfg, 0) != training_pairings(cfg_held, HELDOUT_SPAN)


# ------------------------------------------------------------------ the training env
def test_general_vec_env_appends_each_slots_sheets_from_its_side() -> None:
    pairs = [((a, b), None) for a, b in random_pairings(RULES, 5, 2)]
    env = GeneralVecEnv(pairs, 3, lambda: make_agent("greedy"))
    env.seed(1)
    obs = env.reset()
    n = 2 * SheetEncoder(Game.create(["chu", "chu"]).tables).size
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(60):
        for k, g in enumerate(env.groups):
            rows = obs[k * 3:(k + 1) * 3, -n:]
            assert np.array_equal(rows, env.views[k][g.sides])
        acts = [rng.choice(np.flatnonzero(m)) for m in env.action_masks()]
        env.step_async(np.array(acts))
        obs, _, dones, infos = env.step_wait()
        for j in np.flatnonzero(dones):
            term = infos[j]["terminal_observation"]
            assert np.array_equal(term[-n:], env.views[j // 3][infos[j]["side"]])
            ended += 1
    assert ended > 0
    obs2 = env.resample([((a, b), None) for a, b in random_pairings(RULES, 6, 2)], seed=3)
    assert obs2.shape == obs.shape and not np.array_equal(obs2[:, -n:], obs[:, -n:])


# ------------------------------------------------------------------ the policy
@pytest.mark.slow
def test_a_general_policy_plays_sheets_it_never_saw(tiny_policy: Path, tmp_path: Path) -> None:
    agent = LearnedAgent.load(tiny_policy)
    assert agent.general
    a, b = random_pairings(RULES, 999_999_999, 1)[0]
    game = Game.create([str(write_sheet(a, tmp_path / "a.toml")), str(write_sheet(b, tmp_path / "b.toml"))])
    for seed in range(3):
        r = play_fight(game, (agent, make_agent("greedy")), seed)
        assert r.turns > 0
    assert agent.illegal == 0
    with pytest.raises(Exception, match="plays through act"):
        agent.batch_act(np.zeros((1, 10), np.float32), np.ones((1, 10), bool))


def test_the_shipped_general_policy_loads_offline_and_is_small() -> None:
    assert SHIPPED.is_file(), "agents/data/general_npc.zip: run scripts/train_general_npc.py"
    assert SHIPPED.stat().st_size < 5_000_000
    meta = read_sidecar(SHIPPED)
    assert meta is not None and meta["format"] == FORMAT
    # the sheets' layout it was trained on is today's: else retrain it (the rules data moved)
    assert meta["sheet_fields"] == list(SheetEncoder(Game.create(["chu", "chu"]).tables).names)
    assert meta["stages"] and all("command" in st and "total_steps" in st for st in meta["stages"])


def test_a_run_from_a_policy_keeps_its_stages(tmp_path: Path) -> None:
    """The sidecar of a policy trained from another lists the other's stages first."""
    game = Game.create(["chu", "chu"])
    first, second = tmp_path / "a.zip", tmp_path / "b.zip"
    write_sidecar(first, GeneralConfig(total_steps=11), game)
    write_sidecar(second, GeneralConfig(total_steps=22, seed=1), game, init=first)
    stages = read_sidecar(second)["stages"]
    assert [st["total_steps"] for st in stages] == [11, 22] and stages[1]["seed"] == 1
    agent = make_agent(str(SHIPPED))  # by path, as every command takes it
    assert isinstance(agent, LearnedAgent) and agent.general
    a, b = random_pairings(RULES, HELDOUT_SEED, 1)[0]
    r = play_fight(Game.create([a, b]), (agent, make_agent("greedy")), 0)
    assert r.turns > 0 and agent.illegal == 0


@pytest.mark.slow
def test_the_style_lean_picks_the_styles_moves(tiny_policy: Path) -> None:
    """A lean of 100 outweighs any logit: wherever a counter (a defence, RULES §1.9) is
    legal at a reaction, the counter-styled NPC takes one."""
    agent = LearnedAgent.load(tiny_policy)
    agent.style, agent.style_bias, agent.temperature = "counter", 100.0, 0.0
    seen = 0

    class Spy:
        name = "spy"

        def reset(self, seed: int | None = None) -> None:
            agent.reset(seed)

        def act(self, state):  # noqa: ANN001, ANN202
            nonlocal seen
            c = agent.act(state)
            if any(style_move(state, x, "counter") == 1 for x in state.legal_choices()):
                assert style_move(state, c, "counter") == 1
                seen += 1
            return c

    game = Game.create(["chu", "chu"])
    for seed in range(6):
        play_fight(game, (Spy(), make_agent("greedy")), seed)
    assert seen > 0


# ------------------------------------------------------------------ hexdojo npc new
@pytest.mark.slow
def test_npc_new_end_to_end(tiny_policy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                            ) -> None:
    """A GM's own two sheets and house rule, named relative to his folder: the NPC's folder
    records them absolute (it is used from anywhere), plays, and carries four levels."""
    a, b = random_pairings(RULES, 123_456_789, 1)[0]
    fa, fb = write_sheet(a, tmp_path / "bandit.toml"), write_sheet(b, tmp_path / "monk.toml")
    out = tmp_path / "npc"
    house = tmp_path / "house.toml"
    house.write_text("[knockback]\nknocked_over_min_fail = 9\n")
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(app, ["npc", "new", "--fighters", "bandit.toml,monk.toml", "--out",
                                   "npc", "--policy", str(tiny_policy), "-n", "4", "--style",
                                   "counter", "--rules", "house.toml"])
    assert res.exit_code == 0, res.output
    meta = json.loads((out / "npc.json").read_text())
    assert meta["observation"] == "general" and meta["side"] == "0"
    assert meta["rules"] == str(house.resolve()) and meta["rules_id"] == Game.create(
        [str(fa), str(fb)], rules=str(house)).tables.id != Game.create([str(fa), str(fb)]).tables.id
    assert meta["fighters"] == [str(fa.resolve()), str(fb.resolve())]
    levels = json.loads((out / "levels.json").read_text())
    assert [lv["name"] for lv in levels["levels"]] == ["easy", "fair", "hard", "master"]
    assert all(lv["options"]["style"] == "counter" for lv in levels["levels"])
    assert all(len(lv["ci"]) == 2 for lv in levels["levels"])
    hard = make_agent(f"{out}:hard")
    r = play_fight(Game.create([str(fa), str(fb)], rules=str(house)), (hard, make_agent("greedy")), 0)
    assert r.turns > 0 and hard.illegal == 0


@pytest.mark.slow
def test_npc_new_tunes_from_the_general_policy(tiny_policy: Path, tmp_path: Path) -> None:
    out = tmp_path / "tuned"
    res = CliRunner().invoke(app, ["npc", "new", "--fighters", "knife_fighter,boris", "--out",
                                   str(out), "--policy", str(tiny_policy), "-n", "4", "--tune", "256"])
    assert res.exit_code == 0, res.output
    assert (out / "npc.zip").read_bytes() != tiny_policy.read_bytes()
    assert LearnedAgent.load(out / "npc.zip").general


@pytest.mark.slow
def test_npc_new_measures_a_searched_master_candidate(tiny_policy: Path, tmp_path: Path) -> None:
    """``--search N`` (issue 33 section 3): the policy as the prior of the native search is a
    candidate, measured like the others; a level it becomes plays as that search."""
    from hexdojo.agents.guided import GuidedMCTS
    from hexdojo.agents.levels import build

    out = tmp_path / "searched"
    res = CliRunner().invoke(app, ["npc", "new", "--fighters", "chu,boris", "--out", str(out),
                                   "--policy", str(tiny_policy), "-n", "4", "--search", "8"])
    assert res.exit_code == 0, res.output
    cands = json.loads((out / "levels.json").read_text())["candidates"]
    searched = [c for c in cands if c["options"].get("search") == 8]
    assert len(searched) == 1 and searched[0]["label"] == "npc.zip + search 8"
    assert sum(searched[0]["ci"]) > 0 and 0.0 <= searched[0]["score"] <= 1.0
    lv = build(out, searched[0], "npc:master", make_agent)
    assert isinstance(lv, GuidedMCTS) and lv.sims == 8
    assert lv.native_player(Game.create(["chu", "boris"])) is not None  # inside the core


@pytest.mark.parametrize("args, words", [
    (["--style", "brawny"], "style: value 'brawny'"),
    (["--side", "2"], "side: value '2'"),
    (["--policy", "/nonexistent/g.zip"], "file not found"),
])
def test_npc_new_bad_input_is_one_line(args: list[str], words: str, tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["npc", "new", "--fighters", "chu,boris", "--out",
                                   str(tmp_path / "x"), *args])
    assert res.exit_code == 2 and words in res.output
    assert "Traceback" not in res.output and len(res.output.strip().splitlines()) == 1


@pytest.mark.slow
def test_the_general_npc_refuses_a_scene_in_one_line(tiny_policy: Path) -> None:
    agent = LearnedAgent.load(tiny_policy)
    game = Game.from_scene("two_vs_one")
    with pytest.raises(Exception, match="plays duels"):
        play_fight(game, (agent, make_agent("greedy")), 0)
