// The scripted agents' dice odds (agents/odds.py Odds tables) for the C++ Knowledge: exact
// tables of one roll's results and of two opposed rolls, computed ONCE per rule set by Python
// (numpy, agents/odds.py owns them) and handed over as arrays (bind_knowledge.cpp), so every
// probability is the double Python computed. The lookups below read those tables as
// agents/odds.py's Odds methods do.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace hexdojo::bots {

// One roll's results (half points) and their probabilities: result k is vals[k] + basic
// (odds.Odds.dist: vals + basic, pm).
struct Dist {
    const int* vals = nullptr;
    const double* probs = nullptr;
    int n = 0;      // how many results
    int basic = 0;  // added to every value
    int value(int k) const { return vals[k] + basic; }
    double prob(int k) const { return probs[k]; }
};

struct Odds {
    // odds.SPAN: differences of half-point basic values covered by the tables (beyond: clamped)
    static constexpr int SPAN = 120;
    static constexpr int kWidth = 2 * SPAN + 1;

    int sides = 0, max_risk = 0, per_die_h = 0;
    // odds.Odds.single[n] = (vals, probs) for n = 0 .. max_risk
    std::vector<std::vector<int>> single_vals;
    std::vector<std::vector<double>> single_probs;
    // p_gt[ra][rd][k], m_gt[ra][rd][k], flattened: ((ra * (R+1)) + rd) * kWidth + k
    std::vector<double> p_gt, m_gt;
    std::vector<int> best_first;   // [k]
    std::vector<int> best_answer;  // [ra * kWidth + k]

    // "" when the tables have the sizes max_risk and SPAN give them (and risks in range),
    // else the problem (the binding refuses such tables).
    std::string problem() const;

    // odds.Odds._k
    static int k_of(int c) {
        const int k = c + SPAN;
        return k < 0 ? 0 : (k > 2 * SPAN ? 2 * SPAN : k);
    }
    double pg(int ra, int rd, int k) const {
        return p_gt[(static_cast<std::size_t>(ra) * static_cast<std::size_t>(max_risk + 1) +
                     static_cast<std::size_t>(rd)) * kWidth + static_cast<std::size_t>(k)];
    }
    double mg(int ra, int rd, int k) const {
        return m_gt[(static_cast<std::size_t>(ra) * static_cast<std::size_t>(max_risk + 1) +
                     static_cast<std::size_t>(rd)) * kWidth + static_cast<std::size_t>(k)];
    }
    // P(attack result > defence result) (>= when not strict)
    double p_beat(int basic_a, int ra, int basic_d, int rd, bool strict = true) const {
        return pg(ra, rd, k_of(basic_a - basic_d + (strict ? 0 : 1)));
    }
    // E[margin | attack wins] in half points (0 when it cannot win)
    double margin(int basic_a, int ra, int basic_d, int rd) const {
        const int k = k_of(basic_a - basic_d);
        const double p = pg(ra, rd, k);
        return p > 1e-12 ? mg(ra, rd, k) / p : 0.0;
    }
    // dice to risk when I choose first and the other side answers as well as it can
    int first_risk(int basic_mine, int basic_theirs) const {
        return best_first[static_cast<std::size_t>(k_of(basic_mine - basic_theirs))];
    }
    // dice to risk, knowing theirs, to beat (strictly) or hold off the other roll
    int answer_risk(int basic_mine, int basic_theirs, int their_risk) const {
        return best_answer[static_cast<std::size_t>(their_risk) * kWidth +
                           static_cast<std::size_t>(k_of(basic_theirs - basic_mine))];
    }
    // result values (half points) and probabilities of one roll on basic risking n dice
    Dist dist(int basic, int n) const {
        const auto& v = single_vals[static_cast<std::size_t>(n)];
        return Dist{v.data(), single_probs[static_cast<std::size_t>(n)].data(),
                    static_cast<int>(v.size()), basic};
    }
};

}  // namespace hexdojo::bots
