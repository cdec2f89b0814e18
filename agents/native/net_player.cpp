// A learned policy as a native player (net_player.hpp).
#include "net_player.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace hexdojo::bots {

const std::vector<double>& NetPlayer::scores(Fight& c) {
    eval_.legal_logits(c, z_);
    const PriorInputs& in = eval_.network().in;
    const std::vector<int>& ids = eval_.context().legal_ids;
    s_.assign(z_.begin(), z_.end());
    if (!in.lean.empty()) {
        const std::size_t row = static_cast<std::size_t>(c.pending.kind) * static_cast<std::size_t>(in.cat->n);
        for (std::size_t j = 0; j < s_.size(); ++j) {
            s_[j] += static_cast<double>(in.lean[row + static_cast<std::size_t>(ids[j])]);
        }
    }
    order_.resize(ids.size());
    std::iota(order_.begin(), order_.end(), 0);
    std::sort(order_.begin(), order_.end(), [&ids](int a, int b) {
        return ids[static_cast<std::size_t>(a)] < ids[static_cast<std::size_t>(b)];
    });
    return s_;
}

// The first maximum in catalogue-id order (numpy's and torch's argmax over the id-ordered mask).
int NetPlayer::argmax() const {
    int best = order_[0];
    for (int k : order_) {
        if (s_[static_cast<std::size_t>(k)] > s_[static_cast<std::size_t>(best)]) best = k;
    }
    return best;
}

// LearnedAgent._tempered: p = exp((z - max) / T) / sum, then Generator.choice(n, p=p).
int NetPlayer::sample() {
    const std::size_t n = order_.size();
    const double top = s_[static_cast<std::size_t>(argmax())];
    p_.resize(n);
    double sum = 0.0;
    for (std::size_t j = 0; j < n; ++j) {
        p_[j] = std::exp((s_[static_cast<std::size_t>(order_[j])] - top) / temperature_);
        sum += p_[j];
    }
    double run = 0.0;
    for (std::size_t j = 0; j < n; ++j) {  // p / p.sum(), then its cumsum
        run += p_[j] / sum;
        p_[j] = run;
    }
    const double last = p_[n - 1];
    for (double& v : p_) v /= last;
    const double u = static_cast<double>(rng_.next64() >> 11U) * (1.0 / 9007199254740992.0);
    const auto at = static_cast<std::size_t>(std::upper_bound(p_.begin(), p_.end(), u) - p_.begin());
    return order_[std::min(at, n - 1)];
}

int NetPlayer::act(Fight& c) {
    scores(c);
    if (order_.empty()) return 0;
    return temperature_ > 0.0 ? sample() : argmax();
}

}  // namespace hexdojo::bots
