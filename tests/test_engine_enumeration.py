"""The memoised enumeration of legal maneuvers agrees with the reason functions.

``legality.maneuver_choices`` keeps blocks of legal choices under keys relative to the
deciding fighter (offsets, edge flags, capped AP). Here, on many random states (arenas of
every size, three fighters, mounted fighters, rule variants), its list is compared with
a brute force over the whole parameter catalogue that asks the reason functions directly,
with no memo: same choices, no duplicates.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from hexdojo.envs.rules import Game, preset_names
from hexdojo.envs.rules.legality import (
    geometry_reason,
    grab_location_reason,
    location_reason,
    maneuver_choices,
    maneuver_reason,
    option_reason,
    param_domain,
    target_reason,
)
from hexdojo.envs.rules.model import Choice


def reference_choices(s: Any, w: Any) -> set[Choice]:
    """Every legal maneuver choice, straight from the reason functions (no memo)."""
    t = s.t
    i = w.fighter
    out: set[Choice] = set()
    for name in t.maneuvers:
        if maneuver_reason(s, i, name, w):
            continue
        turns, locs, opts = param_domain(t, name)
        if not t.is_attack(name):
            targets: list[int | None] = [None]
        elif w.kind == "reaction" and w.attacker is not None:
            targets = [w.attacker]  # a counter-attack targets the attacker
        else:
            targets = list(range(len(s.fighters)))
        for tg, tu, op, loc in itertools.product(targets, turns, opts, locs):
            if not (target_reason(s, i, name, tg) or location_reason(s, i, name, tg, loc)
                    or grab_location_reason(s, name, t.maneuvers[name], loc, w, tg)
                    or geometry_reason(s, i, name, tg, tu, op, w)
                    or option_reason(s, i, name, tu, op, w)):
                out.add(Choice("maneuver", name, tg, loc, tu, op))
    return out


CASES = [
    (pair, radius, None) for pair in itertools.permutations(preset_names(), 2)
    for radius in (1, 2, 4)
] + [
    (("chu", "boris", "rider"), 3, None),
    (("urlik", "cogan", "novice"), 4, None),
    (("chu", "urlik"), 4, {"movement": {"move_through_occupied": True}}),
    (("rider", "chu"), 3, {"attack": {"closing_requires_front_arc": False,
                                      "range1_reaches_same_hex": False}}),
    (("cogan", "boris"), 5, {"movement": {"move_forward_max": 3}}),
]


@pytest.mark.parametrize(("fighters", "radius", "rules"), CASES,
                         ids=lambda v: "-".join(v) if isinstance(v, tuple) else str(v))
def test_memoised_enumeration_matches_the_reason_functions(fighters, radius, rules) -> None:
    g = Game.create(list(fighters), rules=rules, radius=radius)
    checked = 0
    for seed in range(4):
        s = g.new_state(seed)
        rng = np.random.default_rng(seed)
        while not s.is_over:
            w = getattr(s.stack[-1], "window", None)
            if w is not None:
                got = maneuver_choices(s, w)
                assert len(got) == len(set(got)), "duplicate choices"
                assert set(got) == reference_choices(s, w)
                assert [c for c in s.legal_choices() if c.kind == "maneuver"] == got
                checked += 1
            ch = s.legal_choices()
            s.apply(ch[int(rng.integers(len(ch)))])
    assert checked > 0
