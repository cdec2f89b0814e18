// Bindings of the duel's action catalogue (catalogue.hpp) and its mask writer.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "bind.hpp"
#include "catalogue.hpp"

namespace hexdojo {

namespace {

using Mask = nb::ndarray<std::int8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

Catalogue make_catalogue(const Tables& t, bool armed) {
    if (!t.sealed) throw nb::value_error("tables: seal() them before building a catalogue");
    return Catalogue(t, armed);
}

// Write the mask of ids into buffer (zeroed first): the env's preallocated mask.
void write_mask(const Catalogue& c, const std::vector<int>& ids, Mask buffer) {
    if (buffer.shape(0) != static_cast<std::size_t>(c.n)) {
        throw nb::value_error(("mask: " + std::to_string(buffer.shape(0)) + " entries, the "
                               "catalogue has " + std::to_string(c.n)).c_str());
    }
    std::int8_t* out = buffer.data();
    for (int k = 0; k < c.n; ++k) out[k] = 0;
    for (int id : ids) {
        if (id < 0 || id >= c.n) {
            throw nb::index_error(("mask: id " + std::to_string(id) + ", allowed 0.." +
                                   std::to_string(c.n - 1)).c_str());
        }
        out[id] = 1;
    }
}

}  // namespace

void bind_catalogue(nb::module_& m) {
    nb::class_<Catalogue>(m, "Catalogue", "The duel's flat action catalogue (envs/catalogue.py).")
        .def(nb::new_(&make_catalogue), nb::arg("tables"), nb::arg("armed") = false,
             nb::keep_alive<0, 1>())
        .def_ro("n", &Catalogue::n)
        .def_ro("first_risk", &Catalogue::first_risk)
        .def_ro("first_maneuver", &Catalogue::first_maneuver)
        .def_ro("armed", &Catalogue::armed)
        .def_ro("maneuvers", &Catalogue::maneuvers)
        .def("maneuver_id", [](const Catalogue& c, const Tables& t, int m, int turn, int loc,
                               int option) { return c.maneuver_id(t, m, turn, loc, option); },
             nb::arg("tables"), nb::arg("maneuver"), nb::arg("turn"), nb::arg("location"),
             nb::arg("option"), "The id of a maneuver choice, -1 when the catalogue has none.")
        .def("risk_id", [](const Catalogue& c, int dice) {
            if (dice < 0 || c.first_risk + dice >= c.first_maneuver) {
                throw nb::value_error("risk: beyond the rules' max_risk_dice");
            }
            return c.risk_id(dice);
        })
        .def("write_mask", &write_mask, nb::arg("ids"), nb::arg("buffer"))
        .def("decode", [](const Catalogue& c, const Tables& t, int id) {
            if (id < 0 || id >= c.n) {
                throw nb::index_error(("action id " + std::to_string(id) + ": allowed 0.." +
                                       std::to_string(c.n - 1)).c_str());
            }
            const Catalogue::Template x = c.decode(t, id);
            return std::make_tuple(x.fixed, x.risk, x.maneuver, x.turn, x.location, x.option);
        }, nb::arg("tables"), nb::arg("id"),
             "(fixed, risk, maneuver, turn, location, option) of an id, -1 where absent.");
}

}  // namespace hexdojo
