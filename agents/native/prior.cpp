// The search's learned prior (prior.hpp).
#include "prior.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include "vector_env.hpp"

namespace hexdojo::bots {

namespace {

void forward(const Dense& d, const std::vector<float>& x, std::vector<float>& y) {
    y.assign(d.b.begin(), d.b.end());
    float* out = y.data();
    const auto n = static_cast<std::size_t>(d.out);
    for (std::size_t k = 0; k < static_cast<std::size_t>(d.in); ++k) {
        const float xk = x[k];
        if (xk == 0.0F) continue;  // observations are mostly zeros (one-hot fields)
        const float* row = d.wt.data() + k * n;
        for (std::size_t o = 0; o < n; ++o) out[o] += row[o] * xk;
    }
    if (d.activation == 1) {
        for (std::size_t o = 0; o < n; ++o) out[o] = std::tanh(out[o]);
    } else if (d.activation == 2) {
        for (std::size_t o = 0; o < n; ++o) out[o] = std::max(out[o], 0.0F);
    }
}

}  // namespace

const std::vector<float>& NetEval::inputs(Fight& c) {
    if (!c.has_pending) throw std::invalid_argument("prior: the fight is over");
    const PriorInputs& in = net_->in;
    const int me = c.pending.fighter;
    ctx_ = obs_context(c, *in.cat, *c.t, me);
    const std::vector<float>& extra = in.extra[static_cast<std::size_t>(me)];
    const auto n = static_cast<std::size_t>(in.layout.size);
    x_.assign(n + extra.size(), 0.0F);
    write_observation(*c.t, *in.cat, in.layout, c.s, ctx_, me, 1 - me, x_.data());
    if (!in.unit.empty()) {
        for (std::size_t k = 0; k < n; ++k) x_[k] *= in.unit[k];
    }
    std::copy(extra.begin(), extra.end(), x_.begin() + static_cast<std::ptrdiff_t>(n));
    return x_;
}

void NetEval::legal_logits(Fight& c, std::vector<float>& out) {
    inputs(c);
    for (const Dense& d : net_->layers) {
        forward(d, x_, y_);
        std::swap(x_, y_);
    }
    out.clear();
    for (int id : ctx_.legal_ids) out.push_back(x_[static_cast<std::size_t>(id)]);
}

std::vector<float> PriorPolicy::legal_logits(Fight& c) {
    std::vector<float> out;
    eval_.legal_logits(c, out);
    const PriorInputs& in = eval_.network().in;
    if (!in.lean.empty()) {
        const ObsContext& ctx = eval_.context();
        const std::size_t row = static_cast<std::size_t>(c.pending.kind) * static_cast<std::size_t>(in.cat->n);
        for (std::size_t j = 0; j < out.size(); ++j) {
            out[j] += in.lean[row + static_cast<std::size_t>(ctx.legal_ids[j])];
        }
    }
    return out;
}

std::vector<int> PriorPolicy::ranked(Fight& c) {
    const std::vector<float> z = legal_logits(c);
    std::vector<int> order(z.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&z](int a, int b) {
        return z[static_cast<std::size_t>(a)] > z[static_cast<std::size_t>(b)];
    });
    return order;
}

std::vector<double> CallbackPrior::scores(const Fight& c) const {
    if (!c.has_pending) throw std::invalid_argument("prior: the fight is over");
    std::vector<double> z = score_(c);
    const std::size_t n = c.legal().size();
    if (z.size() != n) {
        throw std::invalid_argument("prior: " + std::to_string(z.size()) + " scores for " +
                                    std::to_string(n) + " legal choices: allowed one per legal choice");
    }
    for (double v : z) {
        if (!std::isfinite(v)) throw std::invalid_argument("prior: a score is not finite: allowed finite numbers");
    }
    return z;
}

std::vector<int> CallbackPrior::ranked(Fight& c) {
    const std::vector<double> z = scores(c);
    std::vector<int> order(z.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&z](int a, int b) {
        return z[static_cast<std::size_t>(a)] > z[static_cast<std::size_t>(b)];
    });
    return order;
}

}  // namespace hexdojo::bots
