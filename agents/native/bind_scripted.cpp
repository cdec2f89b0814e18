// Bindings of the native scripted fighter (scripted.hpp): _bots.Style and _bots.ScriptedBot,
// a _bots.Player (the tournament's fast path plays it inside the core). Choices cross as legal
// indices of the fight's pending decision (Fight::legal(), State.legal_choices()'s order).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>
#include <string>

#include "bind.hpp"
#include "scripted.hpp"

namespace hexdojo::bots {

namespace {

// The pending decision's fighter, checked (a bad fight gives a ValueError, never a crash).
void check_fight(const ScriptedBot& b, const Fight& c, const char* what) {
    if (c.t != b.knowledge().t) {
        throw nb::value_error((std::string(what) + ": the fight's rules are not the bot's Knowledge's").c_str());
    }
    if (c.g == nullptr || c.g->profiles.size() != c.s.fighters.size()) {
        throw nb::value_error((std::string(what) + ": the fight is not set up (no fighters' sheets)").c_str());
    }
    if (!c.has_pending || c.legal().empty()) {
        throw nb::value_error((std::string(what) + ": the fight is over").c_str());
    }
}

void check_fighter(const Fight& c, int i, const char* what) {
    if (i < 0 || i >= c.s.n()) {
        throw nb::value_error((std::string(what) + ": no fighter " + std::to_string(i)).c_str());
    }
}

}  // namespace

// The agents' values (knowledge.hpp, scripted.hpp) as one dict, _bots.VALUES: the Python
// side (agents/heuristics.py) reads them from here, so there is one copy.
static void bind_values(nb::module_& m) {
    nb::dict v;
    v["KO"] = KO;
    nb::list wounds;
    for (double w : WOUND_VALUE) wounds.append(w);
    v["WOUND_VALUE"] = nb::tuple(wounds);
    v["IMPAIR_VALUE"] = IMPAIR_VALUE;
    v["STUN_VALUE"] = STUN_VALUE;
    v["STUN_FOLLOW"] = STUN_FOLLOW;
    v["STAGGER_VALUE"] = STAGGER_VALUE;
    v["PRONE_VALUE"] = PRONE_VALUE;
    v["PRONE_FOLLOW"] = PRONE_FOLLOW;
    v["KNOCKBACK_AP_VALUE"] = KNOCKBACK_AP_VALUE;
    v["KNOCKBACK_FALL_VALUE"] = KNOCKBACK_FALL_VALUE;
    nb::dict holds;
    for (const HoldValue& h : HOLD_VALUE) holds[h.kind] = h.value;
    v["HOLD_VALUE"] = holds;
    v["HOLD_DEFAULT"] = HOLD_DEFAULT;
    v["AIMS"] = AIMS;
    v["SKIPPED"] = kSkipped;
    m.attr("VALUES") = v;
}

void bind_scripted(nb::module_& m) {
    bind_values(m);
    nb::class_<Style>(m, "Style", "scripted.Style's weights (same fields and defaults).")
        .def(nb::init<>())
        .def_rw("aggression", &Style::aggression)
        .def_rw("risk", &Style::risk)
        .def_rw("strike", &Style::strike)
        .def_rw("kick", &Style::kick)
        .def_rw("grab", &Style::grab)
        .def_rw("defend", &Style::defend)
        .def_rw("counter", &Style::counter)
        .def_rw("follow", &Style::follow)
        .def_rw("chain", &Style::chain)
        .def_rw("wait", &Style::wait)
        .def_rw("approach", &Style::approach)
        .def_rw("reserve_max", &Style::reserve_max)
        .def_rw("weapon", &Style::weapon)
        .def_rw("keep_out", &Style::keep_out);

    nb::class_<ScriptedBot, Player>(
        m, "ScriptedBot",
        "scripted.HeuristicAgent in C++ over a core fight: the same choices (legal indices) "
        "and values (the same doubles).")
        .def(nb::init<std::shared_ptr<Knowledge>, Style>(), nb::arg("knowledge"), nb::arg("style"))
        .def_prop_ro("style", &ScriptedBot::style)
        .def(
            "act",
            [](ScriptedBot& b, Fight& c) {
                check_fight(b, c, "ScriptedBot.act");
                return b.act(c);
            },
            nb::arg("fight"), "HeuristicAgent.act: the legal index of its choice.")
        .def(
            "ranked",
            [](ScriptedBot& b, Fight& c) {
                check_fight(b, c, "ScriptedBot.ranked");
                return b.ranked(c);
            },
            nb::arg("fight"), "HeuristicAgent.ranked: the legal indices, best first.")
        .def(
            "scored_choices",
            [](ScriptedBot& b, Fight& c) {
                check_fight(b, c, "ScriptedBot.scored_choices");
                const int k = c.pending.kind;
                if (k != kDAction && k != kDReaction && k != kDFollowOn) {
                    throw nb::value_error(
                        "ScriptedBot.scored_choices: only action, reaction and follow-on "
                        "decisions are scored");
                }
                return b.scored_choices(c);
            },
            nb::arg("fight"),
            "HeuristicAgent.scored_choices: (value, legal index), best first.")
        .def(
            "scored",
            [](ScriptedBot& b, Fight& c) {
                check_fight(b, c, "ScriptedBot.scored");
                const int k = c.pending.kind;
                if (k != kDAction && k != kDReaction && k != kDFollowOn) {
                    throw nb::value_error("ScriptedBot.scored: not a maneuver window");
                }
                b.fresh(c);
                return b.scored(c, c.pending.fighter, k);
            },
            nb::arg("fight"),
            "HeuristicAgent.scored for the pending decision: (value, legal index) in list order.")
        .def(
            "risk_for",
            [](ScriptedBot& b, Fight& c, int i, int about) {
                check_fight(b, c, "ScriptedBot.risk_for");
                check_fighter(c, i, "ScriptedBot.risk_for");
                b.fresh(c);
                return b.risk_for(c, i, about);
            },
            nb::arg("fight"), nb::arg("i"), nb::arg("about"),
            "HeuristicAgent.risk_for (about: the kAboutNames id).");
}

}  // namespace hexdojo::bots
