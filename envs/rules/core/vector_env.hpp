// A vector of native duels stepped in one call (issue 15's native vector env): each slot is
// one fighter of a duel against an opponent played inside the core (uniform random legal
// play, a native Player, or Python policies asked in a batch: issue 30), with the
// exact mask and the observation of envs/observation.py written into the caller's numpy
// buffers. Episodes end and restart inside step() (Gymnasium's same-step autoreset: the
// finished episode's last observation goes to final_obs). The semantics are Duel-v1's
// (envs/duel.py): the agent's side drawn each episode unless fixed, +1/-1/0 at the end plus
// shaping x (wound levels inflicted - taken), an illegal action rejected (the fight unchanged,
// illegal_penalty, truncation after illegal_limit in a row).
//
// Randomness: each slot has one PCG64 generator (seeded by Python from reset's seed + slot,
// through numpy's SeedSequence); an episode draws its side, then (several prototypes only: a
// scene's start distance range, one prototype per distance) which prototype it starts from,
// then its dice generator's 128-bit state and increment, and the opponent's choices come from
// it too.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "catalogue.hpp"
#include "context.hpp"
#include "fight.hpp"
#include "observe.hpp"
#include "player.hpp"

namespace hexdojo {

// What the opponent of an observation is and what the decision is about (observe.hpp), from
// a native fight: the decision context, the phasing fighter, the hand a block locked.
ObsContext obs_context(Fight& c, const Catalogue& cat, const Tables& t, int me);

struct VectorOptions {
    int side = kNone;          // the agent's fighter; kNone: drawn each episode
    float shaping = 0.0F;
    float illegal_penalty = 0.0F;
    int illegal_limit = 100;   // kNone: never truncate
    bool unit = true;          // the "unit" scaling (Duel-v1), else raw (Duel-v0)
    bool autoreset = true;     // false (the single env's fast path): an ended episode stays
                               // ended, observed with an empty mask, until reset()
    bool events = false;       // keep the fights' event logs (the single env's render, env.fight)
};

// A slot's opponents (issue 30): each episode draws one. With probability `external` it is one
// of `n_external` players the caller answers for (a Python policy, one batch for every slot
// waiting on it: DuelVector::answer), else one of `players` (native: the scripted fighters,
// the search) uniformly. A slot without a pool plays uniform random legal play (Duel-v1's
// default), drawing nothing more than before.
struct OpponentPool {
    std::vector<Player*> players;  // kept alive by the caller
    double external = 0.0;
    int n_external = 0;
};
inline constexpr int kRandomOpponent = -1;

struct Slot {
    Fight fight;
    Pcg64 rng;
    int side = 0;
    int start = 0;             // this episode's prototype (its index in set_protos' list)
    // this episode's opponent: kRandomOpponent, a player's index in the pool, or
    // kExternalBase + j for the caller's j-th
    int opponent = kRandomOpponent;
    bool waiting = false;      // stopped at an external opponent's decision
    bool scoring = false;      // the step's reward is still to be written (after the opponent)
    bool fresh = true;         // the agent has not decided yet this episode
    bool end_pending = false;  // the episode ended this step: restart it (autoreset)
    std::uint64_t episode = 0;        // episodes this slot has begun (restarts included)
    std::uint64_t opponent_seed = 0;  // this episode's seed of a pool's opponent, native or
                                      // external (drawn alike: the same seed, the same fight)
    int inflicted = 0, taken = 0;  // wound levels before the step's action
    std::vector<int> opp_legal;    // catalogue ids of a waiting opponent's legal choices
    int streak = 0;            // rejected actions in a row
    int illegal = 0;           // rejected actions this episode
    int delta = 0;             // the last step's wound levels inflicted - taken (shaping's unit)
    std::vector<int> legal;    // catalogue ids of the agent's legal choices
};

// The caller's buffers (numpy arrays, C-contiguous), one row per slot.
struct VectorBuffers {
    float* obs = nullptr;        // n x size
    std::int8_t* mask = nullptr; // n x catalogue (written, never read: legality is the slot's own)
    float* reward = nullptr;     // n
    std::uint8_t* terminated = nullptr, *truncated = nullptr;  // n
    float* final_obs = nullptr;  // n x size: the last observation of an episode that ended
    std::uint8_t* has_final = nullptr;  // n
    std::int32_t* side = nullptr;       // n: the agent's fighter this episode
    std::int32_t* illegal = nullptr;    // n: -1, or the id rejected this step
    std::int32_t* outcome = nullptr;    // n: an episode that ended: +1 won, -1 lost, 0 draw
    // external opponents (issue 30), or null: the waiting opponent's observation and mask,
    // and which of the caller's players it is (0: none waiting, 1 + j: the j-th)
    float* opp_obs = nullptr;           // n x size
    std::int8_t* opp_mask = nullptr;    // n x catalogue
    std::int32_t* waiting = nullptr;    // n
};
inline constexpr int kExternalBase = 1 << 20;

class DuelVector {
  public:
    DuelVector(const Fight& proto, Catalogue cat, ObsLayout layout, std::vector<float> unit_factor,
               VectorOptions opt, int n);

    int n() const { return static_cast<int>(slots_.size()); }
    const Catalogue& catalogue() const { return cat_; }
    const ObsLayout& layout() const { return lay_; }
    // Seed slot k's generator (numpy's PCG64 state for seed + k) and start its episode.
    void reset(const std::vector<Pcg64>& rngs, const VectorBuffers& b);
    void step(const std::int64_t* actions, const VectorBuffers& b);
    // Answer every waiting slot's external opponent (ids of the catalogue, one per slot; the
    // others' entries are ignored), then go on as step() does.
    void answer(const std::int64_t* actions, const VectorBuffers& b);
    // Slot k's opponents from its next episode on (an empty pool: random play).
    void set_pool(int k, OpponentPool pool);
    // The fight every episode started from now on copies (a set-up, not started: the single
    // env's start drawn per episode from Python).
    void set_proto(const Fight& proto) { set_protos({proto}); }
    // The fights episodes started from now on copy, one drawn uniformly per episode from the
    // slot's generator (after the side; one prototype draws nothing): a scene's start
    // distance range, one set-up per distance.
    void set_protos(std::vector<Fight> protos);
    bool has_external() const { return external_; }
    // Nanoseconds the native players have thought (training's time profile).
    std::int64_t opponent_ns() const { return opponent_ns_; }
    // The buffers bound once (the single env's fast path: no arrays cross per call).
    VectorBuffers bound;
    // The external opponents' buffers (opp_obs, opp_mask, waiting), bound once and added to
    // every call's (bind_external).
    VectorBuffers external;
    Slot& slot(int k) { return slots_[static_cast<std::size_t>(k)]; }
    // The agent's fighter of the episodes started from now on (kNone: drawn each episode).
    int side() const { return opt_.side; }
    void set_side(int side) { opt_.side = side; }
    // The dice generator an episode of slot k would draw next, without drawing (tests).
    std::uint64_t episodes() const { return episodes_; }

  private:
    void begin_episode(Slot& s, int k);
    bool run_opponent(Slot& s, int k);  // true: stopped at an external opponent
    void settle(int k, const VectorBuffers& b);
    void score(Slot& s, int k, const VectorBuffers& b);
    void observe_as(Slot& s, int me, float* obs, std::int8_t* mask, std::vector<int>& legal);
    void observe(Slot& s, float* obs, std::int8_t* mask);
    void observe_opponent(Slot& s, float* obs, std::int8_t* mask);

    std::vector<Fight> protos_;  // fights set up and not started: every episode copies one
    const Tables* t_;
    Catalogue cat_;
    ObsLayout lay_;
    std::vector<float> unit_;
    VectorOptions opt_;
    std::vector<Slot> slots_;
    std::vector<OpponentPool> pools_;  // one per slot
    bool external_ = false;            // some pool has external opponents
    std::int64_t opponent_ns_ = 0;
    std::uint64_t episodes_ = 0;
};

}  // namespace hexdojo
