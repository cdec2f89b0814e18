"""Fighter files: every bad value gets one clear line (issue 12).

Risk dice within §1.3/§5.1 ``dice.max_risk_dice``; the §1.2 character-creation limits
(aom192 skill limits with talents and limitations, aom195 specialism allocation) and the
keys that switch them off; typo'd tables and fields, missing fields, non-UTF-8 and
non-TOML files named in one line, in the library and on the command line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hexdojo.agents.cli import app
from hexdojo.envs.rules import Game, RulesError, load_profile, load_rules_data, preset_names
from hexdojo.envs.rules.creation import used_specialisms
from hexdojo.envs.rules.fighter import FIGHTERS_DIR
from hexdojo.envs.rules.ruleset import read_toml
from tests.rules_kit import fighter

DATA, _ = load_rules_data()


def legal(**kw: Any) -> dict[str, Any]:
    """A kit fighter held to the §1.2 creation limits."""
    return fighter(creation_limits=True, **kw)


def refused(desc: dict[str, Any], rules: Any = None) -> str:
    """The one-line message a refused fighter gets."""
    data = DATA if rules is None else load_rules_data(rules)[0]
    with pytest.raises(RulesError) as e:
        load_profile(desc, data)
    msg = str(e.value)
    assert len(msg.splitlines()) == 1, msg
    return msg


def accepted(desc: dict[str, Any], rules: Any = None):
    return load_profile(desc, DATA if rules is None else load_rules_data(rules)[0])


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    p = tmp_path / name
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return p


GOOD_FILE = '''name = "Tester"
[characteristics]
ST = 1
CO = 1
[skills]
Combat = 2
'''


# --------------------------------------------------------------------------- risk dice
def test_risk_above_max_risk_dice_is_refused_par_1_3_par_5_1():
    """§1.3/§5.1: a roll risks 0..dice.max_risk_dice (6) dice; `ap = 9` used to roll 9d6."""
    assert DATA.dice.max_risk_dice == 6
    msg = refused(legal(combat=2, ap=7))
    assert "'risk.ap'" in msg and "value 7" in msg and "0..6" in msg and "max_risk_dice" in msg
    assert "'risk.damage'" in refused(legal(combat=2, damage=9))


def test_risk_equal_to_max_is_accepted_par_1_3():
    """§1.3/§5.1: exactly max_risk_dice dice is allowed."""
    p = accepted(legal(combat=2, ap=6, knockback=6))
    assert (p.risk.ap, p.risk.knockback) == (6, 6)


def test_risk_limit_follows_the_rules_data_par_5_1():
    """§5.1 PROPOSED n = 0..6 is data: with max_risk_dice = 3 a default of 4 dice is refused."""
    house = {"dice": {"max_risk_dice": 3}}
    assert "0..3" in refused(legal(combat=2, pain=4), house)
    assert accepted(legal(combat=2, pain=3), house).risk.pain == 3


# --------------------------------------------------------------------------- skill limits
@pytest.mark.parametrize(
    ("chars", "limit", "case"),
    [
        ({"ST": 2, "CO": 1}, 7, "both positive: 6 + the lower"),
        ({"ST": 3, "CO": 0.5}, 6.5, "both positive, a half point"),
        ({"ST": -1, "CO": -2}, 5, "both negative: 6 + the less negative"),
        ({"ST": 3, "CO": -1}, 6, "mixed signs: 6"),
        ({"ST": 3, "CO": 0}, 6, "a zero: 6"),
    ],
)
def test_combat_limit_two_characteristics_aom192(chars, limit, case):
    """§1.2 aom192: Combat is governed by ST and CO; one half point above the limit is
    refused, the limit itself accepted."""
    assert accepted(legal(combat=limit, **chars)).skills["Combat"] == 2 * limit, case
    msg = refused(legal(combat=limit + 0.5, **chars))
    assert "'skills.Combat'" in msg and f"limit {limit:g}" in msg and "§1.2 aom192" in msg, msg


@pytest.mark.parametrize(("co", "limit"), [(1, 7), (-2, 4), (0, 6)])
def test_riding_limit_one_characteristic_aom192(co, limit):
    """§1.2 aom192: a skill with one governing characteristic: limit 6 + its score
    (Riding: CO, PROPOSED)."""
    assert accepted(legal(riding=limit, CO=co))
    assert f"limit {limit:g}" in refused(legal(riding=limit + 0.5, CO=co))


def test_proposed_governing_characteristics_aom192():
    """§1.2 aom192 states Combat = ST + CO only; the others are PROPOSED data."""
    gov = DATA.creation.governing
    weapon_skills = {w: ["ST", "CO"] for w in ("Sword", "Knife", "Axe", "Spear", "Staff", "Shield")}
    assert gov == {"Combat": ["ST", "CO"], "Martial Arts": ["CO", "WP"], "Tactics": ["IQ", "PE"],
                   "Athletics": ["ST", "CO"], "Riding": ["CO"], **weapon_skills}
    assert (DATA.creation.base_limit, DATA.creation.talent_bonus,
            DATA.creation.limitation_penalty) == (6, 2, -2)
    # Martial Arts CO 1, WP 2 -> 7; Tactics needs IQ and PE both positive
    assert accepted(legal(ma=7, CO=1, WP=2))
    assert "limit 7" in refused(legal(ma=7.5, CO=1, WP=2))
    sheet = legal(tactics=7, PE=1)
    sheet["characteristics"]["IQ"] = 2
    assert accepted(sheet)
    sheet["characteristics"]["IQ"] = 0
    assert "limit 6" in refused(sheet)


def test_governing_characteristics_are_data_aom192():
    """§1.2 aom192: an override governing Combat by ST alone gives 6 + ST."""
    house = {"creation": {"governing": {"Combat": ["ST"]}}}
    assert accepted(legal(combat=8, ST=2), house)
    assert "limit 8" in refused(legal(combat=8.5, ST=2), house)


def test_talent_adds_two_limitation_takes_two_aom192():
    """§1.2 aom192: a talent gives +2 to the skill limit, a limitation -2."""
    t = legal(combat=8)
    t["talents"] = ["Combat"]
    assert accepted(t)
    t["skills"]["Combat"] = 8.5
    msg = refused(t)
    assert "limit 8" in msg and "talent +2" in msg
    lim = legal(combat=4)
    lim["limitations"] = ["Combat"]
    assert accepted(lim)
    lim["skills"]["Combat"] = 4.5
    msg = refused(lim)
    assert "limit 4" in msg and "limitation -2" in msg


def test_limit_below_zero_leaves_the_skill_at_zero_aom192():
    """§1.2 aom192: ST -5, CO -4, a limitation: limit 6 - 4 - 2 = 0; Combat 0 is fine."""
    t = legal(combat=0, ST=-5, CO=-4)
    t["limitations"] = ["Combat"]
    assert accepted(t).skills["Combat"] == 0
    t["skills"]["Combat"] = 0.5
    assert "limit 0" in refused(t)
    t["characteristics"]["CO"] = -5
    assert accepted(t | {"skills": {"Combat": 0}})
    assert "limit -1" in refused(t)


def test_talents_must_name_skills_aom192():
    """§1.2 aom192: talents and limitations are per skill; a typo gets the closest skill,
    and a skill cannot be both."""
    t = legal(combat=2)
    t["talents"] = ["Combt"]
    msg = refused(t)
    assert "'talents'" in msg and "'Combt'" in msg and "'Combat'" in msg
    t["talents"], t["limitations"] = ["Combat"], ["Combat"]
    assert "also a limitation" in refused(t)


def _aom192_limit(st_: float, co: float, talent: bool, limitation: bool) -> float:
    """The Combat limit as aom192 words it, case by case (the oracle of the test below)."""
    if st_ > 0 and co > 0:
        limit = 6 + min(st_, co)
    elif st_ < 0 and co < 0:
        limit = 6 + max(st_, co)  # the less negative
    else:
        limit = 6
    return limit + 2 * talent - 2 * limitation


halves = st.integers(-10, 10).map(lambda n: n / 2)


@settings(max_examples=60, deadline=None)
@given(st_=halves, co=halves, talent=st.booleans(), limitation=st.booleans())
def test_combat_at_its_limit_passes_half_a_point_above_fails_aom192(st_, co, talent, limitation):
    """§1.2 aom192 for any ST and CO (-5..+5 in half points), talent and limitation."""
    if talent and limitation:
        return  # a skill is not both (test_talents_must_name_skills_aom192)
    limit = _aom192_limit(st_, co, talent, limitation)
    assume(limit <= 11.5)  # the skill range ends at 12 (aom194)
    top = max(limit, 0)  # a limit below 0 still allows no skill at all
    sheet = legal(combat=top, ST=st_, CO=co)
    sheet["talents"] = ["Combat"] if talent else []
    sheet["limitations"] = ["Combat"] if limitation else []
    assert accepted(sheet).skills["Combat"] == 2 * top
    sheet["skills"]["Combat"] = top + 0.5
    assert f"limit {limit:g}" in refused(sheet)


# --------------------------------------------------------------------------- specialisms
def test_narrow_specialism_point_is_worth_one_aom195():
    """§1.2 aom195: one point per skill point; a narrow point is worth +1 (Punch, narrow)."""
    assert DATA.specialisms["Punch"].area == "narrow"
    assert accepted(legal(combat=2, specs={"Punch": 2})).specs["Punch"] == 4
    msg = refused(legal(combat=2, specs={"Punch": 2.5}))
    assert "'specialisms'" in msg and "2.5 points" in msg and "Combat 2 gives 2" in msg, msg


def test_broad_specialism_point_is_worth_a_half_aom195():
    """§1.2 aom195: a broad point is worth +1/2: dodge +1 costs both points of Combat 2."""
    assert DATA.specialisms["dodge"].area == "broad"
    assert accepted(legal(combat=2, specs={"dodge": 1}))
    assert "3 points" in refused(legal(combat=2, specs={"dodge": 1.5}))


def test_broad_and_narrow_share_the_skills_points_aom195():
    """§1.2 aom195: Combat 2.5 pays broad dodge +1 (2 points) and narrow Punch +1/2."""
    assert accepted(legal(combat=2.5, specs={"dodge": 1, "Punch": 0.5}))
    msg = refused(legal(combat=2.5, specs={"dodge": 1, "Punch": 1}))
    assert "need 3 points" in msg and "broad dodge +1 = 2" in msg and "narrow Punch +1 = 1" in msg


def test_half_point_only_to_a_narrow_area_aom195():
    """§1.2 aom195: a half point can only go to a narrow area (+1/2): Combat 0.5 buys
    Punch +1/2 but not dodge +1/2 (a broad +1/2 takes a whole point)."""
    assert accepted(legal(combat=0.5, specs={"Punch": 0.5}))
    assert "half point only narrow" in refused(legal(combat=0.5, specs={"dodge": 0.5}))


def test_each_skill_pays_for_its_own_specialisms_aom195():
    """§1.2 aom195: points come from the specialism's skill (Martial Strike: Martial Arts)."""
    assert accepted(legal(combat=1, ma=1, specs={"Punch": 1, "Martial Strike": 1}))
    msg = refused(legal(combat=2, ma=0, specs={"Martial Strike": 1}))
    assert "Martial Arts specialisms need 1 points" in msg and "Martial Arts 0 gives 0" in msg


def test_broad_worth_must_buy_whole_points_aom195():
    """§1.2 aom195: with broad_worth = 1.5 (an override), +1 broad would be 2/3 of a point:
    refused, because fractions of a point only go to narrow areas."""
    house = {"creation": {"broad_worth": 1.5}}
    assert "a broad specialism takes whole points" in refused(
        legal(combat=4, specs={"dodge": 1}), house)
    assert accepted(legal(combat=4, specs={"dodge": 1.5}), house)


def test_unknown_specialism_gets_the_closest_name_par_1_2():
    """§1.2: only named specialisms add to rolls; a typo would silently do nothing."""
    msg = refused(legal(ma=2, specs={"Martial Strik": 1}))
    assert "'specialisms.Martial Strik'" in msg and "did you mean 'Martial Strike'?" in msg
    assert "did you mean 'dodge'?" in refused(legal(combat=2, specs={"Dodge": 0.5}))


def test_specialism_table_covers_every_roll_and_preset_aom195():
    """aom195 needs each specialism's skill and area: every name a roll in rules.toml adds
    and every preset's specialism is in [specialisms], with a known skill."""
    used = {name for _, name in used_specialisms(DATA)}
    assert {"combat speed", "Initiative", "Soak", "Toughness", "Acrobatics", "dodge",
            "brawling", "block/parry", "Martial Strike", "Pull Down"} <= used
    assert used <= set(DATA.specialisms)
    for stem in preset_names():
        assert set(read_toml(FIGHTERS_DIR / f"{stem}.toml").get("specialisms", {})) <= \
            set(DATA.specialisms), stem
    assert {s.skill for s in DATA.specialisms.values()} <= set(DATA.skills)


def test_rules_naming_a_specialism_outside_the_table_are_refused_aom195(tmp_path):
    """A rules override whose maneuver adds an unlisted specialism is refused by name."""
    p = write(tmp_path, "house.toml", '[maneuvers.Punch]\nspecialisms = ["Punching"]\n')
    with pytest.raises(RulesError) as e:
        load_rules_data(p)
    assert str(p) in str(e.value) and "'maneuvers.Punch.specialisms'" in str(e.value)
    assert "'Punching'" in str(e.value) and "did you mean 'Punch'?" in str(e.value)


# --------------------------------------------------------------------------- switch-off keys
def test_fighter_key_exempts_a_legend_par_1_2():
    """§1.2 limits apply to characters; `creation_limits = false` lets a legend past them."""
    legend = legal(combat=12, specs={"dodge": 5})
    assert "'skills.Combat'" in refused(legend)
    legend["creation_limits"] = False
    p = accepted(legend)
    assert (p.skills["Combat"], p.specs["dodge"]) == (24, 10)


def test_rules_key_switches_the_check_off_par_1_2(tmp_path):
    """`[creation] enforce = false` in a rules override exempts every fighter."""
    monster = legal(combat=12, specs={"Punch": 9})
    house = write(tmp_path, "monsters.toml", "[creation]\nenforce = false\n")
    assert accepted(monster, house).skills["Combat"] == 24
    assert Game.create([monster, "chu"], rules=str(house)).profiles[0].skills["Combat"] == 24


def test_switched_off_still_checks_names_par_1_2():
    """Exempt from the limits, a sheet still may not name unknown specialisms or skills."""
    legend = fighter(combat=12, specs={"Karate": 3})
    assert "unknown specialism" in refused(legend)


def test_shipped_presets_are_legal_characters_par_1_2():
    """All nine presets (six unarmed, three armed: issue 19) pass the §1.2 limits with the
    shipped (PROPOSED) data."""
    assert preset_names() == ["boris", "chu", "cogan", "guard", "knife_fighter", "novice",
                              "rider", "spearman", "urlik"]
    for stem in preset_names():
        raw = read_toml(FIGHTERS_DIR / f"{stem}.toml")
        assert raw.get("creation_limits", True) is True, stem
        assert load_profile(stem, DATA).name.lower().replace(" ", "_") == stem


# --------------------------------------------------------------------------- file errors
def _file_error(path: Path) -> str:
    with pytest.raises(RulesError) as e:
        Game.create([str(path), "chu"])
    msg = str(e.value)
    assert len(msg.splitlines()) == 1, msg
    assert str(path) in msg, msg
    return msg


@pytest.mark.parametrize(
    ("text", "unknown", "near"),
    [
        (GOOD_FILE.replace("[characteristics]", "[characteristcs]"), "characteristcs", "characteristics"),
        ("skils = { Combat = 2 }\n" + GOOD_FILE.split("[skills]")[0], "skils", "skills"),
        (GOOD_FILE + "[risk]\ndammage = 2\n", "risk.dammage", "damage"),
        (GOOD_FILE + "[armour]\nbodyy = \"leather\"\n", "armour.bodyy", "body"),
        ('creation_limit = false\n' + GOOD_FILE, "creation_limit", "creation_limits"),
    ],
)
def test_typo_gets_one_line_with_the_closest_name(tmp_path, text, unknown, near):
    """One line: the file, the unknown name, the closest allowed name, not the table."""
    msg = _file_error(write(tmp_path, "typo.toml", text))
    assert f"'{unknown}'" in msg and f"did you mean '{near}'?" in msg, msg
    assert "{'" not in msg, "the table's content is not dumped"


def test_typo_in_a_name_table_gets_the_closest_name(tmp_path):
    """Unknown skill or characteristic keys get the nearest allowed name too."""
    assert "did you mean 'Combat'?" in _file_error(
        write(tmp_path, "s.toml", GOOD_FILE.replace("Combat = 2", "combat = 2")))
    assert "did you mean 'ST'?" in _file_error(
        write(tmp_path, "c.toml", GOOD_FILE.replace("ST = 1", "STR = 1")))


def test_missing_field_gets_one_line_naming_it(tmp_path):
    msg = _file_error(write(tmp_path, "noskills.toml", GOOD_FILE.split("[skills]")[0]))
    assert "missing required field 'skills'" in msg
    assert "{'" not in msg


def test_non_utf8_file_is_named(tmp_path):
    """A latin-1 file raises UnicodeDecodeError inside tomllib: still one line."""
    msg = _file_error(write(tmp_path, "bjorn.toml", GOOD_FILE.replace("Tester", "Bj\xf6rn")
                            .encode("latin-1")))
    assert "not a UTF-8 text file" in msg and "0xf6" in msg
    assert "UTF-8" in _file_error(write(tmp_path, "image.toml", b"\x89PNG\r\n\x1a\n\xff\xfe\x00"))


def test_non_toml_file_is_named(tmp_path):
    msg = _file_error(write(tmp_path, "chu.toml", '{"name": "Chu", "skills": {}}\n'))
    assert "not valid TOML" in msg


def test_rule_override_typo_gets_one_line(tmp_path):
    """Rules override files share the formatting: `[dcie]` names the file and `dice`."""
    for text, unknown, near in (("[dcie]\ndie_sides = 6\n", "dcie", "dice"),
                                ("[dice]\nmax_risk = 3\n", "dice.max_risk", "max_risk_dice"),
                                ("[creation]\nenforced = false\n", "creation.enforced", "enforce")):
        p = write(tmp_path, "house.toml", text)
        with pytest.raises(RulesError) as e:
            load_rules_data(p)
        msg = str(e.value)
        assert len(msg.splitlines()) == 1 and str(p) in msg, msg
        assert f"'{unknown}'" in msg and f"did you mean '{near}'?" in msg, msg


def test_cli_bad_fighter_file_is_one_error_line(tmp_path):
    """`hexdojo demo --fighters bad.toml,chu`: one `error:` line, exit status != 0."""
    runner = CliRunner()
    for name, text, words in (
        ("typo.toml", GOOD_FILE.replace("[skills]", "[skils]"), ("'skils'", "'skills'")),
        ("legend.toml", GOOD_FILE.replace("Combat = 2", "Combat = 9"), ("'skills.Combat'", "limit 7")),
        ("latin.toml", "name = 'Bj\xf6rn'\n".encode("latin-1"), ("UTF-8",)),
    ):
        bad = write(tmp_path, name, text)
        res = runner.invoke(app, ["demo", "--fighters", f"{bad},chu"])
        assert res.exit_code != 0
        assert "Traceback" not in res.output
        lines = [ln for ln in res.output.splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: "), res.output
        assert str(bad) in lines[0] and all(w in lines[0] for w in words), lines[0]
