// A group fight's observation and mask (observe_group.hpp), field by field as
// envs/skirmish_spaces.py declares them.
#include "observe_group.hpp"

#include <algorithm>
#include <stdexcept>

#include "context.hpp"
#include "vector_env.hpp"

namespace hexdojo {

namespace {

// Fighter j's board fields (put_fighter_board), phasing and first-to-act flags, in block s of
// the fields at offsets o with sizes n (the self_ block: s = 0).
void put_member(const Board& bd, int phasing, int j, const std::array<int, 9>& o,
                const std::array<int, 9>& n, int s, float* b) {
    std::array<int, 7> at{};
    for (std::size_t k = 0; k < at.size(); ++k) at[k] = o[k] + s * n[k];
    put_fighter_board(bd, j, at, b);
    if (phasing == j) b[o[7] + s * n[7]] = 1;
    if (!bd.order.empty() && bd.order[0] == j) b[o[8] + s * n[8]] = 1;
}

// What lies between me and fighter j of slot s: offset, distance, the arcs each sees the other
// in, the ally and attacker flags, the holds each has on the other (kinds, then from behind).
void put_pair(const Tables& t, const GroupLayout& lay, const Board& bd, int attacker, int me,
              int j, int s, float* b) {
    auto at = [&](std::size_t k) { return lay.others_pair[k] + s * lay.pair_size[k]; };
    const FighterState& fm = bd.fighters[static_cast<std::size_t>(me)];
    const FighterState& fj = bd.fighters[static_cast<std::size_t>(j)];
    b[at(0)] = static_cast<float>(fj.pos.q - fm.pos.q);
    b[at(0) + 1] = static_cast<float>(fj.pos.r - fm.pos.r);
    b[at(1)] = static_cast<float>(distance(fm.pos, fj.pos));
    b[at(2) + relative(bd.attack_direction(j, me), fm.facing)] = 1;
    b[at(3) + relative(bd.attack_direction(me, j), fj.facing)] = 1;
    if (bd.sides[static_cast<std::size_t>(j)] == bd.sides[static_cast<std::size_t>(me)]) b[at(4)] = 1;
    if (attacker == j) b[at(5)] = 1;
    const int n_hold = static_cast<int>(t.hold_kinds.size());
    for (const Hold& h : bd.holds) {
        int base = kNone;
        if (h.holder == j && h.held == me) base = at(6);
        if (h.holder == me && h.held == j) base = at(7);
        if (base == kNone) continue;
        b[base + h.kind] = 1;
        if (h.from_behind) b[base + n_hold] = 1;
    }
}

// Each fighter's weapon fields (put_fighter_weapons, the duel's writer): me's, then each slot's.
void put_group_weapons(const Tables& t, const GroupLayout& lay, const Board& bd,
                       const ObsContext& ctx, int me, std::span<const int> slots, float* b) {
    auto locked = [&](int j) {
        return ctx.fighter != kNone ? ctx.locked_hand[static_cast<std::size_t>(j)] : kNone;
    };
    put_fighter_weapons(t, bd, me, lay.self_weapons, locked(me), b);
    for (std::size_t s = 0; s < slots.size(); ++s) {
        std::array<int, 6> at{};
        for (std::size_t k = 0; k < at.size(); ++k) {
            at[k] = lay.others_weapons[k] + static_cast<int>(s) * lay.weapon_size[k];
        }
        put_fighter_weapons(t, bd, slots[s], at, locked(slots[s]), b);
    }
}

}  // namespace

void write_group_observation(const Tables& t, const Catalogue& cat, const GroupLayout& lay,
                             const ObsLayout& duel, Fight& c, const ObsContext& ctx, int me,
                             std::span<const int> slots, std::span<const float> factor,
                             float* scratch, float* out) {
    std::fill(out, out + lay.size, 0.0F);
    const Board& bd = c.s;
    const int attacker = ctx.fighter == me ? context_attacker(decision_context(c)) : kNone;
    const FighterState& fm = bd.fighters[static_cast<std::size_t>(me)];
    out[lay.self_pos] = static_cast<float>(fm.pos.q);
    out[lay.self_pos + 1] = static_cast<float>(fm.pos.r);
    put_member(bd, ctx.phasing, me, lay.self_fighter, lay.fighter_size, 0, out);
    for (std::size_t s = 0; s < slots.size(); ++s) {
        const int j = slots[s];
        put_member(bd, ctx.phasing, j, lay.others_fighter, lay.fighter_size, static_cast<int>(s), out);
        put_pair(t, lay, bd, attacker, me, j, static_cast<int>(s), out);
    }
    if (lay.armed) put_group_weapons(t, lay, bd, ctx, me, slots, out);
    // the decision fields: the duel observation of me against the last slot, copied
    write_observation(t, cat, duel, bd, ctx, me, slots.back(), scratch);
    for (const auto& [from, to, n] : lay.decision) std::copy(scratch + from, scratch + from + n, out + to);
    for (int k = 0; k < lay.size; ++k) out[k] *= factor[static_cast<std::size_t>(k)];
}

void GroupObserver::observe(Fight& c, int me, std::span<const int> slots, float* out,
                            std::int8_t* mask) {
    const ObsContext ctx = obs_context(c, cat, *t, me);
    scratch.resize(static_cast<std::size_t>(duel.size));
    write_group_observation(*t, cat, lay, duel, c, ctx, me, slots, factor, scratch.data(), out);
    if (mask == nullptr) return;
    std::fill(mask, mask + n_ids, static_cast<std::int8_t>(0));
    const std::vector<Choice>& legal = c.legal();
    for (std::size_t k = 0; k < ctx.legal_ids.size(); ++k) {
        const int target = legal[k].target;
        int slot = 0;
        if (target != kNone) {
            const auto it = std::find(slots.begin(), slots.end(), target);
            if (it == slots.end()) throw std::runtime_error("a legal choice targets no slot");
            slot = static_cast<int>(it - slots.begin());
        }
        mask[ids[static_cast<std::size_t>(slot * cat.n + ctx.legal_ids[k])]] = 1;
    }
}

}  // namespace hexdojo
