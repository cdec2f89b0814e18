"""Scripted fighters: random legal play, a greedy one-ply bot and three fighting styles.

All of them except :class:`RandomAgent` share one scorer (:class:`HeuristicAgent`): every
legal choice gets an expected value from the cheap estimates in :mod:`.heuristics`, and the
best one is played. A *style* is just a set of weights and two tunable parameters:

* ``aggression`` (0..1): how much of the turn's AP a fighter spends in its own phase
  instead of keeping it for reactions while the opponent can still attack;
* ``risk`` (0..6): the most dice it risks on any roll (it takes the odds-best number up to
  that cap; RULES §1.3 gives +1/2 per die, so bold fighters roll more dice).

The styles differ in what they value: the *striker* chains Martial Strikes and kicks, the
*grappler* goes for grab, lock and throw, the *counter-fighter* waits, blocks or dodges
and punishes with follow-ons (it also lets the opponent take its phase first). ``greedy``
is the same scorer with neutral weights and no AP reserve: the best immediate expected
outcome.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from hexdojo.envs.rules import Choice
from hexdojo.envs.rules import formulas as fm
from hexdojo.envs.rules import hexgrid as hx
from hexdojo.envs.rules import weapons as wp
from hexdojo.envs.rules.legality import DEFENSIVE, limb_reason, move_path
from hexdojo.envs.rules.tables import allowed_locations

from . import native_bots
from .base import Agent
from .heuristics import (
    AIMS,
    HOLD_VALUE,
    PRONE_VALUE,
    Knowledge,
    decision_token,
    knowledge,
    option_index,
    same_decision,
)

if TYPE_CHECKING:
    from hexdojo.envs.rules import State


class RandomAgent(Agent):
    """Uniformly random legal choices, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, state: State) -> Choice:
        ch = state.legal_choices()
        return ch[int(self.rng.integers(len(ch)))]

    def native_player(self, game: Any) -> Any | None:
        """The same draws inside the core (``_bots.RandomPlayer``: numpy's PCG64 seeded as
        ``default_rng(seed)``), for the tournament's fast path."""
        if type(self) is not RandomAgent or not native_bots.enabled():
            return None
        from ._bots import RandomPlayer

        return RandomPlayer()


@dataclass(frozen=True)
class Style:
    """Weights of one fighting style. ``aggression`` and ``risk`` are the user knobs."""

    aggression: float = 1.0  # 0..1: spend AP now (1) or keep it for reactions (0)
    risk: int = 6  # 0..6: most dice risked on a roll
    strike: float = 1.0  # punches, head butts, Martial Strikes
    kick: float = 1.0  # kicks, sweeps
    grab: float = 1.0  # grabs, grapples, locks, throws, pull downs
    defend: float = 1.0  # defensive reactions (blocks, dodges, leg grabs)
    counter: float = 1.0  # counter-attacking reactions
    follow: float = 0.0  # flat bonus for opening a follow-on window
    chain: float = 0.0  # weight of the best follow-on a success would open (§3 chains)
    wait: bool = False  # prefer to let the opponent phase first
    approach: float = 0.0  # weight of the attack a step into reach makes possible
    reserve_max: int = 3  # AP kept for defence at aggression 0
    weapon: float = 1.0  # weapon attacks (Stand / Advance and attack, Close Combat Weapon)
    keep_out: float = 1.0  # armed with a melee weapon: how much it avoids the opponent's hex


#: parameters a user may set on the command line, with their allowed ranges
STYLE_PARAMS: dict[str, tuple[type, float, float, str]] = {
    "aggression": (float, 0.0, 1.0, "0 keeps AP for reactions, 1 spends it all in its phase"),
    "risk": (int, 0, 6, "most dice risked on any roll"),
}

STYLES: dict[str, Style] = {
    "greedy": Style(),
    "striker": Style(aggression=1.0, strike=1.6, kick=0.6, grab=0.3, defend=0.7,
                     counter=1.5, follow=2.0, chain=1.0, approach=0.9),
    "grappler": Style(aggression=0.7, strike=0.5, kick=0.25, grab=3.0, defend=1.0,
                      counter=1.0, follow=2.0, chain=0.8, approach=0.9),
    "counter": Style(aggression=0.2, strike=1.0, kick=0.9, grab=0.9, defend=1.4,
                     counter=1.3, follow=4.0, chain=0.5, wait=True, approach=0.5),
    # a fighter with a sword (or spear): keeps the opponent in its strike zone and out of
    # its own hex, strikes with the mode worth most, blocks and parries (issue 19)
    "swordsman": Style(aggression=0.6, strike=0.8, kick=0.5, grab=0.3, defend=1.3,
                       counter=1.4, follow=2.0, chain=0.8, approach=0.6, weapon=1.5,
                       keep_out=2.5),
}

SKIPPED = -1e9  # value of a choice not weighed (an aim off the shortlist)
KICKS = frozenset({"Kick", "Martial Kick", "Spinning Kick", "Leg Sweep"})
GRABS = frozenset({"grab", "lock", "throw", "pull_down", "leg_grab"})


class HeuristicAgent(Agent):
    """Scores every legal choice with :mod:`.heuristics` estimates and plays the best.

    Where it runs: on a native fight (``NativeState``, ``HEXDOJO_ENGINE=native``) ``act``,
    ``ranked`` and ``scored_choices`` are answered by the same agent in C++
    (:mod:`.native_bots`, ``agents/native/scripted.cpp``): the same choice at every decision
    and the same values (``tests/test_bots_scripted.py`` compares them), and a tournament
    plays it inside the core (:meth:`native_player`). On the Python engine, with
    ``native = False`` on the instance or ``HEXDOJO_NATIVE_AGENTS=0``, or for a subclass,
    the Python methods below run (the reference).
    """

    #: False: always the Python methods (the reference the differential tests compare with)
    native = True

    def __init__(self, style: Style | None = None, name: str = "greedy") -> None:
        self.style = style or Style()
        self.name = name
        self._save: dict[int, float] = {}
        self._memo: dict[str, float] = {}  # per decision: chain values by maneuver, closing
        self._at: object = None  # decision_token of the memos' decision
        self._nbot: tuple[Any, Style, Any] | None = None  # (tables, style, native bot)

    # ------------------------------------------------------------------ native form
    def _native(self, state: State) -> tuple[Any, Any] | None:
        """(native bot, core fight) where this agent runs natively on ``state``, else None.
        Only this class itself: a subclass may override the Python methods."""
        if not self.native or type(self) is not HeuristicAgent or not native_bots.enabled():
            return None
        core = native_bots.core_of(state)
        if core is None:
            return None
        return self._bot(state.t), core

    def _bot(self, t: Any) -> Any:
        """The native bot of rule set ``t`` and this style (kept: the lookup's key is the
        style's fields)."""
        got = self._nbot
        if got is None or got[0] is not t or got[1] is not self.style:
            got = self._nbot = (t, self.style, native_bots.bot_for(t, self.style))
        return got[2]

    def native_player(self, game: Any) -> Any | None:
        """The native bot of ``game``'s rule set and this style (a ``_bots.Player``), for
        the tournament's fast path; None where the Python methods must run."""
        if not self.native or type(self) is not HeuristicAgent or not native_bots.enabled():
            return None
        return self._bot(game.tables)

    # ------------------------------------------------------------------ dispatch
    def act(self, state: State) -> Choice:
        d = state.decision
        choices = state.legal_choices()
        if d is None or not choices:
            raise ValueError("act() called on a finished fight")
        nat = self._native(state)
        if nat is not None:
            return choices[nat[0].act(nat[1])]
        self._fresh(state)
        k = knowledge(state)
        kind = d.kind
        if kind == "risk":
            n = min(self.risk_for(state, k, d.fighter, d.about), self.style.risk, k.R)
            return Choice("risk", risk=n) if Choice("risk", risk=n) in choices else choices[0]
        if kind == "phase":
            return self.phase(state, k, d.fighter, choices)
        if kind == "soak":
            return self.soak(state, k, d.fighter, choices)
        if kind == "hold":
            h = state.hold_by(d.fighter)
            keep = h is not None and HOLD_VALUE.get(h.kind, 0) >= 5
            want = Choice("hold", option=1 if keep else 0)
            return want if want in choices else choices[0]
        return self.best(state, k, d.fighter, kind, choices)

    def _fresh(self, state: State) -> None:
        """Per-decision memos are only valid for the decision they were made for."""
        if not same_decision(state, self._at):
            self._at = decision_token(state)
            self._save.clear()
            self._memo.clear()

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def opponent(state: State, i: int) -> int:
        others = state.others(i)
        return others[0] if others else (1 - i if len(state.fighters) == 2 else 0)

    def reserve(self, state: State, i: int, j: int) -> int:
        """AP to keep for reactions: none if the opponent has already had its phase."""
        fj = state.fighters[j]
        if fj.phased or not fj.active:
            return 0
        return round((1.0 - self.style.aggression) * min(fj.ap, self.style.reserve_max))

    def weight(self, k: Knowledge, name: str) -> float:
        m = k.t.maneuvers[name]
        st = self.style
        if m.weapon is not None:
            return st.weapon
        if m.category in GRABS:
            return st.grab
        if name in KICKS:
            return st.kick
        return st.strike

    def phase(self, state: State, k: Knowledge, i: int, choices: list[Choice]) -> Choice:
        j = self.opponent(state, i)
        now = Choice("phase", option=1)
        wait = Choice("phase", option=0)
        if self.style.wait and state.fighters[j].ap > 0 and wait in choices:
            return wait
        return now if now in choices else choices[0]

    # ------------------------------------------------------------------ risk (§1.3)
    def risk_for(self, state: State, k: Knowledge, i: int, about: str) -> int:
        """Dice to risk: the odds-best number for the roll being made (exact tables), on
        the basic values the engine will roll on (``State.context()["basics"]``). The
        side that chooses first (attacker, escaper) plays against the best answer; the
        answering side against the first side's odds-best choice."""
        ctx = state.context()
        basics: dict[int, int] = ctx.get("basics") or {}
        if about == "soak":
            return self.soak_risk(k, basics.get(i), ctx.get("wound", 0))
        mine = basics.get(i)
        theirs = next((v for j, v in basics.items() if j != i), None)
        if mine is None or theirs is None:
            return k.R
        if about in ("attack", "break hold"):
            return k.odds.first_risk(mine, theirs)
        return k.odds.answer_risk(mine, theirs, k.odds.first_risk(theirs, mine))

    def break_basics(self, state: State, i: int, method: int) -> tuple[int, int] | None:
        """Escaper ``i``'s and its holder's basic values for Break Hold by ``method``
        (the engine's :func:`formulas.break_hold_basics`, aom322d), None if not held."""
        h = state.hold_on(i)
        if h is None:
            return None
        (esc, _, _), (hold, _, _) = fm.break_hold_basics(state, i, h, method)
        return esc, hold

    def soak_risk(self, k: Knowledge, basic: int | None, level: int) -> int:
        """Dice that remove the most wound levels on average (§1.11 soak table)."""
        if basic is None:
            return k.R
        best, best_n = -1.0, 0
        for n in range(k.R + 1):
            vals, probs = k.odds.dist(basic, n)
            e = sum(p * min(level, fm.soak_levels(k.t, v))
                    for v, p in zip(vals.tolist(), probs.tolist(), strict=True))
            if e > best + 1e-9:
                best, best_n = e, n
        return best_n

    def soak(self, state: State, k: Knowledge, i: int, choices: list[Choice]) -> Choice:
        """Soak any wound (the level it would reduce: ``State.context()["wound"]``)."""
        level = state.context().get("wound", 0)
        soak = next((c for c in choices if c.kind == "maneuver"), None)
        if soak is not None and level >= 1:
            return soak
        return next((c for c in choices if c.kind == "pass"), choices[0])

    # ------------------------------------------------------------------ maneuvers
    def best(self, state: State, k: Knowledge, i: int, kind: str,
             choices: list[Choice]) -> Choice:
        best_c, best_v = choices[0], -1e18
        for v, c in self.scored(state, k, i, kind, choices):
            if v > best_v:
                best_c, best_v = c, v
        return best_c

    def scored(self, state: State, k: Knowledge, i: int, kind: str,
               choices: list[Choice]) -> list[tuple[float, Choice]]:
        """Every choice of a maneuver window with its estimated value, in list order."""
        ctx = state.context() if kind != "action" else {}
        j = self.opponent(state, i)
        memo: dict[tuple, float] = {}
        turns: dict[tuple, float] = {}
        incoming = self.incoming(state, k, i, ctx) if kind == "reaction" else None
        shortlist = self.aim_shortlist(state, k, i, choices)
        out = []
        for c in choices:
            key = (c.kind, c.maneuver, c.target, c.location, c.option)
            v = memo.get(key)
            if v is None:
                allowed = shortlist.get((c.maneuver, c.target, c.option))
                if allowed is not None and c.location not in allowed:
                    v = SKIPPED
                else:
                    v = self.value(state, k, i, j, kind, c, ctx, incoming)
                memo[key] = v
            if c.turn:
                tk = (c.maneuver, c.target, c.turn)
                tb = turns.get(tk)
                if tb is None:
                    tb = turns[tk] = self.turn_bonus(state, i, c)
                v += tb
            out.append((v, c))
        return out

    def aim_shortlist(self, state: State, k: Knowledge, i: int,
                      choices: list[Choice]) -> dict[tuple, frozenset[str]]:
        """Per attack (maneuver, target, option): the aimed locations worth weighing."""
        locs: dict[tuple, dict[str, None]] = {}
        for c in choices:
            if c.location is not None:
                locs.setdefault((c.maneuver, c.target, c.option), {})[c.location] = None
        out = {}
        for (name, tgt, opt), ls in locs.items():
            if len(ls) <= AIMS or tgt is None:
                continue
            m = k.t.maneuvers[name or ""]
            dtype = opt if len(m.damage_types) > 1 else 0
            out[(name, tgt, opt)] = k.aims(state, i, tgt, name or "", dtype, tuple(ls))
        return out

    def ranked(self, state: State) -> list[Choice]:
        """The legal choices, best first by this agent's estimates (used by search)."""
        d = state.decision
        choices = state.legal_choices()
        nat = self._native(state) if d is not None else None
        if nat is not None:
            return [choices[n] for n in nat[0].ranked(nat[1])]
        if d is None or d.kind not in ("action", "reaction", "follow_on"):
            first = self.act(state)
            return [first] + [c for c in choices if c != first]
        return [c for _, c in self.scored_choices(state)]

    def scored_choices(self, state: State) -> list[tuple[float, Choice]]:
        """A maneuver window's legal choices with their estimated values, best first
        (``hexdojo advise`` shows them); call only for action, reaction and follow-on
        decisions (the others are not scored: :meth:`ranked` puts the pick first)."""
        d = state.decision
        assert d is not None
        nat = self._native(state)
        if nat is not None:
            choices = state.legal_choices()
            return [(v, choices[n]) for v, n in nat[0].scored_choices(nat[1])]
        self._fresh(state)
        k = knowledge(state)
        sc = self.scored(state, k, d.fighter, d.kind, state.legal_choices())
        order = sorted(range(len(sc)), key=lambda n: -sc[n][0])
        return [sc[n] for n in order]

    def chain_value(self, state: State, k: Knowledge, i: int, j: int, name: str) -> float:
        """What the follow-on window opened by ``name`` succeeding is worth (§3)."""
        v = self._memo.get(name)
        if v is None:
            v = k.follow_threat(state, i, j, name, ap_spent=k.t.maneuvers[name].ap)
            self._memo[name] = v
        return v

    def incoming(self, state: State, k: Knowledge, i: int,
                 ctx: dict[str, Any]) -> tuple[int, str, str | None, float, int] | None:
        """The attack being reacted to: (attacker, maneuver, location, value of its hit,
        its option: a weapon attack's hand and mode)."""
        att = ctx.get("attack")
        x = ctx.get("attacker")
        if att is None or x is None or not k.t.is_attack(att):
            return None
        loc = ctx.get("location")
        opt = incoming_option(state, k, att)
        ba = k.attack_basic(state, x, i, att, loc, opt)
        bd = k.default_defence(state, i, x)
        v = k.hit_value(state, x, i, att, loc, opt, k.margin(ba, bd))
        return x, att, loc, v, opt

    def ap_cost(self, state: State, k: Knowledge, i: int, j: int, kind: str, ap: int) -> float:
        """The price of spending ``ap`` now, given what the AP could still do this turn.

        AP kept while the opponent can still attack buy blocks and dodges (each one saves
        ``save`` on average); AP kept before one's own phase buy attacks later. A fighter's
        ``aggression`` discounts the defensive part.
        """
        f, fj = state.fighters[i], state.fighters[j]
        left = f.ap - ap
        cost = 0.0
        if fj.active and not fj.phased and fj.ap > 0:
            need = fj.ap * (1.0 - self.style.aggression)
            dip = min(float(ap), need - left)
            if dip > 0:
                cost += dip * self.save(state, k, i, j)
        if kind != "action" and not f.phased:
            cost += 1.2 * ap  # my own phase is still to come this turn
        if left < self.KEEP_STANDING and fj.active:
            # knocked back with too few AP, one falls prone (aom1d34)
            cost += self.PRONE_AP * (min(self.KEEP_STANDING, f.ap) - max(left, 0))
        return cost

    KEEP_STANDING = 2
    PRONE_AP = 1.0

    def save(self, state: State, k: Knowledge, i: int, j: int) -> float:
        """What one defensive reaction of ``i`` saves against ``j``'s usual attack."""
        v = self._save.get(i)
        if v is None:
            name = "Martial Strike" if "Martial Strike" in k.t.maneuvers else None
            v = 0.0
            if name is not None:
                loc = k.whole_loc
                ba = k.attack_basic(state, j, i, name, loc)
                d0 = k.default_defence(state, i, j)
                d1, _ = k.best_defence(state, i, j, name, loc)
                hv = k.hit_value(state, j, i, name, loc, 0, k.margin(ba, d0))
                v = max(0.0, k.p_hit(ba, d0) - k.p_hit(ba, d1)) * hv
            self._save[i] = v
        return v

    def value(self, state: State, k: Knowledge, i: int, j: int, kind: str, c: Choice,
              ctx: dict[str, Any], incoming: tuple | None) -> float:
        """The estimated value of choice ``c`` for fighter ``i`` (opponent ``j``) in a
        ``kind`` window; ``incoming``: the attack being reacted to (see :meth:`incoming`)."""
        if c.kind == "end":
            return 0.0
        if c.kind == "release":
            return -3.0
        if c.kind == "pass":
            return -self.undefended(state, k, i, incoming)
        name = c.maneuver or ""
        m = k.t.maneuvers[name]
        cost = self.ap_cost(state, k, i, j, kind, wp.cost(state, i, name, c.option))
        if k.t.is_attack(name):
            if kind == "reaction" and incoming is not None:  # counter-attack (§1.6)
                return self.counter_value(state, k, i, c, incoming) - cost
            return self.attack_choice_value(state, k, i, j, kind, c, ctx) - cost
        if m.category in DEFENSIVE:
            if incoming is None:
                return -cost
            return self.defence_value(state, k, i, c, incoming) - cost
        return self.other_value(state, k, i, j, c) - cost - self.undefended(state, k, i, incoming)

    @staticmethod
    def undefended(state: State, k: Knowledge, i: int, incoming: tuple | None) -> float:
        """What the attack being reacted to costs if the choice does not defend against it."""
        if incoming is None:
            return 0.0
        x, att, loc, hv, opt = incoming
        ba = k.attack_basic(state, x, i, att, loc, opt)
        return k.p_hit(ba, k.default_defence(state, i, x)) * hv

    def counter_value(self, state: State, k: Knowledge, i: int, c: Choice,
                      incoming: tuple) -> float:
        """A counter-attack: both blows are rolled at once and each may land (§1.6)."""
        name = c.maneuver or ""
        x, att, loc, hv, opt = incoming
        mine = k.attack_basic(state, i, x, name, c.location, option_index(k.t, name, c.option))
        theirs = k.attack_basic(state, x, i, att, loc, opt)
        p_me = k.p_counter(mine, theirs)
        p_them = k.p_counter(theirs, mine)
        mv = k.hit_value(state, i, x, name, c.location, c.option, k.margin(mine, theirs))
        return self.style.counter * self.weight(k, name) * p_me * mv - p_them * hv

    def attack_choice_value(self, state: State, k: Knowledge, i: int, j: int, kind: str,
                            c: Choice, ctx: dict[str, Any]) -> float:
        """An attack (action or follow-on): its expected hit, the chain it opens (§3)."""
        t, st = k.t, self.style
        name = c.maneuver or ""
        tgt = c.target if c.target is not None else j
        restrict = None
        if kind == "follow_on":
            restrict = ctx.get("locked")  # the target's limb a block locked (aom322e)
        v, p = k.attack_value(state, i, tgt, name, c.location, c.option, restrict)
        if name in t.follow_ons and st.chain > 0:
            v += st.chain * p * self.chain_value(state, k, i, tgt, name)
        v *= self.weight(k, name)
        if name in t.follow_ons:
            v += st.follow * p
        if c.option == 1 and t.maneuvers[name].may_advance and t.maneuvers[name].weapon is None:
            v -= 0.3  # flying only when it is needed to reach
        return v

    def defence_value(self, state: State, k: Knowledge, i: int, c: Choice,
                      incoming: tuple) -> float:
        """A defensive reaction: the hit it may stop, the follow-on or hold it may win."""
        t, st = k.t, self.style
        name = c.maneuver or ""
        m = t.maneuvers[name]
        x, att, loc, hv, opt = incoming
        ba = k.attack_basic(state, x, i, att, loc, opt)
        bd = k.defence_with(state, i, x, name, att, loc, c.option if m.weapon else 0)
        p = k.p_hit(ba, bd, name)  # a Leg Grab wins ties (formulas.hit_threshold)
        gain = 0.0
        if name in t.follow_ons:
            gain += st.follow + k.follow_threat(state, i, x, name, blocked=att)
        if m.hold:
            gain += HOLD_VALUE.get(m.hold, 3.0)
        return st.defend * ((1 - p) * gain) - p * hv

    def other_value(self, state: State, k: Knowledge, i: int, j: int, c: Choice) -> float:
        """Moves, turns, standing up, Break Hold and the rest (before their AP cost)."""
        cat = k.t.maneuvers[c.maneuver or ""].category
        if cat == "move":
            return self.move_value(state, k, i, j, c) - 0.5
        if cat == "turn":
            return self.turn_value(state, i, j, c) - 0.3
        if cat == "stand":
            return PRONE_VALUE * 0.8
        if cat == "break":
            h = state.hold_on(i)
            got = self.break_basics(state, i, c.option)
            if h is None or got is None:
                return 0.0
            return k.p_break(*got) * (HOLD_VALUE.get(h.kind, 4.0) + 2.0)
        if cat in ("ready", "drop", "pull_out"):
            return self.arms_value(state, i, j, c, cat)
        return -1.0

    def arms_value(self, state: State, i: int, j: int, c: Choice, cat: str) -> float:
        """Ready weapon, Drop weapon, Pull out weapon (issue 19): arm oneself when one's
        hands hold nothing that can strike the opponent where he stands (disarmed, or a
        sword against an opponent in one's own hex: the dagger), pull out what is stuck in
        one (its CO penalty, §1.15), and never drop a weapon for nothing."""
        if cat == "drop":
            return -6.0
        if cat == "pull_out":
            return 4.0
        t = state.t
        wid = t.weapon_ids[c.option] if 0 <= c.option < len(t.weapon_ids) else None
        if wid is None:
            return -1.0
        w = t.weapons[wid]
        same_hex = state.fighters[i].pos == state.fighters[j].pos
        wanted = "close" if same_hex else "melee"
        if w.kind == "shield" or self.has_kind(state, i, wanted):
            return -2.0
        return 7.0 if w.kind == wanted else (3.0 if w.kind != "shield" else -2.0)

    @staticmethod
    def has_kind(state: State, i: int, kind: str) -> bool:
        """Does fighter ``i`` hold a weapon of ``kind`` (``close``, ``melee``)?"""
        return any(h is not None and state.t.weapons[h].kind == kind
                   for h in state.fighters[i].hands)

    # ------------------------------------------------------------------ position
    def position_value(self, state: State, j: int, pos: hx.Hex, facing: int,
                       i: int | None = None) -> float:
        """How good a spot is for fighting ``j``: close, facing it, ideally at its rear.
        A fighter ``i`` with a melee weapon and no close one wants ``j`` in its strike
        zone (within its reach, in front) but not in its own hex, where the weapon cannot
        strike (``armed.melee_in_own_hex``): how much is its style's ``keep_out``."""
        fj = state.fighters[j]
        d = hx.distance(pos, fj.pos)
        reach = self.melee_reach(state, i) if i is not None else 0
        if d == 0:
            return 3.0 - 4.0 * self.style.keep_out if reach else 3.0
        if reach:
            v = 5.0 if d <= reach else (2.5 if d == reach + 1 else -float(d))
        else:
            v = {1: 5.0, 2: 2.5}.get(d, -float(d))
        dj = hx.direction_to(pos, fj.pos)
        if dj is not None:
            if hx.in_front_arc(dj, facing):  # a weapon strikes only into its front zone
                v += 1.5 + (2.0 * self.style.keep_out if reach else 0.0)
            if hx.relative(hx.opposite(dj), fj.facing) in state.t.rear_arc:
                v += 2.0
        return v

    @staticmethod
    def melee_reach(state: State, i: int) -> int:
        """The reach of fighter ``i``'s melee weapon in hand (0: none, or a close weapon
        in the other hand, which strikes in the own hex; RULES §2.1, ``Weapon.reach``)."""
        t = state.t
        kinds = [t.weapons[h] for h in state.fighters[i].hands if h is not None]
        if not kinds or any(w.kind == "close" for w in kinds):
            return 0
        return max((w.reach for w in kinds if w.kind == "melee"), default=0)

    def move_value(self, state: State, k: Knowledge, i: int, j: int, c: Choice) -> float:
        f = state.fighters[i]
        facing = hx.turn(f.facing, c.turn)
        pos = move_path(state, i, c.turn, c.option)[-1]  # where the engine's Move ends
        gain = self.position_value(state, j, pos, facing, i) - \
            self.position_value(state, j, f.pos, f.facing, i)
        fj = state.fighters[j]
        was = hx.distance(f.pos, fj.pos)
        now = hx.distance(pos, fj.pos)
        if now <= 1 < was and fj.ap >= 2:  # stepping in invites a kick (§5.7)
            gain -= 2.0
        if self.style.approach > 0 and now == 1 < was and f.ap > 1:
            gain += self.style.approach * self.closing_value(state, k, i, j)
        return gain

    def closing_value(self, state: State, k: Knowledge, i: int, j: int) -> float:
        """The best close-range attack (range 0, closing from the next hex) this fighter
        could follow a step in with, in its style's weights."""
        v = self._memo.get("__closing__")
        if v is None:
            t = k.t
            v = 0.0
            reach = self.melee_reach(state, i)
            armed = state.fighters[i].hands != (None, None)
            for name in t.action_maneuvers:
                m = t.maneuvers[name]
                near = (m.range == 0 and m.may_close) or (reach and m.weapon == "melee")
                if not (t.is_attack(name) and near) or m.needs_hold:
                    continue
                if armed and limb_reason(state, i, name, m, state.hold_on(i)) is not None:
                    continue  # a hand holding a weapon is not free
                locs = allowed_locations(t, name, state.fighters[j].prone)
                for opt in k.attack_options(state, i, name):
                    if wp.cost(state, i, name, opt) >= state.fighters[i].ap:
                        continue
                    aims = k.aims(state, i, j, name, opt, locs) if locs != (None,) else locs
                    for loc in aims:
                        av, _ = k.attack_value(state, i, j, name, loc, opt)
                        v = max(v, av * self.weight(k, name))
            self._memo["__closing__"] = v
        return v

    def turn_value(self, state: State, i: int, j: int, c: Choice) -> float:
        f = state.fighters[i]
        facing = hx.turn(f.facing, c.turn)
        gain = self.position_value(state, j, f.pos, facing, i) - \
            self.position_value(state, j, f.pos, f.facing, i)
        if f.pos == state.fighters[j].pos and state.arc(j, i) in state.t.rear_arc:
            gain += 2.0  # turning in the same hex brings the opponent to the front (§5.4)
        return gain

    def turn_bonus(self, state: State, i: int, c: Choice) -> float:
        """Tie-break between the optional 60-degree turns of a maneuver: face the target."""
        if c.kind != "maneuver" or c.turn == 0:
            return 0.0
        if c.maneuver in ("Turn", "Move"):
            return 0.0
        f = state.fighters[i]
        j = c.target if c.target is not None else self.opponent(state, i)
        fj = state.fighters[j]
        d = hx.direction_to(f.pos, fj.pos)
        if d is None:
            return -0.05
        before = hx.in_front_arc(d, f.facing)
        after = hx.in_front_arc(d, hx.turn(f.facing, c.turn))
        return 0.05 if after and not before else -0.05


def incoming_option(state: State, k: Knowledge, attack: str) -> int:
    """The option (hand and mode) of the weapon attack being reacted to
    (``State.context()["option"]``); 0 for an unarmed attack."""
    if k.t.maneuvers[attack].weapon is None:
        return 0
    ctx = state.context()
    return int(ctx.get("option", 0)) if ctx.get("attack") == attack else 0


def style_agent(kind: str, **params: Any) -> HeuristicAgent:
    """A scripted style (``greedy``, ``striker``, ``grappler``, ``counter``) with overrides."""
    base = STYLES[kind]
    allowed = {f.name for f in fields(Style)}
    unknown = [p for p in params if p not in allowed]
    if unknown:
        raise KeyError(unknown[0])
    style = replace(base, **params)
    name = kind
    if params:
        name += ":" + ",".join(f"{p}={params[p]}" for p in sorted(params))
    return HeuristicAgent(style, name)
