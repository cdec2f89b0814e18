// A learned policy as a native player (net_player.hpp).
#include "net_player.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <numeric>

namespace hexdojo::bots {

void fast_tanh(float* v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const float x = v[i];
        const float a = std::min(std::fabs(x), 9.5F);  // tanhf is 1 in float from ~9.01
        const float z = a * a;
        const float small = a + a * z * ((((-5.70498872745E-3F * z + 2.06390887954E-2F) * z -
                                            5.37397155531E-2F) * z + 1.33314422036E-1F) * z -
                                          3.33332819422E-1F);
        const float y = 2.0F * a;  // e^y = 2^n e^r, |r| <= ln2 / 2
        const auto ni = static_cast<std::int32_t>(y * 1.44269504088896341F + 0.5F);
        const auto fn = static_cast<float>(ni);
        const float r = (y - fn * 0.693359375F) - fn * -2.12194440e-4F;
        float p = ((((1.9875691500E-4F * r + 1.3981999507E-3F) * r + 8.3334519073E-3F) * r +
                    4.1665795894E-2F) * r + 1.6666665459E-1F) * r + 5.0000001201E-1F;
        p = p * (r * r) + r + 1.0F;
        const float e = p * std::bit_cast<float>((ni + 127) << 23);
        const float t = a < 0.625F ? small : 1.0F - 2.0F / (e + 1.0F);
        v[i] = x < 0.0F ? -t : t;
    }
}

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
