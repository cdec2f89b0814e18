"""Issue 29, validation: every input file's structure is checked by a model, so a bad
value is one line naming the file, the field, the value and what is allowed. A property
test (hypothesis) over scenarios, [game] tables, sidecars, levels files and training
configs finds no input that gives a traceback (any other exception than the one-line
error) or a message of more than one line."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexdojo.agents.base import AgentError
from hexdojo.agents.sidecars import check_levels, check_npc_meta
from hexdojo.envs.rules import Game, RulesError
from hexdojo.envs.rules.input_models import GameTable, check_model

pytest.importorskip("pydantic")

DUEL = Game.create(["chu", "boris"])
GROUP = Game.from_scene("two_vs_one")
MONK = Game.from_scene("monk_vs_guard")

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10, 10),
                    st.integers(-2**40, 2**40), st.floats(allow_nan=True, allow_infinity=True),
                    st.sampled_from(["", "x", "Chest", "Tail", "R Arm", "arm", "sword", "staff",
                                     "spear", "stunned", "first", "chu", "hot", "E"]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(
        ["pos", "held", "holder", "kind", "location", "weapon", "from", "to", "direction",
         "x"]), inner, max_size=3)), max_leaves=8)


def tables(keys: list[str]) -> st.SearchStrategy:
    """Dicts over the model's own keys (and a stranger), with any values."""
    return st.dictionaries(st.sampled_from(keys + ["bogus"]), values, max_size=len(keys))


FIGHTER_KEYS = ["pos", "facing", "ap", "initiative", "prone", "wounds", "mounted", "height",
                "phased", "status", "hands", "sheathed", "stuck"]
hold = st.fixed_dictionaries({"holder": st.integers(-1, 3), "held": st.integers(-1, 3),
                              "kind": st.sampled_from(["arm", "leg", "bear"])},
                             optional={"location": values, "turn": values})
names = st.sampled_from(["Chest", "Tail", "R Arm", "Head", "sword", "staff", "spear",
                         "dagger", "shield", "Light", "Fatal", "stunned", "x"])
typed_fighter = st.fixed_dictionaries({}, optional={
    "pos": st.tuples(st.integers(-6, 6), st.integers(-6, 6)).map(list),
    "facing": st.integers(-1, 6), "ap": st.integers(-1, 101),
    "initiative": st.floats(-200, 200), "prone": st.booleans(), "mounted": st.booleans(),
    "phased": st.booleans(), "height": st.integers(-1, 4),
    "status": st.sampled_from(["", "staggered", "stunned", "dazed"]),
    "wounds": st.lists(st.tuples(names, names).map(list), max_size=2),
    "hands": st.tuples(st.one_of(st.none(), names), st.one_of(st.none(), names)).map(list),
    "sheathed": st.lists(names, max_size=2),
    "stuck": st.lists(st.tuples(names, names).map(list), max_size=2)})
typed_hold = st.fixed_dictionaries(
    {"holder": st.integers(0, 3), "held": st.integers(0, 3),
     "kind": st.sampled_from(["arm", "leg", "both_arms", "arm_lock", "head_lock", "bear"])},
    optional={"location": names, "turn": st.integers(0, 3)})
scenarios = st.one_of(
    st.fixed_dictionaries({}, optional={
        "turn": st.integers(0, 3), "phase": st.integers(-1, 3),
        "fighters": st.lists(typed_fighter, max_size=3),
        "holds": st.lists(typed_hold, max_size=2),
        "approach": st.lists(st.fixed_dictionaries({"from": st.integers(0, 3), "to": st.integers(
            0, 3), "direction": st.integers(-1, 6)}), max_size=2),
        "dropped": st.lists(st.fixed_dictionaries({"pos": st.tuples(
            st.integers(-6, 6), st.integers(-6, 6)).map(list), "weapon": names}), max_size=2)}),
    tables(["turn", "fighters", "holds", "phase", "approach", "dropped"]),
    st.fixed_dictionaries({}, optional={
        "turn": values, "phase": values,
        "fighters": st.lists(tables(FIGHTER_KEYS), max_size=3),
        "holds": st.lists(st.one_of(hold, values), max_size=2),
        "approach": st.lists(values, max_size=2),
        "dropped": st.lists(values, max_size=2)}))


def _one_line(exc: Exception) -> None:
    assert "\n" not in str(exc) and str(exc)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sc=scenarios, game=st.sampled_from([DUEL, GROUP, MONK]))
def test_no_scenario_gives_a_traceback(sc, game):
    try:
        game.new_state(0, scenario=sc)
    except RulesError as exc:
        _one_line(exc)


@settings(max_examples=200, deadline=None)
@given(doc=st.one_of(values, tables(["fighters", "scene", "rules", "radius", "turn_limit",
                                     "seed"])))
def test_no_game_table_gives_a_traceback(doc):
    try:
        check_model(GameTable, doc, "f.toml: [game]")
    except RulesError as exc:
        _one_line(exc)
        assert str(exc).startswith("f.toml: [game]")


NPC = {"format": "hexdojo-npc", "version": 1, "fighters": ["chu", "boris"], "steps": 128,
       "profiles": ["chu", "boris"], "rules": None, "rules_id": "abc", "scene": None,
       "place": None, "side": "alternate", "radius": 4, "turn_limit": 20, "env": "duel_v1",
       "observation_scale": "unit", "style": None, "hexdojo": "0.1.0"}
LEVELS = {"format": "hexdojo-levels", "levels": [
    {"name": "easy", "agent": "npc.zip", "options": {"temperature": 5.0}},
    {"name": "master", "agent": "npc.zip", "options": {"temperature": 0.0, "search": 32}}]}


def _mutated(base: dict) -> st.SearchStrategy:
    """``base`` with keys dropped or replaced by any value (nested level entries too)."""
    def mutate(draw_keys, new, drop):
        doc = json.loads(json.dumps(base))
        for k in drop:
            doc.pop(k, None)
        doc.update(new)
        return doc
    keys = sorted(base)
    return st.builds(mutate, st.just(keys), st.dictionaries(st.sampled_from(keys + ["x"]),
                                                             values, max_size=2),
                     st.lists(st.sampled_from(keys), max_size=2))


level_entry = st.fixed_dictionaries({"name": values, "agent": values},
                                    optional={"options": st.one_of(values, tables(
                                        ["temperature", "search"]))})


@settings(max_examples=200, deadline=None)
@given(doc=st.one_of(values, _mutated(NPC)))
def test_no_sidecar_gives_a_traceback(doc):
    try:
        check_npc_meta(doc, "runs/npc/npc.json")
    except AgentError as exc:
        _one_line(exc)
        assert str(exc).startswith("runs/npc/npc.json")


@settings(max_examples=200, deadline=None)
@given(doc=st.one_of(_mutated(LEVELS), st.builds(
    lambda levels: {**LEVELS, "levels": levels}, st.lists(level_entry, max_size=2))))
def test_no_levels_file_gives_a_traceback(doc):
    try:
        check_levels(doc, "runs/npc/levels.json")
    except AgentError as exc:
        _one_line(exc)


@pytest.mark.slow
def test_training_configs_give_one_line():
    """A property over training configs' overrides (each bad value one line)."""
    pytest.importorskip("sb3_contrib")
    from hexdojo.agents.training.config import load_config

    @settings(max_examples=150, deadline=None)
    @given(over=tables(["seed", "style", "style_weight", "place", "scene", "total_steps",
                        "n_envs", "fighters", "side", "shaping"]))
    def check(over):
        try:
            load_config(overrides=over)
        except RulesError as exc:
            _one_line(exc)

    check()


@pytest.mark.parametrize(("sc", "words"), [
    ({"fighters": [{"pos": [0]}]}, ["fighters[0].pos"]),
    ({"holds": [{"holder": 0, "kind": "arm"}]}, ["holds[0].held", "missing"]),
    ({"fighters": [{}, {"pos": [0, 0]}], "holds": [{"holder": 0, "held": 1, "kind": "arm",
                                                    "location": "Tail"}]},
     ["holds[0].location", "'Tail'", "allowed", "Chest"]),
    ({"holds": [{"holder": 1, "held": 1, "kind": "arm"}]}, ["holds[0]", "cannot hold himself"]),
    ({"fighters": [{"height": 9}]}, ["fighters[0].height", "9", "3"]),
    ({"fighters": [{"stuck": [["staff", "Chest"]]}]}, ["stuck[0]", "'staff'", "impaling",
                                                       "spear"]),
    ({"turn": "first"}, ["'turn'", "'first'", "integer"]),
])
def test_the_issues_bad_positions_are_one_line_naming_field_and_value(sc, words):
    for game in (DUEL, MONK):
        with pytest.raises(RulesError) as got:
            game.new_state(0, scenario=sc)
        _one_line(got.value)
        for w in words:
            assert w in str(got.value), str(got.value)


@pytest.mark.parametrize(("doc", "words"), [
    ({**NPC, "steps": "many"}, ["'steps'", "'many'"]),
    ({k: v for k, v in NPC.items() if k != "fighters"}, ["'fighters'", "missing"]),
])
def test_a_bad_sidecar_is_one_line(doc, words):
    with pytest.raises(AgentError) as got:
        check_npc_meta(doc, "npc.json")
    for w in ["npc.json", *words]:
        assert w in str(got.value)


def test_a_hot_temperature_is_one_line():
    doc = {**LEVELS, "levels": [{"name": "easy", "agent": "npc.zip",
                                 "options": {"temperature": "hot"}}]}
    with pytest.raises(AgentError) as got:
        check_levels(doc, "levels.json")
    assert "levels[0].options.temperature" in str(got.value) and "'hot'" in str(got.value)


@pytest.mark.parametrize(("env_id", "kw", "words"), [
    ("hexdojo/Skirmish-v0", {"fighter": True}, ["fighter True"]),
    ("hexdojo/Duel-v1", {"illegal_penalty": math.nan}, ["illegal_penalty nan", "finite"]),
    ("hexdojo/Skirmish-v0", {"illegal_penalty": "1"}, ["illegal_penalty '1'"]),
    ("hexdojo/Duel-v1", {"armed": "no"}, ["armed 'no'", "True, False or None"]),
    ("hexdojo/Duel-v1", {"strict": 1}, ["strict 1", "True or False"]),
    ("hexdojo/Duel-v1", {"shaping": math.inf}, ["shaping inf", "finite"]),
    ("hexdojo/Duel-v1", {"flat_observation": "yes"}, ["flat_observation 'yes'"]),
    ("hexdojo/Duel-v1", {"agent_side": True}, ["agent_side True"]),
    ("hexdojo/Duel-v1", {"radius": "4"}, ["radius", "'4'", "1..20"]),
    ("hexdojo/Skirmish-v0", {"flat_observation": 1}, ["flat_observation 1"]),
])
def test_bad_env_options_are_one_line(env_id, kw, words):
    import gymnasium as gym

    import hexdojo.envs  # noqa: F401

    with pytest.raises(ValueError) as got:
        gym.make(env_id, **kw)
    _one_line(got.value)
    for w in words:
        assert w in str(got.value)


@pytest.mark.parametrize(("over", "words"), [
    ({"seed": 2**32}, ["'seed'", "4294967296"]),
    ({"style_weight": 0.5}, ["style_weight 0.5 needs a `style`"]),
    ({"place": 1}, ["place 1 needs a `scene`"]),
])
def test_bad_training_configs_are_one_line(over, words):
    pytest.importorskip("sb3_contrib")
    from hexdojo.agents.training.config import load_config

    with pytest.raises(RulesError) as got:
        load_config(overrides=over)
    _one_line(got.value)
    for w in words:
        assert w in str(got.value)
