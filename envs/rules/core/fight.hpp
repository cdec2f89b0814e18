// The native fight (Python's State, envs/rules/state.py): the rules (compiled Tables),
// the fighters' compiled sheets, the board State, the Dice, the stack of resolution frames
// (resolution.hpp), the event log, the result and the pending decision with its exact list
// of legal choices. apply(choice) answers the pending decision and advances to the next one;
// decisions with a single legal choice are taken automatically. A Fight is a plain value: clone() is a copy (the Tables and the sheets are shared).
//
// Choices are plain ints (kind, maneuver id, target, location id, turn, option, risk; kNone
// for None), decisions (fighter, kind, about) ids of kDecisionKindNames and kAboutNames.
#pragma once

#include <array>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "dice.hpp"
#include "events.hpp"
#include "formulas.hpp"
#include "legality.hpp"
#include "profile.hpp"
#include "state.hpp"
#include "tables.hpp"

namespace hexdojo {

// model.Choice kinds, DECISION_KINDS, RISK_ABOUT (with "" first), the via of a maneuver and
// the kind of a hit, in the Python names' order.
enum ChoiceKind : int { kCPhase, kCEnd, kCRelease, kCManeuver, kCPass, kCRisk, kCHold };
inline const std::vector<std::string> kChoiceKindNames = {
    "phase", "end", "release", "maneuver", "pass", "risk", "hold"};
enum DecisionKind : int { kDPhase, kDAction, kDReaction, kDFollowOn, kDSoak, kDRisk, kDHold };
inline const std::vector<std::string> kDecisionKindNames = {
    "phase", "action", "reaction", "follow_on", "soak", "risk", "hold"};
enum About : int { kAboutNone, kAboutAttack, kAboutDefence, kAboutCounter, kAboutSoak,
                   kAboutBreak, kAboutResist };
inline const std::vector<std::string> kAboutNames = {
    "", "attack", "defence", "counter-attack", "soak", "break hold", "resist break hold"};
enum Via : int { kViaAction, kViaReaction, kViaFollowOn };
inline const std::vector<std::string> kViaNames = {"action", "reaction", "follow_on"};
enum HitKind : int { kHitAttack, kHitLock, kHitSelf };
inline const std::vector<std::string> kHitKindNames = {"attack", "lock", "self"};
inline const std::vector<std::string> kOutNames = {"", "unconscious", "dead"};
inline const std::vector<std::string> kStatusNames = {"", "staggered", "stunned"};
inline const std::vector<std::string> kDirectionNames = {"E", "NE", "NW", "W", "SW", "SE"};

struct Choice {
    int kind = kCPass;
    int maneuver = kNone, target = kNone, location = kNone;
    int turn = 0, option = 0, risk = 0;
    friend bool operator==(const Choice&, const Choice&) = default;
};

// The pending decision's legal choices, immutable once listed and shared by clones; reads
// as a vector (size, [], begin/end).
struct ChoiceList {
    std::shared_ptr<const std::vector<Choice>> p;
    std::size_t size() const { return p ? p->size() : 0; }
    bool empty() const { return size() == 0; }
    const Choice& operator[](std::size_t k) const { return (*p)[k]; }
    const Choice* begin() const { return p ? p->data() : nullptr; }
    const Choice* end() const { return p ? p->data() + p->size() : nullptr; }
};

struct Decision {
    int fighter = 0, kind = kDPhase, about = kAboutNone;
};

// Where a frame stands in its steps (resolution.At).
enum class At : std::int8_t {
    kStart, kPhase, kAct, kMove, kReact, kDeclare, kAttRisk, kDefRisk, kRoll, kDamage, kSoak,
    kSoakRisk, kApply, kHold, kEscRisk, kHoldRisk,
};

// The fighters a movement asks, each with the triggers it gave him (resolution.Queue).
struct Queue {
    struct Entry {
        int g = 0;
        std::uint32_t triggers = 0;
    };
    std::array<Entry, kMaxFighters> e{};
    int head = 0, n = 0;
    bool empty() const { return head >= n; }
    void push(int g, std::uint32_t tr) { e[static_cast<std::size_t>(n++)] = {g, tr}; }
    const Entry& front() const { return e[static_cast<std::size_t>(head)]; }
};

inline constexpr std::uint32_t trig(int k) { return 1U << k; }
enum TriggerBit : int { kTrClosing, kTrAttack, kTrMovement, kTrAdjacent, kTrHeld, kTrHit,
                        kTrFollow, kTrZone, kTrReady };

// The frames (resolution.hpp), plain values.
struct TurnFrame {  // a combat turn (§1.4, §1.5)
    At at = At::kStart;
    int asked = 0;
    int cand = kNone;
};

struct PhaseFrame {  // one fighter's phase (aom312)
    int i = 0;
    At at = At::kStart;
};

// The reactions a movement triggers (ReactionsFrame); is_move: a MoveFrame, which first
// makes the Move (at kMove) and then asks them.
struct ReactionsFrame {
    int i = 0;
    int what = kNone;  // the maneuver that moved him
    Queue queue;
    bool has_follow = false;
    int follow_direction = 0, follow_hexes = 0;
    bool is_move = false;
    Choice c;
    int via = kViaAction;
    At at = At::kReact;
    // the opponents sharing the hex an attacker closed into (aom3221: "an opponent closing
    // into the character's hex"), asked before the attack goes on
    bool closing = false;
};

struct AttackFrame {  // one attack (§1.6-1.9)
    int a = 0;
    Choice c;
    int t = 0;
    int via = kViaAction;
    Locked restrict;
    At at = At::kDeclare;
    bool closed = false, zone = false;
    bool has_react = false;
    Choice react;
    int ra = 0, rd = 0;
    // the hand an unarmed arm maneuver is made with (aom3221, aom3225), the attacker's and a
    // counter's: its self-injury falls on that hand, a grab keeps it on the hold
    int hand = kNone, react_hand = kNone;
};

struct HitFrame {  // damage, soak, wound, pain, knock-back of one hit (§1.10-1.13)
    int src = 0, victim = 0, maneuver = 0, loc = 0, dtype = 0, margin = 0;
    int kind = kHitAttack;
    bool has_fixed = false;
    int fixed = 0;
    bool has_rating = false;
    int rating = 0;
    int weapon = kNone;
    At at = At::kDamage;
    int level = 0, damage = 0;
    bool has_dest = false;
    Hex dest;
    int holder = kNone;
    // a blow of a counter tie (§1.6: "both attacks hit their targets simultaneously"): its
    // damage was rolled with the other's, before either landed; 1: the fight's end waits for
    // the other blow, 2: the last blow of the pair
    int together = 0;
};

struct FollowOnFrame {  // after a success (§3)
    int i = 0;
    int after = kNone;
    int blocked = kNone;      // the target's attack that `after` answered
    int blocked_arm = kNone;  // the arm location holding a blocked weapon
    int own_hand = kNone;     // the hand a Block was made with (aom3145)
    int attacker = kNone;     // who made the blocked attack
};

struct BreakHoldFrame {  // aom322d
    int i = 0;
    Choice c;
    int via = kViaAction;
    At at = At::kDeclare;
    int re = 0, rh = 0;
};

using Frame = std::variant<TurnFrame, PhaseFrame, ReactionsFrame, AttackFrame, HitFrame,
                           FollowOnFrame, BreakHoldFrame>;

// A roll's modifiers with labels the caller builds ("held (Arm Grab)", "stuck knife"):
// the Extras of formulas.hpp plus storage for those labels. Not copyable (views into it).
struct Mods {
    Extras e;
    std::array<std::string, 6> own{};
    int n_own = 0;
    Mods() = default;
    explicit Mods(const Extras& x) : e(x) {}
    Mods(const Mods&) = delete;
    Mods& operator=(const Mods&) = delete;
    void add(std::string_view prefix, std::string_view name, int v) { e.add(prefix, name, v); }
    void add_owned(std::string label, int v) {
        if (n_own >= static_cast<int>(own.size())) return;
        std::string& s = own[static_cast<std::size_t>(n_own++)];
        s = std::move(label);
        e.add("", s, v);
    }
};

// What a fight is set up with and never changes: shared by its clones.
struct Setup {
    std::vector<Profile> profiles;
    std::vector<std::string> names;  // the fighters' names as the log writes them
    std::vector<std::string> side_names;  // empty: a duel without a scene's sides
    int turn_limit = 20;
};

struct Result {
    int winner = kNone;
    std::string reason;
    int turn = 0;
};

class Fight {
public:
    static constexpr std::size_t kMaxFrames = 48;

    const Tables* t = nullptr;
    std::shared_ptr<const Setup> g;
    Board s;
    Dice dice;
    std::vector<Frame> stack;
    EventLog events;
    bool over = false;
    Result result;
    bool has_pending = false;
    Decision pending;
    // the pending decision's legal choices (immutable once listed: shared by clones)
    ChoiceList choices;
    bool has_window = false;  // the pending decision's window (Frame.window), if any
    Window window;
    // false: log() hands out a scratch record and nothing is kept (the vector env and the
    // single env's fast path read no events); copied with the fight
    bool record_events = true;
    // the pending decision and legal list's interned id (bind_fight.cpp's Fight.menu, the
    // Python facade's key to its prebuilt Choices): valid while menu_of == choices.p.get();
    // advance() resets it with each new list
    mutable const void* menu_of = nullptr;
    mutable std::int64_t menu = -1;
    const std::vector<Choice>& legal() const {
        static const std::vector<Choice> none;
        return has_pending && choices.p ? *choices.p : none;
    }

    Fight() = default;
    Fight(const Fight& o) { *this = o; }
    Fight& operator=(const Fight& o) {
        if (this == &o) return *this;
        t = o.t;
        g = o.g;
        s = o.s;
        dice = o.dice;
        stack = o.stack;
        events = o.events;
        over = o.over;
        result = o.result;
        has_pending = o.has_pending;
        pending = o.pending;
        choices = o.choices;
        has_window = o.has_window;
        window = o.window;
        record_events = o.record_events;
        menu_of = o.menu_of;
        menu = o.menu;
        return *this;
    }

    // ------------------------------------------------------------ the interface
    void start();                 // push the TurnFrame and advance (Game.new_state)
    void apply(const Choice& c);  // throws std::invalid_argument for an illegal choice
    void advance();               // run to the next decision with a choice to make

    // ------------------------------------------------------------ helpers
    const Profile& p(int i) const { return g->profiles[static_cast<std::size_t>(i)]; }
    FighterState& f(int i) { return s.fighters[static_cast<std::size_t>(i)]; }
    const std::string& name(int i) const { return g->names[static_cast<std::size_t>(i)]; }
    const Maneuver& mv(int m) const { return t->maneuvers[static_cast<std::size_t>(m)]; }
    Query fight() const { return Query{*t, s}; }

    Event& log(const char* type, std::string rule);
    void push(Frame fr);
    void pop_self();               // resolution.pop(s, self): pops the running frame if on top
    void repush_self(Frame fr);    // the running frame puts itself back on the stack
    void clear_stack();
    void knock_out(int i, int how);  // Out value
    void end_hold(const Hold& h, const std::string& why, const std::string& rule);
    void replace_hold(const Hold& old, const Hold& nw);
    bool check_over();
    void pay(int i, int ap) { f(i).ap -= ap; }
    int lose_ap(int i, int n) {
        FighterState& x = f(i);
        const int lost = x.ap < n ? x.ap : n;
        x.ap -= lost;
        return lost;
    }

    // ------------------------------------------------------------ rolls (§1.3)
    // State.basic: the fighter's basic value as he stands (worst: kNone for his own worst
    // wound), with the §1.15 stuck penalty on CO rolls; terms into out when asked.
    int basic(int i, int skill, int chr, std::span<const int> specs, Mods& extra,
              int worst = kNone, Terms* out = nullptr);
    int spec_basic(int i, const RollSpec& spec, Mods& extra, Terms* out = nullptr);
    int roll(std::string what, int basic_h, Terms terms, int risk, RollRecord& rec);
    int roll_spec(int i, std::string what, const RollSpec& spec, int risk, Mods& extra,
                  RollRecord& rec);

    // the running frame (step_top / answer_top)
    std::size_t cur_idx = 0;
    bool cur_popped = false;
    int clear_gen = 0;
    int cur_gen = 0;
};

}  // namespace hexdojo
