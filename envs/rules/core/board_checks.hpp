// One fighter of a board that comes from Python, checked field by field (a ValueError naming
// the field, the value and the range; never a crash or an overflow further on): a fight set
// up from a Python scenario (bind_fight.cpp), the only way a board comes from Python.
#pragma once

#include <nanobind/nanobind.h>

#include <string>

#include "state.hpp"
#include "tables.hpp"

namespace hexdojo {

// The numbers a board or a frame from Python may carry (AP, penalties, margins...): far
// beyond any fight, small enough that no sum of them overflows.
inline constexpr int kBig = 1 << 20;

inline void board_field(const char* field, int v, int lo, int hi) {
    if (v >= lo && v < hi) return;
    throw nanobind::value_error((std::string("state.fighters.") + field + ": " +
                                 std::to_string(v) + ": allowed " + std::to_string(lo) + ".." +
                                 std::to_string(hi - 1)).c_str());
}

inline void check_fighter(const Tables& t, const FighterState& f, int k) {
    const int nw = static_cast<int>(t.weapon_ids.size()), nl = t.n_locations();
    board_field("idx", f.idx, k, k + 1);
    board_field("facing", f.facing, 0, 6);
    board_field("worst", f.worst, 0, t.fatal + 1);
    board_field("out", static_cast<int>(f.out), 0, 3);
    board_field("status", static_cast<int>(f.status), 0, 3);
    if (!valid_hex(f.pos)) throw nanobind::value_error("state.fighters.pos: outside the core's coordinates");
    board_field("ap", f.ap, -kBig, kBig);
    board_field("pen", f.pen, -kBig, kBig);
    board_field("init", f.init, -kBig, kBig);
    board_field("height", f.height, -kBig, kBig);
    for (int h : f.hands) board_field("hands", h, kNone, nw);
    for (int w : f.sheathed) board_field("sheathed", w, 0, nw);
    for (const Stuck& x : f.stuck) {
        board_field("stuck.weapon", x.weapon, 0, nw);
        board_field("stuck.location", x.location, 0, nl);
    }
    for (const Wound& w : f.wounds) {
        board_field("wounds.location", w.location, 0, nl);
        board_field("wounds.level", w.level, 0, t.fatal + 1);
    }
}

}  // namespace hexdojo
