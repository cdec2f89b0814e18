// The duel's observation written natively (envs/observation.py ObservationEncoder.encode_flat):
// one float32 vector in the encoder's layout (fields sorted by name; the offsets come from
// Python, which owns the spaces), raw units, written into a preallocated buffer. The board
// comes from the State; what the open decision is about (State.context(), the phasing fighter,
// the hands a block locked) comes as an ObsContext, which the core fills from the fight
// (vector_env.cpp obs_context) and tests fill from a Python State (observation_layout.py).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "catalogue.hpp"
#include "hexgrid.hpp"
#include "state.hpp"
#include "tables.hpp"

namespace hexdojo {

inline constexpr float kApMax = 30.0F;       // observation.AP_MAX
inline constexpr float kBasicMin = -30.0F;   // observation.BASIC_MIN, BASIC_MAX (points)
inline constexpr float kBasicMax = 50.0F;
inline constexpr float kWeaponCountMax = 2.0F;  // observation.WEAPON_COUNT_MAX
enum ObsDecisionKind : int { kDecPhase, kDecAction, kDecReaction, kDecFollowOn, kDecSoak, kDecRisk,
                          kDecHold };  // model.DECISION_KINDS

// Field offsets of the layout (observation._layout), kNone for a field the layout lacks.
struct ObsLayout {
    int size = 0;
    int decision_kind = 0, deciding = 0, risk_roll = 0;
    int roll_attack = 0, roll_location = 0, roll_reaction = 0, roll_basics = 0, soak_wound = 0;
    int incoming_maneuver = 0, incoming_location = 0, incoming_arc = 0, incoming_closing = 0;
    int follow_on_after = 0, follow_ons = 0;
    int opp_offset = 0, distance = 0, same_hex = 0, arc_of_opp = 0, arc_of_self = 0;
    int initiative = 0, phase = 0, turn = 0;
    // per fighter (0 self, 1 opp): pos, facing, ap, flags, height, edge, wounds, worst, hold
    std::array<std::array<int, 9>, 2> per{};
    bool armed = false;
    int incoming_weapon = kNone, incoming_mode = kNone;
    // per fighter: hands, usable, sheathed, stuck, dropped_here, dropped_near
    std::array<std::array<int, 6>, 2> per_armed{};
};

// What the open decision is about, as State.context() says it (ids; kNone for absent).
struct ObsContext {
    int fighter = kNone;  // who decides (kNone: the fight is over)
    int kind = kNone;     // ObsDecisionKind (model.DECISION_KINDS)
    int about = kNone;    // index into model.RISK_ABOUT
    int attack = kNone, location = kNone, reaction = kNone;  // maneuver / location ids
    int arc = kNone;
    bool closing = false;
    int after = kNone;
    std::vector<std::pair<int, int>> basics;  // (fighter, basic value in half points)
    int wound = kNone;
    int weapon = kNone, mode = kNone;
    int phasing = kNone;
    std::array<int, kMaxFighters> locked_hand{};  // by fighter: the hand a block locked, or kNone
    std::vector<int> legal_ids;  // catalogue ids of the legal choices (follow_ons)

    ObsContext() { locked_hand.fill(kNone); }
};

void write_observation(const Tables& t, const Catalogue& cat, const ObsLayout& lay,
                       const Board& s, const ObsContext& ctx, int me, int op, float* b);

// One fighter's board fields in raw units at o = (facing, ap, flags, height, edge, wounds,
// worst): the one writer of the duel's self_/opp_ blocks and the group fight's self_/others_
// blocks (observe_group.hpp).
void put_fighter_board(const Board& s, int i, const std::array<int, 7>& o, float* b);

// One fighter's weapon fields at o = (hands, usable, sheathed, stuck, dropped_here,
// dropped_near), raw units; `locked`: the hand a block locked (kNone: none). Shared by the
// duel's and the group fight's writers.
void put_fighter_weapons(const Tables& t, const Board& s, int i, const std::array<int, 6>& o,
                         int locked, float* b);

}  // namespace hexdojo
