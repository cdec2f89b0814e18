// The search agents' bodies (search.hpp). The operations keep the order of the Python search
// they replaced (issue 32), so the pinned choices (tests/agents/search_fights.py) are its.
#include "search.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "knowledge.hpp"  // WOUND_VALUE
#include "seeding.hpp"

namespace hexdojo::bots {

namespace {

// the scripted agents' WOUND_VALUE by wound level (knowledge.hpp: the one copy)
constexpr int kWoundLevels = static_cast<int>(WOUND_VALUE.size());

double wound_value(int level) {
    if (level < 0 || level >= kWoundLevels) {
        throw std::out_of_range("evaluate: wound level " + std::to_string(level) +
                                ": WOUND_VALUE has levels 0.." + std::to_string(kWoundLevels - 1));
    }
    return WOUND_VALUE[static_cast<std::size_t>(level)];
}

}  // namespace

int FirstChoicePolicy::act(Fight& c) {
    if (c.legal().empty()) throw std::invalid_argument("act() called on a finished fight");
    return 0;
}

std::vector<int> FirstChoicePolicy::ranked(Fight& c) {
    std::vector<int> out(c.legal().size());
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = static_cast<int>(k);
    return out;
}

namespace {
int rotation(const Fight& c) {
    const int n = static_cast<int>(c.legal().size());
    if (n == 0) throw std::invalid_argument("act() called on a finished fight");
    return (3 * c.s.turn + 5 * c.pending.fighter + n) % n;
}
}  // namespace

int RotatePolicy::act(Fight& c) { return rotation(c); }

std::vector<int> RotatePolicy::ranked(Fight& c) {
    const int n = static_cast<int>(c.legal().size());
    const int k0 = rotation(c);
    std::vector<int> out(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) out[static_cast<std::size_t>(k)] = (k0 + k) % n;
    return out;
}

int RandomPolicy::act(Fight& c) {
    const auto n = static_cast<std::uint32_t>(c.legal().size());
    if (n == 0) throw std::invalid_argument("act() called on a finished fight");
    return n == 1 ? 0 : static_cast<int>(rng_.bounded(n - 1U));
}

std::vector<int> RandomPolicy::ranked(Fight& c) {
    std::vector<int> out(c.legal().size());
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = static_cast<int>(k);
    return out;
}

bool searched(int kind) {
    return kind == kDAction || kind == kDReaction || kind == kDFollowOn || kind == kDPhase;
}

double evaluate(const Fight& s, int me, double caution) {
    if (s.over) {
        const int w = s.result.winner;
        return w == kNone ? 0.0 : (w == me ? 1.0 : -1.0);
    }
    double score = 0.0;
    for (const FighterState& f : s.s.fighters) {
        double hurt = 0.0;  // sum(...) starts from int 0: 0 + x is x
        for (const Wound& w : f.wounds) hurt += wound_value(w.level);
        hurt = hurt + 2.0 * f.worst;
        if (f.prone) hurt += 3.0;
        score += f.idx == me ? -(1.0 + caution) * hurt : hurt;
    }
    return std::tanh(score / 30.0) * 0.9;
}

void apply_index(Fight& c, int k) {
    const auto& legal = c.legal();
    if (k < 0 || static_cast<std::size_t>(k) >= legal.size()) {
        throw std::out_of_range("search: policy returned legal index " + std::to_string(k) +
                                " of " + std::to_string(legal.size()));
    }
    const Choice ch = legal[static_cast<std::size_t>(k)];
    c.apply(ch);
}

// ======================================================================= RolloutSearch
int RolloutSearch::policy_only(Fight& s) {
    if (s.over || !s.has_pending || s.legal().empty()) {
        throw std::invalid_argument("act() called on a finished fight");
    }
    if (s.legal().size() == 1 || !searched(s.pending.kind)) return policy_.act(s);
    return -1;
}

std::vector<int> RolloutSearch::allowed(std::vector<int> ranked) const {
    if (banned_.empty()) return ranked;
    std::erase_if(ranked, [this](int k) {
        return std::find(banned_.begin(), banned_.end(), k) != banned_.end();
    });
    return ranked;
}

Fight RolloutSearch::base_of(const Fight& s) {
    Fight c(s);
    c.events = EventLog{};  // nothing in a simulation reads the log
    c.record_events = false;
    return c;
}

std::chrono::steady_clock::time_point RolloutSearch::deadline() const {
    using clock = std::chrono::steady_clock;
    if (!(p_.time_ms > 0.0)) return clock::time_point::max();
    return clock::now() + std::chrono::duration_cast<clock::duration>(
                              std::chrono::duration<double, std::milli>(p_.time_ms));
}

Fight RolloutSearch::fresh_clone(const Fight& base, std::uint64_t seed) const {
    Fight c(base);
    c.dice = fresh_dice(seed, p_.sides);
    return c;
}

void RolloutSearch::play_out(Fight& sim, int stop, int me) {
    if (model_ == nullptr || me == kNone) {
        while (!sim.over && sim.s.turn <= stop) apply_index(sim, policy_.act(sim));
        return;
    }
    while (!sim.over && sim.s.turn <= stop) {
        Policy& who = sim.pending.fighter == me ? policy_ : *model_;
        apply_index(sim, who.act(sim));
    }
}

// ======================================================================= SearchAgent
int FlatSearch::act(Fight& s, const SeedSource& seeds) {
    counts_.clear();
    const int forced = policy_only(s);
    if (forced >= 0) return forced;
    const Fight base = base_of(s);
    Fight root(base);
    std::vector<int> cands = allowed(policy_.ranked(root));
    if (cands.empty()) return policy_.act(s);  // all banned: the caller's fallback decides
    if (static_cast<int>(cands.size()) > p_.width) cands.resize(static_cast<std::size_t>(p_.width));
    if (cands.size() == 1) return cands[0];
    const int me = s.pending.fighter;
    const int n_c = static_cast<int>(cands.size());
    const int per = std::max(1, p_.sims / n_c);
    const std::vector<std::int64_t> sd = seeds(per);
    if (static_cast<int>(sd.size()) != per) throw std::length_error("search: wrong number of seeds");
    std::vector<double> totals(cands.size(), 0.0);
    std::vector<int>& counts = counts_;
    counts.assign(cands.size(), 0);
    const auto until = deadline();
    for (int n = 0; n < per; ++n) {
        for (int ci = 0; ci < n_c; ++ci) {
            totals[ci] += rollout(base, cands[ci], static_cast<std::uint64_t>(sd[n]), me);
            counts[ci] += 1;
        }
        if (std::chrono::steady_clock::now() > until) break;  // the time budget
    }
    // max mean, ties: the first (key (mean, -ci))
    int best = 0;
    double best_v = totals[0] / counts[0];
    for (int ci = 1; ci < n_c; ++ci) {
        const double v = totals[ci] / counts[ci];
        if (v > best_v) best = ci, best_v = v;
    }
    return cands[best];
}

double FlatSearch::rollout(const Fight& base, int first, std::uint64_t seed, int me) {
    Fight c = fresh_clone(base, seed);
    apply_index(c, first);
    play_out(c, base.s.turn + p_.horizon);
    return score(c, me);
}

// ======================================================================= MCTSAgent
void Mcts::expand(int node, Fight& sim) {
    std::vector<int> r = node == 0 ? allowed(policy_.ranked(sim)) : policy_.ranked(sim);
    if (static_cast<int>(r.size()) > p_.width) r.resize(static_cast<std::size_t>(p_.width));
    const int first = static_cast<int>(nodes_.size());
    const auto& legal = sim.legal();
    for (int k : r) {
        if (k < 0 || static_cast<std::size_t>(k) >= legal.size()) {
            throw std::out_of_range("search: policy ranked legal index " + std::to_string(k) +
                                    " of " + std::to_string(legal.size()));
        }
        Node ch;
        ch.choice = legal[static_cast<std::size_t>(k)];
        nodes_.push_back(ch);
    }
    nodes_[static_cast<std::size_t>(node)].first = first;
    nodes_[static_cast<std::size_t>(node)].n = static_cast<int>(r.size());
}

int Mcts::select(int node, const Fight& sim, double sign) const {
    const Node& nd = nodes_[static_cast<std::size_t>(node)];
    const auto& legal = sim.legal();
    int best = -1;
    double best_u = -INFINITY;
    const double log_n = std::log(static_cast<double>(nd.visits + 1));
    for (int k = nd.first; k < nd.first + nd.n; ++k) {
        const Node& ch = nodes_[static_cast<std::size_t>(k)];
        bool is_legal = false;
        for (const Choice& l : legal) {
            if (l == ch.choice) { is_legal = true; break; }
        }
        if (!is_legal) continue;
        if (ch.visits == 0) return k;
        const double v = static_cast<double>(ch.visits);
        const double u = sign * ch.value / v + p_.c * std::sqrt(log_n / v);
        if (u > best_u) best = k, best_u = u;
    }
    return best;
}

void Mcts::simulate(const Fight& base, std::uint64_t seed, int me) {
    Fight sim = fresh_clone(base, seed);
    if (model_ != nullptr) model_->reset(seed % (std::uint64_t{1} << 31));
    const int stop = base.s.turn + p_.horizon;
    int node = 0;
    std::vector<int> path{0};
    while (!sim.over && sim.s.turn <= stop) {
        const Decision d = sim.pending;
        if (model_ != nullptr && d.fighter != me) {
            apply_index(sim, model_->act(sim));
            continue;
        }
        if (!searched(d.kind) || sim.legal().size() == 1) {
            apply_index(sim, policy_.act(sim));  // odds-exact or forced: no tree node
            continue;
        }
        if (nodes_[static_cast<std::size_t>(node)].n == 0 && node != 0) {
            expand(node, sim);
            break;  // a new leaf: roll out from here
        }
        const int ch = select(node, sim, d.fighter == me ? 1.0 : -1.0);
        if (ch < 0) break;  // none of this node's children is legal here: roll out
        const Choice c = nodes_[static_cast<std::size_t>(ch)].choice;
        sim.apply(c);
        node = ch;
        path.push_back(node);
    }
    play_out(sim, stop, me);
    const double v = score(sim, me);
    for (int k : path) {
        Node& n = nodes_[static_cast<std::size_t>(k)];
        n.visits += 1;
        n.value += v;
    }
}

int Mcts::act(Fight& s, const SeedSource& seeds) {
    nodes_.clear();
    const int forced = policy_only(s);
    if (forced >= 0) return forced;
    const Fight base = base_of(s);
    Fight root(base);
    nodes_.emplace_back();
    expand(0, root);
    const Node r = nodes_[0];
    if (r.n == 0) return policy_.act(s);  // every candidate banned: the caller's fallback decides
    auto index_of = [&](int node) {
        const auto& legal = s.legal();
        const Choice& c = nodes_[static_cast<std::size_t>(node)].choice;
        for (std::size_t k = 0; k < legal.size(); ++k) {
            if (legal[k] == c) return static_cast<int>(k);
        }
        throw std::logic_error("search: a root child is not legal");
    };
    if (r.n == 1) return index_of(r.first);
    const int me = s.pending.fighter;
    const std::vector<std::int64_t> sd = seeds(p_.sims);
    if (static_cast<int>(sd.size()) != p_.sims) throw std::length_error("search: wrong number of seeds");
    const auto until = deadline();
    for (int n = 0; n < p_.sims; ++n) {
        simulate(base, static_cast<std::uint64_t>(sd[n]), me);
        if (std::chrono::steady_clock::now() > until) break;  // the time budget
    }
    // the most visited child (ties: the policy's rank order)
    int best = r.first;
    for (int k = r.first + 1; k < r.first + r.n; ++k) {
        if (nodes_[static_cast<std::size_t>(k)].visits > nodes_[static_cast<std::size_t>(best)].visits) best = k;
    }
    return index_of(best);
}

std::vector<int> Mcts::root_visits() const {
    std::vector<int> out;
    if (nodes_.empty()) return out;
    for (int k = nodes_[0].first; k < nodes_[0].first + nodes_[0].n; ++k) {
        out.push_back(nodes_[static_cast<std::size_t>(k)].visits);
    }
    return out;
}

// ======================================================================= SearchPlayer
void SearchPlayer::reset(std::uint64_t seed) { rng_ = pcg64_from_seed(seed); }

int SearchPlayer::act(Fight& c) {
    policy_.check(c);  // a player handed a fight of another rule set: an error, not a crash
    if (model_ != nullptr) model_->check(c);
    const SeedSource draw = [this](int n) {
        std::vector<std::int64_t> out(static_cast<std::size_t>(n));
        for (auto& v : out) v = seed63(rng_);
        return out;
    };
    if (mcts_) return Mcts(policy_, model_, p_).act(c, draw);
    return FlatSearch(policy_, nullptr, p_).act(c, draw);
}

}  // namespace hexdojo::bots
