// Compiled rules tables of the native core: envs/rules/tables.py's Tables and the parts of
// RulesData (envs/rules/ruleset.py) that the formulas, legality and resolution read.
//
// Python loads and validates the rules data (pydantic), turns every name into a dense int id
// in the Python data's order and fills these structs once per rule set
// (native.compile_tables); Tables::seal() then checks every id against its table, derives
// what tables.py derives (attack flags, candidate lists, param domains, allowed locations,
// reaches) and makes the tables read-only. Numbers are half points (tables.h2), as in Python.
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

// A roll described in the data (ruleset.RollSpec; a Break Hold method has no bonus).
struct RollSpec {
    int skill = kNone;
    int characteristic = kNone;
    std::vector<int> specialisms;
    int bonus = 0;
};

// §1.9 aom317 aiming row; pain §1.12 aom1d31; knock-back §1.13 aom1d34 (a rider's column).
struct AimRow {
    int attack = 0, damage = 0, pain = 0, knockback = 0;
    bool has_knockback_mounted = false;
    int knockback_mounted = 0;
};

struct Location {  // §1.10 aom1c4
    int aim = 0;
};

struct DamageTypeRow {  // pain §1.12, knock-back §1.13
    int pain = 0, knockback = 0;
};

struct WeaponMode {  // aom3142
    std::string name;
    int ap = 0, damage = 0, damage_type = 0;
};

struct Weapon {  // §2.1, aom3142, aom3145, aom314a
    std::string name;
    int kind = kKindClose, skill = 0, hands = 1, reach = 1;
    int attack_mod = 0, closing_attack_mod = 0, parry_bonus = 0, stuck_penalty = 0;
    bool can_parry = true;
    bool shield_side_arc = false;  // block_arc "shield_side" (else "front")
    std::vector<WeaponMode> modes;
};

struct HoldKind {  // §1.18, §5.13-§5.17
    std::string source;
    int held_attack_mod = 0, holder_attack_bonus = 0, holder_other_mod = 0;
    int break_holder_bonus = 0, free_arms = 0;
    int holder_arms = 0;  // the holder's arms the hold keeps busy (aom3225: the grabbing hand)
    std::vector<int> held_may;  // maneuver ids
    bool held_attacks_barred_from_behind = false, painful = false, drops_weapon = false;
    int lock_location = kNone;
};

// One maneuver, every field of ruleset.Maneuver (names as ids, numbers in half points).
struct Maneuver {
    std::string name;
    std::vector<std::string> pages;
    std::vector<std::pair<std::string, std::string>> proposed;
    bool tag_a = false, tag_r = false;  // a follow-on's F: Tables::follow_ons, from Python
    int ap = 0, category = kMove, skill = kNone, characteristic = kNone;
    std::vector<int> specialisms;
    int attack_mod = 0;
    int aim_kind = kAimWhole;
    std::vector<int> aim;  // aim row ids when aim_kind == kAimList
    bool has_damage = false;
    int damage = 0;
    std::vector<int> damage_types;
    int range = 0;
    bool may_close = false, may_advance = false, any_direction = false, may_turn = false;
    std::vector<int> reacts_to;  // trigger ids
    std::vector<int> against;    // maneuver ids
    bool counter = false;
    int defence_bonus = 0;
    bool bonus_by_attack = false, front_arc_only = false;
    int moves = kNone, self_injury = kNone, self_injury_skill = kNone;
    int self_injury_extra = 0;
    int limb = kNone;
    bool kick = false, usable_when_held = false, knocks_prone = false, no_defence = false;
    bool no_knockback = false, ends_hold = false, unhorses = false;
    int hold = kNone, needs_hold = kNone;
    int mounted = kMountedAllowed;
    bool has_mounted_attack_mod = false;
    int mounted_attack_mod = 0;
    bool available = true;
    int weapon = kNone;
    bool advances = false, armed_only = false;
};

struct DiceRules { int die_sides = 6, per_die = 6, max_risk = 6; };

struct TurnRules {
    int minimum_ap = 0, ap_rounding = 0, turn_limit = 1;  // ap_rounding: down, up, nearest
    bool unused_ap_lost = true;
    RollSpec ap, initiative;
};

struct AttackRules {
    bool hit_requires_higher = true;
    int margin_damage_per_point = 1;  // half points of damage per half point of margin, x2
    int rear_bonus = 0;
    std::vector<int> rear_arc;
    bool closing_requires_front_arc = true, range1_reaches_same_hex = true;
    bool leg_grab_pulls_kicker_in = true;
    int striking_hand = 0;  // the hand (0 right, 1 left) a one-handed unarmed maneuver takes first
    std::vector<int> counter_needs_non_phasing;  // maneuver ids the phasing fighter may not react with
    int default_aim = 0, whole_body_location = 0;
    RollSpec default_defence;
};

struct Encumbrance {  // §1.16 aom1d1
    std::vector<std::string> band_names;
    std::vector<int> bands;
    int characteristic = 0;
    int martial_arts_multiplier = 2;  // x2 (half points), as margin_damage_per_point
    std::vector<int> multiplied_with;  // skill ids
};

struct Helmets {  // §1.4 aom312
    int characteristic = 0;
    std::vector<std::string> material_names;
    std::vector<int> material_pv, material_modifier;
};

struct Wounds {  // §1.10 aom316, §1.12, §1.14
    std::vector<std::string> levels;
    std::vector<int> upper_bounds, impairment, pain;
};

struct SoakRules { RollSpec roll; std::vector<int> upper_bounds; };  // §1.11 aom314c

struct PainRules {  // §1.12 aom1d31, §5.19
    RollSpec roll;
    int unconscious_at_most = 0, stunned_below = 0, staggered_below = 0;
    int stun_penalty = 0, stagger_penalty = 0, stagger_ap_loss = 0;
    bool self_injury_pain_roll = true;
};

struct KnockbackRules {  // §1.13 aom1d34, §5.20
    RollSpec roll;
    int mounted_skill = 0;
    int off_balance_max_fail = 0, off_balance_ap_loss = 0, knocked_back_ap_loss = 0;
    int knocked_over_min_fail = 0, distance = 1;
    bool holder_knocked_back_releases = true;
};

struct HoldRules {  // §1.18
    int maintain_ap = 0, release_ap = 0, break_attempt_bonus = 0, arms = 2;
    bool one_hold_per_holder = true, lock_damage_in_holder_phase = true;
    bool hold_maneuvers_need_the_hold = true;
    std::vector<int> follow_ups_end_hold;  // maneuver ids
};

struct BreakHoldRules {  // aom322d
    std::vector<std::string> method_names;
    std::vector<RollSpec> methods;  // by method id (skill, characteristic)
    std::vector<int> escaper_methods, holder_methods;
    int holder_method_choice = kNone;  // kNone: "best"
};

struct ProneRules {  // §5.18
    std::vector<int> allowed;
    bool kick_any_location = true;
};

struct MountedRules {  // §1.20, §5.26
    bool close_needs_same_height = true, range1_kicks_allowed = false;
    bool close_from_other_hex = false;  // a rider's same-height maneuvers close from an adjacent hex
    int attack_mod = 0, stay_mounted_difficulty = 0;
    RollSpec stay_mounted;
    bool pull_down_lands_same = false;  // "same" (else "adjacent")
    std::vector<int> pull_down_directions;
};

struct SelfInjuryRules {  // §1.17, §5.22
    std::array<int, 3> locations{kNone, kNone, kNone};  // by BodyPart
    int damage_type = 0;
    bool requires_armour = true;
};

struct DropDodgeRules {  // §5.11
    std::vector<int> by_aim;  // by aim row id (0 where the data names none)
    std::vector<int> by_maneuver;       // by maneuver id
    std::vector<int> has_by_maneuver;   // 1: the maneuver is named
};

struct ForearmBlockRules {  // aom322e, §5.12, aom3225
    int vs_unarmed = 0, vs_close = 0, vs_melee = 0;
    bool grab_after_kick_either_arm = false;  // an Arm Grab after blocking a kick takes either arm
};

struct ArmedRules {  // §1.7, §1.12, §1.15, §2.1, §3
    std::vector<int> hand_locations, arm_locations, reach_beyond;
    bool melee_in_own_hex = false, advance_into_occupied = false;
    int stuck_min_wound = 0, stuck_damage_type = 0, stuck_characteristic = 0;
    int pull_out_worsens = 0;
    std::vector<int> stun_drops, stagger_drops;  // aim row ids
    std::vector<int> block_follow_ups_other_weapon, two_handed_block_bars;  // maneuver ids
    std::vector<int> shield_side_hands;  // location ids, with their arcs below
    std::vector<std::vector<int>> shield_side_arcs;
};

struct MovementRules {
    std::vector<int> side_step_offsets_adjacent, side_step_offsets_same_hex, throw_landing;
    int move_forward_max = 0, move_back_max = 0;
    bool move_through_occupied = false, dodge_moves_only_on_success = true;
    bool dodge_triggers_attacker = false, follow_no_farther = true;
};

// tables.param_domain: every (turns, locations, options) a maneuver can ever take.
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

// tables.allowed_locations: where maneuver m may be aimed (aom317; a Kick anywhere at a prone
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
