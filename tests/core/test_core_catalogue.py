"""The core owns the catalogue's layout and envs/catalogue.py reads it back id by id
(``decode``); encoding each choice it read (``maneuver_id``) gives the same id again (fixed
choices, risk levels, then each maneuver over its parameter domain), unarmed (Duel-v0/v1:
369 ids) and armed (ArmedDuel-v0: 824), under the shipped rules
and a variant whose domains differ; and its mask writer marks exactly the ids it is given."""

from __future__ import annotations

import numpy as np
import pytest

from hexdojo.envs.catalogue import Catalogue
from hexdojo.envs.rules import Choice, _core, load_tables
from hexdojo.envs.rules.to_core import compile_tables

VARIANT = {"dice": {"max_risk_dice": 4}, "movement": {"move_forward_max": 3}}


@pytest.mark.parametrize("rules", [None, VARIANT], ids=["shipped", "variant"])
@pytest.mark.parametrize("armed", [False, True])
def test_every_choice_has_the_python_id(rules, armed: bool) -> None:
    t = load_tables(rules)
    ct = compile_tables(t)

    nat = _core.Catalogue(ct, armed)
    py = Catalogue(t, armed=armed)
    assert (nat.n, nat.first_risk, nat.first_maneuver) == (py.n, py.first_risk, py.first_maneuver)
    names = list(t.maneuvers)
    locs = list(t.locations)
    assert [names[m] for m in nat.maneuvers] == list(py.maneuvers)
    for k in range(t.max_risk + 1):
        assert nat.risk_id(k) == py.id_for(Choice("risk", risk=k))
    for i in range(py.first_maneuver, py.n):
        c = py.templates[i]
        loc = -1 if c.location is None else locs.index(c.location)
        assert nat.maneuver_id(ct, names.index(c.maneuver), c.turn, loc, c.option) == i
        assert nat.decode(ct, i) == (-1, -1, names.index(c.maneuver), c.turn, loc, c.option)
    for i in range(py.first_maneuver):  # the fixed choices, then the risk levels
        fixed = i if i < py.first_risk else -1
        risk = i - py.first_risk if i >= py.first_risk else -1
        assert nat.decode(ct, i) == (fixed, risk, -1, 0, -1, 0)
        assert py.templates[i].kind == ("risk" if risk >= 0 else py.templates[i].kind)
    if rules is None:
        assert py.n == (824 if armed else 369)


def test_a_choice_outside_the_catalogue_has_no_id() -> None:

    t = load_tables()
    ct = compile_tables(t)
    cat = _core.Catalogue(ct, False)
    strike = list(t.maneuvers).index("Martial Strike")
    assert cat.maneuver_id(ct, strike, 0, 0, 99) == -1  # no such option
    weapon = next(k for k, m in enumerate(t.maneuvers.values()) if m.armed_only)
    assert cat.maneuver_id(ct, weapon, 0, -1, 0) == -1  # a weapon maneuver, unarmed catalogue
    assert cat.maneuver_id(ct, 10_000, 0, -1, 0) == -1
    with pytest.raises(ValueError, match="beyond the rules' max_risk_dice"):
        cat.risk_id(t.max_risk + 1)
    with pytest.raises(IndexError, match=f"action id {cat.n}: allowed 0..{cat.n - 1}"):
        cat.decode(ct, cat.n)


def test_the_mask_marks_exactly_the_ids() -> None:

    cat = _core.Catalogue(compile_tables(load_tables()), False)
    buf = np.ones(cat.n, dtype=np.int8)
    cat.write_mask([0, 5, cat.n - 1], buf)
    assert np.flatnonzero(buf).tolist() == [0, 5, cat.n - 1]
    with pytest.raises(IndexError, match=f"mask: id {cat.n}, allowed 0..{cat.n - 1}"):
        cat.write_mask([cat.n], buf)
    with pytest.raises(ValueError, match="the catalogue has"):
        cat.write_mask([0], np.zeros(3, dtype=np.int8))
