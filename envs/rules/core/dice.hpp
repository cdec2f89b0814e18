// Dice of the native core (RULES §1.3, aom112): the same faces, in the same order, as the
// Python engine's Dice (envs/rules/dice.py), which draws them in blocks of 512 with
// Generator.integers(1, sides + 1, size=512). A copy of a Dice rolls the same future faces
// as the original, independently: what search agents need from clone().
#pragma once

#include <array>
#include <cstdint>

#include "pcg64.hpp"

namespace hexdojo {

struct Dice {
    static constexpr int kBlock = 512;

    Pcg64 rng;
    int sides = 6;
    int pos = 0;
    int len = 0;  // faces of the current block (0 before the first draw)
    std::array<std::uint8_t, kBlock> block{};

    int die() {
        if (pos >= len) refill();
        return block[pos++];
    }

  private:
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
