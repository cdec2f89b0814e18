// The native vector of duels (vector_env.hpp).
#include "vector_env.hpp"

#include <algorithm>
#include <stdexcept>

namespace hexdojo {

ObsContext obs_context(Combat& c, const Catalogue& cat, const Tables& t, int me) {
    ObsContext o;
    o.phasing = phasing(c);
    const DecisionContext x = decision_context(c);
    if (!x.pending) return o;
    o.fighter = x.d.fighter;
    o.kind = x.d.kind;  // fight.hpp's DecisionKind is model.DECISION_KINDS' order
    o.about = x.d.about == kAboutNone ? kNone : x.d.about - 1;  // RISK_ABOUT has no ""
    o.attack = x.attack;
    o.arc = x.arc;
    o.location = x.location;
    o.closing = x.closing;
    o.after = x.after;
    if (x.roll) {
        o.reaction = x.r.attack ? x.r.reaction : kNone;
        o.wound = x.r.has_wound ? x.r.wound : kNone;
        o.basics = x.r.basics;
    }
    o.weapon = x.weapon;
    o.mode = x.mode;
    // the hand whose weapon a block locked (observation.locked_hands)
    if (c.has_window) {
        const Window& w = c.window;
        const int hand = locked_hand(t, w.restrict_location);
        if (hand != kNone) {
            if (w.kind == WindowKind::kFollowOn) {
                const int who = w.locked_fighter != kNone ? w.locked_fighter
                                : (c.s.n() == 2 ? 1 - w.fighter : kNone);
                if (who != kNone) o.locked_hand[static_cast<std::size_t>(who)] = hand;
            } else {
                o.locked_hand[static_cast<std::size_t>(w.fighter)] = hand;
            }
        }
    }
    if (x.d.fighter == me) {
        o.legal_ids.reserve(c.choices.size());  // one allocation (20-50 ids: six before)
        for (const Choice& ch : c.choices) {
            int id = kNone;
            switch (ch.kind) {
                case kCPhase: id = ch.option == 1 ? kPhaseNow : kPhaseWait; break;
                case kCEnd: id = kEndPhase; break;
                case kCRelease: id = kReleaseHold; break;
                case kCPass: id = kPass; break;
                case kCHold: id = ch.option == 1 ? kHoldMoveAlong : kHoldLetGo; break;
                case kCRisk: id = cat.risk_id(ch.risk); break;
                default: id = cat.maneuver_id(t, ch.maneuver, ch.turn, ch.location, ch.option);
            }
            if (id == kNone) throw std::runtime_error("a legal choice has no catalogue id");
            o.legal_ids.push_back(id);
        }
    }
    return o;
}

namespace {

int wound_total(const Combat& c, int i) {
    int total = 0;
    for (const Wound& w : c.s.fighters[static_cast<std::size_t>(i)].wounds) total += w.level;
    return total;
}

// The engine choice an id means for fighter me of a duel (catalogue.choice_for).
Choice choice_for(const Catalogue& cat, const Tables& t, int id, int me) {
    const Catalogue::Template x = cat.decode(t, id);
    Choice ch;
    if (x.fixed != kNone) {
        static constexpr std::array<int, kFixedCount> kind{kCPhase, kCPhase, kCEnd, kCRelease,
                                                          kCPass, kCHold, kCHold};
        static constexpr std::array<int, kFixedCount> option{1, 0, 0, 0, 0, 1, 0};
        ch.kind = kind[static_cast<std::size_t>(x.fixed)];
        ch.option = option[static_cast<std::size_t>(x.fixed)];
    } else if (x.risk != kNone) {
        ch.kind = kCRisk;
        ch.risk = x.risk;
    } else {
        ch.kind = kCManeuver;
        ch.maneuver = x.maneuver;
        ch.turn = x.turn;
        ch.location = x.location;
        ch.option = x.option;
        if (t.is_attack[static_cast<std::size_t>(x.maneuver)] != 0) ch.target = 1 - me;
    }
    return ch;
}

}  // namespace

DuelVector::DuelVector(const Combat& proto, Catalogue cat, ObsLayout layout,
                       std::vector<float> unit_factor, VectorOptions opt, int n)
    : proto_(proto), t_(proto.t), cat_(std::move(cat)), lay_(std::move(layout)),
      unit_(std::move(unit_factor)), opt_(opt), slots_(static_cast<std::size_t>(n)) {
    if (proto_.s.n() != 2) throw std::invalid_argument("a vector of duels: two fighters");
    proto_.record_events = opt_.events;  // every episode's copy inherits it
    if (static_cast<int>(unit_.size()) != lay_.size) {
        throw std::invalid_argument("unit_factor: one factor per observation number");
    }
}

void DuelVector::start_episode(Slot& s) {
    // never an episode that ends before the agent is asked anything (FightEnv.reset)
    for (int attempt = 0; attempt < 1000; ++attempt) {
        s.side = opt_.side != kNone ? opt_.side : static_cast<int>(s.rng.bounded(1));
        s.fight = proto_;
        Dice& d = s.fight.dice;
        const std::uint64_t hi = s.rng.next64(), lo = s.rng.next64();
        const std::uint64_t ihi = s.rng.next64(), ilo = s.rng.next64();
        d.rng.state = make_u128(hi, lo);
        d.rng.inc = make_u128(ihi, ilo | 1U);
        d.rng.has_uint32 = false;
        d.pos = d.len = 0;
        ++episodes_;
        s.fight.start();
        run_opponent(s);
        if (!s.fight.over) {
            s.streak = s.illegal = 0;
            return;
        }
    }
    throw std::runtime_error("1000 fights in a row ended before the agent had a decision");
}

void DuelVector::run_opponent(Slot& s) {
    while (s.fight.has_pending && s.fight.pending.fighter != s.side) {
        const auto n = static_cast<std::uint32_t>(s.fight.choices.size());
        const std::uint32_t k = n == 1 ? 0U : s.rng.bounded(n - 1U);
        const Choice ch = s.fight.choices[k];
        s.fight.apply(ch);
    }
}

void DuelVector::observe(Slot& s, float* obs, std::int8_t* mask) {
    ObsContext ctx = obs_context(s.fight, cat_, *t_, s.side);
    std::fill(mask, mask + cat_.n, static_cast<std::int8_t>(0));
    for (int id : ctx.legal_ids) mask[id] = 1;
    write_observation(*t_, cat_, lay_, s.fight.s, ctx, s.side, 1 - s.side, obs);
    s.legal = std::move(ctx.legal_ids);
    if (opt_.unit) {
        for (int k = 0; k < lay_.size; ++k) obs[k] *= unit_[static_cast<std::size_t>(k)];
    }
}

void DuelVector::reset(const std::vector<Pcg64>& rngs, const VectorBuffers& b) {
    if (static_cast<int>(rngs.size()) != n()) throw std::invalid_argument("one generator per slot");
    for (int k = 0; k < n(); ++k) {
        Slot& s = slot(k);
        s.rng = rngs[static_cast<std::size_t>(k)];
        start_episode(s);
        observe(s, b.obs + static_cast<std::ptrdiff_t>(k) * lay_.size,
                b.mask + static_cast<std::ptrdiff_t>(k) * cat_.n);
        b.side[k] = s.side;
    }
}

void DuelVector::step(const std::int64_t* actions, const VectorBuffers& b) {
    for (int k = 0; k < n(); ++k) {
        Slot& s = slot(k);
        float* obs = b.obs + static_cast<std::ptrdiff_t>(k) * lay_.size;
        std::int8_t* mask = b.mask + static_cast<std::ptrdiff_t>(k) * cat_.n;
        const std::int64_t a = actions[k];
        b.terminated[k] = b.truncated[k] = b.has_final[k] = 0;
        b.illegal[k] = kNone;
        b.outcome[k] = 0;
        if (a < 0 || a >= cat_.n) throw std::out_of_range("action outside the catalogue");
        const bool legal = std::find(s.legal.begin(), s.legal.end(), a) != s.legal.end();
        if (!legal) {  // rejected: the fight unchanged (FightEnv._reject)
            ++s.streak;
            ++s.illegal;
            s.delta = 0;
            b.illegal[k] = static_cast<std::int32_t>(a);
            b.reward[k] = opt_.illegal_penalty;
            if (opt_.illegal_limit != kNone && s.streak >= opt_.illegal_limit) b.truncated[k] = 1;
        } else {
            s.streak = 0;
            const int me = s.side;
            const int inflicted = wound_total(s.fight, 1 - me), taken = wound_total(s.fight, me);
            s.fight.apply(choice_for(cat_, *t_, static_cast<int>(a), me));
            run_opponent(s);
            s.delta = (wound_total(s.fight, 1 - me) - inflicted) - (wound_total(s.fight, me) - taken);
            float r = opt_.shaping * static_cast<float>(s.delta);
            if (s.fight.over) {
                b.terminated[k] = 1;
                const int w = s.fight.result.winner;
                b.outcome[k] = w == kNone ? 0 : (w == me ? 1 : -1);
                r += static_cast<float>(b.outcome[k]);
            }
            b.reward[k] = r;
        }
        if (opt_.autoreset && (b.terminated[k] != 0 || b.truncated[k] != 0)) {
            observe(s, b.final_obs + static_cast<std::ptrdiff_t>(k) * lay_.size, mask);
            b.has_final[k] = 1;
            start_episode(s);
        }
        observe(s, obs, mask);
        b.side[k] = s.side;
    }
}

}  // namespace hexdojo
