"""The native legality layer (envs/rules/core/legality.cpp) against the Python engine's
legality.py (the reference): the legal maneuver lists (same choices, same order) and the
reasons an illegal choice is refused (the same text, rendered from the core's code), at
every maneuver decision of seeded fights over every preset pairing that matters, and on
perturbed states and windows that random play rarely reaches (holds from behind, locked
arms, two-handed weapons, shields, follow moves...). Bad input at the boundary is one
Python ValueError, never a crash.

Rules exercised (as legality.py cites them): §1.5-1.7 (AP, arcs, reach), §1.18 (holds),
§1.20/§5.26 (mounted), §2/§3 (maneuvers, follow-ons), §5.3, §5.18 (prone), aom3141 (Move),
aom3142-aom314a (weapons), aom3145 (blocks), aom3216, aom3221, aom3225, aom322e, aom3228.
"""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexdojo.envs.rules import Game, _core, legality, memo
from hexdojo.envs.rules import native_reasons as nr
from hexdojo.envs.rules.legality import Window
from hexdojo.envs.rules.model import Choice, Decision, Hold
from hexdojo.envs.rules.native import Ids, compile_tables, core_state, core_window

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "diff_legality.py"


def _driver() -> Any:
    if "diff_legality" not in sys.modules:
        spec = importlib.util.spec_from_file_location("diff_legality", SCRIPT)
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        sys.modules["diff_legality"] = mod
        spec.loader.exec_module(mod)
    return sys.modules["diff_legality"]


def test_every_reason_code_has_a_template() -> None:
    """The core's code list and the renderer's table are the same set (a new code without
    a text, or a stale text, fails here)."""
    assert nr.CODE_NAMES[0] == "Ok"
    assert set(nr.TEMPLATES) == set(nr.CODE_NAMES[1:])


def test_legal_lists_and_reasons_equal_pythons_over_every_pairing() -> None:
    """Seeded fights, random and scripted agents, every preset pairing, the mounted scene,
    the group scenes and a rule variant: at every maneuver window the core's legal list is
    Python's, and sampled illegal choices get Python's reason text; the situations that
    make legality hard (holds, follow-ons after blocks, weapons, prone, mounted, groups)
    were actually met."""
    d = _driver()
    tally = d.sweep(fights=5)
    assert tally.mismatches == []
    assert tally.decisions > 2500
    assert tally.reasons > 30_000
    assert tally.defences > 400
    assert [k for k in d.REQUIRED if not tally.met[k]] == []


# ---------------------------------------------------------------- perturbed situations
# States of real fights, then changed at random (hands, holds, prone, AP, facing, places,
# weapons on the ground) and asked in random windows: what random play rarely reaches.
# A fresh rule set (its own legality memo), so the perturbed states never share the memo
# the other tests use.
_BASES: dict[str, list[Any]] = {}
_PERTURB_GAMES = {
    "chu-guard": lambda: Game.create(["chu", "guard"], rules={}),
    "knife-spearman": lambda: Game.create(["knife_fighter", "spearman"], rules={}),
    "monk_vs_two_guards": lambda: Game.from_scene("monk_vs_two_guards", rules={}),
    "rider_vs_foot": lambda: Game.from_scene("rider_vs_foot", rules={}),
}


def _bases(name: str) -> list[Any]:
    if name not in _BASES:
        g = _PERTURB_GAMES[name]()
        out = []
        for seed in range(2):
            s = g.new_state(seed=seed, engine="python")
            rng = np.random.default_rng(seed)
            for _ in range(80):
                if s.is_over:
                    break
                out.append(s.clone())
                ch = s.legal_choices()
                s.apply(ch[int(rng.integers(len(ch)))])
        _BASES[name] = out
    return _BASES[name]


def _pick(rng: np.random.Generator, seq: Any) -> Any:
    seq = list(seq)
    return seq[int(rng.integers(len(seq)))]


def _perturb_fighter(s: Any, f: Any, rng: np.random.Generator) -> None:
    t = s.t
    wids = list(t.weapon_ids)
    w1, w2 = _pick(rng, wids), _pick(rng, wids)
    hands = _pick(rng, [(None, None), (w1, None), (None, w1), (w1, w2), f.hands])
    if any(h is not None and t.weapons[h].hands == 2 for h in hands):
        hands = (w1, w1) if t.weapons[w1].hands == 2 else (w2, w2)
    f.hands = hands
    f.sheathed = tuple(w for w in wids if rng.random() < 0.15)
    f.stuck = tuple((w, _pick(rng, t.locations)) for w in wids if rng.random() < 0.05)
    f.prone = bool(rng.random() < 0.25)
    f.mounted = bool(rng.random() < 0.15)
    f.height = int(rng.integers(0, 2)) if f.mounted else 0
    f.ap = int(rng.integers(0, 9))
    f.facing = int(rng.integers(6))
    if rng.random() < 0.3:  # into another's hex, or anywhere (the edge: throws, moves)
        r = s.game.radius
        f.pos = _pick(rng, [g.pos for g in s.fighters]) if rng.random() < 0.5 else \
            (int(rng.integers(-r, r + 1)), int(rng.integers(-r, r + 1)))
        if not s.on_board(f.pos):
            f.pos = s.fighters[0].pos
    if rng.random() < 0.05:
        f.out = "unconscious"


def _perturb(base: Any, rng: np.random.Generator) -> Any:
    s = base.clone()
    t = s.t
    n = len(s.fighters)
    for f in s.fighters:
        if rng.random() < 0.6:
            _perturb_fighter(s, f, rng)
    holds = []
    for _ in range(int(rng.integers(0, 3))):
        a, b = (int(x) for x in rng.choice(n, 2, replace=False))
        kind = _pick(rng, t.hold_kinds)
        loc = _pick(rng, [None, *t.data.armed.arm_locations, _pick(rng, t.locations)])
        holds.append(Hold(a, b, kind, loc, s.turn, 0, bool(rng.random() < 0.4)))
    s.holds = holds
    s.dropped = tuple((_pick(rng, [f.pos for f in s.fighters]), _pick(rng, t.weapon_ids))
                      for _ in range(int(rng.integers(0, 3))))
    return s


def _window(s: Any, rng: np.random.Generator) -> Window:
    """A window of a kind the engine opens (resolution.py): an action; a reaction to an
    attack (closing, zone entry, held; a blocked limb locked) or to a move (a follow move);
    a soak; a follow-on (after a block: the blocked limb or weapon arm, the blocking hand)."""
    t = s.t
    n = len(s.fighters)
    names = list(t.maneuvers)
    i = int(rng.integers(n))
    other = _pick(rng, [k for k in range(n) if k != i])
    kind = _pick(rng, ["action", "attack", "attack", "move", "soak", "follow_on", "follow_on"])
    limb = _pick(rng, [None, None, "arm", "leg", "head", *t.data.armed.arm_locations])
    if kind == "action":
        return Window("action", i)
    if kind == "attack":
        trig = {"attack"} | {tr for tr in ("closing", "zone_entry", "held") if rng.random() < 0.3}
        return Window("reaction", i, frozenset(trig), attacker=other,
                      attack=_pick(rng, [m for m in names if t.is_attack(m)]),
                      no_defence=bool(rng.random() < 0.2), restrict=limb)
    if kind == "move":
        trig = {tr for tr in ("movement", "adjacent_entry", "follow", "zone_entry", "ready")
                if rng.random() < 0.4} or {"movement"}
        return Window("reaction", i, frozenset(trig), attacker=other,
                      attack=_pick(rng, ["Move", "Turn", "Ready weapon", "Side-step dodge"]),
                      follow=(int(rng.integers(6)), int(rng.integers(1, 3))) if "follow" in trig else None)
    if kind == "soak":
        return Window("reaction", i, frozenset({"hit"}), reactions_only=(t.soak,))
    return Window("follow_on", i, after=_pick(rng, list(t.follow_ons)), restrict=limb,
                  own_hand=_pick(rng, [None, None, 0, 1]),
                  locked_fighter=other if limb is not None else None)


def _asked(s: Any, w: Window, legal: list[Choice]) -> Any:
    """``s`` with ``w`` open, as State.why_illegal would ask legality.explain."""
    a = s.clone()
    a.stack = [*a.stack, SimpleNamespace(window=w)]
    a._pending = (Decision(w.fighter, "maneuver"), legal or [Choice("maneuver", "Turn", turn=1)])
    return a


def _deep_probes(s: Any, w: Window, rng: np.random.Generator, k: int) -> list[Choice]:
    """Well-formed choices of maneuvers the window and fighter allow (maneuver_reason is
    None), against any fighter: past the maneuver level, so the target, location, geometry
    and option reasons speak."""
    usable = [m for m in s.t.maneuvers if legality.maneuver_reason(s, w.fighter, m, w) is None]
    out = []
    for _ in range(k if usable else 0):
        m = _pick(rng, usable)
        turns, locs, opts = s.t.domain[m]
        tg = _pick(rng, range(len(s.fighters))) if s.t.is_attack(m) else None
        out.append(Choice("maneuver", m, tg, _pick(rng, locs), _pick(rng, turns), _pick(rng, opts)))
    return out


def _compare_perturbed(s: Any, w: Window, rng: np.random.Generator, codes: Counter) -> None:
    d = _driver()
    ids = Ids(s.t)
    memo._MEMOS.pop(s.t, None)  # the reason functions themselves, not what a memo kept
    legal = legality.maneuver_choices(s, w)
    assert nr.maneuver_choices(s, w, ids) == legal, w
    a = _asked(s, w, legal)
    view = nr.NativeView(a, w, ids)
    pending = set(a._pending[1])
    for c in d._probes(s, legal, rng, 6) + _deep_probes(a, w, rng, 8):
        if c in pending:
            continue
        assert nr.explain(a, c, ids, view) == legality.explain(a, c), (c, w)
        if c.maneuver in ids.maneuver:
            codes[nr.CODE_NAMES[view.reason(c)[0]]] += 1
    for y in range(len(s.fighters)):
        if y != w.fighter:
            attack = _pick(rng, [m for m in s.t.maneuvers if s.t.is_attack(m)])
            assert nr.defence_options(s, y, w.fighter, attack, w.restrict, None, ids) == \
                legality.defence_options(s, y, w.fighter, attack, w.restrict)


#: codes no choice can reach through explain: a Turn of 0 steps and a Ready weapon option
#: naming no weapon are outside the maneuver's domain (BadTurn, BadOption first), and a
#: choice passing every check is in the legal list
UNREACHABLE = {"ChooseTurn", "NotPossible", "ReadyBadOption"}
#: codes the hand-built cases below produce (too rare for random perturbation)
BY_HAND = {"LockHeldArm", "LimbLocked", "LandingOff", "ModeAp", "AdvanceOccupied",
           "BlockingWeapon", "ReadyHands"}


def test_perturbed_states_and_windows_match_and_reach_every_reason() -> None:
    """Holds of every kind (from behind, on an arm), weapons in either hand, two-handed
    weapons, shields, locked limbs and arms, follow moves, no-defence attacks, prone and
    mounted fighters in random windows: the core's lists and reasons are Python's, and
    every reason code the core has was produced at least once."""
    rng = np.random.default_rng(15)
    codes: Counter = Counter()
    for k in range(3000):
        name = list(_PERTURB_GAMES)[k % len(_PERTURB_GAMES)]
        s = _perturb(_pick(rng, _bases(name)), rng)
        _compare_perturbed(s, _window(s, rng), rng, codes)
    assert sorted(set(nr.CODE_NAMES[1:]) - UNREACHABLE - BY_HAND - set(codes)) == []


def _hand_built(holds: list[Hold], w: Window, c: Choice, place: Any = None) -> str:
    """Chu (0) and Urlik (1) at the start of a fight, changed by hand; the reason for ``c``
    in ``w`` from both engines (they must agree) and ``c`` not in the core's legal list."""
    s = Game.create(["chu", "urlik"], rules={}).new_state(seed=0, engine="python").clone()
    for f in s.fighters:
        f.ap = 6
    if place is not None:
        place(s)
    s.holds = holds
    a = _asked(s, w, legality.maneuver_choices(s, w))
    assert c not in nr.maneuver_choices(s, w)
    got = nr.explain(a, c)
    assert got == legality.explain(a, c)
    return got


def test_a_lock_must_take_the_held_arm() -> None:
    """aom3225: an Arm/wrist Lock after an Arm Grab locks the arm that was grabbed."""
    w = Window("follow_on", 0, after="Arm Grab")
    c = Choice("maneuver", "Arm/wrist Lock", 1, "L Arm")
    assert _hand_built([Hold(0, 1, "arm", "R Arm", 1)], w, c) == \
        "Arm/wrist Lock: must lock the held arm (R Arm)"


def test_a_blocked_leg_makes_no_kick() -> None:
    """aom322e: the limb a block locked makes no maneuver (a leg: no Martial Kick)."""
    w = Window("reaction", 0, frozenset({"adjacent_entry"}), attacker=1, attack="Move",
               restrict="leg")
    assert _hand_built([], w, Choice("maneuver", "Martial Kick", 1, "Head")) == \
        "Martial Kick: the blocked leg is locked (aom322e)"


def test_a_throw_lands_on_the_arena() -> None:
    """aom3228: the thrown fighter lands to the thrower's side or rear, on the arena: at the
    east corner (4, 0) facing west, the rear (option 3) is (5, 0), off a radius-4 arena."""
    def corner(s: Any) -> None:
        s.fighters[0].pos = s.fighters[1].pos = (4, 0)
        s.fighters[0].facing = 3

    w = Window("follow_on", 0, after="Arm/wrist Lock")
    c = Choice("maneuver", "Martial Throw", 1, None, 0, 3)
    assert _hand_built([Hold(0, 1, "arm_lock", "R Arm", 1)], w, c, corner) == \
        "Martial Throw: the landing hex is off the arena"


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(sorted(_PERTURB_GAMES)))
def test_any_perturbed_decision_matches(seed: int, game: str) -> None:
    """The same comparison as above for any seed hypothesis draws."""
    rng = np.random.default_rng(seed)
    s = _perturb(_pick(rng, _bases(game)), rng)
    _compare_perturbed(s, _window(s, rng), rng, Counter())


# ---------------------------------------------------------------- the boundary
def _native(name: str = "chu-guard") -> tuple[Any, Any, Any, Any]:
    s = _bases(name)[3]
    ids = Ids(s.t)
    w = Window("action", 0)
    return compile_tables(s.t), core_state(s, ids), core_window(ids, w), ids


def test_bad_ids_at_the_boundary_are_one_value_error() -> None:
    ct, cs, cw, ids = _native()
    cw.fighter = 5
    with pytest.raises(ValueError, match=r"window.fighter: id 5: allowed 0..1"):
        _core.maneuver_choices(ct, cs, cw)
    cw.fighter, cw.attacker = 0, 7
    with pytest.raises(ValueError, match=r"window.attacker: id 7: allowed -1..1"):
        _core.maneuver_choices(ct, cs, cw)
    cw.attacker = -1
    with pytest.raises(ValueError, match=r"choice.maneuver: id 999: allowed 0..32"):
        _core.explain(ct, cs, cw, (999, -1, -1, 0, 0))
    with pytest.raises(ValueError, match=r"choice.location: id 12: allowed -2..11"):
        _core.explain(ct, cs, cw, (0, -1, 12, 0, 0))
    cw.reactions_only, cw.has_reactions_only = [40], True
    with pytest.raises(ValueError, match=r"window.reactions_only: id 40: allowed 0..32"):
        _core.maneuver_choices(ct, cs, cw)
    with pytest.raises(ValueError, match=r"tables: not sealed"):
        _core.maneuver_choices(_core.Tables(), cs, core_window(ids, Window("action", 0)))
    with pytest.raises(ValueError, match=r"state: no fighters"):
        _core.maneuver_choices(ct, _core.State(), core_window(ids, Window("action", 0)))
    h = _core.Hold()
    h.holder, h.held, h.kind = 0, 3, 0
    cs.holds = [h]
    with pytest.raises(ValueError, match=r"hold.held: id 3: allowed 0..1"):
        _core.maneuver_choices(ct, cs, core_window(ids, Window("action", 0)))


_INT = st.one_of(st.integers(-3, 12), st.integers(-(2**31), 2**31 - 1))


@settings(max_examples=150, deadline=None)
@given(fields=st.lists(_INT, min_size=12, max_size=12), choice=st.tuples(*[_INT] * 5))
def test_any_ids_are_an_answer_or_a_value_error(fields: list[int], choice: tuple) -> None:
    """Whatever ints a window and a choice hold, the core answers or raises ValueError
    (never a crash, never another error)."""
    ct, cs, cw, _ = _native("monk_vs_two_guards")
    (cw.fighter, cw.attacker, cw.attack, cw.after, cw.own_hand, cw.locked_fighter,
     cw.restrict_limb, cw.restrict_location, cw.follow_direction, cw.follow_hexes) = fields[:10]
    cw.has_follow = fields[10] % 2 == 0
    cw.kind = [_core.WindowKind.ACTION, _core.WindowKind.REACTION,
               _core.WindowKind.FOLLOW_ON][fields[11] % 3]
    cw.triggers = fields[11] & 0x1FF
    cw.reactions_only, cw.has_reactions_only = [f % 33 for f in fields[:3]], fields[2] % 5 == 0
    for call in (lambda: _core.maneuver_choices(ct, cs, cw),
                 lambda: _core.explain(ct, cs, cw, choice)):
        try:
            out = call()
        except ValueError:
            continue
        assert out is None or len(out) >= 0


def _armed(hands: tuple[str | None, str | None], sheathed: tuple[str, ...] = ()) -> Any:
    """Chu at (0, 0) facing east with these weapons, Urlik in the hex in front, (1, 0)."""
    def setup(s: Any) -> None:
        chu, urlik = s.fighters
        chu.pos, chu.facing, chu.hands, chu.sheathed = (0, 0), 0, hands, sheathed
        urlik.pos = (1, 0)
    return setup


def test_a_weapon_mode_costs_its_own_ap() -> None:
    """aom3142: the attack's AP are its mode's: an axe chop costs 3, more than Chu's 2,
    though Stand and attack itself costs 2."""
    def two_ap(s: Any) -> None:
        _armed(("axe", None))(s)
        s.fighters[0].ap = 2

    c = Choice("maneuver", "Stand and attack", 1, "Chest", 0, 0)
    got = _hand_built([], Window("action", 0), c, two_ap)
    assert got == "Stand and attack: a axe chop needs 3 AP, Chu has 2"


def test_advance_and_attack_steps_into_an_empty_hex() -> None:
    """aom3143: Advance and attack first steps one hex forward, into an empty hex only."""
    c = Choice("maneuver", "Advance and attack", 1, "Chest", 0, 0)
    assert _hand_built([], Window("action", 0), c, _armed(("sword", None))) == \
        "Advance and attack: the hex to advance into is occupied"


def test_after_a_block_the_other_weapon_attacks() -> None:
    """aom3145: after a Block, Stand and attack is made with a second weapon, not the one
    that blocked (the right hand here)."""
    w = Window("follow_on", 0, after="Block", own_hand=0)
    c = Choice("maneuver", "Stand and attack", 1, "Chest", 0, 0)
    assert _hand_built([], w, c, _armed(("sword", "dagger"))) == \
        "Stand and attack: the sword made the block; a second weapon is needed (aom3145)"


def test_a_two_handed_weapon_is_readied_into_two_empty_hands() -> None:
    """aom314a: Ready weapon needs as many empty hands as the weapon takes (a spear two)."""
    spear = Game.create(["chu", "urlik"]).tables.weapon_ids.index("spear")
    c = Choice("maneuver", "Ready weapon", None, None, 0, spear)
    assert _hand_built([], Window("action", 0), c, _armed(("sword", None), ("spear",))) == \
        "Ready weapon: the spear needs 2 empty hand(s)"


def test_the_list_into_a_buffer_is_the_same_list() -> None:
    """maneuver_choices_into writes the rows maneuver_choices returns; a buffer too small
    gets nothing written and minus the rows it needs."""
    ct, cs, cw, _ = _native()
    rows = _core.maneuver_choices(ct, cs, cw)
    assert len(rows) > 10
    buf = np.full((len(rows) + 3, 5), 77, np.int32)
    assert _core.maneuver_choices_into(ct, cs, cw, buf) == len(rows)
    assert (buf[:len(rows)] == rows).all() and (buf[len(rows):] == 77).all()
    small = np.full((len(rows) - 1, 5), 77, np.int32)
    assert _core.maneuver_choices_into(ct, cs, cw, small) == -len(rows)
    assert (small == 77).all()
