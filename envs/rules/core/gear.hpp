// Weapons changing hands in a fight, the resolution side of envs/rules/weapons.py (RULES
// §1.12, §1.15, aom314a, aom1d31, aom1d35): letting go, dropping, dropping what a struck arm
// holds, picking up or drawing, and the stuck weapons' CO penalty. Legality's weapon helpers
// are weapons.hpp's.
#pragma once

#include <string>

#include "fight.hpp"
#include "weapons.hpp"

namespace hexdojo {

// Empty fighter i's hand (both hands for a two-handed weapon); returns the weapon it held
// (kNone). Where the weapon goes is the caller's (the floor, a wound).
inline int let_go(Fight& c, int i, int hand) {
    FighterState& f = c.f(i);
    const int wid = f.hands[static_cast<std::size_t>(hand)];
    if (wid != kNone) {
        const bool both = c.t->weapons[static_cast<std::size_t>(wid)].hands == 2;
        for (int k = 0; k < 2; ++k) {
            int& h = f.hands[static_cast<std::size_t>(k)];
            if (h == wid && (k == hand || both)) h = kNone;
        }
    }
    return wid;
}

// Fighter i lets go of what hand holds; it lies in his hex (aom314a).
inline int drop(Fight& c, int i, int hand, const std::string& why, const std::string& rule) {
    const int wid = let_go(c, i, hand);
    if (wid == kNone) return kNone;
    const Hex pos = c.f(i).pos;
    c.s.dropped.push_back({pos, wid});
    c.log("drops", rule).i("a", i).str("actor", c.name(i)).name("weapon", c.t->weapon_ids, wid)
        .str("hand", kHandNames[static_cast<std::size_t>(hand)]).str("why", why).hex("to", pos);
    return wid;
}

// §1.12 (aom1d31): stunned drops what a struck arm or hand holds, staggered what a struck
// hand holds (effect: 2 stunned, 1 staggered, kPainEffectNames).
inline void drop_struck(Fight& c, int i, int loc, int effect) {
    const ArmedRules& a = c.t->armed;
    const int aim = c.t->locations[static_cast<std::size_t>(loc)].aim;
    static const std::vector<int> none;
    const std::vector<int>& drops = effect == 2 ? a.stun_drops : effect == 1 ? a.stagger_drops : none;
    if (!contains(drops, aim)) return;
    const std::string why = kPainEffectNames[static_cast<std::size_t>(effect)] + ", " +
                            c.t->location_names[static_cast<std::size_t>(loc)] + " struck";
    const std::size_t n = a.hand_locations.size() < a.arm_locations.size() ? a.hand_locations.size()
                                                                           : a.arm_locations.size();
    for (std::size_t k = 0; k < n; ++k) {
        if (loc == a.hand_locations[k] || loc == a.arm_locations[k]) {
            drop(c, i, static_cast<int>(k), why, "aom1d31");
        }
    }
}

// Ready weapon (aom314a): draw wid from its sheath, else pick it up from the hex, into the
// first empty hand (both for a two-handed weapon). Returns "drawn" or "picked up".
inline const char* pick_up(Fight& c, int i, int wid) {
    FighterState& f = c.f(i);
    const char* how = "drawn";
    const int k = index_in(f.sheathed, wid);
    if (k != kNone) {
        f.sheathed.erase(f.sheathed.begin() + k);
    } else {
        for (auto it = c.s.dropped.begin(); it != c.s.dropped.end(); ++it) {
            if (it->hex == f.pos && it->weapon == wid) {
                c.s.dropped.erase(it);
                break;
            }
        }
        how = "picked up";
    }
    if (c.t->weapons[static_cast<std::size_t>(wid)].hands == 2) {
        f.hands = {wid, wid};
    } else if (f.hands[0] == kNone && !(grip_hands(*c.t, c.s, i) & 1U)) {  // not a hand on a hold
        f.hands[0] = wid;
    } else {
        f.hands[1] = wid;
    }
    return how;
}

// §1.15 (aom1d35): each weapon stuck in fighter i takes its penalty off his CO rolls until
// it is pulled out: labelled "stuck <weapon id>".
inline void stuck_penalty(Fight& c, int i, Mods& extra) {
    for (const Stuck& x : c.f(i).stuck) {
        extra.add_owned("stuck " + c.t->weapon_ids[static_cast<std::size_t>(x.weapon)],
                        c.t->weapons[static_cast<std::size_t>(x.weapon)].stuck_penalty);
    }
}

}  // namespace hexdojo
