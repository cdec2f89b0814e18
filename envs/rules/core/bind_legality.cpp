// Bindings of the legality layer (legality.hpp): the legal maneuver choices of a window as a
// numpy int32 array (maneuver, target, location, turn, option; -1 for None), the reason a
// choice is illegal as a code with ids (reason_texts.py renders the text), and the
// defensive reactions ahead of an attack. Every id is checked here first: bad input is a
// Python ValueError naming the field, never a crash.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "bind.hpp"
#include "legality.hpp"

namespace hexdojo {

namespace {

// Throws ValueError "field: id v: allowed lo..hi" unless lo <= v < hi.
void id(const std::string& field, int v, int lo, int hi) {
    if (v >= lo && v < hi) return;
    throw nb::value_error((field + ": id " + std::to_string(v) + ": allowed " + std::to_string(lo) +
                           ".." + std::to_string(hi - 1)).c_str());
}

void check_tables(const Tables& t) {
    if (!t.sealed) throw nb::value_error("tables: not sealed (call seal() first)");
    if (t.n_locations() > kMaxLocations) {
        throw nb::value_error(("tables: " + std::to_string(t.n_locations()) +
                               " locations, the native legality takes at most " +
                               std::to_string(kMaxLocations)).c_str());
    }
}

void check_fighter(const Tables& t, const FighterState& f, const std::string& at) {
    const int nw = static_cast<int>(t.weapon_ids.size());
    for (int h : f.hands) id(at + ".hands", h, kNone, nw);
    for (int w : f.sheathed) id(at + ".sheathed", w, 0, nw);
    for (const auto& x : f.stuck) {
        id(at + ".stuck.weapon", x.weapon, 0, nw);
        id(at + ".stuck.location", x.location, 0, t.n_locations());
    }
}

void check_state(const Tables& t, const Board& s) {
    const int n = s.n();
    if (n < 2) throw nb::value_error("state: no fighters (the native core takes 2..8)");
    if (static_cast<int>(s.sides.size()) != n) {
        throw nb::value_error(("state.sides: " + std::to_string(s.sides.size()) + " entries, " +
                               std::to_string(n) + " needed (one per fighter)").c_str());
    }
    for (const auto& f : s.fighters) check_fighter(t, f, "fighter " + std::to_string(f.idx));
    for (const auto& h : s.holds) {
        id("hold.holder", h.holder, 0, n);
        id("hold.held", h.held, 0, n);
        id("hold.kind", h.kind, 0, static_cast<int>(t.hold_kinds.size()));
        id("hold.location", h.location, kNone, t.n_locations());
        id("hold.hand", h.hand, kNone, 2);
    }
    for (const auto& d : s.dropped) id("dropped.weapon", d.weapon, 0, static_cast<int>(t.weapon_ids.size()));
}

void check_window(const Tables& t, const Board& s, const Window& w) {
    const int n = s.n(), nm = t.n_maneuvers();
    id("window.fighter", w.fighter, 0, n);
    id("window.attacker", w.attacker, kNone, n);
    id("window.locked_fighter", w.locked_fighter, kNone, n);
    id("window.attack", w.attack, kNone, nm);
    id("window.after", w.after, kNone, nm);
    for (int m : w.reactions_only) id("window.reactions_only", m, 0, nm);
    id("window.own_hand", w.own_hand, kNone, 2);
    id("window.phasing", w.phasing, kNone, n);
    id("window.restrict_limb", w.restrict_limb, kNone, static_cast<int>(kLimbNames.size()));
    id("window.restrict_location", w.restrict_location, kNone, t.n_locations());
    if (w.has_follow) id("window.follow_direction", w.follow_direction, 0, 6);
}

Query checked(const Tables& t, const Board& s, const Window& w) {
    check_tables(t);
    check_state(t, s);
    check_window(t, s, w);
    return {t, s};
}

using Choices = nb::ndarray<nb::numpy, std::int32_t, nb::shape<-1, 5>>;

// The choices as (maneuver, target, location, turn, option) rows of int32, -1 for None.
void write_rows(const std::vector<ChoiceIds>& choices, std::int32_t* data) {
    for (std::size_t k = 0; k < choices.size(); ++k) {
        const ChoiceIds& c = choices[k];
        std::int32_t* row = data + 5 * k;
        row[0] = c.maneuver;
        row[1] = c.target;
        row[2] = c.location;
        row[3] = c.turn;
        row[4] = c.option;
    }
}

Choices choices_array(const Tables& t, const Board& s, const Window& w) {
    thread_local std::vector<ChoiceIds> out;
    maneuver_choices(checked(t, s, w), w, out);
    const std::size_t n = out.size();
    auto* data = new std::int32_t[n * 5 + 1];
    write_rows(out, data);
    nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<std::int32_t*>(p); });
    return Choices(data, {n, 5}, owner);
}

// maneuver_choices into the caller's int32 (rows, 5) buffer: the rows written, or -(the rows
// needed) when the buffer is too small (nothing written then).
int choices_into(const Tables& t, const Board& s, const Window& w,
                 nb::ndarray<std::int32_t, nb::shape<-1, 5>, nb::c_contig, nb::device::cpu> buf) {
    thread_local std::vector<ChoiceIds> out;
    maneuver_choices(checked(t, s, w), w, out);
    const std::size_t n = out.size();
    if (n > buf.shape(0)) return -static_cast<int>(n);
    std::int32_t* data = buf.data();
    write_rows(out, data);
    return static_cast<int>(n);
}

// Seconds for `calls` native maneuver_choices of one window, timed inside the core: the cost
// the engine pays, without Python's call.
double time_choices(const Tables& t, const Board& s, const Window& w, int calls) {
    std::vector<ChoiceIds> out;
    const Query x = checked(t, s, w);
    const auto t0 = std::chrono::steady_clock::now();
    std::size_t total = 0;
    for (int k = 0; k < calls; ++k) {
        maneuver_choices(x, w, out);
        total += out.size();
    }
    const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
    return total == static_cast<std::size_t>(-1) ? 0.0 : dt.count();
}

using ReasonTuple = std::tuple<int, int, int, int, int, int, int>;

std::optional<ReasonTuple> reason_tuple(const Reason& r) {
    if (!r) return std::nullopt;
    return ReasonTuple{static_cast<int>(r.code), r.maneuver, r.a[0], r.a[1], r.a[2], r.a[3], r.a[4]};
}

std::optional<ReasonTuple> explain_ids(const Tables& t, const Board& s, const Window& w,
                                       std::tuple<int, int, int, int, int> c) {
    const Query x = checked(t, s, w);
    const auto [m, target, loc, turn_by, option] = c;
    id("choice.maneuver", m, 0, t.n_maneuvers());
    id("choice.location", loc, kUnknown, t.n_locations());
    return reason_tuple(explain(x, w, ChoiceIds{m, target, loc, turn_by, option}));
}

std::vector<int> defences(const Tables& t, const Board& s, int y, int attacker, int attack,
                          int restrict_limb, int restrict_location, std::optional<int> ap) {
    Window w;
    w.fighter = y;
    w.attacker = attacker;
    w.attack = attack;
    w.restrict_limb = restrict_limb;
    w.restrict_location = restrict_location;
    const Query x = checked(t, s, w);
    id("attacker", attacker, 0, s.n());
    id("attack", attack, 0, t.n_maneuvers());
    return defence_options(x, y, attacker, attack, {restrict_limb, restrict_location},
                           ap.has_value() ? *ap : kNone);
}

}  // namespace

void bind_legality(nb::module_& m) {
    m.def("reason_names", [] { return std::vector<std::string>(kReasonNames.begin(), kReasonNames.end()); },
          "The native reason codes' names, by code (reason_texts.py renders each).");
    m.def("maneuver_choices", &choices_array, nb::arg("tables"), nb::arg("state"), nb::arg("window"),
          "Every legal maneuver choice in the window, legality.maneuver_choices' order: rows of "
          "(maneuver, target, location, turn, option), -1 for None.");
    m.def("maneuver_choices_into", &choices_into, nb::arg("tables"), nb::arg("state"),
          nb::arg("window"), nb::arg("out"),
          "maneuver_choices written into a preallocated int32 (rows, 5) array: the rows "
          "written, or minus the rows needed when it is too small (nothing written).");
    m.def("time_maneuver_choices", &time_choices, nb::arg("tables"), nb::arg("state"),
          nb::arg("window"), nb::arg("calls"),
          "Seconds `calls` native maneuver_choices of the window take inside the core "
          "(a benchmark: no Python call per list).");
    m.def("explain", &explain_ids, nb::arg("tables"), nb::arg("state"), nb::arg("window"),
          nb::arg("choice"),
          "Why the maneuver choice (maneuver, target, location, turn, option) is not legal in "
          "the window: (code, maneuver, a0..a4), or None for kOk. A location of -2 is an "
          "unknown name.");
    m.def("defence_options", &defences, nb::arg("tables"), nb::arg("state"), nb::arg("defender"),
          nb::arg("attacker"), nb::arg("attack"), nb::arg("restrict_limb") = kNone,
          nb::arg("restrict_location") = kNone, nb::arg("ap") = nb::none(),
          "legality.defence_options: the defensive reactions (ids) the defender could answer "
          "the attack with if it came now.");
}

}  // namespace hexdojo
