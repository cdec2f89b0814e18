// Bindings of the compiled tables and profiles (layer 2): plain structs whose fields Python
// fills (native.compile_tables, native.compile_profile). A Tables is sealed once filled:
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

void bind_rows(nb::module_& m) {
    nb::class_<RollSpec>(m, "RollSpec").def(nb::init<>())
        .HX_RW(RollSpec, skill).HX_RW(RollSpec, characteristic).HX_RW(RollSpec, specialisms)
        .HX_RW(RollSpec, bonus);
    nb::class_<AimRow>(m, "AimRow").def(nb::init<>())
        .HX_RW(AimRow, attack).HX_RW(AimRow, damage).HX_RW(AimRow, pain).HX_RW(AimRow, knockback)
        .HX_RW(AimRow, has_knockback_mounted).HX_RW(AimRow, knockback_mounted);
    nb::class_<Location>(m, "Location").def(nb::init<>())
        .HX_RW(Location, aim);
    nb::class_<DamageTypeRow>(m, "DamageTypeRow").def(nb::init<>())
        .HX_RW(DamageTypeRow, pain).HX_RW(DamageTypeRow, knockback);
    nb::class_<WeaponMode>(m, "WeaponMode").def(nb::init<>())
        .HX_RW(WeaponMode, name).HX_RW(WeaponMode, ap).HX_RW(WeaponMode, damage)
        .HX_RW(WeaponMode, damage_type);
    nb::class_<Weapon>(m, "Weapon").def(nb::init<>())
        .HX_RW(Weapon, name).HX_RW(Weapon, kind).HX_RW(Weapon, skill).HX_RW(Weapon, hands)
        .HX_RW(Weapon, reach).HX_RW(Weapon, attack_mod).HX_RW(Weapon, closing_attack_mod)
        .HX_RW(Weapon, parry_bonus).HX_RW(Weapon, stuck_penalty).HX_RW(Weapon, can_parry)
        .HX_RW(Weapon, shield_side_arc).HX_RW(Weapon, modes);
    nb::class_<HoldKind>(m, "HoldKind").def(nb::init<>())
        .HX_RW(HoldKind, source).HX_RW(HoldKind, held_attack_mod)
        .HX_RW(HoldKind, holder_attack_bonus).HX_RW(HoldKind, holder_other_mod)
        .HX_RW(HoldKind, break_holder_bonus).HX_RW(HoldKind, free_arms).HX_RW(HoldKind, holder_arms)
        .HX_RW(HoldKind, held_may).HX_RW(HoldKind, held_attacks_barred_from_behind)
        .HX_RW(HoldKind, painful).HX_RW(HoldKind, drops_weapon).HX_RW(HoldKind, lock_location);
    nb::class_<Domain>(m, "Domain")
        .def_ro("turns", &Domain::turns).def_ro("locations", &Domain::locations)
        .def_ro("options", &Domain::options);
}

void bind_maneuver(nb::module_& m) {
    using M = Maneuver;
    nb::class_<M>(m, "Maneuver", "ruleset.Maneuver, names as ids, numbers in half points.")
        .def(nb::init<>())
        .HX_RW(M, name).HX_RW(M, pages).HX_RW(M, proposed).HX_RW(M, tag_a).HX_RW(M, tag_r)
        .HX_RW(M, ap).HX_RW(M, category).HX_RW(M, skill)
        .HX_RW(M, characteristic).HX_RW(M, specialisms).HX_RW(M, attack_mod).HX_RW(M, aim_kind)
        .HX_RW(M, aim).HX_RW(M, has_damage).HX_RW(M, damage).HX_RW(M, damage_types)
        .HX_RW(M, range).HX_RW(M, may_close).HX_RW(M, may_advance).HX_RW(M, any_direction)
        .HX_RW(M, may_turn).HX_RW(M, reacts_to).HX_RW(M, against).HX_RW(M, counter)
        .HX_RW(M, defence_bonus).HX_RW(M, bonus_by_attack).HX_RW(M, front_arc_only)
        .HX_RW(M, moves).HX_RW(M, self_injury).HX_RW(M, self_injury_skill)
        .HX_RW(M, self_injury_extra).HX_RW(M, limb).HX_RW(M, kick).HX_RW(M, usable_when_held)
        .HX_RW(M, knocks_prone).HX_RW(M, no_defence).HX_RW(M, no_knockback)
        .HX_RW(M, ends_hold).HX_RW(M, unhorses).HX_RW(M, hold).HX_RW(M, needs_hold)
        .HX_RW(M, mounted).HX_RW(M, has_mounted_attack_mod).HX_RW(M, mounted_attack_mod)
        .HX_RW(M, available).HX_RW(M, weapon).HX_RW(M, advances).HX_RW(M, armed_only);
}

void bind_rules_a(nb::module_& m) {
    nb::class_<DiceRules>(m, "DiceRules").def(nb::init<>())
        .HX_RW(DiceRules, die_sides).HX_RW(DiceRules, per_die).HX_RW(DiceRules, max_risk);
    nb::class_<TurnRules>(m, "TurnRules").def(nb::init<>())
        .HX_RW(TurnRules, minimum_ap).HX_RW(TurnRules, ap_rounding).HX_RW(TurnRules, turn_limit)
        .HX_RW(TurnRules, unused_ap_lost).HX_RW(TurnRules, ap).HX_RW(TurnRules, initiative);
    using A = AttackRules;
    nb::class_<A>(m, "AttackRules").def(nb::init<>())
        .HX_RW(A, hit_requires_higher).HX_RW(A, margin_damage_per_point).HX_RW(A, rear_bonus)
        .HX_RW(A, rear_arc).HX_RW(A, closing_requires_front_arc)
        .HX_RW(A, range1_reaches_same_hex).HX_RW(A, leg_grab_pulls_kicker_in)
        .HX_RW(A, default_aim).HX_RW(A, whole_body_location).HX_RW(A, default_defence)
        .HX_RW(A, striking_hand).HX_RW(A, counter_needs_non_phasing);
    nb::class_<Encumbrance>(m, "Encumbrance").def(nb::init<>())
        .HX_RW(Encumbrance, band_names).HX_RW(Encumbrance, bands)
        .HX_RW(Encumbrance, characteristic).HX_RW(Encumbrance, martial_arts_multiplier)
        .HX_RW(Encumbrance, multiplied_with);
    nb::class_<Helmets>(m, "Helmets").def(nb::init<>())
        .HX_RW(Helmets, characteristic).HX_RW(Helmets, material_names)
        .HX_RW(Helmets, material_pv).HX_RW(Helmets, material_modifier);
    nb::class_<Wounds>(m, "Wounds").def(nb::init<>())
        .HX_RW(Wounds, levels).HX_RW(Wounds, upper_bounds).HX_RW(Wounds, impairment)
        .HX_RW(Wounds, pain);
    nb::class_<SoakRules>(m, "SoakRules").def(nb::init<>())
        .HX_RW(SoakRules, roll).HX_RW(SoakRules, upper_bounds);
    using P = PainRules;
    nb::class_<P>(m, "PainRules").def(nb::init<>())
        .HX_RW(P, roll).HX_RW(P, unconscious_at_most).HX_RW(P, stunned_below)
        .HX_RW(P, staggered_below).HX_RW(P, stun_penalty).HX_RW(P, stagger_penalty)
        .HX_RW(P, stagger_ap_loss).HX_RW(P, self_injury_pain_roll);
    using K = KnockbackRules;
    nb::class_<K>(m, "KnockbackRules").def(nb::init<>())
        .HX_RW(K, roll).HX_RW(K, mounted_skill).HX_RW(K, off_balance_max_fail)
        .HX_RW(K, off_balance_ap_loss).HX_RW(K, knocked_back_ap_loss)
        .HX_RW(K, knocked_over_min_fail).HX_RW(K, distance)
        .HX_RW(K, holder_knocked_back_releases);
}

void bind_rules_b(nb::module_& m) {
    using H = HoldRules;
    nb::class_<H>(m, "HoldRules").def(nb::init<>())
        .HX_RW(H, maintain_ap).HX_RW(H, release_ap).HX_RW(H, break_attempt_bonus).HX_RW(H, arms)
        .HX_RW(H, one_hold_per_holder).HX_RW(H, lock_damage_in_holder_phase)
        .HX_RW(H, hold_maneuvers_need_the_hold).HX_RW(H, follow_ups_end_hold);
    using B = BreakHoldRules;
    nb::class_<B>(m, "BreakHoldRules").def(nb::init<>())
        .HX_RW(B, method_names).HX_RW(B, methods).HX_RW(B, escaper_methods)
        .HX_RW(B, holder_methods).HX_RW(B, holder_method_choice);
    nb::class_<ProneRules>(m, "ProneRules").def(nb::init<>())
        .HX_RW(ProneRules, allowed)
        .HX_RW(ProneRules, kick_any_location);
    using Mo = MountedRules;
    nb::class_<Mo>(m, "MountedRules").def(nb::init<>())
        .HX_RW(Mo, close_needs_same_height).HX_RW(Mo, close_from_other_hex)
        .HX_RW(Mo, range1_kicks_allowed).HX_RW(Mo, attack_mod)
        .HX_RW(Mo, stay_mounted_difficulty).HX_RW(Mo, stay_mounted)
        .HX_RW(Mo, pull_down_lands_same).HX_RW(Mo, pull_down_directions);
    nb::class_<SelfInjuryRules>(m, "SelfInjuryRules").def(nb::init<>())
        .HX_RW(SelfInjuryRules, locations).HX_RW(SelfInjuryRules, damage_type)
        .HX_RW(SelfInjuryRules, requires_armour);
    nb::class_<DropDodgeRules>(m, "DropDodgeRules").def(nb::init<>())
        .HX_RW(DropDodgeRules, by_aim).HX_RW(DropDodgeRules, by_maneuver)
        .HX_RW(DropDodgeRules, has_by_maneuver);
    nb::class_<ForearmBlockRules>(m, "ForearmBlockRules").def(nb::init<>())
        .HX_RW(ForearmBlockRules, vs_unarmed).HX_RW(ForearmBlockRules, vs_close)
        .HX_RW(ForearmBlockRules, vs_melee).HX_RW(ForearmBlockRules, grab_after_kick_either_arm);
    using Ar = ArmedRules;
    nb::class_<Ar>(m, "ArmedRules").def(nb::init<>())
        .HX_RW(Ar, hand_locations).HX_RW(Ar, arm_locations).HX_RW(Ar, reach_beyond)
        .HX_RW(Ar, melee_in_own_hex).HX_RW(Ar, advance_into_occupied).HX_RW(Ar, stuck_min_wound)
        .HX_RW(Ar, stuck_damage_type).HX_RW(Ar, stuck_characteristic)
        .HX_RW(Ar, pull_out_worsens).HX_RW(Ar, stun_drops).HX_RW(Ar, stagger_drops)
        .HX_RW(Ar, block_follow_ups_other_weapon).HX_RW(Ar, two_handed_block_bars)
        .HX_RW(Ar, shield_side_hands).HX_RW(Ar, shield_side_arcs);
    using Mv = MovementRules;
    nb::class_<Mv>(m, "MovementRules").def(nb::init<>())
        .HX_RW(Mv, side_step_offsets_adjacent).HX_RW(Mv, side_step_offsets_same_hex)
        .HX_RW(Mv, throw_landing).HX_RW(Mv, move_forward_max).HX_RW(Mv, move_back_max)
        .HX_RW(Mv, move_through_occupied).HX_RW(Mv, dodge_moves_only_on_success)
        .HX_RW(Mv, dodge_triggers_attacker).HX_RW(Mv, follow_no_farther);
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
    bind_rows(m);
    bind_maneuver(m);
    bind_rules_a(m);
    bind_rules_b(m);
    bind_tables_class(m);
    bind_profile(m);
}

}  // namespace hexdojo
