// The scripted fighters' scoring (scripted.hpp): every legal choice's expected value, the
// best played, ties to the first in list order. The memos' keys and lifetimes are part of the
// behaviour the fingerprint pins (tests/agents/test_agents_fingerprint.py), even where a key
// is coarser than the value it holds (e.g. chain_value by maneuver only): change them only
// with a re-pin.
#include "scripted.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "legality.hpp"
#include "state_formulas.hpp"
#include "weapons.hpp"

namespace hexdojo::bots {

namespace {

using Z = std::size_t;

int id_of(const std::vector<Maneuver>& ms, const char* name) {
    for (Z k = 0; k < ms.size(); ++k) {
        if (ms[k].name == name) return static_cast<int>(k);
    }
    return kNone;
}

bool defensive(int cat) {  // legality.DEFENSIVE
    return cat == kDodge || cat == kBlock || cat == kLegGrab || cat == kWeaponBlock ||
           cat == kParry;
}

bool grabs(int cat) {  // scripted.GRABS
    return cat == kGrab || cat == kLock || cat == kThrow || cat == kPullDown || cat == kLegGrab;
}

bool in_front_arc(int direction, int facing) {  // hexgrid.in_front_arc
    const int r = relative(direction, facing);
    return r == 0 || r == 1 || r == 5;
}

int find_choice(const std::vector<Choice>& legal, const Choice& c) {
    for (Z k = 0; k < legal.size(); ++k) {
        if (legal[k] == c) return static_cast<int>(k);
    }
    return kNone;
}

Choice simple(int kind, int option = 0, int risk = 0) {
    Choice c;
    c.kind = kind;
    c.option = option;
    c.risk = risk;
    return c;
}

bool has_follow_ons(const Tables& t, int m) {  // `name in t.follow_ons` (no empty entries)
    return m >= 0 && static_cast<Z>(m) < t.follow_ons.size() && !t.follow_ons[Z(m)].empty();
}

}  // namespace

// ------------------------------------------------------------------ construction
ScriptedBot::ScriptedBot(std::shared_ptr<const Knowledge> k, Style st)
    : ScriptedBot(std::const_pointer_cast<Knowledge>(std::move(k)), st) {}

ScriptedBot::ScriptedBot(std::shared_ptr<Knowledge> k, Style st) : k_(std::move(k)), st_(st) {
    if (!k_) throw std::invalid_argument("ScriptedBot: no Knowledge");
    init_ids();
}

void ScriptedBot::init_ids() {
    const Tables& t = *k_->t;
    martial_strike_ = id_of(t.maneuvers, "Martial Strike");
    turn_ = id_of(t.maneuvers, "Turn");
    move_ = id_of(t.maneuvers, "Move");
    kick_.assign(t.maneuvers.size(), 0);
    for (const char* n : {"Kick", "Martial Kick", "Spinning Kick", "Leg Sweep"}) {
        const int m = id_of(t.maneuvers, n);
        if (m != kNone) kick_[Z(m)] = 1;
    }
    hold_value_.assign(t.hold_kind_names.size(), std::numeric_limits<double>::quiet_NaN());
    for (const HoldValue& hv : HOLD_VALUE) {
        for (Z k = 0; k < t.hold_kind_names.size(); ++k) {
            if (t.hold_kind_names[k] == hv.kind) hold_value_[k] = hv.value;
        }
    }
}

double ScriptedBot::hold_value_or(int kind, double dflt) const {
    if (kind < 0 || static_cast<Z>(kind) >= hold_value_.size()) return dflt;
    const double v = hold_value_[Z(kind)];
    return std::isnan(v) ? dflt : v;
}

// ------------------------------------------------------------------ dispatch
void ScriptedBot::fresh(Fight& s) {
    if (at_ != s.choices.p || at_events_ != s.events.size() || at_turn_ != s.s.turn) {
        at_ = s.choices.p;
        at_events_ = s.events.size();
        at_turn_ = s.s.turn;
        save_memo_.clear();
        chain_memo_.clear();
        has_closing_ = false;
    }
}

int ScriptedBot::act(Fight& s) {
    if (s.t != k_->t) throw std::invalid_argument("ScriptedBot.act: the fight's rules are not the bot's");
    const std::vector<Choice>& choices = s.legal();
    if (!s.has_pending || choices.empty()) throw std::invalid_argument("act() called on a finished fight");
    fresh(s);
    const Decision d = s.pending;
    switch (d.kind) {
        case kDRisk: {
            const int n = std::min({risk_for(s, d.fighter, d.about), st_.risk, k_->R});
            const int got = find_choice(choices, simple(kCRisk, 0, n));
            return got == kNone ? 0 : got;
        }
        case kDPhase: return phase(s, d.fighter);
        case kDSoak: return soak(s, d.fighter);
        case kDHold: return hold(s, d.fighter);
        default: return best(s, d.fighter, d.kind);
    }
}

int ScriptedBot::hold(Fight& s, int i) {
    const Hold* h = s.s.hold_by(i);
    const bool keep = h != nullptr && hold_value_or(h->kind, 0.0) >= 5;
    const int got = find_choice(s.legal(), simple(kCHold, keep ? 1 : 0));
    return got == kNone ? 0 : got;
}

std::vector<int> ScriptedBot::ranked(Fight& s) {
    const std::vector<Choice>& choices = s.legal();
    const int kind = s.has_pending ? s.pending.kind : kNone;
    if (kind != kDAction && kind != kDReaction && kind != kDFollowOn) {
        const int first = act(s);
        std::vector<int> out{first};
        for (Z k = 0; k < choices.size(); ++k) {
            if (!(choices[k] == choices[Z(first)])) out.push_back(static_cast<int>(k));
        }
        return out;
    }
    std::vector<int> out;
    for (const auto& [v, n] : scored_choices(s)) out.push_back(n);
    return out;
}

std::vector<std::pair<double, int>> ScriptedBot::scored_choices(Fight& s) {
    if (s.t != k_->t) throw std::invalid_argument("ScriptedBot.scored_choices: the fight's rules are not the bot's");
    if (!s.has_pending) throw std::invalid_argument("scored_choices() called on a finished fight");
    const int kind = s.pending.kind;
    if (kind != kDAction && kind != kDReaction && kind != kDFollowOn) {
        throw std::invalid_argument("scored_choices(): only action, reaction and follow-on decisions are scored");
    }
    fresh(s);
    std::vector<std::pair<double, int>> sc = scored(s, s.pending.fighter, kind);
    std::stable_sort(sc.begin(), sc.end(),
                     [](const auto& a, const auto& b) { return -a.first < -b.first; });
    return sc;
}

// ------------------------------------------------------------------ helpers
int ScriptedBot::opponent(const Fight& s, int i) {
    const std::vector<int> others = s.s.others(i);
    if (!others.empty()) return others[0];
    return s.s.n() == 2 ? 1 - i : 0;
}

int ScriptedBot::reserve(const Fight& s, int i, int j) const {
    (void)i;
    const FighterState& fj = s.s.fighters[Z(j)];
    if (fj.phased || !fj.active()) return 0;
    // Python's round(): half to even, as nearbyint in the default rounding mode
    return static_cast<int>(std::nearbyint((1.0 - st_.aggression) *
                                           static_cast<double>(std::min(fj.ap, st_.reserve_max))));
}

double ScriptedBot::weight(int maneuver) const {
    const Maneuver& m = k_->t->maneuvers[Z(maneuver)];
    if (m.weapon != kNone) return st_.weapon;
    if (grabs(m.category)) return st_.grab;
    if (kick_[Z(maneuver)]) return st_.kick;
    return st_.strike;
}

int ScriptedBot::phase(Fight& s, int i) {
    const int j = opponent(s, i);
    const std::vector<Choice>& choices = s.legal();
    if (st_.wait && s.s.fighters[Z(j)].ap > 0) {
        const int w = find_choice(choices, simple(kCPhase, 0));
        if (w != kNone) return w;
    }
    const int now = find_choice(choices, simple(kCPhase, 1));
    return now == kNone ? 0 : now;
}

// ------------------------------------------------------------------ risk (§1.3)
int ScriptedBot::risk_for(Fight& s, int i, int about) {
    const DecisionContext ctx = decision_context(s);
    const std::vector<std::pair<int, int>>* basics = ctx.roll ? &ctx.r.basics : nullptr;
    std::optional<int> mine, theirs;
    if (basics != nullptr) {
        for (const auto& [f, v] : *basics) {
            if (f == i && !mine) mine = v;
        }
        for (const auto& [f, v] : *basics) {
            if (f != i) {
                theirs = v;
                break;
            }
        }
    }
    if (about == kAboutSoak) {
        const int wound = ctx.roll && ctx.r.has_wound ? ctx.r.wound : 0;
        return soak_risk(mine, wound);
    }
    if (!mine || !theirs) return k_->R;
    const Odds& o = k_->odds;
    if (about == kAboutAttack || about == kAboutBreak) return o.first_risk(*mine, *theirs);
    return o.answer_risk(*mine, *theirs, o.first_risk(*theirs, *mine));
}

std::optional<std::pair<int, int>> ScriptedBot::break_basics(Fight& s, int i, int method) {
    const Hold* h = s.s.hold_on(i);
    if (h == nullptr) return std::nullopt;
    const Hold copy = *h;
    const auto [esc, hold] = break_hold_basics(s, i, copy, method);
    return std::make_pair(esc.basic, hold.basic);
}

int ScriptedBot::soak_risk(std::optional<int> basic, int level) const {
    if (!basic) return k_->R;
    const Tables& t = *k_->t;
    double best_e = -1.0;
    int best_n = 0;
    for (int n = 0; n <= k_->R; ++n) {
        const Dist d = k_->odds.dist(*basic, n);
        double e = 0.0;
        for (int q = 0; q < d.n; ++q) {
            e += d.prob(q) * static_cast<double>(std::min(level, soak_levels(t, d.value(q))));
        }
        if (e > best_e + 1e-9) {
            best_e = e;
            best_n = n;
        }
    }
    return best_n;
}

int ScriptedBot::soak(Fight& s, int i) {
    (void)i;
    const DecisionContext ctx = decision_context(s);
    const int level = ctx.roll && ctx.r.has_wound ? ctx.r.wound : 0;
    const std::vector<Choice>& choices = s.legal();
    int sk = kNone, ps = kNone;
    for (Z k = 0; k < choices.size(); ++k) {
        if (sk == kNone && choices[k].kind == kCManeuver) sk = static_cast<int>(k);
        if (ps == kNone && choices[k].kind == kCPass) ps = static_cast<int>(k);
    }
    if (sk != kNone && level >= 1) return sk;
    return ps == kNone ? 0 : ps;
}

// ------------------------------------------------------------------ maneuvers
int ScriptedBot::best(Fight& s, int i, int kind) {
    int best_c = 0;
    double best_v = -1e18;
    for (const auto& [v, n] : scored(s, i, kind)) {
        if (v > best_v) {
            best_c = n;
            best_v = v;
        }
    }
    return best_c;
}

std::vector<std::pair<double, int>> ScriptedBot::scored(Fight& s, int i, int kind) {
    const DecisionContext ctx = kind != kDAction ? decision_context(s) : DecisionContext{};
    const int j = opponent(s, i);
    const std::vector<Choice>& choices = s.legal();
    const std::optional<Incoming> inc =
        kind == kDReaction ? incoming(s, i, ctx) : std::optional<Incoming>{};
    const AimShortlist shortlist = aim_shortlist(s, i);
    // Python's memo by (kind, maneuver, target, location, option): each choice shares the
    // value of the first in list order with its key; values are computed in list order, as
    // Python computes them
    const std::vector<int> first = same_value_as(choices);
    std::vector<std::pair<double, int>> out(choices.size());
    const AimEntry* last = nullptr;  // the shortlist entry of the previous located choice
    for (Z n = 0; n < choices.size(); ++n) {
        const Choice& c = choices[n];
        double v;
        if (first[n] != static_cast<int>(n)) {
            v = vals_[Z(first[n])];
        } else {
            const AimEntry* allowed = nullptr;
            if (last != nullptr && last->maneuver == c.maneuver && last->target == c.target &&
                last->option == c.option) {
                allowed = last;
            } else {
                for (const AimEntry& e : shortlist) {
                    if (e.maneuver == c.maneuver && e.target == c.target && e.option == c.option) {
                        allowed = last = &e;
                        break;
                    }
                }
            }
            if (allowed != nullptr && std::find(allowed->locations.begin(), allowed->locations.end(),
                                                c.location) == allowed->locations.end()) {
                v = kSkipped;
            } else {
                v = value(s, i, j, kind, c, ctx, inc);
            }
        }
        vals_[n] = v;
        // the turn bonus is pure in (maneuver, target, turn): Python's memo of it changes
        // nothing, so it is computed each time
        if (c.turn != 0) v += turn_bonus(s, i, c);
        out[n] = {v, static_cast<int>(n)};
    }
    return out;
}

std::vector<int> ScriptedBot::same_value_as(const std::vector<Choice>& choices) {
    // an open-addressing table of choice indices (the first of each key), keys compared
    // field by field: no allocation per decision beyond the result, no collisions missed
    const Z n = choices.size();
    Z cap = 16;
    while (cap < 2 * n) cap <<= 1;
    slots_.assign(cap, -1);
    vals_.assign(n, 0.0);
    const Z mask = cap - 1;
    std::vector<int> first(n);
    for (Z k = 0; k < n; ++k) {
        const Choice& c = choices[k];
        std::uint64_t h = static_cast<std::uint32_t>(c.kind);
        for (int f : {c.maneuver, c.target, c.location, c.option}) {
            h = (h ^ static_cast<std::uint32_t>(f)) * 0x9E3779B97F4A7C15ULL;
        }
        Z at = static_cast<Z>(h >> 32) & mask;
        while (true) {
            const int o = slots_[at];
            if (o < 0) {
                slots_[at] = static_cast<int>(k);
                first[k] = static_cast<int>(k);
                break;
            }
            const Choice& d = choices[Z(o)];
            if (d.kind == c.kind && d.maneuver == c.maneuver && d.target == c.target &&
                d.location == c.location && d.option == c.option) {
                first[k] = o;
                break;
            }
            at = (at + 1) & mask;
        }
    }
    return first;
}

AimShortlist ScriptedBot::aim_shortlist(Fight& s, int i) {
    const std::vector<Choice>& choices = s.legal();
    AimShortlist locs;
    Z last = 0;  // the entry of the previous located choice (they come in runs)
    for (const Choice& c : choices) {
        if (c.location == kNone) continue;
        AimEntry* e = nullptr;
        if (last < locs.size() && locs[last].maneuver == c.maneuver &&
            locs[last].target == c.target && locs[last].option == c.option) {
            e = &locs[last];
        } else {
            for (Z k = 0; k < locs.size(); ++k) {
                AimEntry& x = locs[k];
                if (x.maneuver == c.maneuver && x.target == c.target && x.option == c.option) {
                    e = &x;
                    last = k;
                    break;
                }
            }
        }
        if (e == nullptr) {
            locs.push_back(AimEntry{c.maneuver, c.target, c.option, {}});
            last = locs.size() - 1;
            e = &locs.back();
        }
        if (std::find(e->locations.begin(), e->locations.end(), c.location) == e->locations.end()) {
            e->locations.push_back(c.location);
        }
    }
    AimShortlist out;
    for (const AimEntry& e : locs) {
        if (static_cast<int>(e.locations.size()) <= AIMS || e.target == kNone) continue;
        const Maneuver& m = k_->t->maneuvers[Z(e.maneuver)];
        const int dtype = m.damage_types.size() > 1 ? e.option : 0;
        out.push_back(AimEntry{e.maneuver, e.target, e.option,
                               k_->aims(s, i, e.target, e.maneuver, dtype, e.locations)});
    }
    return out;
}

double ScriptedBot::chain_value(Fight& s, int i, int j, int maneuver) {
    for (const auto& [m, v] : chain_memo_) {
        if (m == maneuver) return v;
    }
    const double v = k_->follow_threat(s, i, j, maneuver, kNoAp, k_->t->maneuvers[Z(maneuver)].ap);
    chain_memo_.emplace_back(maneuver, v);
    return v;
}

std::optional<Incoming> ScriptedBot::incoming(Fight& s, int i, const DecisionContext& ctx) {
    const int att = ctx.attack;
    const int x = ctx.attacker;
    if (att == kNone || x == kNone || !k_->t->is_attack[Z(att)]) return std::nullopt;
    const int loc = ctx.location;
    const int opt = incoming_option(s, *k_, att);
    const int ba = k_->attack_basic(s, x, i, att, loc, opt);
    const int bd = k_->default_defence(s, i, x);
    const double v = k_->hit_value(s, x, i, att, loc, opt, k_->margin(ba, bd));
    return Incoming{x, att, loc, v, opt};
}

double ScriptedBot::ap_cost(Fight& s, int i, int j, int kind, int ap) {
    const FighterState& f = s.s.fighters[Z(i)];
    const FighterState& fj = s.s.fighters[Z(j)];
    const int left = f.ap - ap;
    double cost = 0.0;
    if (fj.active() && !fj.phased && fj.ap > 0) {
        const double need = static_cast<double>(fj.ap) * (1.0 - st_.aggression);
        const double gap = need - static_cast<double>(left);
        const double dip = static_cast<double>(ap) <= gap ? static_cast<double>(ap) : gap;
        if (dip > 0) cost += dip * save(s, i, j);
    }
    if (kind != kDAction && !f.phased) cost += 1.2 * static_cast<double>(ap);
    if (left < kKeepStanding && fj.active()) {
        cost += kProneAp * static_cast<double>(std::min(kKeepStanding, f.ap) - std::max(left, 0));
    }
    return cost;
}

double ScriptedBot::save(Fight& s, int i, int j) {
    for (const auto& [f, v] : save_memo_) {
        if (f == i) return v;
    }
    double v = 0.0;
    const int name = martial_strike_;
    if (name != kNone) {
        const int loc = k_->whole_loc;
        const int ba = k_->attack_basic(s, j, i, name, loc);
        const int d0 = k_->default_defence(s, i, j);
        const int d1 = k_->best_defence(s, i, j, name, loc).first;
        const double hv = k_->hit_value(s, j, i, name, loc, 0, k_->margin(ba, d0));
        const double gain = k_->p_hit(ba, d0) - k_->p_hit(ba, d1);
        v = (gain > 0.0 ? gain : 0.0) * hv;
    }
    save_memo_.emplace_back(i, v);
    return v;
}

double ScriptedBot::value(Fight& s, int i, int j, int kind, const Choice& c,
                          const DecisionContext& ctx, const std::optional<Incoming>& inc) {
    if (c.kind == kCEnd) return 0.0;
    if (c.kind == kCRelease) return -3.0;
    if (c.kind == kCPass) return -undefended(s, i, inc);
    const Tables& t = *k_->t;
    const int name = c.maneuver;
    const Maneuver& m = t.maneuvers[Z(name)];
    const double cost = ap_cost(s, i, j, kind, hexdojo::cost(t, s.s, i, name, c.option));
    if (t.is_attack[Z(name)]) {
        if (kind == kDReaction && inc) return counter_value(s, i, c, *inc) - cost;
        return attack_choice_value(s, i, j, kind, c, ctx) - cost;
    }
    if (defensive(m.category)) {
        if (!inc) return -cost;
        return defence_value(s, i, c, *inc) - cost;
    }
    return other_value(s, i, j, c) - cost - undefended(s, i, inc);
}

double ScriptedBot::undefended(Fight& s, int i, const std::optional<Incoming>& inc) const {
    if (!inc) return 0.0;
    const int ba = k_->attack_basic(s, inc->attacker, i, inc->maneuver, inc->location, inc->option);
    return k_->p_hit(ba, k_->default_defence(s, i, inc->attacker)) * inc->value;
}

double ScriptedBot::counter_value(Fight& s, int i, const Choice& c, const Incoming& inc) {
    const int name = c.maneuver;
    const int x = inc.attacker;
    const int mine = k_->attack_basic(s, i, x, name, c.location, option_index(*k_->t, name, c.option));
    const int theirs = k_->attack_basic(s, x, i, inc.maneuver, inc.location, inc.option);
    const double p_me = k_->p_counter(mine, theirs);
    const double p_them = k_->p_counter(theirs, mine);
    const double mv = k_->hit_value(s, i, x, name, c.location, c.option, k_->margin(mine, theirs));
    return st_.counter * weight(name) * p_me * mv - p_them * inc.value;
}

double ScriptedBot::attack_choice_value(Fight& s, int i, int j, int kind, const Choice& c,
                                        const DecisionContext& ctx) {
    const Tables& t = *k_->t;
    const int name = c.maneuver;
    const int tgt = c.target != kNone ? c.target : j;
    Locked restrict;
    if (kind == kDFollowOn) restrict = ctx.locked;
    auto [v, p] = k_->attack_value(s, i, tgt, name, c.location, c.option, restrict);
    const bool follows = has_follow_ons(t, name);
    if (follows && st_.chain > 0) v += st_.chain * p * chain_value(s, i, tgt, name);
    v *= weight(name);
    if (follows) v += st_.follow * p;
    const Maneuver& m = t.maneuvers[Z(name)];
    if (c.option == 1 && m.may_advance && m.weapon == kNone) v -= 0.3;
    return v;
}

double ScriptedBot::defence_value(Fight& s, int i, const Choice& c, const Incoming& inc) {
    const Tables& t = *k_->t;
    const int name = c.maneuver;
    const Maneuver& m = t.maneuvers[Z(name)];
    const int x = inc.attacker;
    const int ba = k_->attack_basic(s, x, i, inc.maneuver, inc.location, inc.option);
    const int bd = k_->defence_with(s, i, x, name, inc.maneuver, inc.location,
                                    m.weapon != kNone ? c.option : 0);
    const double p = k_->p_hit(ba, bd, name);
    double gain = 0.0;
    if (has_follow_ons(t, name)) gain += st_.follow + k_->follow_threat(s, i, x, name, kNoAp, 0, inc.maneuver);
    if (m.hold != kNone) gain += hold_value_or(m.hold, 3.0);
    return st_.defend * ((1 - p) * gain) - p * inc.value;
}

double ScriptedBot::other_value(Fight& s, int i, int j, const Choice& c) {
    const int cat = k_->t->maneuvers[Z(c.maneuver)].category;
    if (cat == kMove) return move_value(s, i, j, c) - 0.5;
    if (cat == kTurn) return turn_value(s, i, j, c) - 0.3;
    if (cat == kStand) return PRONE_VALUE * 0.8;
    if (cat == kBreak) {
        const Hold* h = s.s.hold_on(i);
        if (h == nullptr) return 0.0;
        const int kind = h->kind;
        const auto got = break_basics(s, i, c.option);
        if (!got) return 0.0;
        return k_->p_break(got->first, got->second) * (hold_value_or(kind, 4.0) + 2.0);
    }
    if (cat == kReady || cat == kDrop || cat == kPullOut) return arms_value(s, i, j, c, cat);
    return -1.0;
}

double ScriptedBot::arms_value(const Fight& s, int i, int j, const Choice& c, int cat) const {
    if (cat == kDrop) return -6.0;
    if (cat == kPullOut) return 4.0;
    const Tables& t = *k_->t;
    if (c.option < 0 || static_cast<Z>(c.option) >= t.weapon_ids.size()) return -1.0;
    const Weapon& w = t.weapons[Z(c.option)];
    const bool same_hex = s.s.fighters[Z(i)].pos == s.s.fighters[Z(j)].pos;
    const int wanted = same_hex ? kKindClose : kKindMelee;
    if (w.kind == kKindShield || has_kind(s, i, wanted)) return -2.0;
    return w.kind == wanted ? 7.0 : (w.kind != kKindShield ? 3.0 : -2.0);
}

bool ScriptedBot::has_kind(const Fight& s, int i, int kind) {
    for (int h : s.s.fighters[Z(i)].hands) {
        if (h != kNone && s.t->weapons[Z(h)].kind == kind) return true;
    }
    return false;
}

// ------------------------------------------------------------------ position
double ScriptedBot::position_value(const Fight& s, int j, Hex pos, int facing, int i) const {
    const FighterState& fj = s.s.fighters[Z(j)];
    const int d = distance(pos, fj.pos);
    const int reach = i != kNone ? melee_reach(s, i) : 0;
    if (d == 0) return reach ? 3.0 - 4.0 * st_.keep_out : 3.0;
    double v;
    if (reach) {
        v = d <= reach ? 5.0 : (d == reach + 1 ? 2.5 : -static_cast<double>(d));
    } else {
        v = d == 1 ? 5.0 : (d == 2 ? 2.5 : -static_cast<double>(d));
    }
    const int dj = direction_to(pos, fj.pos);
    if (dj != kNone) {
        if (in_front_arc(dj, facing)) v += 1.5 + (reach ? 2.0 * st_.keep_out : 0.0);
        if (contains(s.t->attack.rear_arc, relative(opposite(dj), fj.facing))) v += 2.0;
    }
    return v;
}

int ScriptedBot::melee_reach(const Fight& s, int i) {
    const Tables& t = *s.t;
    bool any = false;
    int best_r = 0;
    for (int h : s.s.fighters[Z(i)].hands) {
        if (h == kNone) continue;
        any = true;
        if (t.weapons[Z(h)].kind == kKindClose) return 0;
    }
    if (!any) return 0;
    for (int h : s.s.fighters[Z(i)].hands) {
        if (h != kNone && t.weapons[Z(h)].kind == kKindMelee) best_r = std::max(best_r, t.weapons[Z(h)].reach);
    }
    return best_r;
}

double ScriptedBot::move_value(Fight& s, int i, int j, const Choice& c) {
    const FighterState& f = s.s.fighters[Z(i)];
    const int facing = turn(f.facing, c.turn);
    const Path path = move_path(Query{*s.t, s.s}, i, c.turn, c.option);
    const Hex pos = path.hexes[Z(path.n - 1)];
    double gain = position_value(s, j, pos, facing, i) - position_value(s, j, f.pos, f.facing, i);
    const FighterState& fj = s.s.fighters[Z(j)];
    const int was = distance(f.pos, fj.pos);
    const int now = distance(pos, fj.pos);
    if (now <= 1 && 1 < was && fj.ap >= 2) gain -= 2.0;
    if (st_.approach > 0 && now == 1 && 1 < was && f.ap > 1) {
        gain += st_.approach * closing_value(s, i, j);
    }
    return gain;
}

double ScriptedBot::closing_value(Fight& s, int i, int j) {
    if (has_closing_) return closing_memo_;
    const Tables& t = *k_->t;
    double v = 0.0;
    const int reach = melee_reach(s, i);
    const FighterState& f = s.s.fighters[Z(i)];
    const bool armed = f.hands[0] != kNone || f.hands[1] != kNone;
    for (int name : t.action_maneuvers) {
        const Maneuver& m = t.maneuvers[Z(name)];
        const bool near = (m.range == 0 && m.may_close) || (reach && m.weapon == kNeedMelee);
        if (!(t.is_attack[Z(name)] && near) || m.needs_hold != kNone) continue;
        if (armed && limb_reason(Query{t, s.s}, i, name, s.s.hold_on(i))) continue;
        const std::vector<int> locs = allowed_locations(t, name, s.s.fighters[Z(j)].prone);
        for (int opt : k_->attack_options(s, i, name)) {
            if (hexdojo::cost(t, s.s, i, name, opt) >= s.s.fighters[Z(i)].ap) continue;
            const bool unaimed = locs.size() == 1 && locs[0] == kNone;
            const std::vector<int> aims = unaimed ? locs : k_->aims(s, i, j, name, opt, locs);
            for (int loc : aims) {
                const double av = k_->attack_value(s, i, j, name, loc, opt).first;
                const double w = av * weight(name);
                if (w > v) v = w;  // max(v, w): the first of equals
            }
        }
    }
    has_closing_ = true;
    closing_memo_ = v;
    return v;
}

double ScriptedBot::turn_value(const Fight& s, int i, int j, const Choice& c) const {
    const FighterState& f = s.s.fighters[Z(i)];
    const int facing = turn(f.facing, c.turn);
    double gain = position_value(s, j, f.pos, facing, i) - position_value(s, j, f.pos, f.facing, i);
    if (f.pos == s.s.fighters[Z(j)].pos && contains(s.t->attack.rear_arc, s.s.arc(j, i))) gain += 2.0;
    return gain;
}

double ScriptedBot::turn_bonus(const Fight& s, int i, const Choice& c) const {
    if (c.kind != kCManeuver || c.turn == 0) return 0.0;
    if (c.maneuver != kNone && (c.maneuver == turn_ || c.maneuver == move_)) return 0.0;
    const FighterState& f = s.s.fighters[Z(i)];
    const int j = c.target != kNone ? c.target : opponent(s, i);
    const FighterState& fj = s.s.fighters[Z(j)];
    const int d = direction_to(f.pos, fj.pos);
    if (d == kNone) return -0.05;
    const bool before = in_front_arc(d, f.facing);
    const bool after = in_front_arc(d, turn(f.facing, c.turn));
    return after && !before ? 0.05 : -0.05;
}

int incoming_option(Fight& s, const Knowledge& k, int attack) {
    if (k.t->maneuvers[Z(attack)].weapon == kNone) return 0;
    const DecisionContext ctx = decision_context(s);
    return ctx.attack == attack && ctx.option != kNone ? ctx.option : 0;
}

}  // namespace hexdojo::bots
