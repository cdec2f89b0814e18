"""Fighter sheets as numbers: what a *general* policy (issue 33, one policy for any pairing)
sees of the two fighters besides the fight itself.

A duel's observation (``envs/observation.py``) says where the fighters stand, their AP,
wounds and holds, but not who they are: a policy trained on one pairing learns its sheets
implicitly and plays badly outside them. :class:`SheetEncoder` writes a sheet (a validated
``Profile``) as a fixed vector whose layout comes from the rules data alone: the six
characteristics, every skill, every named specialism, the protection value of every
location, the weapon in each hand and the sheathed ones (one slot per weapon of the data),
encumbrance, helmet, mount, height and the risk defaults. Numbers are the sheet's half
points divided by :data:`SCALE`, so a typical sheet's entries lie in [-1, 1].

:func:`with_sheets` appends both sheets to a duel observation from one fighter's point of
view: his own first, then his opponent's, so one policy plays either side.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from gymnasium import spaces

from .catalogue import Catalogue
from .observation import encoder_for
from .rules import Choice, State
from .rules.fighter import Profile
from .rules.tables import Tables

#: half points per unit of the encoded numbers (a skill of 5 = 10 half points -> 1.0)
SCALE = 10.0
#: the sheet's scalar entries after the named lists (encumbrance and helmet modifiers in
#: half points, mounted 0/1, height, then the risk defaults)
SCALARS = ("encumbrance", "helmet", "mounted", "height", "risk_ap", "risk_initiative",
           "risk_damage", "risk_pain", "risk_knockback", "risk_lock_damage")
#: the bounds of the sheet entries in the general observation space
SHEET_BOUND = 20.0


class SheetEncoder:
    """A fighter sheet as a vector of :attr:`size` float32 numbers (see the module)."""

    def __init__(self, tables: Tables) -> None:
        d = tables.data
        self.characteristics: tuple[str, ...] = tuple(d.characteristics)
        self.skills: tuple[str, ...] = tuple(d.skills)
        self.specialisms: tuple[str, ...] = tuple(d.specialisms)
        self.locations: tuple[str, ...] = tuple(tables.locations)
        self.weapons: tuple[str, ...] = tuple(tables.weapons)
        self.names: tuple[str, ...] = (
            tuple(f"char:{c}" for c in self.characteristics)
            + tuple(f"skill:{s}" for s in self.skills)
            + tuple(f"spec:{s}" for s in self.specialisms)
            + tuple(f"pv:{loc}" for loc in self.locations)
            + tuple(f"right:{w}" for w in self.weapons)
            + tuple(f"left:{w}" for w in self.weapons)
            + tuple(f"sheathed:{w}" for w in self.weapons)
            + SCALARS)
        self.size = len(self.names)

    def encode(self, p: Profile) -> np.ndarray:
        """The sheet ``p`` as :attr:`size` numbers (layout: :attr:`names`)."""
        half = [p.char(c) for c in self.characteristics]
        half += [p.skill(s) for s in self.skills]
        half += [p.specs.get(s, 0) for s in self.specialisms]
        half += [p.pv.get(loc, 0) for loc in self.locations]
        out = np.zeros(self.size, np.float32)
        n = len(half)
        out[:n] = np.asarray(half, np.float32) / SCALE
        right, left = p.hands
        for k, w in enumerate(self.weapons):
            out[n + k] = float(right == w)
            out[n + len(self.weapons) + k] = float(left == w)
            out[n + 2 * len(self.weapons) + k] = float(p.sheathed.count(w))
        r = p.risk
        out[n + 3 * len(self.weapons):] = [
            p.enc_mod / SCALE, p.helmet_mod / SCALE, float(p.mounted), float(p.height),
            r.ap, r.initiative, r.damage, r.pain, r.knockback, r.lock_damage]
        return out

    def pair(self, profiles: Sequence[Profile]) -> np.ndarray:
        """Both views of a duel: row ``i`` is fighter ``i``'s sheet, then his opponent's."""
        a, b = self.encode(profiles[0]), self.encode(profiles[1])
        return np.stack([np.concatenate([a, b]), np.concatenate([b, a])])


def with_sheets(obs: np.ndarray, views: np.ndarray, side: np.ndarray | int) -> np.ndarray:
    """``obs`` (one flat observation, or a batch) with the sheets of ``views``
    (:meth:`SheetEncoder.pair`) appended as seen from ``side`` (an int, or one per row)."""
    if obs.ndim == 1:
        return np.concatenate([obs, views[int(side)]])
    return np.concatenate([obs, views[np.asarray(side, np.int64)]], axis=1)


# ----------------------------------------------------------------------- the general view
_VIEWS: dict[int, tuple[object, np.ndarray]] = {}


def sheet_views(game: object) -> np.ndarray:
    """:meth:`SheetEncoder.pair` of a duel's two sheets (cached per game)."""
    hit = _VIEWS.get(id(game))
    if hit is not None and hit[0] is game:
        return hit[1]
    if len(_VIEWS) > 256:
        _VIEWS.clear()
    views = SheetEncoder(game.tables).pair(game.profiles)  # type: ignore[attr-defined]
    _VIEWS[id(game)] = (game, views)
    return views


def general_space(game: object) -> spaces.Box:
    """The general policy's observation space for ``game``'s rules: the armed duel's flat,
    unit-scaled observation (Duel-v2's layout, the same for every pairing), then both sheets."""
    base = encoder_for(game, armed=True).observation_space("unit", flat=True)  # type: ignore[arg-type]
    n = 2 * SheetEncoder(game.tables).size  # type: ignore[attr-defined]
    low = np.concatenate([base.low, np.full(n, -SHEET_BOUND, np.float32)])
    high = np.concatenate([base.high, np.full(n, SHEET_BOUND, np.float32)])
    return spaces.Box(low, high, dtype=np.float32)


def general_inputs(state: State) -> tuple[np.ndarray, np.ndarray, list[Choice], list[int], Catalogue]:
    """What the general policy sees at the decider's decision: the observation (armed,
    unit-scaled, both sheets from the decider's side), the boolean mask, the legal choices,
    their action ids and the catalogue that reads an id back into a choice."""
    enc = encoder_for(state.game, armed=True)
    i = state.decision.fighter
    legal = state.legal_choices()
    ids = enc.cat.ids(legal)
    flat = enc.rescale(enc.encode_flat(state, i), "unit")
    mask = np.zeros(enc.cat.n, dtype=bool)
    mask[ids] = True
    return with_sheets(flat.astype(np.float32), sheet_views(state.game), i), mask, legal, ids, enc.cat
