// The scripted fighters, their one implementation (Python's agents/scripted.py HeuristicAgent
// and Style are faces of it, through agents/scripted_core.py): every legal choice of a decision
// gets an expected value from the Knowledge estimates (agents/native/knowledge.hpp), and the
// best is played, ties to the first in list order. The bot plays the rules core's own fights
// (hexdojo::Fight): a choice is its index in Fight::legal(), which is
// State.legal_choices() in the same order, so act() and scored_choices() are what
// HeuristicAgent returns.
//
// Methods take ids for names (maneuvers, locations, categories, kNone for none) and use the
// Knowledge held by the bot. The search agents (search.hpp) build on this interface: change
// it only by adding.
#pragma once

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "context.hpp"
#include "fight.hpp"
#include "knowledge.hpp"
#include "player.hpp"

namespace hexdojo::bots {

// scripted.Style: the weights of one fighting style; same fields, names and defaults.
struct Style {
    double aggression = 1.0;  // 0..1: spend AP now (1) or keep it for reactions (0)
    int risk = 6;             // 0..6: most dice risked on a roll
    double strike = 1.0;      // punches, head butts, Martial Strikes
    double kick = 1.0;        // kicks, sweeps
    double grab = 1.0;        // grabs, grapples, locks, throws, pull downs
    double defend = 1.0;      // defensive reactions (blocks, dodges, leg grabs)
    double counter = 1.0;     // counter-attacking reactions
    double follow = 0.0;      // flat bonus for opening a follow-on window
    double chain = 0.0;       // weight of the best follow-on a success would open (§3 chains)
    bool wait = false;        // prefer to let the opponent phase first
    double approach = 0.0;    // weight of the attack a step into reach makes possible
    int reserve_max = 3;      // AP kept for defence at aggression 0
    double weapon = 1.0;      // weapon attacks (Stand / Advance and attack, Close Combat Weapon)
    double keep_out = 1.0;    // armed with a melee weapon: how much it avoids the opponent's hex
};

// scripted.SKIPPED: value of a choice not weighed (an aim off the shortlist)
inline constexpr double kSkipped = -1e9;

// HeuristicAgent.incoming's tuple: the attack being reacted to.
struct Incoming {
    int attacker = kNone;
    int maneuver = kNone;
    int location = kNone;
    double value = 0.0;  // the value of its hit (for the attacker)
    int option = 0;      // a weapon attack's hand and mode
};

// One entry of HeuristicAgent.aim_shortlist: the aimed locations worth weighing for the
// attack (maneuver, target, option); a choice of that attack at another location is skipped.
struct AimEntry {
    int maneuver = kNone, target = kNone, option = 0;
    std::vector<int> locations;  // allowed location ids
};
using AimShortlist = std::vector<AimEntry>;

// A Player (player.hpp), so the tournament's fast path (play.cpp) plays it inside the core.
class ScriptedBot : public Player {
public:
    ScriptedBot(std::shared_ptr<const Knowledge> k, Style st);
    // the same: Knowledge's estimates fill its memos (pure caches), so the bot asks them of a
    // non-const Knowledge; the const form above casts its constness away (the Knowledge
    // must not be a const object)
    ScriptedBot(std::shared_ptr<Knowledge> k, Style st);

    const Style& style() const { return st_; }
    const Knowledge& knowledge() const { return *k_; }

    // ------------------------------------------------------------ dispatch
    // HeuristicAgent.act: the legal index of its choice (throws std::invalid_argument on a
    // finished fight).
    int act(Fight& s) override;
    // HeuristicAgent.ranked: the legal indices, best first (search's order).
    std::vector<int> ranked(Fight& s);
    // HeuristicAgent.scored_choices: (value, legal index), best first (stable sort); only for
    // action, reaction and follow-on decisions (throws std::invalid_argument otherwise).
    std::vector<std::pair<double, int>> scored_choices(Fight& s);
    // HeuristicAgent._fresh: the per-decision memos are dropped at a new decision.
    void fresh(Fight& s);

    // ------------------------------------------------------------ helpers
    static int opponent(const Fight& s, int i);
    int reserve(const Fight& s, int i, int j) const;
    double weight(int maneuver) const;
    int phase(Fight& s, int i);  // legal index
    // the hold decision of act() (keep a hold worth HOLD_VALUE >= 5): legal index
    int hold(Fight& s, int i);

    // ------------------------------------------------------------ risk (§1.3)
    int risk_for(Fight& s, int i, int about);  // about: kAboutNames id
    // (escaper's, holder's) basic values for Break Hold by `method`; nullopt if not held
    std::optional<std::pair<int, int>> break_basics(Fight& s, int i, int method);
    int soak_risk(std::optional<int> basic, int level) const;
    int soak(Fight& s, int i);  // legal index

    // ------------------------------------------------------------ maneuvers
    int best(Fight& s, int i, int kind);  // kind: DecisionKind; legal index
    // every legal choice with its value (turn bonus included), in list order
    std::vector<std::pair<double, int>> scored(Fight& s, int i, int kind);
    AimShortlist aim_shortlist(Fight& s, int i);
    double chain_value(Fight& s, int i, int j, int maneuver);
    std::optional<Incoming> incoming(Fight& s, int i, const DecisionContext& ctx);
    double ap_cost(Fight& s, int i, int j, int kind, int ap);
    double save(Fight& s, int i, int j);
    // ctx: the decision's context (an empty one, pending == false, for an action window)
    double value(Fight& s, int i, int j, int kind, const Choice& c, const DecisionContext& ctx,
                 const std::optional<Incoming>& incoming);
    double undefended(Fight& s, int i, const std::optional<Incoming>& incoming) const;
    double counter_value(Fight& s, int i, const Choice& c, const Incoming& incoming);
    double attack_choice_value(Fight& s, int i, int j, int kind, const Choice& c,
                               const DecisionContext& ctx);
    double defence_value(Fight& s, int i, const Choice& c, const Incoming& incoming);
    double other_value(Fight& s, int i, int j, const Choice& c);
    double arms_value(const Fight& s, int i, int j, const Choice& c, int cat) const;  // cat: category id
    static bool has_kind(const Fight& s, int i, int kind);  // kind: kWeaponKindNames id

    // ------------------------------------------------------------ position
    double position_value(const Fight& s, int j, Hex pos, int facing, int i = kNone) const;
    static int melee_reach(const Fight& s, int i);
    double move_value(Fight& s, int i, int j, const Choice& c);
    double closing_value(Fight& s, int i, int j);
    double turn_value(const Fight& s, int i, int j, const Choice& c) const;
    double turn_bonus(const Fight& s, int i, const Choice& c) const;

    static constexpr int kKeepStanding = 2;  // HeuristicAgent.KEEP_STANDING
    static constexpr double kProneAp = 1.0;  // HeuristicAgent.PRONE_AP

private:
    std::shared_ptr<Knowledge> k_;
    Style st_;
    void init_ids();
    double hold_value_or(int kind, double dflt) const;  // HOLD_VALUE.get(kind, dflt)
    std::vector<double> hold_value_;  // by hold kind id: HOLD_VALUE's, NaN where it has none
    // scored's scratch: a hash table of choice indices, each choice's value before its turn
    // bonus
    std::vector<int> slots_;
    std::vector<double> vals_;
    // for each legal choice: the first choice in list order with the same value key
    std::vector<int> same_value_as(const std::vector<Choice>& choices);
    // names the Python code uses, as ids (kNone where the rule set lacks them)
    int martial_strike_ = kNone, turn_ = kNone, move_ = kNone;
    std::vector<char> kick_;  // by maneuver id: in scripted.KICKS
    // per-decision memos (HeuristicAgent._save, _memo), valid for the decision at `at_`
    std::vector<std::pair<int, double>> save_memo_;
    std::vector<std::pair<int, double>> chain_memo_;
    bool has_closing_ = false;
    double closing_memo_ = 0.0;
    // the decision token: the pending decision's legal list (a new one per decision, shared
    // by clones; held, so its address is never reused), the event count and the turn
    std::shared_ptr<const std::vector<Choice>> at_;
    std::size_t at_events_ = 0;
    int at_turn_ = -1;
};

// scripted.incoming_option: the option (hand and mode) of the weapon attack being reacted
// to; 0 for an unarmed attack.
int incoming_option(Fight& s, const Knowledge& k, int attack);

}  // namespace hexdojo::bots
