"""The rules data says exactly what the engine does: no key the engine never reads.

Every field of the validated rules models (``ruleset._Model`` subclasses: the tables of
``rules.toml``) is recorded when read while the engine loads the rules, builds fighters
and plays seeded random fights of every preset pairing, three-fighter fights and a few
scenarios that reach the rare rules (a rider pulled down or stunned, a holder knocked
back, a painful lock). A field nobody reads is a dead key: it promises a rule that does
not exist (issue 12). Documentation fields are read by the rules reference instead.
"""

from __future__ import annotations

import itertools
import sys
import typing

import numpy as np
import pytest

from hexdojo.envs.rules import PASS, Choice, Game, LoadedDice, preset_names, ruleset
from hexdojo.envs.rules.reference import rules_reference

from .rules_kit import attack, duel, fighter, play, react, risk, strike

#: fields for people, not for the engine: the rules reference must show them
DOC_FIELDS = {("RulesData", "name"), ("Maneuver", "proposed"), ("Weapon", "pages"),
              ("Weapon", "proposed")}


def model_fields() -> set[tuple[str, str]]:
    """Every (model, field) of the rules data models."""
    out: set[tuple[str, str]] = set()
    todo = list(ruleset._Model.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        out |= {(cls.__name__, f) for f in cls.model_fields}
    return out


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> set[tuple[str, str]]:
    """Record every field read of a rules-data model while the test runs."""
    seen: set[tuple[str, str]] = set()
    base = ruleset._Model.__getattribute__

    checking = ruleset._check_names.__code__  # validating a name is not using the rule

    def spy(self, name):  # noqa: ANN001 - pydantic instance attribute access
        cls = type(self)
        if name in cls.model_fields and (cls.__name__, name) not in seen:
            frame = sys._getframe(1)
            while frame is not None and frame.f_code is not checking:
                frame = frame.f_back
            if frame is None:
                seen.add((cls.__name__, name))
        return base(self, name)

    monkeypatch.setattr(ruleset._Model, "__getattribute__", spy)
    return seen


def random_fight(game: Game, seed: int) -> None:
    s = game.new_state(seed, engine="python")
    rng = np.random.default_rng(seed)
    while not s.is_over:
        ch = s.legal_choices()
        s.apply(ch[int(rng.integers(len(ch)))])


def rare_rules() -> None:
    """Scenarios for rules that random fights seldom reach: each uses fresh rules tables
    (``rules={}``), so that compile-time reads are recorded too."""
    tough = {"creation_limits": False}
    g = {**fighter("G", ma=6), **tough}
    r = {**fighter("R", WP=9, athletics=10, riding=10, mounted=True, height=1), **tough}
    s, _ = duel(g, r, pos_b=(0, 0), rules={})  # Pull Down: a rider lands beside (aom347)
    strike(s, "Arm Grab", "R Arm")
    play(s, attack("Pull Down", location=None), PASS, risk(0), risk(0))
    weak = {**fighter("W", WP=1, riding=0, mounted=True, height=1), **tough}
    s, _ = duel({**fighter("M", ma=6, mounted=True, height=1), **tough}, weak, pos_b=(0, 0),
                rules={})  # a stunned rider rolls to stay mounted (aom347)
    strike(s, "Martial Strike", "L Leg")  # pain 1 - 2 + 3 = 2: stunned
    s.apply(PASS)
    lock = {"holds": [{"holder": 0, "held": 1, "kind": "head_lock", "turn": 0}], "turn": 1}
    s, _ = duel(g, {**fighter("H", WP=9), **tough}, pos_b=(0, 0), rules={}, phase=None, **lock)
    play(s, Choice("phase", option=1), PASS)  # a head lock hurts again (§5.16); no soak
    s, _ = duel(g, {**fighter("D", ma=4), **tough}, rules={})
    strike(s, "Grapple", None, reaction=react("Drop Dodge"))  # vs an unaimed attack (§5.11)
    game = Game.create([g, fighter("B"), fighter("C")], rules={})
    sc = {"fighters": [{"pos": [0, 0], "facing": 0, "ap": 6}, {"pos": [1, 0], "facing": 3, "ap": 6},
                       {"pos": [0, 0], "facing": 0, "ap": 6}],
          "holds": [{"holder": 0, "held": 2, "kind": "arm", "location": "R Arm"}], "phase": 0}
    # a holder attacks a third (aom322a, §5.17)
    s = game.new_state(LoadedDice([]), scenario=sc, engine="python")
    play(s, attack("Martial Kick", target=1, location="Chest"), PASS, risk(0), risk(0))
    weapon_rules()


def weapon_rules() -> None:
    """Weapon rules random fights seldom reach (issue 19): a stuck weapon pulled out
    (aom1d35), a two-handed block's follow-on (aom3221), Forearm Blocks against a melee and
    a close-combat weapon (§5.12)."""
    kit = {"creation_limits": False}
    s, _ = duel(fighter("A"), fighter("B"), phase=1, rules={},
                fb={"stuck": [["dagger", "Chest"]], "wounds": [["Chest", "Medium"]]})
    s.apply(Choice("maneuver", "Pull out weapon"))
    staff = {**fighter("S", ma=4, weapon_skills={"Staff": 4}, weapons={"right": "staff"}), **kit}
    s, _ = duel(fighter("A", ma=1), staff, rules={})
    strike(s, "Martial Strike", reaction=react("Block"))
    for wid, name in (("sword", "Stand and attack"), ("dagger", "Close Combat Weapon Attack")):
        s, _ = duel(fighter("W", weapons={"right": wid}), fighter("F", ma=4), rules={})
        strike(s, name, reaction=react("Forearm Block"))


def test_every_rules_key_is_read_by_the_engine(reads):
    for a, b in itertools.product(preset_names(), repeat=2):
        game = Game.create([a, b], rules={})
        for seed in range(4):
            random_fight(game, seed)
    trio = Game.create(["chu", "boris", "novice"], rules={})
    for seed in range(12):
        random_fight(trio, seed)
    for seed in range(6):  # sides: allies follow a phasing ally, nobody attacks his own side
        random_fight(Game.from_scene("two_vs_one", rules={}), seed)
    rare_rules()
    dead = model_fields() - reads - DOC_FIELDS
    assert not dead, f"rules-data keys the engine never reads: {sorted(dead)}"


def test_documentation_keys_are_shown_in_the_rules_reference(reads):
    rules_reference()
    assert DOC_FIELDS <= reads


def test_a_key_nobody_reads_is_caught(reads):
    """The check can fail: fields read by no fight stay out of ``reads``."""
    Game.create(["chu", "boris"], rules={}).new_state(0, engine="python")
    assert ("Mounted", "pull_down_directions") not in reads
    assert ("Mounted", "pull_down_directions") in model_fields()


def test_no_rule_name_is_written_in_the_engines_code():
    """Resolution and legality name no maneuver, location, aiming row, characteristic,
    skill or hold kind: those come from the data (categories, roles, keys), so that a rule
    set may rename or replace them (issue 12)."""
    import ast
    from pathlib import Path

    from hexdojo.envs.rules import load_rules_data

    data, _ = load_rules_data()
    names = (set(data.maneuvers) | set(data.locations) | set(data.aim) | set(data.characteristics)
             | set(data.skills) | set(data.holds.kinds))
    # the data's own vocabulary (the limb a maneuver is made with) is schema, not a rule
    names -= set(typing.get_args(typing.get_args(ruleset.Maneuver.model_fields["limb"].annotation)[0]))
    engine = Path(ruleset.__file__).parent
    found = []
    for module in ("resolution.py", "legality.py", "state.py", "scenario.py", "tables.py"):
        tree = ast.parse((engine / module).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
                found.append(f"{module}:{node.lineno} {node.value!r}")
    assert not found, found
