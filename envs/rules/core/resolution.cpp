// The resolution layer: each frame's steps (resolution.hpp), and the Fight's driver and
// helpers that run them (the log, rolls, holds, the end of a fight: fight.hpp).
// Comments name the rule each step is.
#include "resolution.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "gear.hpp"
#include "state_formulas.hpp"
#include "weapons.hpp"

namespace hexdojo {

namespace {

using Z = std::size_t;
using Step = std::optional<Asked>;

// legality.maneuver_choices, as choices: listed into a reused buffer, then copied once into
// a list of its own size (room for Release and End or Pass), which the fight keeps.
std::vector<Choice> choices_in(const Fight& c, const Window& w) {
    thread_local std::vector<Choice> listed;
    maneuver_choices(c.fight(), w, listed);
    std::vector<Choice> out;
    out.reserve(listed.size() + 2);
    out.assign(listed.begin(), listed.end());
    return out;
}

std::vector<Choice> risk_choices(const Fight& c) {
    std::vector<Choice> out;
    out.reserve(static_cast<Z>(c.t->dice.max_risk + 1));  // one allocation, not the growth's
    for (int n = 0; n <= c.t->dice.max_risk; ++n) out.push_back(Choice{kCRisk, kNone, kNone, kNone, 0, 0, n});
    return out;
}

const Choice kPass{kCPass};
const Choice kEnd{kCEnd};
const Choice kRelease{kCRelease};

// Whose phase it is: the fighter of the newest phase frame under way (kNone between phases).
int phasing_fighter(const Fight& c) {
    for (auto it = c.stack.rbegin(); it != c.stack.rend(); ++it) {
        if (const auto* p = std::get_if<PhaseFrame>(&*it)) return p->i;
    }
    return kNone;
}

// A decision window of fighter i, knowing whose phase it is (aom3221, aom3225).
Window open_window(const Fight& c, WindowKind kind, int i) {
    Window w;
    w.kind = kind;
    w.fighter = i;
    w.phasing = phasing_fighter(c);
    return w;
}

// §1.18 (aom3225, aom3226, aom3227, aom322a): "may release at any time": Release is offered
// in every window of a holder who can pay holds.release_ap.
void offer_release(const Fight& c, int i, std::vector<Choice>& choices) {
    if (c.s.hold_by(i) != nullptr && c.s.fighters[static_cast<Z>(i)].ap >= c.t->holds.release_ap) {
        choices.push_back(kRelease);
    }
}

int floor_half(int v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

bool has_follow_ons(const Tables& t, int m) { return !t.follow_ons[static_cast<Z>(m)].empty(); }

const std::string& loc_name(const Fight& c, int loc) { return c.t->location_names[static_cast<Z>(loc)]; }

Event& name_loc(Event& e, const Fight& c, const char* key, int loc) {
    return e.name(key, c.t->location_names, loc);
}

std::string maneuver_name(const Fight& c, int m) { return m == kNone ? std::string() : c.mv(m).name; }

Event& maneuver_field(Event& e, const Fight& c, const char* key, int m) {
    if (m == kNone) return e.none(key);
    return e.str(key, c.mv(m).name);
}

}  // namespace

// ======================================================================= the driver
void Fight::start() {
    push(TurnFrame{});
    advance();
}

namespace {

void writeback(Fight& c, const Frame& fr) {
    if (!c.cur_popped && c.cur_gen == c.clear_gen && c.cur_idx < c.stack.size()) c.stack[c.cur_idx] = fr;
}

void begin(Fight& c) {
    c.cur_idx = c.stack.size() - 1;
    c.cur_popped = false;
    c.cur_gen = c.clear_gen;
}

void answer_top(Fight& c, const Choice& ch) {
    begin(c);
    Frame fr = c.stack.back();
    answer(c, fr, ch);
    writeback(c, fr);
}

}  // namespace

void Fight::advance() {
    while (!over && !stack.empty()) {
        begin(*this);
        Frame fr = stack.back();
        Step asked = hexdojo::step(*this, fr);
        writeback(*this, fr);
        if (!asked) continue;
        if (asked->choices.size() == 1) {
            answer_top(*this, asked->choices[0]);
            continue;
        }
        if (asked->choices.empty()) throw std::runtime_error("no legal choice for a decision");
        has_pending = true;
        pending = asked->d;
        choices.p = std::make_shared<const std::vector<Choice>>(std::move(asked->choices));
        menu_of = nullptr;  // a new list: its interned id is not known yet (bind_fight.cpp menu)
        has_window = asked->has_window;
        window = std::move(asked->window);
        return;
    }
    has_pending = false;
    choices.p.reset();
    menu_of = nullptr;
}

void Fight::apply(const Choice& ch) {
    if (!has_pending) throw std::invalid_argument("the fight is over");
    const std::vector<Choice>& legal = *choices.p;
    if (std::find(legal.begin(), legal.end(), ch) == legal.end()) {
        throw std::invalid_argument("not legal now");
    }
    has_pending = false;
    answer_top(*this, ch);
    advance();
}

// ======================================================================= helpers
Event& Fight::log(const char* type, std::string rule) {
    thread_local Event scratch = [] { Event e; e.sink = true; return e; }();  // kept by nobody
    Event& e = record_events ? events.push() : scratch;
    // one allocation for the fields instead of the 1, 2, 4, 8 growth (events carry 5.6
    // fields on average in random play: four allocations and three moves an event before)
    if (record_events) e.fields.reserve(8);
    e.type = type;
    e.turn = s.turn;
    e.rule = std::move(rule);
    return e;
}

void Fight::push(Frame fr) {
    if (stack.size() >= kMaxFrames) throw std::runtime_error("native fight: frame stack overflow");
    stack.push_back(std::move(fr));
}

void Fight::pop_self() {
    if (!cur_popped && cur_gen == clear_gen && stack.size() == cur_idx + 1) {
        stack.pop_back();
        cur_popped = true;
    }
}

void Fight::repush_self(Frame fr) { push(std::move(fr)); }

void Fight::clear_stack() {
    stack.clear();
    ++clear_gen;
}

// §5.30: out of the fight (unconscious or dead): no AP left; a holder who is out keeps no
// hold (§1.18, §1.12).
void Fight::knock_out(int i, int how) {
    FighterState& x = f(i);
    x.out = static_cast<Out>(how);
    x.ap = 0;
    if (const Hold* h = s.hold_by(i)) {
        const Hold copy = *h;
        end_hold(copy, "holder " + kOutNames[static_cast<Z>(how)], "§1.18");
    }
}

void Fight::end_hold(const Hold& h0, const std::string& why, const std::string& rule) {
    const Hold h = h0;
    auto it = std::find(s.holds.begin(), s.holds.end(), h);
    if (it == s.holds.end()) return;
    s.holds.erase(it);
    log("hold_ends", rule).i("holder", h.holder).i("held", h.held)
        .name("hold", t->hold_kind_names, h.kind).str("why", why);
}

void Fight::replace_hold(const Hold& old0, const Hold& nw) {
    const Hold old = old0;
    auto it = std::find(s.holds.begin(), s.holds.end(), old);
    if (it != s.holds.end()) *it = nw;
}

// §5.30 PROPOSED: the fight ends when one side is left standing, which wins.
bool Fight::check_over() {
    if (over) return true;
    std::vector<int> standing;
    for (const auto& x : s.fighters) {
        const int side = s.sides[static_cast<Z>(x.idx)];
        if (x.active() && std::find(standing.begin(), standing.end(), side) == standing.end()) {
            standing.push_back(side);
        }
    }
    if (standing.size() > 1) return false;
    const int winner = standing.empty() ? kNone : standing[0];
    // §1.6: the last fighters can only go down together through a counter tie's two blows
    const char* reason = standing.empty() ? "double knock-out" : "last standing";
    over = true;
    result = Result{winner, reason, s.turn};
    Event& e = log("fight_ends", "§5.30");
    e.opt_int("winner", winner).str("reason", reason);
    if (!g->side_names.empty() && winner != kNone) e.str("side", g->side_names[static_cast<Z>(winner)]);
    clear_stack();
    return true;
}

// ======================================================================= rolls (§1.3)
int Fight::basic(int i, int skill, int chr, std::span<const int> specs, Mods& extra, int worst,
                  Terms* out) {
    const FighterState& x = f(i);
    if (!x.stuck.empty() && chr == t->armed.stuck_characteristic) stuck_penalty(*this, i, extra);  // aom1d35
    return hexdojo::basic(*t, p(i), skill, chr, specs, extra.e, worst == kNone ? x.worst : worst, x.pen,
                          kStatusNames[static_cast<Z>(x.status)], out);
}

int Fight::spec_basic(int i, const RollSpec& spec, Mods& extra, Terms* out) {
    extra.add("bonus", "", spec.bonus);
    return basic(i, spec.skill, spec.characteristic, spec.specialisms, extra, kNone, out);
}

int Fight::roll(std::string what, int basic_h, Terms terms, int risk, RollRecord& rec) {
    rec.what = std::move(what);
    rec.basic = basic_h;
    rec.terms = std::move(terms);
    rec.risk = risk;
    rec.dice.clear();
    int sum = 0;
    for (int k = 0; k < risk; ++k) {
        const int face = dice.die();
        rec.dice.push_back(face);
        sum += face;
    }
    rec.sides = dice.sides;
    rec.result = roll_result(basic_h, risk, sum, t->dice.per_die);
    return rec.result;
}

int Fight::roll_spec(int i, std::string what, const RollSpec& spec, int risk, Mods& extra,
                      RollRecord& rec) {
    Terms terms;
    const int b = spec_basic(i, spec, extra, &terms);
    return roll(std::move(what), b, std::move(terms), risk, rec);
}

// ======================================================================= maneuvers
namespace {

void handle_gear(Fight& c, int i, const Choice& ch, const Maneuver& m, int via);
void pull_out(Fight& c, int i, const Maneuver& m);

}  // namespace

void dispatch(Fight& c, int i, const Choice& ch, int via, Locked restrict) {
    const Maneuver& m = c.mv(ch.maneuver);
    FighterState& f = c.f(i);
    switch (m.category) {
        case kMove: {
            ReactionsFrame fr;
            fr.i = i;
            fr.what = ch.maneuver;
            fr.is_move = true;
            fr.c = ch;
            fr.via = via;
            fr.at = At::kMove;
            c.push(fr);
            return;
        }
        case kTurn:
            c.pay(i, m.ap);
            c.s.set_facing(i, turn(f.facing, ch.turn));
            c.log("turn", m.pages[0]).i("a", i).str("actor", c.name(i)).str("maneuver", m.name)
                .str("via", kViaNames[static_cast<Z>(via)])
                .str("facing", kDirectionNames[static_cast<Z>(f.facing)]);
            return;
        case kStand:
            c.pay(i, m.ap);
            f.prone = false;
            c.log("stand_up", "§5.18").i("a", i).str("actor", c.name(i)).str("maneuver", m.name)
                .str("via", kViaNames[static_cast<Z>(via)]);
            return;
        case kBreak: {
            BreakHoldFrame fr;
            fr.i = i;
            fr.c = ch;
            fr.via = via;
            c.push(fr);
            return;
        }
        case kReady:
        case kDrop:
        case kPullOut:
            handle_gear(c, i, ch, m, via);
            return;
        default: {
            AttackFrame fr;
            fr.a = i;
            fr.c = ch;
            fr.t = ch.target;
            fr.via = via;
            fr.restrict = restrict;
            c.push(fr);
        }
    }
}

namespace {

// Ready weapon (aom314a: draw or pick up; the others may answer it, aom3121, unless it cost
// nothing), Drop weapon (free) and Pull out weapon (§1.15 aom1d35).
void handle_gear(Fight& c, int i, const Choice& ch, const Maneuver& m, int via) {
    c.pay(i, m.ap);
    if (m.category == kDrop) {
        drop(c, i, ch.option, "dropped", m.pages[0]);
        return;
    }
    if (m.category == kReady) {
        const int wid = ch.option;
        const char* how = pick_up(c, i, wid);
        c.log("ready", m.pages[0]).i("a", i).str("actor", c.name(i)).str("maneuver", m.name)
            .str("via", kViaNames[static_cast<Z>(via)]).name("weapon", c.t->weapon_ids, wid).str("how", how);
        ReactionsFrame fr;
        fr.i = i;
        fr.what = ch.maneuver;
        std::vector<int> all;
        if (c.s.order.empty()) {
            for (int g = 0; g < c.s.n(); ++g) all.push_back(g);
        }
        for (int g : c.s.order.empty() ? all : c.s.order) {
            if (g != i && c.f(g).active()) fr.queue.push(g, trig(kTrReady));
        }
        if (m.ap > 0 && !fr.queue.empty()) c.push(fr);  // aom314a: at 0 AP nobody may react
        return;
    }
    pull_out(c, i, m);
}

// §1.15 (aom1d35, aom1d39): pull the first stuck weapon out; its wound worsens.
void pull_out(Fight& c, int i, const Maneuver& m) {
    const Tables& t = *c.t;
    FighterState& f = c.f(i);
    const Stuck x = f.stuck.front();
    f.stuck.erase(f.stuck.begin());
    int k = kNone;
    for (std::size_t j = 0; j < f.wounds.size(); ++j) {
        if (f.wounds[j].location == x.location) k = static_cast<int>(j);
    }
    int worse = kNone;
    if (k != kNone) {
        Wound& w = f.wounds[static_cast<Z>(k)];
        w.level = std::min(t.fatal, w.level + t.armed.pull_out_worsens);
        f.worst = std::max(f.worst, w.level);
        worse = w.level;
    }
    c.s.dropped.push_back({f.pos, x.weapon});
    c.log("pull_out", m.pages[0]).i("a", i).str("actor", c.name(i)).name("weapon", t.weapon_ids, x.weapon)
        .name("location", t.location_names, x.location).name("wound", t.wounds.levels, worse);
    if (worse != kNone && f.worst >= t.fatal) {
        c.knock_out(i, static_cast<int>(Out::kDead));
        c.check_over();
    }
}

// ======================================================================= turn (§1.4, §1.5)
// §5.17 PROPOSED: keeping a hold into a new turn costs holds.maintain_ap; a holder who
// cannot pay lets go.
void maintain_holds(Fight& c) {
    const int cost = c.t->holds.maintain_ap;
    if (!cost) return;
    const std::vector<Hold> holds = c.s.holds;
    for (const Hold& h : holds) {
        if (c.f(h.holder).ap >= cost) {
            c.pay(h.holder, cost);
            c.log("hold_kept", "§5.17").i("a", h.holder).str("actor", c.name(h.holder))
                .name("hold", c.t->hold_kind_names, h.kind).i("ap", cost);
        } else {
            c.end_hold(h, "cannot pay to keep it", "§5.17");
        }
    }
}

void start_turn(Fight& c, TurnFrame& fr) {
    c.s.turn += 1;
    if (c.s.turn > c.g->turn_limit) {
        c.s.turn -= 1;
        c.over = true;
        c.result = Result{kNone, "turn limit", c.s.turn};
        c.log("fight_ends", "hexdojo").none("winner").str("reason", "turn limit");
        c.clear_stack();
        return;
    }
    const TurnRules& data = c.t->turn;
    std::vector<std::tuple<int, int, int>> inits;
    for (auto& f : c.s.fighters) {
        f.phased = false;
        f.pen = 0;
        f.status = Status::kNone;
        if (!f.active()) {
            f.ap = 0;
            continue;
        }
        const Profile& p = c.p(f.idx);
        RollRecord rec, irec;
        Mods none1, none2;
        const int res = c.roll_spec(f.idx, "AP", data.ap, p.risk.ap, none1, rec);
        const int ap = data.ap_rounding == 0 ? floor_half(res) : floor_half(res + 1);
        // §5.25: unused AP were zeroed at the end of the turn unless kept
        f.ap = std::max(data.minimum_ap, ap) + (data.unused_ap_lost ? 0 : f.ap);
        const int ires = c.roll_spec(f.idx, "initiative", data.initiative, p.risk.initiative, none2, irec);
        f.init = ires;
        const int tie = c.dice.die();  // ties: a die roll (aom312)
        inits.emplace_back(-ires, -tie, f.idx);
        c.log("turn_start", "aom313").i("a", f.idx).str("actor", c.name(f.idx)).i("ap", f.ap)
            .roll("ap_roll", std::move(rec)).roll("initiative_roll", std::move(irec));
    }
    maintain_holds(c);
    std::sort(inits.begin(), inits.end());
    c.s.order.clear();
    for (const auto& x : inits) c.s.order.push_back(std::get<2>(x));
    c.log("initiative", "aom312").names("order", c.s.order);
    fr.at = At::kPhase;
    fr.asked = 0;
}

Step step_turn(Fight& c, TurnFrame& fr) {
    if (fr.at == At::kStart) {
        start_turn(c, fr);
        return std::nullopt;
    }
    std::vector<int> cands;
    for (int i : c.s.order) {
        if (c.f(i).active() && !c.f(i).phased) cands.push_back(i);
    }
    if (cands.empty()) {
        if (c.t->turn.unused_ap_lost) {  // §5.25 PROPOSED
            for (auto& f : c.s.fighters) f.ap = 0;
        }
        fr.at = At::kStart;
        return std::nullopt;
    }
    if (fr.asked >= static_cast<int>(cands.size()) - 1) {  // the lowest has no choice (aom312)
        fr.asked = 0;
        c.push(PhaseFrame{cands.back(), At::kStart});
        return std::nullopt;
    }
    fr.cand = cands[static_cast<Z>(fr.asked)];
    Choice now{kCPhase};
    now.option = 1;
    Choice wait{kCPhase};
    return Asked{Decision{fr.cand, kDPhase, kAboutNone}, {now, wait}};
}

void answer_turn(Fight& c, TurnFrame& fr, const Choice& ch) {
    if (ch.option == 1) {
        c.push(PhaseFrame{fr.cand, At::kStart});
        fr.asked = 0;
    } else {
        c.log("wait", "aom312").i("a", fr.cand).str("actor", c.name(fr.cand));
        fr.asked += 1;
    }
}

HitFrame lock_damage(Fight& c, const Hold& h);

// The holder lets go (§1.18): the held fighter is free at once.
void release(Fight& c, int i) {
    if (const Hold* h = c.s.hold_by(i)) {
        const Hold copy = *h;
        c.pay(i, c.t->holds.release_ap);  // §5.17 PROPOSED: 0 AP by default
        c.end_hold(copy, "released", "§1.18");
    }
}

// ======================================================================= phase (aom312)
Step step_phase(Fight& c, PhaseFrame& fr) {
    FighterState& f = c.f(fr.i);
    if (fr.at == At::kStart) {
        fr.at = At::kAct;
        c.log("phase", "aom312").i("a", fr.i).str("actor", c.name(fr.i)).i("ap", f.ap);
        if (c.t->holds.lock_damage_in_holder_phase) {
            std::vector<HitFrame> locks;
            for (const Hold& h : c.s.holds) {
                if (h.holder == fr.i && c.t->hold_kinds[static_cast<Z>(h.kind)].painful && h.turn < c.s.turn) {
                    locks.push_back(lock_damage(c, h));
                }
            }
            for (auto it = locks.rbegin(); it != locks.rend(); ++it) c.push(*it);
        }
        return std::nullopt;
    }
    if (!f.active()) {
        f.phased = true;
        c.pop_self();
        return std::nullopt;
    }
    Window w = open_window(c, WindowKind::kAction, fr.i);
    std::vector<Choice> choices = choices_in(c, w);
    offer_release(c, fr.i, choices);  // §5.17
    choices.push_back(kEnd);
    return Asked{Decision{fr.i, kDAction, kAboutNone}, std::move(choices), true, w};
}

void answer_phase(Fight& c, PhaseFrame& fr, const Choice& ch) {
    FighterState& f = c.f(fr.i);
    if (ch.kind == kCEnd) {
        f.phased = true;
        c.log("phase_ends", "aom312").i("a", fr.i).str("actor", c.name(fr.i)).i("ap", f.ap);
        c.pop_self();
    } else if (ch.kind == kCRelease) {
        release(c, fr.i);
    } else {
        dispatch(c, fr.i, ch, kViaAction);
    }
}

// ======================================================================= movement (aom3141)
std::vector<int> near(const Fight& c, int i) {
    const Hex pos = c.s.fighters[static_cast<Z>(i)].pos;
    std::vector<int> out;
    for (const auto& g : c.s.fighters) {
        if (g.idx != i && distance(g.pos, pos) <= 1) out.push_back(g.idx);
    }
    return out;
}

// Who may react to fighter i having moved from start (aom3121, §4, §5.7), in initiative
// order, each with the triggers the move gave him.
Queue movement_reactions(const Fight& c, int i, Hex start, const std::vector<int>& near_before,
                         int skip = kNone) {
    const Hex pos = c.s.fighters[static_cast<Z>(i)].pos;
    Queue q;
    auto one = [&](int g) {
        const FighterState& fg = c.s.fighters[static_cast<Z>(g)];
        if (g == i || g == skip || !fg.active()) return;
        std::uint32_t tr = trig(kTrMovement);
        if (fg.pos == pos && start != fg.pos) tr |= trig(kTrClosing);
        if (distance(fg.pos, pos) <= 1 && std::find(near_before.begin(), near_before.end(), g) == near_before.end()) {
            tr |= trig(kTrAdjacent);
        }
        if ((fg.hands[0] != kNone || fg.hands[1] != kNone) && entered_zone(*c.t, c.s, g, start, pos)) {
            tr |= trig(kTrZone);  // aom3142: into a hex his melee weapon strikes
        }
        if (c.s.hold_on(g) != nullptr) tr |= trig(kTrHeld);
        q.push(g, tr);
    };
    if (c.s.order.empty()) {
        for (int g = 0; g < c.s.n(); ++g) one(g);
    } else {
        for (int g : c.s.order) one(g);
    }
    return q;
}

void make_move(Fight& c, ReactionsFrame& fr) {
    FighterState& f = c.f(fr.i);
    const Maneuver& m = c.mv(fr.what);
    c.pay(fr.i, m.ap);
    const Hex start = f.pos;
    const std::vector<int> near_before = near(c, fr.i);
    c.s.set_facing(fr.i, turn(f.facing, fr.c.turn));
    const Path path = move_path(c.fight(), fr.i, 0, fr.c.option);
    for (int k = 0; k < path.n; ++k) c.s.place(fr.i, path.hexes[static_cast<Z>(k)]);  // hex by hex (§5.4)
    c.log("move", m.pages[0]).i("a", fr.i).str("actor", c.name(fr.i)).str("maneuver", m.name)
        .str("via", kViaNames[static_cast<Z>(fr.via)]).hex("to", f.pos)
        .str("facing", kDirectionNames[static_cast<Z>(f.facing)]);
    fr.queue = movement_reactions(c, fr.i, start, near_before);
    if (fr.via == kViaAction) {  // a phasing fighter's group may follow him (aom3141, §2.1)
        fr.has_follow = true;
        fr.follow_direction = fr.c.option > 0 ? f.facing : opposite(f.facing);
        fr.follow_hexes = fr.c.option < 0 ? -fr.c.option : fr.c.option;
        const int side = c.s.sides[static_cast<Z>(fr.i)];
        for (int k = fr.queue.head; k < fr.queue.n; ++k) {
            auto& e = fr.queue.e[static_cast<Z>(k)];
            if (c.s.sides[static_cast<Z>(e.g)] == side) e.triggers |= trig(kTrFollow);
        }
    }
}

Step step_reactions(Fight& c, ReactionsFrame& fr) {
    if (fr.is_move && fr.at == At::kMove) {
        make_move(c, fr);
        fr.at = At::kReact;
    }
    while (!fr.queue.empty()) {
        const auto [g, triggers] = fr.queue.front();
        if (!(c.f(g).active() && c.f(fr.i).active())) {
            ++fr.queue.head;
            continue;
        }
        Window w = open_window(c, WindowKind::kReaction, g);
        w.triggers = triggers;
        w.attacker = fr.i;
        w.attack = fr.what;
        if (fr.has_follow && (triggers & trig(kTrFollow))) {
            w.has_follow = true;
            w.follow_direction = fr.follow_direction;
            w.follow_hexes = fr.follow_hexes;
        }
        std::vector<Choice> choices = choices_in(c, w);
        offer_release(c, g, choices);
        choices.push_back(kPass);
        return Asked{Decision{g, kDReaction, kAboutNone}, std::move(choices), true, w};
    }
    c.pop_self();
    return std::nullopt;
}

void answer_reactions(Fight& c, ReactionsFrame& fr, const Choice& ch) {
    const int g = fr.queue.front().g;
    if (ch.kind == kCRelease) {  // free at once; the same window again
        release(c, g);
        return;
    }
    ++fr.queue.head;
    if (ch.kind != kCManeuver) return;
    if (fr.closing) {  // who reacted to what (aom3221)
        const Maneuver& m = c.mv(ch.maneuver);
        c.log("reaction", m.pages[0]).i("a", g).str("actor", c.name(g)).str("maneuver", m.name)
            .str("against", c.name(fr.i) + " closing in (" + c.mv(fr.what).name + ")").str("trigger", "closing");
    }
    dispatch(c, g, ch, kViaReaction);
}

}  // namespace

// ======================================================================= attack (§1.6-1.9)
namespace {

std::vector<Frame> success(Fight& c, int x, int y, const Choice& ch, int margin, int hand);
void make_hold(Fight& c, int holder, int held, int kind, int location, int hand = kNone);
void roll_damage(Fight& c, HitFrame& fr);

void resolve_attack(Fight& c, AttackFrame& fr);

bool is_counter(const Fight& c, const AttackFrame& fr) {  // an attacking reaction (§1.6)
    return fr.has_react && c.mv(fr.react.maneuver).counter;
}

// A maneuver made from a hold is foiled when the target broke free before it landed (§1.18,
// aom322d; holds.hold_maneuvers_need_the_hold): no rolls, its AP stay spent.
bool foiled(const Fight& c, const AttackFrame& fr) {
    const Maneuver& m = c.mv(fr.c.maneuver);
    if (!(m.needs_hold != kNone || m.ends_hold) || !c.t->holds.hold_maneuvers_need_the_hold) return false;
    const Hold* h = c.s.hold_by(fr.a);
    return h == nullptr || h->held != fr.t;
}

void declare(Fight& c, AttackFrame& fr) {
    const Maneuver& m = c.mv(fr.c.maneuver);
    FighterState& f = c.f(fr.a);
    const FighterState& g = c.f(fr.t);
    c.pay(fr.a, cost(*c.t, c.s, fr.a, fr.c.maneuver, fr.c.option));  // a weapon mode's AP (aom3142)
    if (m.limb == kLimbArm && m.weapon == kNone) fr.hand = striking_hand(*c.t, c.s, fr.a);  // aom3225
    c.s.set_facing(fr.a, turn(f.facing, fr.c.turn));
    const Hex start = f.pos;
    if (m.range == 0 && f.pos != g.pos) {
        c.s.place(fr.a, g.pos);  // closing (aom321, aom322)
        fr.closed = true;
    } else if (m.range == 1 && ((m.may_advance && fr.c.option == 1) || m.advances)) {
        c.s.place(fr.a, neighbour(f.pos, f.facing));  // flying kick (aom3222), advance (aom3143)
    }
    // aom3121: an advance into the target's strike zone may be met by Stand and attack
    fr.zone = (g.hands[0] != kNone || g.hands[1] != kNone) && entered_zone(*c.t, c.s, fr.t, start, f.pos);
    Event& e = c.log("declare", m.pages[0]);
    e.i("a", fr.a).i("t", fr.t).str("actor", c.name(fr.a)).str("target", c.name(fr.t)).str("maneuver", m.name)
        .name("location", c.t->location_names, fr.c.location).str("via", kViaNames[static_cast<Z>(fr.via)])
        .flag("closing", fr.closed);
    if (m.weapon != kNone) {
        e.name("weapon", c.t->weapon_ids, used_weapon(*c.t, c.s, fr.a, fr.c.maneuver, fr.c.option));
        const WeaponMode* mode = attack_mode(*c.t, c.s, fr.a, fr.c.maneuver, fr.c.option);
        if (mode != nullptr) {
            e.str("mode", mode->name);
        } else {
            e.none("mode");
        }
    }
}

// aom3221: closing into a hex is a closing for every opponent in it, not only the target:
// each may answer with what a closing allows (Martial Strike, Punch) before the attack goes
// on. Returns whether anyone is asked.
bool ask_hex_on_closing(Fight& c, const AttackFrame& fr) {
    ReactionsFrame rf;
    rf.i = fr.a;
    rf.what = fr.c.maneuver;
    rf.closing = true;
    const Hex pos = c.f(fr.a).pos;
    const int side = c.s.sides[static_cast<Z>(fr.a)];
    auto one = [&](int g) {
        const FighterState& fg = c.f(g);
        if (g == fr.a || g == fr.t || !fg.active() || fg.pos != pos || c.s.sides[static_cast<Z>(g)] == side) return;
        std::uint32_t tr = trig(kTrClosing);
        if (c.s.hold_on(g) != nullptr) tr |= trig(kTrHeld);
        rf.queue.push(g, tr);
    };
    if (c.s.order.empty()) {
        for (int g = 0; g < c.s.n(); ++g) one(g);
    } else {
        for (int g : c.s.order) one(g);
    }
    if (rf.queue.empty()) return false;
    c.push(rf);
    return true;
}

Step step_attack(Fight& c, AttackFrame& fr) {
    if (fr.at == At::kDeclare) {
        declare(c, fr);
        fr.at = At::kReact;
        if (fr.closed && ask_hex_on_closing(c, fr)) return std::nullopt;
    }
    if (!(c.f(fr.a).active() && c.f(fr.t).active())) {
        c.pop_self();
        return std::nullopt;
    }
    if (fr.at == At::kReact) {
        const Maneuver& m = c.mv(fr.c.maneuver);
        Window w = open_window(c, WindowKind::kReaction, fr.t);
        w.triggers = trig(kTrAttack);
        if (fr.closed) w.triggers |= trig(kTrClosing);
        if (fr.zone) w.triggers |= trig(kTrZone);
        if (c.s.hold_on(fr.t) != nullptr) w.triggers |= trig(kTrHeld);
        w.attacker = fr.a;
        w.attack = fr.c.maneuver;
        w.no_defence = m.no_defence;
        w.restrict_limb = fr.restrict.limb;
        w.restrict_location = fr.restrict.location;
        std::vector<Choice> choices = choices_in(c, w);
        offer_release(c, fr.t, choices);
        choices.push_back(kPass);
        return Asked{Decision{fr.t, kDReaction, kAboutNone}, std::move(choices), true, w};
    }
    if ((fr.at == At::kAttRisk || fr.at == At::kDefRisk) && foiled(c, fr)) fr.at = At::kRoll;
    if (fr.at == At::kAttRisk) return Asked{Decision{fr.a, kDRisk, kAboutAttack}, risk_choices(c)};
    if (fr.at == At::kDefRisk) {
        const int about = is_counter(c, fr) ? kAboutCounter : kAboutDefence;
        return Asked{Decision{fr.t, kDRisk, about}, risk_choices(c)};
    }
    resolve_attack(c, fr);
    return std::nullopt;
}

void answer_attack(Fight& c, AttackFrame& fr, const Choice& ch) {
    if (fr.at == At::kReact) {
        if (ch.kind == kCRelease) {  // free at once; the same window again (§1.18)
            release(c, fr.t);
            return;
        }
        fr.at = At::kAttRisk;
        if (ch.kind != kCManeuver) return;
        fr.has_react = true;
        fr.react = ch;
        const Maneuver& m = c.mv(ch.maneuver);
        if (m.category == kTurn || m.category == kStand || m.category == kBreak) {
            fr.has_react = false;  // not a defence: the default defence still applies
            dispatch(c, fr.t, ch, kViaReaction);
            return;
        }
        FighterState& f = c.f(fr.t);
        if (m.limb == kLimbArm && m.weapon == kNone) fr.react_hand = striking_hand(*c.t, c.s, fr.t, fr.restrict.location);
        c.pay(fr.t, cost(*c.t, c.s, fr.t, ch.maneuver, ch.option));
        c.s.set_facing(fr.t, turn(f.facing, ch.turn));
        Event& e = c.log("reaction", m.pages[0]);
        e.i("a", fr.t).str("actor", c.name(fr.t)).str("maneuver", m.name).str("against", c.mv(fr.c.maneuver).name);
        if (m.weapon != kNone) e.name("weapon", c.t->weapon_ids, used_weapon(*c.t, c.s, fr.t, ch.maneuver, ch.option));
    } else if (fr.at == At::kAttRisk) {
        fr.ra = ch.risk;
        fr.at = At::kDefRisk;
    } else if (fr.at == At::kDefRisk) {
        fr.rd = ch.risk;
        fr.at = At::kRoll;
    }
}

// §1.8 basic values and terms of the attack and of the target's answer: a counter-attack's
// own attack (§1.6), else its defence (aom315; the default defence without a reaction).
std::pair<int, int> attack_basics(Fight& c, const AttackFrame& fr, Terms* aterms, Terms* dterms) {
    const Choice& a = fr.c;
    const int att = attack_basic(c, fr.a, fr.t, a.maneuver, a.location, a.option, aterms);
    if (is_counter(c, fr)) {
        const Choice& r = fr.react;
        return {att, attack_basic(c, fr.t, fr.a, r.maneuver, r.location, r.option, dterms)};
    }
    const int rname = fr.has_react ? fr.react.maneuver : kNone;
    return {att, defence_basic(c, fr.t, fr.a, rname, a.maneuver, a.location, fr.has_react ? fr.react.option : 0,
                               dterms)};
}

// The dodger moves (aom3146, aom3147, aom322b); a dodge into or next to another fighter is
// a movement like any other (§4 row 1, aom3212, aom3221).
void dodge_move(Fight& c, const AttackFrame& fr, const Maneuver& rm, std::vector<Frame>& frames) {
    Hex dest;
    if (!dodge_destination(c.fight(), fr.t, fr.a, rm.moves, fr.react.option, dest) || !c.s.on_board(dest)) return;
    const Hex start = c.f(fr.t).pos;
    const std::vector<int> near_before = near(c, fr.t);
    c.s.place(fr.t, dest);
    c.log("dodge_move", rm.pages[0]).i("a", fr.t).str("actor", c.name(fr.t)).hex("to", dest);
    const int skip = c.t->movement.dodge_triggers_attacker ? kNone : fr.a;
    ReactionsFrame rf;
    rf.i = fr.t;
    rf.what = fr.react.maneuver;
    rf.queue = movement_reactions(c, fr.t, start, near_before, skip);
    if (!rf.queue.empty()) frames.emplace_back(rf);
}

// The defender's follow-on window after a successful defence (§3): the arm of a blocked
// weapon attack (aom3145, aom322e) and the hand a Block was made with.
FollowOnFrame follow_on_after_defence(const Fight& c, const AttackFrame& fr) {
    const Maneuver& m = c.mv(fr.c.maneuver);
    FollowOnFrame f;
    f.i = fr.t;
    f.after = fr.react.maneuver;
    f.blocked = fr.c.maneuver;
    if (m.weapon != kNone) {
        const int hand = split(*c.t, m, fr.c.option).hand;
        f.blocked_arm = c.t->armed.arm_locations[static_cast<Z>(hand)];
    } else if (m.limb == kLimbArm) {  // aom3225: "the arm that attacked him/her"
        const int hand = fr.hand != kNone ? fr.hand : c.t->attack.striking_hand;
        f.blocked_arm = c.t->armed.arm_locations[static_cast<Z>(hand)];
    }
    f.own_hand = c.mv(fr.react.maneuver).category == kWeaponBlock ? fr.react.option : kNone;
    f.attacker = fr.a;
    return f;
}

void schedule(Fight& c, std::vector<Frame>& frames) {
    for (auto it = frames.rbegin(); it != frames.rend(); ++it) c.push(*it);
}

// §1.6 (aom3221, aom3225): "both attacks hit their targets simultaneously": both blows'
// damage is rolled from the fight as it stands before either lands (a stun or wound the one
// gives does not weaken the other), and the fight's end waits for the second blow (both may
// go down: a double knock-out).
void strike_together(Fight& c, std::vector<Frame>& frames) {
    HitFrame* last = nullptr;
    for (Frame& f : frames) {
        auto* h = std::get_if<HitFrame>(&f);
        if (h == nullptr || h->kind != kHitAttack) continue;
        roll_damage(c, *h);
        const FighterState& v = c.f(h->victim);
        h->at = can_soak(*c.t, h->level, v.ap, false) ? At::kSoak : At::kApply;
        h->together = 1;
        last = h;
    }
    if (last != nullptr) last->together = 2;
    bool after_last = false;  // the self-injuries after the last blow wait for nothing
    for (Frame& f : frames) {
        auto* h = std::get_if<HitFrame>(&f);
        if (h == nullptr) continue;
        if (after_last) h->together = 0;
        else if (h->kind == kHitSelf) h->together = 1;
        if (h == last) after_last = true;
    }
}

void resolve_counter(Fight& c, const AttackFrame& fr, int att, RollRecord arec, int bd, Terms dterms) {
    const Choice& ch = fr.c;
    const Choice& react = fr.react;
    RollRecord crec;
    const int cres = c.roll("attack", bd, std::move(dterms), fr.rd, crec);
    struct Landed { int x, y; Choice ch; int margin, hand; };
    std::vector<Landed> landed;
    if (counter_hits(att, cres)) landed.push_back({fr.a, fr.t, ch, att - cres, fr.hand});
    if (counter_hits(cres, att)) landed.push_back({fr.t, fr.a, react, cres - att, fr.react_hand});
    const char* outcome = landed.size() == 2 ? "both hit" : (landed[0].x == fr.a ? "hit" : "countered");
    Event& e = c.log("attack", "§1.6");
    e.i("a", fr.a).i("t", fr.t).str("actor", c.name(fr.a)).str("target", c.name(fr.t))
        .str("maneuver", c.mv(ch.maneuver).name).name("location", c.t->location_names, ch.location)
        .roll("attack", std::move(arec)).str("counter", c.mv(react.maneuver).name)
        .name("counter_location", c.t->location_names, react.location).roll("defence", std::move(crec))
        .str("outcome", outcome);
    std::vector<Frame> frames;
    for (const Landed& l : landed) {
        std::vector<Frame> more = success(c, l.x, l.y, l.ch, l.margin, l.hand);
        frames.insert(frames.end(), more.begin(), more.end());
    }
    // both blows land at once (§1.6): follow-on windows only after both hits
    std::stable_partition(frames.begin(), frames.end(),
                          [](const Frame& f) { return !std::holds_alternative<FollowOnFrame>(f); });
    if (landed.size() == 2) strike_together(c, frames);
    schedule(c, frames);
}

void resolve_attack(Fight& c, AttackFrame& fr) {
    c.pop_self();
    const AttackFrame me = fr;  // the frame's values, whatever is pushed from here on
    const Choice& ch = me.c;
    if (foiled(c, me)) {
        c.log("foiled", "aom322d").i("a", me.a).i("t", me.t).str("actor", c.name(me.a))
            .str("target", c.name(me.t)).str("maneuver", c.mv(ch.maneuver).name).str("why", "the hold was broken");
        return;
    }
    Terms aterms, dterms;
    const auto [ba, bd] = attack_basics(c, me, &aterms, &dterms);
    RollRecord arec;
    const int att = c.roll("attack", ba, std::move(aterms), me.ra, arec);
    if (is_counter(c, me)) {
        resolve_counter(c, me, att, std::move(arec), bd, std::move(dterms));
        return;
    }
    const int rname = me.has_react ? me.react.maneuver : kNone;
    RollRecord drec;
    const int dres = c.roll("defence", bd, std::move(dterms), me.rd, drec);
    const Maneuver* rm = rname != kNone ? &c.mv(rname) : nullptr;
    const bool hit = hits(*c.t, att, dres, rname);  // ties: aom315, aom3226, §5.2
    const int margin = att - dres;
    Event& e = c.log("attack", "aom315");
    e.i("a", me.a).i("t", me.t).str("actor", c.name(me.a)).str("target", c.name(me.t))
        .str("maneuver", c.mv(ch.maneuver).name).name("location", c.t->location_names, ch.location)
        .roll("attack", std::move(arec)).str("defence_maneuver", rm ? rm->name : std::string("none"))
        .roll("defence", std::move(drec)).str("outcome", hit ? "hit" : "miss").div2("margin", margin);
    std::vector<Frame> frames;
    const bool moves = !hit || !c.t->movement.dodge_moves_only_on_success;
    if (rm != nullptr && rm->moves != kNone && moves) dodge_move(c, me, *rm, frames);
    if (hit) {
        std::vector<Frame> more = success(c, me.a, me.t, ch, margin, me.hand);
        frames.insert(frames.end(), more.begin(), more.end());
    } else if (rm != nullptr) {
        if (rm->category == kLegGrab) {
            make_hold(c, me.t, me.a, rm->hold, kNone);
            if (c.t->attack.leg_grab_pulls_kicker_in) c.s.place(me.a, c.f(me.t).pos);
        }
        if (has_follow_ons(*c.t, rname)) frames.emplace_back(follow_on_after_defence(c, me));
    }
    schedule(c, frames);
}

// ======================================================================= success (§2 effects)
// Create (or upgrade, e.g. Arm Grab -> Arm/wrist Lock) a hold (§1.18).
void make_hold(Fight& c, int holder, int held, int kind, int location, int hand) {
    const Hold* old = c.s.hold_by(holder);
    const bool from_behind = contains(c.t->attack.rear_arc, c.s.arc(holder, held));
    // the hand that took it stays on it (aom3225), when the kind keeps one
    const int keeps = c.t->hold_kinds[static_cast<Z>(kind)].holder_arms == 1 ? hand : kNone;
    Hold nw{holder, held, kind, location, c.s.turn, 0, from_behind, keeps};
    if (old != nullptr && old->held == held) {
        const Hold o = *old;
        nw.attempts = o.attempts;
        if (o.hand != kNone && nw.hand == kNone) nw.hand = o.hand;  // a lock keeps the grabbing hand
        c.replace_hold(o, nw);
    } else {
        if (old != nullptr) {
            const Hold o = *old;
            c.end_hold(o, "new hold", "§5.17");
        }
        c.s.holds.push_back(nw);
    }
    const HoldKind& hk = c.t->hold_kinds[static_cast<Z>(kind)];
    c.log("hold", hk.source).i("holder", holder).i("held", held).str("actor", c.name(holder))
        .str("target", c.name(held)).name("hold", c.t->hold_kind_names, kind)
        .name("location", c.t->location_names, location);
    const int arm = index_in(c.t->armed.arm_locations, location);
    if (hk.drops_weapon && location != kNone && arm != kNone) drop(c, held, arm, "arm locked", "aom3227");
}

// A rider falls off the mount and lands prone (aom347).
void fall_off(Fight& c, int i, const std::string& why) {
    FighterState& f = c.f(i);
    f.mounted = false;
    f.height = 0;
    f.prone = true;
    c.log("falls_off", "aom347").i("a", i).str("actor", c.name(i)).str("why", why);
}

// A rider pulled down by x lands in an adjacent hex (§2.3, aom347): the first of
// mounted.pull_down_directions (relative to x's facing) on the arena.
void land_beside(Fight& c, int x, int y) {
    const int facing = c.f(x).facing;
    for (int d : c.t->mounted.pull_down_directions) {
        const Hex dest = neighbour(c.f(y).pos, turn(facing, d));
        if (c.s.on_board(dest)) {
            c.s.place(y, dest);
            c.log("lands", "aom347").i("a", y).str("actor", c.name(y)).hex("to", dest);
            return;
        }
    }
}

HitFrame hit_frame(int src, int victim, int maneuver, int loc, int dtype, int margin, int kind) {
    HitFrame h;
    h.src = src;
    h.victim = victim;
    h.maneuver = maneuver;
    h.loc = loc;
    h.dtype = dtype;
    h.margin = margin;
    h.kind = kind;
    return h;
}

// §1.17: striking armour hurts: basic damage = target DR - striker's skill (+2 Head Butt).
// The striking part: a hand is the one that struck (aom3221: "hit on the hand"; aom3225: a
// held fighter strikes with his free arm), a foot or the head the data's location.
HitFrame self_injury(Fight& c, int x, int y, int maneuver, int loc, int hand) {
    const Maneuver& m = c.mv(maneuver);
    const int part = m.self_injury == kNone ? kPartHand : m.self_injury;
    const int by = hand != kNone ? hand : c.t->attack.striking_hand;
    const int part_loc = part == kPartHand ? c.t->armed.hand_locations[static_cast<Z>(by)]
                                           : c.t->self_injury.locations[static_cast<Z>(part)];
    HitFrame h = hit_frame(y, x, maneuver, part_loc, c.t->self_injury.damage_type, 0, kHitSelf);
    const std::optional<int> fixed = self_injury_basic(*c.t, c.p(x), c.p(y), maneuver, loc);
    h.has_fixed = fixed.has_value();
    h.fixed = fixed.value_or(0);
    return h;
}

// §5.16 PROPOSED: a painful lock hurts again in each later turn, no attack roll.
HitFrame lock_damage(Fight& c, const Hold& h) {
    const int name = c.t->hold_by_maneuver[static_cast<Z>(h.kind)];
    const int lock_loc = c.t->hold_kinds[static_cast<Z>(h.kind)].lock_location;
    const int loc = lock_loc != kNone ? lock_loc : h.location != kNone ? h.location : c.t->attack.whole_body_location;
    return hit_frame(h.holder, h.held, name, loc, c.mv(name).damage_types[0], 0, kHitLock);
}

// The effects of x's successful maneuver ch on y; returns the frames to run.
std::vector<Frame> success(Fight& c, int x, int y, const Choice& ch, int margin, int hand) {
    const Tables& t = *c.t;
    const Maneuver& m = c.mv(ch.maneuver);
    std::vector<Frame> frames;
    FighterState& fy = c.f(y);
    const int loc = ch.location != kNone ? ch.location : t.attack.whole_body_location;
    if (m.ends_hold) {
        const Hold* h = c.s.hold_by(x);
        if (h != nullptr && h->held == y) {
            const Hold copy = *h;
            c.end_hold(copy, m.name, m.pages[0]);
        }
    }
    if (m.hold != kNone) make_hold(c, x, y, m.hold, ch.location, hand);
    if (m.category == kThrow) {
        const Hex dest = throw_destination(c.fight(), x, 0, ch.option);
        if (c.s.on_board(dest)) c.s.place(y, dest);
    }
    if (m.knocks_prone) {
        fy.prone = true;
        c.log("prone", m.pages[0]).i("a", y).str("actor", c.name(y)).str("why", m.name);
    }
    if (m.unhorses && fy.mounted) {
        fall_off(c, y, m.name);
        if (!t.mounted.pull_down_lands_same) land_beside(c, x, y);
    }
    const WeaponMode* mode = m.weapon != kNone ? attack_mode(t, c.s, x, ch.maneuver, ch.option) : nullptr;
    if (mode != nullptr) {  // a weapon's rating and type (aom3142, aom3211)
        HitFrame h = hit_frame(x, y, ch.maneuver, loc, mode->damage_type, margin, kHitAttack);
        h.has_rating = true;
        h.rating = mode->damage;
        h.weapon = used_weapon(t, c.s, x, ch.maneuver, ch.option);
        frames.emplace_back(h);
    } else if (m.has_damage) {
        frames.emplace_back(hit_frame(x, y, ch.maneuver, loc, damage_type(t, ch.maneuver, ch.option), margin,
                                      kHitAttack));
        if (m.self_injury != kNone) frames.emplace_back(self_injury(c, x, y, ch.maneuver, loc, hand));
    }
    if (has_follow_ons(t, ch.maneuver)) {
        FollowOnFrame f;
        f.i = x;
        f.after = ch.maneuver;
        frames.emplace_back(f);
    }
    return frames;
}

// ======================================================================= hit (§1.10-1.13)
void roll_damage(Fight& c, HitFrame& fr) {
    const Tables& t = *c.t;
    const Profile& vp = c.p(fr.victim);
    RollRecord rec;
    if (fr.kind == kHitSelf) {
        fr.damage = fr.has_fixed ? fr.fixed : 0;
        rec.self_injury = true;
        rec.what = "self-injury";
        rec.result = fr.damage;
    } else {
        const bool use_margin = fr.kind == kHitAttack || t.lock_damage_uses_margin;
        Mods extra(damage_extra(t, fr.maneuver, fr.margin, fr.loc, use_margin,
                                fr.has_rating ? std::optional<int>(fr.rating) : std::nullopt));
        const Risk& r = c.p(fr.src).risk;
        const int risk = fr.kind == kHitAttack ? r.damage : r.lock_damage;
        Terms terms;
        const int b = c.basic(fr.src, kNone, t.damage_characteristic, {}, extra, kNone, &terms);
        fr.damage = c.roll("damage", b, std::move(terms), risk, rec);
    }
    const int dr = damage_resistance(t, vp, fr.loc);
    fr.level = wound_level(t, fr.damage - dr);
    Event& e = c.log("damage", "aom316");
    e.i("a", fr.src).i("t", fr.victim).str("actor", c.name(fr.src)).str("target", c.name(fr.victim))
        .str("maneuver", c.mv(fr.maneuver).name).str("kind", kHitKindNames[static_cast<Z>(fr.kind)])
        .name("location", t.location_names, fr.loc).name("damage_type", t.damage_type_names, fr.dtype)
        .roll("roll", std::move(rec)).div2("dr", dr).name("wound", t.wounds.levels, fr.level);
    if (fr.weapon != kNone) e.name("weapon", t.weapon_ids, fr.weapon);
}

void soak(Fight& c, HitFrame& fr, int risk) {
    const Tables& t = *c.t;
    RollRecord rec;
    Mods none;
    const int res = c.roll_spec(fr.victim, "soak", t.soak.roll, risk, none, rec);
    const int levels = soak_levels(t, res);
    const int before = fr.level;
    fr.level = std::max(0, fr.level - levels);
    c.log("soak", "aom314c").i("a", fr.victim).str("actor", c.name(fr.victim)).roll("roll", std::move(rec))
        .i("levels", levels).name("before", t.wounds.levels, before).name("after", t.wounds.levels, fr.level);
}

// §1.12 immediate reaction: unconscious, stunned or staggered.
void pain(Fight& c, const HitFrame& fr) {
    const Tables& t = *c.t;
    const PainRules& p = t.pain;
    FighterState& v = c.f(fr.victim);
    Mods extra(pain_extra(t, fr.dtype, fr.loc, fr.level));
    RollRecord rec;
    const int res = c.roll_spec(fr.victim, "pain", p.roll, c.p(fr.victim).risk.pain, extra, rec);
    const int effect = pain_effect(t, res);  // 3 unconscious, 2 stunned, 1 staggered
    if (effect == 3) {
        c.knock_out(fr.victim, static_cast<int>(Out::kUnconscious));
        if (v.mounted) fall_off(c, fr.victim, "unconscious");
    } else if (effect == 2) {
        v.ap = 0;
        v.status = Status::kStunned;
        v.pen = std::min(v.pen, p.stun_penalty);
    } else if (effect == 1) {
        c.lose_ap(fr.victim, p.stagger_ap_loss);
        if (v.status != Status::kStunned) v.status = Status::kStaggered;
        v.pen = std::min(v.pen, p.stagger_penalty);
    }
    const std::string& ename = kPainEffectNames[static_cast<Z>(effect)];
    c.log("pain", "aom1d31").i("a", fr.victim).str("actor", c.name(fr.victim)).roll("roll", std::move(rec))
        .str("effect", ename);
    const bool struck = effect == 1 || effect == 2;
    if (struck && (v.hands[0] != kNone || v.hands[1] != kNone)) {
        drop_struck(c, fr.victim, fr.loc, effect);  // §1.12: drops what it holds
    }
    if (struck && fr.kind == kHitAttack) {
        const Hold* h = c.s.hold_by(fr.victim);
        if (h != nullptr && h->held == fr.src) {  // aom3225, aom3216, aom3226
            const Hold copy = *h;
            c.end_hold(copy, "holder " + ename, "§1.12");
        }
    }
    if (effect == 2 && v.mounted) {
        const MountedRules& md = t.mounted;
        RollRecord rrec;
        Mods none;
        const int r = c.roll_spec(fr.victim, "stay mounted", md.stay_mounted, 0, none, rrec);
        const bool stays = r >= md.stay_mounted_difficulty;
        c.log("stay_mounted", "aom347").i("a", fr.victim).str("actor", c.name(fr.victim))
            .roll("roll", std::move(rrec)).div2("difficulty", md.stay_mounted_difficulty)
            .str("outcome", stays ? "stays on" : "falls");
        if (!stays) fall_off(c, fr.victim, "stunned");
    }
}

// §1.15 (aom1d35): a Medium-or-worse wound from an impaling weapon leaves it stuck in the
// victim; the striker's hand lets go of it.
void stick(Fight& c, const HitFrame& fr) {
    const Tables& t = *c.t;
    const ArmedRules& a = t.armed;
    if (fr.weapon == kNone || fr.dtype != a.stuck_damage_type) return;
    const Weapon& w = t.weapons[static_cast<Z>(fr.weapon)];
    if (!w.stuck_penalty || fr.level < a.stuck_min_wound) return;
    FighterState& src = c.f(fr.src);
    const int hand = src.hands[0] == fr.weapon ? 0 : src.hands[1] == fr.weapon ? 1 : kNone;
    if (hand == kNone) return;
    let_go(c, fr.src, hand);
    FighterState& v = c.f(fr.victim);
    v.stuck.push_back({fr.weapon, fr.loc});
    c.log("stuck", "aom1d35").i("a", fr.victim).str("actor", c.name(fr.victim))
        .name("weapon", t.weapon_ids, fr.weapon).name("location", t.location_names, fr.loc)
        .div2("penalty", w.stuck_penalty).str("holder", c.name(fr.src));
}

void knocked_into(Fight& c, const HitFrame& fr, Hex dest, int skip) {
    c.s.place(fr.victim, dest);
    ReactionsFrame rf;
    rf.i = fr.victim;
    rf.what = fr.maneuver;
    for (const auto& g : c.s.fighters) {
        if (g.pos == dest && g.idx != fr.victim && g.idx != fr.src && g.idx != skip && g.active()) {
            rf.queue.push(g.idx, trig(kTrClosing));
        }
    }
    if (!rf.queue.empty()) c.push(rf);
}

// §1.13 (aom1d34): ST + Athletics against the basic damage before armour, impaired by the
// worst wound carried before this hit (aom1d31, aom1d32, aom1d39).
void knockback(Fight& c, HitFrame& fr, int worst) {
    const Tables& t = *c.t;
    const KnockbackRules& kb = t.knockback;
    FighterState& v = c.f(fr.victim);
    Mods extra(knockback_extra(t, fr.dtype, fr.loc, v.mounted));
    const int skill = knockback_skill(t, v.mounted);
    Terms terms;
    const int b = c.basic(fr.victim, skill, kb.roll.characteristic, kb.roll.specialisms, extra, worst, &terms);
    RollRecord rec;
    const int res = c.roll("knock-back", b, std::move(terms), c.p(fr.victim).risk.knockback, rec);
    const KnockbackBand band = knockback_band(kb, fr.damage - res);
    const std::string& ename = kKnockbackEffectNames[static_cast<Z>(band.effect)];
    if (band.effect == 0) {
        c.log("knockback", "aom1d34").i("a", fr.victim).str("actor", c.name(fr.victim)).roll("roll", std::move(rec))
            .div2("difficulty", fr.damage).str("effect", "none");
        return;
    }
    const bool move = band.effect != 1;
    const bool short_of_ap = v.ap < band.ap_lost;
    c.lose_ap(fr.victim, band.ap_lost);
    const bool falls = band.knocked_over || short_of_ap;
    c.log("knockback", "aom1d34").i("a", fr.victim).str("actor", c.name(fr.victim)).roll("roll", std::move(rec))
        .div2("difficulty", fr.damage).str("effect", ename).flag("falls", falls);
    if (falls) {
        if (v.mounted) {
            fall_off(c, fr.victim, ename);
        } else {
            v.prone = true;
        }
    }
    if (!move || kb.distance == 0) return;
    const FighterState& src = c.f(fr.src);
    int d = direction_to(src.pos, v.pos);
    if (d == kNone) d = src.facing;  // §5.20 PROPOSED: same hex, along the attacker's facing
    Hex dest = v.pos;
    for (int k = 0; k < kb.distance; ++k) {
        const Hex nxt = neighbour(dest, d);
        if (!c.s.on_board(nxt)) break;
        dest = nxt;
    }
    if (dest == v.pos) return;
    fr.has_dest = true;
    fr.dest = dest;
    if (const Hold* mine = c.s.hold_by(fr.victim); mine != nullptr && kb.holder_knocked_back_releases) {
        const Hold copy = *mine;
        c.end_hold(copy, "holder knocked back", "hexdojo");
    }
    if (c.s.hold_on(fr.victim) != nullptr) {
        fr.at = At::kHold;
        c.repush_self(fr);  // back on the stack for the holder's choice
        return;
    }
    knocked_into(c, fr, dest, kNone);
}

void finish_knockback(Fight& c, HitFrame& fr, int follower) {
    c.pop_self();
    const HitFrame me = fr;
    if (const Hold* h = c.s.hold_on(me.victim); h != nullptr && follower == kNone) {
        const Hold copy = *h;
        c.end_hold(copy, "let go", "aom3225");
    }
    if (me.has_dest) {
        knocked_into(c, me, me.dest, follower);
        if (follower != kNone) {
            c.s.place(follower, me.dest);
            c.log("moves_along", "aom3225").i("a", follower).str("actor", c.name(follower));
        }
    }
}

void apply_hit(Fight& c, HitFrame& fr) {
    const Tables& t = *c.t;
    FighterState& v = c.f(fr.victim);
    c.pop_self();
    const int worst_before = v.worst;  // the rolls this hit forces come before its impairment (aom1d31)
    if (fr.level > 0) {
        if (fr.level >= t.fatal) {
            v.wounds.push_back({fr.loc, fr.level});
            c.knock_out(fr.victim, static_cast<int>(Out::kDead));
            c.log("wound", "aom316").i("a", fr.victim).str("actor", c.name(fr.victim))
                .name("location", t.location_names, fr.loc).name("wound", t.wounds.levels, fr.level)
                .str("effect", "killed");
            if (fr.together != 1) c.check_over();  // §1.6: a simultaneous blow still lands
            return;
        }
        if (fr.kind != kHitSelf || t.pain.self_injury_pain_roll) pain(c, fr);  // before the impairment
        v.wounds.push_back({fr.loc, fr.level});
        v.worst = std::max(v.worst, fr.level);
        c.log("wound", "aom316").i("a", fr.victim).str("actor", c.name(fr.victim))
            .name("location", t.location_names, fr.loc).name("wound", t.wounds.levels, fr.level)
            .name("worst", t.wounds.levels, v.worst);
        if (fr.together != 1 && c.check_over()) return;
        stick(c, fr);
    }
    const Maneuver& m = c.mv(fr.maneuver);
    const bool kb = (fr.kind == kHitAttack && !m.no_knockback) || (fr.kind == kHitLock && t.lock_damage_knockback);
    if (kb && v.active()) knockback(c, fr, worst_before);  // §5.16
}

Step step_hit(Fight& c, HitFrame& fr) {
    const FighterState& v = c.f(fr.victim);
    if (fr.together != 0 && !v.active() && fr.at != At::kHold) {  // a blow of a tie on one already down
        c.pop_self();
        if (fr.together == 2) c.check_over();
        return std::nullopt;
    }
    if (fr.at == At::kDamage) {
        if (!v.active() || (fr.kind == kHitSelf && !fr.has_fixed)) {
            c.pop_self();
            return std::nullopt;
        }
        roll_damage(c, fr);
        fr.at = can_soak(*c.t, fr.level, v.ap, fr.kind == kHitSelf) ? At::kSoak : At::kApply;
    }
    if (fr.at == At::kSoak) {
        Window w = open_window(c, WindowKind::kReaction, fr.victim);
        w.triggers = trig(kTrHit);
        w.has_reactions_only = true;
        w.reactions_only = {c.t->soak_maneuver};
        std::vector<Choice> choices = choices_in(c, w);
        offer_release(c, fr.victim, choices);
        choices.push_back(kPass);
        return Asked{Decision{fr.victim, kDSoak, kAboutNone}, std::move(choices), true, w};
    }
    if (fr.at == At::kSoakRisk) return Asked{Decision{fr.victim, kDRisk, kAboutSoak}, risk_choices(c)};
    if (fr.at == At::kApply) {
        apply_hit(c, fr);
        return std::nullopt;
    }
    // at kHold: a held victim knocked back: the holder moves along or lets go
    const Hold* h = c.s.hold_on(fr.victim);
    if (h == nullptr || !c.f(h->holder).active()) {
        finish_knockback(c, fr, kNone);
        return std::nullopt;
    }
    fr.holder = h->holder;
    Choice along{kCHold};
    along.option = 1;
    Choice let{kCHold};
    return Asked{Decision{h->holder, kDHold, kAboutNone}, {along, let}};
}

void answer_hit(Fight& c, HitFrame& fr, const Choice& ch) {
    if (fr.at == At::kSoak) {
        if (ch.kind == kCRelease) {  // free at once; the same window again (§1.18)
            release(c, fr.victim);
        } else if (ch.kind == kCManeuver) {
            c.pay(fr.victim, c.mv(c.t->soak_maneuver).ap);
            fr.at = At::kSoakRisk;
        } else {
            fr.at = At::kApply;
        }
    } else if (fr.at == At::kSoakRisk) {
        soak(c, fr, ch.risk);
        fr.at = At::kApply;
    } else if (fr.at == At::kHold) {
        finish_knockback(c, fr, ch.option == 1 ? fr.holder : kNone);
    }
}

// ======================================================================= follow-on (§3)
// The limb of the blocked attacker a block locked (§3, aom3145, aom322e); for a follow-on
// against someone else (a group fight) nothing is locked.
Locked locked_of(const Fight& c, const FollowOnFrame& fr, int target = kNone) {
    if (target != kNone && fr.attacker != kNone && target != fr.attacker) return {};
    return locked_limb(*c.t, fr.after, fr.blocked, fr.blocked_arm);
}

Step step_follow_on(Fight& c, FollowOnFrame& fr) {
    if (!c.f(fr.i).active()) {
        c.pop_self();
        return std::nullopt;
    }
    const Locked restrict = locked_of(c, fr);
    Window w = open_window(c, WindowKind::kFollowOn, fr.i);
    w.after = fr.after;
    w.restrict_limb = restrict.limb;
    w.restrict_location = restrict.location;
    w.own_hand = fr.own_hand;
    w.locked_fighter = restrict.any() ? fr.attacker : kNone;
    std::vector<Choice> choices = choices_in(c, w);
    offer_release(c, fr.i, choices);
    choices.push_back(kPass);
    return Asked{Decision{fr.i, kDFollowOn, kAboutNone}, std::move(choices), true, w};
}

void answer_follow_on(Fight& c, FollowOnFrame& fr, const Choice& ch) {
    if (ch.kind == kCRelease) {  // free at once; the same window again (§1.18)
        release(c, fr.i);
        return;
    }
    c.pop_self();
    if (ch.kind != kCManeuver) return;
    const FollowOnFrame me = fr;
    const Maneuver& m = c.mv(ch.maneuver);
    if (contains(c.t->holds.follow_ups_end_hold, me.after)) {
        const Hold* h = c.s.hold_by(me.i);
        if (h != nullptr && !(m.needs_hold != kNone || m.ends_hold)) {  // a throw ends it when it lands
            const Hold copy = *h;
            c.end_hold(copy, m.name + " follows " + c.mv(me.after).name, "aom3226");
        }
    }
    dispatch(c, me.i, ch, kViaFollowOn, locked_of(c, me, ch.target));
}

// ======================================================================= break hold (aom322d)
Step step_break(Fight& c, BreakHoldFrame& fr) {
    FighterState& f = c.f(fr.i);
    const Hold* h = c.s.hold_on(fr.i);
    if (fr.at == At::kDeclare) {
        c.pay(fr.i, c.mv(fr.c.maneuver).ap);
        c.s.set_facing(fr.i, turn(f.facing, fr.c.turn));
        fr.at = At::kEscRisk;
    }
    if (h == nullptr || !c.f(h->holder).active()) {
        c.pop_self();
        return std::nullopt;
    }
    if (fr.at == At::kEscRisk) return Asked{Decision{fr.i, kDRisk, kAboutBreak}, risk_choices(c)};
    if (fr.at == At::kHoldRisk) return Asked{Decision{h->holder, kDRisk, kAboutResist}, risk_choices(c)};
    c.pop_self();
    const BreakHoldFrame me = fr;
    const Hold hold = *h;
    auto [esc, best] = break_hold_basics(c, me.i, hold, me.c.option);
    const auto& methods = c.t->break_hold.method_names;
    RollRecord erec, hrec;
    const int eres = c.roll("break hold (" + methods[static_cast<Z>(esc.method)] + ")", esc.basic,
                            std::move(esc.terms), me.re, erec);
    const int hres = c.roll("hold (" + methods[static_cast<Z>(best.method)] + ")", best.basic,
                            std::move(best.terms), me.rh, hrec);
    const bool ok = break_succeeds(eres, hres);
    c.log("break_hold", "aom322d").i("a", me.i).i("t", hold.holder).str("actor", c.name(me.i))
        .str("maneuver", c.mv(me.c.maneuver).name).str("via", kViaNames[static_cast<Z>(me.via)])
        .str("target", c.name(hold.holder)).roll("escaper", std::move(erec)).roll("holder", std::move(hrec))
        .str("outcome", ok ? "broken" : "held");
    if (ok) {
        c.end_hold(hold, c.mv(me.c.maneuver).name, "aom322d");
    } else {
        Hold nw = hold;
        nw.attempts += 1;
        c.replace_hold(hold, nw);
    }
    return std::nullopt;
}

void answer_break(Fight&, BreakHoldFrame& fr, const Choice& ch) {
    if (fr.at == At::kEscRisk) {
        fr.re = ch.risk;
        fr.at = At::kHoldRisk;
    } else {
        fr.rh = ch.risk;
        fr.at = At::kRoll;
    }
}

}  // namespace

// ======================================================================= the frames' entry points
std::optional<Asked> step(Fight& c, Frame& fr) {
    return std::visit(
        [&](auto& f) -> Step {
            using F = std::decay_t<decltype(f)>;
            if constexpr (std::is_same_v<F, TurnFrame>) return step_turn(c, f);
            else if constexpr (std::is_same_v<F, PhaseFrame>) return step_phase(c, f);
            else if constexpr (std::is_same_v<F, ReactionsFrame>) return step_reactions(c, f);
            else if constexpr (std::is_same_v<F, AttackFrame>) return step_attack(c, f);
            else if constexpr (std::is_same_v<F, HitFrame>) return step_hit(c, f);
            else if constexpr (std::is_same_v<F, FollowOnFrame>) return step_follow_on(c, f);
            else return step_break(c, f);
        },
        fr);
}

void answer(Fight& c, Frame& fr, const Choice& ch) {
    std::visit(
        [&](auto& f) {
            using F = std::decay_t<decltype(f)>;
            if constexpr (std::is_same_v<F, TurnFrame>) answer_turn(c, f, ch);
            else if constexpr (std::is_same_v<F, PhaseFrame>) answer_phase(c, f, ch);
            else if constexpr (std::is_same_v<F, ReactionsFrame>) answer_reactions(c, f, ch);
            else if constexpr (std::is_same_v<F, AttackFrame>) answer_attack(c, f, ch);
            else if constexpr (std::is_same_v<F, HitFrame>) answer_hit(c, f, ch);
            else if constexpr (std::is_same_v<F, FollowOnFrame>) answer_follow_on(c, f, ch);
            else answer_break(c, f, ch);
        },
        fr);
}

RollContext roll_context(Fight& c) {
    RollContext out;
    if (c.stack.empty()) return out;
    Frame& top = c.stack.back();
    if (auto* fr = std::get_if<AttackFrame>(&top)) {
        if (fr->at != At::kAttRisk && fr->at != At::kDefRisk) return out;
        const auto [ba, bd] = attack_basics(c, *fr, nullptr, nullptr);
        out.attack = true;
        out.attacker = fr->a;
        out.maneuver = fr->c.maneuver;
        out.location = fr->c.location;
        out.reaction = fr->has_react ? fr->react.maneuver : kNone;
        out.basics = {{fr->a, ba}, {fr->t, bd}};
    } else if (auto* hf = std::get_if<HitFrame>(&top)) {
        if (hf->at != At::kSoak && hf->at != At::kSoakRisk) return out;
        Mods none;
        out.has_wound = true;
        out.wound = hf->level;
        out.basics = {{hf->victim, c.spec_basic(hf->victim, c.t->soak.roll, none)}};
    } else if (auto* bf = std::get_if<BreakHoldFrame>(&top)) {
        const Hold* h = c.s.hold_on(bf->i);
        if ((bf->at != At::kEscRisk && bf->at != At::kHoldRisk) || h == nullptr) return out;
        const Hold hold = *h;
        auto [esc, best] = break_hold_basics(c, bf->i, hold, bf->c.option);
        out.basics = {{bf->i, esc.basic}, {hold.holder, best.basic}};
    }
    return out;
}

}  // namespace hexdojo
