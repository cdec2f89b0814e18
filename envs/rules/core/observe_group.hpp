// A group fight's observation and mask written natively (envs/skirmish_spaces.py declares
// them: the layout, the spaces, the slot order and the group catalogue's ids; the numbers are
// written here, issue 32). One float32 vector in the layout's order, every number already
// multiplied by its "unit" factor, and the exact int8 mask over the group catalogue.
//
// What the fighter `me` sees: the duel observation's decision fields (write_observation of me
// against the last slot, copied), his own board fields (self_*), and one block per other
// fighter in `slots` order (others_*: his board fields, then what lies between the two:
// offset, distance, arcs both ways, ally, attacker, holds both ways), each field of slot s at
// its offset + s * its size; with an armed catalogue the weapon fields of each fighter too.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "catalogue.hpp"
#include "fight.hpp"
#include "observe.hpp"
#include "tables.hpp"

namespace hexdojo {

// Field offsets of a group layout (skirmish_spaces._layout), filled by Python.
struct GroupLayout {
    int size = 0;
    int n_slots = 0;  // the other fighters (K)
    // the duel observation's decision fields: (offset in the duel layout, offset here, size)
    std::vector<std::array<int, 3>> decision;
    int self_pos = 0;
    // per fighter, (facing, ap, flags, height, edge, wounds, worst, phasing, first): me's
    // offsets, slot 0's offsets and each field's size (the stride from slot to slot)
    std::array<int, 9> self_fighter{}, others_fighter{}, fighter_size{};
    // per slot (offset, distance, arc_of, arc_of_me, ally, attacker, holds_me, held_by_me)
    std::array<int, 8> others_pair{}, pair_size{};
    bool armed = false;
    // per fighter (hands, usable, sheathed, stuck, dropped_here, dropped_near), as above
    std::array<int, 6> self_weapons{}, others_weapons{}, weapon_size{};
};

// A group fight's observer: the catalogue and layouts it writes, the unit factors, and the
// group catalogue's ids (`ids[slot * cat.n + duel id]`: GroupCatalogue.id_of, declared in
// Python) over `n_ids` actions.
struct GroupObserver {
    const Tables* t = nullptr;
    Catalogue cat;
    GroupLayout lay;
    ObsLayout duel;
    std::vector<float> factor;  // one per number of the layout
    std::vector<int> ids;
    int n_ids = 0;
    std::vector<float> scratch;  // the duel observation the decision fields are copied from

    // Writes me's observation (lay.size floats) and, unless null, his mask (n_ids bytes; all
    // zeros when he does not decide). `slots`: the other fighters in slot order.
    void observe(Fight& c, int me, std::span<const int> slots, float* out, std::int8_t* mask);
};

// The observation alone (GroupObserver::observe without the mask): `ctx` is obs_context of
// me, `scratch` a buffer of duel.size floats.
void write_group_observation(const Tables& t, const Catalogue& cat, const GroupLayout& lay,
                             const ObsLayout& duel, Fight& c, const ObsContext& ctx, int me,
                             std::span<const int> slots, std::span<const float> factor,
                             float* scratch, float* out);

}  // namespace hexdojo
