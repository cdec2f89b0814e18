"""Cheap analytic estimates used by the scripted agents (no cloning, no dice drawn).

Every rule they apply is the engine's own: the arithmetic comes from
:mod:`hexdojo.envs.rules.formulas`, who may defend how from
:func:`~hexdojo.envs.rules.legality.defence_options`, a pending roll's basic values from
``State.context()``; this module only adds the *values* (what a wound or a fall is worth)
and the odds (:mod:`.odds`). ``tests/test_formulas.py`` fails if a rules formula reappears
here.

Why analytic: a 6-agent round robin of 30,000 fights must run in about two minutes, so a
scripted agent may spend only tens of microseconds per decision. Instead of simulating,
the agents estimate, from the fighters' sheets and the rules data:

* attack and defence basic values (RULES §1.8: skill + specialisms + CO with encumbrance,
  doubled for Martial Arts, + maneuver, aim, rear, hold, wound and stun modifiers);
* the chance to hit and the expected margin (exact dice tables, :mod:`.odds`);
* the value of a hit: wound level (§1.10, after a likely soak §1.11), the immediate
  reaction it causes (§1.12: unconscious, stunned, staggered), the knock-back it forces
  (§1.13: AP lost, a fall), holds and prone.

Values are in "points" where knocking the opponent out is worth ``KO``. Everything the
estimates depend on is part of the state, so results are memoised per situation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexdojo.envs.rules import formulas as fm
from hexdojo.envs.rules import weapons as wp
from hexdojo.envs.rules.legality import defence_options, limb_reason, locked_limb
from hexdojo.envs.rules.tables import allowed_locations, h2

from .odds import Odds, odds_for

if TYPE_CHECKING:
    from hexdojo.envs.rules import State, Tables
    from hexdojo.envs.rules.fighter import Profile

KO = 100.0
#: value of one wound by level (None .. Critical), before its impairment
WOUND_VALUE = (0.0, 0.5, 2.0, 5.0, 10.0, 16.0, KO)
#: value of one half point of ongoing impairment (§1.14) inflicted
IMPAIR_VALUE = 1.5
STUN_VALUE = 8.0  # plus 1.5 per AP the victim still had
#: a stunned fighter cannot defend for the rest of the turn (§1.12): each AP the striker
#: can still spend this turn makes the stun this much closer to a knock-out
STUN_FOLLOW = 0.2
STAGGER_VALUE = 2.5
PRONE_VALUE = 7.0
PRONE_FOLLOW = 6.0
#: knock-back (§1.13): value of each AP the victim loses, and of its fall (before the
#: follow-up bonus PRONE_FOLLOW). High on purpose: an opponent kept prone and out of AP
#: cannot attack, and this "AP war" is what a learned policy exploits (README); valuing
#: it so raised greedy from 86.5 % to about 92 % against random play (chu mirror)
KNOCKBACK_AP_VALUE = 20.0
KNOCKBACK_FALL_VALUE = 40.0
#: value of holding the opponent, by kind of hold (painful locks hurt every turn)
HOLD_VALUE = {"arm": 5.0, "both_arms": 6.0, "leg": 4.0, "arm_lock": 11.0, "head_lock": 12.0}
#: aimed locations a scripted agent weighs in full per attack (see Knowledge.aims)
AIMS = 3
_CACHE_MAX = 400_000


class Knowledge:
    """What the agents know about one rule set, with memo tables for the estimates."""

    def __init__(self, t: Tables) -> None:
        self.t = t
        d = t.data
        self.odds: Odds = odds_for(d.dice.die_sides, t.max_risk, t.per_die_h)
        self.R = t.max_risk
        self.whole_loc = d.attack.whole_body_location
        self._profiles: dict[int, Profile] = {}  # keeps ids in the memo keys unique
        self._hit: dict[tuple, float] = {}
        self._aims: dict[tuple, frozenset[str]] = {}
        self._dc: dict[tuple, object] = {}  # memo for the current decision only
        self._dc_at: tuple | None = None
        #: (reaction, attack, aim row) -> the reaction's own defence bonus (pure in the rules)
        self._bonus: dict[tuple, int] = {}
        #: (pain basic, dice) -> pain band probabilities (pure in the rules; a few hundred keys)
        self._pain: dict[tuple[int, int], tuple[float, float, float]] = {}
        #: (formula, profile, its inputs) -> a sheet's basic value (pure in the rules)
        self._sheet: dict[tuple, int] = {}

    def dc(self, s: State) -> dict[tuple, object]:
        """A memo valid for the state's current decision only (see :func:`same_decision`)."""
        at = self._dc_at  # same_decision, inlined: this runs for every estimate
        if at is None or at[0] is not s.decision or at[1] != len(s.events) or at[2] != s.turn:
            self._dc_at = decision_token(s)
            self._dc = {}
        return self._dc

    # ------------------------------------------------------------------ basic values
    def pid(self, p: Profile) -> int:
        """A memo key for a profile (kept alive here, so its id is never reused)."""
        k = id(p)
        if k not in self._profiles:
            self._profiles[k] = p
        return k

    def sheet(self, formula: Any, p: Profile, *args: Any) -> int:
        """``formula(tables, p, *args)`` (a ``formulas.*_basic_of``), memoised: a pure
        function of the sheet and the arguments, asked thousands of times a fight."""
        key = (formula.__name__, self.pid(p), *args)
        v = self._sheet.get(key)
        if v is None:
            if len(self._sheet) > _CACHE_MAX:
                self._sheet.clear()
            v = self._sheet[key] = formula(self.t, p, *args)
        return v

    def penalties(self, s: State, i: int) -> int:
        """What fighter ``i``'s condition takes off every roll (:func:`formulas.penalty`)."""
        f = s.fighters[i]
        return fm.penalty(self.t, f.worst, f.pen)

    def attack_basic(self, s: State, x: int, y: int, name: str, loc: str | None,
                     option: int = 0) -> int:
        """Basic attack value of ``x``'s maneuver on ``y`` (RULES §1.8), half points: the
        engine's own :func:`attack_basic`, memoised for the current decision (the value
        depends on the location only through its aim row; a weapon attack's on the hand
        its ``option`` names, whose weapon sets the skill and modifier)."""
        memo = self.dc(s)
        opt = option if self.t.maneuvers[name].weapon is not None else 0
        key = ("ab", x, y, name, self.t.loc_aim[loc] if loc is not None else None, opt)
        v = memo.get(key)
        if v is None:
            v = memo[key] = fm.attack_basic(s, x, y, name, loc, opt)[0]
        return v  # type: ignore[return-value]

    def default_defence(self, s: State, y: int, x: int) -> int:
        """Basic default defence of ``y`` against ``x`` (no reaction, aom315)."""
        memo = self.dc(s)
        key = ("dd", y, x)
        v = memo.get(key)
        if v is None:
            v = memo[key] = fm.defence_basic(s, y, x, None, None, None)[0]
        return v  # type: ignore[return-value]

    def defence_with(self, s: State, y: int, x: int, rname: str, attack: str | None,
                     loc: str | None, option: int = 0) -> int:
        """Basic defence of ``y`` using the defensive reaction ``rname`` against ``x``'s
        ``attack`` (aom315 table; the engine's :func:`defence_basic`, memoised; a Block's
        or Parry's ``option`` is its hand, whose weapon sets the skill and parry bonus)."""
        memo = self.dc(s)
        key = ("dw", y, x, rname, option)
        rest = memo.get(key)  # everything but the reaction's own bonus
        if rest is None:
            rest = memo[key] = (fm.defence_basic(s, y, x, rname, None, None, option)[0]
                                - fm.defence_bonus(self.t, rname, None, None))
        row = self.t.loc_aim[loc] if loc is not None else None
        bkey = (rname, attack, row)
        bonus = self._bonus.get(bkey)
        if bonus is None:
            bonus = self._bonus[bkey] = fm.defence_bonus(self.t, rname, attack, loc)
        return rest + bonus  # type: ignore[operator]

    def best_defence(self, s: State, y: int, x: int, attack: str, loc: str | None,
                     restrict: str | None = None, ap: int | None = None) -> tuple[int, str | None]:
        """The best defence ``y`` can probably muster against ``attack``: (basic, reaction).

        A rational defender with AP uses its best defensive reaction (the engine's
        :func:`defence_options`: AP, arc with the optional turn, holds, limbs, room to
        dodge); otherwise the default defence. The basic is on the default defence's scale
        of ties (:func:`formulas.hit_threshold`: a Leg Grab, which wins ties, counts half a
        point more), so that :meth:`p_hit` needs no reaction.
        """
        t = self.t
        fy = s.fighters[y]
        ap = fy.ap if ap is None else ap
        memo = self.dc(s)
        key = ("bd", y, x, attack, t.loc_aim[loc] if loc is not None else None, restrict, ap)
        got = memo.get(key)
        if got is not None:
            return got  # type: ignore[return-value]
        best = self.default_defence(s, y, x)
        name: str | None = None
        if ap > 0 and fy.out is None:
            tie = fm.hit_threshold(t, None)
            okey = ("do", y, x, attack, restrict, ap)  # the same for every aim
            options = memo.get(okey)
            if options is None:
                options = memo[okey] = defence_options(s, y, x, attack, restrict, ap)
            for rname in options:  # type: ignore[union-attr]
                for opt in self.defence_hands(s, y, rname):
                    v = (self.defence_with(s, y, x, rname, attack, loc, opt)
                         + fm.hit_threshold(t, rname) - tie)
                    if v > best:
                        best, name = v, rname
        memo[key] = (best, name)
        return best, name

    def defence_hands(self, s: State, y: int, rname: str) -> tuple[int, ...]:
        """The options (hands) ``y`` could make reaction ``rname`` with: (0,) for an
        unarmed one, else each hand holding a weapon that can make it (:func:`weapons.fits`)."""
        m = self.t.maneuvers[rname]
        if m.weapon is None:
            return (0,)
        out = tuple(h for h in (0, 1) if (w := wp.weapon_in(s, y, h)) is not None
                    and wp.fits(m, w))
        return out or (0,)

    def weapon_hit(self, s: State, x: int, name: str, option: int) -> tuple[int | None, str | None]:
        """(rating in half points, damage type) of ``x``'s weapon attack ``name`` with
        ``option``, from the mode the engine resolves it with (:func:`weapons.attack_mode`,
        aom3142); (None, None) for an unarmed maneuver or a hand without the weapon."""
        if self.t.maneuvers[name].weapon is None:
            return None, None
        mode = wp.attack_mode(s, x, name, option)
        if mode is None:
            return None, None
        return h2(mode.damage), mode.damage_type

    def attack_options(self, s: State, x: int, name: str) -> tuple[int, ...]:
        """The options ``x`` could make attack ``name`` with: (0,) unarmed, else every
        hand and mode whose weapon the engine finds (:func:`weapons.attack_mode`); none when
        no weapon in hand can make it."""
        m = self.t.maneuvers[name]
        if not wp.is_weapon_attack(m):
            return (0,)
        out = []
        for o in range(2 * self.t.max_modes):
            hand, _ = wp.split(self.t, m, o)
            w = wp.weapon_in(s, x, hand)
            if w is not None and wp.fits(m, w) and wp.attack_mode(s, x, name, o) is not None:
                out.append(o)
        return tuple(out)

    # ------------------------------------------------------------------ outcomes
    def p_hit(self, ba: int, bd: int, reaction: str | None = None) -> float:
        """Chance to hit when both sides risk the most dice (their usual best, §1.3),
        against the defence ``reaction`` (None: the default defence; the tie rule is
        :func:`formulas.hit_threshold`'s)."""
        strict = fm.hit_threshold(self.t, reaction) > 0
        return self.odds.p_beat(ba, self.R, bd, self.R, strict)

    def p_counter(self, mine: int, theirs: int) -> float:
        """Chance that my counter-attack lands (:func:`formulas.counter_hits`: ties land)."""
        return self.odds.p_beat(mine, self.R, theirs, self.R, strict=False)

    def p_break(self, esc: int, hold: int) -> float:
        """Chance that a Break Hold succeeds (:func:`formulas.break_succeeds`: strictly higher)."""
        return self.odds.p_beat(esc, self.R, hold, self.R, strict=True)

    def margin(self, ba: int, bd: int) -> float:
        return self.odds.margin(ba, self.R, bd, self.R)

    def hit_value(self, s: State, x: int, y: int, name: str, loc: str | None,
                  dtype_index: int, margin_h: float) -> float:
        """Expected value for ``x`` of ``x``'s maneuver ``name`` hitting ``y``."""
        m = self.t.maneuvers[name]
        fx, fy = s.fighters[x], s.fighters[y]
        # AP the striker can still attack with this turn (its phase is now or to come)
        x_left = 0 if fx.phased else max(0, min(4, fx.ap - m.ap))
        mine = s.hold_by(x)
        new_hold = bool(m.hold) and not (mine is not None and mine.held == y
                                         and mine.kind == m.hold)
        rating, wtype = self.weapon_hit(s, x, name, dtype_index)  # a weapon's: its option
        # inputs are rounded (margin to whole points, AP to at most 6) before the memo
        # lookup, so the value is a function of the key alone
        return self.hit_core(fx.p, fy.p, name, loc, dtype_index, 2 * int(margin_h / 2),
                             self.penalties(s, x), fy.worst, fy.pen, min(fy.ap, 6), fy.prone,
                             new_hold, x_left, fy.mounted, fx.mounted, rating, wtype)

    def hit_core(self, xp: Profile, yp: Profile, name: str, loc: str | None,
                 dtype_index: int, margin: int, x_pen: int, y_worst: int, y_pen: int,
                 y_ap: int, y_prone: bool, new_hold: bool, x_left: int,
                 y_mounted: bool = False, x_mounted: bool = False,
                 rating: int | None = None, wtype: str | None = None) -> float:
        """:meth:`hit_value` from explicit inputs (memoised; the key is all of them);
        ``rating``/``wtype``: a weapon mode's damage rating (half points) and type."""
        key = (self.pid(xp), self.pid(yp), name, loc, dtype_index, margin, x_pen, y_worst,
               y_pen, y_ap, y_prone, new_hold, x_left, y_mounted, x_mounted, rating, wtype)
        v = self._hit.get(key)
        if v is not None:
            return v
        t = self.t
        m = t.maneuvers[name]
        v = 0.0
        if new_hold:
            v += HOLD_VALUE.get(m.hold or "", 4.0)
        if m.knocks_prone and not y_prone:
            # on the ground the target can only take the default defence (§5.18), so
            # every AP the striker still has this turn is a nearly free attack
            v += PRONE_VALUE + PRONE_FOLLOW * x_left
        if m.damage is not None or rating is not None:
            where = loc or self.whole_loc
            dtype = wtype or fm.damage_type(t, name, dtype_index)
            b = self.damage_basic(xp, x_pen, name, margin, where, rating)
            dr = fm.damage_resistance(t, yp, where)
            v += self.wound_value(yp, y_worst, y_pen, y_ap, b, xp.risk.damage, dr, where,
                                  dtype, x_left)
            if not m.no_knockback:
                v += self.knockback_value(yp, y_worst, y_pen, y_ap, y_prone, y_mounted, b,
                                          xp.risk.damage, where, dtype, x_left, x_mounted)
        if len(self._hit) > _CACHE_MAX:
            self._hit.clear()
        self._hit[key] = v
        return v

    def damage_basic(self, xp: Profile, x_pen: int, name: str, margin: int, where: str,
                     rating: int | None) -> int:
        """The engine's basic damage (:func:`formulas.damage_basic_of`; a weapon hit with
        its mode's ``rating``, as the engine's ``HitFrame`` rolls it)."""
        return fm.damage_basic_of(self.t, xp, x_pen, name, margin, where, True, rating)

    def wound_value(self, yp: Profile, y_worst: int, y_pen: int, y_ap: int, dmg_basic: int,
                    n: int, dr: int, loc: str, dtype: str, x_left: int = 0) -> float:
        """Expected value of a damage roll on a fighter (wound after a likely soak, pain;
        §1.10-1.14); ``y_pen`` is its stun/stagger penalty this turn."""
        t = self.t
        vals, probs = self.odds.dist(dmg_basic - dr, n)
        pens = fm.penalty(t, y_worst, y_pen)
        soak_red = 0
        if fm.can_soak(t, 1, y_ap):
            # about the mean of a risky soak
            soak_b = self.sheet(fm.soak_basic_of, yp, pens) + self.R
            soak_red = fm.soak_levels(t, soak_b)
        pn = yp.risk.pain
        total = 0.0
        imp_now = fm.penalty(t, y_worst, 0)
        pain_at: dict[int, int] = {}
        for val, pv in zip(vals.tolist(), probs.tolist(), strict=True):
            lv = fm.wound_level(t, val)
            if lv >= t.fatal:
                total += pv * KO  # soak may still save: approximate as lethal
                continue
            if lv > 0 and soak_red:
                lv = max(0, lv - soak_red)
            if lv == 0:
                continue
            worst = max(y_worst, lv)
            w = WOUND_VALUE[lv] + IMPAIR_VALUE * (imp_now - fm.penalty(t, worst, 0))
            pain_b = pain_at.get(lv)
            if pain_b is None:  # the pain roll's basic by the new wound's level (a few)
                pain_b = pain_at[lv] = self.sheet(fm.pain_basic_of, yp, pens, dtype, loc, lv)
            unc, stun, stag = self.pain_bands(pain_b, pn)
            stun_v = STUN_VALUE + 1.5 * y_ap + min(0.8, STUN_FOLLOW * x_left) * KO
            w += unc * KO + stun * stun_v + stag * STAGGER_VALUE
            total += pv * w
        return total

    def pain_bands(self, basic: int, n: int) -> tuple[float, float, float]:
        """P(unconscious), P(stunned), P(staggered) of a pain roll on ``basic`` with ``n``
        dice (§1.12 bands); pure in the rules, so memoised across decisions."""
        key = (basic, n)
        hit = self._pain.get(key)
        if hit is None:
            pvals, pprobs = self.odds.dist(basic, n)
            band = {"unconscious": 0.0, "stunned": 0.0, "staggered": 0.0, "none": 0.0}
            for pval, pp in zip(pvals.tolist(), pprobs.tolist(), strict=True):
                band[fm.pain_effect(self.t, pval)] += pp
            hit = self._pain[key] = (band["unconscious"], band["stunned"], band["staggered"])
        return hit

    def knockback_value(self, yp: Profile, y_worst: int, y_pen: int, y_ap: int,
                        y_prone: bool, y_mounted: bool, dmg_basic: int, n: int, loc: str,
                        dtype: str, x_left: int = 0, x_mounted: bool = False) -> float:
        """Expected value of the knock-back roll a hit forces (§1.13, aom1d34): the AP
        the victim loses and the chance that it falls prone.

        The roll is ST + Athletics against the basic damage before armour (the damage
        roll of basic ``dmg_basic`` with ``n`` dice risked): fail by up to 3 and lose 1
        AP, by more and lose 2, by 7 or more and fall; falling also follows from having
        fewer AP than the loss. A blunt blow to the legs floors an unathletic fighter
        nearly every time.

        Valued on foot only. A rider knocked off its mount lands out of reach of the
        saddle's martial arts (§1.20), and chasing the AP war with or against riders
        measured far worse (rider mirror, greedy vs random: 77-80 % against 93 %).
        """
        if y_mounted or x_mounted:
            return 0.0
        t = self.t
        kb = t.data.knockback
        kb_b = self.sheet(fm.knockback_basic_of, yp, fm.penalty(t, y_worst, y_pen), dtype, loc)
        dv, dp = self.odds.dist(dmg_basic, min(n, self.R))
        kv, kp = self.odds.dist(kb_b, min(yp.risk.knockback, self.R))
        fall_v = 0.0 if y_prone else KNOCKBACK_FALL_VALUE + PRONE_FOLLOW * x_left
        total = 0.0
        for dmg, pd in zip(dv.tolist(), dp.tolist(), strict=True):
            for res, pk in zip(kv.tolist(), kp.tolist(), strict=True):
                effect, loss, over = fm.knockback_band(kb, dmg - res)
                if effect != "none":
                    falls = over or loss > y_ap
                    total += pd * pk * (KNOCKBACK_AP_VALUE * min(loss, y_ap) + fall_v * falls)
        return total

    def aims(self, s: State, x: int, y: int, name: str, dtype_index: int,
             locs: tuple[str, ...]) -> frozenset[str]:
        """The few of ``locs`` worth a full look for this attack (``AIMS`` best by a
        static estimate: hit chance with the aiming penalty x value of the hit).

        Scripted agents only weigh these, which keeps a decision with twelve aimable
        locations cheap. The estimate depends only on the memo key (the fighters' sheets,
        the maneuver, the gap between attack and defence, the target's worst wound and
        whether it is prone), so results never depend on which fights came before.
        """
        if len(locs) <= AIMS:
            return frozenset(locs)
        fy = s.fighters[y]
        chest = self.whole_loc
        gap = (self.attack_basic(s, x, y, name, None, dtype_index)
               - self.best_defence(s, y, x, name, chest)[0])
        gap = max(-24, min(24, gap))
        fx = s.fighters[x]
        key = (self.pid(fx.p), self.pid(fy.p), name, dtype_index, locs, gap,
               fy.worst, fy.prone, fy.mounted, fx.mounted, fx.hands)
        got = self._aims.get(key)
        if got is not None:
            return got
        t = self.t
        xp, yp = s.fighters[x].p, fy.p
        rating, wtype = self.weapon_hit(s, x, name, dtype_index)
        scored = []
        for n, loc in enumerate(locs):
            ba = gap + fm.aim_attack(t, loc)
            p = self.p_hit(ba, 0)
            v = p * self.hit_core(xp, yp, name, loc, dtype_index, int(self.margin(ba, 0)),
                                  0, fy.worst, 0, 3, fy.prone, False, 0, fy.mounted,
                                  fx.mounted, rating, wtype)
            scored.append((-v, n, loc))
        got = frozenset(loc for _, _, loc in sorted(scored)[:AIMS])
        self._aims[key] = got
        return got

    def attack_value(self, s: State, x: int, y: int, name: str, loc: str | None,
                     option: int = 0, restrict: str | None = None,
                     punish: bool = True, y_ap: int | None = None) -> tuple[float, float]:
        """(expected value, chance to hit) of ``x`` attacking ``y`` with ``name`` at ``loc``.

        With ``punish``, a miss against a defence that opens a follow-on (a successful
        block or dodge, RULES §3) costs the follow-on ``y`` will then aim at ``x``, who
        defends with the AP left after paying for this attack. ``y_ap`` overrides the AP
        ``y`` has for defending.
        """
        dtype_index = option_index(self.t, name, option)
        memo = self.dc(s)
        key = ("av", x, y, name, loc, dtype_index, restrict, punish, y_ap)
        got = memo.get(key)
        if got is not None:
            return got  # type: ignore[return-value]
        ba = self.attack_basic(s, x, y, name, loc, dtype_index)
        bd, rname = self.best_defence(s, y, x, name, loc, restrict, y_ap)
        p = self.p_hit(ba, bd)
        v = 0.0
        if p > 0.0:
            v = p * self.hit_value(s, x, y, name, loc, dtype_index, self.margin(ba, bd))
        if punish and rname is not None and rname in self.t.follow_ons:
            left = s.fighters[x].ap - wp.cost(s, x, name, dtype_index)
            v -= (1.0 - p) * self.follow_threat(s, y, x, rname, left, blocked=name)
        memo[key] = (v, p)
        return v, p

    def follow_threat(self, s: State, x: int, y: int, after: str,
                      y_ap: int | None = None, ap_spent: int = 0,
                      blocked: str | None = None) -> float:
        """Value for ``x`` of its best follow-on on ``y`` after ``after`` succeeded (§3).

        Follow-ons that need the hold ``after`` creates (locks, throws) are valued against
        the default defence, as the held target may not defend them (aom3227, aom3228).
        """
        memo = self.dc(s)
        key = ("ft", x, y, after, y_ap, ap_spent, blocked)
        got = memo.get(key)
        if got is not None:
            return got  # type: ignore[return-value]
        t = self.t
        restrict = locked_limb(t, after, blocked)  # y's limb ``after`` locked (aom322e)
        floored = t.maneuvers[after].knocks_prone  # the target will be prone: no dodging
        ap = s.fighters[x].ap - ap_spent
        best = 0.0
        for name in t.follow_ons.get(after, ()):
            m = t.maneuvers[name]
            if m.limb == "arm" and s.fighters[x].hands != (None, None) \
                    and limb_reason(s, x, name, m, s.hold_on(x)) is not None:
                continue  # a hand holding a weapon is not free (aom3221)
            for opt in self.attack_options(s, x, name):
                if wp.cost(s, x, name, opt) > ap:
                    continue
                locs = allowed_locations(t, name, floored or s.fighters[y].prone)
                loc = self.whole_loc if self.whole_loc in locs else locs[0]
                if m.needs_hold or m.category in ("throw", "pull_down") or floored:
                    ba = self.attack_basic(s, x, y, name, loc, opt)
                    bd = self.default_defence(s, y, x)
                    p = self.p_hit(ba, bd)
                    v = p * self.hit_value(s, x, y, name, loc, opt, self.margin(ba, bd))
                else:
                    v, _ = self.attack_value(s, x, y, name, loc, opt, restrict, punish=False,
                                             y_ap=y_ap)
                best = max(best, v)
        memo[key] = best
        return best


def option_index(t: Tables, name: str, option: int) -> int:
    """The part of a choice's option an attack's value depends on: a weapon attack's
    whole option (hand and mode, :func:`weapons.split`), an unarmed one's damage type
    index where it has several, else 0."""
    m = t.maneuvers[name]
    if m.weapon is not None or len(m.damage_types) > 1:
        return option
    return 0


def decision_token(s: State) -> tuple:
    """What identifies the decision a state is at, for per-decision memos."""
    return (s.decision, len(s.events), s.turn)


def same_decision(s: State, token: object) -> bool:
    """True if ``token`` (from :func:`decision_token`) was taken at this very decision.

    The engine makes a new ``Decision`` object for every decision (a clone shares its
    original's); the token holds it, so its identity cannot be reused, and the event count
    and turn guard against a future engine that reuses equal decision objects.
    """
    return (isinstance(token, tuple) and token[0] is s.decision
            and token[1] == len(s.events) and token[2] == s.turn)


_KNOWLEDGE: dict[int, Knowledge] = {}


def knowledge(s: State) -> Knowledge:
    """The (cached) :class:`Knowledge` for the state's rule set."""
    t = s.t
    k = _KNOWLEDGE.get(id(t))
    if k is None or k.t is not t:
        k = Knowledge(t)
        _KNOWLEDGE[id(t)] = k
    return k
