// The native vector of duels (vector_env.hpp).
#include "vector_env.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

namespace hexdojo {

ObsContext obs_context(Fight& c, const Catalogue& cat, const Tables& t, int me) {
    ObsContext o;
    o.phasing = phasing(c);
    const DecisionContext x = decision_context(c);
    if (!x.pending) return o;
    o.fighter = x.d.fighter;
    o.kind = x.d.kind;  // fight.hpp's DecisionKind is model.DECISION_KINDS' order
    o.about = x.d.about == kAboutNone ? kNone : x.d.about - 1;  // RISK_ABOUT has no ""
    o.attack = x.attack;
    o.arc = x.arc;
    o.location = x.location;
    o.closing = x.closing;
    o.after = x.after;
    if (x.roll) {
        o.reaction = x.r.attack ? x.r.reaction : kNone;
        o.wound = x.r.has_wound ? x.r.wound : kNone;
        o.basics = x.r.basics;
    }
    o.weapon = x.weapon;
    o.mode = x.mode;
    // the hand whose weapon a block locked (observation.locked_hands)
    if (c.has_window) {
        const Window& w = c.window;
        const int hand = locked_hand(t, w.restrict_location);
        if (hand != kNone) {
            if (w.kind == WindowKind::kFollowOn) {
                const int who = w.locked_fighter != kNone ? w.locked_fighter
                                : (c.s.n() == 2 ? 1 - w.fighter : kNone);
                if (who != kNone) o.locked_hand[static_cast<std::size_t>(who)] = hand;
            } else {
                o.locked_hand[static_cast<std::size_t>(w.fighter)] = hand;
            }
        }
    }
    if (x.d.fighter == me) {
        o.legal_ids.reserve(c.choices.size());  // one allocation (20-50 ids: six before)
        for (const Choice& ch : c.choices) {
            int id = kNone;
            switch (ch.kind) {
                case kCPhase: id = ch.option == 1 ? kPhaseNow : kPhaseWait; break;
                case kCEnd: id = kEndPhase; break;
                case kCRelease: id = kReleaseHold; break;
                case kCPass: id = kPass; break;
                case kCHold: id = ch.option == 1 ? kHoldMoveAlong : kHoldLetGo; break;
                case kCRisk: id = cat.risk_id(ch.risk); break;
                default: id = cat.maneuver_id(t, ch.maneuver, ch.turn, ch.location, ch.option);
            }
            if (id == kNone) throw std::runtime_error("a legal choice has no catalogue id");
            o.legal_ids.push_back(id);
        }
    }
    return o;
}

namespace {

int wound_total(const Fight& c, int i) {
    int total = 0;
    for (const Wound& w : c.s.fighters[static_cast<std::size_t>(i)].wounds) total += w.level;
    return total;
}

// The engine choice an id means for fighter me of a duel (catalogue.choice_for).
Choice choice_for(const Catalogue& cat, const Tables& t, int id, int me) {
    const Catalogue::Template x = cat.decode(t, id);
    Choice ch;
    if (x.fixed != kNone) {
        static constexpr std::array<int, kFixedCount> kind{kCPhase, kCPhase, kCEnd, kCRelease,
                                                          kCPass, kCHold, kCHold};
        static constexpr std::array<int, kFixedCount> option{1, 0, 0, 0, 0, 1, 0};
        ch.kind = kind[static_cast<std::size_t>(x.fixed)];
        ch.option = option[static_cast<std::size_t>(x.fixed)];
    } else if (x.risk != kNone) {
        ch.kind = kCRisk;
        ch.risk = x.risk;
    } else {
        ch.kind = kCManeuver;
        ch.maneuver = x.maneuver;
        ch.turn = x.turn;
        ch.location = x.location;
        ch.option = x.option;
        if (t.is_attack[static_cast<std::size_t>(x.maneuver)] != 0) ch.target = 1 - me;
    }
    return ch;
}

}  // namespace

DuelVector::DuelVector(const Fight& proto, Catalogue cat, ObsLayout layout,
                       std::vector<float> unit_factor, VectorOptions opt, int n)
    : t_(proto.t), cat_(std::move(cat)), lay_(std::move(layout)),
      unit_(std::move(unit_factor)), opt_(opt), slots_(static_cast<std::size_t>(n)) {
    if (proto.s.n() != 2) throw std::invalid_argument("a vector of duels: two fighters");
    if (static_cast<int>(unit_.size()) != lay_.size) {
        throw std::invalid_argument("unit_factor: one factor per observation number");
    }
    set_protos({proto});
}

void DuelVector::set_protos(std::vector<Fight> protos) {
    if (protos.empty() || protos.size() > 64) throw std::invalid_argument("protos: 1..64 fights");
    for (Fight& p : protos) {
        if (p.s.n() != 2) throw std::invalid_argument("proto: a duel, two fighters");
        if (p.t != t_) throw std::invalid_argument("proto: a fight of the vector's rules (tables)");
        p.record_events = opt_.events;  // every episode's copy inherits it
    }
    protos_ = std::move(protos);
}

void DuelVector::set_pool(int k, OpponentPool pool) {
    if (k < 0 || k >= n()) throw std::out_of_range("slot: outside the vector");
    if (pool.external < 0.0 || pool.external > 1.0) throw std::invalid_argument("external: a probability");
    if (pool.external > 0.0 && pool.n_external < 1) throw std::invalid_argument("external: no external player");
    if (pool.external < 1.0 && pool.players.empty() && pool.n_external > 0) {
        throw std::invalid_argument("a pool needs native players unless every episode is external");
    }
    for (const Player* p : pool.players) {
        if (p == nullptr) throw std::invalid_argument("a pool's player is None");
    }
    if (pools_.empty()) pools_.resize(slots_.size());
    pools_[static_cast<std::size_t>(k)] = std::move(pool);
    external_ = false;
    for (const OpponentPool& q : pools_) external_ = external_ || q.n_external > 0;
}

// An episode of slot k: the agent's side, its prototype (a ranged start), the dice's
// generator, the opponent (a slot with a pool draws it after the dice: a slot without one
// draws exactly what it always drew), the first turn. The agent's first decision comes from
// settle().
void DuelVector::begin_episode(Slot& s, int k) {
    s.side = opt_.side != kNone ? opt_.side : static_cast<int>(s.rng.bounded(1));
    // several prototypes (a ranged start): one drawn here; one prototype draws nothing, so
    // fixed starts play exactly the episodes they always played
    s.start = protos_.size() > 1 ? static_cast<int>(s.rng.bounded(static_cast<std::uint32_t>(protos_.size() - 1))) : 0;
    s.fight = protos_[static_cast<std::size_t>(s.start)];
    Dice& d = s.fight.dice;
    const std::uint64_t hi = s.rng.next64(), lo = s.rng.next64();
    const std::uint64_t ihi = s.rng.next64(), ilo = s.rng.next64();
    d.rng.state = make_u128(hi, lo);
    d.rng.inc = make_u128(ihi, ilo | 1U);
    d.rng.has_uint32 = false;
    d.pos = d.len = 0;
    ++episodes_;
    ++s.episode;
    s.opponent = kRandomOpponent;
    s.opponent_seed = 0;
    if (!pools_.empty()) {
        OpponentPool& pool = pools_[static_cast<std::size_t>(k)];
        if (!pool.players.empty() || pool.n_external > 0) {
            const double u = static_cast<double>(s.rng.next64() >> 11) * 0x1.0p-53;
            // a native player and an external one draw alike (which one, then its seed): the
            // caller re-seeds its own with opponent_seed, so the same agent gives the same
            // episode in either language
            if (u < pool.external) {
                s.opponent = kExternalBase + static_cast<int>(s.rng.bounded(static_cast<std::uint32_t>(pool.n_external - 1)));
                s.opponent_seed = s.rng.next64();
            } else {
                s.opponent = static_cast<int>(s.rng.bounded(static_cast<std::uint32_t>(pool.players.size() - 1)));
                s.opponent_seed = s.rng.next64();
                pool.players[static_cast<std::size_t>(s.opponent)]->reset(s.opponent_seed);
            }
        }
    }
    s.fight.start();
    s.fresh = true;
    s.waiting = s.scoring = s.end_pending = false;
    s.streak = s.illegal = 0;
}

bool DuelVector::run_opponent(Slot& s, int k) {
    while (s.fight.has_pending && s.fight.pending.fighter != s.side) {
        const auto n = static_cast<std::uint32_t>(s.fight.choices.size());
        std::uint32_t idx = 0;
        if (s.opponent == kRandomOpponent) {
            idx = n == 1 ? 0U : s.rng.bounded(n - 1U);
        } else if (s.opponent >= kExternalBase) {
            return true;
        } else {
            Player* p = pools_[static_cast<std::size_t>(k)].players[static_cast<std::size_t>(s.opponent)];
            const auto t0 = std::chrono::steady_clock::now();
            const int got = p->act(s.fight);
            opponent_ns_ += std::chrono::duration_cast<std::chrono::nanoseconds>(
                std::chrono::steady_clock::now() - t0).count();
            if (got < 0 || static_cast<std::uint32_t>(got) >= n) {
                throw std::out_of_range("an opponent player returned a legal index outside the list");
            }
            idx = static_cast<std::uint32_t>(got);
        }
        const Choice ch = s.fight.choices[idx];
        s.fight.apply(ch);
    }
    return false;
}

// The duel as fighter `me` sees it (the agent, or an external opponent deciding): the
// observation, the exact mask, and its legal ids kept in `legal` (what a step or an answer
// is checked against).
void DuelVector::observe_as(Slot& s, int me, float* obs, std::int8_t* mask, std::vector<int>& legal) {
    ObsContext ctx = obs_context(s.fight, cat_, *t_, me);
    std::fill(mask, mask + cat_.n, static_cast<std::int8_t>(0));
    for (int id : ctx.legal_ids) mask[id] = 1;
    write_observation(*t_, cat_, lay_, s.fight.s, ctx, me, 1 - me, obs);
    legal = std::move(ctx.legal_ids);
    if (opt_.unit) {
        for (int k = 0; k < lay_.size; ++k) obs[k] *= unit_[static_cast<std::size_t>(k)];
    }
}

void DuelVector::observe(Slot& s, float* obs, std::int8_t* mask) { observe_as(s, s.side, obs, mask, s.legal); }

void DuelVector::observe_opponent(Slot& s, float* obs, std::int8_t* mask) {
    observe_as(s, 1 - s.side, obs, mask, s.opp_legal);
}

// The step's reward once the opponent has answered: wound levels inflicted - taken since the
// agent's action (shaping), and +1/-1/0 if the fight ended.
void DuelVector::score(Slot& s, int k, const VectorBuffers& b) {
    const int me = s.side;
    s.delta = (wound_total(s.fight, 1 - me) - s.inflicted) - (wound_total(s.fight, me) - s.taken);
    float r = opt_.shaping * static_cast<float>(s.delta);
    if (s.fight.over) {
        b.terminated[k] = 1;
        const int w = s.fight.result.winner;
        b.outcome[k] = w == kNone ? 0 : (w == me ? 1 : -1);
        r += static_cast<float>(b.outcome[k]);
        s.end_pending = opt_.autoreset;
    }
    b.reward[k] = r;
    s.scoring = false;
}

// Slot k goes on until its agent must decide: the opponent plays (or the slot waits for the
// caller's), the step is scored, an ended episode restarts (same-step autoreset), and the
// observation is written.
void DuelVector::settle(int k, const VectorBuffers& b) {
    Slot& s = slot(k);
    for (int attempt = 0;; ++attempt) {
        if (run_opponent(s, k)) {
            if (b.waiting == nullptr) throw std::invalid_argument("an external opponent needs the waiting buffers");
            s.waiting = true;
            b.waiting[k] = 1 + (s.opponent - kExternalBase);
            observe_opponent(s, b.opp_obs + static_cast<std::ptrdiff_t>(k) * lay_.size,
                             b.opp_mask + static_cast<std::ptrdiff_t>(k) * cat_.n);
            return;
        }
        if (s.fresh && s.fight.over) {  // never an episode that ends before the agent decides
            if (attempt >= 1000) throw std::runtime_error("1000 fights in a row ended before the agent had a decision");
            begin_episode(s, k);
            continue;
        }
        if (s.scoring) score(s, k, b);
        if (s.end_pending) {
            observe(s, b.final_obs + static_cast<std::ptrdiff_t>(k) * lay_.size,
                    b.mask + static_cast<std::ptrdiff_t>(k) * cat_.n);
            b.has_final[k] = 1;
            begin_episode(s, k);
            continue;
        }
        break;
    }
    if (b.waiting != nullptr) b.waiting[k] = 0;
    observe(s, b.obs + static_cast<std::ptrdiff_t>(k) * lay_.size, b.mask + static_cast<std::ptrdiff_t>(k) * cat_.n);
    b.side[k] = s.side;
}

void DuelVector::reset(const std::vector<Pcg64>& rngs, const VectorBuffers& b) {
    if (static_cast<int>(rngs.size()) != n()) throw std::invalid_argument("one generator per slot");
    if (external_ && b.waiting == nullptr) throw std::invalid_argument("an external opponent needs the waiting buffers");
    for (int k = 0; k < n(); ++k) {
        Slot& s = slot(k);
        s.rng = rngs[static_cast<std::size_t>(k)];
        begin_episode(s, k);
        b.terminated[k] = b.truncated[k] = b.has_final[k] = 0;
        settle(k, b);
    }
}

void DuelVector::step(const std::int64_t* actions, const VectorBuffers& b) {
    for (int k = 0; k < n(); ++k) {
        if (slot(k).waiting) throw std::invalid_argument("answer the waiting opponents before the next step");
    }
    for (int k = 0; k < n(); ++k) {
        Slot& s = slot(k);
        const std::int64_t a = actions[k];
        b.terminated[k] = b.truncated[k] = b.has_final[k] = 0;
        b.illegal[k] = kNone;
        b.outcome[k] = 0;
        if (a < 0 || a >= cat_.n) throw std::out_of_range("action outside the catalogue");
        const bool legal = std::find(s.legal.begin(), s.legal.end(), a) != s.legal.end();
        if (!legal) {  // rejected: the fight unchanged (FightEnv._reject)
            ++s.streak;
            ++s.illegal;
            s.delta = 0;
            b.illegal[k] = static_cast<std::int32_t>(a);
            b.reward[k] = opt_.illegal_penalty;
            if (opt_.illegal_limit != kNone && s.streak >= opt_.illegal_limit) {
                b.truncated[k] = 1;
                s.end_pending = opt_.autoreset;
            }
        } else {
            s.streak = 0;
            s.fresh = false;
            s.inflicted = wound_total(s.fight, 1 - s.side);
            s.taken = wound_total(s.fight, s.side);
            s.fight.apply(choice_for(cat_, *t_, static_cast<int>(a), s.side));
            s.scoring = true;
        }
        settle(k, b);
    }
}

void DuelVector::answer(const std::int64_t* actions, const VectorBuffers& b) {
    for (int k = 0; k < n(); ++k) {
        Slot& s = slot(k);
        if (!s.waiting) continue;
        const std::int64_t a = actions[k];
        if (std::find(s.opp_legal.begin(), s.opp_legal.end(), a) == s.opp_legal.end()) {
            throw std::invalid_argument("slot " + std::to_string(k) + ": the opponent's id " + std::to_string(a) +
                                        " is not legal (answer with its mask)");
        }
        s.waiting = false;
        s.fight.apply(choice_for(cat_, *t_, static_cast<int>(a), 1 - s.side));
        settle(k, b);
    }
}

}  // namespace hexdojo
