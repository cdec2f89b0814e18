// Compiled rules tables of the native core: envs/rules/tables.py's Tables and the parts of
// RulesData (envs/rules/ruleset.py) that the formulas, legality and resolution read.
//
// Python loads and validates the rules data (pydantic), turns every name into a dense int id
// in the Python data's order and fills these structs once per rule set
// (to_core.compile_tables); Tables::seal() then checks every id against its table, derives
// attack flags, candidate lists, param domains and allowed locations (their one derivation:
// Python reads them back, to_core.param_domain, the catalogue) and reaches, and makes the
// tables read-only. Numbers are half points (tables.h2), as in Python.
// An absent name (Python None) is the id -1 (kNone).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hexdojo {

constexpr int kNone = -1;

// Fixed vocabularies of the rules' schema (ruleset.py Literals), in the Python order:
// native.compile_tables checks that Python's Literals still read so.
enum Category : int {
    kMove, kTurn, kSoak, kStand, kStrike, kGrab, kLegGrab, kLock, kThrow, kPullDown, kDodge,
    kBlock, kBreak, kWeapon, kSpeak, kWeaponBlock, kParry, kReady, kDrop, kPullOut,
};
inline const std::vector<std::string> kCategoryNames = {
    "move", "turn", "soak", "stand", "strike", "grab", "leg_grab", "lock", "throw",
    "pull_down", "dodge", "block", "break", "weapon", "speak", "weapon_block", "parry",
    "ready", "drop", "pull_out"};
inline const std::vector<std::string> kTriggerNames = {
    "closing", "attack", "movement", "adjacent_entry", "held", "hit", "follow", "zone_entry",
    "ready"};
enum AimKind : int { kAimList, kAimAny, kAimWhole };
enum Moves : int { kMovesAway, kMovesSide, kMovesToward };  // or kNone
inline const std::vector<std::string> kMovesNames = {"away", "side", "toward"};
enum BodyPart : int { kPartHand, kPartFoot, kPartHead };  // self_injury, or kNone
inline const std::vector<std::string> kBodyPartNames = {"hand", "foot", "head"};
enum Limb : int { kLimbArm, kLimbLeg, kLimbHead };  // or kNone
inline const std::vector<std::string> kLimbNames = {"arm", "leg", "head"};
enum MountedUse : int { kMountedAllowed, kMountedSameHeight, kMountedNo };
inline const std::vector<std::string> kMountedNames = {"allowed", "same_height", "no"};
enum WeaponNeed : int { kNeedMelee, kNeedClose, kNeedBlock, kNeedParry };  // or kNone
inline const std::vector<std::string> kWeaponNeedNames = {"melee", "close", "block", "parry"};
enum WeaponKind : int { kKindClose, kKindMelee, kKindShield };
inline const std::vector<std::string> kWeaponKindNames = {"close", "melee", "shield"};
// The rolls the data describes (formulas.spec_basic_of), by id.
enum Roll : int { kRollAp, kRollInitiative, kRollSoak, kRollPain, kRollKnockback,
                  kRollDefaultDefence, kRollStayMounted };
inline const std::vector<std::string> kRollNames = {
    "ap", "initiative", "soak", "pain", "knockback", "default_defence", "stay_mounted"};

// The rules structs, each field declared once: a line X(type, name, default) of a struct's
// list HX_FIELDS_<Struct> is both its member (HX_MEMBER below) and its Python binding
// (bind_tables.cpp), and the ruleset.py field of the same name fills it (native.fill_from;
// tests/rules/test_rules_declared_once.py checks the two sides agree). So a new rules key is
// one line here besides its ruleset.py field (issue 32). No default: a value-initialised
// member (0, false, empty). A type holding a comma goes through an alias.
#define HX_MEMBER(type, name, ...) type name{__VA_ARGS__};
using Ints = std::vector<int>;          // ids, or numbers in half points
using Strings = std::vector<std::string>;
using StringPairs = std::vector<std::pair<std::string, std::string>>;
using PartIds = std::array<int, 3>;     // by BodyPart

// A roll described in the data (ruleset.RollSpec; a Break Hold method has no bonus).
#define HX_FIELDS_RollSpec(X) \
    X(int, skill, kNone) X(int, characteristic, kNone) X(Ints, specialisms) X(int, bonus, 0)
struct RollSpec { HX_FIELDS_RollSpec(HX_MEMBER) };

// §1.9 aom317 aiming row; pain §1.12 aom1d31; knock-back §1.13 aom1d34 (a rider's column).
#define HX_FIELDS_AimRow(X)                                                         \
    X(int, attack, 0) X(int, damage, 0) X(int, pain, 0) X(int, knockback, 0)         \
    X(bool, has_knockback_mounted, false) X(int, knockback_mounted, 0)
struct AimRow { HX_FIELDS_AimRow(HX_MEMBER) };

#define HX_FIELDS_Location(X) X(int, aim, 0)
struct Location { HX_FIELDS_Location(HX_MEMBER) };  // §1.10 aom1c4

#define HX_FIELDS_DamageTypeRow(X) X(int, pain, 0) X(int, knockback, 0)
struct DamageTypeRow { HX_FIELDS_DamageTypeRow(HX_MEMBER) };  // pain §1.12, knock-back §1.13

#define HX_FIELDS_WeaponMode(X) \
    X(std::string, name) X(int, ap, 0) X(int, damage, 0) X(int, damage_type, 0)
struct WeaponMode { HX_FIELDS_WeaponMode(HX_MEMBER) };  // aom3142

// §2.1, aom3142, aom3145, aom314a. shield_side_arc: block_arc "shield_side" (else "front").
#define HX_FIELDS_Weapon(X)                                                                 \
    X(std::string, name) X(int, kind, kKindClose) X(int, skill, 0) X(int, hands, 1)          \
    X(int, reach, 1) X(int, attack_mod, 0) X(int, closing_attack_mod, 0)                     \
    X(int, parry_bonus, 0) X(int, stuck_penalty, 0) X(bool, can_parry, true)                 \
    X(bool, shield_side_arc, false) X(std::vector<WeaponMode>, modes)
struct Weapon { HX_FIELDS_Weapon(HX_MEMBER) };

// §1.18, §5.13-§5.17. holder_arms: the holder's arms the hold keeps busy (aom3225: the
// grabbing hand); held_may: maneuver ids.
#define HX_FIELDS_HoldKind(X)                                                               \
    X(std::string, source) X(int, held_attack_mod, 0) X(int, holder_attack_bonus, 0)         \
    X(int, holder_other_mod, 0) X(int, break_holder_bonus, 0) X(int, free_arms, 0)           \
    X(int, holder_arms, 0) X(Ints, held_may) X(bool, held_attacks_barred_from_behind, false) \
    X(bool, painful, false) X(bool, drops_weapon, false) X(int, lock_location, kNone)
struct HoldKind { HX_FIELDS_HoldKind(HX_MEMBER) };

// One maneuver, every field of ruleset.Maneuver (names as ids, numbers in half points). Its
// tags A and R as tag_a, tag_r (an F: Tables::follow_ons, from Python); aim: the aim row ids
// when aim_kind == kAimList; reacts_to: trigger ids; against: maneuver ids.
#define HX_FIELDS_Maneuver(X)                                                               \
    X(std::string, name) X(Strings, pages) X(StringPairs, proposed) X(bool, tag_a, false)    \
    X(bool, tag_r, false) X(int, ap, 0) X(int, category, kMove) X(int, skill, kNone)         \
    X(int, characteristic, kNone) X(Ints, specialisms) X(int, attack_mod, 0)                 \
    X(int, aim_kind, kAimWhole) X(Ints, aim) X(bool, has_damage, false) X(int, damage, 0)    \
    X(Ints, damage_types) X(int, range, 0) X(bool, may_close, false)                         \
    X(bool, may_advance, false) X(bool, any_direction, false) X(bool, may_turn, false)       \
    X(Ints, reacts_to) X(Ints, against) X(bool, counter, false) X(int, defence_bonus, 0)     \
    X(bool, bonus_by_attack, false) X(bool, front_arc_only, false) X(int, moves, kNone)      \
    X(int, self_injury, kNone) X(int, self_injury_skill, kNone)                              \
    X(int, self_injury_extra, 0) X(int, limb, kNone) X(bool, kick, false)                    \
    X(bool, usable_when_held, false) X(bool, knocks_prone, false)                            \
    X(bool, no_defence, false) X(bool, no_knockback, false) X(bool, ends_hold, false)        \
    X(bool, unhorses, false) X(int, hold, kNone) X(int, needs_hold, kNone)                   \
    X(int, mounted, kMountedAllowed) X(bool, has_mounted_attack_mod, false)                  \
    X(int, mounted_attack_mod, 0) X(bool, available, true) X(int, weapon, kNone)             \
    X(bool, advances, false) X(bool, armed_only, false)
struct Maneuver { HX_FIELDS_Maneuver(HX_MEMBER) };

#define HX_FIELDS_DiceRules(X) X(int, die_sides, 6) X(int, per_die, 6) X(int, max_risk, 6)
struct DiceRules { HX_FIELDS_DiceRules(HX_MEMBER) };

// ap_rounding: down, up, nearest
#define HX_FIELDS_TurnRules(X)                                                              \
    X(int, minimum_ap, 0) X(int, ap_rounding, 0) X(int, turn_limit, 1)                       \
    X(bool, unused_ap_lost, true) X(RollSpec, ap) X(RollSpec, initiative)
struct TurnRules { HX_FIELDS_TurnRules(HX_MEMBER) };

// margin_damage_per_point: half points of damage per half point of margin, x2;
// striking_hand: the hand (0 right, 1 left) a one-handed unarmed maneuver takes first;
// counter_needs_non_phasing: maneuver ids the phasing fighter may not react with.
#define HX_FIELDS_AttackRules(X)                                                            \
    X(bool, hit_requires_higher, true) X(int, margin_damage_per_point, 1)                    \
    X(int, rear_bonus, 0) X(Ints, rear_arc) X(bool, closing_requires_front_arc, true)        \
    X(bool, range1_reaches_same_hex, true) X(bool, leg_grab_pulls_kicker_in, true)           \
    X(int, striking_hand, 0) X(Ints, counter_needs_non_phasing) X(int, default_aim, 0)       \
    X(int, whole_body_location, 0) X(RollSpec, default_defence)
struct AttackRules { HX_FIELDS_AttackRules(HX_MEMBER) };

// §1.16 aom1d1. martial_arts_multiplier: x2 (half points), as margin_damage_per_point;
// multiplied_with: skill ids.
#define HX_FIELDS_Encumbrance(X)                                                            \
    X(Strings, band_names) X(Ints, bands) X(int, characteristic, 0)                          \
    X(int, martial_arts_multiplier, 2) X(Ints, multiplied_with)
struct Encumbrance { HX_FIELDS_Encumbrance(HX_MEMBER) };

#define HX_FIELDS_Helmets(X) \
    X(int, characteristic, 0) X(Strings, material_names) X(Ints, material_pv) X(Ints, material_modifier)
struct Helmets { HX_FIELDS_Helmets(HX_MEMBER) };  // §1.4 aom312

#define HX_FIELDS_Wounds(X) \
    X(Strings, levels) X(Ints, upper_bounds) X(Ints, impairment) X(Ints, pain)
struct Wounds { HX_FIELDS_Wounds(HX_MEMBER) };  // §1.10 aom316, §1.12, §1.14

#define HX_FIELDS_SoakRules(X) X(RollSpec, roll) X(Ints, upper_bounds)
struct SoakRules { HX_FIELDS_SoakRules(HX_MEMBER) };  // §1.11 aom314c

#define HX_FIELDS_PainRules(X)                                                              \
    X(RollSpec, roll) X(int, unconscious_at_most, 0) X(int, stunned_below, 0)                \
    X(int, staggered_below, 0) X(int, stun_penalty, 0) X(int, stagger_penalty, 0)            \
    X(int, stagger_ap_loss, 0) X(bool, self_injury_pain_roll, true)
struct PainRules { HX_FIELDS_PainRules(HX_MEMBER) };  // §1.12 aom1d31, §5.19

#define HX_FIELDS_KnockbackRules(X)                                                         \
    X(RollSpec, roll) X(int, mounted_skill, 0) X(int, off_balance_max_fail, 0)               \
    X(int, off_balance_ap_loss, 0) X(int, knocked_back_ap_loss, 0)                           \
    X(int, knocked_over_min_fail, 0) X(int, distance, 1)                                     \
    X(bool, holder_knocked_back_releases, true)
struct KnockbackRules { HX_FIELDS_KnockbackRules(HX_MEMBER) };  // §1.13 aom1d34, §5.20

// follow_ups_end_hold: maneuver ids
#define HX_FIELDS_HoldRules(X)                                                              \
    X(int, maintain_ap, 0) X(int, release_ap, 0) X(int, break_attempt_bonus, 0)              \
    X(int, arms, 2) X(bool, one_hold_per_holder, true)                                       \
    X(bool, lock_damage_in_holder_phase, true) X(bool, hold_maneuvers_need_the_hold, true)   \
    X(Ints, follow_ups_end_hold)
struct HoldRules { HX_FIELDS_HoldRules(HX_MEMBER) };  // §1.18

// methods: by method id (skill, characteristic); holder_method_choice kNone: "best"
#define HX_FIELDS_BreakHoldRules(X)                                                         \
    X(Strings, method_names) X(std::vector<RollSpec>, methods) X(Ints, escaper_methods)      \
    X(Ints, holder_methods) X(int, holder_method_choice, kNone)
struct BreakHoldRules { HX_FIELDS_BreakHoldRules(HX_MEMBER) };  // aom322d

#define HX_FIELDS_ProneRules(X) X(Ints, allowed) X(bool, kick_any_location, true)
struct ProneRules { HX_FIELDS_ProneRules(HX_MEMBER) };  // §5.18

// close_from_other_hex: a rider's same-height maneuvers close from an adjacent hex;
// pull_down_lands_same: "same" (else "adjacent").
#define HX_FIELDS_MountedRules(X)                                                           \
    X(bool, close_needs_same_height, true) X(bool, range1_kicks_allowed, false)              \
    X(bool, close_from_other_hex, false) X(int, attack_mod, 0)                               \
    X(int, stay_mounted_difficulty, 0) X(RollSpec, stay_mounted)                             \
    X(bool, pull_down_lands_same, false) X(Ints, pull_down_directions)
struct MountedRules { HX_FIELDS_MountedRules(HX_MEMBER) };  // §1.20, §5.26

#define HX_FIELDS_SelfInjuryRules(X) \
    X(PartIds, locations, kNone, kNone, kNone) X(int, damage_type, 0) X(bool, requires_armour, true)
struct SelfInjuryRules { HX_FIELDS_SelfInjuryRules(HX_MEMBER) };  // §1.17, §5.22

// by_aim: by aim row id (0 where the data names none); by_maneuver: by maneuver id;
// has_by_maneuver: 1 where the maneuver is named.
#define HX_FIELDS_DropDodgeRules(X) X(Ints, by_aim) X(Ints, by_maneuver) X(Ints, has_by_maneuver)
struct DropDodgeRules { HX_FIELDS_DropDodgeRules(HX_MEMBER) };  // §5.11

// grab_after_kick_either_arm: an Arm Grab after blocking a kick takes either arm
#define HX_FIELDS_ForearmBlockRules(X)                                                      \
    X(int, vs_unarmed, 0) X(int, vs_close, 0) X(int, vs_melee, 0)                            \
    X(bool, grab_after_kick_either_arm, false)
struct ForearmBlockRules { HX_FIELDS_ForearmBlockRules(HX_MEMBER) };  // aom322e, §5.12, aom3225

// stun_drops, stagger_drops: aim row ids; block_follow_ups_other_weapon,
// two_handed_block_bars: maneuver ids; shield_side_hands: location ids, with their arcs.
#define HX_FIELDS_ArmedRules(X)                                                             \
    X(Ints, hand_locations) X(Ints, arm_locations) X(Ints, reach_beyond)                     \
    X(bool, melee_in_own_hex, false) X(bool, advance_into_occupied, false)                   \
    X(int, stuck_min_wound, 0) X(int, stuck_damage_type, 0) X(int, stuck_characteristic, 0)  \
    X(int, pull_out_worsens, 0) X(Ints, stun_drops) X(Ints, stagger_drops)                   \
    X(Ints, block_follow_ups_other_weapon) X(Ints, two_handed_block_bars)                    \
    X(Ints, shield_side_hands) X(std::vector<Ints>, shield_side_arcs)
struct ArmedRules { HX_FIELDS_ArmedRules(HX_MEMBER) };  // §1.7, §1.12, §1.15, §2.1, §3

#define HX_FIELDS_MovementRules(X)                                                          \
    X(Ints, side_step_offsets_adjacent) X(Ints, side_step_offsets_same_hex)                  \
    X(Ints, throw_landing) X(int, move_forward_max, 0) X(int, move_back_max, 0)              \
    X(bool, move_through_occupied, false) X(bool, dodge_moves_only_on_success, true)         \
    X(bool, dodge_triggers_attacker, false) X(bool, follow_no_farther, true)
struct MovementRules { HX_FIELDS_MovementRules(HX_MEMBER) };

// param_domain: every (turns, locations, options) a maneuver can ever take (the catalogue).
struct Domain {
    std::vector<int> turns, locations, options;  // a location kNone: unaimed
};

// The compiled rules: one per rule set, shared by every fight; read-only once sealed.
struct Tables {
    std::string id;
    bool sealed = false;
    // name tables (ids are indices, in the Python data's order)
    std::vector<std::string> characteristics, skills, specialisms, aim_rows, location_names;
    std::vector<std::string> damage_type_names, hold_kind_names, weapon_ids;
    std::vector<Maneuver> maneuvers;
    std::vector<AimRow> aim;
    std::vector<Location> locations;
    std::vector<DamageTypeRow> damage_types;
    std::vector<Weapon> weapons;
    std::vector<HoldKind> hold_kinds;
    std::vector<std::vector<int>> follow_ons;  // by maneuver id
    std::vector<int> follow_on_defence;        // by maneuver id: 0 blocked_limb, kNone
    DiceRules dice;
    TurnRules turn;
    AttackRules attack;
    Encumbrance encumbrance;
    Helmets helmets;
    int damage_characteristic = 0, damage_resistance = 0;  // [damage], aom316
    Wounds wounds;
    SoakRules soak;
    PainRules pain;
    KnockbackRules knockback;
    HoldRules holds;
    BreakHoldRules break_hold;
    ProneRules prone;
    bool friendly_attacks = false;  // [sides]
    MountedRules mounted;
    SelfInjuryRules self_injury;
    bool lock_damage_uses_margin = false, lock_damage_knockback = false;
    DropDodgeRules drop_dodge;
    ForearmBlockRules forearm_block;
    ArmedRules armed;
    MovementRules movement;
    // derived by seal(), as tables.py derives them
    std::vector<int> is_attack;  // by maneuver id
    int soak_maneuver = kNone, fatal = 0, max_ap_cost = 0, move_reach = 1;
    int max_modes = 1, attack_reach = 2;
    std::vector<int> hold_by_maneuver;  // hold kind id -> the maneuver making it (kNone)
    std::vector<int> action_maneuvers, held_action_maneuvers, reaction_maneuvers;
    std::vector<int> unarmed_maneuvers;
    std::vector<Domain> domain;                   // by maneuver id
    std::vector<std::vector<int>> allowed_upright, allowed_prone;  // by maneuver id

    // The roll a spec id names (kRoll*).
    const RollSpec& roll(int id) const {
        switch (id) {
            case kRollAp: return turn.ap;
            case kRollInitiative: return turn.initiative;
            case kRollSoak: return soak.roll;
            case kRollPain: return pain.roll;
            case kRollKnockback: return knockback.roll;
            case kRollDefaultDefence: return attack.default_defence;
            default: return mounted.stay_mounted;
        }
    }
    int n_maneuvers() const { return static_cast<int>(maneuvers.size()); }
    int n_locations() const { return static_cast<int>(locations.size()); }
};

// allowed_locations: where maneuver m may be aimed (aom317; a Kick anywhere at a prone
// target, aom3213). {kNone}: unaimed.
inline std::vector<int> allowed_locations(const Tables& t, int m, bool prone) {
    const Maneuver& mv = t.maneuvers[static_cast<std::size_t>(m)];
    if (!t.is_attack[static_cast<std::size_t>(m)] || mv.aim_kind == kAimWhole) return {kNone};
    std::vector<int> out;
    const bool any = mv.aim_kind == kAimAny || (mv.kick && prone && t.prone.kick_any_location);
    for (int loc = 0; loc < t.n_locations(); ++loc) {
        const int row = t.locations[static_cast<std::size_t>(loc)].aim;
        if (any || std::find(mv.aim.begin(), mv.aim.end(), row) != mv.aim.end()) {
            out.push_back(loc);
        }
    }
    return out;
}

std::string seal_tables(Tables& t);  // tables.cpp: "" or the first problem found

}  // namespace hexdojo
