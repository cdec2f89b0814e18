// Bindings of the native vector of duels (vector_env.hpp).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "bind.hpp"
#include "player.hpp"
#include "vector_env.hpp"

namespace hexdojo {

namespace {

template <typename T, typename... Shape>
using Arr = nb::ndarray<T, nb::c_contig, nb::device::cpu, Shape...>;

template <typename T>
T* rows(Arr<T> a, int n, int width, const char* what) {
    const bool ok = width == 0 ? (a.ndim() == 1 && a.shape(0) == static_cast<std::size_t>(n))
                               : (a.ndim() == 2 && a.shape(0) == static_cast<std::size_t>(n) &&
                                  a.shape(1) == static_cast<std::size_t>(width));
    if (!ok) throw nb::value_error((std::string(what) + ": a buffer of the wrong shape").c_str());
    return a.data();
}

using F32 = Arr<float>;
using I8 = Arr<std::int8_t>;
using U8 = Arr<std::uint8_t>;
using I32 = Arr<std::int32_t>;

// The caller's numpy buffers, each checked for its shape (one row per slot).
VectorBuffers buffers(const DuelVector& v, F32 obs, I8 mask, F32 reward, U8 terminated,
                      U8 truncated, F32 final_obs, U8 has_final, I32 side, I32 illegal,
                      I32 outcome) {
    const int n = v.n(), size = v.layout().size, m = v.catalogue().n;
    VectorBuffers b;
    b.obs = rows(obs, n, size, "obs");
    b.final_obs = rows(final_obs, n, size, "final_obs");
    b.mask = rows(mask, n, m, "mask");
    b.reward = rows(reward, n, 0, "reward");
    b.terminated = rows(terminated, n, 0, "terminated");
    b.truncated = rows(truncated, n, 0, "truncated");
    b.has_final = rows(has_final, n, 0, "has_final");
    b.side = rows(side, n, 0, "side");
    b.illegal = rows(illegal, n, 0, "illegal");
    b.outcome = rows(outcome, n, 0, "outcome");
    b.opp_obs = v.external.opp_obs;
    b.opp_mask = v.external.opp_mask;
    b.waiting = v.external.waiting;
    return b;
}

template <typename F>
void guarded(F&& f) {  // the core's own errors as Python ones, never an abort
    try {
        f();
    } catch (const std::invalid_argument& e) {
        throw nb::value_error(e.what());
    } catch (const std::out_of_range& e) {
        throw nb::index_error(e.what());
    }
}

}  // namespace

void bind_player(nb::module_& m) {
    nb::class_<Player>(m, "Player", "A native player of core fights (player.hpp): the agents' "
                                    "C++ players (hexdojo.agents._bots) derive from it.")
        .def("reset", &Player::reset, nb::arg("seed"), "Re-seed for a new fight.")
        .def("act", &Player::act, nb::arg("fight"),
             "The legal index of this player's choice at the fight's pending decision.");
}

void bind_vector(nb::module_& m) {
    bind_player(m);
    nb::class_<Pcg64>(m, "Pcg64", "A PCG64 generator's state (numpy's, bit for bit).")
        .def(nb::init<>())
        .def("set", [](Pcg64& g, Half state, Half inc) {
            g = pcg64_of(state, inc);
        }, nb::arg("state"), nb::arg("inc"))
        .def("next64", &Pcg64::next64)
        .def("bounded", [](Pcg64& g, std::uint32_t rng) {
            if (rng == 0xFFFFFFFFU) throw nb::value_error("rng: allowed 0..2^32-2");
            return g.bounded(rng);
        });
    nb::class_<VectorOptions>(m, "VectorOptions")
        .def(nb::init<>())
        .def_rw("side", &VectorOptions::side)
        .def_rw("shaping", &VectorOptions::shaping)
        .def_rw("illegal_penalty", &VectorOptions::illegal_penalty)
        .def_rw("illegal_limit", &VectorOptions::illegal_limit)
        .def_rw("unit", &VectorOptions::unit)
        .def_rw("autoreset", &VectorOptions::autoreset)
        .def_rw("events", &VectorOptions::events);
    nb::class_<DuelVector>(m, "DuelVector",
                           "N duels stepped in one call, each against an opponent the core plays (random "
                           "legal play, a native Player) or Python answers in a batch (vector_env.hpp).")
        .def("__init__", [](DuelVector* self, const Fight& proto, const Catalogue& cat,
                            const ObsLayout& lay, std::vector<float> unit, VectorOptions opt, int n) {
            if (n < 1 || n > 100000) throw nb::value_error("n: allowed 1..100000");
            if (opt.side < kNone || opt.side > 1) throw nb::value_error("side: allowed -1, 0, 1");
            if (proto.has_pending || !proto.stack.empty() || !proto.events.empty()) {
                throw nb::value_error("proto: a fight set up and not started");
            }
            guarded([&] { new (self) DuelVector(proto, cat, lay, std::move(unit), opt, n); });
        }, nb::arg("proto"), nb::arg("catalogue"), nb::arg("layout"), nb::arg("unit_factor"),
             nb::arg("options"), nb::arg("n"), nb::keep_alive<1, 2>())
        .def_prop_ro("n", &DuelVector::n)
        .def_prop_ro("episodes", &DuelVector::episodes)
        .def_prop_ro("opponent_ns", &DuelVector::opponent_ns,
                     "Nanoseconds the native opponent players have thought so far.")
        .def_prop_rw("side", &DuelVector::side, [](DuelVector& v, int side) {
            if (side < kNone || side > 1) throw nb::value_error("side: allowed -1, 0, 1");
            v.set_side(side);
        }, "The agent's fighter of the episodes started from now on (-1: drawn each episode).")
        .def("delta", [](DuelVector& v, int k) {
            if (k < 0 || k >= v.n()) throw nb::index_error("slot: outside the vector");
            return v.slot(k).delta;
        }, nb::arg("slot"), "Slot k's last step: wound levels inflicted - taken (shaping's unit).")
        .def("episode", [](DuelVector& v, int k) {
            if (k < 0 || k >= v.n()) throw nb::index_error("slot: outside the vector");
            return v.slot(k).episode;
        }, nb::arg("slot"), "Episodes slot k has begun (an episode restarted before the agent "
                            "decided counts: its opponent was drawn and seeded again).")
        .def("opponent_seed", [](DuelVector& v, int k) {
            if (k < 0 || k >= v.n()) throw nb::index_error("slot: outside the vector");
            return v.slot(k).opponent_seed;
        }, nb::arg("slot"), "The seed slot k's episode gave its pool's opponent (a native player "
                            "was reset with it; an external one's caller resets it with it).")
        .def("waits", [](DuelVector& v, int k) {
            if (k < 0 || k >= v.n()) throw nb::index_error("slot: outside the vector");
            return v.slot(k).waiting;
        }, nb::arg("slot"), "Does slot k wait for its external opponent's answer?")
        .def("set_proto", [](DuelVector& v, const Fight& proto) {
            if (proto.has_pending || !proto.stack.empty() || !proto.events.empty()) {
                throw nb::value_error("proto: a fight set up and not started");
            }
            guarded([&] { v.set_proto(proto); });
        }, nb::arg("proto"), "The fight every episode started from now on copies (a set-up, "
                             "not started: a start drawn per episode).")
        .def("set_protos", [](DuelVector& v, const std::vector<Fight>& protos) {
            for (const Fight& p : protos) {
                if (p.has_pending || !p.stack.empty() || !p.events.empty()) {
                    throw nb::value_error("protos: fights set up and not started");
                }
            }
            guarded([&] { v.set_protos(protos); });
        }, nb::arg("protos"), "The fights the episodes started from now on copy, one drawn per "
                              "episode from the slot's generator after its side (a scene's start "
                              "distance range: one set-up per distance; 1..64 fights).")
        .def("start", [](DuelVector& v, int k) {
            if (k < 0 || k >= v.n()) throw nb::index_error("slot: outside the vector");
            return v.slot(k).start;
        }, nb::arg("slot"), "The prototype (its index in set_protos' list) slot k's episode "
                            "started from.")
        .def("n_events", [](DuelVector& v, int k) {
            if (k < 0 || k >= v.n()) throw nb::index_error("slot: outside the vector");
            return v.slot(k).fight.events.size();
        }, nb::arg("slot"), "Events in slot k's fight so far (kept only with options.events).")
        .def("reset", [](DuelVector& v, const std::vector<Pcg64>& rngs, F32 obs, I8 mask,
                         F32 reward, U8 terminated, U8 truncated, F32 final_obs, U8 has_final,
                         I32 side, I32 illegal, I32 outcome) {
            const VectorBuffers b = buffers(v, obs, mask, reward, terminated, truncated,
                                            final_obs, has_final, side, illegal, outcome);
            guarded([&] { v.reset(rngs, b); });
        }, nb::arg("rngs"), nb::arg("obs"), nb::arg("mask"), nb::arg("reward"),
             nb::arg("terminated"), nb::arg("truncated"), nb::arg("final_obs"),
             nb::arg("has_final"), nb::arg("side"), nb::arg("illegal"), nb::arg("outcome"))
        .def("step", [](DuelVector& v, Arr<std::int64_t> actions, F32 obs, I8 mask, F32 reward,
                        U8 terminated, U8 truncated, F32 final_obs, U8 has_final, I32 side,
                        I32 illegal, I32 outcome) {
            const VectorBuffers b = buffers(v, obs, mask, reward, terminated, truncated,
                                            final_obs, has_final, side, illegal, outcome);
            const std::int64_t* a = rows(actions, v.n(), 0, "actions");
            guarded([&] { v.step(a, b); });
        }, nb::arg("actions"), nb::arg("obs"), nb::arg("mask"), nb::arg("reward"),
             nb::arg("terminated"), nb::arg("truncated"), nb::arg("final_obs"),
             nb::arg("has_final"), nb::arg("side"), nb::arg("illegal"), nb::arg("outcome"))
        .def("bind", [](DuelVector& v, F32 obs, I8 mask, F32 reward, U8 terminated, U8 truncated,
                        F32 final_obs, U8 has_final, I32 side, I32 illegal, I32 outcome) {
            if (v.bound.obs != nullptr) throw nb::value_error("bind: buffers already bound");
            v.bound = buffers(v, obs, mask, reward, terminated, truncated, final_obs, has_final,
                              side, illegal, outcome);
        }, nb::arg("obs"), nb::arg("mask"), nb::arg("reward"), nb::arg("terminated"),
             nb::arg("truncated"), nb::arg("final_obs"), nb::arg("has_final"), nb::arg("side"),
             nb::arg("illegal"), nb::arg("outcome"), nb::keep_alive<1, 2>(), nb::keep_alive<1, 3>(),
             nb::keep_alive<1, 4>(), nb::keep_alive<1, 5>(), nb::keep_alive<1, 6>(),
             nb::keep_alive<1, 7>(), nb::keep_alive<1, 8>(), nb::keep_alive<1, 9>(),
             nb::keep_alive<1, 10>(), nb::keep_alive<1, 11>(),
             "Bind the buffers once (kept alive with the vector); reset_bound/step_bound write them.")
        .def("reset_bound", [](DuelVector& v, const std::vector<Pcg64>& rngs) {
            if (v.bound.obs == nullptr) throw nb::value_error("reset_bound: bind() the buffers first");
            guarded([&] { v.reset(rngs, v.bound); });
        }, nb::arg("rngs"))
        .def("step_bound", [](DuelVector& v, std::int64_t action) {
            if (v.bound.obs == nullptr) throw nb::value_error("step_bound: bind() the buffers first");
            if (v.n() != 1) throw nb::value_error("step_bound: one action, for a one-slot vector");
            guarded([&] { v.step(&action, v.bound); });
            return std::pair<bool, int>(v.bound.terminated[0] != 0, v.bound.outcome[0]);
        }, nb::arg("action"), "Step slot 0 with its bound buffers: (terminated, outcome).")
        .def("answer_bound", [](DuelVector& v, std::int64_t action) {
            if (v.bound.obs == nullptr) throw nb::value_error("answer_bound: bind() the buffers first");
            if (v.n() != 1) throw nb::value_error("answer_bound: one answer, for a one-slot vector");
            guarded([&] { v.answer(&action, v.bound); });
            return std::pair<bool, int>(v.bound.terminated[0] != 0, v.bound.outcome[0]);
        }, nb::arg("action"), "Answer slot 0's waiting external opponent (a catalogue id) with "
                              "the bound buffers, then go on as step_bound: (terminated, outcome).")
        .def("set_pool", [](DuelVector& v, int k, std::vector<Player*> players, double external,
                            int n_external) {
            OpponentPool pool{std::move(players), external, n_external};
            guarded([&] { v.set_pool(k, std::move(pool)); });
        }, nb::arg("slot"), nb::arg("players"), nb::arg("external") = 0.0, nb::arg("n_external") = 0,
             nb::keep_alive<1, 3>(),
             "Slot k's opponents from its next episode on (issue 30): each episode one of the "
             "native players, or with probability `external` one of `n_external` the caller "
             "answers (answer()); no players and no external: random play.")
        .def("bind_external", [](DuelVector& v, F32 opp_obs, I8 opp_mask, I32 waiting) {
            v.external.opp_obs = rows(opp_obs, v.n(), v.layout().size, "opp_obs");
            v.external.opp_mask = rows(opp_mask, v.n(), v.catalogue().n, "opp_mask");
            v.external.waiting = rows(waiting, v.n(), 0, "waiting");
        }, nb::arg("opp_obs"), nb::arg("opp_mask"), nb::arg("waiting"), nb::keep_alive<1, 2>(),
             nb::keep_alive<1, 3>(), nb::keep_alive<1, 4>(),
             "Bind the external opponents' buffers: a waiting slot's opponent observation and "
             "mask, and waiting (0, or 1 + which external player).")
        .def("answer", [](DuelVector& v, Arr<std::int64_t> actions, F32 obs, I8 mask, F32 reward,
                          U8 terminated, U8 truncated, F32 final_obs, U8 has_final, I32 side,
                          I32 illegal, I32 outcome) {
            const VectorBuffers b = buffers(v, obs, mask, reward, terminated, truncated,
                                            final_obs, has_final, side, illegal, outcome);
            const std::int64_t* a = rows(actions, v.n(), 0, "actions");
            guarded([&] { v.answer(a, b); });
        }, nb::arg("actions"), nb::arg("obs"), nb::arg("mask"), nb::arg("reward"),
             nb::arg("terminated"), nb::arg("truncated"), nb::arg("final_obs"),
             nb::arg("has_final"), nb::arg("side"), nb::arg("illegal"), nb::arg("outcome"),
             "Answer the waiting slots' external opponents (catalogue ids), then go on as step().")
        .def("fight", [](DuelVector& v, int k) {
            if (k < 0 || k >= v.n()) throw nb::index_error("slot: outside the vector");
            return Fight(v.slot(k).fight);
        }, nb::arg("slot"), "A copy of slot k's fight (tests).");
}

}  // namespace hexdojo
