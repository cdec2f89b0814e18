// What a fighter may do now, and why not (RULES §1.5-1.7,
// §1.18-1.20, §2, §3, §4, §5.3), in the native core.
//
// One function per question, in the order a referee asks them: the same
// functions list the legal choices and explain an illegal one, so the mask and the reasons
// never disagree. Reasons are codes with ids (reasons.hpp); Python renders the texts.
// Nothing is memoised: a call costs less than a memo's key would.
#pragma once

#include <array>
#include <vector>

#include "reasons.hpp"
#include "state.hpp"
#include "tables.hpp"

namespace hexdojo {

// A maneuver choice as ids: target and location kNone for Python's None. An unknown
// location name is kUnknown (location_reason: "needs an aimed location"), as is a target
// that names no fighter.
struct ChoiceIds {
    int maneuver = kNone;
    int target = kNone;
    int location = kNone;
    int turn = 0;
    int option = 0;
    friend bool operator==(const ChoiceIds&, const ChoiceIds&) = default;
};
inline constexpr int kUnknown = -2;
// The most locations a rule set may have (a block's locations sit in a fixed buffer; the
// binding refuses tables with more).
inline constexpr int kMaxLocations = 64;

// What a block locked (Window.restrict): a limb (kLimbNames), or after blocking a weapon
// attack the arm location that holds the weapon; both kNone: nothing.
struct Locked {
    int limb = kNone;
    int location = kNone;
    bool any() const { return limb != kNone || location != kNone; }
};

inline Locked window_locked(const Window& w) { return {w.restrict_limb, w.restrict_location}; }

// A legality question's ground: the rules and the board it is asked of (what Python's
// legality Query names; a Fight holds one for its pending decision).
struct Query {
    const Tables& t;
    const Board& s;
    const Maneuver& mv(int m) const { return t.maneuvers[static_cast<std::size_t>(m)]; }
    const FighterState& f(int i) const { return s.fighters[static_cast<std::size_t>(i)]; }
    bool attack(int m) const { return t.is_attack[static_cast<std::size_t>(m)] != 0; }
};

// maneuver level
Reason maneuver_reason(const Query& x, int i, int m, const Window& w);
Reason window_reason(const Query& x, int m, const Window& w, const Hold* hold_on);
Reason trigger_reason(const Query& x, int m, const Window& w);
Reason limb_reason(const Query& x, int i, int m, const Hold* hold_on, Locked locked = {});
Reason fighter_reason(const Query& x, int i, int m, const Hold* hold_on, int ap = kNone);
Reason gear_reason(const Query& x, int i, int m);
Locked locked_limb(const Tables& t, int after, int blocked, int blocked_arm = kNone);
// target, location, geometry, option level
Reason target_reason(const Query& x, int i, int m, int target);
Reason location_reason(const Query& x, int i, int m, int target, int loc);
Reason grab_location_reason(const Query& x, int m, int loc, const Window& w, int target);
Reason geometry_reason(const Query& x, int i, int m, int target, int turn, int option,
                       const Window& w);
Reason option_reason(const Query& x, int i, int m, int turn, int option, const Window& w);

// The hexes a Move passes through, the last where it ends (aom3141).
struct Path {
    std::array<Hex, 16> hexes;  // the first n are set
    int n = 0;
};
Path move_path(const Query& x, int i, int turn, int option);
Hex throw_destination(const Query& x, int i, int turn, int option);
// Where a moving dodge takes the dodger (aom3146, aom3147, aom322b); false: nowhere.
bool dodge_destination(const Query& x, int i, int attacker, int moves, int option, Hex& out);
// The defensive reactions y could answer x's attack with if it came now (ap: kNone, his own).
std::vector<int> defence_options(const Query& x, int y, int attacker, int attack,
                                 Locked restrict = {}, int ap = kNone);

// Every legal maneuver choice in window w, in legality.maneuver_choices' order, appended to
// out (cleared first).
void maneuver_choices(const Query& x, const Window& w, std::vector<ChoiceIds>& out);
// The same list as the engine's choices (fight.hpp), written without the ids between.
struct Choice;
void maneuver_choices(const Query& x, const Window& w, std::vector<Choice>& out);
// Why maneuver choice c is not legal in window w, from legality.explain's maneuver part on.
Reason explain(const Query& x, const Window& w, const ChoiceIds& c);

}  // namespace hexdojo
