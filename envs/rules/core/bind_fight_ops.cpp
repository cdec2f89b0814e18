// Bindings for the operations Python's State (envs/rules/state.py) runs on its fight beyond
// bind_fight.cpp's interface: a clone takes other dice (State.clone(dice=): a search's
// determinised clone, OpenSpiel's chance replay, a test's loaded dice), a fighter is knocked
// out (State.knock_out, §5.30), the phasing fighter is read, a weapon maneuver's weapon, mode
// and AP are read for the notation and menus. No board is ever written back:
// a board is set up by a scenario only (issue 32; the State hands out read-only snapshots).
// Every argument is checked (a ValueError naming it, never a crash).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include <string>
#include <tuple>
#include <variant>

#include "bind.hpp"
#include "fight.hpp"
#include "weapons.hpp"

namespace hexdojo {

namespace {

void in_range(const char* field, int v, int lo, int hi) {
    if (v >= lo && v < hi) return;
    throw nb::value_error((std::string("state.") + field + ": " + std::to_string(v) + ": allowed " +
                           std::to_string(lo) + ".." + std::to_string(hi - 1)).c_str());
}

// State.phasing: the fighter of the topmost phase frame (aom312), -1 when none runs.
int phasing(const Fight& c) {
    for (auto it = c.stack.rbegin(); it != c.stack.rend(); ++it) {
        if (const auto* p = std::get_if<PhaseFrame>(&*it)) return p->i;
    }
    return kNone;
}

}  // namespace

void bind_fight_ops(nb::module_& m) {
    m.def("fight_set_dice", [](Fight& c, const Dice& d) { c.dice = d; }, nb::arg("fight"), nb::arg("dice"),
          "Give a fight other dice from now on (State.clone(dice=), a test's loaded dice).");
    m.def("fight_check_over", [](Fight& c) { return c.check_over(); }, nb::arg("fight"),
          "State.check_over (§5.30): end the fight when one side is left standing.");
    m.def("fight_knock_out", [](Fight& c, int i, int how) {
              in_range("knock_out.fighter", i, 0, c.s.n());
              in_range("knock_out.how", how, 1, 3);
              c.knock_out(i, how);
          }, nb::arg("fight"), nb::arg("i"), nb::arg("how"),
          "State.knock_out (§5.30): fighter i out (1 unconscious, 2 dead), his hold ended (§1.18).");
    m.def("fight_weapon_use", [](const Fight& c, int i, int maneuver, int option) {
              in_range("weapon_use.fighter", i, 0, c.s.n());
              in_range("weapon_use.maneuver", maneuver, 0, c.t->n_maneuvers());
              const int wid = used_weapon(*c.t, c.s, i, maneuver, option);
              const Maneuver& mv = c.t->maneuvers[static_cast<std::size_t>(maneuver)];
              const WeaponMode* mode = attack_mode(*c.t, c.s, i, maneuver, option);
              const int k = mode == nullptr ? kNone : split(*c.t, mv, option).mode;
              return std::make_tuple(wid, k, cost(*c.t, c.s, i, maneuver, option));
          }, nb::arg("fight"), nb::arg("i"), nb::arg("maneuver"), nb::arg("option"),
          "(weapon id or -1, attack mode index or -1, AP) of fighter i's maneuver with option "
          "(weapons.hpp used_weapon/attack_mode/cost, §2.1, aom3142): the notation's and menus' reading.");
    m.def("fight_phasing", &phasing, nb::arg("fight"),
          "The fighter whose phase is running (the topmost phase frame), -1 when none.");
}

}  // namespace hexdojo
