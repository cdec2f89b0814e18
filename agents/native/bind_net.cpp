// Binding of the learned native player (net_player.hpp): hexdojo.agents._bots.NetPlayer, made
// by agents/policy.py LearnedAgent.native_player over a _bots.Network (bind_prior.cpp) and
// starting from the agent's own generator state.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>

#include "bind.hpp"
#include "net_player.hpp"

namespace hexdojo::bots {

namespace {


void make_net_player(NetPlayer* self, std::shared_ptr<Network> net, double temperature, Half state,
                     Half inc, bool has_uint32, std::uint32_t uinteger) {
    if (!std::isfinite(temperature) || temperature < 0.0) {
        throw nb::value_error("NetPlayer: temperature must be a finite number >= 0 (0: the arg-max)");
    }
    new (self) NetPlayer(std::move(net), temperature, pcg64_of(state, inc, has_uint32, uinteger, "NetPlayer: "));
}

}  // namespace

void bind_net(nb::module_& m) {
    nb::class_<NetPlayer, Player>(m, "NetPlayer",
                                  "A learned policy inside the core: LearnedAgent.act's choice "
                                  "(arg-max, or its tempered draw) from a Network.")
        .def("__init__", &make_net_player, nb::arg("network"), nb::arg("temperature"),
             nb::arg("state"), nb::arg("inc"), nb::arg("has_uint32"), nb::arg("uinteger"),
             "temperature 0: the arg-max (ties to the lowest catalogue id); > 0: a draw from "
             "softmax(z / temperature) with numpy's PCG64 from (state, inc, has_uint32, "
             "uinteger), as LearnedAgent._tempered draws; reset(seed) re-seeds as default_rng(seed).")
        .def("scores", [](NetPlayer& p, Fight& c) {
            if (c.t == nullptr || !c.g || !c.has_pending) throw nb::value_error("NetPlayer: no open decision");
            return p.scores(c);
        }, nb::arg("fight"), "Each legal choice's logit plus the lean (legal order).")
        .def_prop_ro("temperature", &NetPlayer::temperature);
}

}  // namespace hexdojo::bots
