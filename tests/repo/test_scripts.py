"""Helpers of the measuring scripts under ``scripts/`` that the README's figures rest on."""

from __future__ import annotations

from hexdojo.envs.rules import PASS, Game, LoadedDice
from tests.rules_kit import strike
from tests.scripts_kit import load_script as load


def test_first_wound_names_the_wounded_fighter_and_skips_self_injury():
    """§1.17 worked example (aom3221): Chu's Martial Strike leaves Urlik a Scratch, then
    Chu takes a Scratch striking the light mail. The first wound is Urlik's (fighter 1),
    by Martial Strike, undefended; Chu's own self-injury wound does not count."""
    fw = load("first_wound")
    state = Game.create(["chu", "urlik"]).new_state(LoadedDice([3]), scenario={
        "fighters": [{"pos": [0, 0], "facing": 0, "ap": 10},
                     {"pos": [1, 0], "facing": 3, "ap": 10}],
        "phase": 0})
    strike(state)
    state.apply(PASS)  # Urlik does not soak
    wounds = [e["a"] for e in state.events if e["type"] == "wound"]
    assert wounds[:2] == [1, 0], "Urlik's wound, then Chu's self-injury"
    assert fw.first_wound(state) == (1, "Martial Strike", "none")
    attacks, risks, waits = fw.play_style(state, 0)
    assert attacks == {"Martial Strike": 1} and risks == [0] and waits == 0
    assert fw.play_style(state, 1) == ({}, [], 0)
    # §1.13 (aom1d34): the struck Urlik rolls knock-back and is knocked over
    kb = [e for e in state.events if e["type"] == "knockback"]
    assert [(e["a"], e["effect"]) for e in kb] == [(1, "knocked over")]
    assert fw.tempo(state, 0) == (1, 0, 0) and fw.tempo(state, 1) == (0, 1, 1)
    assert fw.first_wound(Game.create(["chu", "urlik"]).new_state(0)) == (None, None, None)


def test_style_sweep_variants_are_valid_styles_and_reproducible():
    """Every drawn variant is a real Style (replace() accepts it), the unmodified bases
    come first, and the same seed draws the same variants."""
    from dataclasses import fields, replace

    from hexdojo.agents.scripted import STYLES, Style

    sw = load("style_sweep")
    vs = sw.variants(12, seed=5)
    assert vs[:3] == [{"base": b} for b in sw.BASES] and len(vs) == 15
    assert vs == sw.variants(12, seed=5) and vs != sw.variants(12, seed=6)
    names = {f.name for f in fields(Style)}
    for v in vs[3:]:
        assert set(v) - {"base"} <= names
        style = replace(STYLES[v["base"]], **{k: x for k, x in v.items() if k != "base"})
        assert style.defend == v["defend"] and style.wait is v["wait"]



def test_ladder_ceiling_oracles_see_what_fair_agents_do_not():
    """The ceiling script's oracles are unfair on purpose: the dice oracle's simulations
    roll the fight's own future dice (a fair search's fresh clone does not), and the full
    oracle's rollouts foresee the random player without moving his real generator."""
    import numpy as np

    from hexdojo.agents.scripted import RandomAgent
    from hexdojo.envs.rules.dice import Dice

    lc = load("ladder_ceiling")
    state = Game.create(["chu", "chu"]).new_state(11)
    rng = np.random.default_rng(11)
    while (state.decision.fighter, state.decision.kind) != (0, "action") or len(
            state.legal_choices()) < 3:
        ch = state.legal_choices()
        state.apply(ch[int(rng.integers(len(ch)))])
    oracle = lc.make("dice", 1.0, 4)
    assert isinstance(oracle, lc.DiceOracle) and oracle.name == "oracle:dice"
    seen, real = oracle.sim_state(state).dice, state.clone().dice
    fair = state.clone(dice=Dice(99)).dice  # a fair search's clone: fresh dice
    rolls = [real.die() for _ in range(20)]
    assert [seen.die() for _ in range(20)] == rolls != [fair.die() for _ in range(20)]
    full = lc.make("full", 1.0, 4)
    rnd = RandomAgent()
    rnd.reset(5)
    full.opponent = rnd
    full.reset(1)
    before = rnd.rng.bit_generator.state
    assert full.act(state) in state.legal_choices()
    assert rnd.rng.bit_generator.state == before, "its rollouts play a copy of him"
    assert [lc.make(v, 2.0, 4).name for v in ("mcts", "model", "caution")] == [
        "mcts", "mcts:model=random", "mcts:caution=2"]
