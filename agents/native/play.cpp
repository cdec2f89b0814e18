#include "play.hpp"

#include <stdexcept>
#include <string>

namespace hexdojo::bots {

std::vector<Played> play(Fight& c, const std::vector<Player*>& players,
                         const std::vector<int>& sides, bool record_events) {
    c.record_events = record_events;
    std::vector<Played> out;
    out.reserve(64);
    while (!c.over && c.has_pending) {
        Played p;
        p.fighter = c.pending.fighter;
        p.kind = c.pending.kind;
        const auto side = static_cast<std::size_t>(sides.at(static_cast<std::size_t>(p.fighter)));
        Player* pl = players.at(side);
        p.index = pl->act(c);
        const auto& legal = c.legal();
        if (p.index < 0 || static_cast<std::size_t>(p.index) >= legal.size()) {
            throw std::out_of_range("player of side " + std::to_string(side) +
                                    " returned legal index " + std::to_string(p.index) +
                                    " of " + std::to_string(legal.size()));
        }
        p.choice = legal[static_cast<std::size_t>(p.index)];
        p.events = static_cast<int>(c.events.size());
        if (p.kind == kDFollowOn && c.has_window) p.after = c.window.after;
        out.push_back(p);
        c.apply(p.choice);
    }
    return out;
}

}  // namespace hexdojo::bots
