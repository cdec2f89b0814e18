// hexdojo.agents._bots.Knowledge: the native Knowledge (knowledge.hpp) for Python, built by
// agents/knowledge_core.py from the compiled Tables and agents/odds.py's tables. Methods
// take a _core.Fight (the same C++ object) and ids; every id, fighter and profile is checked
// here, so bad input is a Python ValueError/IndexError, never a crash.
#include <nanobind/nanobind.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <utility>
#include <vector>

#include "bind.hpp"
#include "knowledge.hpp"

namespace hexdojo::bots {

namespace {

constexpr int kMaxValue = 1'000'000;  // half points: far beyond any roll, far from overflow

[[noreturn]] void bad(const std::string& what) { throw nb::value_error(what.c_str()); }

int need_id(const char* what, int v, std::size_t n, bool none_ok = false) {
    if ((none_ok && v == kNone) || (v >= 0 && static_cast<std::size_t>(v) < n)) return v;
    bad(std::string(what) + ": id " + std::to_string(v) + ": allowed 0.." +
        std::to_string(static_cast<long long>(n) - 1) + (none_ok ? " or -1 (none)" : ""));
}

int need_value(const char* what, int v, int lo = -kMaxValue, int hi = kMaxValue) {
    if (v >= lo && v <= hi) return v;
    bad(std::string(what) + ": value " + std::to_string(v) + ": allowed " + std::to_string(lo) +
        ".." + std::to_string(hi));
}

// Checks a call's fight and ids against the Knowledge's rules.
struct Check {
    const Knowledge& k;
    const Tables& t() const { return *k.t; }
    Fight& fight(Fight& c) const {
        if (c.t != k.t) bad("fight: played under other rules than this Knowledge's");
        if (c.g == nullptr || c.g->profiles.size() != c.s.fighters.size()) {
            bad("fight: not set up (no fighters' sheets)");
        }
        return c;
    }
    int fighter(const Fight& c, const char* what, int i) const {
        return need_id(what, i, c.s.fighters.size());
    }
    int man(int m, bool none_ok = false) const { return need_id("maneuver", m, t().maneuvers.size(), none_ok); }
    int loc(int l, bool none_ok = true) const { return need_id("location", l, t().locations.size(), none_ok); }
    int dtype(int d, bool none_ok = false) const {
        return need_id("damage type", d, t().damage_types.size(), none_ok);
    }
    int level(int w) const { return need_id("wound level", w, t().wounds.levels.size()); }
    int option(int o) const { return need_value("option", o, 0, 1 << 20); }
    int ap(std::optional<int> a) const {  // None: kNoAp
        return a ? need_value("ap", *a, -1000, 1000) : kNoAp;
    }
    Locked restrict(int limb, int location) const {
        need_id("restrict limb", limb, kLimbNames.size(), true);
        loc(location);
        return {limb, location};
    }
    const Profile& profile(const Profile& p) const {
        const std::string problem = profile_problem(t(), p);
        if (!problem.empty()) bad(problem);
        return p;
    }
};

Odds make_odds(int sides, int max_risk, int per_die_h, std::vector<std::vector<int>> single_vals,
               std::vector<std::vector<double>> single_probs, std::vector<double> p_gt,
               std::vector<double> m_gt, std::vector<int> best_first, std::vector<int> best_answer) {
    Odds o;
    o.sides = sides;
    o.max_risk = max_risk;
    o.per_die_h = per_die_h;
    o.single_vals = std::move(single_vals);
    o.single_probs = std::move(single_probs);
    o.p_gt = std::move(p_gt);
    o.m_gt = std::move(m_gt);
    o.best_first = std::move(best_first);
    o.best_answer = std::move(best_answer);
    if (const std::string p = o.problem(); !p.empty()) bad(p);
    return o;
}

void bind_class_estimates(nb::class_<Knowledge>& cls);

}  // namespace

void bind_knowledge(nb::module_& m) {
    nb::class_<Knowledge> cls(m, "Knowledge",
        "The scripted agents' estimates (heuristics.Knowledge) in C++, for one rule set: built "
        "by agents.knowledge_core.knowledge_core from the compiled Tables and the odds "
        "tables of agents.odds (the same doubles).");
    cls.def(
        "__init__",
        [](Knowledge* self, const Tables& t, int sides, int max_risk, int per_die_h,
           std::vector<std::vector<int>> single_vals, std::vector<std::vector<double>> single_probs,
           std::vector<double> p_gt, std::vector<double> m_gt, std::vector<int> best_first,
           std::vector<int> best_answer) {
            if (!t.sealed) bad("tables: not sealed (native.compile_tables seals them)");
            Odds o = make_odds(sides, max_risk, per_die_h, std::move(single_vals),
                               std::move(single_probs), std::move(p_gt), std::move(m_gt),
                               std::move(best_first), std::move(best_answer));
            try {
                new (self) Knowledge(t, std::move(o));
            } catch (const std::invalid_argument& e) {
                bad(e.what());
            }
        },
        nb::arg("tables"), nb::arg("sides"), nb::arg("max_risk"), nb::arg("per_die_h"),
        nb::arg("single_vals"), nb::arg("single_probs"), nb::arg("p_gt"), nb::arg("m_gt"),
        nb::arg("best_first"), nb::arg("best_answer"), nb::keep_alive<1, 2>(),
        "Tables (sealed) and odds.Odds' tables: single[n] values and probabilities, p_gt and "
        "m_gt flattened [ra][rd][c + SPAN], best_first [c + SPAN], best_answer [ra][c + SPAN].");
    cls.def_ro_static("SPAN", &Odds::SPAN);
    cls.def_prop_ro("R", [](const Knowledge& k) { return k.R; });
    cls.def_prop_ro("whole_loc", [](const Knowledge& k) { return k.whole_loc; });
    cls.def("hold_value", &Knowledge::hold_value, nb::arg("kind"));
    cls.def("memo_sizes", &Knowledge::memo_sizes,
            "(per-decision entries, hit_core, aims, pain_bands) memo sizes.");
    cls.def("option_index", [](const Knowledge& k, int m, int option) {
        const Check ck{k};
        return option_index(*k.t, ck.man(m), ck.option(option));
    }, nb::arg("maneuver"), nb::arg("option"));
    // the odds (odds.Odds)
    cls.def("odds_p_beat", [](const Knowledge& k, int ba, int ra, int bd, int rd, bool strict) {
        need_value("ra", ra, 0, k.R);
        need_value("rd", rd, 0, k.R);
        return k.odds.p_beat(need_value("basic_a", ba), ra, need_value("basic_d", bd), rd, strict);
    }, nb::arg("basic_a"), nb::arg("ra"), nb::arg("basic_d"), nb::arg("rd"), nb::arg("strict") = true);
    cls.def("odds_margin", [](const Knowledge& k, int ba, int ra, int bd, int rd) {
        need_value("ra", ra, 0, k.R);
        need_value("rd", rd, 0, k.R);
        return k.odds.margin(need_value("basic_a", ba), ra, need_value("basic_d", bd), rd);
    }, nb::arg("basic_a"), nb::arg("ra"), nb::arg("basic_d"), nb::arg("rd"));
    cls.def("odds_first_risk", [](const Knowledge& k, int mine, int theirs) {
        return k.odds.first_risk(need_value("mine", mine), need_value("theirs", theirs));
    }, nb::arg("basic_mine"), nb::arg("basic_theirs"));
    cls.def("odds_answer_risk", [](const Knowledge& k, int mine, int theirs, int their_risk) {
        need_value("their_risk", their_risk, 0, k.R);
        return k.odds.answer_risk(need_value("mine", mine), need_value("theirs", theirs), their_risk);
    }, nb::arg("basic_mine"), nb::arg("basic_theirs"), nb::arg("their_risk"));
    cls.def("odds_dist", [](const Knowledge& k, int basic, int n) {
        need_value("n", n, 0, k.R);
        const Dist d = k.odds.dist(need_value("basic", basic), n);
        std::pair<std::vector<int>, std::vector<double>> out;
        for (int i = 0; i < d.n; ++i) {
            out.first.push_back(d.value(i));
            out.second.push_back(d.prob(i));
        }
        return out;
    }, nb::arg("basic"), nb::arg("n"));
    bind_class_estimates(cls);
}

namespace {

void bind_class_estimates(nb::class_<Knowledge>& cls) {
    cls.def("penalties", [](Knowledge& k, Fight& c, int i) {
        const Check ck{k};
        return k.penalties(ck.fight(c), ck.fighter(c, "i", i));
    }, nb::arg("fight"), nb::arg("i"));
    cls.def("attack_basic", [](Knowledge& k, Fight& c, int x, int y, int name, int loc, int option) {
        const Check ck{k};
        ck.fight(c);
        return k.attack_basic(c, ck.fighter(c, "x", x), ck.fighter(c, "y", y), ck.man(name),
                              ck.loc(loc), ck.option(option));
    }, nb::arg("fight"), nb::arg("x"), nb::arg("y"), nb::arg("name"), nb::arg("loc"),
       nb::arg("option") = 0);
    cls.def("default_defence", [](Knowledge& k, Fight& c, int y, int x) {
        const Check ck{k};
        ck.fight(c);
        return k.default_defence(c, ck.fighter(c, "y", y), ck.fighter(c, "x", x));
    }, nb::arg("fight"), nb::arg("y"), nb::arg("x"));
    cls.def("defence_with", [](Knowledge& k, Fight& c, int y, int x, int rname, int attack,
                               int loc, int option) {
        const Check ck{k};
        ck.fight(c);
        return k.defence_with(c, ck.fighter(c, "y", y), ck.fighter(c, "x", x), ck.man(rname),
                              ck.man(attack, true), ck.loc(loc), ck.option(option));
    }, nb::arg("fight"), nb::arg("y"), nb::arg("x"), nb::arg("rname"), nb::arg("attack"),
       nb::arg("loc"), nb::arg("option") = 0);
    cls.def("best_defence", [](Knowledge& k, Fight& c, int y, int x, int attack, int loc,
                               int restrict_limb, int restrict_location, std::optional<int> ap) {
        const Check ck{k};
        ck.fight(c);
        return k.best_defence(c, ck.fighter(c, "y", y), ck.fighter(c, "x", x), ck.man(attack),
                              ck.loc(loc), ck.restrict(restrict_limb, restrict_location), ck.ap(ap));
    }, nb::arg("fight"), nb::arg("y"), nb::arg("x"), nb::arg("attack"), nb::arg("loc"),
       nb::arg("restrict_limb") = kNone, nb::arg("restrict_location") = kNone,
       nb::arg("ap") = nb::none(), "(basic, reaction id or -1)");
    cls.def("defence_hands", [](Knowledge& k, Fight& c, int y, int rname) {
        const Check ck{k};
        ck.fight(c);
        return k.defence_hands(c, ck.fighter(c, "y", y), ck.man(rname));
    }, nb::arg("fight"), nb::arg("y"), nb::arg("rname"));
    cls.def("weapon_hit", [](Knowledge& k, Fight& c, int x, int name, int option) {
        const Check ck{k};
        ck.fight(c);
        return k.weapon_hit(c, ck.fighter(c, "x", x), ck.man(name), ck.option(option));
    }, nb::arg("fight"), nb::arg("x"), nb::arg("name"), nb::arg("option"),
       "(rating or None, damage type id or -1)");
    cls.def("attack_options", [](Knowledge& k, Fight& c, int x, int name) {
        const Check ck{k};
        ck.fight(c);
        return k.attack_options(c, ck.fighter(c, "x", x), ck.man(name));
    }, nb::arg("fight"), nb::arg("x"), nb::arg("name"));
    cls.def("p_hit", [](const Knowledge& k, int ba, int bd, int reaction) {
        const Check ck{k};
        return k.p_hit(need_value("ba", ba), need_value("bd", bd), ck.man(reaction, true));
    }, nb::arg("ba"), nb::arg("bd"), nb::arg("reaction") = kNone);
    cls.def("p_counter", [](const Knowledge& k, int a, int b) {
        return k.p_counter(need_value("mine", a), need_value("theirs", b));
    }, nb::arg("mine"), nb::arg("theirs"));
    cls.def("p_break", [](const Knowledge& k, int a, int b) {
        return k.p_break(need_value("esc", a), need_value("hold", b));
    }, nb::arg("esc"), nb::arg("hold"));
    cls.def("margin", [](const Knowledge& k, int a, int b) {
        return k.margin(need_value("ba", a), need_value("bd", b));
    }, nb::arg("ba"), nb::arg("bd"));
    cls.def("hit_value", [](Knowledge& k, Fight& c, int x, int y, int name, int loc,
                            int dtype_index, double margin_h) {
        const Check ck{k};
        ck.fight(c);
        if (!(margin_h >= 0.0 && margin_h <= kMaxValue)) bad("margin_h: allowed 0..1000000");
        return k.hit_value(c, ck.fighter(c, "x", x), ck.fighter(c, "y", y), ck.man(name),
                           ck.loc(loc), ck.option(dtype_index), margin_h);
    }, nb::arg("fight"), nb::arg("x"), nb::arg("y"), nb::arg("name"), nb::arg("loc"),
       nb::arg("dtype_index"), nb::arg("margin_h"));
    cls.def("hit_core", [](Knowledge& k, const Profile& xp, const Profile& yp, int name, int loc,
                           int dtype_index, int margin, int x_pen, int y_worst, int y_pen,
                           int y_ap, bool y_prone, bool new_hold, int x_left, bool y_mounted,
                           bool x_mounted, std::optional<int> rating, int wtype) {
        const Check ck{k};
        if (rating) need_value("rating", *rating);
        return k.hit_core(ck.profile(xp), ck.profile(yp), ck.man(name), ck.loc(loc),
                          ck.option(dtype_index), need_value("margin", margin, 0),
                          need_value("x_pen", x_pen), ck.level(y_worst), need_value("y_pen", y_pen),
                          need_value("y_ap", y_ap, -1000, 1000), y_prone, new_hold,
                          need_value("x_left", x_left, -1000, 1000), y_mounted, x_mounted, rating,
                          ck.dtype(wtype, true));
    }, nb::arg("xp"), nb::arg("yp"), nb::arg("name"), nb::arg("loc"), nb::arg("dtype_index"),
       nb::arg("margin"), nb::arg("x_pen"), nb::arg("y_worst"), nb::arg("y_pen"), nb::arg("y_ap"),
       nb::arg("y_prone"), nb::arg("new_hold"), nb::arg("x_left"), nb::arg("y_mounted") = false,
       nb::arg("x_mounted") = false, nb::arg("rating") = nb::none(), nb::arg("wtype") = kNone);
    cls.def("wound_value", [](Knowledge& k, const Profile& yp, int y_worst, int y_pen, int y_ap,
                              int dmg_basic, int n, int dr, int loc, int dtype, int x_left) {
        const Check ck{k};
        return k.wound_value(ck.profile(yp), ck.level(y_worst), need_value("y_pen", y_pen),
                             need_value("y_ap", y_ap, -1000, 1000), need_value("dmg_basic", dmg_basic),
                             need_value("n", n, 0, k.R), need_value("dr", dr), ck.loc(loc, false),
                             ck.dtype(dtype), need_value("x_left", x_left, -1000, 1000));
    }, nb::arg("yp"), nb::arg("y_worst"), nb::arg("y_pen"), nb::arg("y_ap"), nb::arg("dmg_basic"),
       nb::arg("n"), nb::arg("dr"), nb::arg("loc"), nb::arg("dtype"), nb::arg("x_left") = 0);
    cls.def("pain_bands", [](Knowledge& k, int basic, int n) {
        return k.pain_bands(need_value("basic", basic), need_value("n", n, 0, k.R));
    }, nb::arg("basic"), nb::arg("n"), "(P(unconscious), P(stunned), P(staggered))");
    cls.def("knockback_value", [](Knowledge& k, const Profile& yp, int y_worst, int y_pen, int y_ap,
                                  bool y_prone, bool y_mounted, int dmg_basic, int n, int loc,
                                  int dtype, int x_left, bool x_mounted) {
        const Check ck{k};
        return k.knockback_value(ck.profile(yp), ck.level(y_worst), need_value("y_pen", y_pen),
                                 need_value("y_ap", y_ap, -1000, 1000), y_prone, y_mounted,
                                 need_value("dmg_basic", dmg_basic), need_value("n", n, 0, 1000),
                                 ck.loc(loc, false), ck.dtype(dtype),
                                 need_value("x_left", x_left, -1000, 1000), x_mounted);
    }, nb::arg("yp"), nb::arg("y_worst"), nb::arg("y_pen"), nb::arg("y_ap"), nb::arg("y_prone"),
       nb::arg("y_mounted"), nb::arg("dmg_basic"), nb::arg("n"), nb::arg("loc"), nb::arg("dtype"),
       nb::arg("x_left") = 0, nb::arg("x_mounted") = false);
    cls.def("aims", [](Knowledge& k, Fight& c, int x, int y, int name, int dtype_index,
                       std::vector<int> locs) {
        const Check ck{k};
        ck.fight(c);
        for (int l : locs) ck.loc(l, false);
        return k.aims(c, ck.fighter(c, "x", x), ck.fighter(c, "y", y), ck.man(name),
                      ck.option(dtype_index), locs);
    }, nb::arg("fight"), nb::arg("x"), nb::arg("y"), nb::arg("name"), nb::arg("dtype_index"),
       nb::arg("locs"), "The chosen locations (the frozenset), in the order of locs.");
    cls.def("attack_value", [](Knowledge& k, Fight& c, int x, int y, int name, int loc, int option,
                               int restrict_limb, int restrict_location, bool punish,
                               std::optional<int> y_ap) {
        const Check ck{k};
        ck.fight(c);
        return k.attack_value(c, ck.fighter(c, "x", x), ck.fighter(c, "y", y), ck.man(name),
                              ck.loc(loc), ck.option(option),
                              ck.restrict(restrict_limb, restrict_location), punish, ck.ap(y_ap));
    }, nb::arg("fight"), nb::arg("x"), nb::arg("y"), nb::arg("name"), nb::arg("loc"),
       nb::arg("option") = 0, nb::arg("restrict_limb") = kNone,
       nb::arg("restrict_location") = kNone, nb::arg("punish") = true, nb::arg("y_ap") = nb::none(),
       "(expected value, chance to hit)");
    cls.def("follow_threat", [](Knowledge& k, Fight& c, int x, int y, int after, std::optional<int> y_ap,
                                int ap_spent, int blocked) {
        const Check ck{k};
        ck.fight(c);
        return k.follow_threat(c, ck.fighter(c, "x", x), ck.fighter(c, "y", y), ck.man(after),
                               ck.ap(y_ap), need_value("ap_spent", ap_spent, -1000, 1000),
                               ck.man(blocked, true));
    }, nb::arg("fight"), nb::arg("x"), nb::arg("y"), nb::arg("after"), nb::arg("y_ap") = nb::none(),
       nb::arg("ap_spent") = 0, nb::arg("blocked") = kNone);
}

}  // namespace

}  // namespace hexdojo::bots
