"""Observation of a duel from one fighter's point of view: a ``Dict`` of bounded ``Box``es.

Every field is a small float32 vector with documented bounds (README, "Observation"), so
that the same numbers serve three forms: the ``Dict`` (default), a flat ``Box`` (the fields
concatenated in sorted key order, equal to ``gymnasium.spaces.flatten`` of the ``Dict``),
and the PettingZoo ``{"observation", "action_mask"}`` pair.

One writer (issue 32): this module *declares* the layout (the fields, their sizes, bounds
and order, the spaces, the scalings); the numbers are written by the core
(``envs/rules/core/observe.cpp``, through ``_core.observe_fight``) for every env, the learned
agents and the native vector env alike, so there is no second copy of the encoding to keep
equal (``tests/envs/test_observation_lock.py`` pinned the old Python writer's numbers, and
the core's match them). Each observation is a fresh vector; the ``Dict`` fields are views
into it, so no two observations share memory. Values that could exceed their bounds (AP)
are clipped, so every observation lies in its space.

Two scalings of the same numbers (``SCALINGS``): ``"raw"`` (``hexdojo/Duel-v0``: natural
units, e.g. AP 0..30, ``roll_basics`` -30..50 points) and ``"unit"`` (``hexdojo/Duel-v1``:
every field divided by the largest magnitude its bounds allow, ``scale_of``, so every
number lies in [-1, 1]: the scale Gymnasium's and SB3's default networks expect; with the
raw scale a default MaskablePPO learnt nothing in 50k steps, ``docs/learnability.md``).

With an armed catalogue (``hexdojo/ArmedDuel-v0``, or any fight with an armed fighter:
``catalogue.resolve_armed``) the layout gains the weapon fields (``ARMED_FIELDS``): what
each fighter holds in each hand and whether that hand's weapon can act now, what he has
sheathed, where weapons are stuck in him, the weapons lying in and next to his hex, and
the weapon and mode of the attack a reaction or roll is about. Unarmed layouts (Duel-v0,
Duel-v1) are unchanged number for number.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from gymnasium import spaces

from hexdojo.envs.rules import DECISION_KINDS, RISK_ABOUT, _core
from hexdojo.envs.rules.to_core import compile_tables

from .catalogue import Catalogue, catalogue_for, resolve_armed
from .observation_layout import native_layout

if TYPE_CHECKING:
    from hexdojo.envs.rules import Game, State

#: AP above this are reported as this (the observation must stay inside its bounds).
AP_MAX = 30
#: Basic values of a pending roll (points) are reported clipped to this range.
BASIC_MIN, BASIC_MAX = -30, 50
#: Per-fighter flags, in order.
FLAGS: tuple[str, ...] = ("prone", "mounted", "phased", "staggered", "stunned", "out")
#: Observation scalings: natural units (Duel-v0) or each field divided by its bound (Duel-v1).
SCALINGS: tuple[str, ...] = ("raw", "unit")
#: Counts of weapons sheathed / lying in or next to a hex above this are reported as this.
WEAPON_COUNT_MAX = 2
#: The fields an armed catalogue adds ("self_"/"opp_" ones once per fighter), and why.
ARMED_FIELDS: dict[str, str] = {
    "incoming_weapon": "the weapon of the attack reacted to or rolled for (one-hot over weapon_ids)",
    "incoming_mode": "that attack's mode (index into the weapon's modes, one-hot)",
    "hands": "per hand (right, left): one-hot over weapon_ids + empty (a two-handed weapon in both)",
    "usable": "per hand: holds a weapon that its arm may use now (not held, not locked by a block)",
    "sheathed": "count per weapon id of the sheathed weapons (clipped to WEAPON_COUNT_MAX)",
    "stuck": "per location: an impaling weapon is stuck there (§1.15)",
    "dropped_here": "count per weapon id lying in his hex (Ready weapon picks them up)",
    "dropped_near": "count per weapon id lying in the six hexes around his",
}


def check_scaling(scaling: str) -> str:
    """``scaling`` if it is one of ``SCALINGS``, else a one-line ``ValueError``."""
    if scaling not in SCALINGS:
        raise ValueError(f"observation_scale {scaling!r}: allowed {', '.join(map(repr, SCALINGS))}")
    return scaling


def scale_of(low: float, high: float) -> float:
    """The divisor of a field in the ``"unit"`` scaling: its largest possible magnitude."""
    return max(abs(low), abs(high), 1.0)


def _layout(game: Game, cat: Catalogue) -> dict[str, tuple[int, float, float]]:
    """Field name -> (size, low, high). Sorted by name, as ``spaces.Dict`` sorts them."""
    t = game.tables
    rad = game.radius
    n_man = len(cat.maneuvers)
    n_loc = len(t.locations)
    n_lvl = len(t.wound_levels)
    n_hold = len(t.hold_kinds)
    fields: dict[str, tuple[int, float, float]] = {
        "decision_kind": (len(DECISION_KINDS), 0, 1),
        "deciding": (1, 0, 1),
        "risk_roll": (len(RISK_ABOUT), 0, 1),
        "incoming_maneuver": (n_man, 0, 1),
        "incoming_location": (n_loc, 0, 1),
        "incoming_arc": (6, 0, 1),
        "incoming_closing": (1, 0, 1),
        "follow_on_after": (n_man, 0, 1),
        "follow_ons": (n_man, 0, 1),
        "roll_attack": (n_man, 0, 1),
        "roll_reaction": (n_man, 0, 1),
        "roll_location": (n_loc, 0, 1),
        "roll_basics": (2, BASIC_MIN, BASIC_MAX),
        "soak_wound": (n_lvl, 0, 1),
        "opp_offset": (2, -2 * rad, 2 * rad),
        "distance": (1, 0, 2 * rad),
        "same_hex": (1, 0, 1),
        "arc_of_opp": (6, 0, 1),
        "arc_of_self": (6, 0, 1),
        "initiative": (2, 0, 1),
        "phase": (3, 0, 1),
        "turn": (1, 0, game.turn_limit),
    }
    for who in ("self", "opp"):
        fields.update({
            f"{who}_pos": (2, -rad, rad),
            f"{who}_facing": (6, 0, 1),
            f"{who}_ap": (1, 0, AP_MAX),
            f"{who}_flags": (len(FLAGS), 0, 1),
            f"{who}_height": (1, 0, 3),
            f"{who}_edge": (1, 0, rad),
            f"{who}_wounds": (n_loc, 0, n_lvl - 1),
            f"{who}_worst": (n_lvl, 0, 1),
            f"{who}_hold": (n_hold + 1, 0, 1),
        })
    if cat.armed:
        fields.update(_armed_layout(t))
    return dict(sorted(fields.items()))


def _armed_layout(t: Any) -> dict[str, tuple[int, float, float]]:
    """The weapon fields of an armed catalogue's observation (``ARMED_FIELDS``)."""
    n_w = len(t.weapon_ids)
    fields: dict[str, tuple[int, float, float]] = {
        "incoming_weapon": (n_w, 0, 1),
        "incoming_mode": (t.max_modes, 0, 1),
    }
    for who in ("self", "opp"):
        fields.update({
            f"{who}_hands": (2 * (n_w + 1), 0, 1),
            f"{who}_usable": (2, 0, 1),
            f"{who}_sheathed": (n_w, 0, WEAPON_COUNT_MAX),
            f"{who}_stuck": (len(t.locations), 0, 1),
            f"{who}_dropped_here": (n_w, 0, WEAPON_COUNT_MAX),
            f"{who}_dropped_near": (n_w, 0, WEAPON_COUNT_MAX),
        })
    return fields


class ObservationEncoder:
    """Encodes a ``State`` for one fighter. One encoder per (rules, radius, turn limit)."""

    def __init__(self, game: Game, catalogue: Catalogue | None = None) -> None:
        self.game = game
        self.cat = catalogue or catalogue_for(game.tables)
        t = game.tables
        layout = _layout(game, self.cat)
        self.keys: tuple[str, ...] = tuple(layout)
        off = 0
        self.offset: dict[str, int] = {}
        self.slices: list[tuple[str, slice]] = []
        lows: list[np.ndarray] = []
        highs: list[np.ndarray] = []
        divisors: list[np.ndarray] = []
        subspaces: dict[str, spaces.Box] = {}
        unit_subspaces: dict[str, spaces.Box] = {}
        for k, (size, lo, hi) in layout.items():
            self.offset[k] = off
            self.slices.append((k, slice(off, off + size)))
            subspaces[k] = spaces.Box(lo, hi, (size,), np.float32)
            sc = scale_of(lo, hi)
            unit_subspaces[k] = spaces.Box(lo / sc, hi / sc, (size,), np.float32)
            lows.append(np.full(size, lo, np.float32))
            highs.append(np.full(size, hi, np.float32))
            divisors.append(np.full(size, sc, np.float32))
            off += size
        self.size = off
        self.space = spaces.Dict(subspaces)
        self.flat_space = spaces.Box(np.concatenate(lows), np.concatenate(highs), dtype=np.float32)
        #: per number: the factor that takes the raw value to the "unit" scaling
        self.unit_factor = (1.0 / np.concatenate(divisors)).astype(np.float32)
        self.unit_space = spaces.Dict(unit_subspaces)
        self.unit_flat_space = spaces.Box(self.flat_space.low * self.unit_factor,
                                          self.flat_space.high * self.unit_factor,
                                          dtype=np.float32)
        self.armed = self.cat.armed
        #: what the core takes for this layout (its writer, the vector env, the group observer,
        #: a learned network): the core's catalogue and these field offsets, built once here
        self.core_catalogue = _core.Catalogue(compile_tables(t), self.armed)
        self.core_layout = native_layout(self)

    def __reduce__(self) -> tuple[Any, tuple[Game, bool]]:
        """Pickled as its game and catalogue kind (the core's catalogue and layout are no
        Python objects): anything holding an encoder (an env, the OpenSpiel game, an agent)
        copies and pickles (tests/envs/test_env_pickle.py, the OpenSpiel random sim test)."""
        return _rebuilt_encoder, (self.game, self.armed)

    # ------------------------------------------------------------------ encoding
    def encode_flat(self, state: State, fighter: int, opponent: int | None = None) -> np.ndarray:
        """The observation as one fresh float32 vector (the flat ``Box`` form), raw units,
        written by the core (``_core.observe_fight``: the numbers have one writer, issue 32).

        ``opponent``: the fighter seen as "opp" (default: the other of a duel).
        """
        out = np.empty(self.size, dtype=np.float32)
        op = (1 - fighter) if opponent is None else opponent
        _core.observe_fight(state._core, self.core_catalogue, self.core_layout, fighter, op, out)
        return out

    def encode_with_mask(self, state: State, fighter: int) -> tuple[np.ndarray, np.ndarray]:
        """The flat observation and the exact int8 mask of ``fighter`` (all zeros when it
        is not ``fighter``'s decision), both written by the core in one call. The mask is
        the fight's own (a lab's restricted view masks its bans itself)."""
        out = np.empty(self.size, dtype=np.float32)
        mask = np.empty(self.cat.n, dtype=np.int8)
        _core.observe_fight(state._core, self.core_catalogue, self.core_layout, fighter, 1 - fighter,
                            out, mask)
        return out, mask

    def observation_space(self, scaling: str = "raw", flat: bool = False) -> spaces.Space:
        """The space of the observations in ``scaling`` (``SCALINGS``), ``Dict`` or flat."""
        if check_scaling(scaling) == "unit":
            return self.unit_flat_space if flat else self.unit_space
        return self.flat_space if flat else self.space

    def rescale(self, flat: np.ndarray, scaling: str) -> np.ndarray:
        """``flat`` (a fresh raw vector from ``encode_flat``) in ``scaling``, in place."""
        if scaling == "unit":
            flat *= self.unit_factor
        return flat

    def scaling_of(self, space: spaces.Space) -> str | None:
        """Which scaling of this encoder's layout ``space`` (a model's saved observation
        space, ``Dict`` or flat) is: ``"raw"``, ``"unit"``, or None for another layout."""
        flat = isinstance(space, spaces.Box)
        for scaling in SCALINGS:
            if _same_box_layout(space, self.observation_space(scaling, flat)):
                return scaling
        return None

    def to_dict(self, flat: np.ndarray) -> dict[str, np.ndarray]:
        """The ``Dict`` form: one view of ``flat`` per field."""
        return {k: flat[s] for k, s in self.slices}

    def encode(self, state: State, fighter: int) -> dict[str, np.ndarray]:
        """The ``Dict`` observation of ``state`` seen by ``fighter``."""
        return self.to_dict(self.encode_flat(state, fighter))


def _same_box_layout(a: spaces.Space, b: spaces.Space) -> bool:
    """Same keys, shapes and bounds (``Box.__eq__`` also compares dtypes, which a saved
    space keeps anyway)."""
    if isinstance(a, spaces.Dict) and isinstance(b, spaces.Dict):
        return a.spaces.keys() == b.spaces.keys() and all(
            _same_box_layout(a[k], b[k]) for k in a.spaces)
    if isinstance(a, spaces.Box) and isinstance(b, spaces.Box):
        return a.shape == b.shape and bool(np.allclose(a.low, b.low) and np.allclose(a.high, b.high))
    return False


_CACHE: dict[tuple[int, int, int, bool], tuple[Any, ObservationEncoder]] = {}


def _rebuilt_encoder(game: Game, armed: bool) -> ObservationEncoder:
    """An unpickled encoder: a fresh one of the same game and catalogue kind."""
    return ObservationEncoder(game, catalogue_for(game.tables, armed))


def encoder_for(game: Game, armed: bool | None = None) -> ObservationEncoder:
    """The (cached) encoder for a game's rules, arena radius, turn limit and catalogue
    (``armed``: False the unarmed one, Duel-v0/v1's; True the armed one, ArmedDuel-v0's; None:
    armed if a fighter is, ``catalogue.resolve_armed``)."""
    armed = resolve_armed(game, armed) if armed is None else bool(armed)
    key = (id(game.tables), game.radius, game.turn_limit, armed)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is game.tables:
        return hit[1]
    if len(_CACHE) > 64:
        _CACHE.clear()
    enc = ObservationEncoder(game, catalogue_for(game.tables, armed))
    _CACHE[key] = (game.tables, enc)
    return enc


def encode_observation(state: State, fighter: int, scaling: str = "raw"
                       ) -> dict[str, np.ndarray]:
    """The ``Dict`` observation of ``state`` seen by ``fighter`` (for agents wrapping a
    trained policy as ``act(state)``), in ``scaling`` ("raw": Duel-v0, "unit": Duel-v1)."""
    enc = encoder_for(state.game)
    return enc.to_dict(enc.rescale(enc.encode_flat(state, fighter), check_scaling(scaling)))
