// A player of native fights: what the tournament's fast path (agents/native/play.cpp) and the
// vector of duels' opponents (vector_env.hpp, issue 30) ask at each decision. The interface
// lives in the core, its implementations with the agents (agents/native: the scripted
// fighters, the search, random play): a fight between players runs to its end, and an env's
// opponent answers, without a Python call.
#pragma once

#include <cstdint>

#include "fight.hpp"

namespace hexdojo {

class Player {
public:
    virtual ~Player() = default;
    // re-seed for a new fight (tournament.agent_seed's value); players without dice ignore it
    virtual void reset(std::uint64_t /*seed*/) {}
    // the legal index (into c.legal()) of the choice at c's pending decision
    virtual int act(Fight& c) = 0;
};

}  // namespace hexdojo
