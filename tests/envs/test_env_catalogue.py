"""The flat action catalogue (issue 3): size, names, id <-> Choice round trips."""

from __future__ import annotations

import numpy as np
import pytest

from hexdojo.envs.catalogue import Catalogue, action_mask, catalogue_for
from hexdojo.envs.rules import Choice, Game, param_domain


@pytest.fixture(scope="module")
def game() -> Game:
    return Game.create(["chu", "urlik"])


def test_catalogue_size_is_the_sum_of_parameter_domains(game: Game) -> None:
    t = game.tables
    cat = catalogue_for(t)
    man = 0
    for name in t.unarmed_maneuvers:
        turns, locs, opts = param_domain(t, name)
        man += len(turns) * len(locs) * len(opts)
    # phase now/wait, end, release, pass, hold follow/let go + risk 0..max
    assert cat.n == 7 + (t.max_risk + 1) + man
    assert cat.n == 369  # the shipped rules; README documents this number


def test_names_are_unique_and_readable(game: Game) -> None:
    cat = catalogue_for(game.tables)
    assert len(set(cat.names)) == cat.n
    assert cat.names[0] == "phase: act now"
    assert cat.names[cat.first_risk] == "risk: 0 dice"
    i = cat.id_for(Choice("maneuver", "Martial Strike", 1, "Head", 1, 0))
    assert cat.names[i] == "Martial Strike @ Head (Blunt, turning left)"
    assert cat.names[cat.id_for(Choice("maneuver", "Move", None, None, 0, -1))] == "Move (1 back)"


def test_weapon_maneuvers_are_not_in_the_catalogue(game: Game) -> None:
    cat = catalogue_for(game.tables)
    assert "Parry" not in cat.maneuvers and "Block" not in cat.maneuvers
    assert "Martial Throw" in cat.maneuvers


def test_choice_for_fills_the_opponent_as_target(game: Game) -> None:
    cat = catalogue_for(game.tables)
    i = cat.id_for(Choice("maneuver", "Punch", 0, "Chest", 0, 0))
    assert cat.choice_for(i, fighter=0).target == 1
    assert cat.choice_for(i, fighter=1).target == 0
    move = cat.id_for(Choice("maneuver", "Move", None, None, 0, 1))
    assert cat.choice_for(move, fighter=1).target is None
    for a in range(cat.n):  # every id round-trips for both sides
        for f in (0, 1):
            assert cat.id_for(cat.choice_for(a, fighter=f)) == a


def test_unknown_choice_is_a_clear_error(game: Game) -> None:
    cat = catalogue_for(game.tables)
    with pytest.raises(ValueError, match="not in the action catalogue"):
        cat.id_for(Choice("maneuver", "Parry", 1, None, 0, 0))


def test_every_legal_choice_of_random_fights_has_an_id(game: Game) -> None:
    cat = catalogue_for(game.tables)
    rng = np.random.default_rng(7)
    seen: set[int] = set()
    for seed in range(40):
        s = game.new_state(seed)
        while not s.is_over:
            legal = s.legal_choices()
            ids = cat.ids(legal)  # KeyError here would mean a hole in the catalogue
            assert len(set(ids)) == len(legal)
            seen.update(ids)
            s.apply(legal[int(rng.integers(len(legal)))])
    assert len(seen) > 150  # random fights reach a broad part of the catalogue


def test_catalogue_follows_rule_overrides() -> None:
    g = Game.create(["chu", "urlik"], rules={"dice": {"max_risk_dice": 3}})
    cat = Catalogue(g.tables)
    assert cat.n == 369 - 3
    assert cat.names[cat.first_risk + 3] == "risk: 3 dice"


def test_action_mask_helper_is_zero_for_the_fighter_not_deciding(game: Game) -> None:
    s = game.new_state(3)
    d = s.decision
    assert d is not None
    assert action_mask(s, d.fighter).sum() == len(s.legal_choices())
    assert action_mask(s, 1 - d.fighter).sum() == 0
    assert action_mask(s, d.fighter).dtype == np.int8
