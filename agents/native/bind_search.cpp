// Bindings of the search agents (search.hpp) and of the simulations' seeding (seeding.hpp):
// hexdojo.agents._bots.{SearchPolicy, FirstChoicePolicy, RotatePolicy, RandomPolicy,
// ScriptedPolicy, mcts_act, search_act, mcts_counts, search_counts, SearchPlayer, evaluate,
// integers63, seed_state, fresh_faces}. agents/search_core.py is the Python side.
#include <nanobind/stl/function.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bind.hpp"
#include "scripted.hpp"
#include "search.hpp"
#include "seeding.hpp"

namespace hexdojo::bots {

namespace {


void check_params(const Fight& f, const SearchParams& p) {
    auto bad = [](const char* what, long long v, const char* allowed) {
        throw nb::value_error((std::string("search: ") + what + " " + std::to_string(v) +
                               ": allowed " + allowed).c_str());
    };
    if (p.sims < 1 || p.sims > 100000) bad("sims", p.sims, "1..100000");
    if (p.width < 1 || p.width > 64) bad("width", p.width, "1..64");
    if (p.horizon < 1 || p.horizon > 100) bad("horizon", p.horizon, "1..100");
    if (p.sides < 1 || p.sides > 255) bad("sides", p.sides, "1..255");
    if (!(p.c >= 0.0 && p.c <= 10.0)) throw nb::value_error("search: c: allowed 0..10");
    if (!(p.caution >= 0.0 && p.caution <= 10.0)) throw nb::value_error("search: caution: allowed 0..10");
    if (!(p.time_ms >= 0.0 && p.time_ms <= 600000.0)) throw nb::value_error("search: time: allowed 0..600000 ms");
    if (f.t == nullptr || !f.g) throw nb::value_error("search: an empty fight");
}

// Python's seed draws, checked: n seeds in 0 .. 2^63 - 2.
SeedSource checked(std::function<std::vector<std::int64_t>(int)> draw) {
    return [draw = std::move(draw)](int n) {
        std::vector<std::int64_t> s = draw(n);
        if (static_cast<int>(s.size()) != n) {
            throw nb::value_error(("search: seeds: " + std::to_string(s.size()) + " drawn, " +
                                   std::to_string(n) + " asked").c_str());
        }
        for (std::int64_t v : s) {
            if (v < 0) throw nb::value_error("search: seeds: allowed 0 .. 2**63 - 2");
        }
        return s;
    };
}

using Draw = std::function<std::vector<std::int64_t>(int)>;

// The root's banned legal indices (the lab's bans), each a legal index of the open decision.
void check_banned(Fight& f, const std::vector<int>& banned) {
    const auto n = static_cast<long long>(f.has_pending ? f.legal().size() : 0);
    for (int k : banned) {
        if (k < 0 || k >= n) {
            throw nb::value_error(("search: banned: legal index " + std::to_string(k) +
                                   ": allowed 0.." + std::to_string(n - 1)).c_str());
        }
    }
}

// The search's choice (a legal index) and what it counted: the root's visits per child (MCTS)
// or the rollouts per candidate (flat), in rank order (empty where nothing was searched).
std::pair<int, std::vector<int>> mcts_counts(Fight& f, Policy& policy, Policy* model, int sims,
                                             int width, int horizon, double c, double caution,
                                             int sides, Draw draw, double time_ms,
                                             std::vector<int> banned) {
    const SearchParams p{sims, width, horizon, c, caution, sides, time_ms};
    check_params(f, p);
    check_banned(f, banned);
    policy.check(f);
    if (model != nullptr) model->check(f);
    Mcts m(policy, model, p);
    m.ban_at_root(std::move(banned));
    const int k = m.act(f, checked(std::move(draw)));
    return {k, m.root_visits()};
}

std::pair<int, std::vector<int>> search_counts(Fight& f, Policy& policy, int sims, int width,
                                               int horizon, double caution, int sides, Draw draw,
                                               double time_ms, std::vector<int> banned) {
    const SearchParams p{sims, width, horizon, 0.7, caution, sides, time_ms};
    check_params(f, p);
    check_banned(f, banned);
    policy.check(f);
    FlatSearch s(policy, nullptr, p);
    s.ban_at_root(std::move(banned));
    const int k = s.act(f, checked(std::move(draw)));
    return {k, s.counts()};
}

int mcts_act(Fight& f, Policy& policy, Policy* model, int sims, int width, int horizon,
             double c, double caution, int sides, Draw draw, double time_ms,
             std::vector<int> banned) {
    return mcts_counts(f, policy, model, sims, width, horizon, c, caution, sides,
                       std::move(draw), time_ms, std::move(banned)).first;
}

int search_act(Fight& f, Policy& policy, int sims, int width, int horizon, double caution,
               int sides, Draw draw, double time_ms, std::vector<int> banned) {
    return search_counts(f, policy, sims, width, horizon, caution, sides, std::move(draw),
                         time_ms, std::move(banned)).first;
}


void make_player(SearchPlayer* self, bool mcts, Policy& policy, Policy* model, int sims,
                 int width, int horizon, double c, double caution, int sides, Half state,
                 Half inc, bool has_uint32, std::uint32_t uinteger, double time_ms) {
    const SearchParams p{sims, width, horizon, c, caution, sides, time_ms};
    if (p.sims < 1 || p.sims > 100000 || p.width < 1 || p.width > 64 || p.horizon < 1 ||
        p.horizon > 100 || p.sides < 1 || p.sides > 255 || !(p.c >= 0.0 && p.c <= 10.0) ||
        !(p.caution >= 0.0 && p.caution <= 10.0) || !(p.time_ms >= 0.0 && p.time_ms <= 600000.0)) {
        throw nb::value_error("SearchPlayer: a parameter out of range (sims 1..100000, width "
                              "1..64, horizon 1..100, sides 1..255, c and caution 0..10, "
                              "time 0..600000 ms)");
    }
    if (!mcts && model != nullptr) throw nb::value_error("SearchPlayer: a flat search has no model");
    new (self) SearchPlayer(mcts, policy, model, p, pcg64_of(state, inc, has_uint32, uinteger));
}

std::vector<std::int64_t> integers63(std::uint64_t seed, int n) {
    if (n < 0 || n > 1000000) throw nb::value_error("n: allowed 0..1000000");
    Pcg64 g = pcg64_from_seed(seed);
    std::vector<std::int64_t> out(static_cast<std::size_t>(n));
    for (auto& v : out) v = seed63(g);
    return out;
}

std::pair<Half, Half> seed_state(std::uint64_t seed) {
    const Pcg64 g = pcg64_from_seed(seed);
    auto split = [](u128 v) {
        return Half{static_cast<std::uint64_t>(v >> 64), static_cast<std::uint64_t>(v)};
    };
    return {split(g.state), split(g.inc)};
}

std::vector<int> fresh_faces(std::uint64_t seed, int n, int sides) {
    if (sides < 1 || sides > 255) throw nb::value_error("sides: allowed 1..255");
    if (n < 0 || n > 1000000) throw nb::value_error("n: allowed 0..1000000");
    Dice d = fresh_dice(seed, sides);
    std::vector<int> out(static_cast<std::size_t>(n));
    for (auto& v : out) v = d.die();
    return out;
}

}  // namespace

void bind_search(nb::module_& m) {
    nb::class_<Policy>(m, "SearchPolicy",
                       "A search agent's policy (ranks candidates, plays rollouts): legal indices.")
        .def("act", &Policy::act, nb::arg("fight"), "The legal index it plays.")
        .def("ranked", &Policy::ranked, nb::arg("fight"), "The legal indices, best first.");
    nb::class_<FirstChoicePolicy, Policy>(m, "FirstChoicePolicy",
                                          "The tests' trivial policy: the first legal choice, "
                                          "the legal order.")
        .def(nb::init<>());
    nb::class_<RotatePolicy, Policy>(m, "RotatePolicy",
                                     "The tests' other trivial policy: the legal list rotated "
                                     "to start at (3 turn + 5 fighter + n) % n.")
        .def(nb::init<>());
    nb::class_<RandomPolicy, Policy>(m, "RandomPolicy",
                                     "RandomAgent as an opponent model: default_rng(seed)."
                                     "integers(n) per decision, reset from each simulation's seed.")
        .def(nb::init<>());
    nb::class_<PolicyOf<ScriptedBot>, Policy>(m, "ScriptedPolicy",
                                              "A ScriptedBot as a search's policy or "
                                              "opponent model (kept alive with it).")
        .def(nb::init<ScriptedBot&>(), nb::arg("bot"), nb::keep_alive<1, 2>());
    m.def("mcts_act", &mcts_act, nb::arg("fight"), nb::arg("policy"), nb::arg("model").none(),
          nb::arg("sims"), nb::arg("width"), nb::arg("horizon"), nb::arg("c"), nb::arg("caution"),
          nb::arg("sides"), nb::arg("draw"), nb::arg("time_ms") = 0.0, nb::arg("banned") = std::vector<int>{},
          "mcts.MCTSAgent.act: the legal index chosen; draw(n) gives the n per-decision seeds "
          "(the agent's numpy generator); time_ms: the budget (0: none); banned: legal indices "
          "the root may not take (the lab's bans).");
    m.def("search_act", &search_act, nb::arg("fight"), nb::arg("policy"), nb::arg("sims"),
          nb::arg("width"), nb::arg("horizon"), nb::arg("caution"), nb::arg("sides"),
          nb::arg("draw"), nb::arg("time_ms") = 0.0, nb::arg("banned") = std::vector<int>{},
          "search.SearchAgent.act: the legal index chosen.");
    m.def("mcts_counts", &mcts_counts, nb::arg("fight"), nb::arg("policy"), nb::arg("model").none(),
          nb::arg("sims"), nb::arg("width"), nb::arg("horizon"), nb::arg("c"), nb::arg("caution"),
          nb::arg("sides"), nb::arg("draw"), nb::arg("time_ms") = 0.0, nb::arg("banned") = std::vector<int>{},
          "mcts_act, and the root's visits per child in rank order (empty: nothing searched).");
    m.def("search_counts", &search_counts, nb::arg("fight"), nb::arg("policy"), nb::arg("sims"),
          nb::arg("width"), nb::arg("horizon"), nb::arg("caution"), nb::arg("sides"),
          nb::arg("draw"), nb::arg("time_ms") = 0.0, nb::arg("banned") = std::vector<int>{},
          "search_act, and the rollouts per candidate in rank order (empty: nothing searched).");
    nb::class_<SearchPlayer, Player>(m, "SearchPlayer",
                                     "An MCTSAgent or SearchAgent as a native player (the "
                                     "tournament's fast path), with its own generator.")
        .def("__init__", &make_player, nb::arg("mcts"), nb::arg("policy"), nb::arg("model").none(),
             nb::arg("sims"), nb::arg("width"), nb::arg("horizon"), nb::arg("c"),
             nb::arg("caution"), nb::arg("sides"), nb::arg("state"), nb::arg("inc"),
             nb::arg("has_uint32"), nb::arg("uinteger"), nb::arg("time_ms") = 0.0,
             nb::keep_alive<1, 3>(),
             nb::keep_alive<1, 4>(),
             "mcts: MCTSAgent (else SearchAgent); state..uinteger: the agent's PCG64 state.")
        .def(
            "act",
            [](SearchPlayer& p, Fight& c) {
                if (c.t == nullptr || !c.g) throw nb::value_error("SearchPlayer.act: an empty fight");
                return p.act(c);
            },
            nb::arg("fight"), "The legal index of the agent's choice.")
        .def("bit_state", [](const SearchPlayer& p) {
            auto split = [](u128 v) {
                return Half{static_cast<std::uint64_t>(v >> 64), static_cast<std::uint64_t>(v)};
            };
            return std::make_tuple(split(p.rng().state), split(p.rng().inc), p.rng().has_uint32,
                                   p.rng().uinteger);
        }, "The generator's ((state hi, lo), (inc hi, lo), has_uint32, uinteger).");
    m.def("integers63", &integers63, nb::arg("seed"), nb::arg("n"),
          "default_rng(seed).integers(0, 2**63 - 1, size=n), natively.");
    m.def("evaluate", &evaluate, nb::arg("fight"), nb::arg("me"), nb::arg("caution") = 0.0,
          "search.evaluate on a core fight.");
    m.def("seed_state", &seed_state, nb::arg("seed"),
          "numpy's PCG64(seed) as seeded natively: ((state hi, lo), (inc hi, lo)).");
    m.def("fresh_faces", &fresh_faces, nb::arg("seed"), nb::arg("n"), nb::arg("sides") = 6,
          "The first n faces of Dice(seed, sides), seeded natively.");
}

}  // namespace hexdojo::bots
