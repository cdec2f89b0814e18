// Bindings of the native observation writer (observe.hpp): the layout Python declares, and
// observe_fight, which every duel observation (the envs, the learned agents, the AEC and
// OpenSpiel faces) is written by.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "bind.hpp"
#include "fight.hpp"
#include "observe.hpp"
#include "vector_env.hpp"

namespace hexdojo {

namespace {

using Buffer = nb::ndarray<float, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using MaskBuffer = nb::ndarray<std::int8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

// The observation of `me` (against `op`) at the fight's open decision, raw units, into `out`,
// and the exact mask of his legal choices into `mask` (all zeros unless he decides): the one
// writer every env's observation comes from (issue 32).
void observe_fight(Fight& c, const Catalogue& cat, const ObsLayout& lay, int me, int op, Buffer out,
                   std::optional<MaskBuffer> mask) {
    const int n = c.s.n();
    if (me < 0 || me >= n || op < 0 || op >= n || me == op) {
        throw nb::value_error(("observe_fight: me " + std::to_string(me) + " and op " + std::to_string(op) +
                               ": two fighters of the fight's " + std::to_string(n)).c_str());
    }
    if (lay.size <= 0) throw nb::value_error("observe_fight: an empty layout");
    if (out.shape(0) != static_cast<std::size_t>(lay.size)) {
        throw nb::value_error(("observe_fight: buffer of " + std::to_string(out.shape(0)) +
                               " floats, the layout has " + std::to_string(lay.size)).c_str());
    }
    if (mask && mask->shape(0) != static_cast<std::size_t>(cat.n)) {
        throw nb::value_error(("observe_fight: mask of " + std::to_string(mask->shape(0)) +
                               " entries, the catalogue has " + std::to_string(cat.n)).c_str());
    }
    const ObsContext ctx = obs_context(c, cat, *c.t, me);
    write_observation(*c.t, cat, lay, c.s, ctx, me, op, out.data());
    if (mask) {
        std::int8_t* m = mask->data();
        std::fill(m, m + cat.n, static_cast<std::int8_t>(0));
        for (int id : ctx.legal_ids) m[id] = 1;
    }
}

}  // namespace

void bind_observe(nb::module_& m) {
    nb::class_<ObsLayout>(m, "ObsLayout", "Field offsets of an observation layout.")
        .def(nb::init<>())
        .def_rw("size", &ObsLayout::size)
        .def_rw("decision_kind", &ObsLayout::decision_kind).def_rw("deciding", &ObsLayout::deciding)
        .def_rw("risk_roll", &ObsLayout::risk_roll).def_rw("roll_attack", &ObsLayout::roll_attack)
        .def_rw("roll_location", &ObsLayout::roll_location)
        .def_rw("roll_reaction", &ObsLayout::roll_reaction)
        .def_rw("roll_basics", &ObsLayout::roll_basics).def_rw("soak_wound", &ObsLayout::soak_wound)
        .def_rw("incoming_maneuver", &ObsLayout::incoming_maneuver)
        .def_rw("incoming_location", &ObsLayout::incoming_location)
        .def_rw("incoming_arc", &ObsLayout::incoming_arc)
        .def_rw("incoming_closing", &ObsLayout::incoming_closing)
        .def_rw("follow_on_after", &ObsLayout::follow_on_after)
        .def_rw("follow_ons", &ObsLayout::follow_ons).def_rw("opp_offset", &ObsLayout::opp_offset)
        .def_rw("distance", &ObsLayout::distance).def_rw("same_hex", &ObsLayout::same_hex)
        .def_rw("arc_of_opp", &ObsLayout::arc_of_opp).def_rw("arc_of_self", &ObsLayout::arc_of_self)
        .def_rw("initiative", &ObsLayout::initiative).def_rw("phase", &ObsLayout::phase)
        .def_rw("turn", &ObsLayout::turn).def_rw("per", &ObsLayout::per)
        .def_rw("armed", &ObsLayout::armed).def_rw("incoming_weapon", &ObsLayout::incoming_weapon)
        .def_rw("incoming_mode", &ObsLayout::incoming_mode)
        .def_rw("per_armed", &ObsLayout::per_armed);
    m.def("observe_fight", &observe_fight, nb::arg("fight"), nb::arg("catalogue"), nb::arg("layout"),
          nb::arg("me"), nb::arg("op"), nb::arg("out"), nb::arg("mask") = nb::none(),
          "Write fighter me's raw observation (against op) of the fight's open decision into out, "
          "and, given a mask, his exact legal-choice mask (zeros unless he decides).");
}

}  // namespace hexdojo
