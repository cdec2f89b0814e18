// The duel's observation, field by field as envs/observation.py writes it (see observe.hpp).
#include "observe.hpp"

#include "weapons.hpp"

namespace hexdojo {

namespace {

float clip(float v, float lo, float hi) { return std::min(std::max(v, lo), hi); }

int cat_index(const Catalogue& cat, int m) {
    return m < 0 || m >= static_cast<int>(cat.index.size()) ? kNone
                                                             : cat.index[static_cast<std::size_t>(m)];
}

// What a pending roll is about: maneuvers, aim, both basic values, the wound (_roll).
void put_roll(const Catalogue& cat, const ObsLayout& lay, const ObsContext& c, int me, float* b) {
    if (c.attack != kNone) {
        b[lay.roll_attack + cat_index(cat, c.attack)] = 1;
        if (c.location != kNone) b[lay.roll_location + c.location] = 1;
        if (c.reaction != kNone) b[lay.roll_reaction + cat_index(cat, c.reaction)] = 1;
    }
    for (const auto& [who, v] : c.basics) {
        b[lay.roll_basics + (who == me ? 0 : 1)] = clip(static_cast<float>(v) / 2.0F, kBasicMin,
                                                        kBasicMax);
    }
    if (c.wound != kNone) b[lay.soak_wound + c.wound] = 1;
}

// A reaction's or follow-on's context: the incoming attack, what the follow-on comes after
// and which follow-ons are open (_incoming).
void put_incoming(const Catalogue& cat, const ObsLayout& lay, const ObsContext& c, float* b) {
    if (c.attack != kNone) {
        const int k = cat_index(cat, c.attack);
        if (k != kNone) b[lay.incoming_maneuver + k] = 1;
        if (c.location != kNone) b[lay.incoming_location + c.location] = 1;
        b[lay.incoming_arc + c.arc] = 1;
        if (c.closing) b[lay.incoming_closing] = 1;
    }
    if (c.after != kNone) {
        const int k = cat_index(cat, c.after);
        if (k != kNone) b[lay.follow_on_after + k] = 1;
        for (int id : c.legal_ids) {
            const int mk = cat.maneuver_of[static_cast<std::size_t>(id)];
            if (mk != kNone) b[lay.follow_ons + mk] = 1;
        }
    }
}

// Where the opponent is, the arcs each side sees the other in, initiative, phase, turn.
void put_geometry(const ObsLayout& lay, const Board& s, const ObsContext& c, int me, int op,
                  float* b) {
    const FighterState& fm = s.fighters[static_cast<std::size_t>(me)];
    const FighterState& fo = s.fighters[static_cast<std::size_t>(op)];
    const int dq = fo.pos.q - fm.pos.q;
    const int dr = fo.pos.r - fm.pos.r;
    b[lay.opp_offset] = static_cast<float>(dq);
    b[lay.opp_offset + 1] = static_cast<float>(dr);
    const int dist = distance(fm.pos, fo.pos);
    b[lay.distance] = static_cast<float>(dist);
    if (dist == 0) b[lay.same_hex] = 1;
    b[lay.arc_of_opp + relative(s.attack_direction(op, me), fm.facing)] = 1;
    b[lay.arc_of_self + relative(s.attack_direction(me, op), fo.facing)] = 1;
    if (!s.order.empty()) b[lay.initiative + (s.order[0] == me ? 0 : 1)] = 1;
    b[lay.phase + (c.phasing == kNone ? 2 : (c.phasing == me ? 0 : 1))] = 1;
    b[lay.turn] = static_cast<float>(s.turn);
}

// Each fighter's position, then his board fields (put_fighter_board), for me and op (_fighters).
void put_fighters(const ObsLayout& lay, const Board& s, int me, int op, float* b) {
    const std::array<int, 2> who{me, op};
    for (int k = 0; k < 2; ++k) {
        const auto& o = lay.per[static_cast<std::size_t>(k)];
        const int i = who[static_cast<std::size_t>(k)];
        const FighterState& f = s.fighters[static_cast<std::size_t>(i)];
        b[o[0]] = static_cast<float>(f.pos.q);
        b[o[0] + 1] = static_cast<float>(f.pos.r);
        put_fighter_board(s, i, {o[1], o[2], o[3], o[4], o[5], o[6], o[7]}, b);
    }
}

void put_holds(const Tables& t, const ObsLayout& lay, const Board& s, int me, float* b) {
    const int n_hold = static_cast<int>(t.hold_kinds.size());
    for (const Hold& h : s.holds) {
        const int base = lay.per[h.holder == me ? 0 : 1][8];
        b[base + h.kind] = 1;
        if (h.from_behind) b[base + n_hold] = 1;
    }
}

void put_weapons(const Tables& t, const ObsLayout& lay, const Board& s, const ObsContext& c,
                 int me, int op, float* b) {
    const bool about_attack = c.fighter == me &&
        (c.kind == kDecReaction || c.kind == kDecRisk || c.kind == kDecSoak);
    if (about_attack && c.weapon != kNone) {
        b[lay.incoming_weapon + c.weapon] = 1;
        b[lay.incoming_mode + c.mode] = 1;
    }
    const bool open = c.fighter != kNone;
    const std::array<int, 2> who{me, op};
    for (int k = 0; k < 2; ++k) {
        const int i = who[static_cast<std::size_t>(k)];
        const int locked = open ? c.locked_hand[static_cast<std::size_t>(i)] : kNone;
        put_fighter_weapons(t, s, i, lay.per_armed[static_cast<std::size_t>(k)], locked, b);
    }
}

}  // namespace

void put_fighter_board(const Board& s, int i, const std::array<int, 7>& o, float* b) {
    const FighterState& f = s.fighters[static_cast<std::size_t>(i)];
    b[o[0] + f.facing] = 1;
    b[o[1]] = std::min(static_cast<float>(f.ap), kApMax);
    if (f.prone) b[o[2]] = 1;
    if (f.mounted) b[o[2] + 1] = 1;
    if (f.phased) b[o[2] + 2] = 1;
    if (f.status == Status::kStaggered) b[o[2] + 3] = 1;
    if (f.status == Status::kStunned) b[o[2] + 4] = 1;
    if (!f.active()) b[o[2] + 5] = 1;
    b[o[3]] = static_cast<float>(f.height);
    b[o[4]] = static_cast<float>(s.radius - distance(f.pos, {0, 0}));
    for (const Wound& w : f.wounds) {
        float& cell = b[o[5] + w.location];
        cell = std::max(cell, static_cast<float>(w.level));
    }
    b[o[6] + f.worst] = 1;
}

void put_fighter_weapons(const Tables& t, const Board& s, int i, const std::array<int, 6>& o,
                         int locked, float* b) {
    const int n_w = static_cast<int>(t.weapon_ids.size());
    const FighterState& f = s.fighters[static_cast<std::size_t>(i)];
    const unsigned held = s.holds.empty() ? 0U : held_hands(t, s.hold_on(i));
    for (int hand = 0; hand < 2; ++hand) {
        const int wid = f.hands[static_cast<std::size_t>(hand)];
        b[o[0] + hand * (n_w + 1) + (wid == kNone ? n_w : wid)] = 1;
        if (wid != kNone && (held & (1U << hand)) == 0U && locked != hand) b[o[1] + hand] = 1;
    }
    for (int wid : f.sheathed) b[o[2] + wid] = std::min(b[o[2] + wid] + 1, kWeaponCountMax);
    for (const Stuck& x : f.stuck) b[o[3] + x.location] = 1;
    for (const Dropped& d : s.dropped) {
        const int dist = distance(d.hex, f.pos);
        if (dist <= 1) {
            float& cell = b[(dist == 0 ? o[4] : o[5]) + d.weapon];
            cell = std::min(cell + 1, kWeaponCountMax);
        }
    }
}

void write_observation(const Tables& t, const Catalogue& cat, const ObsLayout& lay,
                       const Board& s, const ObsContext& c, int me, int op, float* b) {
    std::fill(b, b + lay.size, 0.0F);
    if (c.fighter == me && c.kind != kNone) {  // the decision asked now, if it is ours
        b[lay.decision_kind + c.kind] = 1;
        b[lay.deciding] = 1;
        if (c.kind == kDecRisk || c.kind == kDecSoak) {
            if (c.kind == kDecRisk && c.about != kNone) b[lay.risk_roll + c.about] = 1;
            put_roll(cat, lay, c, me, b);
        } else if (c.kind == kDecReaction || c.kind == kDecFollowOn) {
            put_incoming(cat, lay, c, b);
        }
    }
    put_geometry(lay, s, c, me, op, b);
    put_fighters(lay, s, me, op, b);
    put_holds(t, lay, s, me, b);
    if (lay.armed) put_weapons(t, lay, s, c, me, op, b);
}

}  // namespace hexdojo
