// hexdojo::bots::Knowledge (knowledge.hpp): the scripted agents' estimates, method by method,
// over the core's own formulas, in a fixed order of operations (reproducible doubles).
#include "knowledge.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "formulas.hpp"
#include "state_formulas.hpp"
#include "weapons.hpp"

namespace hexdojo::bots {

namespace {

constexpr std::size_t kCacheMax = 400'000;  // heuristics._CACHE_MAX

std::size_t ux(int i) { return static_cast<std::size_t>(i); }

// A memo key: a short list of ints (every input of the value), hashed as a whole.
struct Key {
    std::array<int, 20> v{};
    int n = 0;
    Key& operator<<(int x) {
        v[ux(n++)] = x;
        return *this;
    }
    friend bool operator==(const Key& a, const Key& b) {
        return a.n == b.n && std::memcmp(a.v.data(), b.v.data(), sizeof(int) * ux(a.n)) == 0;
    }
};

struct KeyHash {
    std::size_t operator()(const Key& k) const {
        std::uint64_t h = 0x9E3779B97F4A7C15ULL ^ static_cast<std::uint64_t>(k.n);
        for (int i = 0; i < k.n; ++i) {
            h ^= static_cast<std::uint32_t>(k.v[ux(i)]);
            h *= 0xFF51AFD7ED558CCDULL;
            h ^= h >> 32;
        }
        return static_cast<std::size_t>(h);
    }
};

struct VecHash {
    std::size_t operator()(const std::vector<int>& k) const {
        std::uint64_t h = 0x9E3779B97F4A7C15ULL ^ k.size();
        for (int x : k) {
            h ^= static_cast<std::uint32_t>(x);
            h *= 0xFF51AFD7ED558CCDULL;
            h ^= h >> 32;
        }
        return static_cast<std::size_t>(h);
    }
};

// What each per-decision memo keeps (the tag is the key's first int).
enum Tag : int { kAb, kDd, kDw, kBd, kAv, kFt };
struct Val {
    double d0 = 0.0, d1 = 0.0;
    int i0 = 0, i1 = 0;
};

bool same_profile(const Profile& a, const Profile& b) {
    return a.name == b.name && a.rules_id == b.rules_id && a.chars == b.chars &&
           a.skills == b.skills && a.specs == b.specs && a.pv == b.pv && a.enc_mod == b.enc_mod &&
           a.helmet_mod == b.helmet_mod && a.mounted == b.mounted && a.height == b.height &&
           a.risk.ap == b.risk.ap && a.risk.initiative == b.risk.initiative &&
           a.risk.damage == b.risk.damage && a.risk.pain == b.risk.pain &&
           a.risk.knockback == b.risk.knockback && a.risk.lock_damage == b.risk.lock_damage &&
           a.hands == b.hands && a.sheathed == b.sheathed;
}

std::size_t profile_hash(const Profile& p) {
    std::vector<int> all;
    for (const auto* v : {&p.chars, &p.skills, &p.specs, &p.pv, &p.sheathed}) {
        all.insert(all.end(), v->begin(), v->end());
        all.push_back(-7);
    }
    for (int x : {p.enc_mod, p.helmet_mod, static_cast<int>(p.mounted), p.height, p.risk.ap,
                  p.risk.initiative, p.risk.damage, p.risk.pain, p.risk.knockback,
                  p.risk.lock_damage, p.hands[0], p.hands[1]}) {
        all.push_back(x);
    }
    return VecHash{}(all) ^ std::hash<std::string>{}(p.name);
}

// Knowledge.defence_hands without allocating: the hands into out, their number returned.
int hands_for(const Tables& t, const Fight& s, int y, int rname, std::array<int, 2>& out) {
    const Maneuver& m = t.maneuvers[ux(rname)];
    if (m.weapon == kNone) {
        out[0] = 0;
        return 1;
    }
    int n = 0;
    for (int h : {0, 1}) {
        const Weapon* w = hexdojo::weapon_in(t, s.s, y, h);
        if (w != nullptr && hexdojo::fits(m, *w)) out[ux(n++)] = h;
    }
    if (n == 0) out[ux(n++)] = 0;
    return n;
}

}  // namespace

struct Knowledge::Memos {
    // the decision the per-decision memo is for (kept alive: its address is never reused)
    std::shared_ptr<const std::vector<Choice>> at;
    int at_turn = -1;
    std::size_t at_events = 0;
    std::unordered_map<Key, Val, KeyHash> dc;
    std::unordered_map<Key, std::vector<int>, KeyHash> options;  // defence_options
    // across decisions (pure in the rules)
    std::unordered_map<Key, double, KeyHash> hit;
    std::unordered_map<std::vector<int>, std::vector<int>, VecHash> aims;
    std::unordered_map<Key, std::array<double, 3>, KeyHash> pain;
    std::unordered_map<Key, int, KeyHash> bonus;  // (reaction, attack, aim row) -> defence_bonus
    // profiles by content: hash -> ids with that hash; ids -> a copy of the profile
    std::unordered_multimap<std::size_t, int> by_hash;
    std::vector<Profile> profiles;
    std::unordered_map<const Profile*, int> by_address;  // checked against the content
    // the last fight setup seen -> its fighters' profile ids (the weak_ptr tells a freed
    // setup from a new one at the same address)
    const Setup* setup = nullptr;
    std::weak_ptr<const Setup> setup_alive;
    std::vector<int> setup_ids;

    int intern(const Profile& p) {
        auto at_addr = by_address.find(&p);
        if (at_addr != by_address.end() && same_profile(profiles[ux(at_addr->second)], p)) {
            return at_addr->second;
        }
        const std::size_t h = profile_hash(p);
        int id = kNone;
        auto [lo, hi] = by_hash.equal_range(h);
        for (auto it = lo; it != hi && id == kNone; ++it) {
            if (same_profile(profiles[ux(it->second)], p)) id = it->second;
        }
        if (id == kNone) {
            id = static_cast<int>(profiles.size());
            profiles.push_back(p);
            by_hash.emplace(h, id);
        }
        if (by_address.size() > kCacheMax) by_address.clear();  // sheets of fights gone by
        by_address[&p] = id;
        return id;
    }

    void decision(const Fight& c) {
        if (c.choices.p != nullptr && c.choices.p == at && c.s.turn == at_turn &&
            c.events.size() == at_events) {
            return;
        }
        at = c.choices.p;  // null (no pending decision): a fresh memo every time
        at_turn = c.s.turn;
        at_events = c.events.size();
        dc.clear();
        options.clear();
    }
};

int option_index(const Tables& t, int m, int option) {
    const Maneuver& mv = t.maneuvers[ux(m)];
    if (mv.weapon != kNone || mv.damage_types.size() > 1) return option;
    return 0;
}

Knowledge::Knowledge(const Tables& tables, Odds o)
    : t(&tables), odds(std::move(o)), R(tables.dice.max_risk),
      whole_loc(tables.attack.whole_body_location), m_(std::make_unique<Memos>()) {
    if (const std::string p = odds.problem(); !p.empty()) throw std::invalid_argument(p);
    if (odds.max_risk != tables.dice.max_risk) {
        throw std::invalid_argument("odds: max_risk " + std::to_string(odds.max_risk) +
                                    ", the rules' is " + std::to_string(tables.dice.max_risk));
    }
    hold_values_.assign(tables.hold_kind_names.size(), HOLD_DEFAULT);
    for (std::size_t k = 0; k < tables.hold_kind_names.size(); ++k) {
        for (const HoldValue& hv : HOLD_VALUE) {
            if (tables.hold_kind_names[k] == hv.kind) hold_values_[k] = hv.value;
        }
    }
}

Knowledge::~Knowledge() = default;
Knowledge::Knowledge(Knowledge&&) noexcept = default;
Knowledge& Knowledge::operator=(Knowledge&&) noexcept = default;

double Knowledge::hold_value(int kind) const {
    return kind >= 0 && ux(kind) < hold_values_.size() ? hold_values_[ux(kind)] : HOLD_DEFAULT;
}

std::array<std::size_t, 4> Knowledge::memo_sizes() const {
    return {m_->dc.size() + m_->options.size(), m_->hit.size(), m_->aims.size(), m_->pain.size()};
}

// ---------------------------------------------------------------- basic values
int Knowledge::pid(const Profile& p) { return m_->intern(p); }

int Knowledge::fighter_pid(const Fight& s, int i) {
    Memos& m = *m_;
    if (s.g.get() != m.setup || m.setup_alive.expired()) {
        m.setup = s.g.get();
        m.setup_alive = s.g;
        m.setup_ids.clear();
        for (const Profile& p : s.g->profiles) m.setup_ids.push_back(m.intern(p));
    }
    return m.setup_ids[ux(i)];
}

int Knowledge::penalties(const Fight& s, int i) const {
    const FighterState& f = s.s.fighters[ux(i)];
    return hexdojo::penalty(*t, f.worst, f.pen);
}

int Knowledge::attack_basic(Fight& s, int x, int y, int name, int loc, int option) {
    m_->decision(s);
    const int opt = t->maneuvers[ux(name)].weapon != kNone ? option : 0;
    Key key;
    key << kAb << x << y << name << (loc != kNone ? t->locations[ux(loc)].aim : kNone) << opt;
    auto it = m_->dc.find(key);
    if (it != m_->dc.end()) return it->second.i0;
    const int v = hexdojo::attack_basic(s, x, y, name, loc, opt);
    m_->dc[key].i0 = v;
    return v;
}

int Knowledge::default_defence(Fight& s, int y, int x) {
    m_->decision(s);
    Key key;
    key << kDd << y << x;
    auto it = m_->dc.find(key);
    if (it != m_->dc.end()) return it->second.i0;
    const int v = hexdojo::defence_basic(s, y, x, kNone, kNone, kNone, 0);
    m_->dc[key].i0 = v;
    return v;
}

int Knowledge::defence_with(Fight& s, int y, int x, int rname, int attack, int loc, int option) {
    m_->decision(s);
    Key key;
    key << kDw << y << x << rname << option;
    int rest = 0;
    auto it = m_->dc.find(key);
    if (it != m_->dc.end()) {
        rest = it->second.i0;
    } else {
        rest = hexdojo::defence_basic(s, y, x, rname, kNone, kNone, option) -
               hexdojo::defence_bonus(*t, rname, kNone, kNone);
        m_->dc[key].i0 = rest;
    }
    const int row = loc != kNone ? t->locations[ux(loc)].aim : kNone;
    Key bkey;
    bkey << rname << attack << row;
    auto bt = m_->bonus.find(bkey);
    int bonus = 0;
    if (bt != m_->bonus.end()) {
        bonus = bt->second;
    } else {
        bonus = m_->bonus[bkey] = hexdojo::defence_bonus(*t, rname, attack, loc);
    }
    return rest + bonus;
}

std::pair<int, int> Knowledge::best_defence(Fight& s, int y, int x, int attack, int loc,
                                            Locked restrict, int ap) {
    const FighterState& fy = s.s.fighters[ux(y)];
    ap = ap == kNoAp ? fy.ap : ap;
    m_->decision(s);
    Key key;
    key << kBd << y << x << attack << (loc != kNone ? t->locations[ux(loc)].aim : kNone)
        << restrict.limb << restrict.location << ap;
    auto it = m_->dc.find(key);
    if (it != m_->dc.end()) return {it->second.i0, it->second.i1};
    int best = default_defence(s, y, x);
    int name = kNone;
    if (ap > 0 && fy.active()) {
        const int tie = hexdojo::hit_threshold(*t, kNone);
        Key okey;
        okey << y << x << attack << restrict.limb << restrict.location << ap;
        auto ot = m_->options.find(okey);
        if (ot == m_->options.end()) {
            ot = m_->options.emplace(okey, hexdojo::defence_options(s.fight(), y, x, attack,
                                                                    restrict, ap)).first;
        }
        const std::vector<int>& options = ot->second;  // nodes stay put when the map grows
        for (int rname : options) {
            std::array<int, 2> hands{};
            const int nh = hands_for(*t, s, y, rname, hands);
            for (int h = 0; h < nh; ++h) {
                const int opt = hands[ux(h)];
                const int v = defence_with(s, y, x, rname, attack, loc, opt) +
                              hexdojo::hit_threshold(*t, rname) - tie;
                if (v > best) {
                    best = v;
                    name = rname;
                }
            }
        }
    }
    Val& out = m_->dc[key];
    out.i0 = best;
    out.i1 = name;
    return {best, name};
}

std::vector<int> Knowledge::defence_hands(const Fight& s, int y, int rname) const {
    std::array<int, 2> h{};
    const int n = hands_for(*t, s, y, rname, h);
    return {h.begin(), h.begin() + n};
}

std::pair<std::optional<int>, int> Knowledge::weapon_hit(const Fight& s, int x, int name,
                                                         int option) const {
    if (t->maneuvers[ux(name)].weapon == kNone) return {std::nullopt, kNone};
    const WeaponMode* mode = hexdojo::attack_mode(*t, s.s, x, name, option);
    if (mode == nullptr) return {std::nullopt, kNone};
    return {mode->damage, mode->damage_type};
}

std::vector<int> Knowledge::attack_options(const Fight& s, int x, int name) const {
    const Maneuver& m = t->maneuvers[ux(name)];
    if (!hexdojo::is_weapon_attack(m)) return {0};
    std::vector<int> out;
    for (int o = 0; o < 2 * t->max_modes; ++o) {
        const int hand = hexdojo::split(*t, m, o).hand;
        const Weapon* w = hexdojo::weapon_in(*t, s.s, x, hand);
        if (w != nullptr && hexdojo::fits(m, *w) &&
            hexdojo::attack_mode(*t, s.s, x, name, o) != nullptr) {
            out.push_back(o);
        }
    }
    return out;
}

// ---------------------------------------------------------------- outcomes
double Knowledge::p_hit(int ba, int bd, int reaction) const {
    const bool strict = hexdojo::hit_threshold(*t, reaction) > 0;
    return odds.p_beat(ba, R, bd, R, strict);
}

double Knowledge::p_counter(int mine, int theirs) const {
    return odds.p_beat(mine, R, theirs, R, false);
}

double Knowledge::p_break(int esc, int hold) const { return odds.p_beat(esc, R, hold, R, true); }

double Knowledge::margin(int ba, int bd) const { return odds.margin(ba, R, bd, R); }


double Knowledge::hit_value(Fight& s, int x, int y, int name, int loc, int dtype_index,
                            double margin_h) {
    const Maneuver& m = t->maneuvers[ux(name)];
    const FighterState& fx = s.s.fighters[ux(x)];
    const FighterState& fy = s.s.fighters[ux(y)];
    // AP the striker can still attack with this turn (its phase is now or to come)
    const int x_left = fx.phased ? 0 : std::max(0, std::min(4, fx.ap - m.ap));
    const Hold* mine = s.s.hold_by(x);
    const bool new_hold = m.hold != kNone &&
                          !(mine != nullptr && mine->held == y && mine->kind == m.hold);
    const auto [rating, wtype] = weapon_hit(s, x, name, dtype_index);
    return hit_core_ids(fighter_pid(s, x), fighter_pid(s, y), s.p(x), s.p(y), name, loc, dtype_index,
                    2 * static_cast<int>(margin_h / 2), penalties(s, x), fy.worst, fy.pen,
                    std::min(fy.ap, 6), fy.prone, new_hold, x_left, fy.mounted, fx.mounted,
                    rating, wtype);
}

double Knowledge::hit_core(const Profile& xp, const Profile& yp, int name, int loc,
                           int dtype_index, int margin, int x_pen, int y_worst, int y_pen,
                           int y_ap, bool y_prone, bool new_hold, int x_left, bool y_mounted,
                           bool x_mounted, std::optional<int> rating, int wtype) {
    return hit_core_ids(pid(xp), pid(yp), xp, yp, name, loc, dtype_index, margin, x_pen, y_worst,
                        y_pen, y_ap, y_prone, new_hold, x_left, y_mounted, x_mounted, rating, wtype);
}

double Knowledge::hit_core_ids(int xid, int yid, const Profile& xp, const Profile& yp, int name,
                               int loc, int dtype_index, int margin, int x_pen, int y_worst,
                               int y_pen, int y_ap, bool y_prone, bool new_hold, int x_left,
                               bool y_mounted, bool x_mounted, std::optional<int> rating,
                               int wtype) {
    Key key;
    key << xid << yid << name << loc << dtype_index << margin << x_pen << y_worst
        << y_pen << y_ap << y_prone << new_hold << x_left << y_mounted << x_mounted
        << rating.has_value() << rating.value_or(0) << wtype;
    auto it = m_->hit.find(key);
    if (it != m_->hit.end()) return it->second;
    const Maneuver& m = t->maneuvers[ux(name)];
    double v = 0.0;
    if (new_hold) v += hold_value(m.hold);
    if (m.knocks_prone && !y_prone) {
        // on the ground the target can only take the default defence (§5.18), so every AP
        // the striker still has this turn is a nearly free attack
        v += PRONE_VALUE + PRONE_FOLLOW * x_left;
    }
    if (m.has_damage || rating.has_value()) {
        const int where = loc != kNone ? loc : whole_loc;
        if (wtype == kNone && m.damage_types.empty()) {
            throw std::invalid_argument("hit_core: maneuver " + m.name + " has no damage types");
        }
        const int dtype = wtype != kNone ? wtype : hexdojo::damage_type(*t, name, dtype_index);
        const int b = damage_basic(xp, x_pen, name, margin, where, rating);
        const int dr = hexdojo::damage_resistance(*t, yp, where);
        v += wound_value(yp, y_worst, y_pen, y_ap, b, xp.risk.damage, dr, where, dtype, x_left);
        if (!m.no_knockback) {
            v += knockback_value(yp, y_worst, y_pen, y_ap, y_prone, y_mounted, b, xp.risk.damage,
                                 where, dtype, x_left, x_mounted);
        }
    }
    if (m_->hit.size() > kCacheMax) m_->hit.clear();
    m_->hit[key] = v;
    return v;
}

int Knowledge::damage_basic(const Profile& xp, int x_pen, int name, int margin, int where,
                            std::optional<int> rating) const {
    return hexdojo::damage_basic_of(*t, xp, x_pen, name, margin, where, true, rating);
}

// odds.dist's n must be a risk the tables have (Python: an IndexError).
static void check_risk(const Odds& o, int n, const char* what) {
    if (n < 0 || n > o.max_risk) {
        throw std::out_of_range(std::string(what) + ": " + std::to_string(n) +
                                " dice, the odds tables have 0.." + std::to_string(o.max_risk));
    }
}

double Knowledge::wound_value(const Profile& yp, int y_worst, int y_pen, int y_ap, int dmg_basic,
                              int n, int dr, int loc, int dtype, int x_left) {
    check_risk(odds, n, "wound_value: damage risk");
    const Dist d = odds.dist(dmg_basic - dr, n);
    const int pens = hexdojo::penalty(*t, y_worst, y_pen);
    int soak_red = 0;
    if (hexdojo::can_soak(*t, 1, y_ap)) {
        // about the mean of a risky soak
        const int soak_b = hexdojo::soak_basic_of(*t, yp, pens) + R;
        soak_red = hexdojo::soak_levels(*t, soak_b);
    }
    const int pn = yp.risk.pain;
    double total = 0.0;
    const int imp_now = hexdojo::penalty(*t, y_worst, 0);
    std::array<int, 16> pain_at{};  // the pain roll's basic by the new wound's level (a few)
    std::array<bool, 16> has_pain{};
    for (int k = 0; k < d.n; ++k) {
        const int val = d.value(k);
        const double pv = d.prob(k);
        int lv = hexdojo::wound_level(*t, val);
        if (lv >= t->fatal) {
            total += pv * KO;  // soak may still save: approximate as lethal
            continue;
        }
        if (lv > 0 && soak_red) lv = std::max(0, lv - soak_red);
        if (lv == 0) continue;
        const int worst = std::max(y_worst, lv);
        double w = WOUND_VALUE.at(ux(lv)) +
                   IMPAIR_VALUE * (imp_now - hexdojo::penalty(*t, worst, 0));
        if (ux(lv) >= pain_at.size()) throw std::out_of_range("wound_value: wound level");
        if (!has_pain[ux(lv)]) {
            pain_at[ux(lv)] = hexdojo::pain_basic_of(*t, yp, pens, dtype, loc, lv);
            has_pain[ux(lv)] = true;
        }
        const auto [unc, stun, stag] = pain_bands(pain_at[ux(lv)], pn);
        const double stun_v = STUN_VALUE + 1.5 * y_ap + std::min(0.8, STUN_FOLLOW * x_left) * KO;
        w += unc * KO + stun * stun_v + stag * STAGGER_VALUE;
        total += pv * w;
    }
    return total;
}

std::array<double, 3> Knowledge::pain_bands(int basic, int n) {
    Key key;
    key << basic << n;
    auto it = m_->pain.find(key);
    if (it != m_->pain.end()) return it->second;
    check_risk(odds, n, "pain_bands: pain risk");
    const Dist d = odds.dist(basic, n);
    std::array<double, 4> band{};  // by pain effect: none, staggered, stunned, unconscious
    for (int k = 0; k < d.n; ++k) band[ux(hexdojo::pain_effect(*t, d.value(k)))] += d.prob(k);
    const std::array<double, 3> out{band[3], band[2], band[1]};
    m_->pain[key] = out;
    return out;
}

double Knowledge::knockback_value(const Profile& yp, int y_worst, int y_pen, int y_ap,
                                  bool y_prone, bool y_mounted, int dmg_basic, int n, int loc,
                                  int dtype, int x_left, bool x_mounted) {
    if (y_mounted || x_mounted) return 0.0;
    const KnockbackRules& kb = t->knockback;
    const int kb_b =
        hexdojo::knockback_basic_of(*t, yp, hexdojo::penalty(*t, y_worst, y_pen), dtype, loc);
    const int dn = std::min(n, R);
    const int kn = std::min(yp.risk.knockback, R);
    check_risk(odds, dn, "knockback_value: damage risk");
    check_risk(odds, kn, "knockback_value: knock-back risk");
    const Dist dd = odds.dist(dmg_basic, dn);
    const Dist kd = odds.dist(kb_b, kn);
    const double fall_v = y_prone ? 0.0 : KNOCKBACK_FALL_VALUE + PRONE_FOLLOW * x_left;
    double total = 0.0;
    for (int a = 0; a < dd.n; ++a) {
        const int dmg = dd.value(a);
        const double pd = dd.prob(a);
        for (int b = 0; b < kd.n; ++b) {
            const hexdojo::KnockbackBand band = hexdojo::knockback_band(kb, dmg - kd.value(b));
            if (band.effect != 0) {
                const bool falls = band.knocked_over || band.ap_lost > y_ap;
                total += pd * kd.prob(b) *
                         (KNOCKBACK_AP_VALUE * std::min(band.ap_lost, y_ap) +
                          fall_v * static_cast<double>(falls));
            }
        }
    }
    return total;
}

std::vector<int> Knowledge::aims(Fight& s, int x, int y, int name, int dtype_index,
                                 std::span<const int> locs) {
    if (locs.size() <= static_cast<std::size_t>(AIMS)) return {locs.begin(), locs.end()};
    const FighterState& fy = s.s.fighters[ux(y)];
    const FighterState& fx = s.s.fighters[ux(x)];
    int gap = attack_basic(s, x, y, name, kNone, dtype_index) -
              best_defence(s, y, x, name, whole_loc).first;
    gap = std::max(-24, std::min(24, gap));
    const Profile& xp = s.p(x);
    const Profile& yp = s.p(y);
    const int xid = fighter_pid(s, x);
    const int yid = fighter_pid(s, y);
    std::vector<int> key{xid, yid, name, dtype_index, gap, fy.worst, fy.prone,
                         fy.mounted, fx.mounted, fx.hands[0], fx.hands[1]};
    key.insert(key.end(), locs.begin(), locs.end());
    auto it = m_->aims.find(key);
    if (it != m_->aims.end()) return it->second;
    const auto [rating, wtype] = weapon_hit(s, x, name, dtype_index);
    std::vector<std::pair<double, int>> scored;  // (-v, n), sorted as Python's tuples
    scored.reserve(locs.size());
    for (std::size_t n = 0; n < locs.size(); ++n) {
        const int loc = locs[n];
        const int ba = gap + hexdojo::aim_attack(*t, loc);
        const double p = p_hit(ba, 0);
        const double v = p * hit_core_ids(xid, yid, xp, yp, name, loc, dtype_index,
                                      static_cast<int>(margin(ba, 0)), 0, fy.worst, 0, 3,
                                      fy.prone, false, 0, fy.mounted, fx.mounted, rating, wtype);
        scored.emplace_back(-v, static_cast<int>(n));
    }
    std::sort(scored.begin(), scored.end());
    std::vector<bool> chosen(locs.size(), false);
    for (int k = 0; k < AIMS; ++k) chosen[ux(scored[ux(k)].second)] = true;
    std::vector<int> got;
    for (std::size_t n = 0; n < locs.size(); ++n) {
        if (chosen[n]) got.push_back(locs[n]);
    }
    if (m_->aims.size() > kCacheMax) m_->aims.clear();
    m_->aims.emplace(std::move(key), got);
    return got;
}

std::pair<double, double> Knowledge::attack_value(Fight& s, int x, int y, int name, int loc,
                                                  int option, Locked restrict, bool punish,
                                                  int y_ap) {
    const int dtype_index = option_index(*t, name, option);
    m_->decision(s);
    Key key;
    key << kAv << x << y << name << loc << dtype_index << restrict.limb << restrict.location
        << punish << y_ap;
    auto it = m_->dc.find(key);
    if (it != m_->dc.end()) return {it->second.d0, it->second.d1};
    const int ba = attack_basic(s, x, y, name, loc, dtype_index);
    const auto [bd, rname] = best_defence(s, y, x, name, loc, restrict, y_ap);
    const double p = p_hit(ba, bd);
    double v = 0.0;
    if (p > 0.0) v = p * hit_value(s, x, y, name, loc, dtype_index, margin(ba, bd));
    if (punish && rname != kNone && !t->follow_ons[ux(rname)].empty()) {
        const int left = s.s.fighters[ux(x)].ap - hexdojo::cost(*t, s.s, x, name, dtype_index);
        v -= (1.0 - p) * follow_threat(s, y, x, rname, left, 0, name);
    }
    Val& out = m_->dc[key];
    out.d0 = v;
    out.d1 = p;
    return {v, p};
}

double Knowledge::follow_threat(Fight& s, int x, int y, int after, int y_ap, int ap_spent,
                                int blocked) {
    m_->decision(s);
    Key key;
    key << kFt << x << y << after << y_ap << ap_spent << blocked;
    auto it = m_->dc.find(key);
    if (it != m_->dc.end()) return it->second.d0;
    const Locked restrict = hexdojo::locked_limb(*t, after, blocked);  // aom322e
    const bool floored = t->maneuvers[ux(after)].knocks_prone;  // no dodging on the ground
    const FighterState& fx = s.s.fighters[ux(x)];
    const int ap = fx.ap - ap_spent;
    const bool armed = fx.hands[0] != kNone || fx.hands[1] != kNone;
    double best = 0.0;
    for (int name : t->follow_ons[ux(after)]) {
        const Maneuver& m = t->maneuvers[ux(name)];
        if (m.limb == kLimbArm && armed &&
            hexdojo::limb_reason(s.fight(), x, name, s.s.hold_on(x))) {
            continue;  // a hand holding a weapon is not free (aom3221)
        }
        for (int opt : attack_options(s, x, name)) {
            if (hexdojo::cost(*t, s.s, x, name, opt) > ap) continue;
            // allowed_locations, as seal() tabulated it by maneuver and posture
            const bool prone = floored || s.s.fighters[ux(y)].prone;
            const std::vector<int>& locs = prone ? t->allowed_prone[ux(name)] : t->allowed_upright[ux(name)];
            if (locs.empty()) throw std::invalid_argument("follow_threat: " + m.name + " has no location");
            const int loc = std::find(locs.begin(), locs.end(), whole_loc) != locs.end()
                                ? whole_loc : locs[0];
            double v = 0.0;
            if (m.needs_hold != kNone || m.category == kThrow || m.category == kPullDown ||
                floored) {
                const int ba = attack_basic(s, x, y, name, loc, opt);
                const int bd = default_defence(s, y, x);
                const double p = p_hit(ba, bd);
                v = p * hit_value(s, x, y, name, loc, opt, margin(ba, bd));
            } else {
                v = attack_value(s, x, y, name, loc, opt, restrict, false, y_ap).first;
            }
            if (v > best) best = v;
        }
    }
    m_->dc[key].d0 = best;
    return best;
}

}  // namespace hexdojo::bots
