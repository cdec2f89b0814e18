// The scripted agents' Knowledge, their one copy (Python reaches it through
// agents/knowledge_core.py, its value constants through agents/heuristics.py): cheap
// analytic estimates of what a maneuver is worth (hit odds, margin, wound after soak, pain
// band, knock-back, holds, follow-ons), read from the core's board and asked of the core's own
// formulas (formulas.hpp, state_formulas.hpp, legality.hpp, weapons.hpp): no rules formula is
// copied here, only the agents' values (what a wound or a fall is worth) and the odds (odds.hpp).
//
// Arguments are the core's ids (maneuvers, locations, damage types), kNone for "none", a
// `restrict` is the core's Locked (legality.hpp locked_limb), the state `s` is the core's
// Fight. Values are reproducible doubles: the module is built with -ffp-contract=off (no fused
// multiply-adds, CMakeLists.txt), ties break by the first in order, and
// tests/agents/test_agents_fingerprint.py pins the choices made with them.
//
// Memos are private, with keys that hold every input: a per-decision memo (basic values,
// defences, attack values, follow-on threats), and across decisions hit_core, aims and
// pain_bands, keyed by profile CONTENT (pid), so a value never depends on which fights came
// before.
#pragma once

#include <array>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "fight.hpp"
#include "legality.hpp"
#include "odds.hpp"
#include "profile.hpp"
#include "tables.hpp"

namespace hexdojo::bots {

using hexdojo::Fight;
using hexdojo::kNone;
using hexdojo::Locked;
using hexdojo::Profile;
using hexdojo::Tables;

// ---------------------------------------------------------------- values (heuristics.py)
inline constexpr double KO = 100.0;
// value of one wound by level (None .. Critical), before its impairment
inline constexpr std::array<double, 7> WOUND_VALUE = {0.0, 0.5, 2.0, 5.0, 10.0, 16.0, KO};
// value of one half point of ongoing impairment (§1.14) inflicted
inline constexpr double IMPAIR_VALUE = 1.5;
inline constexpr double STUN_VALUE = 8.0;  // plus 1.5 per AP the victim still had
inline constexpr double STUN_FOLLOW = 0.2;
inline constexpr double STAGGER_VALUE = 2.5;
inline constexpr double PRONE_VALUE = 7.0;
inline constexpr double PRONE_FOLLOW = 6.0;
inline constexpr double KNOCKBACK_AP_VALUE = 20.0;
inline constexpr double KNOCKBACK_FALL_VALUE = 40.0;
// value of holding the opponent, by kind of hold (HOLD_VALUE); a kind not named: HOLD_DEFAULT
struct HoldValue {
    const char* kind;
    double value;
};
inline constexpr std::array<HoldValue, 5> HOLD_VALUE = {{
    {"arm", 5.0}, {"both_arms", 6.0}, {"leg", 4.0}, {"arm_lock", 11.0}, {"head_lock", 12.0}}};
inline constexpr double HOLD_DEFAULT = 4.0;  // HOLD_VALUE.get(kind, 4.0)
// aimed locations a scripted agent weighs in full per attack (Knowledge.aims)
inline constexpr int AIMS = 3;

// An AP argument's None (best_defence's ap, attack_value's and follow_threat's y_ap): NOT
// kNone, because -1 is a real value there (attack_value hands follow_threat the attacker's
// AP left after paying, which may be negative: then no reaction, as in Python).
inline constexpr int kNoAp = std::numeric_limits<int>::min();

// heuristics.option_index: the part of a choice's option an attack's value depends on: a
// weapon attack's whole option (hand and mode), an unarmed one's damage type index where it
// has several, else 0.
int option_index(const Tables& t, int m, int option);

class Knowledge {
public:
    // The rules (must outlive this Knowledge) and their odds tables (odds.odds_for(die_sides,
    // max_risk, per_die_h), handed over from Python).
    Knowledge(const Tables& t, Odds odds);
    ~Knowledge();
    Knowledge(Knowledge&&) noexcept;
    Knowledge& operator=(Knowledge&&) noexcept;
    Knowledge(const Knowledge&) = delete;
    Knowledge& operator=(const Knowledge&) = delete;

    const Tables* t;
    Odds odds;
    int R;          // t.max_risk (the dice's max_risk)
    int whole_loc;  // d.attack.whole_body_location

    // HOLD_VALUE.get(kind name, 4.0) for a hold kind id (kNone: the default)
    double hold_value(int kind) const;

    // ------------------------------------------------------------ basic values
    // a memo key for a profile: the same id for profiles of the same content
    int pid(const Profile& p);
    int penalties(const Fight& s, int i) const;
    int attack_basic(Fight& s, int x, int y, int name, int loc, int option = 0);
    int default_defence(Fight& s, int y, int x);
    int defence_with(Fight& s, int y, int x, int rname, int attack, int loc, int option = 0);
    // (basic, reaction id or kNone)
    std::pair<int, int> best_defence(Fight& s, int y, int x, int attack, int loc,
                                     Locked restrict = {}, int ap = kNoAp);
    std::vector<int> defence_hands(const Fight& s, int y, int rname) const;
    // (rating in half points, damage type id); (nullopt, kNone) for an unarmed maneuver or a
    // hand without the weapon
    std::pair<std::optional<int>, int> weapon_hit(const Fight& s, int x, int name, int option) const;
    std::vector<int> attack_options(const Fight& s, int x, int name) const;

    // ------------------------------------------------------------ outcomes
    double p_hit(int ba, int bd, int reaction = kNone) const;
    double p_counter(int mine, int theirs) const;
    double p_break(int esc, int hold) const;
    double margin(int ba, int bd) const;
    double hit_value(Fight& s, int x, int y, int name, int loc, int dtype_index, double margin_h);
    double hit_core(const Profile& xp, const Profile& yp, int name, int loc, int dtype_index,
                    int margin, int x_pen, int y_worst, int y_pen, int y_ap, bool y_prone,
                    bool new_hold, int x_left, bool y_mounted = false, bool x_mounted = false,
                    std::optional<int> rating = std::nullopt, int wtype = kNone);
    int damage_basic(const Profile& xp, int x_pen, int name, int margin, int where,
                     std::optional<int> rating) const;
    double wound_value(const Profile& yp, int y_worst, int y_pen, int y_ap, int dmg_basic, int n,
                       int dr, int loc, int dtype, int x_left = 0);
    // (P(unconscious), P(stunned), P(staggered))
    std::array<double, 3> pain_bands(int basic, int n);
    double knockback_value(const Profile& yp, int y_worst, int y_pen, int y_ap, bool y_prone,
                           bool y_mounted, int dmg_basic, int n, int loc, int dtype,
                           int x_left = 0, bool x_mounted = false);
    // the frozenset: the chosen locations, in the order of locs
    std::vector<int> aims(Fight& s, int x, int y, int name, int dtype_index,
                          std::span<const int> locs);
    // (expected value, chance to hit)
    std::pair<double, double> attack_value(Fight& s, int x, int y, int name, int loc,
                                           int option = 0, Locked restrict = {},
                                           bool punish = true, int y_ap = kNoAp);
    double follow_threat(Fight& s, int x, int y, int after, int y_ap = kNoAp, int ap_spent = 0,
                         int blocked = kNone);

    // memo sizes (tests, benchmarks): per-decision entries, hit_core, aims, pain
    std::array<std::size_t, 4> memo_sizes() const;

private:
    // fighter i's profile id (pid) through its fight's setup: no content compare per call
    int fighter_pid(const Fight& s, int i);
    // hit_core with the profiles' ids already known
    double hit_core_ids(int xid, int yid, const Profile& xp, const Profile& yp, int name, int loc,
                        int dtype_index, int margin, int x_pen, int y_worst, int y_pen, int y_ap,
                        bool y_prone, bool new_hold, int x_left, bool y_mounted, bool x_mounted,
                        std::optional<int> rating, int wtype);

    struct Memos;  // knowledge.cpp
    std::unique_ptr<Memos> m_;
    std::vector<double> hold_values_;  // by hold kind id
};

}  // namespace hexdojo::bots
