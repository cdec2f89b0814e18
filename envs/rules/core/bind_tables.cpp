// Bindings of the compiled tables and profiles (layer 2): plain structs whose fields Python
// fills (native.compile_tables, native.compile_profile); a rules struct's fields are bound from
// their list in tables.hpp. A Tables is sealed once filled:
// seal() checks every id and derives what tables.py derives; its fields are read-only after.
#include <nanobind/nanobind.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include "bind.hpp"
#include "profile.hpp"
#include "tables.hpp"

#define HX_RW(cls, f) def_rw(#f, &cls::f)
// A Tables field: settable until the tables are sealed (the derived tables rely on it).
#define HX_TF(f)                                                                        \
    def_prop_rw(                                                                        \
        #f, [](const Tables& t) { return t.f; },                                        \
        [](Tables& t, const decltype(Tables::f)& v) {                                   \
            if (t.sealed) throw nb::attribute_error("Tables are sealed: cannot set " #f); \
            t.f = v;                                                                    \
        })
#define HX_RO(f) def_ro(#f, &Tables::f)

namespace hexdojo {

namespace {

// A rules struct, each member read-write under its own name, from its one list in tables.hpp
// (HX_FIELDS_<Struct>): a field declared there is bound here without a line of its own.
#define HX_BIND(type, name, ...) .def_rw(#name, &Self::name)
#define HX_CLASS(S, ...)                                                             \
    {                                                                                \
        using Self = S;                                                              \
        nb::class_<S>(m, #S __VA_OPT__(, ) __VA_ARGS__).def(nb::init<>()) HX_FIELDS_##S(HX_BIND); \
    }

void bind_rules(nb::module_& m) {
    HX_CLASS(RollSpec)
    HX_CLASS(AimRow)
    HX_CLASS(Location)
    HX_CLASS(DamageTypeRow)
    HX_CLASS(WeaponMode)
    HX_CLASS(Weapon)
    HX_CLASS(HoldKind)
    HX_CLASS(Maneuver, "ruleset.Maneuver, names as ids, numbers in half points.")
    HX_CLASS(DiceRules)
    HX_CLASS(TurnRules)
    HX_CLASS(AttackRules)
    HX_CLASS(Encumbrance)
    HX_CLASS(Helmets)
    HX_CLASS(Wounds)
    HX_CLASS(SoakRules)
    HX_CLASS(PainRules)
    HX_CLASS(KnockbackRules)
    HX_CLASS(HoldRules)
    HX_CLASS(BreakHoldRules)
    HX_CLASS(ProneRules)
    HX_CLASS(MountedRules)
    HX_CLASS(SelfInjuryRules)
    HX_CLASS(DropDodgeRules)
    HX_CLASS(ForearmBlockRules)
    HX_CLASS(ArmedRules)
    HX_CLASS(MovementRules)
    nb::class_<Domain>(m, "Domain")
        .def_ro("turns", &Domain::turns).def_ro("locations", &Domain::locations)
        .def_ro("options", &Domain::options);
}

void seal(Tables& t) {
    const std::string problem = seal_tables(t);
    if (!problem.empty()) throw nb::value_error(("tables " + t.id + ": " + problem).c_str());
}

void bind_tables_class(nb::module_& m) {
    nb::class_<Tables>(m, "Tables", "The compiled rules (tables.py Tables): fill, then seal().",
                      nb::is_weak_referenceable())
        .def(nb::init<>())
        .def("seal", &seal, "Check every id, derive the lookups; read-only afterwards.")
        .HX_RO(sealed)
        .HX_TF(id).HX_TF(characteristics).HX_TF(skills).HX_TF(specialisms).HX_TF(aim_rows)
        .HX_TF(location_names).HX_TF(damage_type_names).HX_TF(hold_kind_names)
        .HX_TF(weapon_ids).HX_TF(maneuvers).HX_TF(aim).HX_TF(locations).HX_TF(damage_types)
        .HX_TF(weapons).HX_TF(hold_kinds).HX_TF(follow_ons).HX_TF(follow_on_defence)
        .HX_TF(dice).HX_TF(turn).HX_TF(attack).HX_TF(encumbrance).HX_TF(helmets)
        .HX_TF(damage_characteristic).HX_TF(damage_resistance).HX_TF(wounds).HX_TF(soak)
        .HX_TF(pain).HX_TF(knockback).HX_TF(holds).HX_TF(break_hold).HX_TF(prone)
        .HX_TF(friendly_attacks).HX_TF(mounted).HX_TF(self_injury)
        .HX_TF(lock_damage_uses_margin).HX_TF(lock_damage_knockback).HX_TF(drop_dodge)
        .HX_TF(forearm_block).HX_TF(armed).HX_TF(movement)
        .HX_RO(is_attack).HX_RO(soak_maneuver).HX_RO(fatal).HX_RO(max_ap_cost)
        .HX_RO(move_reach).HX_RO(max_modes).HX_RO(attack_reach).HX_RO(hold_by_maneuver)
        .HX_RO(action_maneuvers).HX_RO(held_action_maneuvers).HX_RO(reaction_maneuvers)
        .HX_RO(unarmed_maneuvers).HX_RO(domain).HX_RO(allowed_upright).HX_RO(allowed_prone);
}

void bind_profile(nb::module_& m) {
    nb::class_<Risk>(m, "Risk").def(nb::init<>())
        .HX_RW(Risk, ap).HX_RW(Risk, initiative).HX_RW(Risk, damage).HX_RW(Risk, pain)
        .HX_RW(Risk, knockback).HX_RW(Risk, lock_damage);
    nb::class_<Profile>(m, "Profile", "A compiled fighter sheet (fighter.Profile), ids of its Tables.",
                       nb::is_weak_referenceable())
        .def(nb::init<>())
        .HX_RW(Profile, name).HX_RW(Profile, rules_id).HX_RW(Profile, chars)
        .HX_RW(Profile, skills).HX_RW(Profile, specs).HX_RW(Profile, pv).HX_RW(Profile, enc_mod)
        .HX_RW(Profile, helmet_mod).HX_RW(Profile, mounted).HX_RW(Profile, height)
        .HX_RW(Profile, risk).HX_RW(Profile, hands).HX_RW(Profile, sheathed)
        .def("check", [](const Profile& p, const Tables& t) {
            const std::string problem = profile_problem(t, p);
            if (!problem.empty()) throw nb::value_error(problem.c_str());
        }, nb::arg("tables"), "Raise ValueError unless the profile fits these tables.");
}

void bind_vocabularies(nb::module_& m) {
    m.attr("CATEGORIES") = kCategoryNames;
    m.attr("TRIGGERS") = kTriggerNames;
    m.attr("MOVES") = kMovesNames;
    m.attr("BODY_PARTS") = kBodyPartNames;
    m.attr("LIMBS") = kLimbNames;
    m.attr("MOUNTED_USES") = kMountedNames;
    m.attr("WEAPON_NEEDS") = kWeaponNeedNames;
    m.attr("WEAPON_KINDS") = kWeaponKindNames;
    m.attr("ROLLS") = kRollNames;
    m.attr("AIM_LIST") = static_cast<int>(kAimList);
    m.attr("AIM_ANY") = static_cast<int>(kAimAny);
    m.attr("AIM_WHOLE") = static_cast<int>(kAimWhole);
}

}  // namespace

void bind_tables(nb::module_& m) {
    bind_vocabularies(m);
    bind_rules(m);
    bind_tables_class(m);
    bind_profile(m);
}

}  // namespace hexdojo
