"""``hexdojo advise`` (issue 14): an agent's ranked choices for a fixed scenario, with the
scripted scorer's values, the hit odds of attacks (checked by hand against the dice), a
learned policy's probabilities, a saved fight at step k, and one-line errors."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hexdojo.agents import make_agent
from hexdojo.agents.advise import advise, hit_odds, load_position
from hexdojo.agents.cli import app
from hexdojo.agents.play import load_fight

# Chu faces Boris from the next hex, his phase, 6 AP against 4 (RULES §1.7: adjacent, front)
SCENARIO = """\
turn = 1
phase = 0

[game]
fighters = ["chu", "boris"]
seed = 3

[[fighters]]
pos = [0, 0]
facing = 0
ap = 6

[[fighters]]
pos = [1, 0]
facing = 3
ap = 4
"""


def run(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    p = tmp_path / "pos.toml"
    p.write_text(SCENARIO)
    return p


def sums(n: int, sides: int = 6) -> Counter:
    """Hand count: the sums of n dice, by brute force over every roll."""
    return Counter(sum(r) for r in itertools.product(range(1, sides + 1), repeat=n))


def p_higher(attack_h: int, defence_h: int, dice: int) -> float:
    """P(attack result > defence result), both risking ``dice`` (RULES §1.3: a roll is
    basic + dice sum, the per-die cost the same on both sides; §5.2: ties favour the
    defender). Values in half points, so a die counts 2."""
    s = sums(dice)
    total = sum(s.values()) ** 2
    win = sum(ca * cd for a, ca in s.items() for d, cd in s.items()
              if attack_h + 2 * a > defence_h + 2 * d)
    return win / total


def test_greedy_first_choice_and_a_hand_checked_odds_line(scenario: Path) -> None:
    res = run("advise", str(scenario), "--top", "3")
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[2] == "turn 1: Chu decides action; greedy ranks 75 choice(s) by value:"
    first = lines[3]
    assert first.startswith("  1. Martial Strike @ Chest (Blunt)")
    # attack 11 (22 half points) against Boris's best defence, a jump back dodge at 8 (16)
    assert first.endswith("hit 66.2% vs Jump back dodge (attack 11 vs defence 8, 6 dice each)")
    assert f"{p_higher(22, 16, 6):.1%}" == "66.2%"
    assert lines[-2:] == ["     ... 72 more (--top 75 shows all)",
                          "     (137 variants that only add a turn folded; --turns lists them)"]
    # with --turns, every legal choice (the turning variants of a strike come next to it)
    lines = run("advise", str(scenario), "--top", "3", "--turns").output.splitlines()
    assert "greedy ranks 212 choice(s)" in lines[2]
    assert lines[4].startswith("  2. Martial Strike @ Chest (Blunt, turning ")


def test_values_are_the_scorers_and_the_first_is_what_greedy_plays(scenario: Path) -> None:
    state = load_position(scenario)
    greedy = make_agent("greedy")
    what, rows = advise(greedy, state)
    assert what == "value"
    assert rows[0].choice == make_agent("greedy").act(load_position(scenario))
    values = [r.value for r in rows]
    assert values == sorted(values, reverse=True)
    assert sorted(r.choice for r in rows) == sorted(state.legal_choices())
    # non-attacks carry no odds; every attack does, and its p is the exact dice figure
    move = next(r for r in rows if r.choice.maneuver == "Move")
    assert move.odds is None
    o = hit_odds(state, rows[0].choice)
    assert o is not None and o.p == pytest.approx(p_higher(o.attack, o.defence, o.dice))


def test_plugin_agent_puts_its_pick_first(scenario: Path) -> None:
    kicker = str(Path(__file__).resolve().parents[2] / "docs/examples/my_agent.py") + ":Kicker"
    res = run("advise", str(scenario), "--agent", kicker, "--top", "1")
    assert res.exit_code == 0, res.output
    assert "kicker ranks 75 choice(s) by rank:" in res.output
    assert "  1. Martial Kick @ " in res.output


def test_saved_fight_at_step_k(tmp_path: Path) -> None:
    f = tmp_path / "fight.json"
    assert run("demo", "--agents", "greedy,counter", "--seed", "2", "--save", str(f)).exit_code == 0
    log = load_fight(f)
    k = next(n for n, c in enumerate(log.choices) if c.kind == "maneuver")
    state = load_position(f, step=k)
    greedy = make_agent("greedy")
    _, rows = advise(greedy, state)
    # the saved fight's own choice at step k was greedy's (fighter A) or counter's (B)
    player = make_agent("greedy" if state.decision.fighter == 0 else "counter")
    _, theirs = advise(player, state)
    assert theirs[0].choice == log.choices[k]
    res = run("advise", str(f), "--step", str(k), "--top", "2")
    assert res.exit_code == 0 and "greedy ranks" in res.output
    res = run("advise", str(f), "--step", str(len(log.choices) + 5))
    assert res.exit_code == 2
    assert f"allowed 0..{len(log.choices)}" in res.output and "Traceback" not in res.output


@pytest.mark.slow
def test_learned_agent_shows_its_probabilities(scenario: Path, tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    from hexdojo.agents.training.config import load_config
    from hexdojo.agents.training.ppo import train

    cfg = load_config(overrides={
        "total_steps": 64, "n_envs": 1, "turn_limit": 4, "checkpoint_every": 64,
        "fighters": ["chu", "boris"],
        "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1, "net_arch": [16]},
        "imitation": {"fights": 0},
        "pool": {"scripted": ["random"], "self_play": False},
        "eval": {"every": 64, "episodes": 1, "opponents": ["random"]}})
    npc = train(cfg, tmp_path / "run", progress=False)
    agent = make_agent(str(npc))
    state = load_position(scenario)
    what, rows = advise(agent, state)
    assert what == "probability"
    from hexdojo.envs.catalogue import catalogue_for

    per_id = {catalogue_for(state.t).ids([r.choice])[0]: r.value for r in rows}
    assert sum(per_id.values()) == pytest.approx(1.0, abs=1e-5)  # masked: all on legal ids
    assert rows[0].choice == agent.act(load_position(scenario))  # deterministic = argmax
    res = run("advise", str(scenario), "--agent", str(npc), "--top", "1")
    assert res.exit_code == 0 and "by probability:" in res.output and " p " in res.output
    assert "warning" not in res.output  # its own fighters (chu vs boris)
    # issue 29: advise reads the NPC's sidecar as play does, and says when it is elsewhere
    res = run("advise", str(scenario), "--agent", str(npc), "--fighters", "chu,chu")
    assert res.exit_code == 0, res.output
    assert "warning: npc was trained as Chu vs Boris" in res.output


def test_step_on_a_scenario_is_refused(scenario: Path) -> None:
    res = run("advise", str(scenario), "--step", "3")
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "--step 3" in res.output and "scenario" in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_a_fight_recorded_under_other_rules_warns(tmp_path: Path) -> None:
    import json

    f = tmp_path / "fight.json"
    assert run("demo", "--seed", "2", "--save", str(f)).exit_code == 0
    doc = json.loads(f.read_text())
    assert doc["rules_id"]  # recorded since issue 29
    res = run("advise", str(f), "--step", "1")
    assert res.exit_code == 0 and "warning" not in res.output
    f.write_text(json.dumps({**doc, "rules_id": "0123456789ab"}))
    for args in (("advise", str(f), "--step", "1"), ("replay", str(f), "--no-pause")):
        res = run(*args)
        assert res.exit_code == 0, res.output
        assert "recorded under rule set 0123456789ab" in res.output


@pytest.mark.parametrize("text, words", [
    ("[game]\nfighters = ['chu', 'boris']\nphase = 0\n", ["[game] field 'phase'", "above [game]"]),
    ("[game]\nfighters = ['chu', 'nobody']\n", ["pos.toml", "nobody"]),
    ("turn = 1\nbogus = 2\n", ["pos.toml", "bogus"]),
])
def test_bad_scenarios_are_one_line(tmp_path: Path, text: str, words: list[str]) -> None:
    p = tmp_path / "pos.toml"
    p.write_text(text)
    res = run("advise", str(p))
    assert res.exit_code == 2 and res.output.startswith("error: ")
    assert len(res.output.strip().splitlines()) == 1
    for w in words:
        assert w in res.output, res.output


def test_other_files_are_refused(tmp_path: Path) -> None:
    p = tmp_path / "pos.txt"
    p.write_text("x")
    res = run("advise", str(p))
    assert res.exit_code == 2 and "scenario .toml or a saved fight .json" in res.output
    res = run("advise", str(tmp_path / "none.toml"))
    assert res.exit_code == 2 and "not found" in res.output



def test_reaction_shows_the_incoming_attacks_odds_through_each_defence(tmp_path: Path) -> None:
    f = tmp_path / "fight.json"
    assert run("demo", "--agents", "greedy,counter", "--seed", "2", "--save", str(f)).exit_code == 0
    log = load_fight(f)
    state = load_position(f, 0)
    k = 0
    while state.decision.kind != "reaction":  # the first reaction of the fight
        state.apply(log.choices[k])
        k += 1
    _, rows = advise(make_agent("counter"), load_position(f, k))
    none = next(r for r in rows if r.choice.kind == "pass")
    dodges = [r for r in rows if r.odds is not None and r.choice.kind == "maneuver"]
    assert none.odds.incoming and none.odds.defence_name == "default defence"
    assert dodges and all(r.odds.incoming for r in dodges)
    for r in [none, *dodges]:  # every line is the exact dice figure for its two values
        assert r.odds.p == pytest.approx(p_higher(r.odds.attack, r.odds.defence, r.odds.dice))
    # a dodge is a better defence than none: the attack gets through less often
    assert min(r.odds.p for r in dodges) < none.odds.p
    res = run("advise", str(f), "--step", str(k), "--agent", "counter")
    assert "their attack hits" in res.output and "through default defence" in res.output


def _risk_position(tmp_path: Path, about: str):
    """A saved greedy-vs-counter fight at its first risk decision of kind ``about``."""
    f = tmp_path / "fight.json"
    assert run("demo", "--agents", "greedy,counter", "--seed", "2", "--save", str(f)).exit_code == 0
    for k in range(len(load_fight(f).choices)):
        state = load_position(f, step=k)
        if state.decision.kind == "risk" and state.decision.about == about:
            return f, k, state
    raise AssertionError(f"no {about} roll in the fight")


def p_roll(mine_h: int, k: int, theirs_h: int, r: int, per_die_h: int, ok) -> float:
    """Hand count over every roll: a roll risking n dice is basic + 2*sum - per_die*n half
    points (RULES §1.3)."""
    a, d = sums(k) if k else Counter({0: 1}), sums(r) if r else Counter({0: 1})
    total = sum(a.values()) * sum(d.values())
    return sum(ca * cd for x, ca in a.items() for y, cd in d.items()
               if ok(mine_h + 2 * x - per_die_h * k, theirs_h + 2 * y - per_die_h * r)) / total


@pytest.mark.parametrize("about", ["attack", "defence"])
def test_risk_decision_gives_the_odds_per_number_of_dice(tmp_path: Path, about: str) -> None:
    """At a risk roll each number of dice gets its odds against the other side's most dice
    and at worst, checked against a count over every roll (ties: §5.2)."""
    from hexdojo.agents.advise import risk_odds

    f, k, state = _risk_position(tmp_path, about)
    ctx, me = state.context(), state.decision.fighter
    mine, theirs = ctx["basics"][me], ctx["basics"][1 - me]
    tie = 1 if state.t.data.attack.hit_requires_higher else 0  # §5.2: ties favour the defender
    hit = (lambda m, t: m - t >= tie) if about == "attack" else (lambda m, t: not t - m >= tie)
    odds = risk_odds(state)
    assert sorted(odds) == list(range(7))
    for dice in (0, 2, 6):
        each = [p_roll(mine, dice, theirs, r, state.t.per_die_h, hit) for r in range(7)]
        assert odds[dice].p == pytest.approx(each[6])
        assert odds[dice].worst == pytest.approx(min(each))
    res = run("advise", str(f), "--step", str(k), "--top", "7")
    assert res.exit_code == 0
    word = "hit" if about == "attack" else "defend"
    assert f"{word} {odds[6].p:.1%} if they risk their most dice" in res.output
    assert sum("at worst (if they risk" in line for line in res.output.splitlines()) == 7


def test_a_soak_roll_gives_the_chance_to_soak_the_wound(tmp_path: Path) -> None:
    from hexdojo.agents.advise import risk_odds
    from hexdojo.envs.rules import formulas as fm

    f, k, state = _risk_position(tmp_path, "soak")
    ctx, me = state.context(), state.decision.fighter
    basic, wound = ctx["basics"][me], ctx["wound"]
    odds = risk_odds(state)
    for dice in (0, 3, 6):
        s = sums(dice) if dice else Counter({0: 1})
        hand = sum(c for x, c in s.items() if fm.soak_levels(
            state.t, basic + 2 * x - state.t.per_die_h * dice) >= wound) / sum(s.values())
        assert odds[dice].p == pytest.approx(hand)
        assert odds[dice].what == f"soak all {wound} level(s)"


@pytest.mark.slow
def test_a_scene_checkpoint_is_advised_with_its_group_policy(tmp_path: Path) -> None:
    """A checkpoint trained on one place of a scene (Skirmish-v0's group spaces) ranks
    the legal choices by its probabilities, which sum to 1 over the legal ones."""
    pytest.importorskip("sb3_contrib")
    from hexdojo.agents.training.config import load_config
    from hexdojo.agents.training.ppo import train

    cfg = load_config(overrides={
        "scene": "two_vs_one", "place": 0, "total_steps": 64, "n_envs": 1,
        "checkpoint_every": 64,
        "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1, "net_arch": [16]},
        "imitation": {"fights": 0},
        "pool": {"scripted": ["random"], "self_play": False},
        "eval": {"every": 64, "episodes": 1, "opponents": ["random"]}})
    npc = train(cfg, tmp_path / "run", progress=False)
    f = tmp_path / "scene.json"
    res = run("demo", "--agents", "greedy,counter", "--scene", "two_vs_one", "--seed", "1",
              "--save", str(f))
    assert res.exit_code == 0, res.output
    log = load_fight(f)
    k = next(n for n in range(len(log.choices))
             if load_position(f, step=n).decision.kind == "action")
    state = load_position(f, step=k)
    agent = make_agent(str(npc))
    what, rows = advise(agent, state)
    assert what == "probability" and len(rows) == len(state.legal_choices())
    from hexdojo.envs.skirmish_spaces import slot_order, spaces_for

    cat, _ = spaces_for(state.game)
    ids = cat.ids([r.choice for r in rows], slot_order(state, state.decision.fighter))
    assert sum(dict(zip(ids, (r.value for r in rows), strict=True)).values()) == \
        pytest.approx(1.0, abs=1e-5)
    res = run("advise", str(f), "--step", str(k), "--agent", str(npc), "--top", "2")
    assert res.exit_code == 0 and "by probability:" in res.output
