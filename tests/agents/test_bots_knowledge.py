"""The native Knowledge (agents/native/knowledge.cpp: the scripted agents' estimates in C++
over the core's own formulas, issue 15 "each rule once"), pinned.

Its Python reference (``heuristics.Knowledge``) is gone with the Python engine. The
differential test that compared them (every estimate at every maneuver decision of seeded
fights over 8 pairings and scenes and 2 under a rule variant: 15,077 decisions, 163,864
attack choices, 2,947,946 values at 20 fights a pairing, 0 differences) becomes a lock: the
same calls (attack_basic, best_defence with restricts and AP overrides, attack_value with
and without punishment, hit_value, hit_core, wound_value, knockback_value, follow_threat,
aims, defence_hands, defence_with, p_hit, penalties) at every maneuver decision of seeded
random fights, every result's repr hashed in order: the pinned hash was the Python
Knowledge's too, before the deletion. The situations that make the branches run are counted
and required, so the hash cannot be vacuous. Also: the odds lookups against agents/odds.py,
bad arguments, random ints at the boundary.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexdojo.agents.heuristics import AIMS
from hexdojo.agents.knowledge_core import native_knowledge
from hexdojo.agents.odds import odds_for
from hexdojo.envs.rules import formulas as fm
from hexdojo.envs.rules.pairings import make_game
from hexdojo.envs.rules.to_core import compile_tables

PAIRINGS = ["chu-boris", "urlik-cogan", "novice-chu", "guard-spearman", "knife_fighter-guard",
            "chu-knife_fighter", "rider_vs_foot", "two_vs_one"]
FIGHTS = 4
MANEUVER_KINDS = ("action", "reaction", "follow_on")
#: the defensive reactions' categories (dodges, blocks, Leg Grab, weapon blocks, parries)
DEFENSIVE = frozenset({"dodge", "block", "leg_grab", "weapon_block", "parry"})


class Record:
    """Calls one estimate of a Knowledge, counts it, and hashes its result's repr."""

    def __init__(self, k: Any) -> None:
        self.k = k
        self.digest = hashlib.sha256()
        self.n: Counter[str] = Counter()

    def __call__(self, method: str, *args: Any, **kw: Any) -> Any:
        got = getattr(self.k, method)(*args, **kw)
        shown = sorted(got) if isinstance(got, frozenset) else got  # aims: no hash order
        self.digest.update(f"{method}:{shown!r};".encode())
        self.n[method] += 1
        return got


def wound_args(k: Any, s, x: int, y: int, name: str, loc, dtype_index: int, margin: float):
    """hit_core's arguments of wound_value and knockback_value for this hit (as it builds
    them), or None when the maneuver does no damage."""
    t = k.t
    m = t.maneuvers[name]
    rating, wtype = k.weapon_hit(s, x, name, dtype_index)
    if m.damage is None and rating is None:
        return None
    fx, fy = s.fighters[x], s.fighters[y]
    where = loc or t.data.attack.whole_body_location
    dtype = wtype or fm.damage_type(t, name, dtype_index)
    b = fm.damage_basic_of(t, fx.p, k.penalties(s, x), name, 2 * int(margin / 2), where, True,
                           rating)
    dr = fm.damage_resistance(t, fy.p, where)
    x_left = 0 if fx.phased else max(0, min(4, fx.ap - m.ap))
    return fy, b, dr, where, dtype, x_left, fx.p.risk.damage, fx.mounted, m.no_knockback


def record_attack(rec: Record, s, x: int, y: int, c, seen: Counter) -> None:
    """Every estimate of x's legal attack c on y."""
    k = rec.k
    t = k.t
    name, loc = c.maneuver, c.location
    dti = k.option_index(name, c.option)
    ba = rec("attack_basic", s, x, y, name, loc, dti)
    bd, rname = rec("best_defence", s, y, x, name, loc)
    seen["defended by a reaction"] += rname is not None
    for restrict in ("arm", "leg"):
        rec("best_defence", s, y, x, name, loc, restrict)
    for ap in (0, 1, -1):
        rec("best_defence", s, y, x, name, loc, None, ap)
    v, p = rec("attack_value", s, x, y, name, loc, c.option)
    seen["punished by a follow-on"] += rname is not None and rname in t.follow_ons and p < 1.0
    rec("attack_value", s, x, y, name, loc, c.option, "arm")
    rec("attack_value", s, x, y, name, loc, c.option, None, False)
    for y_ap in (0, 2, -1):
        rec("attack_value", s, x, y, name, loc, c.option, None, True, y_ap)
    margin = k.margin(ba, bd)
    hv = rec("hit_value", s, x, y, name, loc, dti, margin)
    seen["hit worth something"] += hv != 0.0
    wa = wound_args(k, s, x, y, name, loc, dti, margin)
    if wa is not None:
        fy, b, dr, where, dtype, x_left, n, x_mounted, no_kb = wa
        seen["weapon hit"] += k.weapon_hit(s, x, name, dti)[0] is not None
        for ap in (fy.ap, 0):
            rec("wound_value", fy.p, fy.worst, fy.pen, min(ap, 6), b, n, dr, where, dtype, x_left)
        fx = s.fighters[x]
        rec("hit_core", fx.p, fy.p, name, loc, dti, 2 * int(margin / 2), k.penalties(s, x),
            fy.worst, fy.pen, min(fy.ap, 6), fy.prone, True, x_left, fy.mounted, x_mounted,
            *k.weapon_hit(s, x, name, dti))
        if not no_kb:
            kv = rec("knockback_value", fy.p, fy.worst, fy.pen, min(fy.ap, 6), fy.prone,
                     fy.mounted, b, n, where, dtype, x_left, x_mounted)
            seen["knock-back worth something"] += kv > 0.0


def record_decision(rec: Record, s, seen: Counter) -> None:
    """All estimates at one maneuver decision of fighter i."""
    t = rec.k.t
    i = s.decision.fighter
    choices = s.legal_choices()
    locs: dict[tuple, dict] = {}
    done = set()
    for c in choices:
        if c.kind != "maneuver" or c.maneuver is None:
            continue
        m = t.maneuvers[c.maneuver]
        if c.target is not None and c.target != i and t.is_attack(c.maneuver):
            key = (c.maneuver, c.target, c.location, c.option)
            if key not in done:
                done.add(key)
                record_attack(rec, s, i, c.target, c, seen)
                seen["attack choices"] += 1
            if c.location is not None:
                locs.setdefault((c.maneuver, c.target, c.option), {})[c.location] = None
        if c.maneuver in t.follow_ons and ("ft", c.maneuver) not in done:
            done.add(("ft", c.maneuver))
            record_threats(rec, s, i, c.maneuver, m.ap, seen)
    if s.decision.kind == "reaction":
        record_defences(rec, s, i, choices, seen)
    for (name, tgt, opt), ls in locs.items():
        if tgt is None:
            continue
        dtype = opt if len(t.maneuvers[name].damage_types) > 1 else 0
        rec("aims", s, i, tgt, name, dtype, tuple(ls))
        seen["aims over many locations"] += len(ls) > AIMS
        every = allowed_locations(t, name, s.fighters[tgt].prone)  # the core's (aom317)
        if None not in every and len(every) > AIMS:
            rec("aims", s, i, tgt, name, dtype, tuple(every))


def allowed_locations(t: Any, name: str, prone: bool) -> tuple[str | None, ...]:
    """Where ``name`` may be aimed at an upright or prone target, as the core derived it."""
    ct = compile_tables(t)
    ids = (ct.allowed_prone if prone else ct.allowed_upright)[list(t.maneuvers).index(name)]
    return tuple(None if k == -1 else t.locations[k] for k in ids)


def record_threats(rec: Record, s, i: int, name: str, ap: int, seen: Counter) -> None:
    """The follow-on threat of ``name`` on every other fighter (with blocked attacks)."""
    t = rec.k.t
    for j in range(len(s.fighters)):
        if j == i:
            continue
        v = rec("follow_threat", s, i, j, name, ap_spent=ap)
        seen["follow-on threat"] += v > 0.0
        for att in ("Punch", "Kick", "Martial Strike"):
            if att in t.maneuvers:
                rec("follow_threat", s, i, j, name, None, 0, att)
                rec("follow_threat", s, i, j, name, -1, 0, att)


def record_defences(rec: Record, s, i: int, choices, seen: Counter) -> None:
    """A reaction window: every defensive reaction against the incoming attack (what the
    scripted agent's defence_value asks: defence_with, p_hit with the reaction, the
    follow-on it opens)."""
    t = rec.k.t
    ctx = s.context()
    att, x, loc = ctx.get("attack"), ctx.get("attacker"), ctx.get("location")
    if att is None or x is None or not t.is_attack(att):
        return
    for c in choices:
        if c.kind != "maneuver" or c.maneuver is None or t.is_attack(c.maneuver):
            continue
        m = t.maneuvers[c.maneuver]
        if m.category not in DEFENSIVE:
            continue
        opt = c.option if m.weapon else 0
        rec("defence_hands", s, i, c.maneuver)
        bd = rec("defence_with", s, i, x, c.maneuver, att, loc, opt)
        ba = rec.k.attack_basic(s, x, i, att, loc, 0)
        rec("p_hit", ba, bd, c.maneuver)
        seen["defensive reaction"] += 1
        seen["weapon defence"] += m.weapon is not None
        if c.maneuver in t.follow_ons:
            rec("follow_threat", s, i, x, c.maneuver, blocked=att)


def play(pairing: str, seeds: range, k_of: Any, rules: Any = None) -> tuple[Record, Counter]:
    """Seeded random fights of ``pairing``; every maneuver decision's estimates recorded
    (``k_of(tables)``: the Knowledge to ask)."""
    game = make_game(pairing, rules)
    seen: Counter[str] = Counter()
    rec = Record(k_of(game.tables))
    for seed in seeds:
        s = game.new_state(seed)
        rng = np.random.default_rng(seed)
        for _ in range(400):
            d = s.decision
            if d is None:
                break
            if d.kind in MANEUVER_KINDS:
                seen["decisions"] += 1
                seen[f"decision:{d.kind}"] += 1
                seen["holds on the board"] += bool(s.holds)
                seen["prone fighter"] += any(f.prone for f in s.fighters)
                record_decision(rec, s, seen)
                for j in range(len(s.fighters)):
                    rec("penalties", s, j)
            choices = s.legal_choices()
            s.apply(choices[int(rng.integers(len(choices)))])
    return rec, seen


#: rule variants that switch on rarer branches (ties hit §5.2, maintained holds §5.17, lock
#: damage with margin and knock-back §5.16, dodges that move on a hit)
VARIANT = {
    "holds": {"maintain_ap": 1},
    "lock_damage": {"uses_margin": True, "knockback": True},
    "movement": {"dodge_moves_only_on_success": False},
    "attack": {"hit_requires_higher": False},
}
#: what is recorded: (pairing, rule overrides)
RUNS: list[tuple[str, Any]] = [(p, None) for p in PAIRINGS] + [
    ("chu-urlik", VARIANT), ("chu-spearman", VARIANT)]


def estimates_digest(k_of: Any, fights: int = FIGHTS) -> tuple[str, Counter, Counter]:
    """(sha256 over RUNS, calls by method, situations met)."""
    digest = hashlib.sha256()
    calls: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for pairing, rules in RUNS:
        rec, got = play(pairing, range(fights), k_of, rules)
        digest.update(f"|{pairing}|{rec.digest.hexdigest()}".encode())
        calls.update(rec.n)
        seen.update(got)
    return digest.hexdigest(), calls, seen


#: FIGHTS fights a run (2,606 decisions, 20,141 attack choices, 388,838 calls); the Python
#: Knowledge gave the same hash, its last run before the deletion (issue 15)
#: issue 28 re-pinned it (was "bbdccafa..."): the fights reach other situations
PINNED = "f1b4ed26aef491e7e1578b0f5349b9488bf708223b1fe9bb1d65772b6abd9fb2"
_RUN: dict[str, Any] = {}


def _native_run() -> tuple[str, Counter, Counter]:
    if not _RUN:
        _RUN["got"] = estimates_digest(native_knowledge)
    return _RUN["got"]


@pytest.mark.slow
def test_native_knowledge_is_pinned():
    """Every estimate at every maneuver decision of the seeded fights: the pinned values."""
    h, calls, _ = _native_run()
    assert h == PINNED, "the Knowledge's estimates changed: see the module docstring"
    assert calls["attack_value"] > 1000 and calls["best_defence"] > 1000, calls


@pytest.mark.slow
def test_situations_met():
    """Across the runs, the branches the estimates have were all taken."""
    _, calls, seen = _native_run()
    for what in ("decision:reaction", "decision:follow_on", "holds on the board",
                 "prone fighter", "defended by a reaction", "punished by a follow-on",
                 "weapon hit", "knock-back worth something", "follow-on threat",
                 "aims over many locations", "defensive reaction", "weapon defence"):
        assert seen[what] > 0, (what, dict(seen))
    for what in ("wound_value", "follow_threat", "aims", "knockback_value", "defence_with",
                 "p_hit", "hit_core", "defence_hands", "penalties"):
        assert calls[what] > 0, (what, dict(calls))


def test_odds_lookups_are_the_odds_tables():
    """The native odds lookups give agents/odds.py's numbers (the tables handed over)."""
    s = make_game("chu-boris").new_state(1)
    nat = native_knowledge(s.t)
    t = s.t
    o, c = odds_for(t.data.dice.die_sides, t.max_risk, t.per_die_h), nat.core
    for a in range(-130, 131, 7):
        for b in (-5, 0, 9):
            assert c.odds_first_risk(a, b) == o.first_risk(a, b)
            for r in range(nat.R + 1):
                assert c.odds_answer_risk(a, b, r) == o.answer_risk(a, b, r)
                assert c.odds_p_beat(a, r, b, nat.R, False) == o.p_beat(a, r, b, nat.R, False)
                assert c.odds_margin(a, r, b, 2) == o.margin(a, r, b, 2)
    vals, probs = o.dist(7, 3)
    assert c.odds_dist(7, 3) == (vals.tolist(), probs.tolist())


@settings(max_examples=200, deadline=None)
@given(st.integers(-60, 60), st.integers(-60, 60), st.integers(0, 30))
def test_hit_odds_are_probabilities_monotone_in_the_values(ba, bd, step):
    """p_hit is a probability, rises with the attack value and falls with the defence
    value; the pain bands are probabilities that sum to at most 1."""
    k = native_knowledge(make_game("chu-boris").tables)
    p = k.p_hit(ba, bd)
    assert 0.0 <= p <= 1.0
    assert k.p_hit(ba + step, bd) >= p >= k.p_hit(ba, bd + step)
    for n in range(k.R + 1):
        bands = k.pain_bands(ba, n)
        assert all(0.0 <= x <= 1.0 for x in bands) and sum(bands) <= 1.0 + 1e-12


def test_bad_arguments_are_python_errors():
    """Bad ids, fighters, profiles, risks or another rule set's fight: exceptions, no crash."""
    s = make_game("chu-boris").new_state(2)
    nat = native_knowledge(s.t)
    core, f = nat.core, s._core
    punch = nat._m("Punch")
    for call in (lambda: core.attack_basic(f, 0, 9, punch, -1),
                 lambda: core.attack_basic(f, 0, 1, 10_000, -1),
                 lambda: core.attack_basic(f, 0, 1, punch, 999),
                 lambda: core.attack_basic(f, 0, 1, punch, -1, -3),
                 lambda: core.best_defence(f, 1, 0, punch, -1, 7, -1),
                 lambda: core.follow_threat(f, 0, 1, -1),
                 lambda: core.pain_bands(0, 99),
                 lambda: core.wound_value(nat._p(s.fighters[1].p), 99, 0, 0, 0, 1, 0, 0, 0),
                 lambda: core.aims(f, 0, 1, punch, 0, [0, 1, 2, 999]),
                 lambda: core.odds_dist(0, -1)):
        with pytest.raises((ValueError, IndexError)):
            call()
    other = make_game("chu-boris", rules={"attack": {"rear_bonus": 3}})
    s2 = other.new_state(2)
    with pytest.raises(ValueError, match="other rules"):
        core.attack_basic(s2._core, 0, 1, punch, -1)


_INT = st.integers(min_value=-(2**31), max_value=2**31 - 1)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["attack_basic", "best_defence", "attack_value", "hit_value",
                        "follow_threat", "aims", "weapon_hit", "attack_options",
                        "defence_with", "pain_bands", "p_hit"]),
       st.lists(_INT, min_size=6, max_size=6))
def test_any_ints_at_the_boundary_give_an_answer_or_an_error(method, v):
    """Random ids (most out of range) into the bound methods: a value or a Python error,
    never a crash."""
    s = make_game("guard-spearman").new_state(5)
    core, f = native_knowledge(s.t).core, s._core
    small = [x % 7 - 2 for x in v]  # many in range, some not
    calls = {
        "attack_basic": lambda: core.attack_basic(f, small[0], small[1], v[2] % 60, small[3], v[4] % 9),
        "best_defence": lambda: core.best_defence(f, small[0], small[1], v[2] % 60, small[3],
                                                  small[4], small[5], v[5] % 5 - 1),
        "attack_value": lambda: core.attack_value(f, small[0], small[1], v[2] % 60, small[3],
                                                  v[4] % 9, small[4], small[5], True, v[5] % 4 - 2),
        "hit_value": lambda: core.hit_value(f, small[0], small[1], v[2] % 60, small[3],
                                            v[4] % 5, abs(v[5]) % 40 / 3),
        "follow_threat": lambda: core.follow_threat(f, small[0], small[1], v[2] % 60, v[3] % 5 - 2,
                                                    v[4] % 5, v[5] % 61 - 1),
        "aims": lambda: core.aims(f, small[0], small[1], v[2] % 60, v[3] % 4, [x % 14 for x in v]),
        "weapon_hit": lambda: core.weapon_hit(f, small[0], v[1] % 60, v[2]),
        "attack_options": lambda: core.attack_options(f, small[0], v[1]),
        "defence_with": lambda: core.defence_with(f, small[0], small[1], v[2] % 60, v[3] % 61 - 1,
                                                  small[4], v[5]),
        "pain_bands": lambda: core.pain_bands(v[0], v[1] % 9 - 1),
        "p_hit": lambda: core.p_hit(v[0], v[1], v[2] % 61 - 1),
    }
    try:
        calls[method]()
    except (ValueError, IndexError, TypeError, OverflowError):
        pass
