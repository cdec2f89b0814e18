"""The native Knowledge (agents/native/knowledge.cpp) against heuristics.Knowledge, the
reference (issue 15, "each rule once": the scripted agents' estimates in C++ over the core's
own formulas). At every maneuver decision of seeded fights on the core (NativeState; Python's
Knowledge reads the same fight through the facade), for every legal attack of the decider
on its targets: attack_basic, best_defence, attack_value, hit_value, follow_threat, aims,
wound_value, knockback_value and pain_bands must be EXACTLY Python's (== on doubles). The
situations that make the branches run are counted and required, so a pass is not vacuous.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexdojo.agents.heuristics import AIMS, Knowledge, option_index
from hexdojo.agents.native_knowledge import NativeKnowledge, native_knowledge
from hexdojo.envs.rules import formulas as fm
from hexdojo.envs.rules.legality import DEFENSIVE
from hexdojo.envs.rules.native_fight import make_game
from hexdojo.envs.rules.native_state import NativeState
from hexdojo.envs.rules.tables import allowed_locations

PAIRINGS = ["chu-boris", "urlik-cogan", "novice-chu", "guard-spearman", "knife_fighter-guard",
            "chu-knife_fighter", "rider_vs_foot", "two_vs_one"]
FIGHTS = 6
MANEUVER_KINDS = ("action", "reaction", "follow_on")


class Compare:
    """Calls one estimate on both Knowledges, counts it, and asserts equality."""

    def __init__(self, py: Knowledge, nat: NativeKnowledge) -> None:
        self.py, self.nat = py, nat
        self.n: Counter[str] = Counter()
        self.seen: Counter[str] = Counter()

    def __call__(self, method: str, *args, **kw):
        want = getattr(self.py, method)(*args, **kw)
        got = getattr(self.nat, method)(*args, **kw)
        assert got == want, f"{method}{args[1:] if args else ()} {kw}: native {got!r}, python {want!r}"
        self.n[method] += 1
        return want


def wound_args(k: Knowledge, s, x: int, y: int, name: str, loc, dtype_index: int, margin: float):
    """hit_core's arguments of wound_value and knockback_value for this hit (as it builds
    them), or None when the maneuver does no damage."""
    t = k.t
    m = t.maneuvers[name]
    rating, wtype = k.weapon_hit(s, x, name, dtype_index)
    if m.damage is None and rating is None:
        return None
    fx, fy = s.fighters[x], s.fighters[y]
    where = loc or k.whole_loc
    dtype = wtype or fm.damage_type(t, name, dtype_index)
    b = k.damage_basic(fx.p, k.penalties(s, x), name, 2 * int(margin / 2), where, rating)
    dr = fm.damage_resistance(t, fy.p, where)
    x_left = 0 if fx.phased else max(0, min(4, fx.ap - m.ap))
    return fy, b, dr, where, dtype, x_left, fx.p.risk.damage, fx.mounted, m.no_knockback


def compare_attack(cmp: Compare, s, x: int, y: int, c, seen: Counter) -> None:
    """Every estimate of x's legal attack c on y."""
    k, t = cmp.py, cmp.py.t
    name, loc = c.maneuver, c.location
    dti = option_index(t, name, c.option)
    ba = cmp("attack_basic", s, x, y, name, loc, dti)
    bd, rname = cmp("best_defence", s, y, x, name, loc)
    seen["defended by a reaction"] += rname is not None
    for restrict in ("arm", "leg"):
        cmp("best_defence", s, y, x, name, loc, restrict)
    for ap in (0, 1, -1):
        cmp("best_defence", s, y, x, name, loc, None, ap)
    v, p = cmp("attack_value", s, x, y, name, loc, c.option)
    seen["punished by a follow-on"] += rname is not None and rname in t.follow_ons and p < 1.0
    cmp("attack_value", s, x, y, name, loc, c.option, "arm")
    cmp("attack_value", s, x, y, name, loc, c.option, None, False)
    for y_ap in (0, 2, -1):
        cmp("attack_value", s, x, y, name, loc, c.option, None, True, y_ap)
    margin = k.margin(ba, bd)
    hv = cmp("hit_value", s, x, y, name, loc, dti, margin)
    seen["hit worth something"] += hv != 0.0
    wa = wound_args(k, s, x, y, name, loc, dti, margin)
    if wa is not None:
        fy, b, dr, where, dtype, x_left, n, x_mounted, no_kb = wa
        seen["weapon hit"] += k.weapon_hit(s, x, name, dti)[0] is not None
        for ap in (fy.ap, 0):
            cmp("wound_value", fy.p, fy.worst, fy.pen, min(ap, 6), b, n, dr, where, dtype, x_left)
        fx = s.fighters[x]
        cmp("hit_core", fx.p, fy.p, name, loc, dti, 2 * int(margin / 2), k.penalties(s, x),
            fy.worst, fy.pen, min(fy.ap, 6), fy.prone, True, x_left, fy.mounted, x_mounted,
            *k.weapon_hit(s, x, name, dti))
        if not no_kb:
            kv = cmp("knockback_value", fy.p, fy.worst, fy.pen, min(fy.ap, 6), fy.prone,
                     fy.mounted, b, n, where, dtype, x_left, x_mounted)
            seen["knock-back worth something"] += kv > 0.0


def compare_decision(cmp: Compare, s, seen: Counter) -> None:
    """All estimates at one maneuver decision of fighter i."""
    t = cmp.py.t
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
                compare_attack(cmp, s, i, c.target, c, seen)
                seen["attack choices"] += 1
            if c.location is not None:
                locs.setdefault((c.maneuver, c.target, c.option), {})[c.location] = None
        if c.maneuver in t.follow_ons and ("ft", c.maneuver) not in done:
            done.add(("ft", c.maneuver))
            for j in s.others(i) if hasattr(s, "others") else range(len(s.fighters)):
                if j == i:
                    continue
                v = cmp("follow_threat", s, i, j, c.maneuver, ap_spent=m.ap)
                seen["follow-on threat"] += v > 0.0
                for att in ("Punch", "Kick", "Martial Strike"):
                    if att in t.maneuvers:
                        cmp("follow_threat", s, i, j, c.maneuver, None, 0, att)
                        cmp("follow_threat", s, i, j, c.maneuver, -1, 0, att)
    if s.decision.kind == "reaction":
        compare_defences(cmp, s, i, choices, seen)
    for (name, tgt, opt), ls in locs.items():
        if tgt is None:
            continue
        dtype = opt if len(t.maneuvers[name].damage_types) > 1 else 0
        cmp("aims", s, i, tgt, name, dtype, tuple(ls))
        seen["aims over many locations"] += len(ls) > AIMS
        every = allowed_locations(t, name, s.fighters[tgt].prone)
        if None not in every and len(every) > AIMS:
            cmp("aims", s, i, tgt, name, dtype, tuple(every))


def compare_defences(cmp: Compare, s, i: int, choices, seen: Counter) -> None:
    """A reaction window: every defensive reaction against the incoming attack (what the
    scripted agent's defence_value asks: defence_with, p_hit with the reaction, the
    follow-on it opens)."""
    t = cmp.py.t
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
        cmp("defence_hands", s, i, c.maneuver)
        bd = cmp("defence_with", s, i, x, c.maneuver, att, loc, opt)
        ba = cmp.py.attack_basic(s, x, i, att, loc, 0)
        cmp("p_hit", ba, bd, c.maneuver)
        seen["defensive reaction"] += 1
        seen["weapon defence"] += m.weapon is not None
        if c.maneuver in t.follow_ons:
            cmp("follow_threat", s, i, x, c.maneuver, blocked=att)


def play(pairing: str, seeds: range, cmp_of, rules=None) -> tuple[Compare, Counter]:
    game = make_game(pairing, rules)
    seen: Counter[str] = Counter()
    cmp = None
    for seed in seeds:
        s = game.new_state(seed, engine="native")
        assert isinstance(s, NativeState)
        if cmp is None:
            cmp = cmp_of(s)
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
                compare_decision(cmp, s, seen)
                for j in range(len(s.fighters)):
                    cmp("penalties", s, j)
            choices = s.legal_choices()
            s.apply(choices[int(rng.integers(len(choices)))])
    assert cmp is not None
    return cmp, seen


TOTAL: Counter[str] = Counter()


def both(s) -> Compare:
    return Compare(Knowledge(s.t), native_knowledge(s.t))


@pytest.mark.parametrize("pairing", PAIRINGS)
def test_native_knowledge_equals_python(pairing):
    """Every estimate at every maneuver decision of seeded random fights: the same values."""
    cmp, seen = play(pairing, range(FIGHTS), both)
    TOTAL.update(seen)
    TOTAL.update({f"calls:{k}": v for k, v in cmp.n.items()})
    assert seen["decisions"] > 20 and seen["attack choices"] > 50
    assert cmp.n["attack_value"] > 100 and cmp.n["best_defence"] > 100


#: rule variants that switch on rarer branches (ties hit §5.2, maintained holds §5.17, lock
#: damage with margin and knock-back §5.16, dodges that move on a hit)
VARIANT = {
    "holds": {"maintain_ap": 1},
    "lock_damage": {"uses_margin": True, "knockback": True},
    "movement": {"dodge_moves_only_on_success": False},
    "attack": {"hit_requires_higher": False},
}


@pytest.mark.parametrize("pairing", ["chu-urlik", "chu-spearman"])
def test_native_knowledge_equals_python_under_a_variant(pairing):
    """The same under a rule variant (another Tables, its own native Knowledge)."""
    cmp, seen = play(pairing, range(FIGHTS), both, VARIANT)
    TOTAL.update(seen)
    assert seen["decisions"] > 20 and cmp.n["attack_value"] > 100


def test_situations_met():
    """Across the pairings above, the branches the estimates have were all taken."""
    if not TOTAL:
        pytest.skip("run with the pairing tests")
    for what in ("decision:reaction", "decision:follow_on", "holds on the board",
                 "prone fighter", "defended by a reaction", "punished by a follow-on",
                 "weapon hit", "knock-back worth something", "follow-on threat",
                 "aims over many locations", "calls:wound_value", "calls:follow_threat",
                 "calls:aims", "calls:knockback_value", "defensive reaction",
                 "weapon defence", "calls:defence_with", "calls:p_hit", "calls:hit_core",
                 "calls:defence_hands", "calls:penalties"):
        assert TOTAL[what] > 0, (what, dict(TOTAL))


def test_pain_bands_and_odds_equal_python():
    """The pain bands of every basic a fight can meet and the odds' lookups: the same doubles."""
    s = make_game("chu-boris").new_state(1, engine="native")
    py, nat = Knowledge(s.t), native_knowledge(s.t)
    for n in range(py.R + 1):
        for basic in range(-60, 61):
            assert nat.pain_bands(basic, n) == py.pain_bands(basic, n), (basic, n)
            assert nat.margin(basic, 3) == py.margin(basic, 3)
            for r in (None, "Leg Grab", "Block"):
                assert nat.p_hit(basic, -basic, r) == py.p_hit(basic, -basic, r)
            assert nat.p_counter(basic, 4) == py.p_counter(basic, 4)
            assert nat.p_break(basic, 4) == py.p_break(basic, 4)
    o, c = py.odds, nat.core
    for a in range(-130, 131, 7):
        for b in (-5, 0, 9):
            assert c.odds_first_risk(a, b) == o.first_risk(a, b)
            for r in range(py.R + 1):
                assert c.odds_answer_risk(a, b, r) == o.answer_risk(a, b, r)
                assert c.odds_p_beat(a, r, b, py.R, False) == o.p_beat(a, r, b, py.R, False)
                assert c.odds_margin(a, r, b, 2) == o.margin(a, r, b, 2)
    vals, probs = o.dist(7, 3)
    assert c.odds_dist(7, 3) == (vals.tolist(), probs.tolist())


def test_bad_arguments_are_python_errors():
    """Bad ids, fighters, profiles, risks or another rule set's fight: exceptions, no crash."""
    s = make_game("chu-boris").new_state(2, engine="native")
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
    s2 = other.new_state(2, engine="native")
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
    s = make_game("guard-spearman").new_state(5, engine="native")
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
