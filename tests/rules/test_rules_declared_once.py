"""Each rules field is declared once in each language (issue 32): ruleset.py's pydantic
models are the source, and the core's rules structs (one X-list line per field in
envs/rules/core/tables.hpp, ``HX_FIELDS_<Struct>``, which declares the member and binds it)
are checked against them here, field by field.

The bridge (``to_core.fill_from``) fills a core struct from the rules model of the same field
names, each converted by its declared type (a float as half points, a ``ruleset.Names`` field
as its table's id, a Literal by position), so a new rules key needs no line in to_core.py nor
in bind_tables.cpp. What that cannot see, these tests do: a rules field with no core field of
its name that nobody listed below (with where it goes) fails, as does a core field that no
rules field fills (in ``fill_from`` itself), and a header member the binding lacks.
"""

from __future__ import annotations

from typing import get_args

import pydantic
import pytest

from hexdojo.envs.rules import _core, ruleset, to_core
from hexdojo.envs.rules.tables import load_tables

from .test_rules_data_keys import core_members

#: rules fields with no core field of their name, and where their meaning goes instead (the
#: bridge fills it by hand) or why only Python reads them
NOT_IN_CORE = {
    ("Dice", "points_per_die"): "DiceRules.per_die",
    ("Dice", "max_risk_dice"): "DiceRules.max_risk",
    ("Helmets", "materials"): "Helmets.material_names, .material_pv, .material_modifier",
    ("Holds", "kinds"): "Tables.hold_kind_names and Tables.hold_kinds",
    ("Prone", "stand_up_ap"): "Python's tables.Tables makes it Stand up's Maneuver.ap",
    ("Mounted", "pull_down_lands"): "MountedRules.pull_down_lands_same",
    ("ForearmBlock", "bonus_vs_unarmed"): "ForearmBlockRules.vs_unarmed",
    ("ForearmBlock", "bonus_vs_close_weapons"): "ForearmBlockRules.vs_close",
    ("ForearmBlock", "bonus_vs_melee_weapons"): "ForearmBlockRules.vs_melee",
    ("ForearmBlock", "grab_after_kick"): "ForearmBlockRules.grab_after_kick_either_arm",
    ("Armed", "shield_side"): "ArmedRules.shield_side_hands and .shield_side_arcs",
    ("Weapon", "block_arc"): "Weapon.shield_side_arc",
    ("Weapon", "pages"): "documentation: the rules reference shows it",
    ("Weapon", "proposed"): "documentation: the rules reference shows it",
    ("Maneuver", "tags"): "Maneuver.tag_a, .tag_r (an F: Tables.follow_ons)",
    ("LocationSpec", "armour"): "Python: fighter.py builds a sheet's PV by location from it",
}
#: rules models the bridge hands to no core struct of their own, and why
MODELS_NOT_IN_CORE = {
    "RulesData": "the rule set: each section is a member of Tables (to_core.compile_tables)",
    "Creation": "character creation limits: Python checks fighter sheets against them",
    "SpecialismSpec": "character creation: Python checks fighter sheets against them",
    "HelmetMaterial": "Helmets.material_pv and .material_modifier, by material",
    "DamageRules": "flat: Tables.damage_characteristic and .damage_resistance (fill_flat)",
    "Sides": "flat: Tables.friendly_attacks (fill_flat)",
    "LockDamage": "flat: Tables.lock_damage_uses_margin and .lock_damage_knockback (fill_flat)",
}


def rules_models() -> dict[str, type[pydantic.BaseModel]]:
    """Every pydantic model of the rules data (``ruleset._Model`` and its subclasses)."""
    out, todo = {}, list(ruleset._Model.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        out[cls.__name__] = cls
    return out


@pytest.fixture(scope="module")
def handed() -> dict[type, set[type]]:
    """Which core structs each rules model filled while a fresh rule set compiled."""
    seen: dict[type, set[type]] = {}
    real = to_core.fill_from

    def spy(core_cls, m, ids, **by_hand):  # noqa: ANN001, ANN202 - to_core.fill_from's own
        seen.setdefault(type(m), set()).add(core_cls)
        return real(core_cls, m, ids, **by_hand)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(to_core, "fill_from", spy)
        to_core.compile_tables(load_tables({}))
    return seen


def unaccounted(handed: dict[type, set[type]], listed: dict[tuple[str, str], str]) -> list[str]:
    """The rules fields of the models in ``handed`` with no field of their name in a core
    struct they fill and not in ``listed``: each a line naming both sides."""
    out = []
    for model, cores in handed.items():
        for name in model.model_fields:
            if (model.__name__, name) in listed:
                continue
            for core in cores:
                if name not in to_core.bound_fields(core):
                    out.append(f"ruleset.{model.__name__}.{name} has no field {name} in "
                               f"_core.{core.__name__} (tables.hpp: HX_FIELDS_{core.__name__})")
    return out


def test_every_rules_field_has_its_core_field(handed) -> None:
    """Each field of a rules model the core takes lands in the core field of its name, or is
    listed in NOT_IN_CORE with where it goes instead."""
    assert len(handed) > 20 and _core.KnockbackRules in handed[ruleset.Knockback]
    problems = unaccounted(handed, NOT_IN_CORE)
    assert not problems, "\n".join(problems)


def test_every_rules_model_reaches_the_core_or_says_why(handed) -> None:
    """A rules model the bridge never hands to a core struct is listed, with why; the lists
    name only models and fields that exist (a stale entry fails too)."""
    models = rules_models()
    missing = sorted(set(models) - {m.__name__ for m in handed} - set(MODELS_NOT_IN_CORE))
    assert not missing, f"rules models handed to no core struct and not listed: {missing}"
    assert set(MODELS_NOT_IN_CORE) <= set(models)
    stale = [k for k in NOT_IN_CORE if k[0] not in models or k[1] not in models[k[0]].model_fields]
    assert not stale, f"NOT_IN_CORE names fields ruleset.py no longer has: {stale}"
    shared = [k for k in NOT_IN_CORE for c in handed.get(models[k[0]], ())
              if k[1] in to_core.bound_fields(c)]
    assert not shared, f"NOT_IN_CORE lists fields the core has by name: {shared}"


def test_every_core_struct_is_filled_and_bound_as_declared(handed) -> None:
    """Every rules struct of tables.hpp is filled from a rules model (fill_from checks that
    each of its fields is filled: below, that a renamed one fails), and each binds exactly
    the members its header declares."""
    members = core_members()
    filled = {c.__name__ for cores in handed.values() for c in cores}
    assert filled == set(members) - {"Tables", "Domain"}
    for struct, names in members.items():
        bound = set(to_core.bound_fields(getattr(_core, struct)))
        assert bound == names, (f"_core.{struct}: declared in tables.hpp but not bound "
                                f"(bind_tables.cpp): {sorted(names - bound)}; bound, not "
                                f"declared: {sorted(bound - names)}")


def test_every_name_field_names_an_id_table() -> None:
    """A ``ruleset.Names`` field names a table the bridge has ids for (to_core.TableIds)."""
    ids = to_core.TableIds(load_tables())
    tables = set()
    for model in rules_models().values():
        for info in model.model_fields.values():
            todo = [info.annotation, *info.metadata]
            while todo:
                x = todo.pop()
                tables |= {x.table} if isinstance(x, ruleset.Names) else set()
                todo += get_args(x)
    assert {"skill", "maneuver", "location", "hand", "method"} <= tables
    assert all(isinstance(getattr(ids, t, None), dict) for t in tables), tables


def _renamed(old: str, new: str) -> type[pydantic.BaseModel]:
    """ruleset.Knockback with field ``old`` renamed ``new`` (a plain model: ruleset's own
    subclasses stay the rules')."""
    fields = {(new if n == old else n): (f.annotation, f) for n, f in
              ruleset.Knockback.model_fields.items()}
    return pydantic.create_model("Knockback", **fields)


def test_a_renamed_field_fails_with_both_names() -> None:
    """The checks can fail: a rules field renamed on one side only is a clear error naming
    the core field left unfilled and the rules field left over."""
    t = load_tables()
    ids = to_core.TableIds(t)
    ok = to_core.fill_from(_core.KnockbackRules, t.data.knockback, ids)
    assert ok.knocked_over_min_fail == 2 * t.data.knockback.knocked_over_min_fail
    model = _renamed("knocked_over_min_fail", "knocked_over_fail")
    m = model(**{("knocked_over_fail" if k == "knocked_over_min_fail" else k): v
                 for k, v in dict(t.data.knockback).items()})
    with pytest.raises(RuntimeError, match=r"KnockbackRules: fields \['knocked_over_min_fail'\]"):
        to_core.fill_from(_core.KnockbackRules, m, ids)
    problems = unaccounted({model: {_core.KnockbackRules}}, NOT_IN_CORE)
    assert problems == ["ruleset.Knockback.knocked_over_fail has no field knocked_over_fail in "
                        "_core.KnockbackRules (tables.hpp: HX_FIELDS_KnockbackRules)"]


def test_a_type_without_a_core_form_fails_clearly() -> None:
    """A shared field whose type the bridge cannot convert (a table of numbers) must be
    filled by hand: left to the rule, it is one error naming the field."""
    fields = {n: (f.annotation, f) for n, f in ruleset.Movement.model_fields.items()}
    fields["throw_landing"] = (dict[str, float], ...)
    model = pydantic.create_model("Movement", **fields)
    m = model(**{**dict(load_tables().data.movement), "throw_landing": {"a": 1.0}})
    with pytest.raises(RuntimeError, match=r"ruleset.Movement.throw_landing: its type .* by hand"):
        to_core.fill_from(_core.MovementRules, m, None)
