// A player of native fights: what the tournament's fast path (play.cpp) asks at each decision.
// The scripted fighters, the search agents and random play each have one; a fight between
// players runs to its end without a Python call.
#pragma once

#include <cstdint>

#include "fight.hpp"

namespace hexdojo::bots {

class Player {
public:
    virtual ~Player() = default;
    // re-seed for a new fight (tournament.agent_seed's value); players without dice ignore it
    virtual void reset(std::uint64_t /*seed*/) {}
    // the legal index (into c.legal()) of the choice at c's pending decision
    virtual int act(Combat& c) = 0;
};

}  // namespace hexdojo::bots
