// Native players besides the scripted fighters and the search: random legal play (the
// native form of agents/scripted.py RandomAgent).
#pragma once

#include <array>
#include <cstdint>

#include "player.hpp"
#include "seeding.hpp"

namespace hexdojo::bots {

// tournament.agent_seed: SeedSequence([fight_seed, side, 7919]).generate_state(1)[0], the seed
// an agent on `side` gets for a fight (the entropy's words: the fight seed's one or two
// little-endian 32-bit words, then side, then 7919; at most four, the pool's size).
inline std::uint32_t agent_seed(std::uint64_t fight_seed, std::uint32_t side) {
    using namespace seedseq;
    std::array<std::uint32_t, kPoolSize> words{static_cast<std::uint32_t>(fight_seed), 0U, 0U, 0U};
    int n = 1;
    if ((fight_seed >> 32) != 0) words[static_cast<std::size_t>(n++)] = static_cast<std::uint32_t>(fight_seed >> 32);
    words[static_cast<std::size_t>(n++)] = side;
    words[static_cast<std::size_t>(n++)] = 7919U;
    std::array<std::uint32_t, kPoolSize> mixer{};
    std::uint32_t hash_const = kInitA;
    for (int i = 0; i < kPoolSize; ++i) mixer[static_cast<std::size_t>(i)] = hashmix(i < n ? words[static_cast<std::size_t>(i)] : 0U, hash_const);
    for (int src = 0; src < kPoolSize; ++src) {
        for (int dst = 0; dst < kPoolSize; ++dst) {
            if (src != dst) {
                mixer[static_cast<std::size_t>(dst)] =
                    mix(mixer[static_cast<std::size_t>(dst)], hashmix(mixer[static_cast<std::size_t>(src)], hash_const));
            }
        }
    }
    std::uint32_t v = mixer[0] ^ kInitB;
    v *= kInitB * kMultB;
    v ^= v >> kXShift;
    return v;
}

// RandomAgent: numpy.random.default_rng(seed).integers(len(legal)) at each decision: Lemire's
// bounded draw on the generator's 32-bit words, whose kept upper half carries over from one
// call to the next (PCG64's next_uint32), as Pcg64::bounded draws them.
class RandomPlayer final : public Player {
public:
    void reset(std::uint64_t seed) override { rng_ = pcg64_from_seed(seed); }
    int act(Fight& c) override {
        const auto n = static_cast<std::uint32_t>(c.legal().size());
        if (n <= 1) return 0;
        return static_cast<int>(rng_.bounded(n - 1U));
    }

private:
    Pcg64 rng_ = pcg64_from_seed(0);
};

}  // namespace hexdojo::bots
