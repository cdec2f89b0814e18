"""The project's own rules reference (docs/rules.md) is generated from the rules data and
kept up to date; ``hexdojo rules`` prints it (issue 12: a clone has no copy of the
source pages)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from hexdojo.agents.cli import app
from hexdojo.envs.rules import load_tables
from hexdojo.envs.rules.reference import maneuver_reference, rules_reference

DOC = Path(__file__).parents[2] / "docs" / "rules.md"


def test_docs_rules_md_is_up_to_date():
    """Regenerate with `hexdojo rules --write docs/rules.md` after changing rules.toml."""
    assert DOC.read_text(encoding="utf-8") == rules_reference(), \
        "docs/rules.md is stale: run `hexdojo rules --write docs/rules.md`"


def test_reference_shows_every_maneuver_and_its_proposed_fields_s5():
    t = load_tables()
    text = rules_reference(t)
    for name in t.maneuvers:
        assert f"#### {name}\n" in text
    assert "PROPOSED (§5.5): ap" in maneuver_reference("Spinning Kick", t)  # §5.5 Spinning Kick AP 3
    assert "follow-ups: Punch, Martial Strike, Head Butt, Arm/wrist Lock, Martial Throw, Pull Down" \
        in maneuver_reference("Arm Grab", t)  # §3 aom3225


def test_reference_carries_the_data_notes_and_numbers_s1_13():
    text = rules_reference()
    assert "| knockback.knocked_over_min_fail | 7.0 | §5.20 PROPOSED" in text
    assert "| mounted.pull_down_lands | adjacent |" in text


def test_rules_command_prints_one_maneuver_or_one_clear_line():
    r = CliRunner().invoke(app, ["rules", "Leg Grab"])
    assert r.exit_code == 0 and "#### Leg Grab" in r.output and "Kick, Martial Kick" in r.output
    bad = CliRunner().invoke(app, ["rules", "Arm grab"])
    assert bad.exit_code == 2
    assert bad.output.strip().splitlines() == [
        "error: maneuver: value 'Arm grab': unknown; did you mean 'Arm Grab'? (see `hexdojo rules`)"]


def test_the_readings_name_real_keys_and_their_defaults_aom3221_aom3225():
    """issue 28 (aom3221, aom3225): the open readings sit in docs/rules.md with both
    readings; each names a rules key whose shipped value is its default, and the other
    reading's value is accepted by the rules (a key override to it loads)."""
    from hexdojo.envs.rules.reference import key_value, readings

    t = load_tables()
    got = {r["key"]: r for r in readings()}
    assert {"attack.counter_needs_non_phasing", "forearm_block.grab_after_kick",
            "mounted.close_from_other_hex", "attack.closing_requires_front_arc"} <= set(got)
    text = rules_reference(t)
    for key, r in got.items():
        assert key_value(t, key) == r["default"], key
        table, name = key.split(".")
        assert key_value(load_tables({table: {name: r["other"]}}), key) == r["other"]
        assert f"| `{key}` |" in text and r["other_reading"] in text
