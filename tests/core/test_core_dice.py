"""The native core's dice (RULES §1.3, aom112) roll the Python engine's faces bit for bit.

The differential test of the two engines needs the same dice from the same seed; the core
reproduces numpy's PCG64 and Generator.integers rather than calling back into numpy.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexdojo.envs.rules import Dice, LoadedDice, _core
from hexdojo.envs.rules.to_core import core_dice, core_dice_of, generator_state


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), sides=st.integers(1, 40), n=st.integers(0, 1300))
def test_core_faces_equal_the_python_dice(seed: int, sides: int, n: int) -> None:
    """§1.3: n faces (crossing the 512-face blocks) from the same seed, in the same order."""
    py = Dice(seed, sides)
    assert core_dice(seed, sides).faces(n) == [py.die() for _ in range(n)]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), before=st.integers(0, 700), after=st.integers(1, 700))
def test_a_clone_rolls_the_same_future_independently(seed: int, before: int, after: int) -> None:
    d = core_dice(seed)
    d.faces(before)
    c = d.clone()
    future = c.faces(after)
    assert d.faces(after) == future
    py = Dice(seed)
    py.faces(before)
    assert [py.die() for _ in range(after)] == future


def test_the_generator_state_after_a_block_is_numpys() -> None:
    """One die draws a whole block of 512, as numpy's integers(1, 7, size=512) does."""
    rng = np.random.default_rng(11)
    d = core_dice(np.random.default_rng(11))
    d.die()
    rng.integers(1, 7, size=512)
    assert generator_state(d) == rng.bit_generator.state


def test_a_generator_part_way_through_its_32_bit_buffer_is_copied() -> None:
    """numpy keeps the upper half of a 64-bit draw: a core made from that state uses it first."""
    rng = np.random.default_rng(3)
    rng.integers(1, 7, size=3)  # an odd number of 32-bit draws leaves one half buffered
    assert rng.bit_generator.state["has_uint32"] == 1
    d = core_dice(rng)
    assert d.faces(512) == rng.integers(1, 7, size=512).tolist()


def test_bad_dice_input_is_a_python_error_not_a_crash() -> None:
    with pytest.raises(ValueError, match="sides: allowed 1..255"):
        _core.Dice((0, 1), (0, 1), False, 0, 0)
    with pytest.raises(ValueError, match="increment is odd"):
        _core.Dice((0, 1), (0, 2), False, 0, 6)
    with pytest.raises(ValueError, match="n: allowed 0 or more"):
        core_dice(1).faces(-1)
    with pytest.raises(ValueError, match="PCG64 only"):
        core_dice(np.random.Generator(np.random.MT19937(1)))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), before=st.integers(0, 1100), after=st.integers(1, 700),
       clone=st.booleans())
def test_the_core_takes_over_python_dice_mid_stream(seed, before, after, clone) -> None:
    """A fight's start (a scene's drawn distance) rolls Python dice before the fight begins:
    the core continues the same stream from wherever they stand, clones included."""
    py = Dice(seed)
    py.faces(before)
    if clone:
        py = py.clone()
    nat = core_dice_of(py)
    assert nat.faces(after) == [py.die() for _ in range(after)]


def test_loaded_dice_roll_their_script_then_fail_as_python_does() -> None:
    """Tests script the faces (LoadedDice); running out is an error naming the count."""
    py = LoadedDice([6, 1, 4], sides=6)
    py.die()
    nat = core_dice_of(py)
    assert nat.loaded and nat.faces(2) == [1, 4]
    with pytest.raises(RuntimeError, match="LoadedDice ran out after 3 faces"):
        nat.die()
    with pytest.raises(RuntimeError, match="LoadedDice ran out after 3 faces"):
        py.faces(3)
