"""§1.16 encumbrance (aom1d1): a band modifier on every CO-based roll, doubled for Martial
Arts + CO rolls; §5.29 PROPOSED: the band is a per-character input."""

from __future__ import annotations

import pytest

from hexdojo.envs.rules import Choice, Game, LoadedDice, RulesError
from tests.rules_kit import duel, fighter, last, react, risk, strike, terms

BANDS = [("unencumbered", 2), ("light", 1), ("average", 0), ("heavy", -2),
         ("very_heavy", -4), ("extreme", -6)]


@pytest.mark.parametrize(("band", "mod"), BANDS)
def test_co_rolls_get_the_band_modifier_aom1d1(band, mod):
    """§1.16 aom1d1: default defence Combat 4 + CO 0 + band modifier."""
    a = fighter("A")
    b = fighter("B", combat=4, enc=band)
    state, _ = duel(a, b)
    strike(state)
    roll = last(state, "attack")["defence"]
    assert terms(roll).get("encumbrance", 0) == mod
    assert roll["result"] == 4 + mod


@pytest.mark.parametrize(("band", "mod"), BANDS)
def test_martial_arts_rolls_double_it_aom1d1_aom3221(band, mod):
    """§1.16 aom1d1/aom3221: Martial Strike = Martial Arts 6 + CO 0 + 2 x band + 1."""
    a = fighter("A", ma=6, enc=band)
    state, _ = duel(a, fighter("B", combat=12), ap_b=0)
    strike(state)
    roll = last(state, "attack")["attack"]
    assert terms(roll).get("encumbrance", 0) == 2 * mod
    assert roll["result"] == 7 + 2 * mod


def test_martial_arts_defence_doubles_it_too_aom322b():
    """§1.16 aom322b: Rolling Dodge (Martial Arts 3 + CO 0 + 2) heavily encumbered: -4."""
    b = fighter("B", ma=3, enc="heavy")
    state, _ = duel(fighter("A"), b)
    strike(state, reaction=react("Rolling Dodge"))
    roll = last(state, "attack")["defence"]
    assert terms(roll)["encumbrance"] == -4
    assert roll["result"] == 1


def test_ap_roll_is_a_co_roll_aom313_aom1d1():
    """§1.16/§1.5: the AP roll Combat 4 + CO 0 gets the band modifier once: unencumbered
    -> 6 AP."""
    a = fighter("A", combat=4, enc="unencumbered")
    state = Game.create([a, fighter("B")]).new_state(LoadedDice([1, 1]))
    assert state.fighters[0].ap == 6


def test_non_co_rolls_have_no_encumbrance_aom1d1():
    """§1.16: soak (Combat + ST), pain (Combat + WP), knock-back (Athletics + ST) and damage
    (ST) are not CO rolls: an extremely encumbered B gets no encumbrance term on them."""
    a = fighter("A", ma=12, enc="extreme")  # 12 - 12 + 1 = 1 vs B's 5 - 5 - 6 = -6
    b = fighter("B", combat=5, CO=-5, athletics=3, WP=3, enc="extreme")
    state, _ = duel(a, b)
    strike(state)
    state.apply(Choice("maneuver", "Soak"))
    state.apply(risk(0))
    checked = [e["type"] for e in state.events
               if e["type"] in ("soak", "pain", "knockback", "damage")]
    assert checked == ["damage", "soak", "pain", "knockback"]
    for e in state.events:
        if e["type"] in checked:
            assert "encumbrance" not in terms(e["roll"]), e["type"]


def test_band_is_a_fighter_input_par_5_29():
    """§5.29 PROPOSED: the band is named per fighter; an unknown band is refused."""
    with pytest.raises(RulesError, match="encumbrance"):
        Game.create([fighter("A", enc="crushing"), fighter("B")])


@pytest.mark.parametrize(("option", "enc"), [(0, None), (1, None), (2, 2)])
def test_break_hold_methods_and_encumbrance_aom322d_aom1d1(option, enc):
    """§1.16/§1.18: of the Break Hold methods only contortion (Athletics + CO) is a CO roll:
    +2 unencumbered, not doubled; brute force (Combat + ST) and technique (Martial Arts +
    WP) get nothing."""
    b = fighter("B", combat=1, ma=1, athletics=1, enc="unencumbered")
    state, _ = duel(fighter("A", combat=12), b, pos_b=(0, 0), phase=1,
                    holds=[{"holder": 0, "held": 1, "kind": "arm", "location": "R Arm"}])
    state.apply(Choice("maneuver", "Break Hold", option=option))
    state.apply(risk(0))
    state.apply(risk(0))
    assert terms(last(state, "break_hold")["escaper"]).get("encumbrance") == enc
