// Bindings of the native players and the tournament's fast path (play.hpp).
#include <cstdint>
#include <nanobind/ndarray.h>
#include <nanobind/stl/vector.h>

#include "bind.hpp"
#include "play.hpp"
#include "players.hpp"

namespace hexdojo::bots {

namespace {

// Played records as an (n, 12) int32 array: fighter, kind, index, the choice's kind,
// maneuver, target, location, turn, option, risk, events before, after.
nb::ndarray<nb::numpy, std::int32_t, nb::ndim<2>> as_array(const std::vector<Played>& v) {
    constexpr std::size_t kCols = 12;
    auto* data = new std::int32_t[v.size() * kCols > 0 ? v.size() * kCols : 1];
    for (std::size_t r = 0; r < v.size(); ++r) {
        const Played& p = v[r];
        const Choice& c = p.choice;
        const std::int32_t row[kCols] = {p.fighter, p.kind, p.index, c.kind, c.maneuver,
                                         c.target, c.location, c.turn, c.option, c.risk,
                                         p.events, p.after};
        for (std::size_t k = 0; k < kCols; ++k) data[r * kCols + k] = row[k];
    }
    nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<std::int32_t*>(p); });
    return nb::ndarray<nb::numpy, std::int32_t, nb::ndim<2>>(data, {v.size(), kCols}, owner);
}

}  // namespace

void bind_play(nb::module_& m) {
    m.attr("Player") = nb::module_::import_("hexdojo.envs.rules._core").attr("Player");  // the core's
    m.def(
        "fresh_dice",
        [](std::uint64_t seed, int sides) {
            if (sides < 2 || sides > 1000) throw nb::value_error("fresh_dice: sides must be 2..1000");
            return fresh_dice(seed, sides);
        },
        nb::arg("seed"), nb::arg("sides") = 6,
        "envs/rules/dice.py Dice(seed, sides) as the core's dice (a _core.Dice), seeded natively "
        "(SeedSequence and PCG64 as numpy's default_rng(seed)).");
    m.def("agent_seed", &agent_seed, nb::arg("fight_seed"), nb::arg("side"),
          "tournament.agent_seed natively: SeedSequence([fight_seed, side, 7919]).generate_state(1)[0].");
    nb::class_<RandomPlayer, Player>(m, "RandomPlayer",
                                     "RandomAgent inside the core: the same generator and draws.")
        .def(nb::init<>());
    m.def(
        "play_fight",
        [](Fight& c, const std::vector<Player*>& players, const std::vector<int>& sides,
           bool record_events) {
            if (sides.size() != c.s.fighters.size()) {
                throw nb::value_error("play_fight: one side per fighter needed");
            }
            for (int sd : sides) {
                if (sd < 0 || static_cast<std::size_t>(sd) >= players.size()) {
                    throw nb::value_error("play_fight: a side without a player");
                }
            }
            for (const Player* p : players) {
                if (p == nullptr) throw nb::value_error("play_fight: a player is None");
            }
            return as_array(play(c, players, sides, record_events));
        },
        nb::arg("fight"), nb::arg("players"), nb::arg("sides"), nb::arg("record_events") = true,
        "Play the fight to its end (tournament.play_fight's fast path); players[sides[i]] "
        "decides for fighter i (record_events=False: the events from here on are not kept). Returns an (n, 12) int32 array, one row per decision: "
        "fighter, kind, legal index, choice kind, maneuver, target, location, turn, option, "
        "risk, events before, after (a follow-on's maneuver).");
}

}  // namespace hexdojo::bots
