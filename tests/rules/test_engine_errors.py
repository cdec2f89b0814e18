"""Bad input gets one clear error naming the file, field, value and what is allowed;
illegal choices are rejected with a reason (issue 2 quality bar); rules as data (item 8)."""

from __future__ import annotations

import pytest

from hexdojo.envs.rules import Choice, Game, IllegalChoice, LoadedDice, RulesError, load_tables

GOOD = {
    "name": "Tester",
    "characteristics": {"ST": 1, "CO": 1},
    "skills": {"Combat": 2},
}


def _fighter(**changes):
    d = {k: (dict(v) if isinstance(v, dict) else v) for k, v in GOOD.items()}
    d.update(changes)
    return d


def test_unknown_preset_names_the_value_and_the_presets():
    with pytest.raises(RulesError) as e:
        Game.create(["chu", "nobody"])
    assert "'nobody'" in str(e.value) and "chu" in str(e.value) and "urlik" in str(e.value)


@pytest.mark.parametrize(
    ("changes", "field", "fragment"),
    [
        ({"skills": {"Combat": 14}}, "skills.Combat", "allowed 0..12"),
        ({"skills": {"Juggling": 2}}, "skills.Juggling", "unknown skill"),
        ({"characteristics": {"XX": 1}}, "characteristics.XX", "unknown characteristic"),
        ({"characteristics": {"ST": 1.3}}, "characteristics.ST", "whole or half"),
        ({"encumbrance": "crushing"}, "encumbrance", "unencumbered"),
        ({"armour": {"body": "mithril"}}, "armour.body", "light_mail"),
        ({"armour": {"locations": {"Tail": 3}}}, "armour.locations.Tail", "unknown location"),
        ({"colour": "red"}, "colour", "unknown field"),
        ({"risk": {"damage": 40}}, "risk.damage", "less than or equal to 12"),
    ],
)
def test_bad_fighter_fields_are_named(changes, field, fragment):
    with pytest.raises(RulesError) as e:
        Game.create([_fighter(**changes), "chu"])
    msg = str(e.value)
    assert f"'{field}'" in msg, msg
    assert fragment in msg, msg


def test_bad_fighter_file_names_the_file(tmp_path):
    p = tmp_path / "brute.toml"
    p.write_text('name = "Brute"\n[characteristics]\nST = 3\n[skills]\nCombat = -2\n')
    with pytest.raises(RulesError) as e:
        Game.create([str(p), "chu"])
    assert str(p) in str(e.value) and "'skills.Combat'" in str(e.value) and "-2" in str(e.value)


def test_fighter_file_with_broken_toml(tmp_path):
    p = tmp_path / "broken.toml"
    p.write_text("name = \n")
    with pytest.raises(RulesError, match="not valid TOML"):
        Game.create([str(p), "chu"])


@pytest.mark.parametrize(
    ("override", "fragment"),
    [
        ("[turn]\nminimum_ap = -1\n", "'turn.minimum_ap'"),
        ("[turn]\nminimum_ap = \"three\"\n", "'turn.minimum_ap'"),
        ("[dice]\nsides = 6\n", "'dice.sides'"),
        ("[follow_ons]\n\"Martial Strike\" = [\"Flying Tackle\"]\n", "'Flying Tackle'"),
        ("[maneuvers.Punch]\nap = 2.25\n", "'maneuvers.Punch.ap'"),
        ("[maneuvers.Punch]\naim = [\"Tail\"]\n", "'maneuvers.Punch.aim'"),
        ("[attack]\nrear_arc = [7]\n", "'attack.rear_arc'"),
    ],
)
def test_bad_rule_overrides_are_named(tmp_path, override, fragment):
    p = tmp_path / "house_rules.toml"
    p.write_text(override)
    with pytest.raises(RulesError) as e:
        load_tables(str(p))
    assert str(p) in str(e.value) and fragment in str(e.value), str(e.value)


def test_override_changes_the_rule_and_the_ruleset_id(tmp_path):
    """§1.5 aom313 minimum AP 3 is data: a designer's override takes effect."""
    p = tmp_path / "house.toml"
    p.write_text("[turn]\nminimum_ap = 9\n")
    base, house = load_tables(), load_tables(str(p))
    assert base.id != house.id and base.id.startswith("aom-")
    g = Game.create(["novice", "novice"], rules=str(p))
    s = g.new_state(1)
    assert all(f.ap >= 9 for f in s.fighters)
    g0 = Game.create(["novice", "novice"])
    assert all(f.ap < 9 for f in g0.new_state(1).fighters)
    # dict overrides work too and hash the same content the same way
    assert load_tables({"turn": {"minimum_ap": 9}}).id == house.id


def _duel(ap0=6, ap1=6, pos1=(2, 0)):
    g = Game.create(["chu", "boris"])
    return g.new_state(LoadedDice([]), scenario={
        "fighters": [{"pos": [0, 0], "facing": 0, "ap": ap0},
                     {"pos": list(pos1), "facing": 3, "ap": ap1}],
        "phase": 0,
    })


@pytest.mark.parametrize(
    ("choice", "fragment"),
    [
        (Choice("maneuver", "Flying Tackle", 1, "Chest"), "unknown maneuver"),
        (Choice("maneuver", "Parry"), "not an action"),
        (Choice("maneuver", "Speak"), "out of scope"),
        (Choice("maneuver", "Arm Grab", 1, "R Arm"), "not in or next to your hex"),
        (Choice("maneuver", "Head Butt", 1, "Head"), "not an action"),
        (Choice("maneuver", "Soak"), "not an action"),
        (Choice("risk", risk=2), "Chu's action decision"),
        (Choice("maneuver", "Break Hold", option=0), "nobody holds"),
        (Choice("maneuver", "Stand up"), "not prone"),
    ],
)
def test_illegal_choices_are_rejected_with_a_reason(choice, fragment):
    s = _duel()
    assert fragment in (s.why_illegal(choice) or "")
    n = len(s.events)
    with pytest.raises(IllegalChoice) as e:
        s.apply(choice)
    assert fragment in e.value.reason
    assert len(s.events) == n, "a rejected choice changes nothing"


def test_not_enough_ap_reason():
    s = _duel(ap0=1, pos1=(1, 0))
    r = s.why_illegal(Choice("maneuver", "Kick", 1, "Groin"))
    assert r == "Kick: needs 3 AP, Chu has 1"


def test_rear_hex_closing_reason():
    s = _duel(pos1=(-1, 0))  # Boris behind Chu (Chu faces E, Boris is W)
    r = s.why_illegal(Choice("maneuver", "Martial Strike", 1, "Chest"))
    assert "front three hexes" in r
    # turning 180 is not offered with an attack (only 60 degrees), so still illegal with turn=1
    assert "front three hexes" in s.why_illegal(Choice("maneuver", "Martial Strike", 1, "Chest", turn=1))


@pytest.mark.parametrize(
    ("scenario", "fragment"),
    [
        ({"fighters": [{"pos": [9, 9]}]}, "outside the arena"),
        ({"fighters": [{"wounds": [["Tail", "Light"]]}]}, "unknown location"),
        ({"fighters": [{"wounds": [["Chest", "Ouch"]]}]}, "Scratch"),
        ({"fighters": [{"facing": 7}]}, "allowed 0..5"),
        ({"holds": [{"holder": 0, "held": 1, "kind": "arm"}]}, "must share a hex"),
        ({"weather": "rain"}, "unknown field"),
    ],
)
def test_bad_scenarios_are_named(scenario, fragment):
    g = Game.create(["chu", "boris"])
    with pytest.raises(RulesError) as e:
        g.new_state(0, scenario=scenario)
    assert fragment in str(e.value) and "scenario: field" in str(e.value)
