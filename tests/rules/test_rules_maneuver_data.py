"""§2 maneuver data: rules.toml's maneuvers against /work/shared/rules/maneuvers.csv (tags,
AP cost, attack modifier, aiming, damage, damage type, roll), and every value the CSV
leaves 'unknown' filled by the §5 PROPOSED default and marked as such (§5.5, §5.6, §5.8,
§5.28)."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from hexdojo.envs.rules import load_rules_data

CSV = Path("/work/shared/rules/maneuvers.csv")
if not CSV.exists():  # pragma: no cover - the spec lives next to the repository
    CSV = Path(__file__).resolve().parents[3] / "shared" / "rules" / "maneuvers.csv"

pytestmark = pytest.mark.skipif(not CSV.exists(), reason="maneuvers.csv not available")

DATA, _ = load_rules_data()
M = DATA.maneuvers


def rows() -> dict[str, dict[str, str]]:
    with CSV.open(newline="") as fh:
        return {r["name"]: r for r in csv.DictReader(fh)}


ROWS = rows() if CSV.exists() else {}
UNARMED = sorted(n for n in ROWS if n in M and M[n].available and not M[n].armed_only)


def csv_tags(s: str) -> set[str] | None:
    if "unknown" in s:
        return None
    s = re.sub(r"\([^)]*\)", "", s)
    return {t.strip() for t in s.split(";") if t.strip()}


def csv_int(s: str) -> int | None:
    return int(s) if s.strip().isdigit() else None


def csv_mod(s: str) -> float | None:
    m = re.fullmatch(r"\s*([+-]\d+(?:\.\d+)?)\s*", s)
    return float(m.group(1)) if m else None


def csv_aim(s: str):
    """'location table' -> any; 'none (whole body...)' -> whole; '-1 (Arm)' / 'Chest 0;
    Abdomen -1 (only these)' -> the set of aiming rows."""
    if s.startswith("location table"):
        return "any"
    if s.startswith("none"):
        return "whole"
    m = re.fullmatch(r"[+-]\d+ \((\w+)\)", s)
    if m:
        return {m.group(1).rstrip("s")}  # "Legs" -> "Leg"
    if ";" in s or re.match(r"[A-Z]\w+ [+-]?\d", s):
        body = re.sub(r"\([^)]*\)", "", s)
        return {part.split()[0] for part in body.split(";") if part.strip()}
    return None


def test_every_csv_maneuver_is_in_the_rules_data_par_2():
    """§2: the data has every maneuver of maneuvers.csv, plus only Stand up (§5.18),
    Drop weapon (aom314a: dropping is free) and Pull out weapon (§1.15, aom1d35)."""
    assert set(ROWS) <= set(M)
    assert set(M) - set(ROWS) == {"Stand up", "Drop weapon", "Pull out weapon"}


def test_weapon_maneuvers_are_armed_only_par_2():
    """§2.1/§2.2: Block, Parry, Stand and attack, Advance and attack, Close Combat Weapon
    Attack and Ready weapon need a weapon (with Drop weapon, aom314a, and Pull out weapon,
    aom1d35, they are the armed-only maneuvers); Speak is out of scope."""
    armed = {n for n, m in M.items() if m.armed_only}
    assert armed == {"Block", "Parry", "Stand and attack", "Advance and attack",
                     "Close Combat Weapon Attack", "Ready weapon", "Drop weapon",
                     "Pull out weapon"}
    assert {n for n, m in M.items() if not m.available} == {"Speak"}


@pytest.mark.parametrize("name", UNARMED)
def test_tags_par_2(name):
    """§2: tags A/R/F as in the CSV; 'unknown' must be a marked §5.6/§5.8 default."""
    want = csv_tags(ROWS[name]["tags"])
    got = set(M[name].tags)
    if name == "Move":
        # aom3141: R only to follow a phasing character of one's group (issue 18)
        assert want == got == {"A", "R"} and M[name].reacts_to == ["follow"]
        return
    if want is None:
        assert {"tags", "all"} & set(M[name].proposed), name
    else:
        assert got == want, name


@pytest.mark.parametrize("name", UNARMED)
def test_ap_cost_par_2(name):
    """§2: AP cost as in the CSV; 'unknown' must be a marked §5.5/§5.8 default."""
    want = csv_int(ROWS[name]["ap_cost"])
    if want is None:
        assert {"ap", "all"} & set(M[name].proposed), name
    else:
        assert M[name].ap == want, name


PROPOSED_AP = {"Spinning Kick": 3, "Arm/wrist Lock": 2, "Martial Throw": 2, "Head Lock": 2,
               "Pull Down": 2, "Parry": 1}


@pytest.mark.parametrize(("name", "ap"), sorted(PROPOSED_AP.items()))
def test_proposed_ap_costs_par_5_5(name, ap):
    """§5.5 PROPOSED: Spinning Kick 3, Arm/wrist Lock 2, Martial Throw 2, Head Lock 2,
    Pull Down 2, Parry 1."""
    assert M[name].ap == ap
    assert M[name].proposed.get("ap", M[name].proposed.get("all")) in ("§5.5", "§5.8")


def test_proposed_tags_par_5_6():
    """§5.6 PROPOSED: Spinning Kick [A] only, Arm/wrist Lock [F], Grapple [A]."""
    assert (M["Spinning Kick"].tags, M["Arm/wrist Lock"].tags, M["Grapple"].tags) == \
        (["A"], ["F"], ["A"])
    for n in ("Spinning Kick", "Arm/wrist Lock", "Grapple"):
        assert M[n].proposed["tags"] == "§5.6"


def test_pull_down_proposal_par_5_8():
    """§5.8 PROPOSED Pull Down: [F] after Arm Grab, AP 2, Martial Arts + CO, +0, no
    defensive reaction, damage 3 Blunt, prone, hold ends, unhorses."""
    p = M["Pull Down"]
    assert (p.tags, p.ap, p.skill, p.characteristic, p.attack_mod) == \
        (["F"], 2, "Martial Arts", "CO", 0)
    assert (p.damage, p.damage_types, p.no_defence, p.knocks_prone, p.ends_hold,
            p.unhorses) == (3, ["Blunt"], True, True, True, True)
    assert "Pull Down" in DATA.follow_ons["Arm Grab"]
    assert p.proposed == {"all": "§5.8"}


ATTACKS = [n for n in UNARMED if csv_mod(ROWS[n]["attack_mod"]) is not None]


@pytest.mark.parametrize("name", ATTACKS)
def test_attack_modifier_par_2(name):
    """§2/§1.8: each maneuver's own attack modifier (Martial Strike +1, Grapple -2,
    Arm/wrist Lock +3 ...)."""
    assert M[name].attack_mod == csv_mod(ROWS[name]["attack_mod"]), name


def test_attack_modifier_rows_cover_the_attacks():
    """The CSV gives an attack modifier for every unarmed attack except Pull Down (§5.8)."""
    attacks = {n for n in UNARMED if M[n].category in ("strike", "grab", "lock", "throw",
                                                      "pull_down")}
    assert attacks - set(ATTACKS) == {"Pull Down"}


@pytest.mark.parametrize(
    "name", [n for n in UNARMED if csv_aim(ROWS[n]["aim_penalty"]) is not None])
def test_aiming_par_2(name):
    """§2/§1.9: which locations each maneuver may aim at."""
    want = csv_aim(ROWS[name]["aim_penalty"])
    got = M[name].aim if isinstance(M[name].aim, str) else set(M[name].aim)
    assert got == want, name


def test_csv_aim_penalties_agree_with_the_aiming_table_aom317():
    """§1.9: the per-maneuver penalties listed in the CSV are the aom317 table's."""
    for name in UNARMED:
        for loc, val in re.findall(r"(Head|Eyes|Throat|Chest|Arm|Hand|Abdomen|Groin|Leg)s? "
                                   r"([+-]?\d+)", ROWS[name]["aim_penalty"]):
            assert DATA.aim[loc].attack == float(val), (name, loc)
        m = re.fullmatch(r"([+-]\d+) \((\w+?)s?\)", ROWS[name]["aim_penalty"])
        if m:
            assert DATA.aim[m.group(2)].attack == float(m.group(1)), name


@pytest.mark.parametrize("name", UNARMED)
def test_damage_rating_and_type_par_2(name):
    """§2/§1.10: damage rating (none = no damage roll) and damage type(s)."""
    rating = ROWS[name]["damage_rating"].strip()
    if rating in ("none", "n/a"):
        assert M[name].damage is None, name
        return
    if rating == "unknown":
        assert "all" in M[name].proposed, name
        return
    assert M[name].damage == float(rating), name
    types = ROWS[name]["damage_type"]
    want = [t for t in ("Blunt", "Impaling", "Cutting") if t in types]
    assert M[name].damage_types == want, name


@pytest.mark.parametrize("name", [n for n in UNARMED
                                  if ROWS[n]["roll"].split(" ")[0] in ("Martial", "Combat")])
def test_roll_skill_and_characteristic_par_2(name):
    """§2/§1.8: the roll's skill and characteristic (Martial Arts + CO, Combat + CO ...)."""
    roll = ROWS[name]["roll"]
    skill = "Martial Arts" if roll.startswith("Martial Arts") else "Combat"
    if name == "Soak":
        assert (DATA.soak.roll.skill, DATA.soak.roll.characteristic) == ("Combat", "ST")
        return
    assert (M[name].skill, M[name].characteristic) == (skill, "CO"), name
    bonus = re.search(r"\+ (\d+)(?: vs unarmed)?$", roll)
    if bonus and M[name].category in ("dodge", "block"):
        assert M[name].defence_bonus == float(bonus.group(1)), name


def test_reaction_lists_par_2_par_4():
    """§2/§4: Arm Grab answers Martial Strike, Arm Grab, Punch; Leg Grab Kick and Martial
    Kick; Forearm Block Punch, Kick, Martial Strike, Martial Kick, Spinning Kick, and the
    weapon attacks the CSV's "(also weapon attacks at reduced factor)" names (aom322e)."""
    weapon_attacks = {"Stand and attack", "Advance and attack", "Close Combat Weapon Attack"}
    for name in ("Arm Grab", "Leg Grab", "Forearm Block"):
        cell = re.sub(r"\([^)]*\)", "", ROWS[name]["reacts_to"])
        want = {p.strip() for p in cell.split(";") if p.strip()}
        if "weapon attacks" in ROWS[name]["reacts_to"]:
            want |= weapon_attacks
        assert set(M[name].against) == want, name


def test_grapple_uses_combat_par_5_28():
    """§5.28 PROPOSED: Grapple rolls Combat + CO, marked as a proposal."""
    assert (M["Grapple"].skill, M["Grapple"].characteristic) == ("Combat", "CO")
    assert M["Grapple"].proposed["skill"] == "§5.28"


def test_source_pages_par_2():
    """§2: each maneuver cites the CSV's source pages (first page identical)."""
    for name in UNARMED:
        want = [p.strip() for p in ROWS[name]["source_page"].split(";")]
        assert M[name].pages[0] == want[0], name
        assert set(want) <= set(M[name].pages), name
