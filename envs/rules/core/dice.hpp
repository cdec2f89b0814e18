// Dice of the native core (RULES §1.3, aom112): the same faces, in the same order, as the
// Python Dice (envs/rules/dice.py), which draws them in blocks of 512 with
// Generator.integers(1, sides + 1, size=512). A copy of a Dice rolls the same future faces
// as the original, independently: what search agents need from clone().
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "pcg64.hpp"

namespace hexdojo {

struct Dice {
    static constexpr int kBlock = 512;

    Pcg64 rng;
    int sides = 6;
    int pos = 0;
    int len = 0;  // faces of the current block (0 before the first draw)
    std::array<std::uint8_t, kBlock> block{};
    // Loaded dice (tests, envs/rules/dice.py LoadedDice): the scripted faces in order, then an
    // error naming how many there were, as the Python LoadedDice fails.
    bool loaded = false;
    std::vector<std::uint8_t> script;

    int die() {
        if (loaded) {
            if (pos >= static_cast<int>(script.size())) {
                throw std::runtime_error("LoadedDice ran out after " +
                                         std::to_string(script.size()) +
                                         " faces: the test scripted too few");
            }
            return script[static_cast<std::size_t>(pos++)];
        }
        if (pos >= len) refill();
        return block[static_cast<std::size_t>(pos++)];
    }

    void refill() {
        // numpy fills without drawing when the range holds one value (a one-sided die)
        const auto rng_incl = static_cast<std::uint32_t>(sides - 1);
        for (int k = 0; k < kBlock; ++k) {
            const std::uint32_t v = rng_incl == 0 ? 0U : rng.bounded(rng_incl);
            block[k] = static_cast<std::uint8_t>(v + 1U);
        }
        pos = 0;
        len = kBlock;
    }
};

}  // namespace hexdojo
