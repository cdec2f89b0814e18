// Resolution frames of the native core (RULES §1.4-1.19): the
// turn, a phase, a move and the reactions it triggers, an attack, a hit, a follow-on, a
// hold break. Each frame's step() does the automatic work and returns the decision someone
// must make (with its legal choices), or nothing after changing the stack; answer() records
// a decision. The frames themselves are plain values (fight.hpp).
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "fight.hpp"

namespace hexdojo {

struct Asked {  // a decision, its legal choices and the window they come from (if any)
    Decision d;
    std::vector<Choice> choices;
    bool has_window = false;
    Window window;
    Asked(Decision dd, std::vector<Choice> cc) : d(dd), choices(std::move(cc)) {}
    Asked(Decision dd, std::vector<Choice> cc, bool hw, Window ww)
        : d(dd), choices(std::move(cc)), has_window(hw), window(std::move(ww)) {}
};

// What a player knows when choosing the risk of a pending roll or whether to soak
// (Frame.roll_context): the basic values both sides will roll on, by fighter; for an
// attack's rolls the attack, its aim and the target's reaction; for a soak the wound level.
struct RollContext {
    bool attack = false;
    int attacker = kNone, maneuver = kNone, location = kNone, reaction = kNone;
    bool has_wound = false;
    int wound = 0;
    std::vector<std::pair<int, int>> basics;
};
RollContext roll_context(Fight& c);

std::optional<Asked> step(Fight& c, Frame& fr);
void answer(Fight& c, Frame& fr, const Choice& ch);

// Start the maneuver ch of fighter i (an action, reaction or follow-on).
void dispatch(Fight& c, int i, const Choice& ch, int via, Locked restrict = {});

}  // namespace hexdojo
