// Native players besides the scripted fighters: random legal play (scripted.RandomAgent).
#pragma once

#include "player.hpp"
#include "seeding.hpp"

namespace hexdojo::bots {

// RandomAgent: numpy.random.default_rng(seed).integers(len(legal)) at each decision: Lemire's
// bounded draw on the generator's 32-bit words, whose kept upper half carries over from one
// call to the next (PCG64's next_uint32), as Pcg64::bounded draws them.
class RandomPlayer final : public Player {
public:
    void reset(std::uint64_t seed) override { rng_ = pcg64_from_seed(seed); }
    int act(Combat& c) override {
        const auto n = static_cast<std::uint32_t>(c.legal().size());
        if (n <= 1) return 0;
        return static_cast<int>(rng_.bounded(n - 1U));
    }

private:
    Pcg64 rng_ = pcg64_from_seed(0);
};

}  // namespace hexdojo::bots
