// Bindings of the dice (RULES §1.3) and the hex geometry (RULES §1.7).
#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "bind.hpp"
#include "dice.hpp"
#include "hexgrid.hpp"

namespace hexdojo {

namespace {

Dice make_dice(Half state, Half inc, bool has_uint32, std::uint32_t uinteger, int sides) {
    if (sides < 1 || sides > 255) {
        throw nb::value_error("sides: allowed 1..255");
    }
    Dice d;
    d.rng = pcg64_of(state, inc, has_uint32, uinteger);
    d.sides = sides;
    return d;
}

// Dice part-way through a drawn block (a Python Dice after start positions were drawn, or
// a clone): the block's faces, the next one's index and the generator's state after it.
Dice dice_from_block(Half state, Half inc, bool has_uint32, std::uint32_t uinteger, int sides,
                     const std::vector<int>& block, int pos) {
    Dice d = make_dice(state, inc, has_uint32, uinteger, sides);
    if (!block.empty() && block.size() != static_cast<std::size_t>(Dice::kBlock)) {
        throw nb::value_error("block: 0 or 512 faces");
    }
    if (pos < 0 || pos > static_cast<int>(block.size())) throw nb::value_error("pos: beyond the block");
    for (std::size_t k = 0; k < block.size(); ++k) {
        if (block[k] < 1 || block[k] > sides) throw nb::value_error("block: a face outside 1..sides");
        d.block[k] = static_cast<std::uint8_t>(block[k]);
    }
    d.len = static_cast<int>(block.size());
    d.pos = pos;
    return d;
}

Dice loaded_dice(const std::vector<int>& faces, int sides, int used) {
    if (sides < 1 || sides > 255) throw nb::value_error("sides: allowed 1..255");
    if (used < 0 || used > static_cast<int>(faces.size())) throw nb::value_error("used: beyond the script");
    Dice d;
    d.loaded = true;
    d.sides = sides;
    d.pos = used;
    for (int f : faces) {
        if (f < 1 || f > 255) throw nb::value_error("faces: a loaded face outside 1..255");
        d.script.push_back(static_cast<std::uint8_t>(f));
    }
    return d;
}

std::vector<int> faces(Dice& d, int n) {
    if (n < 0) throw nb::value_error("n: allowed 0 or more");
    std::vector<int> out(static_cast<std::size_t>(n));
    for (auto& v : out) v = d.die();
    return out;
}

std::tuple<Half, Half, bool, std::uint32_t> bit_state(const Dice& d) {
    auto split = [](u128 v) {
        return Half{static_cast<std::uint64_t>(v >> 64), static_cast<std::uint64_t>(v)};
    };
    return {split(d.rng.state), split(d.rng.inc), d.rng.has_uint32, d.rng.uinteger};
}

}  // namespace

void bind_dice(nb::module_& m) {
    nb::class_<Dice>(m, "Dice", "The core's d6 stream: numpy's PCG64 and Generator.integers, "
                                "bit for bit, in blocks of 512 faces.")
        .def(nb::new_(&make_dice), nb::arg("state"), nb::arg("inc"), nb::arg("has_uint32"),
             nb::arg("uinteger"), nb::arg("sides") = 6)
        .def_static("from_block", &dice_from_block, nb::arg("state"), nb::arg("inc"),
                    nb::arg("has_uint32"), nb::arg("uinteger"), nb::arg("sides"),
                    nb::arg("block"), nb::arg("pos"))
        .def_static("loaded_faces", &loaded_dice, nb::arg("faces"), nb::arg("sides") = 6,
                    nb::arg("used") = 0, "Scripted faces (LoadedDice), then an error.")
        .def("die", &Dice::die, "One face, 1..sides.")
        .def("faces", &faces, nb::arg("n"), "n faces (as n calls of die).")
        .def("clone", [](const Dice& d) { return Dice(d); },
             "A copy that rolls the same future faces independently.")
        .def("bit_state", &bit_state,
             "The generator's ((state hi, lo), (inc hi, lo), has_uint32, uinteger).")
        .def_ro("sides", &Dice::sides)
        .def_ro("pos", &Dice::pos)
        .def_ro("loaded", &Dice::loaded);
}

void bind_hexgrid(nb::module_& m) {
    auto hx = m.def_submodule("hexgrid", "Hex geometry (RULES §1.7), as envs/rules/hexgrid.py.");
    auto hex = [](std::pair<int, int> h) { return checked_hex(h.first, h.second); };
    auto pair = [](Hex h) { return std::pair<int, int>{h.q, h.r}; };
    hx.def("neighbour", [=](std::pair<int, int> h, int d) { return pair(neighbour(hex(h), d)); });
    hx.def("distance", [=](std::pair<int, int> a, std::pair<int, int> b) {
        return distance(hex(a), hex(b));
    });
    hx.def("direction_to", [=](std::pair<int, int> a, std::pair<int, int> b) {
        return direction_to(hex(a), hex(b));
    });
    hx.def("nearest_direction", [=](std::pair<int, int> a, std::pair<int, int> b) {
        return nearest_direction(hex(a), hex(b));
    });
    hx.def("in_arena", [=](std::pair<int, int> h, int radius) { return in_arena(hex(h), radius); });
    // directions and steps from outside: bounded like coordinates, so no sum overflows
    auto dir = [](int v) {
        if (v < -kMaxCoordinate || v > kMaxCoordinate) {
            throw nb::value_error(("direction " + std::to_string(v) + ": allowed -" +
                                   std::to_string(kMaxCoordinate) + ".." +
                                   std::to_string(kMaxCoordinate)).c_str());
        }
        return v;
    };
    hx.def("turn", [=](int facing, int steps) { return turn(dir(facing), dir(steps)); });
    hx.def("relative", [=](int d, int facing) { return relative(dir(d), dir(facing)); });
    hx.def("opposite", [=](int d) { return opposite(dir(d)); });
}


}  // namespace hexdojo
