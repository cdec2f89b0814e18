// Bindings of the formulas (formulas.py computes through them): the state-free ones
// (formulas.hpp, layer 2), one per formulas.py function, on ids, and the State forms
// (state_formulas.hpp: attack_basic, defence_basic, attack_modifiers, break_hold_basics)
// over a core fight. Every id, profile and number is checked here, at the boundary, so that
// the core can trust them: bad input is a Python ValueError naming the argument, never a crash.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bind.hpp"
#include "fight.hpp"
#include "formulas.hpp"
#include "state_formulas.hpp"

namespace hexdojo {

namespace {

// Half-point values the boundary accepts: far beyond any roll, far from int overflow.
constexpr int kMaxValue = 1'000'000;

using TermList = std::vector<std::pair<std::string, int>>;

const Tables& sealed(const Tables& t) {
    if (!t.sealed) throw nb::value_error("tables: not sealed (native.compile_tables seals them)");
    return t;
}

int need_id(const char* what, int v, std::size_t n, bool none_ok = false) {
    if ((none_ok && v == kNone) || (v >= 0 && static_cast<std::size_t>(v) < n)) return v;
    throw nb::value_error((std::string(what) + ": id " + std::to_string(v) + ": allowed 0.." +
                           std::to_string(static_cast<long long>(n) - 1) +
                           (none_ok ? " or -1 (none)" : "")).c_str());
}

int need_value(const char* what, int v, int lo = -kMaxValue, int hi = kMaxValue) {
    if (v >= lo && v <= hi) return v;
    throw nb::value_error((std::string(what) + ": value " + std::to_string(v) + ": allowed " +
                           std::to_string(lo) + ".." + std::to_string(hi)).c_str());
}

const Profile& fits(const Tables& t, const Profile& p) {
    const std::string problem = profile_problem(t, p);
    if (!problem.empty()) throw nb::value_error(problem.c_str());
    return p;
}

int maneuver(const Tables& t, int m, bool none_ok = false) {
    return need_id("maneuver", m, t.maneuvers.size(), none_ok);
}
int location(const Tables& t, int l, bool none_ok = false) {
    return need_id("location", l, t.locations.size(), none_ok);
}
int dtype(const Tables& t, int d) { return need_id("damage type", d, t.damage_types.size()); }
int level(const Tables& t, int w) { return need_id("wound level", w, t.wounds.levels.size()); }

Extras extras_of(const std::vector<std::pair<std::string, int>>& extra) {
    if (extra.size() > static_cast<std::size_t>(Extras::kCap)) {
        throw nb::value_error(("extra: " + std::to_string(extra.size()) + " terms: allowed at most " +
                               std::to_string(Extras::kCap)).c_str());
    }
    Extras e;
    for (const auto& [label, v] : extra) e.add(label, "", need_value("extra value", v));
    return e;
}

nb::object basic_py(const Tables& t, const Profile& p, int skill, int chr,
                    const std::vector<int>& specs, const TermList& extra, int worst, int pen,
                    const std::string& status, bool terms) {
    sealed(t);
    fits(t, p);
    need_id("skill", skill, t.skills.size(), true);
    need_id("characteristic", chr, t.characteristics.size(), true);
    for (int s : specs) need_id("specialism", s, t.specialisms.size());
    level(t, worst);
    need_value("pen", pen);
    const Extras e = extras_of(extra);
    if (!terms) return nb::int_(basic(t, p, skill, chr, specs, e, worst, pen, status));
    Terms out;
    const int total = basic(t, p, skill, chr, specs, e, worst, pen, status, &out);
    return nb::make_tuple(total, out);
}

int spec_basic_py(const Tables& t, const Profile& p, int roll, int pen, const TermList& extra) {
    sealed(t);
    fits(t, p);
    need_id("roll", roll, kRollNames.size());
    return spec_basic_of(t, p, t.roll(roll), need_value("pen", pen), extras_of(extra));
}

void bind_basics(nb::module_& m) {
    m.def("band", [](int v, const std::vector<int>& bounds) { return band(need_value("value", v), bounds); },
          nb::arg("value"), nb::arg("upper_bounds"));
    m.def("roll_result", [](int b, int n, int s, int per) {
        return roll_result(need_value("basic", b), need_value("n", n, 0), need_value("dice_sum", s),
                           need_value("per_die", per));
    }, nb::arg("basic"), nb::arg("n"), nb::arg("dice_sum"), nb::arg("per_die"));
    m.def("basic", &basic_py, nb::arg("tables"), nb::arg("profile"), nb::arg("skill"),
          nb::arg("characteristic"), nb::arg("specs") = std::vector<int>{},
          nb::arg("extra") = TermList{}, nb::arg("worst") = 0, nb::arg("pen") = 0,
          nb::arg("status") = "", nb::arg("terms") = false,
          "formulas.basic: the total, or (total, terms) with terms=True.");
    m.def("penalty", [](const Tables& t, int worst, int pen) {
        return penalty(sealed(t), level(t, worst), need_value("pen", pen));
    }, nb::arg("tables"), nb::arg("worst"), nb::arg("pen"));
    m.def("spec_basic_of", &spec_basic_py, nb::arg("tables"), nb::arg("profile"), nb::arg("roll"),
          nb::arg("pen") = 0, nb::arg("extra") = TermList{}, "roll: an id of ROLLS.");
}

void bind_attack(nb::module_& m) {
    m.def("aim_attack", [](const Tables& t, int loc) { return aim_attack(sealed(t), location(t, loc)); },
          nb::arg("tables"), nb::arg("location"));
    m.def("defence_bonus", [](const Tables& t, int r, int a, int loc) {
        return defence_bonus(sealed(t), maneuver(t, r), maneuver(t, a, true), location(t, loc, true));
    }, nb::arg("tables"), nb::arg("reaction"), nb::arg("attack"), nb::arg("location"));
    m.def("hit_threshold", [](const Tables& t, int r) { return hit_threshold(sealed(t), maneuver(t, r, true)); },
          nb::arg("tables"), nb::arg("reaction"));
    m.def("hits", [](const Tables& t, int a, int d, int r) {
        return hits(sealed(t), need_value("attack_result", a), need_value("defence_result", d),
                    maneuver(t, r, true));
    }, nb::arg("tables"), nb::arg("attack_result"), nb::arg("defence_result"), nb::arg("reaction"));
    m.def("counter_hits", [](int a, int o) {
        return counter_hits(need_value("attack_result", a), need_value("other_result", o));
    });
    m.def("break_succeeds", [](int e, int h) {
        return break_succeeds(need_value("escaper_result", e), need_value("holder_result", h));
    });
}

void bind_damage(nb::module_& m) {
    m.def("damage_type", [](const Tables& t, int man, int option) {
        maneuver(sealed(t), man);
        if (t.maneuvers[ix(man)].damage_types.empty()) {
            throw nb::value_error(("maneuver " + t.maneuvers[ix(man)].name + ": no damage types").c_str());
        }
        return damage_type(t, man, need_value("option", option, 0));
    }, nb::arg("tables"), nb::arg("maneuver"), nb::arg("option"));
    m.def("damage_extra", [](const Tables& t, int man, int margin, int loc, bool use_margin,
                             std::optional<int> rating) {
        if (rating) need_value("rating", *rating);
        return damage_extra(sealed(t), maneuver(t, man), need_value("margin", margin), location(t, loc),
                            use_margin, rating).terms();
    }, nb::arg("tables"), nb::arg("maneuver"), nb::arg("margin"), nb::arg("location"),
          nb::arg("use_margin") = true, nb::arg("rating") = nb::none());
    m.def("damage_basic_of", [](const Tables& t, const Profile& p, int pen, int man, int margin, int loc,
                                bool use_margin, std::optional<int> rating) {
        if (rating) need_value("rating", *rating);
        return damage_basic_of(sealed(t), fits(t, p), need_value("pen", pen), maneuver(t, man),
                               need_value("margin", margin), location(t, loc), use_margin, rating);
    }, nb::arg("tables"), nb::arg("profile"), nb::arg("pen"), nb::arg("maneuver"), nb::arg("margin"),
          nb::arg("location"), nb::arg("use_margin") = true, nb::arg("rating") = nb::none());
    m.def("damage_resistance", [](const Tables& t, const Profile& p, int loc) {
        return damage_resistance(sealed(t), fits(t, p), location(t, loc));
    }, nb::arg("tables"), nb::arg("profile"), nb::arg("location"));
    m.def("wound_level", [](const Tables& t, int diff) { return wound_level(sealed(t), need_value("diff", diff)); },
          nb::arg("tables"), nb::arg("diff"));
    m.def("self_injury_basic", [](const Tables& t, const Profile& xp, const Profile& yp, int man, int loc) {
        return self_injury_basic(sealed(t), fits(t, xp), fits(t, yp), maneuver(t, man), location(t, loc));
    }, nb::arg("tables"), nb::arg("striker"), nb::arg("target"), nb::arg("maneuver"), nb::arg("location"));
}

void bind_soak_pain(nb::module_& m) {
    m.def("can_soak", [](const Tables& t, int lv, int ap, bool self_inflicted) {
        return can_soak(sealed(t), level(t, lv), need_value("ap", ap), self_inflicted);
    }, nb::arg("tables"), nb::arg("level"), nb::arg("ap"), nb::arg("self_inflicted") = false);
    m.def("soak_basic_of", [](const Tables& t, const Profile& p, int pen) {
        return soak_basic_of(sealed(t), fits(t, p), need_value("pen", pen));
    }, nb::arg("tables"), nb::arg("profile"), nb::arg("pen") = 0);
    m.def("soak_levels", [](const Tables& t, int r) { return soak_levels(sealed(t), need_value("result", r)); },
          nb::arg("tables"), nb::arg("result"));
    m.def("pain_extra", [](const Tables& t, int d, int loc, int lv) {
        return pain_extra(sealed(t), dtype(t, d), location(t, loc), level(t, lv)).terms();
    }, nb::arg("tables"), nb::arg("damage_type"), nb::arg("location"), nb::arg("level"));
    m.def("pain_basic_of", [](const Tables& t, const Profile& p, int pen, int d, int loc, int lv) {
        return pain_basic_of(sealed(t), fits(t, p), need_value("pen", pen), dtype(t, d), location(t, loc),
                             level(t, lv));
    }, nb::arg("tables"), nb::arg("profile"), nb::arg("pen"), nb::arg("damage_type"), nb::arg("location"),
          nb::arg("level"));
    m.def("pain_effect", [](const Tables& t, int r) {
        return kPainEffectNames[ix(pain_effect(sealed(t), need_value("result", r)))];
    }, nb::arg("tables"), nb::arg("result"));
}

void bind_knockback(nb::module_& m) {
    m.def("knockback_extra", [](const Tables& t, int d, int loc, bool mounted) {
        return knockback_extra(sealed(t), dtype(t, d), location(t, loc), mounted).terms();
    }, nb::arg("tables"), nb::arg("damage_type"), nb::arg("location"), nb::arg("mounted"));
    m.def("knockback_skill", [](const Tables& t, bool mounted) { return knockback_skill(sealed(t), mounted); },
          nb::arg("tables"), nb::arg("mounted"));
    m.def("knockback_basic_of", [](const Tables& t, const Profile& p, int pen, int d, int loc, bool mounted) {
        return knockback_basic_of(sealed(t), fits(t, p), need_value("pen", pen), dtype(t, d), location(t, loc),
                                  mounted);
    }, nb::arg("tables"), nb::arg("profile"), nb::arg("pen"), nb::arg("damage_type"), nb::arg("location"),
          nb::arg("mounted") = false);
    m.def("knockback_band", [](const Tables& t, int fail) {
        const KnockbackBand b = knockback_band(sealed(t).knockback, need_value("fail", fail));
        return std::make_tuple(kKnockbackEffectNames[ix(b.effect)], b.ap_lost, b.knocked_over);
    }, nb::arg("tables"), nb::arg("fail"));
    m.def("knockback_band", [](const KnockbackRules& kb, int fail) {
        const KnockbackBand b = knockback_band(kb, need_value("fail", fail));
        return std::make_tuple(kKnockbackEffectNames[ix(b.effect)], b.ap_lost, b.knocked_over);
    }, nb::arg("knockback"), nb::arg("fail"), "The bands of a [knockback] section alone.");
}

// ---------------------------------------------------------------- the State forms
// A fight the State forms can read: set up (its sheets, one per fighter).
Fight& set_up(Fight& c) {
    if (c.t == nullptr || c.g == nullptr || c.g->profiles.size() != c.s.fighters.size()) {
        throw nb::value_error("fight: not set up (no rules or no fighters' sheets)");
    }
    return c;
}

int fighter(const Fight& c, const char* what, int i) { return need_id(what, i, c.s.fighters.size()); }

void two(const Fight& c, const char* a, int x, const char* b, int y) {
    fighter(c, a, x);
    fighter(c, b, y);
    if (x == y) throw nb::value_error((std::string(a) + ", " + b + ": the same fighter " +
                                       std::to_string(x) + ": two fighters are needed").c_str());
}

// Options (a weapon attack's hand x modes + mode, a parry's hand): far beyond any, never negative.
int option(int o) { return need_value("option", o, 0, 1 << 20); }

nb::tuple with_terms(int total, Terms& terms) { return nb::make_tuple(total, std::move(terms)); }

// The most extra terms a caller may hand a fighter's roll: the core adds its own (a stuck
// weapon's on CO rolls, a roll's bonus) within Extras::kCap.
constexpr std::size_t kFighterExtras = 8;

void bind_fighter_rolls(nb::module_& m) {
    m.def("fighter_basic", [](Fight& c, int i, int skill, int chr, const std::vector<int>& specs,
                              const TermList& extra, int worst) {
        fighter(set_up(c), "i", i);
        const Tables& t = *c.t;
        need_id("skill", skill, t.skills.size(), true);
        need_id("characteristic", chr, t.characteristics.size(), true);
        for (int sp : specs) need_id("specialism", sp, t.specialisms.size());
        if (worst != kNone) level(t, worst);
        if (extra.size() > kFighterExtras) {
            throw nb::value_error(("extra: " + std::to_string(extra.size()) + " terms: allowed at most " +
                                   std::to_string(kFighterExtras)).c_str());
        }
        Mods mods;  // labels viewed in `extra`, alive for the call
        for (const auto& [label, v] : extra) mods.add("", label, need_value("extra value", v));
        Terms terms;
        const int total = c.basic(i, skill, chr, specs, mods, worst, &terms);
        return with_terms(total, terms);
    }, nb::arg("fight"), nb::arg("i"), nb::arg("skill"), nb::arg("characteristic"),
          nb::arg("specs") = std::vector<int>{}, nb::arg("extra") = TermList{}, nb::arg("worst") = kNone,
          "Fight::basic: fighter i's basic value as he stands (his worst wound, or `worst`; "
          "stagger/stun; a stuck weapon on CO rolls, aom1d35): (total, terms).");
    m.def("fighter_roll_basic", [](Fight& c, int i, int roll, const TermList& extra) {
        fighter(set_up(c), "i", i);
        need_id("roll", roll, kRollNames.size());
        if (extra.size() > kFighterExtras) {
            throw nb::value_error(("extra: " + std::to_string(extra.size()) + " terms: allowed at most " +
                                   std::to_string(kFighterExtras)).c_str());
        }
        Mods mods;
        for (const auto& [label, v] : extra) mods.add("", label, need_value("extra value", v));
        Terms terms;
        const int total = c.spec_basic(i, c.t->roll(roll), mods, &terms);
        return with_terms(total, terms);
    }, nb::arg("fight"), nb::arg("i"), nb::arg("roll"), nb::arg("extra") = TermList{},
          "Fight::spec_basic of the data-described roll `roll` (an id of ROLLS): (total, terms).");
}

void bind_state_forms(nb::module_& m) {
    bind_fighter_rolls(m);
    m.def("attack_basic", [](Fight& c, int x, int y, int man, int loc, int opt) {
        two(set_up(c), "x", x, "y", y);
        Terms terms;
        const int total = attack_basic(c, x, y, maneuver(*c.t, man), location(*c.t, loc, true),
                                       option(opt), &terms);
        return with_terms(total, terms);
    }, nb::arg("fight"), nb::arg("x"), nb::arg("y"), nb::arg("maneuver"), nb::arg("location"),
          nb::arg("option") = 0, "state_formulas.hpp attack_basic: (total, terms).");
    m.def("attack_modifiers", [](Fight& c, int x, int y, int man, int loc) {
        two(set_up(c), "x", x, "y", y);
        Mods extra;
        attack_modifiers(c, x, y, maneuver(*c.t, man), location(*c.t, loc, true), extra);
        return extra.e.terms();
    }, nb::arg("fight"), nb::arg("x"), nb::arg("y"), nb::arg("maneuver"), nb::arg("location"),
          "The §1.8 modifiers attack_basic adds (zero ones included).");
    m.def("defence_basic", [](Fight& c, int y, int x, int rname, int attack, int loc, int opt) {
        two(set_up(c), "y", y, "x", x);
        Terms terms;
        const int total = defence_basic(c, y, x, maneuver(*c.t, rname, true), maneuver(*c.t, attack, true),
                                        location(*c.t, loc, true), option(opt), &terms);
        return with_terms(total, terms);
    }, nb::arg("fight"), nb::arg("y"), nb::arg("x"), nb::arg("reaction"), nb::arg("attack"),
          nb::arg("location"), nb::arg("option") = 0,
          "state_formulas.hpp defence_basic (reaction -1: the default defence): (total, terms).");
    m.def("break_hold_basics", [](Fight& c, int i, int holder, int kind, int attempts, int method) {
        two(set_up(c), "i", i, "holder", holder);
        const Tables& t = *c.t;
        Hold h;
        h.holder = holder;
        h.held = i;
        h.kind = need_id("hold kind", kind, t.hold_kinds.size());
        h.attempts = need_value("attempts", attempts, 0);
        need_id("method", method, t.break_hold.escaper_methods.size());
        auto [esc, best] = break_hold_basics(c, i, h, method);
        const auto& names = t.break_hold.method_names;
        return nb::make_tuple(nb::make_tuple(esc.basic, std::move(esc.terms), names[ix(esc.method)]),
                              nb::make_tuple(best.basic, std::move(best.terms), names[ix(best.method)]));
    }, nb::arg("fight"), nb::arg("i"), nb::arg("holder"), nb::arg("kind"), nb::arg("attempts"),
          nb::arg("method"),
          "((basic, terms, method), (basic, terms, method)) of escaper i breaking holder's hold of "
          "kind `kind` after `attempts` failed attempts, by his method `method` (aom322d).");
}

// One hit's arithmetic, as resolution does it: damage, DR, wound, soak, pain, knock-back.
int hit_chain(const Tables& t, const Profile& x, const Profile& y, int maneuver, int k) {
    const int loc = k % t.n_locations();
    const int margin = k % 41 - 10;
    const int dtype = t.maneuvers[ix(maneuver)].damage_types.empty()
                          ? 0 : damage_type(t, maneuver, k % 2);
    const int dmg = damage_basic_of(t, x, 0, maneuver, margin, loc) + 2 * (k % 13);
    const int level = wound_level(t, dmg - damage_resistance(t, y, loc));
    return dmg + level + soak_basic_of(t, y) + pain_basic_of(t, y, 0, dtype, loc, level) +
           knockback_basic_of(t, y, 0, dtype, loc, y.mounted);
}

// Seconds `calls` hit chains take inside the core (a benchmark: no Python call per chain),
// and their checksum (so that nothing is optimised away; equal to Python's chain).
std::pair<double, long long> time_hits(const Tables& t, const Profile& x, const Profile& y,
                                       int maneuver, int calls) {
    sealed(t);
    fits(t, x);
    fits(t, y);
    ::hexdojo::maneuver(t, maneuver);
    need_value("calls", calls, 0);
    long long sum = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < calls; ++k) sum += hit_chain(t, x, y, maneuver, k);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    return {took.count(), sum};
}

}  // namespace

void bind_formulas(nb::module_& m) {
    auto f = m.def_submodule("formulas", "The state-free formulas (formulas.py), on ids.");
    bind_basics(f);
    bind_attack(f);
    bind_damage(f);
    bind_soak_pain(f);
    bind_knockback(f);
    bind_state_forms(f);
    f.def("time_hits", &time_hits, nb::arg("tables"), nb::arg("striker"), nb::arg("victim"),
          nb::arg("maneuver"), nb::arg("calls"),
          "(seconds, checksum) of `calls` hit chains (damage, DR, wound, soak, pain, "
          "knock-back) computed inside the core: scripts/bench_core_formulas.py.");
}

}  // namespace hexdojo
