"""The core's enumeration of legal maneuvers agrees with its reasons, exhaustively.

``_core.maneuver_choices`` lists the legal maneuver choices of a window from memoised
blocks (legality.cpp); ``_core.explain`` checks one choice from scratch. Here, on the
decisions of random fights (arenas of every size, three fighters, mounted fighters, rule
variants), the listed choices are exactly the choices of the whole parameter catalogue
(every maneuver x target x location x turn x option of its domain) that explain passes,
with no duplicates, and they are the state's legal maneuver choices in the same order.
(Until issue 15 this compared the Python engine's memoised list with its reason functions.)
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from hexdojo.envs.rules import Game, param_domain, preset_names
from hexdojo.envs.rules import reason_texts as nr
from hexdojo.envs.rules.model import Choice


def reference_choices(s: Any, view: nr.NativeView) -> set[Choice]:
    """Every choice of the catalogue that the core's explain passes (no memo)."""
    t = s.t
    w = s.window
    out: set[Choice] = set()
    ok = nr.CODE_NAMES.index("NotPossible")  # explain's answer for a choice nothing bars
    for name in t.maneuvers:
        turns, locs, opts = param_domain(t, name)
        if not t.is_attack(name):
            targets: list[int | None] = [None]
        elif w.kind == "reaction" and w.attacker is not None:
            targets = [w.attacker]  # a counter-attack targets the attacker
        else:
            targets = list(range(len(s.fighters)))
        for tg, tu, op, loc in itertools.product(targets, turns, opts, locs):
            c = Choice("maneuver", name, tg, loc, tu, op)
            if view.reason(c)[0] == ok:
                out.add(c)
    return out


CASES = [
    (pair, radius, None) for pair in itertools.permutations(preset_names(), 2)
    for radius in (1, 2, 4)
][::3] + [
    (("chu", "boris", "rider"), 3, None),
    (("urlik", "cogan", "novice"), 4, None),
    (("chu", "urlik"), 4, {"movement": {"move_through_occupied": True}}),
    (("rider", "chu"), 3, {"attack": {"closing_requires_front_arc": False,
                                      "range1_reaches_same_hex": False}}),
    (("cogan", "boris"), 5, {"movement": {"move_forward_max": 3}}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("fighters", "radius", "rules"), CASES,
                         ids=lambda v: "-".join(v) if isinstance(v, tuple) else str(v))
def test_the_enumeration_matches_the_reasons_over_the_whole_catalogue(fighters, radius, rules) -> None:
    g = Game.create(list(fighters), rules=rules, radius=radius)
    checked = 0
    for seed in range(3):
        s = g.new_state(seed)
        rng = np.random.default_rng(seed)
        while not s.is_over:
            w = s.window
            if w is not None:
                view = nr.NativeView(s, w)
                got = view.choices()
                assert len(got) == len(set(got)), "duplicate choices"
                assert set(got) == reference_choices(s, view)
                assert [c for c in s.legal_choices() if c.kind == "maneuver"] == got
                checked += 1
            ch = s.legal_choices()
            s.apply(ch[int(rng.integers(len(ch)))])
    assert checked > 0
