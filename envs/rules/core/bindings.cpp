// nanobind bindings of the native rules core: hexdojo.envs.rules._core.
//
// One bind_* function per layer (bind.hpp); each layer's tests are tests/test_core_*.py. The
// port from the Python engine is over (docs/history/native-core-port.md).
#include "bind.hpp"

NB_MODULE(_core, m) {
    m.doc() = "hexdojo's native rules core (C++20), ported layer by layer from the Python "
              "engine, which stays the reference until the differential test passes.";
    hexdojo::bind_dice(m);
    hexdojo::bind_hexgrid(m);
    hexdojo::bind_tables(m);
    hexdojo::bind_formulas(m);
    hexdojo::bind_state(m);
    hexdojo::bind_catalogue(m);
    hexdojo::bind_observe(m);
    hexdojo::bind_legality(m);
    hexdojo::bind_fight(m);
    hexdojo::bind_native_state(m);
    hexdojo::bind_vector(m);
}
