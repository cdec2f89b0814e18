// What the pending decision of a native fight is about (State.context() in Python),
// as ids, computed in one place: the Python dict of Fight.context() and the observation's
// ObsContext are both built from it.
#pragma once

#include <utility>
#include <variant>
#include <vector>

#include "fight.hpp"
#include "resolution.hpp"
#include "weapons.hpp"

namespace hexdojo {

struct DecisionContext {
    bool pending = false;
    Decision d;
    int attacker = kNone, attack = kNone, arc = kNone;
    bool aimed = false;       // an attack frame's window: location and closing are known
    int location = kNone;
    bool closing = false;
    int after = kNone;
    Locked locked;            // a follow-on's locked limb, of locked_fighter
    int locked_fighter = kNone;
    bool roll = false;        // a risk or soak decision: the roll context below
    RollContext r;
    int weapon = kNone, mode = kNone, option = kNone;  // a weapon attack's
};

// State.context()'s "attacker": a roll's attacker when the roll is about an attack, else the
// window's (an arc is known), kNone when neither says one (the Python dict and the group
// observation's attacker flag read it here).
inline int context_attacker(const DecisionContext& x) {
    if (x.roll && x.r.attack) return x.r.attacker;
    return x.arc != kNone ? x.attacker : kNone;
}

// The phasing fighter (State.phasing): the innermost phase frame's, kNone outside a phase.
inline int phasing(const Fight& c) {
    for (auto it = c.stack.rbegin(); it != c.stack.rend(); ++it) {
        if (const auto* pf = std::get_if<PhaseFrame>(&*it)) return pf->i;
    }
    return kNone;
}

inline DecisionContext decision_context(Fight& c) {
    DecisionContext x;
    if (!c.has_pending) return x;
    x.pending = true;
    x.d = c.pending;
    const Frame& top = c.stack.back();
    const auto* af = std::get_if<AttackFrame>(&top);
    const Window* w = c.has_window ? &c.window : nullptr;
    if (w != nullptr && w->attacker != kNone) {
        x.attacker = w->attacker;
        x.attack = w->attack;
        x.arc = c.s.arc(w->attacker, x.d.fighter);
        if (af != nullptr) {
            x.aimed = true;
            x.location = af->c.location;
            x.closing = af->closed;
        }
    }
    if (w != nullptr && w->after != kNone) {
        x.after = w->after;
        x.locked = window_locked(*w);
        if (x.locked.any()) x.locked_fighter = w->locked_fighter;
    }
    if (x.d.kind == kDRisk || x.d.kind == kDSoak) {
        x.roll = true;
        x.r = roll_context(c);
        if (x.r.attack) {
            x.attacker = x.r.attacker;
            x.attack = x.r.maneuver;
            x.location = x.r.location;
        }
    }
    // a weapon attack: its weapon, mode and option (the attacking choice's)
    const Choice* ch = af != nullptr ? &af->c : nullptr;
    if (const auto* rf = std::get_if<ReactionsFrame>(&top); rf != nullptr && rf->is_move) ch = &rf->c;
    if (const auto* bf = std::get_if<BreakHoldFrame>(&top)) ch = &bf->c;
    const Tables& t = *c.t;
    if (x.attack != kNone && x.attacker != kNone && ch != nullptr && ch->maneuver == x.attack &&
        attack_mode(t, c.s, x.attacker, ch->maneuver, ch->option) != nullptr) {
        x.weapon = used_weapon(t, c.s, x.attacker, ch->maneuver, ch->option);
        x.mode = split(t, c.mv(ch->maneuver), ch->option).mode;
        x.option = ch->option;
    }
    return x;
}

}  // namespace hexdojo
