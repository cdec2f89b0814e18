// nanobind bindings of the rules core: hexdojo.envs.rules._core.
//
// The C++ owns the rules (legality, resolution, formulas), the compiled tables, the dice
// stream, the duel's observation and action catalogue; the Python package hexdojo.envs.rules
// owns names, validation, texts and the public API (Game, State) and calls in here
// (docs/architecture.md). One bind_* function per layer (bind.hpp); each layer's tests are
// tests/core/test_core_*.py.
#include "bind.hpp"

NB_MODULE(_core, m) {
    m.doc() = "hexdojo's rules core (C++20): the rules (legality, resolution, formulas), the "
              "compiled tables, the dice, the duel's observation and action catalogue. "
              "hexdojo.envs.rules wraps it: names, validation, texts and the public Game and "
              "State (docs/architecture.md).";
    hexdojo::bind_dice(m);
    hexdojo::bind_hexgrid(m);
    hexdojo::bind_tables(m);
    hexdojo::bind_formulas(m);
    hexdojo::bind_state(m);
    hexdojo::bind_catalogue(m);
    hexdojo::bind_observe(m);
    hexdojo::bind_observe_group(m);
    hexdojo::bind_legality(m);
    hexdojo::bind_fight(m);
    hexdojo::bind_fight_ops(m);
    hexdojo::bind_vector(m);
}
