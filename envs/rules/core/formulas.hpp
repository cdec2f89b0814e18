// The rules' arithmetic that needs no fight state (RULES §1.3, §1.8-§1.17, aom315, aom316,
// aom1d31, aom1d34, aom322d), on compiled Tables and Profiles: the one copy, which resolution
// rolls with and Python's envs/rules/formulas.py calls by name (bind_formulas.cpp).
//
// Every number comes from the Tables (half points); these functions only say how they
// combine, in a fixed order. Totals are returned; the terms (what the event log shows, with
// its labels) only when an out-parameter asks,
// so the hot path allocates nothing: a roll's modifiers are an Extras, a fixed array of
// (prefix, name, value) whose labels are string_views into the Tables' names.
// Ids are trusted here: the bindings (bind_tables.cpp) check them at the boundary.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "profile.hpp"
#include "tables.hpp"

namespace hexdojo {

using Terms = std::vector<std::pair<std::string, int>>;

// One modifier of a roll: its label is prefix + name ("aim " + "Head", "" + "Punch").
struct Term {
    std::string_view prefix, name;
    int value = 0;
    std::string label() const { return std::string(prefix) + std::string(name); }
};

// A roll's modifiers, without allocating (the most a roll gets is well under kCap).
struct Extras {
    static constexpr int kCap = 12;
    std::array<Term, kCap> items{};
    int n = 0;
    void add(std::string_view prefix, std::string_view name, int value) {
        if (n < kCap) items[static_cast<std::size_t>(n++)] = Term{prefix, name, value};
    }
    const Term* begin() const { return items.data(); }
    const Term* end() const { return items.data() + n; }
    Terms terms() const {
        Terms out;
        for (const Term& e : *this) out.emplace_back(e.label(), e.value);
        return out;
    }
};

inline const std::vector<std::string> kPainEffectNames = {
    "none", "staggered", "stunned", "unconscious"};
inline const std::vector<std::string> kKnockbackEffectNames = {
    "none", "off balance", "knocked back", "knocked over"};

inline std::size_t ix(int i) { return static_cast<std::size_t>(i); }

// Index of the first band whose upper bound is >= value (len(bounds) if above all).
inline int band(int value, const std::vector<int>& upper_bounds) {
    int i = 0;
    for (int ub : upper_bounds) {
        if (value <= ub) return i;
        ++i;
    }
    return i;
}

// §1.3: a roll risking n dice scores basic + 2 x the dice's sum - per_die per die risked.
inline int roll_result(int basic_h, int n, int dice_sum, int per_die_h) {
    return 2 * dice_sum + basic_h - per_die_h * n;
}

// §1.16: the encumbrance term of a roll on the encumbrance characteristic (doubled with
// Martial Arts): int(enc_mod x multiplier), truncated as Python's int() truncates.
inline int encumbrance_term(const Tables& t, const Profile& p, int skill) {
    const auto& enc = t.encumbrance;
    bool mult = false;
    for (int s : enc.multiplied_with) mult = mult || (skill != kNone && s == skill);
    return mult ? p.enc_mod * enc.martial_arts_multiplier / 2 : p.enc_mod;
}

// Basic value (half points), formulas.basic: skill + specialisms + characteristic +
// encumbrance (§1.16) + helmet (§1.4 aom312) + extra + the worst wound's impairment (§1.14)
// + the stagger/stun penalty named by status (§1.12). Zero terms are left out (skill and
// characteristic excepted, the encumbrance term too once the fighter has a modifier).
inline int basic(const Tables& t, const Profile& p, int skill, int chr, std::span<const int> specs,
                 const Extras& extra, int worst = 0, int pen = 0, std::string_view status = "",
                 Terms* out = nullptr) {
    int total = 0;
    auto add = [&](std::string_view label, int v) {
        total += v;
        if (out) out->emplace_back(std::string(label), v);
    };
    if (skill != kNone) {
        add(t.skills[ix(skill)], p.skill(skill));
        int sp = 0;
        for (int s : specs) sp += p.specs[ix(s)];
        if (sp) add("specialism", sp);
    }
    if (chr != kNone) {
        add(t.characteristics[ix(chr)], p.chr(chr));
        if (chr == t.encumbrance.characteristic && p.enc_mod) {
            add("encumbrance", encumbrance_term(t, p, skill));
        }
        if (p.helmet_mod && chr == t.helmets.characteristic) add("helmet", p.helmet_mod);
    }
    for (const Term& e : extra) {
        if (!e.value) continue;
        total += e.value;
        if (out) out->emplace_back(e.label(), e.value);
    }
    if (const int imp = t.wounds.impairment[ix(worst)]) add("wounds", imp);
    if (pen) add(status.empty() ? std::string_view("penalty") : status, pen);
    return total;
}

// What a fighter's condition takes off every roll: the worst wound's impairment (§1.14)
// plus this turn's stagger/stun penalty (§1.12).
inline int penalty(const Tables& t, int worst, int pen) { return t.wounds.impairment[ix(worst)] + pen; }

// A data-described roll's basic value (soak, pain, AP, initiative...): its skill,
// characteristic and specialisms, extra and then its bonus, + the condition pen.
inline int spec_basic_of(const Tables& t, const Profile& p, const RollSpec& r, int pen,
                         Extras extra = {}, Terms* out = nullptr) {
    extra.add("bonus", "", r.bonus);
    return basic(t, p, r.skill, r.characteristic, r.specialisms, extra, 0, 0, "", out) + pen;
}

// ---------------------------------------------------------------- attack and defence (§1.8)
// aom317: the attack modifier of aiming at a location, by its aim row.
inline int aim_attack(const Tables& t, int loc) { return t.aim[ix(t.locations[ix(loc)].aim)].attack; }

// aom315 table: a defensive reaction's own bonus, the only part of a defence that depends
// on the attack (Drop Dodge by maneuver or aim, §5.11; Forearm Block against weapons, §5.12).
inline int defence_bonus(const Tables& t, int rname, int attack, int location) {
    const Maneuver& m = t.maneuvers[ix(rname)];
    if (m.bonus_by_attack) {
        const auto& dd = t.drop_dodge;
        if (attack != kNone && dd.has_by_maneuver[ix(attack)]) return dd.by_maneuver[ix(attack)];
        const int aim = location != kNone ? t.locations[ix(location)].aim : t.attack.default_aim;
        return dd.by_aim[ix(aim)];
    }
    if (m.category == kBlock) {
        const int need = attack != kNone ? t.maneuvers[ix(attack)].weapon : kNone;
        if (need == kNeedClose) return t.forearm_block.vs_close;
        if (need == kNeedMelee) return t.forearm_block.vs_melee;
        return t.forearm_block.vs_unarmed;
    }
    return m.defence_bonus;
}

// aom315: how much the attack must exceed the defence: 1 against a Leg Grab (aom3226) and
// with attack.hit_requires_higher (§5.2), else 0.
inline int hit_threshold(const Tables& t, int reaction) {
    if (reaction != kNone && t.maneuvers[ix(reaction)].category == kLegGrab) return 1;
    return t.attack.hit_requires_higher ? 1 : 0;
}

inline bool hits(const Tables& t, int attack_result, int defence_result, int reaction) {
    return attack_result - defence_result >= hit_threshold(t, reaction);
}

// §1.6: of two simultaneous attacks, each lands that is at least the other.
inline bool counter_hits(int attack_result, int other_result) { return attack_result >= other_result; }

// aom322d: the escaper must score higher than the holder.
inline bool break_succeeds(int escaper_result, int holder_result) { return escaper_result > holder_result; }

// ---------------------------------------------------------------- damage and wounds (§1.10)
// aom3221: the striker's choice among the maneuver's damage types (needs one at least).
inline int damage_type(const Tables& t, int maneuver, int option) {
    const auto& types = t.maneuvers[ix(maneuver)].damage_types;
    const int last = static_cast<int>(types.size()) - 1;
    return types[ix(option < last ? option : last)];
}

// aom316: the damage roll's modifiers: the rating (a weapon mode's, or the maneuver's), the
// margin (attack.margin_damage_per_point of it, truncated) and the location.
inline Extras damage_extra(const Tables& t, int maneuver, int margin, int loc, bool use_margin = true,
                           std::optional<int> rating = std::nullopt) {
    const Maneuver& m = t.maneuvers[ix(maneuver)];
    Extras e;
    e.add("rating", "", rating ? *rating : (m.has_damage ? m.damage : 0));
    const long long per = t.attack.margin_damage_per_point;  // x2
    e.add("margin", "", use_margin ? static_cast<int>(margin * per / 2) : 0);
    e.add("location ", t.location_names[ix(loc)], t.aim[ix(t.locations[ix(loc)].aim)].damage);
    return e;
}

inline int damage_basic_of(const Tables& t, const Profile& p, int pen, int maneuver, int margin,
                           int loc, bool use_margin = true, std::optional<int> rating = std::nullopt) {
    const Extras e = damage_extra(t, maneuver, margin, loc, use_margin, rating);
    return basic(t, p, kNone, t.damage_characteristic, {}, e) + pen;
}

// aom316: what a damage roll must beat: the resistance characteristic + the PV at loc.
inline int damage_resistance(const Tables& t, const Profile& p, int loc) {
    return p.chr(t.damage_resistance) + p.pv[ix(loc)];
}

// §1.10 wound table: the level (0 None .. fatal) of damage exceeding DR by diff.
inline int wound_level(const Tables& t, int diff) { return band(diff, t.wounds.upper_bounds); }

// §1.11: a wound from an attack or a lock may be soaked by a victim with the AP.
inline bool can_soak(const Tables& t, int level, int ap, bool self_inflicted = false) {
    return level > 0 && !self_inflicted && ap >= t.maneuvers[ix(t.soak_maneuver)].ap;
}

inline int soak_basic_of(const Tables& t, const Profile& p, int pen = 0) {
    return spec_basic_of(t, p, t.soak.roll, pen);
}

// §1.11 (aom314c): wound levels removed by a soak roll's result.
inline int soak_levels(const Tables& t, int result) { return band(result, t.soak.upper_bounds); }

// ---------------------------------------------------------------- pain (§1.12, aom1d31)
// The pain roll's modifiers: damage type, location and the new wound's level.
inline Extras pain_extra(const Tables& t, int dtype, int loc, int level) {
    Extras e;
    e.add("", t.damage_type_names[ix(dtype)], t.damage_types[ix(dtype)].pain);
    e.add("location ", t.location_names[ix(loc)], t.aim[ix(t.locations[ix(loc)].aim)].pain);
    e.add("", t.wounds.levels[ix(level)], t.wounds.pain[ix(level)]);
    return e;
}

inline int pain_basic_of(const Tables& t, const Profile& p, int pen, int dtype, int loc, int level) {
    return spec_basic_of(t, p, t.pain.roll, pen, pain_extra(t, dtype, loc, level));
}

// §1.12 bands of the pain roll: 3 unconscious, 2 stunned, 1 staggered, 0 none
// (kPainEffectNames).
inline int pain_effect(const Tables& t, int result) {
    if (result <= t.pain.unconscious_at_most) return 3;
    if (result < t.pain.stunned_below) return 2;
    if (result < t.pain.staggered_below) return 1;
    return 0;
}

// ---------------------------------------------------------------- knock-back (§1.13, aom1d34)
// The knock-back roll's modifiers: damage type and location (a rider's own column).
inline Extras knockback_extra(const Tables& t, int dtype, int loc, bool mounted) {
    const AimRow& row = t.aim[ix(t.locations[ix(loc)].aim)];
    const int loc_mod = mounted && row.has_knockback_mounted ? row.knockback_mounted : row.knockback;
    Extras e;
    e.add("", t.damage_type_names[ix(dtype)], t.damage_types[ix(dtype)].knockback);
    e.add("location ", t.location_names[ix(loc)], loc_mod);
    return e;
}

// Athletics on foot, the data's mounted skill in the saddle.
inline int knockback_skill(const Tables& t, bool mounted) {
    return mounted ? t.knockback.mounted_skill : t.knockback.roll.skill;
}

inline int knockback_basic_of(const Tables& t, const Profile& p, int pen, int dtype, int loc,
                              bool mounted = false) {
    const auto& kb = t.knockback;
    return basic(t, p, knockback_skill(t, mounted), kb.roll.characteristic, kb.roll.specialisms,
                 knockback_extra(t, dtype, loc, mounted)) + pen;
}

struct KnockbackBand {
    int effect = 0;  // kKnockbackEffectNames
    int ap_lost = 0;
    bool knocked_over = false;
};

// §1.13 (aom1d34, §5.20): what failing the knock-back roll by fail half points does.
inline KnockbackBand knockback_band(const KnockbackRules& kb, int fail) {
    if (fail <= 0) return {0, 0, false};
    if (fail <= kb.off_balance_max_fail) return {1, kb.off_balance_ap_loss, false};
    if (fail < kb.knocked_over_min_fail) return {2, kb.knocked_back_ap_loss, false};
    return {3, kb.knocked_back_ap_loss, true};
}

// ---------------------------------------------------------------- self-injury (§1.17)
// Striking armour hurts: the target's DR at loc - the striker's skill (+ specialisms) + the
// maneuver's extra; none when the location is unarmoured and self_injury.requires_armour.
inline std::optional<int> self_injury_basic(const Tables& t, const Profile& xp, const Profile& yp,
                                            int maneuver, int loc) {
    const Maneuver& m = t.maneuvers[ix(maneuver)];
    const int skill = xp.skill(m.self_injury_skill) + xp.spec_total(m.specialisms);
    const int value = damage_resistance(t, yp, loc) - skill + m.self_injury_extra;
    const bool armoured = yp.pv[ix(loc)] > 0;
    if (armoured || !t.self_injury.requires_armour) return value;
    return std::nullopt;
}

}  // namespace hexdojo
