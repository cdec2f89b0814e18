// Bindings of the board state (state.hpp): plain fields that Python fills from a Python
// State (native.core_state) and reads back, and the geometry the rules ask of it.
#include <nanobind/nanobind.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <utility>

#include "bind.hpp"
#include "state.hpp"

namespace hexdojo {

namespace {

using Pair = std::pair<int, int>;

Hex to_hex(Pair p) { return checked_hex(p.first, p.second); }
Pair to_pair(Hex h) { return {h.q, h.r}; }

void check_fighter(const Board& s, int i, const char* what) {
    if (i < 0 || i >= s.n()) {
        throw nb::index_error((std::string(what) + ": fighter " + std::to_string(i) +
                               ", allowed 0.." + std::to_string(s.n() - 1)).c_str());
    }
}

void set_fighters(Board& s, std::vector<FighterState> fs) {
    if (fs.size() < 2 || fs.size() > static_cast<std::size_t>(kMaxFighters)) {
        throw nb::value_error(("fighters: " + std::to_string(fs.size()) +
                               ": the native core takes 2.." + std::to_string(kMaxFighters)).c_str());
    }
    for (std::size_t k = 0; k < fs.size(); ++k) {
        if (fs[k].idx != static_cast<int>(k)) throw nb::value_error("fighters: idx must be the place");
        if (fs[k].facing < 0 || fs[k].facing > 5) throw nb::value_error("facing: allowed 0..5");
    }
    s.fighters = std::move(fs);
}

void set_approach(Board& s, int a, int t, int direction) {
    check_fighter(s, a, "approach");
    check_fighter(s, t, "approach");
    if (direction < kNone || direction > 5) throw nb::value_error("approach: direction -1..5");
    s.approach[a][t] = static_cast<std::int8_t>(direction);
}

void bind_records(nb::module_& m) {
    nb::class_<Wound>(m, "Wound")
        .def(nb::init<>())
        .def_rw("location", &Wound::location)
        .def_rw("level", &Wound::level);
    nb::class_<Stuck>(m, "Stuck")
        .def(nb::init<>())
        .def_rw("weapon", &Stuck::weapon)
        .def_rw("location", &Stuck::location);
    nb::class_<Hold>(m, "Hold", "A hold (RULES §1.18), ids for names, -1 for None.")
        .def(nb::init<>())
        .def_rw("holder", &Hold::holder)
        .def_rw("held", &Hold::held)
        .def_rw("kind", &Hold::kind)
        .def_rw("location", &Hold::location)
        .def_rw("turn", &Hold::turn)
        .def_rw("attempts", &Hold::attempts)
        .def_rw("from_behind", &Hold::from_behind)
        .def_rw("hand", &Hold::hand);
}

void bind_fighter(nb::module_& m) {
    nb::enum_<Out>(m, "Out").value("IN", Out::kIn).value("UNCONSCIOUS", Out::kUnconscious)
        .value("DEAD", Out::kDead);
    nb::enum_<Status>(m, "Status").value("NONE", Status::kNone)
        .value("STAGGERED", Status::kStaggered).value("STUNNED", Status::kStunned);
    nb::class_<FighterState>(m, "FighterState", "What changes about one fighter in a fight.")
        .def(nb::init<>())
        .def_rw("idx", &FighterState::idx)
        .def_prop_rw("pos", [](const FighterState& f) { return to_pair(f.pos); },
                     [](FighterState& f, Pair p) { f.pos = to_hex(p); })
        .def_rw("facing", &FighterState::facing)
        .def_rw("ap", &FighterState::ap)
        .def_rw("init", &FighterState::init)
        .def_rw("phased", &FighterState::phased)
        .def_rw("prone", &FighterState::prone)
        .def_rw("mounted", &FighterState::mounted)
        .def_rw("height", &FighterState::height)
        .def_rw("out", &FighterState::out)
        .def_rw("wounds", &FighterState::wounds)
        .def_rw("worst", &FighterState::worst)
        .def_rw("pen", &FighterState::pen)
        .def_rw("status", &FighterState::status)
        .def_rw("hands", &FighterState::hands)
        .def_rw("sheathed", &FighterState::sheathed)
        .def_rw("stuck", &FighterState::stuck);
}

void bind_window(nb::module_& m) {
    nb::enum_<WindowKind>(m, "WindowKind").value("ACTION", WindowKind::kAction)
        .value("REACTION", WindowKind::kReaction).value("FOLLOW_ON", WindowKind::kFollowOn);
    nb::class_<Window>(m, "Window", "An open decision window (legality.Window), ids for names.")
        .def(nb::init<>())
        .def_rw("kind", &Window::kind)
        .def_rw("fighter", &Window::fighter)
        .def_rw("triggers", &Window::triggers)
        .def_rw("attacker", &Window::attacker)
        .def_rw("attack", &Window::attack)
        .def_rw("after", &Window::after)
        .def_rw("no_defence", &Window::no_defence)
        .def_rw("restrict_limb", &Window::restrict_limb)
        .def_rw("restrict_location", &Window::restrict_location)
        .def_rw("has_reactions_only", &Window::has_reactions_only)
        .def_rw("reactions_only", &Window::reactions_only)
        .def_rw("has_follow", &Window::has_follow)
        .def_rw("follow_direction", &Window::follow_direction)
        .def_rw("follow_hexes", &Window::follow_hexes)
        .def_rw("own_hand", &Window::own_hand)
        .def_rw("locked_fighter", &Window::locked_fighter)
        .def_rw("phasing", &Window::phasing);
}

void bind_board(nb::module_& m) {
    nb::class_<Board>(m, "Board", "The fight's board (state.hpp).")
        .def(nb::init<>())
        .def_rw("radius", &Board::radius)
        .def_rw("turn", &Board::turn)
        .def_rw("sides", &Board::sides)
        .def_prop_rw("fighters", [](const Board& s) { return s.fighters; }, &set_fighters)
        .def_rw("holds", &Board::holds)
        .def_prop_rw("dropped",
                     [](const Board& s) {
                         std::vector<std::pair<Pair, int>> out;
                         for (const auto& d : s.dropped) out.emplace_back(to_pair(d.hex), d.weapon);
                         return out;
                     },
                     [](Board& s, const std::vector<std::pair<Pair, int>>& v) {
                         s.dropped.clear();
                         for (const auto& [h, w] : v) s.dropped.push_back({to_hex(h), w});
                     })
        .def_rw("order", &Board::order)
        .def("set_approach", &set_approach, nb::arg("a"), nb::arg("t"), nb::arg("direction"))
        .def("approach", [](const Board& s, int a, int t) {
            check_fighter(s, a, "approach");
            check_fighter(s, t, "approach");
            return static_cast<int>(s.approach[a][t]);
        })
        .def("clone", [](const Board& s) { return Board(s); })
        .def("hold_on", [](const Board& s, int i) {
            check_fighter(s, i, "hold_on");
            const Hold* h = s.hold_on(i);
            return h == nullptr ? nb::none() : nb::cast(*h);
        })
        .def("hold_by", [](const Board& s, int i) {
            check_fighter(s, i, "hold_by");
            const Hold* h = s.hold_by(i);
            return h == nullptr ? nb::none() : nb::cast(*h);
        })
        .def("on_board", [](const Board& s, Pair h) { return s.on_board(to_hex(h)); })
        .def("attack_direction", [](const Board& s, int a, int t) {
            check_fighter(s, a, "attack_direction");
            check_fighter(s, t, "attack_direction");
            return s.attack_direction(a, t);
        })
        .def("arc", [](const Board& s, int a, int t, int facing) {
            check_fighter(s, a, "arc");
            check_fighter(s, t, "arc");
            if (facing < kNone || facing > 5) throw nb::value_error("facing: allowed -1..5");
            return s.arc(a, t, facing);
        }, nb::arg("a"), nb::arg("t"), nb::arg("facing") = kNone)
        .def("place", [](Board& s, int i, Pair h) {
            check_fighter(s, i, "place");
            s.place(i, to_hex(h));
        })
        .def("set_facing", [](Board& s, int i, int facing) {
            check_fighter(s, i, "set_facing");
            if (facing < 0 || facing > 5) throw nb::value_error("facing: allowed 0..5");
            s.set_facing(i, facing);
        })
        .def("others", [](const Board& s, int i) {
            check_fighter(s, i, "others");
            return s.others(i);
        });
}

}  // namespace

void bind_state(nb::module_& m) {
    bind_records(m);
    bind_fighter(m);
    bind_window(m);
    bind_board(m);
}

}  // namespace hexdojo
