// Bindings for the changes Python's State (envs/rules/state.py) makes to its fight beyond
// bind_fight.cpp's interface: a clone takes other dice (State.clone(dice=): a search's
// determinised clone, OpenSpiel's chance replay, a test's loaded dice), a fighter is knocked
// out (State.knock_out, §5.30). fight_set_board (a whole board written back) has no Python
// caller since the State's board became a read-only snapshot (issue 32: a board is set up by
// a scenario only). The writes go into the Combat checked id by id (a ValueError naming the
// field, never a crash); a write does not re-list the pending decision's choices.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <string>
#include <variant>

#include "bind.hpp"
#include "board_checks.hpp"
#include "fight.hpp"

namespace hexdojo {

namespace {

void in_range(const char* field, int v, int lo, int hi) {
    if (v >= lo && v < hi) return;
    throw nb::value_error((std::string("state.") + field + ": " + std::to_string(v) + ": allowed " +
                           std::to_string(lo) + ".." + std::to_string(hi - 1)).c_str());
}

// The board written by Python (the facade's snapshot after a field was set): the same
// fighters, sides and arena as the fight's, every id in range.
void set_board(Combat& c, const State& s) {
    const Tables& t = *c.t;
    const int n = c.s.n();
    if (s.n() != n) throw nb::value_error("state.fighters: the fight's fighters, no more, no fewer");
    if (s.sides != c.s.sides) throw nb::value_error("state.sides: the fight's sides cannot change");
    in_range("radius", s.radius, c.s.radius, c.s.radius + 1);
    for (int k = 0; k < n; ++k) check_fighter(t, s.fighters[static_cast<std::size_t>(k)], k);
    for (const Hold& h : s.holds) {
        in_range("holds.holder", h.holder, 0, n);
        in_range("holds.held", h.held, 0, n);
        in_range("holds.kind", h.kind, 0, static_cast<int>(t.hold_kinds.size()));
        in_range("holds.location", h.location, kNone, t.n_locations());
    }
    for (const Dropped& d : s.dropped) {
        in_range("dropped.weapon", d.weapon, 0, static_cast<int>(t.weapon_ids.size()));
    }
    for (int i : s.order) in_range("order", i, 0, n);
    c.s = s;
}

// State.phasing: the fighter of the topmost phase frame (aom312), -1 when none runs.
int phasing(const Combat& c) {
    for (auto it = c.stack.rbegin(); it != c.stack.rend(); ++it) {
        if (const auto* p = std::get_if<PhaseFrame>(&*it)) return p->i;
    }
    return kNone;
}

}  // namespace

void bind_native_state(nb::module_& m) {
    m.def("fight_set_board", &set_board, nb::arg("fight"), nb::arg("state"),
          "Replace a native fight's board (fighters, holds, dropped weapons, approaches, turn, "
          "order) with a checked one; the pending decision stays as listed.");
    m.def("fight_set_dice", [](Combat& c, const Dice& d) { c.dice = d; }, nb::arg("fight"), nb::arg("dice"),
          "Give a fight other dice from now on (State.clone(dice=), a test's loaded dice).");
    m.def("fight_check_over", [](Combat& c) { return c.check_over(); }, nb::arg("fight"),
          "State.check_over (§5.30): end the fight when one side is left standing.");
    m.def("fight_knock_out", [](Combat& c, int i, int how) {
              in_range("knock_out.fighter", i, 0, c.s.n());
              in_range("knock_out.how", how, 1, 3);
              c.knock_out(i, how);
          }, nb::arg("fight"), nb::arg("i"), nb::arg("how"),
          "State.knock_out (§5.30): fighter i out (1 unconscious, 2 dead), his hold ended (§1.18).");
    m.def("fight_phasing", &phasing, nb::arg("fight"),
          "The fighter whose phase is running (the topmost phase frame), -1 when none.");
}

}  // namespace hexdojo
