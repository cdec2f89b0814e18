// The dice stream of the native core (RULES §1.3): numpy's PCG64 bit generator and the
// bounded-integer draw of numpy's Generator.integers, reproduced bit for bit, so that a fight
// seeded the same way rolls the same faces in the native core and in Python's Dice
// (envs/rules/dice.py, numpy's Generator): the seeding stays numpy's (native.core_dice).
//
// Seeding stays in numpy: Python turns a seed into a PCG64 state with numpy's SeedSequence
// (np.random.PCG64(seed).state) and hands the 128-bit state, the increment and the half-used
// 32-bit buffer to the core; the core never hashes seeds itself.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace hexdojo {

using u128 = unsigned __int128;

constexpr u128 make_u128(std::uint64_t hi, std::uint64_t lo) {
    return (static_cast<u128>(hi) << 64) | lo;
}

// PCG64 (XSL-RR 128/64, the "setseq" variant numpy ships): the state steps first, then the
// output is taken from the new state.
struct Pcg64 {
    u128 state = 0;
    u128 inc = 0;
    bool has_uint32 = false;  // numpy keeps the upper half of a 64-bit draw for the next
    std::uint32_t uinteger = 0;  // 32-bit draw: these two are part of its state

    static constexpr u128 kMultiplier =
        make_u128(0x2360ED051FC65DA4ULL, 0x4385DF649FCCF645ULL);

    std::uint64_t next64() {
        state = state * kMultiplier + inc;
        const auto hi = static_cast<std::uint64_t>(state >> 64);
        const auto lo = static_cast<std::uint64_t>(state);
        const unsigned rot = static_cast<unsigned>(state >> 122);
        const std::uint64_t x = hi ^ lo;
        return (x >> rot) | (x << ((64U - rot) & 63U));
    }

    // Low half first, the high half kept for the next call (numpy's pcg64_next32).
    std::uint32_t next32() {
        if (has_uint32) {
            has_uint32 = false;
            return uinteger;
        }
        const std::uint64_t v = next64();
        has_uint32 = true;
        uinteger = static_cast<std::uint32_t>(v >> 32);
        return static_cast<std::uint32_t>(v & 0xFFFFFFFFULL);
    }

    // A uniform integer in [0, rng] for rng < 2^32 - 1: Lemire's multiply-and-reject, the
    // method Generator.integers uses for int64 output with a small range.
    std::uint32_t bounded(std::uint32_t rng) {
        const std::uint32_t excl = rng + 1U;
        std::uint64_t m = static_cast<std::uint64_t>(next32()) * excl;
        auto leftover = static_cast<std::uint32_t>(m);
        if (leftover < excl) {
            const std::uint32_t threshold = (0xFFFFFFFFU - rng) % excl;
            while (leftover < threshold) {
                m = static_cast<std::uint64_t>(next32()) * excl;
                leftover = static_cast<std::uint32_t>(m);
            }
        }
        return static_cast<std::uint32_t>(m >> 32);
    }
};

// (high, low) 64-bit halves of a 128-bit number, as numpy's state crosses the bindings.
using Half = std::pair<std::uint64_t, std::uint64_t>;

// The generator of numpy's PCG64 state: the 128-bit state and increment, and the half-used
// 32-bit buffer. An even increment (no PCG64 has one) is a std::invalid_argument (a
// ValueError in Python) saying so, after ``who`` (the binding's name, or nothing).
inline Pcg64 pcg64_of(Half state, Half inc, bool has_uint32 = false, std::uint32_t uinteger = 0,
                      const char* who = "") {
    if ((inc.second & 1U) == 0U) throw std::invalid_argument(std::string(who) + "inc: a PCG64 increment is odd");
    Pcg64 g;
    g.state = make_u128(state.first, state.second);
    g.inc = make_u128(inc.first, inc.second);
    g.has_uint32 = has_uint32;
    g.uinteger = uinteger;
    return g;
}

}  // namespace hexdojo
