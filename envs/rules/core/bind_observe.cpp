// Bindings of the native observation writer (observe.hpp).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/vector.h>

#include <string>

#include "bind.hpp"
#include "observe.hpp"

namespace hexdojo {

namespace {

using Buffer = nb::ndarray<float, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

void check_ids(const Catalogue& cat, const ObsLayout& lay, const Board& s, const ObsContext& c,
               int me, int op) {
    auto bad = [](const std::string& what) { throw nb::value_error(what.c_str()); };
    if (me < 0 || me >= s.n() || op < 0 || op >= s.n() || me == op) {
        bad("observe: me and op must be two fighters of the state");
    }
    for (int id : c.legal_ids) {
        if (id < 0 || id >= cat.n) bad("observe: legal id " + std::to_string(id) + " outside the catalogue");
    }
    if (c.fighter >= s.n() || c.phasing >= s.n()) bad("observe: context names a missing fighter");
    for (const auto& [who, v] : c.basics) {
        if (who < 0 || who >= s.n()) bad("observe: basics of a missing fighter");
    }
    if (lay.size <= 0) bad("observe: an empty layout");
}

void observe(const Tables& t, const Catalogue& cat, const ObsLayout& lay, const Board& s,
             const ObsContext& c, int me, int op, Buffer out) {
    check_ids(cat, lay, s, c, me, op);
    if (out.shape(0) != static_cast<std::size_t>(lay.size)) {
        throw nb::value_error(("observe: buffer of " + std::to_string(out.shape(0)) +
                               " floats, the layout has " + std::to_string(lay.size)).c_str());
    }
    write_observation(t, cat, lay, s, c, me, op, out.data());
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
    nb::class_<ObsContext>(m, "ObsContext", "What the open decision is about (State.context()).")
        .def(nb::init<>())
        .def_rw("fighter", &ObsContext::fighter).def_rw("kind", &ObsContext::kind)
        .def_rw("about", &ObsContext::about).def_rw("attack", &ObsContext::attack)
        .def_rw("location", &ObsContext::location).def_rw("reaction", &ObsContext::reaction)
        .def_rw("arc", &ObsContext::arc).def_rw("closing", &ObsContext::closing)
        .def_rw("after", &ObsContext::after).def_rw("basics", &ObsContext::basics)
        .def_rw("wound", &ObsContext::wound).def_rw("weapon", &ObsContext::weapon)
        .def_rw("mode", &ObsContext::mode).def_rw("phasing", &ObsContext::phasing)
        .def_rw("locked_hand", &ObsContext::locked_hand)
        .def_rw("legal_ids", &ObsContext::legal_ids);
    m.def("observe", &observe, nb::arg("tables"), nb::arg("catalogue"), nb::arg("layout"),
          nb::arg("state"), nb::arg("context"), nb::arg("me"), nb::arg("op"), nb::arg("out"),
          "Write the raw observation of me (against op) into out.");
}

}  // namespace hexdojo
