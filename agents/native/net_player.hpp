// A learned policy as a native player (issue 30: a past self or checkpoint played inside the
// core, no Python per decision): LearnedAgent.act's choice at each decision, made by the
// network the search's prior runs (prior.hpp Network: an SB3 MlpPolicy actor's layers on the
// core's own observation, the general NPC's sheets and a style lean included).
//
// Its choice is LearnedAgent's (agents/policy.py):
// - temperature 0 (deterministic, or a style without a temperature): the arg-max of the legal
//   logits plus the lean, ties to the lowest catalogue id (what SB3's predict and numpy's
//   argmax over the id-ordered mask pick; the legal order is not the id order);
// - temperature T > 0: LearnedAgent._tempered's draw from its own numpy generator, re-seeded as
//   default_rng(seed) by reset(seed): softmax((z - max z) / T) over the legal choices in id
//   order, normalised, then Generator.choice's inverse CDF on one random() double (cumsum,
//   divided by its last entry, searchsorted right). The sums run in order where numpy sums
//   pairwise, and z is the raw logit where Python reads the log-softmax: the same draw unless
//   the uniform lands within a few ulps of a cumulative boundary.
// The logits agree with torch's to ~1e-5 (float32 sums in another order; tanh is fast_tanh,
// within 2 ulps of the C library's), so only near-ties could choose otherwise than torch
// (tests/agents/test_learned_native_player.py counts them).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "pcg64.hpp"
#include "player.hpp"
#include "prior.hpp"
#include "seeding.hpp"

namespace hexdojo::bots {

class NetPlayer final : public Player {
public:
    NetPlayer(std::shared_ptr<const Network> net, double temperature, Pcg64 rng)
        : eval_(std::move(net), false), temperature_(temperature), rng_(rng) {}
    void reset(std::uint64_t seed) override { rng_ = pcg64_from_seed(seed); }
    int act(Fight& c) override;
    // The score of each legal choice (legal order): its logit plus the lean, in double.
    const std::vector<double>& scores(Fight& c);
    double temperature() const { return temperature_; }

private:
    int argmax() const;
    int sample();

    NetEval eval_;
    double temperature_;
    Pcg64 rng_;
    std::vector<float> z_;
    std::vector<double> s_, p_;
    std::vector<int> order_;  // legal indices by ascending catalogue id
};

}  // namespace hexdojo::bots
