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

// out = b + sum over k of W[k] x[k], k ascending, zero inputs skipped (observations are mostly
// zeros: one-hot fields). kBlock outputs at a time are summed in registers (one pass over the
// inputs per block instead of a load and store of every output per input); each output's
// additions keep their order, so the floats are those of one output at a time.
constexpr std::size_t kBlock = 64;

void dense_sum(const Dense& d, const std::vector<float>& x, std::vector<float>& y) {
    y.assign(d.b.begin(), d.b.end());
    float* out = y.data();
    const auto n = static_cast<std::size_t>(d.out);
    const auto in = static_cast<std::size_t>(d.in);
    std::size_t ob = 0;
    for (; ob + kBlock <= n; ob += kBlock) {
        float acc[kBlock];
        std::copy(out + ob, out + ob + kBlock, acc);
        for (std::size_t k = 0; k < in; ++k) {
            const float xk = x[k];
            if (xk == 0.0F) continue;
            const float* row = d.wt.data() + k * n + ob;
            for (std::size_t j = 0; j < kBlock; ++j) acc[j] += row[j] * xk;
        }
        std::copy(acc, acc + kBlock, out + ob);
    }
    for (std::size_t k = 0; k < in && ob < n; ++k) {  // the outputs after the last whole block
        const float xk = x[k];
        if (xk == 0.0F) continue;
        const float* row = d.wt.data() + k * n;
        for (std::size_t o = ob; o < n; ++o) out[o] += row[o] * xk;
    }
}

void activate(int activation, float* v, std::size_t n, bool exact) {
    if (activation == 1) {
        if (!exact) {
            fast_tanh(v, n);
            return;
        }
        for (std::size_t o = 0; o < n; ++o) v[o] = std::tanh(v[o]);
    } else if (activation == 2) {
        for (std::size_t o = 0; o < n; ++o) v[o] = std::max(v[o], 0.0F);
    }
}

// The last layer's outputs `ids` alone (untransposed rows `head`), eight at a time: dense_sum's
// sum for each, in its order (eight independent sums in flight instead of one at a time).
void head_sums(const Dense& last, const std::vector<float>& head, const std::vector<float>& x,
               const std::vector<int>& ids, std::vector<float>& out) {
    constexpr std::size_t kLanes = 8;
    const auto n = static_cast<std::size_t>(last.in);
    const std::size_t m = ids.size();
    out.resize(m);
    for (std::size_t j0 = 0; j0 < m; j0 += kLanes) {
        const std::size_t lanes = std::min(kLanes, m - j0);
        const float* w[kLanes];
        float acc[kLanes];
        for (std::size_t j = 0; j < kLanes; ++j) {  // a short block repeats its first output
            const auto o = static_cast<std::size_t>(ids[j0 + (j < lanes ? j : 0)]);
            w[j] = head.data() + o * n;
            acc[j] = last.b[o];
        }
        for (std::size_t k = 0; k < n; ++k) {
            const float xk = x[k];
            if (xk == 0.0F) continue;
            for (std::size_t j = 0; j < kLanes; ++j) acc[j] += w[j][k] * xk;
        }
        std::copy(acc, acc + lanes, out.begin() + static_cast<std::ptrdiff_t>(j0));
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
    const std::vector<Dense>& layers = net_->layers;
    for (std::size_t l = 0; l + 1 < layers.size(); ++l) {
        dense_sum(layers[l], x_, y_);
        activate(layers[l].activation, y_.data(), y_.size(), exact_tanh_);
        std::swap(x_, y_);
    }
    const Dense& last = layers.back();
    head_sums(last, net_->head, x_, ctx_.legal_ids, out);
    activate(last.activation, out.data(), out.size(), exact_tanh_);
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
