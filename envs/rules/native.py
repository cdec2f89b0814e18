"""The Python side of the native rules core's boundary (``_core``, C++20, envs/rules/core).

The core is being ported from the Python engine layer by layer (docs/native-core.md); the
Python engine stays the reference until the differential test passes, and each native layer is
checked against it. This module turns the engine's Python objects into what the core takes.

Seeding: a fight's dice come from numpy's PCG64. Python keeps the seeding (numpy's
``SeedSequence`` turns ``seed`` into a 128-bit state) and hands the core that state; from there
the core draws the same faces as :class:`~.dice.Dice`, bit for bit.
"""

from __future__ import annotations

import numpy as np

from . import _core

_M64 = (1 << 64) - 1


def _halves(v: int) -> tuple[int, int]:
    return v >> 64, v & _M64


def core_dice(rng: np.random.Generator | int | None = None, sides: int = 6) -> _core.Dice:
    """The core's dice in the state of ``rng`` (a Generator, whose PCG64 state is copied, or a
    seed, as ``Dice(seed)`` takes it): they roll what ``Dice(rng, sides)`` would roll."""
    if not isinstance(rng, np.random.Generator):
        rng = np.random.default_rng(rng)
    st = rng.bit_generator.state
    if st["bit_generator"] != "PCG64":
        raise ValueError(f"rng: bit generator {st['bit_generator']!r}: the core draws PCG64 only")
    return _core.Dice(_halves(st["state"]["state"]), _halves(st["state"]["inc"]),
                      bool(st["has_uint32"]), int(st["uinteger"]), sides)


def generator_state(d: _core.Dice) -> dict:
    """The core dice's generator as numpy writes a PCG64 ``bit_generator.state``."""
    (sh, sl), (ih, il), has, uint = d.bit_state()
    return {"bit_generator": "PCG64", "state": {"state": (sh << 64) | sl, "inc": (ih << 64) | il},
            "has_uint32": int(has), "uinteger": uint}
