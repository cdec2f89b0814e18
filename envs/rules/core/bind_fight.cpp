// Bindings of the fight (fight.hpp's Fight, bound as _core.Fight; resolution.hpp), which
// Python's State (envs/rules/state.py) wraps: a fight set up from Python (the compiled
// tables and sheets, sides, arena, the start hexes and facings Python drew, and the dice where
// Python left them), its decision and legal choices as int tuples, apply, clone, the result,
// the board, and the event log as the dicts State.events shows, built on request.
// A bad choice is a Python ValueError with the reason, never a crash.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bind.hpp"
#include "board_checks.hpp"
#include "context.hpp"
#include "fight.hpp"
#include "resolution.hpp"
#include "weapons.hpp"

namespace hexdojo {

namespace {

using Z = std::size_t;
using ChoiceTuple = std::tuple<int, int, int, int, int, int, int>;
using Start = std::pair<std::pair<int, int>, int>;

FighterState fighter_of(const Profile& p, int idx, Hex pos, int facing) {
    FighterState f;
    f.idx = idx;
    f.pos = pos;
    f.facing = facing;
    f.mounted = p.mounted;
    f.height = p.height;
    f.hands = p.hands;
    f.sheathed = p.sheathed;
    return f;
}

Fight* make_fight(const Tables& t, const std::vector<Profile>& profiles, const std::vector<int>& sides,
                   const std::vector<std::string>& side_names, int radius, int turn_limit,
                   const std::vector<Start>& starts, const Dice& dice) {
    if (!t.sealed) throw nb::value_error("tables: not sealed (call seal() first)");
    const std::size_t n = profiles.size();
    if (n < 2 || n > static_cast<Z>(kMaxFighters)) {
        throw nb::value_error(("profiles: " + std::to_string(n) + ": the native core takes 2.." +
                               std::to_string(kMaxFighters)).c_str());
    }
    if (sides.size() != n || starts.size() != n) {
        throw nb::value_error("sides, starts: one entry per fighter needed");
    }
    for (const Profile& p : profiles) {
        const std::string bad = profile_problem(t, p);
        if (!bad.empty()) throw nb::value_error(bad.c_str());
    }
    int max_side = -1;
    for (int sd : sides) {
        if (sd < 0 || sd >= static_cast<int>(n)) throw nb::value_error("sides: a side is 0..fighters-1");
        max_side = std::max(max_side, sd);
    }
    if (!side_names.empty() && static_cast<int>(side_names.size()) <= max_side) {
        throw nb::value_error("side_names: one name per side needed");
    }
    if (radius < 1 || radius > 20) throw nb::value_error("radius: allowed 1..20");
    if (turn_limit < 1 || turn_limit > 10000) throw nb::value_error("turn_limit: allowed 1..10000");
    auto setup = std::make_shared<Setup>();
    setup->profiles = profiles;
    for (const Profile& p : profiles) setup->names.push_back(p.name);
    setup->side_names = side_names;
    setup->turn_limit = turn_limit;
    auto c = std::make_unique<Fight>();
    c->t = &t;
    c->g = setup;
    c->s.radius = radius;
    c->s.sides = sides;
    for (std::size_t k = 0; k < n; ++k) {
        const auto& [h, facing] = starts[k];
        if (facing < 0 || facing > 5) throw nb::value_error("starts: facing allowed 0..5");
        c->s.fighters.push_back(fighter_of(profiles[k], static_cast<int>(k), checked_hex(h.first, h.second), facing));
    }
    c->dice = dice;
    try {
        c->start();
    } catch (const std::exception& e) {
        throw nb::value_error(e.what());
    }
    return c.release();
}

void id(const char* field, int v, int lo, int hi);

// A frame from Python as ints (scenario.py's ScenarioBoard.frames): the frame's type, then its fields in
// fight.hpp's order, a choice as its 7 ints, a bool as 0/1, an At as its index.
struct Ints {
    const std::vector<int>& v;
    std::size_t k = 0;
    int next(const char* field, int lo, int hi) {
        if (k >= v.size()) throw nb::value_error((std::string("frame: too short at ") + field).c_str());
        const int x = v[k++];
        id(field, x, lo, hi);
        return x;
    }
    int any() {
        if (k >= v.size()) throw nb::value_error("frame: too short");
        return v[k++];
    }
    bool flag(const char* field) { return next(field, 0, 2) != 0; }
};

Choice choice_from(Ints& x, const Fight& c) {
    Choice ch;
    ch.kind = x.next("frame.choice.kind", 0, static_cast<int>(kChoiceKindNames.size()));
    ch.maneuver = x.next("frame.choice.maneuver", kNone, c.t->n_maneuvers());
    ch.target = x.next("frame.choice.target", kNone, c.s.n());
    ch.location = x.next("frame.choice.location", kNone, c.t->n_locations());
    ch.turn = x.next("frame.choice.turn", -6, 7);  // bounded: no overflow in the geometry
    ch.option = x.next("frame.choice.option", -kBig, kBig);
    ch.risk = x.next("frame.choice.risk", 0, c.t->dice.max_risk + 1);
    return ch;
}

Frame frame_from(const std::vector<int>& v, const Fight& c) {
    Ints x{v};
    const int n = c.s.n(), nm = c.t->n_maneuvers(), nl = c.t->n_locations();
    const int kind = x.next("frame type", 0, 7);
    auto at = [&] { return static_cast<At>(x.next("at", 0, static_cast<int>(At::kHoldRisk) + 1)); };
    switch (kind) {
        case 0: {
            TurnFrame f;
            f.at = at();
            f.asked = x.next("asked", 0, kMaxFighters + 1);
            f.cand = x.next("cand", kNone, n);
            return f;
        }
        case 1: {
            PhaseFrame f;
            f.i = x.next("i", 0, n);
            f.at = at();
            return f;
        }
        case 2: {
            ReactionsFrame f;
            f.i = x.next("i", 0, n);
            f.what = x.next("what", 0, nm);
            const int q = x.next("queue", 0, kMaxFighters + 1);
            for (int k = 0; k < q; ++k) {
                const int g = x.next("queue.fighter", 0, n);
                f.queue.push(g, static_cast<std::uint32_t>(x.next("queue.triggers", 0, 1 << 9)));
            }
            f.has_follow = x.flag("has_follow");
            f.follow_direction = x.next("follow_direction", 0, 6);
            f.follow_hexes = x.next("follow_hexes", 0, 17);
            f.is_move = x.flag("is_move");
            f.c = choice_from(x, c);
            f.via = x.next("via", 0, 3);
            f.at = at();
            return f;
        }
        case 3: {
            AttackFrame f;
            f.a = x.next("a", 0, n);
            f.c = choice_from(x, c);
            f.t = x.next("t", 0, n);
            f.via = x.next("via", 0, 3);
            f.restrict.limb = x.next("restrict_limb", kNone, static_cast<int>(kLimbNames.size()));
            f.restrict.location = x.next("restrict_location", kNone, nl);
            f.at = at();
            f.closed = x.flag("closed");
            f.zone = x.flag("zone");
            f.has_react = x.flag("has_react");
            f.react = choice_from(x, c);
            f.ra = x.next("ra", 0, c.t->dice.max_risk + 1);
            f.rd = x.next("rd", 0, c.t->dice.max_risk + 1);
            if (f.c.maneuver == kNone || (f.has_react && f.react.maneuver == kNone)) {
                throw nb::value_error("frame: an attack needs its maneuvers");
            }
            return f;
        }
        case 4: {
            HitFrame f;
            f.src = x.next("src", 0, n);
            f.victim = x.next("victim", 0, n);
            f.maneuver = x.next("maneuver", 0, nm);
            f.loc = x.next("loc", 0, nl);
            f.dtype = x.next("dtype", 0, static_cast<int>(c.t->damage_types.size()));
            f.margin = x.next("margin", -kBig, kBig);
            f.kind = x.next("kind", 0, 3);
            f.has_fixed = x.flag("has_fixed");
            f.fixed = x.next("fixed", -kBig, kBig);
            f.has_rating = x.flag("has_rating");
            f.rating = x.next("rating", -kBig, kBig);
            f.weapon = x.next("weapon", kNone, static_cast<int>(c.t->weapon_ids.size()));
            f.at = at();
            f.level = x.next("level", 0, c.t->fatal + 1);
            f.damage = x.next("damage", -kBig, kBig);
            f.has_dest = x.flag("has_dest");
            const int q = x.any(), r = x.any();
            f.dest = checked_hex(q, r);
            f.holder = x.next("holder", kNone, n);
            return f;
        }
        case 5: {
            FollowOnFrame f;
            f.i = x.next("i", 0, n);
            f.after = x.next("after", 0, nm);
            f.blocked = x.next("blocked", kNone, nm);
            f.blocked_arm = x.next("blocked_arm", kNone, nl);
            f.own_hand = x.next("own_hand", kNone, 2);
            f.attacker = x.next("attacker", kNone, n);
            return f;
        }
        default: {
            BreakHoldFrame f;
            f.i = x.next("i", 0, n);
            f.c = choice_from(x, c);
            f.via = x.next("via", 0, 3);
            f.at = at();
            f.re = x.next("re", 0, c.t->dice.max_risk + 1);
            f.rh = x.next("rh", 0, c.t->dice.max_risk + 1);
            if (f.c.maneuver == kNone) throw nb::value_error("frame: a break hold needs its maneuver");
            return f;
        }
    }
}

// Every id of a board from Python in range (a ValueError naming the field, never a crash).
void check_board(const Tables& t, const Board& s) {
    const int n = s.n(), nw = static_cast<int>(t.weapon_ids.size()), nl = t.n_locations();
    if (n < 2 || n > kMaxFighters) throw nb::value_error("state: 2..8 fighters needed");
    if (s.radius < 1 || s.radius > 20) throw nb::value_error("state.radius: allowed 1..20");
    id("state.turn", s.turn, 0, 10001);
    for (int sd : s.sides) id("state.sides", sd, 0, n);
    for (int i : s.order) id("state.order", i, 0, n);
    for (int k = 0; k < n; ++k) check_fighter(t, s.fighters[static_cast<std::size_t>(k)], k);
    for (const auto& h : s.holds) {
        id("hold.holder", h.holder, 0, n);
        id("hold.held", h.held, 0, n);
        id("hold.kind", h.kind, 0, static_cast<int>(t.hold_kinds.size()));
        id("hold.location", h.location, kNone, nl);
        id("hold.hand", h.hand, kNone, 2);
    }
    for (const auto& d : s.dropped) id("dropped.weapon", d.weapon, 0, nw);
}

// A fight taken over from a Python State (a scenario, or any state between decisions): its
// board (native.core_state), dice (core_dice_of) and frame stack, then advanced to the
// pending decision (each frame's step is idempotent at a pending decision).
Fight* fight_from(const Tables& t, const std::vector<Profile>& profiles,
                   const std::vector<std::string>& side_names, int turn_limit, const Board& board,
                   const Dice& dice, const std::vector<std::vector<int>>& frames, bool over) {
    std::vector<Start> starts;
    for (const auto& f : board.fighters) starts.push_back({{f.pos.q, f.pos.r}, f.facing});
    if (starts.size() != profiles.size() || board.sides.size() != profiles.size()) {
        throw nb::value_error("state: one fighter and one side per profile needed");
    }
    check_board(t, board);
    if (over) throw nb::value_error("state: the fight is over (nothing to take over)");
    auto c = std::make_unique<Fight>();
    c->t = &t;
    auto setup = std::make_shared<Setup>();
    setup->profiles = profiles;
    for (const Profile& p : profiles) setup->names.push_back(p.name);
    setup->side_names = side_names;
    setup->turn_limit = turn_limit;
    c->g = setup;
    for (const Profile& p : profiles) {
        const std::string bad = profile_problem(t, p);
        if (!bad.empty()) throw nb::value_error(bad.c_str());
    }
    c->s = board;
    c->dice = dice;
    c->over = over;
    if (frames.size() > Fight::kMaxFrames) throw nb::value_error("frames: too many");
    for (const auto& v : frames) c->stack.push_back(frame_from(v, *c));
    try {
        c->advance();
    } catch (const std::exception& e) {
        throw nb::value_error(e.what());
    }
    return c.release();
}

void id(const char* field, int v, int lo, int hi) {
    if (v >= lo && v < hi) return;
    throw nb::value_error((std::string(field) + ": " + std::to_string(v) + ": allowed " +
                           std::to_string(lo) + ".." + std::to_string(hi - 1)).c_str());
}

Choice choice_of(const Fight& c, const ChoiceTuple& x) {
    const auto [kind, m, target, loc, turn_by, option, risk] = x;
    id("choice.kind", kind, 0, static_cast<int>(kChoiceKindNames.size()));
    id("choice.maneuver", m, kNone, c.t->n_maneuvers());
    id("choice.target", target, kNone, c.s.n());
    id("choice.location", loc, kNone, c.t->n_locations());
    return Choice{kind, m, target, loc, turn_by, option, risk};
}

ChoiceTuple tuple_of(const Choice& ch) {
    return {ch.kind, ch.maneuver, ch.target, ch.location, ch.turn, ch.option, ch.risk};
}

void apply_tuple(Fight& c, const ChoiceTuple& x) {
    const Choice ch = choice_of(c, x);
    try {
        c.apply(ch);
    } catch (const std::invalid_argument& e) {
        throw nb::value_error(e.what());
    } catch (const std::runtime_error& e) {
        throw nb::value_error(e.what());
    }
}

nb::object half(int v) {
    if (v % 2 == 0) return nb::int_(v / 2);
    return nb::float_(v / 2.0);
}

nb::dict roll_dict(const RollRecord& r) {
    nb::dict d;
    d["what"] = r.what;
    if (r.self_injury) {
        d["result"] = nb::float_(r.result / 2.0);
        return d;
    }
    d["basic"] = half(r.basic);
    nb::list terms;
    for (const auto& [label, v] : r.terms) {
        nb::list one;
        one.append(nb::str(label.c_str()));
        one.append(half(v));
        terms.append(one);
    }
    d["terms"] = terms;
    d["risk"] = r.risk;
    nb::list dice;
    for (int f : r.dice) dice.append(f);
    d["dice"] = dice;
    if (r.risk) d["sides"] = r.sides;
    d["result"] = half(r.result);
    return d;
}

nb::object value(const Fight& c, const Event& e, const Field& f) {
    switch (f.kind) {
        case V::kInt: return nb::int_(f.a);
        case V::kHalf: return half(f.a);
        case V::kDiv2: return nb::float_(f.a / 2.0);
        case V::kBool: return nb::bool_(f.a != 0);
        case V::kNone: return nb::none();
        case V::kStr: return nb::str(f.s.c_str());
        case V::kHex: {
            nb::list l;
            l.append(f.a);
            l.append(f.b);
            return l;
        }
        case V::kRoll: return roll_dict(e.rolls[static_cast<Z>(f.a)]);
        case V::kNames: {
            nb::list l;
            for (int i : f.list) l.append(nb::str(c.name(i).c_str()));
            return l;
        }
    }
    return nb::none();
}

nb::dict event_dict(const Fight& c, const Event& e) {
    nb::dict d;
    d["type"] = e.type;
    d["turn"] = e.turn;
    d["rule"] = e.rule;
    for (const Field& f : e.fields) d[f.key] = value(c, e, f);
    return d;
}

nb::list events_from(const Fight& c, std::size_t start) {
    nb::list out;
    for (const Event* e : c.events.from(start)) out.append(event_dict(c, *e));
    return out;
}

nb::object decision(const Fight& c) {
    if (!c.has_pending) return nb::none();
    const Decision& d = c.pending;
    return nb::make_tuple(d.fighter, kDecisionKindNames[static_cast<Z>(d.kind)], kAboutNames[static_cast<Z>(d.about)]);
}

std::vector<ChoiceTuple> legal(const Fight& c) {
    std::vector<ChoiceTuple> out;
    if (!c.has_pending) return out;
    out.reserve(c.legal().size());
    for (const Choice& ch : c.legal()) out.push_back(tuple_of(ch));
    return out;
}

// The pending decision and its legal list as one interned id (-1 once over): equal menus get
// the same id, in any fight of any rule set (the key is the decision and the choices' ints),
// and an id is never given to another menu (ids only grow; the registry starts afresh when
// full). Python's State keys its prebuilt Decision and Choices by it (menus.Boundary.menu,
// envs/rules/menus.py), so that a decision costs one call and one dict lookup instead of building tuples.
// Cached in the Fight while its list is the one it was computed for (clones share it).
struct MenuHash {
    std::size_t operator()(const std::vector<int>& v) const noexcept {
        std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a over the ints
        for (int x : v) h = (h ^ static_cast<std::uint32_t>(x)) * 0x100000001b3ULL;
        return static_cast<std::size_t>(h ^ (h >> 29));
    }
};

std::int64_t menu(const Fight& c) {
    if (!c.has_pending || !c.choices.p) return -1;
    if (c.menu_of == c.choices.p.get()) return c.menu;
    static std::unordered_map<std::vector<int>, std::int64_t, MenuHash> registry;  // under the GIL
    static std::int64_t next_id = 0;
    constexpr std::size_t kMaxMenus = 1 << 16;
    thread_local std::vector<int> key;
    key.assign({c.pending.fighter, c.pending.kind, c.pending.about});
    for (const Choice& ch : c.legal()) {
        key.insert(key.end(), {ch.kind, ch.maneuver, ch.target, ch.location, ch.turn, ch.option, ch.risk});
    }
    auto it = registry.find(key);
    if (it == registry.end()) {
        if (registry.size() >= kMaxMenus) registry.clear();
        it = registry.emplace(key, next_id++).first;
    }
    c.menu_of = c.choices.p.get();
    c.menu = it->second;
    return c.menu;
}

nb::object result(const Fight& c) {
    if (!c.over) return nb::none();
    nb::dict d;
    d["winner"] = c.result.winner == kNone ? nb::object(nb::none()) : nb::object(nb::int_(c.result.winner));
    d["reason"] = c.result.reason;
    d["turn"] = c.result.turn;
    return d;
}

nb::object name_or_none(const std::vector<std::string>& names, int id) {
    if (id < 0) return nb::none();
    return nb::str(names[static_cast<Z>(id)].c_str());
}

// State.context(): what the pending decision is about (its keys in a fixed order).
nb::dict context(Fight& c) {
    nb::dict out;
    const DecisionContext x = decision_context(c);  // the one place the core says it
    if (!x.pending) return out;
    const Tables& t = *c.t;
    auto maneuver = [&](int m) { return m < 0 ? nb::object(nb::none()) : nb::object(nb::str(c.mv(m).name.c_str())); };
    out["fighter"] = x.d.fighter;
    out["kind"] = kDecisionKindNames[static_cast<Z>(x.d.kind)];
    out["about"] = kAboutNames[static_cast<Z>(x.d.about)];
    if (x.arc != kNone) {  // a window with an attacker (a roll's own values, when asked, win)
        out["attacker"] = x.attacker;
        out["attack"] = maneuver(x.attack);
        out["arc"] = x.arc;
        if (x.aimed) {
            out["location"] = name_or_none(t.location_names, x.location);
            out["closing"] = x.closing;
        }
    }
    if (x.after != kNone) {
        out["after"] = c.mv(x.after).name;
        if (x.locked.any()) {
            out["locked"] = x.locked.limb != kNone ? kLimbNames[static_cast<Z>(x.locked.limb)]
                                                   : t.location_names[static_cast<Z>(x.locked.location)];
            if (x.locked_fighter != kNone) out["locked_fighter"] = x.locked_fighter;
        }
    }
    if (x.roll) {
        if (x.r.attack) {
            out["attacker"] = x.r.attacker;
            out["attack"] = maneuver(x.r.maneuver);
            out["location"] = name_or_none(t.location_names, x.r.location);
            out["reaction"] = maneuver(x.r.reaction);
        }
        if (x.r.has_wound) out["wound"] = x.r.wound;
        if (!x.r.basics.empty()) {
            nb::dict b;
            for (const auto& [i, v] : x.r.basics) b[nb::int_(i)] = v;
            out["basics"] = b;
        }
    }
    if (x.option != kNone) {  // a weapon attack: its weapon, mode and option
        out["weapon"] = name_or_none(t.weapon_ids, x.weapon);
        out["mode"] = x.mode;
        out["option"] = x.option;
    }
    return out;
}

// Seconds for n native clones (the clone target of issue 15, measured without the Python
// call around each one; scripts/bench_engine.py reports it).
double time_clones(const Fight& c, int n) {
    const auto t0 = std::chrono::steady_clock::now();
    std::size_t sink = 0;
    for (int k = 0; k < n; ++k) {
        const Fight x(c);
        sink += x.stack.size();
    }
    const auto dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return sink == static_cast<std::size_t>(-1) ? -dt : dt;
}

}  // namespace

void bind_fight(nb::module_& m) {
    nb::class_<Fight>(m, "Fight", "A fight (fight.hpp's Fight): rules, sheets, board, dice, event log and the "
                                   "pending decision; Python's State (state.py) wraps one.")
        .def("__init__",
             [](Fight* self, const Tables& t, const std::vector<Profile>& profiles, const std::vector<int>& sides,
                const std::vector<std::string>& side_names, int radius, int turn_limit,
                const std::vector<Start>& starts, const Dice& dice) {
                 std::unique_ptr<Fight> c(make_fight(t, profiles, sides, side_names, radius, turn_limit, starts, dice));
                 new (self) Fight(*c);
             },
             nb::arg("tables"), nb::arg("profiles"), nb::arg("sides"), nb::arg("side_names"), nb::arg("radius"),
             nb::arg("turn_limit"), nb::arg("starts"), nb::arg("dice"), nb::keep_alive<1, 2>(),
             "A fight from compiled tables and sheets, each fighter's side, the side names (empty: "
             "a duel), the arena, the turn limit, the start ((q, r), facing) of each fighter and "
             "the dice after the start was drawn; the first turn is started (Game.new_state).")
        .def_static("from_state",
             [](const Tables& t, const std::vector<Profile>& profiles, const std::vector<std::string>& side_names,
                int turn_limit, const Board& board, const Dice& dice, const std::vector<std::vector<int>>& frames,
                bool over) {
                 std::unique_ptr<Fight> c(fight_from(t, profiles, side_names, turn_limit, board, dice, frames, over));
                 return Fight(*c);
             },
             nb::arg("tables"), nb::arg("profiles"), nb::arg("side_names"), nb::arg("turn_limit"), nb::arg("state"),
             nb::arg("dice"), nb::arg("frames"), nb::arg("over"), nb::keep_alive<0, 1>(),
             "A fight set up on a board built in Python (a scenario, scenario.py): its board, dice and "
             "frames (as ints), advanced to the pending decision.")
        .def_prop_ro("is_over", [](const Fight& c) { return c.over; })
        .def_prop_ro("result", &result)
        .def_prop_ro("decision", &decision, "(fighter, kind, about), or None once over.")
        .def("legal", &legal, "The legal choices: (kind, maneuver, target, location, turn, option, risk).")
        .def("apply", &apply_tuple, nb::arg("choice"))
        .def_prop_ro("n_legal", [](const Fight& c) { return c.legal().size(); })
        .def("apply_index", [](Fight& c, std::size_t k) {
                 if (k >= c.legal().size()) {
                     throw nb::index_error(("choice index " + std::to_string(k) + ": allowed 0.." +
                                            std::to_string(static_cast<long long>(c.legal().size()) - 1)).c_str());
                 }
                 const Choice ch = c.legal()[k];
                 try {
                     c.apply(ch);
                 } catch (const std::exception& e) {
                     throw nb::value_error(e.what());
                 }
             }, nb::arg("k"), "Take the k-th legal choice (the fast path: no tuples built).")
        .def_prop_ro("menu", &menu, "The pending decision and legal list's interned id (-1 once over).")
        // rv_policy::copy: one copy straight into the new Python object (returning a Fight by
        // value copied it twice, Fight having no move constructor: 405 -> 278 ns a call)
        .def("clone", [](const Fight& c) -> const Fight& { return c; }, nb::rv_policy::copy,
             nb::keep_alive<0, 1>())
        .def_prop_ro("n_events", [](const Fight& c) { return c.events.size(); })
        .def("events", &events_from, nb::arg("start") = 0, "The events from start as dicts (State.events).")
        .def_prop_ro("turn", [](const Fight& c) { return c.s.turn; })
        .def_prop_ro("state", [](const Fight& c) { return c.s; }, "A copy of the board state.")
        .def_prop_ro("dice", [](const Fight& c) { return c.dice; }, "A copy of the dice.")
        .def("context", &context, "State.context(): what the pending decision is about.")
        .def_prop_ro("window", [](const Fight& c) { return c.has_pending && c.has_window ? nb::cast(c.window) : nb::none(); },
                     "The pending decision's window (legality.Window), or None.")
        .def("time_clones", &time_clones, nb::arg("n"), "Seconds for n native clones (a benchmark).")
        .def_prop_ro("frames", [](const Fight& c) { return c.stack.size(); });
    m.attr("CHOICE_KINDS") = kChoiceKindNames;
}

}  // namespace hexdojo
