// The search agents (agents/search.py SearchAgent, agents/mcts.py MCTSAgent, agents/guided.py
// GuidedMCTS; their Python side is agents/search_core.py): determinised simulations over the
// rules core's own fights, each on a clone with fresh dice (seeding.hpp), the candidates ranked
// and the rollouts played by a policy, the outcome scored by evaluate(). This is the only
// search: the Python agents hold its parameters and generator and ask it for each decision.
//
// The policy is an interface (Policy: act and ranked as legal indices), so the tree logic can
// be checked with a trivial policy (FirstChoicePolicy, RotatePolicy) as well as with the
// scripted fighter (ScriptedBot, scripted.hpp) or a learned prior (PriorPolicy, prior.hpp).
// An opponent model is a Policy too (RandomPolicy: random legal play, reset from each
// simulation's seed). The per-decision seeds come from the agent's own generator in Python:
// the search asks a SeedSource for them, so a seeded agent replays its choices. A time budget
// (ms per decision, 0: none) stops the search after the simulation during which it runs out
// (steady_clock); the seeds are drawn for the whole budget of simulations either way.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

#include "fight.hpp"
#include "pcg64.hpp"
#include "player.hpp"
#include "seeding.hpp"

namespace hexdojo::bots {

// What a search asks of a policy: the legal index it plays, and the legal indices best first.
class Policy {
public:
    virtual ~Policy() = default;
    virtual int act(Fight& c) = 0;
    virtual std::vector<int> ranked(Fight& c) = 0;
    // throws std::invalid_argument if the policy cannot play this fight (another rule set)
    virtual void check(const Fight& /*c*/) const {}
    // An opponent model's fresh start at each simulation (Agent.reset(seed % 2**31)).
    virtual void reset(std::uint64_t /*seed*/) {}
};

// The trivial policy of the tests: the first legal choice, the legal list's order.
class FirstChoicePolicy final : public Policy {
public:
    int act(Fight& c) override;
    std::vector<int> ranked(Fight& c) override;
};

// The tests' other trivial policy (the first choice rarely changes a fight): the legal list
// rotated to start at (3 * turn + 5 * fighter + n) % n; act plays its first.
class RotatePolicy final : public Policy {
public:
    int act(Fight& c) override;
    std::vector<int> ranked(Fight& c) override;
};

// agents/scripted.py RandomAgent as an opponent model: numpy's default_rng(seed).integers(n)
// (RandomPlayer's draws, players.hpp), reset from each simulation's seed; ranked: legal order.
class RandomPolicy final : public Policy {
public:
    int act(Fight& c) override;
    std::vector<int> ranked(Fight& c) override;
    void reset(std::uint64_t seed) override { rng_ = pcg64_from_seed(seed); }

private:
    Pcg64 rng_ = pcg64_from_seed(0);
};

// A bot with ScriptedBot's act/ranked (and knowledge().t: its rule set) as a Policy; the
// bot is not owned (bind_search.cpp keeps it alive).
template <class Bot>
class PolicyOf final : public Policy {
public:
    explicit PolicyOf(Bot& b) : bot(&b) {}
    int act(Fight& c) override { return bot->act(c); }
    std::vector<int> ranked(Fight& c) override { return bot->ranked(c); }
    void check(const Fight& c) const override {
        if (c.t != bot->knowledge().t) {
            throw std::invalid_argument("search: the fight's rules are not the policy bot's");
        }
    }
    Bot* bot;
};

// search.SEARCH_PARAMS and mcts.MCTS_PARAMS (validated in Python), and the dice's sides.
struct SearchParams {
    int sims = 96;
    int width = 4;
    int horizon = 2;
    double c = 0.7;
    double caution = 0.0;
    int sides = 6;
    double time_ms = 0.0;  // budget per decision (0: none; results then depend on the machine)
};

// n per-decision seeds, each in 0 .. 2^63 - 2, drawn where the Python agent draws them.
using SeedSource = std::function<std::vector<std::int64_t>(int)>;

// search.SEARCHED: the decision kinds a search agent searches (action, reaction, follow-on,
// phase); the others (soak, risk, hold) and forced ones are left to the policy.
bool searched(int decision_kind);

// search.evaluate: +1 won, -1 lost, 0 drawn; an unfinished fight scores wounds and position,
// tanh(score / 30) * 0.9 (std::tanh: Python's evaluate uses math.tanh, the same libm call).
double evaluate(const Fight& s, int me, double caution);

// Take the k-th legal choice.
void apply_index(Fight& c, int k);

// search.RolloutSearch: the policy, an optional opponent model, the budgets.
class RolloutSearch {
public:
    RolloutSearch(Policy& policy, Policy* model, SearchParams p)
        : policy_(policy), model_(model), p_(p) {}

    // The policy's choice where there is nothing to search, else -1 (throws
    // std::invalid_argument on a finished fight).
    int policy_only(Fight& s);
    // A copy of the fight (no event log kept) that rolls fresh dice: Dice(seed, sides).
    Fight fresh_clone(const Fight& base, std::uint64_t seed) const;
    // The policy plays both sides until the fight ends or turn `stop` is over (the side
    // other than `me` played by the opponent model where there is one and me != kNone).
    void play_out(Fight& sim, int stop, int me = kNone);
    double score(const Fight& sim, int me) const { return evaluate(sim, me, p_.caution); }
    // Legal indices the root may not take (the lab's bans: agents/lab/runner.py asks again on
    // a view without the banned maneuvers); the simulations below the root play on unbanned.
    void ban_at_root(std::vector<int> banned) { banned_ = std::move(banned); }

protected:
    // The root's ranked candidates without the banned ones (rank order kept).
    std::vector<int> allowed(std::vector<int> ranked) const;
    // The root as the simulations copy it: the fight without its event log.
    static Fight base_of(const Fight& s);
    // When the time budget runs out (time_point::max() without one), from now.
    std::chrono::steady_clock::time_point deadline() const;

    Policy& policy_;
    Policy* model_;
    SearchParams p_;
    std::vector<int> banned_;
};

// search.SearchAgent: flat Monte-Carlo over the policy's best `width`, common random numbers.
class FlatSearch : public RolloutSearch {
public:
    using RolloutSearch::RolloutSearch;
    int act(Fight& s, const SeedSource& seeds);
    double rollout(const Fight& base, int first, std::uint64_t seed, int me);
    // the rollouts per candidate, in rank order, after the last act() that searched
    const std::vector<int>& counts() const { return counts_; }

private:
    std::vector<int> counts_;
};

// mcts.Node, in one pool: a node's children are `n` consecutive nodes from `first`, in the
// policy's rank order, each with the choice that leads to it.
struct Node {
    int visits = 0;
    double value = 0.0;
    int first = -1;
    int n = 0;
    Choice choice;  // the choice from the parent (unused at the root)
};

// mcts.MCTSAgent: open-loop UCT with the policy's top `width` as children.
class Mcts : public RolloutSearch {
public:
    using RolloutSearch::RolloutSearch;
    int act(Fight& s, const SeedSource& seeds);
    // the root's visits per child, in rank order, after the last act() that searched
    std::vector<int> root_visits() const;

private:
    void expand(int node, Fight& sim);
    int select(int node, const Fight& sim, double sign) const;  // a child node, or -1
    void simulate(const Fight& base, std::uint64_t seed, int me);

    std::vector<Node> nodes_;
};

// An MCTSAgent or SearchAgent as a native player (the tournament's fast path, play.hpp): its
// own numpy generator, natively (PCG64 seeded by SeedSequence, Generator.integers for the
// per-decision seeds), so a whole fight between native players runs without a Python call.
class SearchPlayer final : public Player {
public:
    // mcts: MCTSAgent, else SearchAgent; rng: the agent's generator as it stands
    SearchPlayer(bool mcts, Policy& policy, Policy* model, SearchParams p, Pcg64 rng)
        : mcts_(mcts), policy_(policy), model_(model), p_(p), rng_(rng) {}
    // RolloutSearch.reset(seed): np.random.default_rng(seed)
    void reset(std::uint64_t seed) override;
    int act(Fight& c) override;
    const Pcg64& rng() const { return rng_; }

private:
    bool mcts_;
    Policy& policy_;
    Policy* model_;
    SearchParams p_;
    Pcg64 rng_;
};

}  // namespace hexdojo::bots
