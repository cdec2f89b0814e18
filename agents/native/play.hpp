// One fight played to its end by native players (tournament.play_fight's fast path): the
// choices and what the tournament's records need of each decision, in the order made.
#pragma once

#include <vector>

#include "player.hpp"

namespace hexdojo::bots {

struct Played {
    int fighter = 0, kind = 0;  // the decision (kDecisionKindNames)
    int index = 0;              // the chosen legal index
    Choice choice;
    int events = 0;             // events logged before the choice was applied
    int after = kNone;          // a follow-on's: the maneuver it follows (context "after")
};

// Plays c to its end: players[sides[fighter]] decides for each fighter; with record_events
// false the fight's events from here on are not kept (a tournament's results need none; a
// player must not read them). Throws std::out_of_range if a player returns an index
// outside the legal list.
std::vector<Played> play(Fight& c, const std::vector<Player*>& players,
                         const std::vector<int>& sides, bool record_events = true);

}  // namespace hexdojo::bots
