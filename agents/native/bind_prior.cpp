// Bindings of the search's priors (prior.hpp): hexdojo.agents._bots.PriorPolicy and
// CallbackPrior. agents/search_core.py copies an SB3 actor's layers out of torch and builds a
// PriorPolicy per game, or a CallbackPrior over a Python prior (a callable, an agent's ranking).
//
// The search holds the GIL throughout (no binding of agents/native releases it); the scorer
// acquires it anyway (a no-op then), so a future release around the search stays safe. A
// Python exception in the callable leaves the search as nb::python_error and reaches the
// caller as itself.
#include <nanobind/ndarray.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bind.hpp"
#include "prior.hpp"

namespace hexdojo::bots {

namespace {

using Matrix = nb::ndarray<const float, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using Vector = nb::ndarray<const float, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Layer = std::tuple<Matrix, Vector, std::string>;

Dense dense_of(const Layer& l, int in, std::size_t k) {
    const auto& [w, b, act] = l;
    const std::string at = "prior: layer " + std::to_string(k) + ": ";
    Dense d;
    d.out = static_cast<int>(w.shape(0));
    d.in = static_cast<int>(w.shape(1));
    if (d.in != in) {
        throw nb::value_error((at + "takes " + std::to_string(d.in) + " inputs, the previous gives " +
                               std::to_string(in)).c_str());
    }
    if (static_cast<int>(b.shape(0)) != d.out) throw nb::value_error((at + "bias size != rows").c_str());
    if (act == "tanh") d.activation = 1;
    else if (act == "relu") d.activation = 2;
    else if (act != "none") throw nb::value_error((at + "activation '" + act + "': allowed tanh, relu, none").c_str());
    d.wt.resize(w.size());  // transposed: row k holds input k's weight for every output
    for (int o = 0; o < d.out; ++o) {
        for (int k = 0; k < d.in; ++k) {
            d.wt[static_cast<std::size_t>(k) * static_cast<std::size_t>(d.out) + static_cast<std::size_t>(o)] =
                w.data()[static_cast<std::size_t>(o) * static_cast<std::size_t>(d.in) + static_cast<std::size_t>(k)];
        }
    }
    d.b.assign(b.data(), b.data() + b.size());
    return d;
}

Network network_of(const Catalogue& cat, const ObsLayout& lay, std::vector<float> unit,
                   std::vector<float> extra0, std::vector<float> extra1,
                   const std::vector<Layer>& layers, std::vector<float> lean) {
    if (!unit.empty() && static_cast<int>(unit.size()) != lay.size) {
        throw nb::value_error("prior: unit: one factor per observation entry");
    }
    if (extra0.size() != extra1.size()) throw nb::value_error("prior: extra: one size for both fighters");
    if (layers.empty()) throw nb::value_error("prior: no layers");
    std::vector<Dense> net;
    int in = lay.size + static_cast<int>(extra0.size());
    for (std::size_t k = 0; k < layers.size(); ++k) {
        net.push_back(dense_of(layers[k], in, k));
        in = net.back().out;
    }
    if (in != cat.n) {
        throw nb::value_error(("prior: the last layer gives " + std::to_string(in) +
                               " logits, the catalogue has " + std::to_string(cat.n) + " actions").c_str());
    }
    if (!lean.empty() && lean.size() != static_cast<std::size_t>(kDHold + 1) * static_cast<std::size_t>(cat.n)) {
        throw nb::value_error(("prior: lean: one value per decision kind and catalogue action (" +
                               std::to_string(kDHold + 1) + " x " + std::to_string(cat.n) + "), or none").c_str());
    }
    PriorInputs pi{&cat, lay, std::move(unit), {std::move(extra0), std::move(extra1)}, std::move(lean)};
    const Matrix& w = std::get<0>(layers.back());
    std::vector<float> head(w.data(), w.data() + w.size());  // out x in, as torch holds it
    return Network{std::move(pi), std::move(net), std::move(head)};
}

void make_network(Network* self, const Catalogue& cat, const ObsLayout& lay, std::vector<float> unit,
                  std::vector<float> extra0, std::vector<float> extra1,
                  const std::vector<Layer>& layers, std::vector<float> lean) {
    new (self) Network(network_of(cat, lay, std::move(unit), std::move(extra0), std::move(extra1),
                                  layers, std::move(lean)));
}

void make_prior(PriorPolicy* self, Policy& rollout, const Catalogue& cat, const ObsLayout& lay,
                std::vector<float> unit, std::vector<float> extra0, std::vector<float> extra1,
                const std::vector<Layer>& layers, std::vector<float> lean) {
    auto net = std::make_shared<const Network>(network_of(cat, lay, std::move(unit), std::move(extra0),
                                                          std::move(extra1), layers, std::move(lean)));
    new (self) PriorPolicy(rollout, std::move(net));
}

// A Python callable as a Scorer: it gets a copy of the fight (a _core.Fight it owns, so it may
// keep or play it) and answers a sequence of numbers. The callable is held (and released) with
// the GIL held.
Scorer scorer_of(nb::callable fn) {
    auto held = std::make_shared<nb::callable>(std::move(fn));
    return [held](const Fight& c) {
        nb::gil_scoped_acquire gil;
        nb::object got = (*held)(nb::cast(Fight(c), nb::rv_policy::move));
        std::vector<double> out;
        if (!nb::try_cast(got, out)) {
            throw nb::type_error("prior: the callable's answer is not a sequence of numbers");
        }
        return out;
    };
}

void make_callback(CallbackPrior* self, Policy& rollout, nb::callable score) {
    new (self) CallbackPrior(rollout, scorer_of(std::move(score)));
}

Fight& open_fight(Fight& c) {
    if (c.t == nullptr || !c.g) throw nb::value_error("prior: an empty fight");
    return c;
}

}  // namespace

void bind_prior(nb::module_& m) {
    nb::class_<Network>(m, "Network",
                        "A learned actor's layers and what it reads, copied once and shared by "
                        "the priors and players made from it (kept alive with its catalogue).")
        .def("__init__", &make_network, nb::arg("catalogue"), nb::arg("layout"), nb::arg("unit"),
             nb::arg("extra0"), nb::arg("extra1"), nb::arg("layers"),
             nb::arg("lean") = std::vector<float>{}, nb::keep_alive<1, 2>(),
             "As PriorPolicy's arguments after the rollout policy.");
    nb::class_<PriorPolicy, Policy>(m, "PriorPolicy",
                                    "A learned actor's ranking as a search's prior; the rollout "
                                    "policy plays (kept alive with it, as is the catalogue).")
        .def("__init__", &make_prior, nb::arg("rollout"), nb::arg("catalogue"), nb::arg("layout"),
             nb::arg("unit"), nb::arg("extra0"), nb::arg("extra1"), nb::arg("layers"),
             nb::arg("lean") = std::vector<float>{}, nb::keep_alive<1, 2>(), nb::keep_alive<1, 3>(),
             "layers: (W out x in float32, b, 'tanh'|'relu'|'none') from the observation (the "
             "layout's entries times unit, then extra0 or extra1 for the decider) to one logit "
             "per catalogue action; lean: added to the logits by decision kind (kind x action), "
             "or empty.")
        .def("__init__", [](PriorPolicy* self, Policy& rollout, std::shared_ptr<Network> net) {
            new (self) PriorPolicy(rollout, std::move(net));
        }, nb::arg("rollout"), nb::arg("network"), nb::keep_alive<1, 2>(),
             "The prior of a Network built once (shared with the players made from it).")
        .def("legal_logits", [](PriorPolicy& p, Fight& c) {
            if (c.t == nullptr || !c.g) throw nb::value_error("prior: an empty fight");
            return p.legal_logits(c);
        }, nb::arg("fight"), "The logit (plus the lean) of each legal choice, legal order.")
        .def("inputs", [](PriorPolicy& p, Fight& c) {
            if (c.t == nullptr || !c.g) throw nb::value_error("prior: an empty fight");
            return p.inputs(c);
        }, nb::arg("fight"), "The network's input at the open decision (observation, extra).");
    nb::class_<CallbackPrior, Policy>(m, "CallbackPrior",
                                      "A Python scorer's ranking as a search's prior; the rollout "
                                      "policy plays (kept alive with it).")
        .def("__init__", &make_callback, nb::arg("rollout"), nb::arg("score"), nb::keep_alive<1, 2>(),
             "score(fight) -> one number per legal choice (legal order), higher first (ties: legal "
             "order); fight: a copy of the searched _core.Fight.")
        .def("scores", [](const CallbackPrior& p, Fight& c) { return p.scores(open_fight(c)); },
             nb::arg("fight"), "The scorer's checked answer at the open decision.");
}

}  // namespace hexdojo::bots
