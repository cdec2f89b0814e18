// Resolution frames of the native core (envs/rules/resolution.py; RULES §1.4-1.19): the
// turn, a phase, a move and the reactions it triggers, an attack, a hit, a follow-on, a
// hold break. Each frame's step() does the automatic work and returns the decision someone
// must make (with its legal choices), or nothing after changing the stack; answer() records
// a decision. The frames themselves are plain values (fight.hpp).
#pragma once

#include <optional>
#include <vector>

#include "fight.hpp"

namespace hexdojo {

struct Asked {  // a decision and its legal choices
    Decision d;
    std::vector<Choice> choices;
};

std::optional<Asked> step(Combat& c, Frame& fr);
void answer(Combat& c, Frame& fr, const Choice& ch);

// Start the maneuver ch of fighter i (an action, reaction or follow-on).
void dispatch(Combat& c, int i, const Choice& ch, int via, Locked restrict = {});

}  // namespace hexdojo
