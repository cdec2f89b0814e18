// The fight's board in the native core (hexdojo::Board, bound as _core.Board; Python's
// read-only snapshot is envs/rules/board.py): who stands where facing which way, AP,
// wounds, holds, weapons, and the geometry the rules ask of it (the direction an attack comes
// from, the arc, the §5.4 approach of fighters sharing a hex). Names are dense ids in the
// Python data's order (maneuvers, locations, wound levels, weapons, hold kinds): -1 stands
// for Python's None.
//
// A fight's board lives in its Fight (fight.hpp); a Board is also built from Python records
// (to_core.core_state: scenarios, legality's tests).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "hexgrid.hpp"
#include "tables.hpp"  // kNone, kLimbNames, kTriggerNames

namespace hexdojo {

inline constexpr int kMaxFighters = 8;

enum class Out : std::int8_t { kIn = 0, kUnconscious = 1, kDead = 2 };
enum class Status : std::int8_t { kNone = 0, kStaggered = 1, kStunned = 2 };

struct Wound {
    int location = kNone;
    int level = 0;
    friend bool operator==(const Wound&, const Wound&) = default;
};

struct Stuck {  // an impaling weapon stuck in a fighter (§1.15)
    int weapon = kNone;
    int location = kNone;
    friend bool operator==(const Stuck&, const Stuck&) = default;
};

struct Dropped {  // a weapon lying on the board (aom314a)
    Hex hex;
    int weapon = kNone;
    friend bool operator==(const Dropped&, const Dropped&) = default;
};

struct FighterState {
    int idx = 0;
    Hex pos;
    int facing = 0;
    int ap = 0;
    int init = 0;
    bool phased = false;
    bool prone = false;
    bool mounted = false;
    int height = 0;
    Out out = Out::kIn;
    std::vector<Wound> wounds;  // in the order taken
    int worst = 0;              // the worst wound's level
    int pen = 0;                // stagger/stun penalty this turn (half points)
    Status status = Status::kNone;
    std::array<int, 2> hands{kNone, kNone};  // right, left (a two-handed weapon in both)
    std::vector<int> sheathed;
    std::vector<Stuck> stuck;  // first stuck first

    bool active() const { return out == Out::kIn; }
};

struct Hold {  // RULES §1.18: holder holds held
    int holder = 0;
    int held = 0;
    int kind = 0;
    int location = kNone;
    int turn = 0;  // the turn it was made (painful locks hurt again each later turn)
    int attempts = 0;  // failed Break Hold attempts so far (aom322d)
    bool from_behind = false;
    int hand = kNone;  // the holder's hand on the hold (0 right, 1 left; aom3225), if it keeps one
    friend bool operator==(const Hold&, const Hold&) = default;
};

// An open decision window for maneuvers (model.Window in Python): an action in one's phase, a
// reaction to a trigger, or a follow-on after a success.

enum class WindowKind : std::int8_t { kAction = 0, kReaction = 1, kFollowOn = 2 };

struct Window {
    WindowKind kind = WindowKind::kAction;
    int fighter = 0;
    std::uint32_t triggers = 0;  // bit k: trigger k of kTriggerNames
    int attacker = kNone;
    int attack = kNone;       // maneuver id reacted to
    int after = kNone;        // maneuver id a follow-on follows
    bool no_defence = false;
    // a follow-on's restriction (legality.locked_limb): the limb a block locked (kLimbNames),
    // or, after blocking a weapon attack, the arm location holding the weapon
    int restrict_limb = kNone;
    int restrict_location = kNone;
    bool has_reactions_only = false;
    std::vector<int> reactions_only;  // maneuver ids (e.g. the soak window)
    bool has_follow = false;
    int follow_direction = 0;  // a phasing ally's move: direction, hexes
    int follow_hexes = 0;
    int own_hand = kNone;
    int locked_fighter = kNone;
    int phasing = kNone;  // whose phase it is (aom3221, aom3225: counters are a non-phasing fighter's)
};

struct Board {
    int radius = 4;
    int turn = 0;
    std::vector<int> sides;  // each fighter's side
    std::vector<FighterState> fighters;
    std::vector<Hold> holds;
    std::vector<Dropped> dropped;  // first dropped first
    // §5.4: the direction fighter a came into the hex of fighter t from (kNone: none)
    std::array<std::array<std::int8_t, kMaxFighters>, kMaxFighters> approach{};
    std::vector<int> order;  // this turn's initiative order

    Board() {
        for (auto& row : approach) row.fill(static_cast<std::int8_t>(kNone));
    }

    int n() const { return static_cast<int>(fighters.size()); }

    const Hold* hold_on(int i) const {  // the hold someone has on i (the first one)
        for (const auto& h : holds) {
            if (h.held == i) return &h;
        }
        return nullptr;
    }

    const Hold* hold_by(int i) const {  // the hold i has on someone
        for (const auto& h : holds) {
            if (h.holder == i) return &h;
        }
        return nullptr;
    }

    bool on_board(Hex h) const { return in_arena(h, radius); }

    // The absolute direction from which a acts on t (§5.4 PROPOSED for the same hex: the
    // way a came in, else t's facing; not adjacent: the direction nearest to a).
    int attack_direction(int a, int t) const {
        const FighterState& fa = fighters[a];
        const FighterState& ft = fighters[t];
        if (fa.pos == ft.pos) {
            const int came = approach[a][t];
            return came == kNone ? ft.facing : came;
        }
        const int d = direction_to(ft.pos, fa.pos);
        return d == kNone ? nearest_direction(ft.pos, fa.pos) : d;
    }

    // The relative direction (0 front .. 3 rear) of a as seen by t (facing: kNone = his own).
    int arc(int a, int t, int facing = kNone) const {
        const int f = facing == kNone ? fighters[t].facing : facing;
        return relative(attack_direction(a, t), f);
    }

    // Move fighter i to hex to, recording the approach for fighters already there (§5.4).
    void place(int i, Hex to) {
        FighterState& f = fighters[i];
        const Hex from = f.pos;
        if (to == from) return;
        f.pos = to;
        int came = direction_to(to, from);
        if (came == kNone) came = nearest_direction(to, from);
        for (const auto& g : fighters) {
            if (g.idx != i && g.pos == to) {
                approach[i][g.idx] = static_cast<std::int8_t>(came);
                approach[g.idx][i] = static_cast<std::int8_t>(opposite(came));
            }
        }
    }

    // Turn fighter i; opponents sharing his hex now count as in front (§5.4 reset).
    void set_facing(int i, int facing) {
        FighterState& f = fighters[i];
        if (f.facing == facing) return;
        f.facing = facing;
        for (const auto& g : fighters) {
            if (g.idx != i && g.pos == f.pos) approach[g.idx][i] = static_cast<std::int8_t>(facing);
        }
    }

    std::vector<int> others(int i) const {  // the other fighters still in the fight
        std::vector<int> out;
        for (const auto& g : fighters) {
            if (g.idx != i && g.active()) out.push_back(g.idx);
        }
        return out;
    }
};

}  // namespace hexdojo
