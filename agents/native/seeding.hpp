// Fresh dice for a search's simulations, seeded natively as Python seeds them: a simulation's
// dice are envs/rules/dice.py's Dice(seed) = numpy.random.default_rng(seed), i.e. PCG64 seeded
// by SeedSequence(seed). The core's pcg64.hpp leaves seeding to numpy (a fight's dice cross
// the boundary as a generator state); a search seeds ~100 fresh dice per decision, so this
// header reproduces numpy's SeedSequence (the entropy pool's hashing and generate_state) and
// PCG64's seeding from it, bit for bit (numpy/random/bit_generator.pyx, pcg64.pyx and
// pcg64.h's pcg64_set_seed). tests/agents/test_bots_search.py compares them with numpy.
#pragma once

#include <array>
#include <cstdint>

#include "dice.hpp"
#include "pcg64.hpp"

namespace hexdojo::bots {

namespace seedseq {

inline constexpr std::uint32_t kInitA = 0x43b0d7e5U;
inline constexpr std::uint32_t kMultA = 0x931e8875U;
inline constexpr std::uint32_t kInitB = 0x8b51f9ddU;
inline constexpr std::uint32_t kMultB = 0x58f38dedU;
inline constexpr std::uint32_t kMixMultL = 0xca01f9ddU;
inline constexpr std::uint32_t kMixMultR = 0x4973f715U;
inline constexpr unsigned kXShift = 16;
inline constexpr int kPoolSize = 4;

inline std::uint32_t hashmix(std::uint32_t value, std::uint32_t& hash_const) {
    value ^= hash_const;
    hash_const *= kMultA;
    value *= hash_const;
    value ^= value >> kXShift;
    return value;
}

inline std::uint32_t mix(std::uint32_t x, std::uint32_t y) {
    std::uint32_t r = kMixMultL * x - kMixMultR * y;
    r ^= r >> kXShift;
    return r;
}

// SeedSequence(seed).pool for a non-negative integer seed below 2^64 (no spawn key): the
// seed as little-endian 32-bit words (0 is one word, [0]), hashed into a pool of four.
inline std::array<std::uint32_t, kPoolSize> pool(std::uint64_t seed) {
    std::array<std::uint32_t, 2> words{static_cast<std::uint32_t>(seed),
                                       static_cast<std::uint32_t>(seed >> 32)};
    const int n_words = (seed >> 32) != 0 ? 2 : 1;
    std::array<std::uint32_t, kPoolSize> mixer{};
    std::uint32_t hash_const = kInitA;
    for (int i = 0; i < kPoolSize; ++i) {
        mixer[i] = hashmix(i < n_words ? words[i] : 0U, hash_const);
    }
    for (int src = 0; src < kPoolSize; ++src) {
        for (int dst = 0; dst < kPoolSize; ++dst) {
            if (src != dst) mixer[dst] = mix(mixer[dst], hashmix(mixer[src], hash_const));
        }
    }
    return mixer;  // the entropy never has more words than the pool: nothing left to add
}

// SeedSequence.generate_state(4, np.uint64): eight 32-bit words cycled from the pool, each
// hashed, read as four little-endian 64-bit words.
inline std::array<std::uint64_t, 4> generate_state4(const std::array<std::uint32_t, kPoolSize>& p) {
    std::array<std::uint32_t, 8> w{};
    std::uint32_t hash_const = kInitB;
    for (int k = 0; k < 8; ++k) {
        std::uint32_t v = p[static_cast<std::size_t>(k % kPoolSize)];
        v ^= hash_const;
        hash_const *= kMultB;
        v *= hash_const;
        v ^= v >> kXShift;
        w[static_cast<std::size_t>(k)] = v;
    }
    std::array<std::uint64_t, 4> out{};
    for (int k = 0; k < 4; ++k) {
        out[static_cast<std::size_t>(k)] =
            static_cast<std::uint64_t>(w[2 * k]) | (static_cast<std::uint64_t>(w[2 * k + 1]) << 32);
    }
    return out;
}

}  // namespace seedseq

// numpy's PCG64(seed): the state from generate_state(4, uint64) (initstate from words 0-1,
// the stream from words 2-3, high word first), then pcg_setseq_128_srandom_r.
inline Pcg64 pcg64_from_seed(std::uint64_t seed) {
    const auto v = seedseq::generate_state4(seedseq::pool(seed));
    const u128 initstate = make_u128(v[0], v[1]);
    const u128 initseq = make_u128(v[2], v[3]);
    Pcg64 g;
    g.state = 0;
    g.inc = (initseq << 1U) | 1U;
    g.state = g.state * Pcg64::kMultiplier + g.inc;
    g.state += initstate;
    g.state = g.state * Pcg64::kMultiplier + g.inc;
    g.has_uint32 = false;
    g.uinteger = 0;
    return g;
}

// numpy's Generator.integers(0, 2**63 - 1) on a PCG64 (the search agents' per-decision
// seeds): a range above 32 bits is drawn by Lemire's method on 64-bit words
// (bounded_lemire_uint64 of numpy's distributions.c); the half-used 32-bit buffer is left.
inline std::uint64_t bounded64(Pcg64& g, std::uint64_t rng) {
    const std::uint64_t excl = rng + 1U;
    u128 m = static_cast<u128>(g.next64()) * excl;
    auto leftover = static_cast<std::uint64_t>(m);
    if (leftover < excl) {
        const std::uint64_t threshold = (~std::uint64_t{0} - rng) % excl;
        while (leftover < threshold) {
            m = static_cast<u128>(g.next64()) * excl;
            leftover = static_cast<std::uint64_t>(m);
        }
    }
    return static_cast<std::uint64_t>(m >> 64);
}

inline std::int64_t seed63(Pcg64& g) {
    return static_cast<std::int64_t>(bounded64(g, (std::uint64_t{1} << 63) - 2U));
}

// envs/rules/dice.py Dice(seed, sides): no block drawn yet, the generator just seeded.
inline Dice fresh_dice(std::uint64_t seed, int sides) {
    Dice d;
    d.rng = pcg64_from_seed(seed);
    d.sides = sides;
    d.pos = 0;
    d.len = 0;
    return d;
}

}  // namespace hexdojo::bots
