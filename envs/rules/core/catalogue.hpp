// The flat action catalogue of a duel (envs/catalogue.py): every choice a duellist can ever
// make as one integer id, and the exact mask of a decision written into a byte buffer. Ids
// are computed, not looked up: a maneuver's block of ids starts at its base and runs over
// its parameter domain (param_domain, tables.cpp) turn-major, then location, then option. The
// core owns this layout: envs/catalogue.py reads it back id by id (decode) and adds the names
// and Choice objects (issue 32: one owner, no second enumeration).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tables.hpp"

namespace hexdojo {

// The non-maneuver choices, in id order (notation.FIXED_WORDS): phase act now / wait, end
// phase, release hold, pass, hold: move along / let go.
enum FixedChoice : int {
    kPhaseNow = 0, kPhaseWait, kEndPhase, kReleaseHold, kPass, kHoldMoveAlong, kHoldLetGo,
    kFixedCount,
};

struct Catalogue {
    int n = 0;               // catalogue size
    int first_risk = kFixedCount;
    int first_maneuver = 0;  // id of the first maneuver choice
    bool armed = false;
    std::vector<int> maneuvers;  // maneuver ids in catalogue order
    std::vector<int> base;       // by maneuver id: its first id, kNone if not in the catalogue
    std::vector<int> index;      // by maneuver id: its place in maneuvers, kNone if absent
    std::vector<int> maneuver_of;  // by id: the place in maneuvers of its maneuver, kNone

    Catalogue() = default;

    // The unarmed maneuvers (Duel-v0/v1), then with armed every other available one in the
    // data's order (the weapon maneuvers), so the unarmed ids are a prefix of the armed ones.
    Catalogue(const Tables& t, bool with_weapons) : armed(with_weapons) {
        first_maneuver = first_risk + t.dice.max_risk + 1;
        maneuvers = t.unarmed_maneuvers;
        if (armed) {
            std::vector<bool> listed(static_cast<std::size_t>(t.n_maneuvers()), false);
            for (int m : t.unarmed_maneuvers) listed[static_cast<std::size_t>(m)] = true;
            for (int m = 0; m < t.n_maneuvers(); ++m) {
                if (t.maneuvers[static_cast<std::size_t>(m)].available &&
                    !listed[static_cast<std::size_t>(m)]) {
                    maneuvers.push_back(m);
                }
            }
        }
        base.assign(static_cast<std::size_t>(t.n_maneuvers()), kNone);
        index.assign(static_cast<std::size_t>(t.n_maneuvers()), kNone);
        maneuver_of.assign(static_cast<std::size_t>(first_maneuver), kNone);
        int next = first_maneuver;
        for (std::size_t k = 0; k < maneuvers.size(); ++k) {
            const auto m = static_cast<std::size_t>(maneuvers[k]);
            base[m] = next;
            index[m] = static_cast<int>(k);
            const Domain& d = t.domain[m];
            next += static_cast<int>(d.turns.size() * d.locations.size() * d.options.size());
            maneuver_of.resize(static_cast<std::size_t>(next), static_cast<int>(k));
        }
        n = next;
    }

    int risk_id(int dice) const { return first_risk + dice; }

    // The id of maneuver m with turn, location (kNone: unaimed) and option; kNone when the
    // catalogue has no such choice.
    int maneuver_id(const Tables& t, int m, int turn, int location, int option) const {
        if (m < 0 || m >= static_cast<int>(base.size())) return kNone;
        const int b = base[static_cast<std::size_t>(m)];
        if (b == kNone) return kNone;
        const Domain& d = t.domain[static_cast<std::size_t>(m)];
        const int ti = index_of(d.turns, turn);
        const int li = index_of(d.locations, location);
        const int oi = index_of(d.options, option);
        if (ti < 0 || li < 0 || oi < 0) return kNone;
        const int nl = static_cast<int>(d.locations.size());
        const int no = static_cast<int>(d.options.size());
        return b + (ti * nl + li) * no + oi;
    }

    // What id means: a fixed choice (FixedChoice), a risk level, or a maneuver with its turn,
    // location (kNone: unaimed) and option (catalogue.templates; the target is the caller's).
    struct Template {
        int fixed = kNone;  // a FixedChoice, or kNone
        int risk = kNone;   // dice risked, or kNone
        int maneuver = kNone, turn = 0, location = kNone, option = 0;
    };

    Template decode(const Tables& t, int id) const {
        Template out;
        if (id < 0 || id >= n) return out;
        if (id < first_risk) {
            out.fixed = id;
        } else if (id < first_maneuver) {
            out.risk = id - first_risk;
        } else {
            const int m = maneuvers[static_cast<std::size_t>(maneuver_of[static_cast<std::size_t>(id)])];
            const Domain& d = t.domain[static_cast<std::size_t>(m)];
            const int nl = static_cast<int>(d.locations.size());
            const int no = static_cast<int>(d.options.size());
            const int k = id - base[static_cast<std::size_t>(m)];
            out.maneuver = m;
            out.turn = d.turns[static_cast<std::size_t>(k / (nl * no))];
            out.location = d.locations[static_cast<std::size_t>((k / no) % nl)];
            out.option = d.options[static_cast<std::size_t>(k % no)];
        }
        return out;
    }

  private:
    static int index_of(const std::vector<int>& v, int x) {
        for (std::size_t k = 0; k < v.size(); ++k) {
            if (v[k] == x) return static_cast<int>(k);
        }
        return -1;
    }
};

}  // namespace hexdojo
