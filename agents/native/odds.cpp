// Odds::problem (odds.hpp): the sizes the tables handed over from Python must have.
#include "odds.hpp"

namespace hexdojo::bots {

std::string Odds::problem() const {
    if (max_risk < 0 || max_risk > 64) {
        return "odds: max_risk " + std::to_string(max_risk) + ": allowed 0..64";
    }
    const std::size_t r1 = static_cast<std::size_t>(max_risk) + 1;
    auto size = [](const char* what, std::size_t got, std::size_t want) -> std::string {
        if (got == want) return "";
        return std::string("odds.") + what + ": " + std::to_string(got) + " entries, " +
               std::to_string(want) + " needed (max_risk and SPAN)";
    };
    for (const std::string& s : {size("single vals", single_vals.size(), r1),
                                 size("single probs", single_probs.size(), r1),
                                 size("p_gt", p_gt.size(), r1 * r1 * kWidth),
                                 size("m_gt", m_gt.size(), r1 * r1 * kWidth),
                                 size("best_first", best_first.size(), kWidth),
                                 size("best_answer", best_answer.size(), r1 * kWidth)}) {
        if (!s.empty()) return s;
    }
    for (std::size_t n = 0; n < r1; ++n) {
        if (single_vals[n].size() != single_probs[n].size() || single_vals[n].empty()) {
            return "odds.single[" + std::to_string(n) + "]: values and probabilities differ in "
                   "length (or are empty)";
        }
    }
    for (int r : best_first) {
        if (r < 0 || r > max_risk) return "odds.best_first: risk " + std::to_string(r) + " out of range";
    }
    for (int r : best_answer) {
        if (r < 0 || r > max_risk) return "odds.best_answer: risk " + std::to_string(r) + " out of range";
    }
    return "";
}

}  // namespace hexdojo::bots
