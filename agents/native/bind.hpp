// The agents' native module, hexdojo.agents._bots: one bind_* function per part, each in its
// own bind_*.cpp, called from bindings.cpp.
#pragma once

#include <nanobind/nanobind.h>

namespace hexdojo::bots {

namespace nb = nanobind;

void bind_probe(nb::module_& m);
void bind_knowledge(nb::module_& m);
void bind_scripted(nb::module_& m);
void bind_search(nb::module_& m);
void bind_play(nb::module_& m);
void bind_prior(nb::module_& m);
void bind_net(nb::module_& m);

}  // namespace hexdojo::bots
