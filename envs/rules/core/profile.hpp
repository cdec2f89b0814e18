// A compiled fighter sheet (envs/rules/fighter.py Profile), numbers in half points, names
// as the ids of the Tables it was compiled for (native.compile_profile).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "tables.hpp"

namespace hexdojo {

// The default dice a fighter risks on each roll (fighter.RiskSpec).
struct Risk {
    int ap = 1, initiative = 1, damage = 1, pain = 0, knockback = 0, lock_damage = 1;
};

struct Profile {
    std::string name, rules_id;  // rules_id: the Tables' id it was compiled for
    std::vector<int> chars;   // by characteristic id (§1.1)
    std::vector<int> skills;  // by skill id (§1.2)
    std::vector<int> specs;   // by specialism id; 0 where the sheet has none
    std::vector<int> pv;      // protection value by location id (§1.10 aom1c4)
    int enc_mod = 0;          // §1.16, not yet doubled for Martial Arts
    int helmet_mod = 0;       // §1.4 aom312: on rolls of helmets.characteristic
    bool mounted = false;
    int height = 0;
    Risk risk;
    std::array<int, 2> hands{kNone, kNone};  // weapon ids in the right and left hand
    std::vector<int> sheathed;               // weapon ids

    int skill(int id) const { return id == kNone ? 0 : skills[static_cast<std::size_t>(id)]; }
    int chr(int id) const { return id == kNone ? 0 : chars[static_cast<std::size_t>(id)]; }
    int spec_total(const std::vector<int>& ids) const {
        int s = 0;
        for (int i : ids) s += specs[static_cast<std::size_t>(i)];
        return s;
    }
};

// "" when p fits t (every table the right size, every weapon id known), else the problem.
inline std::string profile_problem(const Tables& t, const Profile& p) {
    auto sz = [](const char* f, std::size_t got, std::size_t want) -> std::string {
        if (got == want) return "";
        return std::string("profile.") + f + ": " + std::to_string(got) + " entries, " +
               std::to_string(want) + " needed (the rules' table)";
    };
    if (p.rules_id != t.id) {
        return "profile " + p.name + ": compiled for rules " + p.rules_id + ", not " + t.id;
    }
    for (auto s : {sz("chars", p.chars.size(), t.characteristics.size()),
                   sz("skills", p.skills.size(), t.skills.size()),
                   sz("specs", p.specs.size(), t.specialisms.size()),
                   sz("pv", p.pv.size(), t.locations.size())}) {
        if (!s.empty()) return s;
    }
    const int nw = static_cast<int>(t.weapon_ids.size());
    auto bad = [nw](int w) { return w != kNone && (w < 0 || w >= nw); };
    for (int w : p.hands) {
        if (bad(w)) return "profile.hands: weapon id " + std::to_string(w) + ": unknown";
    }
    for (int w : p.sheathed) {
        if (w == kNone || bad(w)) return "profile.sheathed: weapon id " + std::to_string(w) + ": unknown";
    }
    return "";
}

}  // namespace hexdojo
