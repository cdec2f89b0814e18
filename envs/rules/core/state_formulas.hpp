// The formulas that read the fight's state (RULES §1.8, aom315, aom322d): attack_modifiers,
// attack_basic, defence_basic, break_hold_basics, the one copy (Python's face: the functions
// of the same names in envs/rules/formulas.py); the terms carry the labels the event log
// shows, in a fixed order.
#pragma once

#include <string>

#include "fight.hpp"
#include "weapons.hpp"

namespace hexdojo {

// §1.8: the modifiers of x's maneuver on y aimed at location (kNone: unaimed): the
// maneuver's own, aim, rear (aom315), holds (aom3225, aom322a), mounted (aom3221).
inline void attack_modifiers(Fight& c, int x, int y, int maneuver, int location, Mods& extra) {
    const Tables& t = *c.t;
    const Maneuver& m = c.mv(maneuver);
    extra.add("", m.name, m.attack_mod);
    if (location != kNone) {
        extra.add("aim ", t.location_names[static_cast<std::size_t>(location)], aim_attack(t, location));
    }
    if (contains(t.attack.rear_arc, c.s.arc(x, y))) extra.add("rear", "", t.attack.rear_bonus);
    const Hold* on = c.s.hold_on(x);
    if (on != nullptr && on->holder == y) {
        const auto k = static_cast<std::size_t>(on->kind);
        extra.add_owned("held (" + t.hold_kind_names[k] + ")", t.hold_kinds[k].held_attack_mod);
    }
    const Hold* by = c.s.hold_by(x);
    if (by != nullptr) {
        const auto k = static_cast<std::size_t>(by->kind);
        if (by->held == y) {
            extra.add("holding", "", t.hold_kinds[k].holder_attack_bonus);
        } else {
            extra.add_owned("holding (" + t.hold_kind_names[k] + ")", t.hold_kinds[k].holder_other_mod);
        }
    }
    if (c.f(x).mounted && m.mounted == kMountedSameHeight) {
        extra.add("mounted", "", m.has_mounted_attack_mod ? m.mounted_attack_mod : t.mounted.attack_mod);
    }
}

// §1.8 basic attack value; a weapon attack rolls the weapon's skill and adds its attack
// modifier, the closing one when it advances (aom3142, aom3143, aom315).
inline int attack_basic(Fight& c, int x, int y, int maneuver, int location, int option,
                        Terms* out = nullptr) {
    const Maneuver& m = c.mv(maneuver);
    Mods extra;
    attack_modifiers(c, x, y, maneuver, location, extra);
    int skill = m.skill;
    if (m.weapon != kNone) {
        const int wid = used_weapon(*c.t, c.s, x, maneuver, option);
        if (wid != kNone) {
            const Weapon& w = c.t->weapons[static_cast<std::size_t>(wid)];
            skill = w.skill;
            extra.add("", w.name, m.advances ? w.closing_attack_mod : w.attack_mod);
        }
    }
    return c.basic(x, skill, m.characteristic, m.specialisms, extra, kNone, out);
}

// §1.8 defence table (aom315): y's basic defence against x's attack by the reaction rname
// (kNone: the default defence); a Block or Parry rolls the weapon's skill + its parry bonus.
inline int defence_basic(Fight& c, int y, int x, int rname, int attack, int location, int option,
                         Terms* out = nullptr) {
    const Tables& t = *c.t;
    Mods extra;
    const Hold* by = c.s.hold_by(y);
    if (by != nullptr && by->held != x) {
        const auto k = static_cast<std::size_t>(by->kind);
        extra.add_owned("holding (" + t.hold_kind_names[k] + ")", t.hold_kinds[k].holder_other_mod);
    }
    if (rname == kNone) {
        const RollSpec& d = t.attack.default_defence;
        extra.add("bonus", "", d.bonus);
        return c.basic(y, d.skill, d.characteristic, d.specialisms, extra, kNone, out);
    }
    const Maneuver& m = c.mv(rname);
    extra.add("", m.name, defence_bonus(t, rname, attack, location));
    int skill = m.skill;
    if (m.weapon != kNone) {
        const int wid = used_weapon(t, c.s, y, rname, option);
        if (wid != kNone) {
            const Weapon& w = t.weapons[static_cast<std::size_t>(wid)];
            skill = w.skill;
            extra.add_owned(w.name + " parry bonus", w.parry_bonus);
        }
    }
    return c.basic(y, skill, m.characteristic, m.specialisms, extra, kNone, out);
}

struct Side {  // one side of a Break Hold: basic, terms, method id
    int basic = 0;
    Terms terms;
    int method = 0;
};

// aom322d: escaper i breaking hold h by his method method_index (+ the bonus per earlier
// attempt) and the holder resisting with its best method (or the one the rules name).
inline std::pair<Side, Side> break_hold_basics(Fight& c, int i, const Hold& h, int method_index) {
    const Tables& t = *c.t;
    const BreakHoldRules& bh = t.break_hold;
    const HoldKind& kind = t.hold_kinds[static_cast<std::size_t>(h.kind)];
    Side esc;
    esc.method = bh.escaper_methods[static_cast<std::size_t>(method_index)];
    const RollSpec& spec = bh.methods[static_cast<std::size_t>(esc.method)];
    {
        Mods extra;
        extra.add("earlier attempts", "", t.holds.break_attempt_bonus * h.attempts);
        esc.basic = c.basic(i, spec.skill, spec.characteristic, {}, extra, kNone, &esc.terms);
    }
    Side best;
    bool found = false;
    std::vector<int> one{bh.holder_method_choice};
    const std::vector<int>& methods = bh.holder_method_choice == kNone ? bh.holder_methods : one;
    for (int hm : methods) {
        const RollSpec& hs = bh.methods[static_cast<std::size_t>(hm)];
        Mods extra;
        extra.add_owned(t.hold_kind_names[static_cast<std::size_t>(h.kind)] + " hold", kind.break_holder_bonus);
        Terms terms;
        const int hb = c.basic(h.holder, hs.skill, hs.characteristic, {}, extra, kNone, &terms);
        if (!found || hb > best.basic) {
            best = Side{hb, std::move(terms), hm};
            found = true;
        }
    }
    return {std::move(esc), std::move(best)};
}

}  // namespace hexdojo
