// Weapons in a fight, the parts legality reads (envs/rules/weapons.py; RULES §1.7, §2.1, §3;
// aom3142-aom314a, aom3211, aom3225): what is in whose hand, what it can make, which hands a
// hold or a block takes, what a melee weapon reaches. A weapon maneuver's option names the
// hand, and for an attack also the mode: option = hand x Tables::max_modes + mode.
//
// Header-only and allocation-free: legality asks these for every candidate choice.
#pragma once

#include <array>

#include "reasons.hpp"
#include "state.hpp"
#include "tables.hpp"

namespace hexdojo {

inline constexpr std::array<const char*, 2> kHandNames{"right", "left"};  // weapons.HAND_NAMES

// A maneuver whose skill, AP, damage and reach come from a weapon in hand.
inline bool is_weapon_attack(const Maneuver& m) {
    return m.weapon == kNeedMelee || m.weapon == kNeedClose;
}

struct HandMode {
    int hand = 0;
    int mode = 0;
};

// (hand, mode) a weapon maneuver's option names (a Block's or Parry's: the hand); Python's
// divmod, so floor division.
inline HandMode split(const Tables& t, const Maneuver& m, int option) {
    if (!is_weapon_attack(m)) return {option, 0};
    const int n = t.max_modes;
    int q = option / n;
    int r = option % n;
    if (r < 0) {
        r += n;
        --q;
    }
    return {q, r};
}

inline const Weapon* weapon_by_id(const Tables& t, int wid) {
    return wid == kNone ? nullptr : &t.weapons[static_cast<std::size_t>(wid)];
}

// The weapon in fighter i's hand (0 right, 1 left), if any.
inline const Weapon* weapon_in(const Tables& t, const Board& s, int i, int hand) {
    if (hand < 0 || hand > 1) return nullptr;
    return weapon_by_id(t, s.fighters[static_cast<std::size_t>(i)].hands[static_cast<std::size_t>(hand)]);
}

// The id of the weapon fighter i's maneuver m with option is made with (kNone).
inline int used_weapon(const Tables& t, const Board& s, int i, int m, int option) {
    const Maneuver& mv = t.maneuvers[static_cast<std::size_t>(m)];
    if (mv.weapon == kNone) return kNone;
    const int hand = split(t, mv, option).hand;
    return hand >= 0 && hand < 2 ? s.fighters[static_cast<std::size_t>(i)].hands[static_cast<std::size_t>(hand)] : kNone;
}

// The weapon mode (AP, damage, type) of a weapon attack, or nullptr.
inline const WeaponMode* attack_mode(const Tables& t, const Board& s, int i, int m, int option) {
    const Maneuver& mv = t.maneuvers[static_cast<std::size_t>(m)];
    const int wid = is_weapon_attack(mv) ? used_weapon(t, s, i, m, option) : kNone;
    if (wid == kNone) return nullptr;
    const auto& modes = t.weapons[static_cast<std::size_t>(wid)].modes;
    const int mode = split(t, mv, option).mode;
    return mode < static_cast<int>(modes.size()) ? &modes[static_cast<std::size_t>(mode)] : nullptr;
}

// AP of a maneuver: a weapon attack's mode's (aom3142: 2-4 by mode), else its own.
inline int cost(const Tables& t, const Board& s, int i, int m, int option) {
    const WeaponMode* mode = attack_mode(t, s, i, m, option);
    return mode != nullptr ? mode->ap : t.maneuvers[static_cast<std::size_t>(m)].ap;
}

inline int index_in(const std::vector<int>& v, int x) {
    for (std::size_t k = 0; k < v.size(); ++k) {
        if (v[k] == x) return static_cast<int>(k);
    }
    return kNone;
}

inline bool contains(const std::vector<int>& v, int x) { return index_in(v, x) != kNone; }

// The hands (bit 0 right, bit 1 left) whose arm a hold on the fighter immobilises (aom3225:
// the grabbed arm; aom3216: both in a grapple).
inline unsigned held_hands(const Tables& t, const Hold* hold_on) {
    if (hold_on == nullptr) return 0;
    const int free = t.hold_kinds[static_cast<std::size_t>(hold_on->kind)].free_arms;
    if (free >= 2) return 0;
    if (free == 0) return 3;
    const int k = index_in(t.armed.arm_locations, hold_on->location);
    return k == kNone ? 1U : 1U << k;
}

// The hands (bit 0 right, bit 1 left) fighter i keeps on the hold he has (aom3225: the Arm
// Grab's grabbing hand stays on the arm; his follow-ups use "his/her other hand"): the hand
// the hold names, or for a board set up without one the first empty hand in the striking
// order (attack.striking_hand).
inline unsigned grip_hands(const Tables& t, const Board& s, int i) {
    const Hold* h = s.hold_by(i);
    if (h == nullptr) return 0;
    const int n = t.hold_kinds[static_cast<std::size_t>(h->kind)].holder_arms;
    if (n <= 0) return 0;
    if (n >= 2) return 3;
    if (h->hand == 0 || h->hand == 1) return 1U << h->hand;
    const auto& hands = s.fighters[static_cast<std::size_t>(i)].hands;
    const int first = t.attack.striking_hand;
    return hands[static_cast<std::size_t>(first)] == kNone || hands[static_cast<std::size_t>(1 - first)] != kNone
               ? 1U << first : 1U << (1 - first);
}

// The hand whose arm a block locked (restrict an arm location, aom3145, aom322e), or kNone.
inline int locked_hand(const Tables& t, int restrict_location) {
    return restrict_location == kNone ? kNone : index_in(t.armed.arm_locations, restrict_location);
}

// Arms of fighter i that a weapon in hand or a locked weapon arm takes from those a hold
// leaves free: an arm maneuver needs an empty hand (aom3221: a Martial Strike follows a
// one-handed, not a two-handed, block).
inline int busy_arms(const Tables& t, const Board& s, int i, const Hold* hold_on,
                     int restrict_location) {
    const unsigned held = held_hands(t, hold_on);
    const auto& hands = s.fighters[static_cast<std::size_t>(i)].hands;
    unsigned busy = 0;
    for (unsigned h = 0; h < 2; ++h) {
        if (hands[h] != kNone) busy |= 1U << h;
    }
    busy &= ~held;
    const int lk = locked_hand(t, restrict_location);
    if (lk != kNone && !(held & (1U << lk))) busy |= 1U << lk;
    return __builtin_popcount(busy);
}

// The hand an unarmed one-handed maneuver of fighter i is made with (aom3221, aom3225: not a
// held arm, not the hand keeping his own hold, not one holding a weapon or locked by a block):
// attack.striking_hand when both are free; kNone when none is.
inline int striking_hand(const Tables& t, const Board& s, int i, int restrict_location = kNone) {
    const auto& hands = s.fighters[static_cast<std::size_t>(i)].hands;
    const unsigned busy = held_hands(t, s.hold_on(i)) | grip_hands(t, s, i);
    const int locked = locked_hand(t, restrict_location);
    const int first = t.attack.striking_hand;
    for (int h : {first, 1 - first}) {
        if (hands[static_cast<std::size_t>(h)] == kNone && !(busy & (1U << h)) && h != locked) return h;
    }
    return kNone;
}

// Can weapon w make maneuver m (its weapon need)?
inline bool fits(const Maneuver& m, const Weapon& w) {
    switch (m.weapon) {
        case kNeedBlock: return true;
        case kNeedParry: return w.can_parry && w.kind != kKindShield;
        case kNeedMelee: return w.kind == kKindMelee;
        case kNeedClose: return w.kind == kKindClose;
        default: return false;
    }
}

// Does fighter i hold any weapon that can make m (locks aside)?
inline bool has_weapon_for(const Tables& t, const Board& s, int i, const Maneuver& m) {
    for (int wid : s.fighters[static_cast<std::size_t>(i)].hands) {
        if (wid != kNone && fits(m, t.weapons[static_cast<std::size_t>(wid)])) return true;
    }
    return false;
}

// Can fighter i make weapon maneuver m with the hand (and mode) option names? The weapon
// must be there, fit, not be held (aom3225) or locked by a block (restrict_location,
// aom3145), and after a Block not be the blocking one (own_hand: aom3145, a second
// weapon); an attack mode's AP must be paid (aom3142).
inline Reason hand_reason(const Tables& t, const Board& s, int i, int m, int option,
                          const Hold* hold_on, int restrict_location, int own_hand) {
    const Maneuver& mv = t.maneuvers[static_cast<std::size_t>(m)];
    const auto [hand, mode] = split(t, mv, option);
    const FighterState& f = s.fighters[static_cast<std::size_t>(i)];
    const int wid = hand >= 0 && hand < 2 ? f.hands[static_cast<std::size_t>(hand)] : kNone;
    if (wid == kNone) return {R::kNothingInHand, m, {hand}};
    const Weapon& w = t.weapons[static_cast<std::size_t>(wid)];
    if (hand == 1 && w.hands == 2) return {R::kTwoHandedRight, m, {wid}};
    if (!fits(mv, w)) return {R::kWrongWeapon, m, {hand, wid}};
    if (is_weapon_attack(mv)) {
        const int n = static_cast<int>(w.modes.size());
        if (mode >= n) return {R::kNoSuchMode, m, {wid, n}};
        const int ap = w.modes[static_cast<std::size_t>(mode)].ap;
        if (ap > f.ap) return {R::kModeAp, m, {wid, mode, ap, i, f.ap}};
    }
    if (held_hands(t, hold_on) & (1U << hand)) return {R::kArmHeld, m, {hand}};
    if (locked_hand(t, restrict_location) == hand) return {R::kWeaponLocked, m, {wid}};
    if (own_hand == hand && contains(t.armed.block_follow_ups_other_weapon, m)) {
        return {R::kBlockingWeapon, m, {wid}};
    }
    return {};
}

// Is weapon wid lying in fighter i's hex (aom314a: Ready weapon picks it up)?
inline bool lies_here(const Board& s, int i, int wid) {
    const Hex pos = s.fighters[static_cast<std::size_t>(i)].pos;
    for (const auto& d : s.dropped) {
        if (d.hex == pos && (wid == kNone || d.weapon == wid)) return true;
    }
    return false;
}

// Ready weapon (aom314a): the weapon option names is sheathed or lies in the hex, and enough
// hands are empty for it.
inline Reason ready_reason(const Tables& t, const Board& s, int i, int m, int option) {
    const int nw = static_cast<int>(t.weapon_ids.size());
    if (option < 0 || option >= nw) return {R::kReadyBadOption, m, {nw - 1}};
    const FighterState& f = s.fighters[static_cast<std::size_t>(i)];
    if (!contains(f.sheathed, option) && !lies_here(s, i, option)) {
        return {R::kReadyNotThere, m, {option}};
    }
    const unsigned grip = grip_hands(t, s, i);  // a hand kept on a hold readies nothing (aom3225)
    const int empty = (f.hands[0] == kNone && !(grip & 1U) ? 1 : 0) + (f.hands[1] == kNone && !(grip & 2U) ? 1 : 0);
    const int need = t.weapons[static_cast<std::size_t>(option)].hands;
    if (empty < need) return {R::kReadyHands, m, {option, need}};
    return {};
}

// The hexes a melee weapon strikes from pos: the front three (aom3142), a polearm's also
// the three beyond (armed.reach_beyond). Returns how many it wrote.
struct Zone {
    std::array<Hex, 16> hexes;  // the first n are set
    int n = 0;
    bool has(Hex h) const {
        for (int k = 0; k < n; ++k) {
            if (hexes[static_cast<std::size_t>(k)] == h) return true;
        }
        return false;
    }
};

inline Zone strike_zone(const Tables& t, Hex pos, int facing, const Weapon& w) {
    Zone z;
    for (int d : {0, 1, -1}) z.hexes[static_cast<std::size_t>(z.n++)] = neighbour(pos, facing + d);
    if (w.reach >= 2) {
        const Hex ahead = neighbour(pos, facing);
        for (int d : t.armed.reach_beyond) {
            if (z.n < static_cast<int>(z.hexes.size())) {
                z.hexes[static_cast<std::size_t>(z.n++)] = neighbour(ahead, facing + d);
            }
        }
    }
    return z;
}

// Does melee weapon w strike hex h from pos facing `facing` (h in strike_zone, without
// building the zone: the hot path)?
inline bool strikes(const Tables& t, Hex pos, int facing, const Weapon& w, Hex h) {
    for (int d : {0, 1, -1}) {
        if (neighbour(pos, facing + d) == h) return true;
    }
    if (w.reach >= 2) {
        const Hex ahead = neighbour(pos, facing);
        for (int d : t.armed.reach_beyond) {
            if (neighbour(ahead, facing + d) == h) return true;
        }
    }
    return false;
}

// Does one of fighter i's melee weapons in hand strike hex pos as he stands?
inline bool reaches(const Tables& t, const Board& s, int i, Hex pos) {
    const FighterState& f = s.fighters[static_cast<std::size_t>(i)];
    for (int wid : f.hands) {
        if (wid == kNone) continue;
        const Weapon& w = t.weapons[static_cast<std::size_t>(wid)];
        if (w.kind == kKindMelee && strikes(t, f.pos, f.facing, w, pos)) return true;
    }
    return false;
}

// aom3142: a fighter moving from start to pos came into a hex g's melee weapon strikes and
// was not in one at the start of that move (Stand and attack).
inline bool entered_zone(const Tables& t, const Board& s, int g, Hex start, Hex pos) {
    return reaches(t, s, g, pos) && !reaches(t, s, g, start);
}

}  // namespace hexdojo
