// A learned policy's ranking inside the search: the native search's prior (issue 32 "one
// search: the native search takes a prior"; issue 33 section 3, the master level).
//
// The policy is SB3's MlpPolicy actor, its weights copied out of torch once: dense layers
// (W x + b, then tanh, relu or nothing) from the decider's observation to one logit per
// catalogue action. The observation is the core's own (write_observation, the layout and unit
// scaling Python owns), with a fixed vector per fighter appended (the general NPC's two
// sheets, envs/sheets.py). Ranking sorts the legal choices by logit, ties in legal order (the
// logits agree with torch's to ~1e-5, tests/agents/test_search_prior.py: float32 sums in
// another order, so only near-ties could rank otherwise than torch would).
//
// A styled policy (the general NPC's --style) ranks by its logits plus the style's lean, as
// LearnedAgent.act chooses. Only the ranking is learned: act() (rollouts, and the decisions a search leaves to its
// policy: forced ones, risk, soak, hold) is the rollout policy's, whose odds are exact there.
//
// The prior's other form, CallbackPrior, asks a scorer for the ranking (OpenSpiel's MCTSBot
// with a pluggable Evaluator): bind_prior.cpp makes the scorer from a Python callable, which
// agents/search_core.py wraps so that it sees a Python State over a copy of the fight; for
// plug-ins and experiments, at the price of a Python call per tree node expanded.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "catalogue.hpp"
#include "fight.hpp"
#include "observe.hpp"
#include "search.hpp"

namespace hexdojo::bots {

// One dense layer: out = act(W in + b), W stored transposed (in x out, row k = input k's
// weights) so the sum over inputs runs down contiguous output vectors (vectorised without
// reordering any one output's additions).
struct Dense {
    int in = 0, out = 0;
    std::vector<float> wt, b;
    int activation = 0;  // 0 none, 1 tanh, 2 relu
};

// The observation a prior reads: the catalogue, layout and unit factors of its encoder and
// what is appended per deciding fighter.
struct PriorInputs {
    const Catalogue* cat = nullptr;
    ObsLayout layout;
    std::vector<float> unit;                 // one per layout entry (empty: raw)
    std::array<std::vector<float>, 2> extra;  // appended for fighter 0 / 1 (may be empty)
    // A style lean (LearnedAgent.style): lean[kind * cat.n + id] is added to action id's logit
    // at a decision of that DecisionKind (Python computes it from agents/style.py style_move
    // and the style_bias); empty: the policy as trained.
    std::vector<float> lean;
};

// A learned actor: what it reads and its dense layers, built once (the weights copied out
// of torch) and shared, read-only, by the priors and players made from it (net_player.hpp).
struct Network {
    PriorInputs in;
    std::vector<Dense> layers;
    // the last layer's weights again, untransposed (out x in, row o = output o's weights): a
    // decision needs only its legal choices' logits, each one dot product in the same order
    // of additions as the transposed sweep (the same floats, ~10% of the sweep's work)
    std::vector<float> head;
};

// tanh of v[0..n) in place, vectorised (net_player.cpp, built with -fno-trapping-math so that
// the compiler may vectorise its branch-free selects): Cephes' tanhf polynomial below 0.625,
// else 1 - 2 / (e^2|x| + 1) with a Cephes-style expf; within 2 ulps of the C library's tanhf.
void fast_tanh(float* v, std::size_t n);

// A Network asked at a fight's open decision, with the scratch one user needs (a prior or
// a player has its own: the network is shared, the scratch is not).
class NetEval {
public:
    // exact_tanh: the C library's tanh (the search's prior: its pinned rankings); else
    // fast_tanh (the native player: within 2 ulps, vectorised)
    explicit NetEval(std::shared_ptr<const Network> net, bool exact_tanh = true)
        : net_(std::move(net)), exact_tanh_(exact_tanh) {}
    // The network's input at c's open decision (the decider's observation, then his extra).
    const std::vector<float>& inputs(Fight& c);
    // The network's logit of each legal choice (legal order) at c's open decision, without
    // the lean; context().legal_ids then holds their catalogue ids.
    void legal_logits(Fight& c, std::vector<float>& out);
    const ObsContext& context() const { return ctx_; }
    const Network& network() const { return *net_; }

private:
    std::shared_ptr<const Network> net_;
    bool exact_tanh_;
    ObsContext ctx_;            // the open decision's (its legal ids)
    std::vector<float> x_, y_;  // scratch: the layers' inputs and outputs
};

class PriorPolicy final : public Policy {
public:
    PriorPolicy(Policy& rollout, std::shared_ptr<const Network> net) : rollout_(&rollout), eval_(std::move(net)) {}
    int act(Fight& c) override { return rollout_->act(c); }
    std::vector<int> ranked(Fight& c) override;
    void check(const Fight& c) const override { rollout_->check(c); }
    // The network's logit (plus the lean) of each legal choice (legal order) at c's open decision.
    std::vector<float> legal_logits(Fight& c);
    // The network's input at c's open decision (the decider's observation, then his extra).
    const std::vector<float>& inputs(Fight& c) { return eval_.inputs(c); }

private:
    Policy* rollout_;
    NetEval eval_;
};

// One score per legal choice (legal order) at the fight's open decision, higher first.
using Scorer = std::function<std::vector<double>(const Fight&)>;

// A ranking asked of a scorer: the legal choices sorted by score, higher first, ties in legal
// order (the sort is stable); the rollout policy plays, as for PriorPolicy.
class CallbackPrior final : public Policy {
public:
    CallbackPrior(Policy& rollout, Scorer score) : rollout_(&rollout), score_(std::move(score)) {}
    int act(Fight& c) override { return rollout_->act(c); }
    std::vector<int> ranked(Fight& c) override;
    void check(const Fight& c) const override { rollout_->check(c); }
    // The scorer's answer at c's open decision, checked: one finite score per legal choice
    // (else std::invalid_argument saying what came back).
    std::vector<double> scores(const Fight& c) const;

private:
    Policy* rollout_;
    Scorer score_;
};

}  // namespace hexdojo::bots
