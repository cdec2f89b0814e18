"""Style-conditioned training (issue 14): the style share metric and the reward term per
maneuver category (``agents/style.py``), from the rules data's categories; ``style`` in the
training config wraps the environment and is remembered in the checkpoint's sidecar."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from hexdojo.agents.advise import load_position
from hexdojo.agents.style import StyleReward, StyleStats, record, style_move, style_share
from hexdojo.envs.rules import Choice

POSITION = Path(__file__).parents[2] / "docs" / "examples" / "advise_position.toml"


def _pick(state, name: str) -> Choice:
    return next(c for c in state.legal_choices() if c.maneuver == name)


def test_style_moves_follow_the_rules_categories() -> None:
    """Chu beside Boris, his action: Arm Grab (category grab) is the grappler's, Martial
    Strike (strike) the striker's, a Move is nobody's attack."""
    s = load_position(POSITION)
    grab, strike, move = _pick(s, "Arm Grab"), _pick(s, "Martial Strike"), _pick(s, "Move")
    assert style_move(s, grab, "grappler") == 1 and style_move(s, strike, "grappler") == -1
    assert style_move(s, strike, "striker") == 1 and style_move(s, grab, "striker") == -1
    assert style_move(s, move, "grappler") == 0 == style_move(s, move, "striker")
    assert style_move(s, strike, "counter") == 0  # counter counts reactions only
    stats = StyleStats()
    for c in (grab, strike, strike, move):
        record(stats, s, c)
    assert style_share(stats, "grappler") == (1, 3)
    assert stats.attacks == {"grab": 1, "strike": 2} and stats.maneuvers["Move"] == 1


def test_a_reaction_met_with_a_defence_is_the_counters() -> None:
    s = load_position(POSITION)
    s.apply(_pick(s, "Martial Strike"))  # Boris must react
    while s.decision.kind != "reaction":
        s.apply(s.legal_choices()[0])
    dodge = next(c for c in s.legal_choices() if c.kind == "maneuver"
                 and s.t.maneuvers[c.maneuver].category == "dodge")
    assert style_move(s, dodge, "counter") == 1
    assert style_move(s, Choice("pass"), "counter") == -1


def test_style_reward_adds_the_weight_per_style_move() -> None:
    """The same fights with and without the wrapper: the rewards differ by exactly
    weight x (+1 style attack, -1 other attack) at every step."""
    from hexdojo.envs.duel import DuelEnv

    def env() -> DuelEnv:
        return DuelEnv(fighters=["chu", "boris"], opponent="random", agent_side=0,
                       flat_observation=True, turn_limit=6)

    plain, styled = env(), StyleReward(env(), "grappler", 0.25)
    rng = np.random.default_rng(3)
    signs = []
    for ep in range(6):
        plain.reset(seed=ep)
        styled.reset(seed=ep)
        done = False
        while not done:
            base = styled.unwrapped
            legal = np.flatnonzero(base.action_masks())
            grabs = [x for x in legal if style_move(
                base.fight, base.catalogue.choice_for(int(x), base.fight, 0), "grappler") == 1]
            pool = grabs if grabs and rng.random() < 0.5 else legal
            a = int(pool[int(rng.integers(len(pool)))])
            sign = style_move(base.fight, base.catalogue.choice_for(a, base.fight, 0), "grappler")
            _, r0, t0, _, _ = plain.step(a)
            _, r1, t1, _, _ = styled.step(a)
            assert t0 == t1 and r1 - r0 == pytest.approx(0.25 * sign)
            signs.append(sign)
            done = t0
    assert 1 in signs and -1 in signs
    assert styled.moves[1] == signs.count(1) and styled.moves[-1] == signs.count(-1)


def test_bad_style_is_one_line() -> None:
    from hexdojo.agents.training.config import load_config
    from hexdojo.envs.rules import RulesError

    with pytest.raises(RulesError, match=r"field 'style': value 'wrestler'"):
        load_config(overrides={"style": "wrestler"})


def test_style_in_the_config_trains_clones_its_bot_and_is_remembered(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    from hexdojo.agents.training.config import load_config
    from hexdojo.agents.training.ppo import train

    cfg = load_config(overrides={
        "total_steps": 128, "n_envs": 1, "turn_limit": 4, "checkpoint_every": 128,
        "style": "grappler", "style_weight": 0.1,
        "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1, "net_arch": [16]},
        "pool": {"scripted": ["random"], "self_play": False},
        "eval": {"every": 128, "episodes": 2, "opponents": ["random"]},
        "imitation": {"fights": 4, "opponents": ["random"], "epochs": 1}})
    out = train(cfg, tmp_path / "g", progress=False)
    assert json.loads(out.with_suffix(".json").read_text())["style"] == "grappler"
    # the warm start clones the style's scripted bot, not [imitation] teacher (greedy)
    assert cfg.imitation.teacher == "greedy"
    run = json.loads((tmp_path / "g" / "run.json").read_text())
    assert run["imitation"]["teacher"] == "grappler"


def test_a_run_from_before_style_resumes_but_not_with_a_style(tmp_path: Path) -> None:
    """A run whose config.json predates ``style`` resumes (the new fields take their
    defaults); asking it for a style now is another setting, refused in one line."""
    from hexdojo.agents.training.config import load_config
    from hexdojo.agents.training.rundir import RunDir, check_same_config

    run = RunDir(tmp_path)
    old = json.loads(load_config().model_dump_json())
    del old["style"], old["style_weight"]
    run.config.write_text(json.dumps(old))
    check_same_config(run, load_config())
    with pytest.raises(ValueError, match=r"other settings \(style\)"):
        check_same_config(run, load_config(overrides={"style": "grappler"}))
