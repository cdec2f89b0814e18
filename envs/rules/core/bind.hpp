// One bind_* function per layer of the native core, each in its own bind_*.cpp, called by
// the module definition in bindings.cpp.
#pragma once

#include <nanobind/nanobind.h>

#include <string>

#include "hexgrid.hpp"

namespace hexdojo {

namespace nb = nanobind;

// A hex from Python, refused (ValueError) beyond the coordinates the core accepts.
inline Hex checked_hex(int q, int r) {
    const Hex h{q, r};
    if (!valid_hex(h)) {
        throw nb::value_error(("hex (" + std::to_string(q) + ", " + std::to_string(r) +
                               "): coordinates allowed -" + std::to_string(kMaxCoordinate) +
                               ".." + std::to_string(kMaxCoordinate)).c_str());
    }
    return h;
}

void bind_dice(nb::module_& m);     // bind_dice.cpp: dice (RULES §1.3)
void bind_hexgrid(nb::module_& m);  // bind_dice.cpp: hex geometry (RULES §1.7)
void bind_tables(nb::module_& m);   // bind_tables.cpp: compiled tables and profiles (layer 2)
void bind_formulas(nb::module_& m); // bind_formulas.cpp: the state-free formulas (layer 2)
void bind_state(nb::module_& m);    // bind_state.cpp: the board state and windows
void bind_catalogue(nb::module_& m);  // bind_catalogue.cpp: the duel's action catalogue
void bind_observe(nb::module_& m);    // bind_observe.cpp: the duel's observation writer
void bind_observe_group(nb::module_& m);  // bind_observe_group.cpp: a group fight's observation and mask
void bind_vector(nb::module_& m);     // bind_vector.cpp: a vector of native duels
void bind_legality(nb::module_& m); // bind_legality.cpp: legal choices and reasons (layer 4)
void bind_fight(nb::module_& m);    // bind_fight.cpp: the native fight, resolution and events (layer 5)
void bind_fight_ops(nb::module_& m);  // bind_fight_ops.cpp: a fight's dice, knock-outs, phasing

}  // namespace hexdojo
