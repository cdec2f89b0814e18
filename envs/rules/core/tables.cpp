// Tables::seal: every id checked against its table, then what tables.py derives.
#include <algorithm>
#include <string>
#include <vector>

#include "tables.hpp"

namespace hexdojo {

namespace {

// The first problem found, as "field: value v: allowed lo..hi" (Python raises it).
class Checker {
  public:
    std::string problem;

    void id(const std::string& field, int v, int n, bool none_ok = false) {
        if (!problem.empty() || (none_ok && v == kNone) || (v >= 0 && v < n)) return;
        problem = field + ": id " + std::to_string(v) + ": allowed 0.." + std::to_string(n - 1) +
                  (none_ok ? " or -1 (none)" : "");
    }
    void ids(const std::string& field, const std::vector<int>& vs, int n) {
        for (int v : vs) id(field, v, n);
    }
    void size(const std::string& field, std::size_t got, std::size_t want) {
        if (!problem.empty() || got == want) return;
        problem = field + ": " + std::to_string(got) + " entries, " + std::to_string(want) +
                  " needed";
    }
};

int count(const std::vector<std::string>& names) { return static_cast<int>(names.size()); }

void check_roll(Checker& c, const Tables& t, const std::string& field, const RollSpec& r) {
    c.id(field + ".skill", r.skill, count(t.skills));
    c.id(field + ".characteristic", r.characteristic, count(t.characteristics));
    c.ids(field + ".specialisms", r.specialisms, count(t.specialisms));
}

void check_maneuver(Checker& c, const Tables& t, const Maneuver& m) {
    const std::string f = "maneuvers." + m.name;
    const int nm = t.n_maneuvers();
    c.id(f + ".category", m.category, count(kCategoryNames));
    c.id(f + ".skill", m.skill, count(t.skills), true);
    c.id(f + ".characteristic", m.characteristic, count(t.characteristics), true);
    c.ids(f + ".specialisms", m.specialisms, count(t.specialisms));
    c.id(f + ".aim_kind", m.aim_kind, 3);
    c.ids(f + ".aim", m.aim, count(t.aim_rows));
    c.ids(f + ".damage_types", m.damage_types, count(t.damage_type_names));
    c.ids(f + ".reacts_to", m.reacts_to, count(kTriggerNames));
    c.ids(f + ".against", m.against, nm);
    c.id(f + ".moves", m.moves, count(kMovesNames), true);
    c.id(f + ".self_injury", m.self_injury, count(kBodyPartNames), true);
    c.id(f + ".self_injury_skill", m.self_injury_skill, count(t.skills), true);
    c.id(f + ".limb", m.limb, count(kLimbNames), true);
    c.id(f + ".hold", m.hold, count(t.hold_kind_names), true);
    c.id(f + ".needs_hold", m.needs_hold, count(t.hold_kind_names), true);
    c.id(f + ".mounted", m.mounted, count(kMountedNames));
    c.id(f + ".weapon", m.weapon, count(kWeaponNeedNames), true);
    if (m.ap < 0 && c.problem.empty()) c.problem = f + ".ap: " + std::to_string(m.ap) + ": allowed 0 or more";
}

void check_sizes(Checker& c, const Tables& t) {
    const auto nm = t.maneuvers.size();
    c.size("aim", t.aim.size(), t.aim_rows.size());
    c.size("locations", t.locations.size(), t.location_names.size());
    c.size("damage_types", t.damage_types.size(), t.damage_type_names.size());
    c.size("weapons", t.weapons.size(), t.weapon_ids.size());
    c.size("hold_kinds", t.hold_kinds.size(), t.hold_kind_names.size());
    c.size("follow_ons", t.follow_ons.size(), nm);
    c.size("follow_on_defence", t.follow_on_defence.size(), nm);
    c.size("wounds.upper_bounds", t.wounds.upper_bounds.size() + 1, t.wounds.levels.size());
    c.size("wounds.impairment", t.wounds.impairment.size(), t.wounds.levels.size());
    c.size("wounds.pain", t.wounds.pain.size(), t.wounds.levels.size());
    c.size("encumbrance.bands", t.encumbrance.bands.size(), t.encumbrance.band_names.size());
    c.size("helmets.material_pv", t.helmets.material_pv.size(), t.helmets.material_names.size());
    c.size("helmets.material_modifier", t.helmets.material_modifier.size(),
           t.helmets.material_names.size());
    c.size("break_hold.methods", t.break_hold.methods.size(), t.break_hold.method_names.size());
    c.size("drop_dodge.by_aim", t.drop_dodge.by_aim.size(), t.aim_rows.size());
    c.size("drop_dodge.by_maneuver", t.drop_dodge.by_maneuver.size(), nm);
    c.size("drop_dodge.has_by_maneuver", t.drop_dodge.has_by_maneuver.size(), nm);
    c.size("armed.shield_side_arcs", t.armed.shield_side_arcs.size(),
           t.armed.shield_side_hands.size());
    if (t.wounds.levels.empty() && c.problem.empty()) c.problem = "wounds.levels: none";
    if (t.maneuvers.empty() && c.problem.empty()) c.problem = "maneuvers: none";
}

void check_rules(Checker& c, const Tables& t) {
    const int nm = t.n_maneuvers(), nl = t.n_locations(), na = count(t.aim_rows);
    const int nd = count(t.damage_type_names), nc = count(t.characteristics);
    for (const auto& m : t.maneuvers) check_maneuver(c, t, m);
    for (const auto& l : t.locations) c.id("locations.aim", l.aim, na);
    for (const auto& f : t.follow_ons) c.ids("follow_ons", f, nm);
    for (int d : t.follow_on_defence) c.id("follow_on_defence", d, 1, true);
    for (const auto& w : t.weapons) {
        c.id("weapons." + w.name + ".skill", w.skill, count(t.skills));
        c.id("weapons." + w.name + ".kind", w.kind, count(kWeaponKindNames));
        for (const auto& md : w.modes) c.id("weapons." + w.name + ".modes", md.damage_type, nd);
    }
    for (const auto& k : t.hold_kinds) {
        c.ids("holds.kinds.held_may", k.held_may, nm);
        c.id("holds.kinds.lock_location", k.lock_location, nl, true);
    }
    for (int r = kRollAp; r <= kRollStayMounted; ++r) check_roll(c, t, kRollNames[r], t.roll(r));
    for (const auto& m : t.break_hold.methods) check_roll(c, t, "break_hold.methods", m);
    const int nmeth = count(t.break_hold.method_names);
    c.ids("break_hold.escaper_methods", t.break_hold.escaper_methods, nmeth);
    c.ids("break_hold.holder_methods", t.break_hold.holder_methods, nmeth);
    c.id("break_hold.holder_method_choice", t.break_hold.holder_method_choice, nmeth, true);
    c.id("attack.default_aim", t.attack.default_aim, na);
    c.id("attack.whole_body_location", t.attack.whole_body_location, nl);
    c.id("encumbrance.characteristic", t.encumbrance.characteristic, nc);
    c.ids("encumbrance.multiplied_with", t.encumbrance.multiplied_with, count(t.skills));
    c.id("helmets.characteristic", t.helmets.characteristic, nc);
    c.id("damage.characteristic", t.damage_characteristic, nc);
    c.id("damage.resistance", t.damage_resistance, nc);
    c.id("knockback.mounted_skill", t.knockback.mounted_skill, count(t.skills));
    c.ids("holds.follow_ups_end_hold", t.holds.follow_ups_end_hold, nm);
    c.ids("prone.allowed", t.prone.allowed, nm);
    for (int loc : t.self_injury.locations) c.id("self_injury.locations", loc, nl, true);
    c.id("self_injury.damage_type", t.self_injury.damage_type, nd);
}

void check_armed(Checker& c, const Tables& t) {
    const auto& a = t.armed;
    const int nl = t.n_locations(), nm = t.n_maneuvers(), na = count(t.aim_rows);
    c.ids("armed.hand_locations", a.hand_locations, nl);
    c.ids("armed.arm_locations", a.arm_locations, nl);
    c.id("armed.stuck_min_wound", a.stuck_min_wound, count(t.wounds.levels));
    c.id("armed.stuck_damage_type", a.stuck_damage_type, count(t.damage_type_names));
    c.id("armed.stuck_characteristic", a.stuck_characteristic, count(t.characteristics));
    c.ids("armed.stun_drops", a.stun_drops, na);
    c.ids("armed.stagger_drops", a.stagger_drops, na);
    c.ids("armed.block_follow_ups_other_weapon", a.block_follow_ups_other_weapon, nm);
    c.ids("armed.two_handed_block_bars", a.two_handed_block_bars, nm);
    c.ids("armed.shield_side_hands", a.shield_side_hands, nl);
    // relative directions 0..5 (0 = front), as ruleset.py validates them
    c.ids("attack.rear_arc", t.attack.rear_arc, 6);
    c.ids("mounted.pull_down_directions", t.mounted.pull_down_directions, 6);
    for (const auto& arc : a.shield_side_arcs) c.ids("armed.shield_side", arc, 6);
    if (t.dice.die_sides < 1 && c.problem.empty()) c.problem = "dice.die_sides: allowed 1 or more";
    if (t.dice.max_risk < 0 && c.problem.empty()) c.problem = "dice.max_risk: allowed 0 or more";
}

// param_domain's options: hand x mode, hand, weapon, move distance, side-step,
// advance, damage type, landing hex, Break Hold method, or none (0).
std::vector<int> domain_options(const Tables& t, const Maneuver& m) {
    std::vector<int> o;
    auto upto = [&o](int n) { for (int k = 0; k < n; ++k) o.push_back(k); };
    const auto& mv = t.movement;
    if (m.weapon == kNeedMelee || m.weapon == kNeedClose) {
        upto(2 * t.max_modes);  // hand x mode (§2.1)
    } else if (m.weapon != kNone || m.category == kDrop) {
        upto(2);  // the hand
    } else if (m.category == kReady) {
        upto(static_cast<int>(t.weapon_ids.size()));  // the weapon
    } else if (m.category == kMove) {
        for (int k = 1; k <= mv.move_forward_max; ++k) o.push_back(k);
        for (int k = 1; k <= mv.move_back_max; ++k) o.push_back(-k);
    } else if (m.moves == kMovesSide) {
        upto(static_cast<int>(mv.side_step_offsets_adjacent.size()));
    } else if (m.may_advance) {
        upto(2);
    } else if (m.damage_types.size() > 1) {
        upto(static_cast<int>(m.damage_types.size()));
    } else if (m.category == kThrow) {
        o = mv.throw_landing;
    } else if (m.category == kBreak) {
        upto(static_cast<int>(t.break_hold.escaper_methods.size()));
    } else {
        o.push_back(0);
    }
    return o;
}

Domain param_domain(const Tables& t, int id) {
    const Maneuver& m = t.maneuvers[static_cast<std::size_t>(id)];
    Domain d;
    if (m.category == kTurn) {
        d.turns = {1, -1, 2, -2, 3};  // a Turn's steps: right, left, two each way, about
    } else if (m.may_turn) {
        d.turns = {0, 1, -1};  // a maneuver that may turn: none, right, left
    } else {
        d.turns = {0};
    }
    d.locations = allowed_locations(t, id, true);  // a Kick may aim anywhere at a prone target
    d.options = domain_options(t, m);
    return d;
}

bool is_attack_category(int c) {
    return c == kStrike || c == kGrab || c == kLock || c == kThrow || c == kPullDown;
}

void derive_lists(Tables& t) {
    for (int i = 0; i < t.n_maneuvers(); ++i) {
        const Maneuver& m = t.maneuvers[static_cast<std::size_t>(i)];
        t.is_attack.push_back(is_attack_category(m.category) ? 1 : 0);
        if (m.category == kSoak && t.soak_maneuver == kNone) t.soak_maneuver = i;
        if (m.hold != kNone) t.hold_by_maneuver[static_cast<std::size_t>(m.hold)] = i;
        if (!m.available) continue;
        if (m.tag_a) t.action_maneuvers.push_back(i);
        if (m.tag_a || m.usable_when_held) t.held_action_maneuvers.push_back(i);
        if (m.tag_r) t.reaction_maneuvers.push_back(i);
        if (!m.armed_only) t.unarmed_maneuvers.push_back(i);
    }
}

void derive(Tables& t) {
    t.hold_by_maneuver.assign(t.hold_kinds.size(), kNone);
    derive_lists(t);
    t.fatal = static_cast<int>(t.wounds.levels.size()) - 1;
    t.max_modes = 1;
    t.max_ap_cost = 0;
    int reach = 1;
    for (const auto& m : t.maneuvers) t.max_ap_cost = std::max(t.max_ap_cost, m.ap);
    for (const auto& w : t.weapons) {
        t.max_modes = std::max(t.max_modes, static_cast<int>(w.modes.size()));
        for (const auto& md : w.modes) t.max_ap_cost = std::max(t.max_ap_cost, md.ap);
        reach = std::max(reach, w.reach);
    }
    t.attack_reach = 1 + reach;
    t.move_reach = std::max({1, t.movement.move_forward_max, t.movement.move_back_max});
    for (int i = 0; i < t.n_maneuvers(); ++i) {
        t.domain.push_back(param_domain(t, i));
        t.allowed_upright.push_back(allowed_locations(t, i, false));
        t.allowed_prone.push_back(allowed_locations(t, i, true));
    }
}

}  // namespace

std::string seal_tables(Tables& t) {
    if (t.sealed) return "the tables are sealed already";
    Checker c;
    check_sizes(c, t);
    if (c.problem.empty()) check_rules(c, t);
    if (c.problem.empty()) check_armed(c, t);
    if (!c.problem.empty()) return c.problem;
    derive(t);
    if (t.soak_maneuver == kNone) return "maneuvers: none of category 'soak'";
    t.sealed = true;
    return "";
}

}  // namespace hexdojo
