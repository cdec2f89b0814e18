// Bindings of the group fight's observation and mask writer (observe_group.hpp): the layout
// Python declares (skirmish_spaces.GroupEncoder) and the observer every group observation is
// written by (skirmish_spaces.observe: the Skirmish env, the AEC env, the agents).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "bind.hpp"
#include "observe_group.hpp"

namespace hexdojo {

namespace {

using Buffer = nb::ndarray<float, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using MaskBuffer = nb::ndarray<std::int8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

[[noreturn]] void bad(const std::string& what) { throw nb::value_error(("GroupObserver: " + what).c_str()); }

// The declaration from Python is whole: one factor per number, one id per (slot, duel id),
// the copied decision fields inside both layouts.
void check_observer(const Catalogue& cat, const GroupLayout& lay, const ObsLayout& duel,
                    const std::vector<float>& factor, const std::vector<int>& ids, int n_ids) {
    if (lay.size <= 0 || duel.size <= 0 || lay.n_slots < 1) bad("an empty layout or no other fighter");
    if (static_cast<int>(factor.size()) != lay.size) {
        bad(std::to_string(factor.size()) + " factors, the layout has " + std::to_string(lay.size) + " numbers");
    }
    if (static_cast<int>(ids.size()) != lay.n_slots * cat.n) {
        bad(std::to_string(ids.size()) + " ids, allowed n_slots x catalogue = " + std::to_string(lay.n_slots * cat.n));
    }
    for (int id : ids) {
        if (id < 0 || id >= n_ids) bad("id " + std::to_string(id) + " outside 0.." + std::to_string(n_ids - 1));
    }
    for (const auto& [from, to, n] : lay.decision) {
        if (from < 0 || to < 0 || n < 0 || from + n > duel.size || to + n > lay.size) {
            bad("a decision field outside a layout");
        }
    }
}

// The fight, me and the slots agree with the observer: its rules, a fighter, the others once.
void check_call(const GroupObserver& g, const Fight& c, int me, const std::vector<int>& slots) {
    const int n = c.s.n();
    if (c.t != g.t) bad("the fight's rules (tables) are not the observer's");
    if (me < 0 || me >= n) bad("me " + std::to_string(me) + ": allowed 0.." + std::to_string(n - 1));
    if (static_cast<int>(slots.size()) != g.lay.n_slots || g.lay.n_slots != n - 1) {
        bad(std::to_string(slots.size()) + " slots for a fight of " + std::to_string(n) +
            " fighters and a layout of " + std::to_string(g.lay.n_slots) + " slots");
    }
    std::array<bool, kMaxFighters> seen{};
    for (int j : slots) {
        if (j < 0 || j >= n || j == me || seen[static_cast<std::size_t>(j)]) {
            bad("slots: each other fighter once (got " + std::to_string(j) + ")");
        }
        seen[static_cast<std::size_t>(j)] = true;
    }
}

void observe(GroupObserver& g, Fight& c, int me, const std::vector<int>& slots, Buffer out,
             std::optional<MaskBuffer> mask) {
    check_call(g, c, me, slots);
    if (out.shape(0) != static_cast<std::size_t>(g.lay.size)) {
        bad("buffer of " + std::to_string(out.shape(0)) + " floats, the layout has " + std::to_string(g.lay.size));
    }
    if (mask && mask->shape(0) != static_cast<std::size_t>(g.n_ids)) {
        bad("mask of " + std::to_string(mask->shape(0)) + " entries, the catalogue has " + std::to_string(g.n_ids));
    }
    g.observe(c, me, slots, out.data(), mask ? mask->data() : nullptr);
}

}  // namespace

void bind_observe_group(nb::module_& m) {
    nb::class_<GroupLayout>(m, "GroupLayout", "Field offsets of a group fight's observation layout.")
        .def(nb::init<>())
        .def_rw("size", &GroupLayout::size).def_rw("n_slots", &GroupLayout::n_slots)
        .def_rw("decision", &GroupLayout::decision).def_rw("self_pos", &GroupLayout::self_pos)
        .def_rw("self_fighter", &GroupLayout::self_fighter)
        .def_rw("others_fighter", &GroupLayout::others_fighter)
        .def_rw("fighter_size", &GroupLayout::fighter_size)
        .def_rw("others_pair", &GroupLayout::others_pair).def_rw("pair_size", &GroupLayout::pair_size)
        .def_rw("armed", &GroupLayout::armed).def_rw("self_weapons", &GroupLayout::self_weapons)
        .def_rw("others_weapons", &GroupLayout::others_weapons)
        .def_rw("weapon_size", &GroupLayout::weapon_size);
    nb::class_<GroupObserver>(m, "GroupObserver", "Writes a group fight's observation and mask.")
        .def("__init__",
             [](GroupObserver* self, const Tables& t, const Catalogue& cat, const GroupLayout& lay,
                const ObsLayout& duel, std::vector<float> factor, std::vector<int> ids, int n_ids) {
                 check_observer(cat, lay, duel, factor, ids, n_ids);
                 new (self) GroupObserver{&t, cat, lay, duel, std::move(factor), std::move(ids), n_ids, {}};
             },
             nb::arg("tables"), nb::arg("catalogue"), nb::arg("layout"), nb::arg("duel_layout"),
             nb::arg("factor"), nb::arg("ids"), nb::arg("n_ids"), nb::keep_alive<1, 2>(),
             "An observer of fights of these rules: the duel catalogue, the group layout, the duel "
             "layout its decision fields come from, one unit factor per number, and the group "
             "catalogue's ids (ids[slot * catalogue.n + duel id], n_ids of them).")
        .def("observe", &observe, nb::arg("fight"), nb::arg("me"), nb::arg("slots"), nb::arg("out"),
             nb::arg("mask") = nb::none(),
             "Write me's unit-scaled observation (slots: the others in slot order) into out and, "
             "if given, his exact mask into mask.")
        .def_prop_ro("size", [](const GroupObserver& g) { return g.lay.size; })
        .def_prop_ro("n_ids", [](const GroupObserver& g) { return g.n_ids; });
}

}  // namespace hexdojo
