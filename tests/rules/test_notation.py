"""The one notation for a choice (issue 16): ``notation.words`` / ``notation.parse``.

Every legal choice of a reachable state has words of its own and reads back to itself;
the action catalogue's names are these words; typed text that names nothing or several
choices is one line naming the text and the close choices.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexdojo.envs.catalogue import catalogue_for
from hexdojo.envs.rules import Choice, Game
from hexdojo.envs.rules.notation import NotationError, parse, points, tokens, words

PRESETS = ("chu", "urlik", "boris", "cogan")


def walk(game: Game, seed: int, steps: int):
    """A state reached by ``steps`` random legal choices (or the last one before the end)."""
    rng = np.random.default_rng(seed)
    s = game.new_state(seed)
    for _ in range(steps):
        legal = s.legal_choices()
        nxt = s.clone()
        nxt.apply(legal[int(rng.integers(len(legal)))])
        if nxt.is_over:
            break
        s = nxt
    return s


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a=st.sampled_from(PRESETS), b=st.sampled_from(PRESETS),
       seed=st.integers(0, 10_000), steps=st.integers(0, 150))
def test_every_legal_choice_round_trips_words_to_choice(a: str, b: str, seed: int,
                                                        steps: int) -> None:
    s = walk(Game.create([a, b]), seed, steps)
    legal = s.legal_choices()
    texts = [words(s, c) for c in legal]
    assert len(set(texts)) == len(legal)  # no two legal choices share words
    for c, text in zip(legal, texts, strict=True):
        assert parse(s, text) == c
        assert parse(s, text.upper().replace(" ", "  ")) == c  # case and spacing ignored


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scene=st.sampled_from(("two_vs_one", "two_vs_two")), seed=st.integers(0, 10_000),
       steps=st.integers(0, 150))
def test_more_than_two_fighters_name_the_target_and_round_trip(scene: str, seed: int,
                                                               steps: int) -> None:
    s = walk(Game.from_scene(scene), seed, steps)
    for c in s.legal_choices():
        text = words(s, c)
        assert ("-> " in text) == (c.target is not None)
        assert parse(s, text) == c


def test_catalogue_names_are_the_notation_of_a_duel() -> None:
    """In a duel ``words(state, c)`` is the env's action name of ``c`` (the catalogue
    derives its names from the notation, so the spaces keep their names)."""
    g = Game.create(["chu", "urlik"])
    cat = catalogue_for(g.tables)
    rng = np.random.default_rng(3)
    seen: set[int] = set()
    for seed in range(6):
        s = g.new_state(seed)
        while not s.is_over:
            legal = s.legal_choices()
            for c in legal:
                assert words(s, c) == cat.names[cat.id_for(c)]
                seen.add(cat.id_for(c))
            s.apply(legal[int(rng.integers(len(legal)))])
    assert len(seen) > 150  # a broad part of the catalogue
    assert len({tokens(n) for n in cat.names}) == cat.n  # distinct even without punctuation


def strike_state():
    """Chu next to Urlik, 6 AP, Chu's action (the advise example's position)."""
    return Game.create(["chu", "urlik"]).new_state(0, scenario={
        "fighters": [{"pos": [0, 0], "facing": 0, "ap": 6}, {"pos": [1, 0], "facing": 3, "ap": 5}],
        "phase": 0})


def test_words_of_hand_picked_choices() -> None:
    s = strike_state()
    assert words(s, Choice("maneuver", "Martial Strike", 1, "Head", 1, 0)) == \
        "Martial Strike @ Head (Blunt, turning left)"
    assert words(s, Choice("maneuver", "Move", None, None, 0, -1)) == "Move (1 back)"
    assert words(s, Choice("maneuver", "Turn", None, None, -2, 0)) == "Turn 120 right"
    assert words(s, Choice("end")) == "end phase"
    assert words(s, Choice("risk", risk=3)) == "risk: 3 dice"


def test_short_words_pick_the_one_choice_the_others_only_add_to() -> None:
    s = strike_state()
    plain = Choice("maneuver", "Martial Strike", 1, "Head", 0, 0)
    assert parse(s, "strike head blunt") == plain  # the turning variants only add words
    assert parse(s, "mart str head blu left") == plain._replace(turn=1)  # abbreviations
    assert parse(s, "end") == Choice("end")


def test_ambiguous_and_unknown_text_is_one_line_with_the_close_choices() -> None:
    s = strike_state()
    with pytest.raises(NotationError) as amb:
        parse(s, "strike head")  # Blunt or Impaling?
    msg = str(amb.value)
    assert "\n" not in msg and msg.startswith("'strike head' could be")
    assert "Martial Strike @ Head (Blunt)" in msg and "Martial Strike @ Head (Impaling)" in msg
    with pytest.raises(NotationError) as bad:
        parse(s, "Martial Strik @ Hed (Blunt)x")
    msg = str(bad.value)
    assert "\n" not in msg and "is not a legal choice now; close: Martial Strike @ Head" in msg


def test_half_points_are_written_as_in_the_rulebook() -> None:
    assert [points(h) for h in (-3, -2, -1, 0, 1, 7, 23)] == \
        ["-1½", "-1", "-½", "0", "½", "3½", "11½"]
