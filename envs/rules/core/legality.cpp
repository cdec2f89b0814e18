// The legality layer (legality.hpp): one function per question a referee asks, reasons as
// codes (reasons.hpp). Comments name the rule each check is.
#include "legality.hpp"

#include <type_traits>

#include "fight.hpp"
#include "weapons.hpp"

namespace hexdojo {

namespace {

using Z = std::size_t;

// legality.DEFENSIVE: the defensive reactions
bool defensive(int category) {
    return category == kDodge || category == kBlock || category == kLegGrab ||
           category == kWeaponBlock || category == kParry;
}

bool in_front_arc(int direction, int facing) {
    const int r = relative(direction, facing);
    return r == 0 || r == 1 || r == 5;
}

const std::vector<int>& follow_ons(const Tables& t, int after) {
    static const std::vector<int> none;
    return after == kNone ? none : t.follow_ons[static_cast<Z>(after)];
}

bool holding_or_held(const Board& s, int i) {
    return s.hold_on(i) != nullptr || s.hold_by(i) != nullptr;
}

bool someone_else_at(const Board& s, int i, Hex pos) {
    for (const auto& g : s.fighters) {
        if (g.pos == pos && g.idx != i && g.active()) return true;
    }
    return false;
}

Reason why(R code, int m, std::array<int, 5> a = {}) { return {code, m, a}; }

}  // namespace

// ---------------------------------------------------------------- maneuver level
Reason trigger_reason(const Query& x, int m, const Window& w) {
    const Maneuver& mv = x.mv(m);
    int hits = 0;
    bool only_attack = true;
    for (int tr : mv.reacts_to) {
        if (w.triggers & (1U << tr)) {
            ++hits;
            only_attack = only_attack && tr == 1;  // kTriggerNames[1] == "attack"
        }
    }
    if (hits == 0) return why(R::kNoTrigger, m);
    if (hits == 1 && only_attack && !mv.against.empty() && !contains(mv.against, w.attack)) {
        return why(R::kOnlyAnswers, m);
    }
    return {};
}

Reason maneuver_reason(const Query& x, int i, int m, const Window& w) {
    if (!x.mv(m).available) return why(R::kNotAvailable, m);
    const Hold* hold_on = x.s.hold_on(i);
    if (Reason r = window_reason(x, m, w, hold_on)) return r;
    return fighter_reason(x, i, m, hold_on);
}

// Does the maneuver belong in this window at all (tags, triggers, the §3 graph)?
Reason window_reason(const Query& x, int m, const Window& w, const Hold* hold_on) {
    const Maneuver& mv = x.mv(m);
    if (w.kind == WindowKind::kAction) {
        if (!mv.tag_a && !(mv.usable_when_held && hold_on != nullptr)) return why(R::kNotAction, m);
    } else if (w.kind == WindowKind::kFollowOn) {
        if (!contains(follow_ons(x.t, w.after), m)) return why(R::kNotFollow, m);
        if (w.own_hand != kNone && contains(x.t.armed.two_handed_block_bars, m)) {
            const Weapon* blocker = weapon_in(x.t, x.s, w.fighter, w.own_hand);
            if (blocker != nullptr && blocker->hands == 2) {  // aom3221
                return why(R::kTwoHandedBlockBar, m, {x.f(w.fighter).hands[static_cast<Z>(w.own_hand)]});
            }
        }
    } else if (w.has_reactions_only) {
        if (!contains(w.reactions_only, m)) return why(R::kOnlyReactions, m);
    } else {
        if (!mv.tag_r) return why(R::kNotReaction, m);
        if (Reason r = trigger_reason(x, m, w)) return r;
        if (w.phasing != kNone && w.phasing == w.fighter && contains(x.t.attack.counter_needs_non_phasing, m)) {
            return why(R::kPhasingCounter, m);  // aom3221, aom3225: "a non-phasing character"
        }
        if (defensive(mv.category) && w.no_defence) return why(R::kNoDefence, m);  // aom3227
        if (window_locked(w).any()) return limb_reason(x, w.fighter, m, hold_on, window_locked(w));
    }
    return {};
}

// The limb of the target that stays locked while `after` is followed up (§3, aom322e,
// aom3145: the limb whose attack `blocked` was blocked; a weapon attack's: the weapon arm).
Locked locked_limb(const Tables& t, int after, int blocked, int blocked_arm) {
    if (after != kNone && blocked != kNone && t.follow_on_defence[static_cast<Z>(after)] == 0) {
        const Maneuver& b = t.maneuvers[static_cast<Z>(blocked)];
        // the arm that struck (aom3225: "the arm that attacked"), armed or not
        if ((b.weapon != kNone || b.limb == kLimbArm) && blocked_arm != kNone) return {kNone, blocked_arm};
        return {b.limb, kNone};
    }
    return {};
}

// Is the limb free? An arm maneuver needs a free arm: a hold leaves its kind's free_arms
// (aom3225), a locked limb takes one more (aom322e), a hand holding a weapon is not free
// (weapons.busy_arms), nor one the fighter keeps on his own hold (aom3225: the follow-up is
// made "using his/her other hand"). A locked leg or head makes no maneuver.
Reason limb_reason(const Query& x, int i, int m, const Hold* hold_on, Locked locked) {
    const Maneuver& mv = x.mv(m);
    if (mv.limb == kNone) return {};
    const Tables& t = x.t;
    if (mv.limb == kLimbArm) {
        int arms = hold_on != nullptr ? t.hold_kinds[static_cast<Z>(hold_on->kind)].free_arms
                                      : t.holds.arms;
        if (locked.limb == kLimbArm) --arms;
        const auto& hands = x.f(i).hands;
        const int lk = locked_hand(t, locked.location);
        if (hands[0] != kNone || hands[1] != kNone || lk != kNone) {
            arms -= busy_arms(t, x.s, i, hold_on, locked.location);
        }
        if (const unsigned grip = grip_hands(t, x.s, i)) {
            unsigned taken = held_hands(t, hold_on);
            for (unsigned h = 0; h < 2; ++h) {
                if (hands[h] != kNone || static_cast<int>(h) == lk) taken |= 1U << h;
            }
            arms -= __builtin_popcount(grip & ~taken);
        }
        if (arms < 1) {
            const int kind = hold_on != nullptr ? hold_on->kind : kNone;
            const bool bare_locked = lk != kNone && hands[static_cast<Z>(lk)] == kNone;  // a blocked punch's arm
            return why(locked.limb == kLimbArm || bare_locked ? R::kArmLocked : R::kNoFreeArm, m, {kind});
        }
    } else if (mv.limb == locked.limb) {
        return why(R::kLimbLocked, m, {locked.limb});
    }
    return {};
}

// Can this fighter, as he stands (AP, prone, held, holding, mounted), use it? ap: with that
// many AP instead of his own (defence_options asks ahead).
Reason fighter_reason(const Query& x, int i, int m, const Hold* hold_on, int ap) {
    const Tables& t = x.t;
    const Maneuver& mv = x.mv(m);
    const FighterState& f = x.f(i);
    const int have = ap == kNone ? f.ap : ap;
    if (mv.ap > have) return why(R::kNeedsAp, m, {mv.ap, i, have});
    if (f.prone && !contains(t.prone.allowed, m)) return why(R::kProneBars, m);  // §5.18
    if (mv.category == kStand && !f.prone) return why(R::kNotProne, m);
    if (mv.category == kBreak && hold_on == nullptr) return why(R::kNotHeld, m, {i});
    if (hold_on != nullptr) {
        const HoldKind& kind = t.hold_kinds[static_cast<Z>(hold_on->kind)];
        if (!contains(kind.held_may, m)) return why(R::kHeldBars, m, {hold_on->kind});  // §1.18
        if (kind.held_attacks_barred_from_behind && hold_on->from_behind && x.attack(m)) {
            return why(R::kHeldFromBehind, m);  // aom3216
        }
    }
    if (Reason r = limb_reason(x, i, m, hold_on)) return r;
    if (Reason r = gear_reason(x, i, m)) return r;
    if (x.s.hold_by(i) != nullptr && (mv.category == kMove || mv.moves != kNone)) {
        return why(R::kHoldingStays, m);
    }
    if (f.mounted && mv.mounted == kMountedNo) return why(R::kNotMounted, m);  // §1.20
    if (f.mounted && mv.kick && mv.range == 1 && !t.mounted.range1_kicks_allowed) {
        return why(R::kNoSaddleKick, m);  // §5.26
    }
    return {};
}

// Weapon maneuvers need the weapon (aom3142, aom3145, aom3211), Ready weapon something to
// ready and a hand for it (aom314a), Pull out weapon a weapon stuck in one (aom1d35).
Reason gear_reason(const Query& x, int i, int m) {
    const Maneuver& mv = x.mv(m);
    const FighterState& f = x.f(i);
    if (mv.weapon != kNone && !has_weapon_for(x.t, x.s, i, mv)) return why(R::kNeedsWeapon, m);
    if (mv.category == kReady) {
        if (f.sheathed.empty() && !lies_here(x.s, i, kNone)) return why(R::kNothingToReady, m);
        if (f.hands[0] != kNone && f.hands[1] != kNone) return why(R::kNoEmptyHand, m);
    }
    if (mv.category == kDrop && f.hands[0] == kNone && f.hands[1] == kNone) {
        return why(R::kNothingInHands, m);
    }
    if (mv.category == kPullOut && f.stuck.empty()) return why(R::kNothingStuck, m, {i});
    return {};
}

// ---------------------------------------------------------------- target level
Reason target_reason(const Query& x, int i, int m, int target) {
    const Tables& t = x.t;
    const Maneuver& mv = x.mv(m);
    const Board& s = x.s;
    if (!x.attack(m)) return target == kNone ? Reason{} : why(R::kTakesNoTarget, m);
    if (target < 0 || target >= s.n() || target == i) return why(R::kNeedsOpponent, m);
    const FighterState& f = x.f(i);
    const FighterState& g = x.f(target);
    if (!g.active()) return why(R::kTargetOut, m, {target, static_cast<int>(g.out)});
    if (s.sides[static_cast<Z>(i)] == s.sides[static_cast<Z>(target)] && !t.friendly_attacks) {
        return why(R::kSameSide, m, {target});
    }
    const Hold* hold_on = s.hold_on(i);
    if (hold_on != nullptr && hold_on->holder != target) return why(R::kHeldOnlyHolder, m);
    const Hold* holding = s.hold_by(i);
    const bool holds_target = holding != nullptr && holding->held == target;
    if (mv.hold != kNone && holding != nullptr && !holds_target && t.holds.one_hold_per_holder) {
        return why(R::kOneHold, m, {holding->held});
    }
    if (mv.needs_hold != kNone && (!holds_target || holding->kind != mv.needs_hold)) {
        return why(R::kNeedsHoldKind, m, {target});
    }
    if (mv.category == kPullDown && !holds_target) return why(R::kPullDownNeedsHold, m, {target});
    if (mv.category == kThrow && !holds_target) return why(R::kThrowNeedsHold, m, {target});  // aom3228
    if (f.mounted && mv.mounted == kMountedSameHeight && t.mounted.close_needs_same_height &&
        g.height != f.height) {
        return why(R::kSameHeight, m);  // §1.20
    }
    return {};
}

Reason location_reason(const Query& x, int i, int m, int target, int loc) {
    const Tables& t = x.t;
    const Maneuver& mv = x.mv(m);
    if (!x.attack(m) || mv.aim_kind == kAimWhole) {
        return loc == kNone ? Reason{} : why(R::kWholeBody, m);
    }
    if (loc < 0 || loc >= t.n_locations()) return why(R::kNeedsAim, m);
    const bool prone = target >= 0 && target < x.s.n() && x.f(target).prone;
    const auto& allowed = prone ? t.allowed_prone[static_cast<Z>(m)] : t.allowed_upright[static_cast<Z>(m)];
    if (!contains(allowed, loc)) return why(R::kCannotAim, m, {loc});  // aom317
    if (mv.needs_hold != kNone) {
        const Hold* h = x.s.hold_by(i);
        if (h != nullptr && h->location != kNone && h->location != loc) {
            return why(R::kLockHeldArm, m, {h->location});
        }
    }
    return {};
}

// aom3225: an Arm Grab after a Forearm Block grabs "the arm that attacked him/her and that
// the character blocked" (the arm that struck, or held the weapon) of the fighter who was
// blocked; after a blocked kick no arm attacked (forearm_block.grab_after_kick).
Reason grab_location_reason(const Query& x, int m, int loc, const Window& w, int target) {
    if (w.locked_fighter != kNone && target != kNone && target != w.locked_fighter) return {};
    if (w.kind != WindowKind::kFollowOn || x.mv(m).category != kGrab) return {};
    if (w.restrict_limb == kNone && w.restrict_location != kNone &&
        contains(x.t.armed.arm_locations, w.restrict_location) && loc != w.restrict_location) {
        return why(R::kGrabBlockedArm, m, {w.restrict_location});
    }
    // a blocked kick: no arm attacked (forearm_block.grab_after_kick)
    if (w.restrict_limb != kNone && w.restrict_limb != kLimbArm && !x.t.forearm_block.grab_after_kick_either_arm) {
        return why(R::kGrabNoArm, m, {w.restrict_limb});
    }
    return {};
}

// ---------------------------------------------------------------- geometry
Path move_path(const Query& x, int i, int turn_by, int option) {
    const FighterState& f = x.f(i);
    const int facing = turn(f.facing, turn_by);
    Path p;
    if (option <= 0) {
        p.hexes[0] = neighbour(f.pos, opposite(facing));
        p.n = 1;
        return p;
    }
    Hex pos = f.pos;
    for (int k = 0; k < option && p.n < static_cast<int>(p.hexes.size()); ++k) {
        pos = neighbour(pos, facing);
        p.hexes[static_cast<Z>(p.n++)] = pos;
    }
    return p;
}

Hex throw_destination(const Query& x, int i, int turn_by, int option) {
    const FighterState& f = x.f(i);
    return neighbour(f.pos, turn(f.facing, turn_by) + option);
}

bool dodge_destination(const Query& x, int i, int attacker, int moves, int option, Hex& out) {
    const FighterState& f = x.f(i);
    const FighterState& a = x.f(attacker);
    const int d = x.s.attack_direction(attacker, i);
    const bool same = f.pos == a.pos;
    if (moves == kMovesAway) {
        out = neighbour(f.pos, opposite(d));
    } else if (moves == kMovesSide) {
        const auto& mv = x.t.movement;
        const auto& offs = same ? mv.side_step_offsets_same_hex : mv.side_step_offsets_adjacent;
        if (option < 0 || option >= static_cast<int>(offs.size())) return false;
        out = neighbour(f.pos, d + offs[static_cast<Z>(option)]);
    } else {  // toward: into the attacker's hex, or through it when already there
        out = same ? neighbour(f.pos, d) : a.pos;
    }
    return true;
}

namespace {

// A Move (aom3141): a follower goes the leader's way, no farther (§2.1); the path stays on
// the arena and passes no occupied hex.
Reason move_reason(const Query& x, int i, int m, int option, int facing,
                   const Window& w) {
    const Tables& t = x.t;
    if (w.kind == WindowKind::kReaction && w.has_follow) {
        const int way = option > 0 ? facing : opposite(facing);
        if (way != w.follow_direction) return why(R::kFollowWay, m, {w.follow_direction});
        if (t.movement.follow_no_farther && iabs(option) > w.follow_hexes) {
            return why(R::kFollowFarther, m, {w.follow_hexes});
        }
    }
    // the hexes of move_path, walked without building it (the hot path)
    const Hex start = x.f(i).pos;
    if (option <= 0) {
        return x.s.on_board(neighbour(start, opposite(facing))) ? Reason{} : why(R::kLeavesArena, m);
    }
    Hex pos = start;
    for (int k = 0; k < option; ++k) {
        pos = neighbour(pos, facing);
        if (!x.s.on_board(pos)) return why(R::kLeavesArena, m);
        if (k < option - 1 && !t.movement.move_through_occupied && someone_else_at(x.s, i, pos)) {
            return why(R::kOccupiedPath, m);
        }
    }
    return {};
}

const std::vector<int>* shield_side(const Tables& t, int hand) {
    const auto& a = t.armed;
    if (hand < 0 || hand >= static_cast<int>(a.hand_locations.size())) return nullptr;
    const int k = index_in(a.shield_side_hands, a.hand_locations[static_cast<Z>(hand)]);
    return k == kNone ? nullptr : &a.shield_side_arcs[static_cast<Z>(k)];
}

// A defensive reaction: the attack through the front arc (aom315), a shield's side
// (aom3145), room to dodge.
Reason defence_geometry(const Query& x, int i, int m, int option, int facing, int attacker) {
    const Maneuver& mv = x.mv(m);
    const int arc = x.s.arc(attacker, i, facing);
    const bool hand = mv.weapon == kNeedBlock && (option == 0 || option == 1);
    const Weapon* blocker = hand ? weapon_in(x.t, x.s, i, option) : nullptr;
    if (blocker != nullptr && blocker->shield_side_arc) {
        const std::vector<int>* side = shield_side(x.t, option);
        if (side == nullptr || !contains(*side, arc)) {
            return why(R::kShieldSide, m, {arc, x.f(i).hands[static_cast<Z>(option)], option});
        }
    } else if (mv.front_arc_only && !in_front_arc(arc, 0)) {
        return why(R::kFrontArcOnly, m, {arc});
    }
    if (mv.moves != kNone) {
        Hex dest;
        if (!dodge_destination(x, i, attacker, mv.moves, option, dest) || !x.s.on_board(dest)) {
            return why(R::kNoRoomToDodge, m);
        }
    }
    return {};
}

// A range-0 attack: in the target's hex, or closing into it from the next (aom321).
Reason close_reason(const Query& x, int i, int m, int target, int facing) {
    const FighterState& f = x.f(i);
    const FighterState& g = x.f(target);
    const int dist = distance(f.pos, g.pos);
    if (dist == 0) return {};
    if (!x.mv(m).may_close || dist != 1) return why(R::kNotClose, m, {target});
    if (holding_or_held(x.s, i)) return why(R::kCloseHolding, m);
    if (f.mounted && x.mv(m).mounted == kMountedSameHeight && !x.t.mounted.close_from_other_hex) {
        return why(R::kMountedSameHex, m);  // aom3221, aom3225: "in the same hex"
    }
    if (x.t.attack.closing_requires_front_arc) {
        const int d = direction_to(f.pos, g.pos);
        if (d == kNone || !in_front_arc(d, facing)) return why(R::kCloseFront, m, {target});
    }
    return {};
}

// A range-1 attack: an adjacent target in the front arc (a flying kick first steps one hex
// forward, aom3222).
Reason reach_reason(const Query& x, int i, int m, int target, int option, int facing) {
    const Maneuver& mv = x.mv(m);
    const FighterState& f = x.f(i);
    const FighterState& g = x.f(target);
    Hex pos = f.pos;
    int dist = distance(f.pos, g.pos);
    if (option == 1 && mv.may_advance) {
        if (holding_or_held(x.s, i)) return why(R::kFlyHolding, m);
        pos = neighbour(f.pos, facing);
        if (!x.s.on_board(pos)) return why(R::kLeavesArena, m);
        dist = distance(pos, g.pos);
    }
    if (dist == 0 && x.t.attack.range1_reaches_same_hex) return {};
    if (dist != 1) return why(R::kNotAdjacent, m, {target});
    if (!mv.any_direction) {
        const int d = direction_to(pos, g.pos);
        if (d == kNone || !in_front_arc(d, facing)) return why(R::kNotInFront, m, {target});
    }
    return {};
}

// A melee weapon attack: the target in the weapon's strike zone (aom3142), not in one's
// own hex (armed.melee_in_own_hex); Advance and attack first steps into an empty hex
// (aom3143).
Reason weapon_reach_reason(const Query& x, int i, int m, int target, int option, int facing) {
    const Maneuver& mv = x.mv(m);
    const FighterState& f = x.f(i);
    const FighterState& g = x.f(target);
    const int hand = split(x.t, mv, option).hand;
    const Weapon* w = weapon_in(x.t, x.s, i, hand);
    if (w == nullptr || w->kind != kKindMelee) return {};  // option_reason says why
    const int wid = f.hands[static_cast<Z>(hand)];
    Hex pos = f.pos;
    if (mv.advances) {
        if (holding_or_held(x.s, i)) return why(R::kAdvanceHolding, m);
        pos = neighbour(f.pos, facing);
        if (!x.s.on_board(pos)) return why(R::kLeavesArena, m);
        if (!x.t.armed.advance_into_occupied && someone_else_at(x.s, i, pos)) {
            return why(R::kAdvanceOccupied, m);
        }
    }
    if (g.pos == pos) {
        if (x.t.armed.melee_in_own_hex) return {};
        return why(R::kOwnHexWeapon, m, {target, wid});
    }
    if (!strikes(x.t, pos, facing, *w, g.pos)) {
        return why(w->reach >= 2 ? R::kOutOfPoleReach : R::kOutOfReach, m, {target, wid});
    }
    return {};
}

}  // namespace

// Range, arc and destination checks, which depend on the optional turn and option.
Reason geometry_reason(const Query& x, int i, int m, int target, int turn_by, int option,
                       const Window& w) {
    const Maneuver& mv = x.mv(m);
    const int facing = turn(x.f(i).facing, turn_by);
    if (mv.category == kTurn) return turn_by != 0 ? Reason{} : why(R::kChooseTurn, m);
    if (mv.category == kMove) return move_reason(x, i, m, option, facing, w);
    if (w.kind == WindowKind::kReaction && w.attacker != kNone && defensive(mv.category)) {
        return defence_geometry(x, i, m, option, facing, w.attacker);
    }
    if (!x.attack(m) || target == kNone) return {};
    if (mv.range == 0) return close_reason(x, i, m, target, facing);
    if (mv.weapon != kNone) return weapon_reach_reason(x, i, m, target, option, facing);
    return reach_reason(x, i, m, target, option, facing);
}

// The option's own checks: a throw's landing hex; the hand and mode of a weapon maneuver
// (weapons.hand_reason); the weapon Ready weapon readies; the hand a weapon is dropped from.
Reason option_reason(const Query& x, int i, int m, int turn_by, int option, const Window& w) {
    const Maneuver& mv = x.mv(m);
    const FighterState& f = x.f(i);
    if (mv.category == kThrow) {
        if (!x.s.on_board(throw_destination(x, i, turn_by, option))) return why(R::kLandingOff, m);
    } else if (mv.weapon != kNone) {
        const int restrict = w.kind == WindowKind::kReaction ? w.restrict_location : kNone;
        return hand_reason(x.t, x.s, i, m, option, x.s.hold_on(i), restrict, w.own_hand);
    } else if (mv.category == kReady) {
        return ready_reason(x.t, x.s, i, m, option);
    } else if (mv.category == kDrop) {
        if (option < 0 || option > 1 || f.hands[static_cast<Z>(option)] == kNone) {
            return why(R::kNothingInHand, m, {option});
        }
        if (option == 1 && f.hands[0] == f.hands[1] &&
            x.t.weapons[static_cast<Z>(f.hands[1])].hands == 2) {
            return why(R::kTwoHandedDrop, m);
        }
    }
    return {};
}

// ---------------------------------------------------------------- defence ahead
std::vector<int> defence_options(const Query& x, int y, int attacker, int attack,
                                 Locked restrict, int ap) {
    Window w;
    w.kind = WindowKind::kReaction;
    w.fighter = y;
    w.triggers = 1U << 1;  // "attack"
    w.attacker = attacker;
    w.attack = attack;
    w.no_defence = x.mv(attack).no_defence;
    w.restrict_limb = restrict.limb;
    w.restrict_location = restrict.location;
    const Hold* hold_on = x.s.hold_on(y);
    std::vector<int> out;
    for (int m : x.t.reaction_maneuvers) {
        const Maneuver& mv = x.mv(m);
        if (!defensive(mv.category) || window_reason(x, m, w, hold_on) ||
            fighter_reason(x, y, m, hold_on, ap)) {
            continue;
        }
        const Domain& d = x.t.domain[static_cast<Z>(m)];
        bool any = false;
        for (int tu : d.turns) {
            for (int op : d.options) {
                any = any || !geometry_reason(x, y, m, kNone, tu, op, w);
            }
        }
        if (any) out.push_back(m);
    }
    return out;
}

// ---------------------------------------------------------------- enumeration
namespace {

// legality._candidates: the maneuvers a window offers, before any fighter's reasons (a
// reaction's are the reaction maneuvers whose triggers fit: window_reason checks them).
const std::vector<int>& candidates(const Query& x, const Window& w) {
    const Tables& t = x.t;
    if (w.has_reactions_only) return w.reactions_only;
    if (w.kind == WindowKind::kAction) {
        return x.s.hold_on(w.fighter) != nullptr ? t.held_action_maneuvers : t.action_maneuvers;
    }
    if (w.kind == WindowKind::kFollowOn) return follow_ons(t, w.after);
    return t.reaction_maneuvers;
}

// What block asks of each (turn, option) pair, decided once per maneuver: geometry_reason
// and option_reason answer "legal" without looking at the pair for most maneuvers (the hot
// path: these two were half of a legal list's cost).
struct PairChecks {
    bool turn_only = false;  // a Turn: legal for every turn but 0 (kChooseTurn)
    bool geometry = false;   // geometry_reason depends on the pair
    bool option = false;     // option_reason may refuse it
};

PairChecks pair_checks(const Query& x, const Window& w, int m, int tg) {
    const Maneuver& mv = x.mv(m);
    PairChecks p;
    if (mv.category == kTurn) {
        p.turn_only = true;
    } else {
        const bool defence = w.kind == WindowKind::kReaction && w.attacker != kNone && defensive(mv.category);
        p.geometry = mv.category == kMove || defence || (x.attack(m) && tg != kNone);
    }
    p.option = mv.category == kThrow || mv.weapon != kNone || mv.category == kReady || mv.category == kDrop;
    return p;
}

// A legal list's row: the ids, or the engine's Choice (resolution.cpp's list, written
// directly instead of converted from ids afterwards).
template <class Row>
Row row(int m, int tg, int loc, int tu, int op) {
    if constexpr (std::is_same_v<Row, Choice>) {
        return Choice{kCManeuver, m, tg, loc, tu, op, 0};
    } else {
        return ChoiceIds{m, tg, loc, tu, op};
    }
}

// legality._block: the legal choices of maneuver m (usable by i) against tg, in the
// catalogue's order (turn, option, location).
template <class Row>
void block(const Query& x, const Window& w, int i, int m, int tg, std::vector<Row>& out) {
    const Maneuver& mv = x.mv(m);
    if (target_reason(x, i, m, tg)) return;
    const Domain& d = x.t.domain[static_cast<Z>(m)];
    std::array<int, kMaxLocations> kept;  // the first n are set (no zeroing: the hot path)
    const bool prone = tg != kNone && x.f(tg).prone;
    const auto& allowed = prone ? x.t.allowed_prone[static_cast<Z>(m)] : x.t.allowed_upright[static_cast<Z>(m)];
    const bool grab = window_locked(w).any() && w.kind == WindowKind::kFollowOn && mv.category == kGrab;
    const int* locs = allowed.data();
    int n = static_cast<int>(allowed.size());
    if (mv.needs_hold != kNone || grab) {  // the locations the hold or the lock leave
        n = 0;
        for (int loc : mv.needs_hold != kNone ? d.locations : allowed) {
            if (mv.needs_hold != kNone && location_reason(x, i, m, tg, loc)) continue;
            if (grab && grab_location_reason(x, m, loc, w, tg)) continue;
            kept[static_cast<Z>(n++)] = loc;
        }
        locs = kept.data();
    }
    const PairChecks check = pair_checks(x, w, m, tg);
    for (int tu : d.turns) {
        if (check.turn_only && tu == 0) continue;
        for (int op : d.options) {
            if (check.geometry && geometry_reason(x, i, m, tg, tu, op, w)) continue;
            if (check.option && option_reason(x, i, m, tu, op, w)) continue;
            for (int k = 0; k < n; ++k) out.push_back(row<Row>(m, tg, locs[k], tu, op));
        }
    }
}

// legality.maneuver_choices: usable maneuvers in candidate order; an attack's blocks per
// target (the attacker in a reaction, else the others in order); turns x options x locations.
template <class Row>
void list_choices(const Query& x, const Window& w, std::vector<Row>& out) {
    out.clear();
    const int i = w.fighter;
    const Hold* hold_on = x.s.hold_on(i);
    // other windows' candidates fit the window already, but for a follow-on after a Block
    const bool check_window = w.kind == WindowKind::kReaction || w.own_hand != kNone;
    for (int m : candidates(x, w)) {
        if (fighter_reason(x, i, m, hold_on) || (check_window && window_reason(x, m, w, hold_on))) {
            continue;
        }
        if (!x.attack(m)) {
            block(x, w, i, m, kNone, out);
        } else if (w.kind == WindowKind::kReaction && w.attacker != kNone) {
            block(x, w, i, m, w.attacker, out);
        } else {
            for (const auto& g : x.s.fighters) {
                if (g.idx != i && g.active()) block(x, w, i, m, g.idx, out);
            }
        }
    }
}

}  // namespace

void maneuver_choices(const Query& x, const Window& w, std::vector<ChoiceIds>& out) {
    list_choices(x, w, out);
}

void maneuver_choices(const Query& x, const Window& w, std::vector<Choice>& out) {
    list_choices(x, w, out);
}

// legality.explain from the window on: the maneuver, the catalogue's domain, a counter's
// target, then target, location, grab, geometry and option reasons.
Reason explain(const Query& x, const Window& w, const ChoiceIds& c) {
    const int i = w.fighter;
    const int m = c.maneuver;
    if (Reason r = maneuver_reason(x, i, m, w)) return r;
    const Domain& d = x.t.domain[static_cast<Z>(m)];
    if (!contains(d.turns, c.turn)) return why(R::kBadTurn, m);
    if (!contains(d.options, c.option)) return why(R::kBadOption, m);
    if (w.kind == WindowKind::kReaction && w.attacker != kNone && x.attack(m) && c.target != w.attacker) {
        return why(R::kCounterTarget, m);
    }
    if (Reason r = target_reason(x, i, m, c.target)) return r;
    if (Reason r = location_reason(x, i, m, c.target, c.location)) return r;
    if (Reason r = grab_location_reason(x, m, c.location, w, c.target)) return r;
    if (Reason r = geometry_reason(x, i, m, c.target, c.turn, c.option, w)) return r;
    if (Reason r = option_reason(x, i, m, c.turn, c.option, w)) return r;
    return why(R::kNotPossible, m);
}

}  // namespace hexdojo
