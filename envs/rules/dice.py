"""Dice (RULES §1.3, aom112).

A roll turns a *basic value* into a result by risking ``n`` dice: ``n`` d6 + basic - 3n
(``n = 0`` gives the basic value). Values are half-point integers (x2) so that half points
stay exact. Every die comes from one injected ``numpy.random.Generator``; tests use
:class:`LoadedDice` to script the faces.
"""

from __future__ import annotations

import numpy as np

_BUF = 512


class Dice:
    """d6 source drawing from one seeded ``numpy.random.Generator``.

    Faces are drawn in blocks (one numpy call per 512 dice) for speed; a clone shares the
    block already drawn and the generator's state at clone time, so that the original and
    its clones roll the same future dice independently (needed by search agents).
    """

    __slots__ = ("_rng", "_rng_state", "_buf", "_pos", "sides")

    def __init__(self, rng: np.random.Generator | int | None = None, sides: int = 6) -> None:
        if not isinstance(rng, np.random.Generator):
            rng = np.random.default_rng(rng)
        self._rng: np.random.Generator | None = rng
        self._rng_state = None
        self._buf: list[int] = []
        self._pos = 0
        self.sides = sides

    def die(self) -> int:
        """One die face, 1..sides."""
        if self._pos >= len(self._buf):
            self._refill()
        v = self._buf[self._pos]
        self._pos += 1
        return v

    def faces(self, n: int) -> list[int]:
        """``n`` dice: a slice of the drawn block when it holds them all (the same faces
        as ``n`` calls of ``die``)."""
        pos = self._pos
        end = pos + n
        if end <= len(self._buf):
            self._pos = end
            return self._buf[pos:end]
        return [self.die() for _ in range(n)]

    def _refill(self) -> None:
        if self._rng is None:  # a clone: rebuild the generator from the captured state
            cls, state = self._rng_state
            bg = cls()
            bg.state = state
            self._rng = np.random.Generator(bg)
            self._rng_state = None
        self._buf = self._rng.integers(1, self.sides + 1, size=_BUF).tolist()
        self._pos = 0

    def clone(self) -> Dice:
        new = Dice.__new__(Dice)
        new.sides = self.sides
        new._buf = self._buf
        new._pos = self._pos
        new._rng = None
        if self._rng is not None:
            bg = self._rng.bit_generator
            new._rng_state = (type(bg), bg.state)
        else:
            new._rng_state = self._rng_state
        return new


class LoadedDice(Dice):
    """Scripted dice for tests: returns the given faces in order, then fails loudly."""

    __slots__ = ("script",)

    def __init__(self, faces: list[int] | tuple[int, ...] = (), sides: int = 6) -> None:
        super().__init__(0, sides)
        self.script = list(faces)
        self._pos = 0

    def die(self) -> int:
        if self._pos >= len(self.script):
            raise RuntimeError(
                f"LoadedDice ran out after {len(self.script)} faces: the test scripted too few"
            )
        v = self.script[self._pos]
        self._pos += 1
        return v

    def faces(self, n: int) -> list[int]:
        return [self.die() for _ in range(n)]

    def push(self, *faces: int) -> None:
        self.script.extend(faces)

    @property
    def used(self) -> int:
        return self._pos

    def clone(self) -> LoadedDice:
        new = LoadedDice(self.script, self.sides)
        new._pos = self._pos
        return new
