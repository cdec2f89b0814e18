// hexdojo.agents._bots: the agents' C++ (scripted fighters, search) over the rules core's own
// fights. A `_core.Fight` (hexdojo::Fight, bound by hexdojo.envs.rules._core) crosses into
// this module as the same C++ object: nanobind shares its type registry between the two
// extensions, so no copy and no second binding of the rules.
#include <nanobind/stl/vector.h>

#include "bind.hpp"
#include "fight.hpp"

namespace hexdojo::bots {

void bind_probe(nb::module_& m) {
    m.def(
        "legal_count",
        [](const Fight& c) { return static_cast<int>(c.legal().size()); },
        nb::arg("fight"),
        "Number of legal choices of a core fight's pending decision (checks that a _core.Fight "
        "reaches this module as the same C++ object).");
}

}  // namespace hexdojo::bots

NB_MODULE(_bots, m) {
    m.doc() = "hexdojo's native agents (C++20): scripted fighters and search over the rules "
              "core's fights (agents/native).";
    // the Python side caches a bot and a Knowledge per rule set for the process's life
    // (agents/scripted_core.py, knowledge_core.py): alive at exit by design, not a leak
    nanobind::set_leak_warnings(false);
    hexdojo::bots::bind_probe(m);
    hexdojo::bots::bind_knowledge(m);
    // the base classes first: Player (the core's, bound by _core; bind_play names it here)
    // before ScriptedBot and SearchPlayer
    hexdojo::bots::bind_play(m);
    hexdojo::bots::bind_scripted(m);
    hexdojo::bots::bind_search(m);
    hexdojo::bots::bind_prior(m);
    hexdojo::bots::bind_net(m);  // after Network (bind_prior)
}
