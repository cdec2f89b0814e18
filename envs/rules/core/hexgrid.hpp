// Hex board geometry (RULES §1.7, aom311), as envs/rules/hexgrid.py: axial coordinates
// (q, r), directions 0..5 counter-clockwise from east, turning left adds 1.
#pragma once

#include <array>
#include <cstdlib>

namespace hexdojo {

struct Hex {
    int q = 0;
    int r = 0;
    friend constexpr bool operator==(Hex a, Hex b) { return a.q == b.q && a.r == b.r; }
};

// Unit steps for directions 0..5 (E, NE, NW, W, SW, SE).
inline constexpr std::array<Hex, 6> kDirections{
    {{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}}};

// v mod 6 in 0..5 for any v (one division, not two: the legality's hot path turns a
// facing for every choice it checks)
constexpr int mod6(int v) {
    const int r = v % 6;
    return r < 0 ? r + 6 : r;
}

constexpr Hex neighbour(Hex h, int direction) {
    const Hex d = kDirections[mod6(direction)];
    return {h.q + d.q, h.r + d.r};
}

constexpr int iabs(int v) { return v < 0 ? -v : v; }

constexpr int distance(Hex a, Hex b) {
    const int dq = a.q - b.q;
    const int dr = a.r - b.r;
    return (iabs(dq) + iabs(dr) + iabs(dq + dr)) / 2;
}

// Direction from a to an adjacent hex b, -1 when b is not adjacent.
constexpr int direction_to(Hex a, Hex b) {
    for (int k = 0; k < 6; ++k) {
        if (a.q + kDirections[k].q == b.q && a.r + kDirections[k].r == b.r) return k;
    }
    return -1;
}

// The direction from a whose neighbour is nearest to b (the lowest on ties).
constexpr int nearest_direction(Hex a, Hex b) {
    int best = 0;
    int best_d = 1 << 30;
    for (int k = 0; k < 6; ++k) {
        const int x = a.q + kDirections[k].q - b.q;
        const int y = a.r + kDirections[k].r - b.r;
        const int d = iabs(x) + iabs(y) + iabs(x + y);
        if (d < best_d) {
            best = k;
            best_d = d;
        }
    }
    return best;
}

constexpr int turn(int facing, int steps) { return mod6(facing + steps); }
constexpr int relative(int direction, int facing) { return mod6(direction - facing); }
constexpr int opposite(int direction) { return mod6(direction + 3); }
constexpr bool in_arena(Hex h, int radius) { return distance(h, {0, 0}) <= radius; }

// Coordinates the core accepts from outside: far beyond any arena (radius <= 20), near enough
// to zero that no distance overflows.
inline constexpr int kMaxCoordinate = 1 << 20;
constexpr bool valid_hex(Hex h) {
    return h.q >= -kMaxCoordinate && h.q <= kMaxCoordinate && h.r >= -kMaxCoordinate &&
           h.r <= kMaxCoordinate;
}

}  // namespace hexdojo
