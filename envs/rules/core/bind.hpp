// One bind_* function per layer of the native core, each in its own bind_*.cpp, called by
// the module definition in bindings.cpp.
#pragma once

#include <nanobind/nanobind.h>

namespace hexdojo {

namespace nb = nanobind;

void bind_dice(nb::module_& m);     // bind_dice.cpp: dice (RULES §1.3)
void bind_hexgrid(nb::module_& m);  // bind_dice.cpp: hex geometry (RULES §1.7)
void bind_state(nb::module_& m);    // bind_state.cpp: the board state and windows

}  // namespace hexdojo
