"""Actions and observations of a group fight (a scene with any number of fighters).

The duel's catalogue and observation (``catalogue.py``, ``observation.py``) assume one
opponent: attacks carry no target and the observation is "self" against "opp". A scene
of three or more fighters needs both to name *whom*. Both are built on the duel's code:

* **Target slots.** Each fighter sees the others in a fixed order (``slot_order``): first
  his allies, then his enemies, each group by distance, then by fighter index. Slot ``s``
  is the ``s``-th fighter of that order, in the observation *and* in the action ids, so
  "attack slot 0" always means the fighter described first among the others.
* **Actions** (``GroupCatalogue``): the duel's catalogue ids ``0 .. N-1`` unchanged, where an
  attack id means "at slot 0", then, for each further slot ``s = 1 .. K-1``, one more id
  per attack of the catalogue (``N + (s - 1) * A + rank of the attack``). With two
  fighters (``K = 1``) the ids are exactly the duel's. The mask is exact: an id is 1 iff
  the engine would accept its choice (one dict lookup per legal engine choice).
* **Observation** (``GroupEncoder``): the duel encoder's decision fields (what is asked,
  the incoming attack, the roll, the follow-ons, the turn) read through
  ``ObservationEncoder.encode_flat(..., opponent=)``, then ``self_*`` fields and one block
  per slot (``others_*``: offset and distance, arcs both ways, facing, AP, flags, height,
  hexes to the edge, wounds, ally flag, holds both ways, attacker / phasing / first to
  act flags). Every number is divided by its bound (Duel-v1's ``"unit"`` scaling), so the
  whole observation lies in [-1, 1].
* **Weapons.** When a fighter is armed (the armed catalogue, ``catalogue.is_armed``: the
  scenes ``monk_vs_guard``, ``monk_vs_two_guards``) the observation gains the duel's weapon
  fields (``observation.ARMED_FIELDS``): the incoming attack's weapon and mode (copied from
  the duel encoding like the other decision fields), and ``self_``/``others_`` ``hands``,
  ``usable``, ``sheathed``, ``stuck``, ``dropped_here`` and ``dropped_near`` per fighter,
  written by the duel encoder's own writer (``observation.put_fighter_weapons``). Unarmed
  scenes keep their layout number for number.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

import numpy as np
from gymnasium import spaces

from hexdojo.envs.rules import Choice
from hexdojo.envs.rules import hexgrid as hx

from .catalogue import Catalogue, is_armed
from .observation import (
    AP_MAX,
    FLAGS,
    ObservationEncoder,
    _direction,
    encoder_for,
    locked_hands,
    put_fighter_weapons,
    scale_of,
)

if TYPE_CHECKING:
    from hexdojo.envs.rules import Game, State, Tables

#: The duel observation's fields that describe the decision (copied as they are).
DECISION_FIELDS: tuple[str, ...] = (
    "decision_kind", "deciding", "risk_roll", "incoming_maneuver", "incoming_location",
    "incoming_arc", "incoming_closing", "follow_on_after", "follow_ons", "roll_attack",
    "roll_reaction", "roll_location", "roll_basics", "soak_wound", "turn")
#: The armed duel observation's decision fields, copied too when a fighter is armed.
ARMED_DECISION_FIELDS: tuple[str, ...] = ("incoming_weapon", "incoming_mode")
#: The per-fighter weapon fields (``observation.ARMED_FIELDS``), in the order
#: ``observation.put_fighter_weapons`` takes their offsets.
WEAPON_FIELDS: tuple[str, ...] = ("hands", "usable", "sheathed", "stuck", "dropped_here",
                                  "dropped_near")


def decision_fields(duel: ObservationEncoder) -> tuple[str, ...]:
    """The duel encoding's fields the group observation copies (``DECISION_FIELDS``, and
    ``ARMED_DECISION_FIELDS`` under the armed catalogue)."""
    return DECISION_FIELDS + (ARMED_DECISION_FIELDS if duel.armed else ())


def slot_order(state: State, me: int) -> tuple[int, ...]:
    """The other fighters as ``me`` sees them: allies first, then enemies, each group by
    hex distance, then fighter index (fighters who are out keep their place in it)."""
    sides = state.game.sides
    fs = state.fighters
    pm = fs[me].pos
    return tuple(sorted(
        (j for j in range(len(fs)) if j != me),
        key=lambda j: (sides[j] != sides[me], hx.distance(pm, fs[j].pos), j)))


class GroupCatalogue:
    """The duel catalogue with every attack crossed with a target slot (module docstring).

    Attributes: ``base`` (the duel ``Catalogue``), ``n`` (size), ``n_slots`` (``K``, the
    other fighters), ``names``, ``base_of`` and ``slot_of`` (per id: the base id and the
    target slot, -1 for a choice without a target).
    """

    def __init__(self, tables: Tables, n_fighters: int, armed: bool = False) -> None:
        base = Catalogue(tables, n_fighters, armed)
        self.base = base
        self.n_slots = n_fighters - 1
        attacks = [int(i) for i in np.flatnonzero(base.is_attack)]
        n_att = len(attacks)
        self._rank = {b: k for k, b in enumerate(attacks)}
        self._n_att = n_att
        extra = range((self.n_slots - 1) * n_att)
        self.base_of: tuple[int, ...] = (*range(base.n), *(attacks[k % n_att] for k in extra))
        self.slot_of: tuple[int, ...] = (
            *(0 if base.is_attack[i] else -1 for i in range(base.n)),
            *(1 + k // n_att for k in extra))
        self.n = len(self.base_of)
        self.names: tuple[str, ...] = tuple(
            base.names[b] + (f" -> slot {s}" if s >= 0 and self.n_slots > 1 else "")
            for b, s in zip(self.base_of, self.slot_of, strict=True))

    def id_of(self, base_id: int, slot: int) -> int:
        """The id of base id ``base_id`` aimed at ``slot`` (ignored for non-attacks)."""
        if self.slot_of[base_id] < 0 or slot == 0:
            return base_id
        return self.base.n + (slot - 1) * self._n_att + self._rank[base_id]

    def ids(self, choices: list[Choice], slots: tuple[int, ...]) -> list[int]:
        """Ids of engine choices of a fighter whose slot order is ``slots``."""
        where = {f: s for s, f in enumerate(slots)}
        lookup = self.base._ids
        return [self.id_of(lookup[c], where[c.target]) if c.target is not None else lookup[c]
                for c in choices]

    def choice(self, action_id: int, slots: tuple[int, ...]) -> Choice:
        """The engine ``Choice`` of id ``action_id`` for a fighter with slot order ``slots``."""
        c = self.base.templates[self.base_of[action_id]]
        s = self.slot_of[action_id]
        return c if s < 0 else c._replace(target=slots[s])

    def mask(self, state: State, me: int, slots: tuple[int, ...]) -> np.ndarray:
        """The exact int8 mask of ``me`` (all zeros when ``me`` is not deciding)."""
        d = state.decision
        if d is None or d.fighter != me:
            return np.zeros(self.n, dtype=np.int8)
        return self.mask_from_ids(self.ids(state.legal_choices(), slots))

    def mask_from_ids(self, ids: list[int]) -> np.ndarray:
        """A fresh int8 mask of size ``n`` with 1 at ``ids``."""
        buf = bytearray(self.n)
        for i in ids:
            buf[i] = 1
        return np.frombuffer(buf, dtype=np.int8)


def _per_fighter(game: Game) -> dict[str, tuple[int, float, float]]:
    """One fighter's fields: name -> (size, low, high)."""
    t, rad = game.tables, game.radius
    n_hold = len(t.hold_kinds) + 1  # the kinds, then "from behind"
    return {
        "facing": (6, 0, 1), "ap": (1, 0, AP_MAX), "flags": (len(FLAGS), 0, 1),
        "height": (1, 0, 3), "edge": (1, 0, rad), "wounds": (len(t.locations), 0, len(t.wound_levels) - 1),
        "worst": (len(t.wound_levels), 0, 1), "phasing": (1, 0, 1), "first": (1, 0, 1),
    } | {"offset": (2, -2 * rad, 2 * rad), "distance": (1, 0, 2 * rad), "arc_of": (6, 0, 1),
         "arc_of_me": (6, 0, 1), "ally": (1, 0, 1), "attacker": (1, 0, 1),
         "holds_me": (n_hold, 0, 1), "held_by_me": (n_hold, 0, 1)}


SELF_FIELDS = ("facing", "ap", "flags", "height", "edge", "wounds", "worst", "phasing", "first")


def _layout(game: Game, duel: ObservationEncoder) -> dict[str, tuple[int, float, float]]:
    """Field name -> (size, low, high), sorted by name as ``spaces.Dict`` sorts them."""
    k = len(game.profiles) - 1
    rad = game.radius

    def like(f: str) -> tuple[int, float, float]:  # a duel field's size and bounds
        return duel.space[f].shape[0], float(duel.space[f].low[0]), float(duel.space[f].high[0])

    fields = {f: like(f) for f in decision_fields(duel)}
    per = _per_fighter(game)
    fields |= {f"self_{f}": per[f] for f in SELF_FIELDS}
    fields["self_pos"] = (2, -rad, rad)
    fields |= {f"others_{f}": (k * n, lo, hi) for f, (n, lo, hi) in per.items()}
    if duel.armed:
        for f in WEAPON_FIELDS:
            n, lo, hi = like(f"self_{f}")
            fields[f"self_{f}"] = (n, lo, hi)
            fields[f"others_{f}"] = (k * n, lo, hi)
    return dict(sorted(fields.items()))


class GroupEncoder:
    """Encodes a group fight for one fighter (module docstring), unit-scaled, flat or Dict."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.duel = encoder_for(game)
        layout = _layout(game, self.duel)
        self.offset: dict[str, int] = {}
        self.slices: list[tuple[str, slice]] = []
        lows, highs, factors, subs = [], [], [], {}
        off = 0
        for name, (size, lo, hi) in layout.items():
            sc = scale_of(lo, hi)
            self.offset[name] = off
            self.slices.append((name, slice(off, off + size)))
            subs[name] = spaces.Box(lo / sc, hi / sc, (size,), np.float32)
            lows.append(np.full(size, lo / sc, np.float32))
            highs.append(np.full(size, hi / sc, np.float32))
            factors.append(np.full(size, 1.0 / sc, np.float32))
            off += size
        self.size = off
        self.space = spaces.Dict(subs)
        self.flat_space = spaces.Box(np.concatenate(lows), np.concatenate(highs), dtype=np.float32)
        self.factor = np.concatenate(factors).astype(np.float32)
        self._zero = array("f", bytes(4 * off))
        d_idx, g_idx = [], []
        for f in decision_fields(self.duel):
            s = self.duel.offset[f]
            n = self.duel.space[f].shape[0]
            d_idx.extend(range(s, s + n))
            g_idx.extend(range(self.offset[f], self.offset[f] + n))
        self._from_duel = np.asarray(d_idx, dtype=np.intp)
        self._to_group = np.asarray(g_idx, dtype=np.intp)
        per = _per_fighter(game)
        self._sizes = {f: n for f, (n, _, _) in per.items()}
        self._loc_index = {n: i for i, n in enumerate(game.tables.locations)}
        self._hold_index = {k: i for i, k in enumerate(game.tables.hold_kinds)}
        self.armed = self.duel.armed
        if self.armed:
            self._weapon_offsets(len(game.profiles) - 1)

    def _weapon_offsets(self, k: int) -> None:
        """Offsets of the weapon fields: ``self_`` ones, then one tuple per slot, each in
        ``WEAPON_FIELDS`` order (``put_fighter_weapons``)."""
        sizes = {f: self.duel.space[f"self_{f}"].shape[0] for f in WEAPON_FIELDS}
        self._weapon_index = {w: i for i, w in enumerate(self.game.tables.weapon_ids)}
        self._w_self = tuple(self.offset[f"self_{f}"] for f in WEAPON_FIELDS)
        self._w_slots = tuple(
            tuple(self.offset[f"others_{f}"] + s * sizes[f] for f in WEAPON_FIELDS)
            for s in range(k))

    def observation_space(self, flat: bool = False) -> spaces.Space:
        return self.flat_space if flat else self.space

    def to_dict(self, flat: np.ndarray) -> dict[str, np.ndarray]:
        """The ``Dict`` form: one view of ``flat`` per field."""
        return {k: flat[s] for k, s in self.slices}

    def encode_flat(self, state: State, me: int, slots: tuple[int, ...],
                    legal_ids: list[int] | None = None) -> np.ndarray:
        """The unit-scaled observation of ``me`` (slots in ``slots`` order), one fresh vector.

        ``legal_ids`` are *duel* catalogue ids (for the follow-ons field), if known."""
        b = array("f", self._zero)
        self._fighter(b, state, me, me, "self_", 0)
        for s, j in enumerate(slots):
            self._fighter(b, state, me, j, "others_", s)
            self._pair(b, state, me, j, s)
        if self.armed:
            self._weapons(b, state, me, slots)
        out = np.frombuffer(b, dtype=np.float32).copy()
        duel = self.duel.encode_flat(state, me, legal_ids, opponent=slots[-1])
        out[self._to_group] = duel[self._from_duel]
        out *= self.factor
        return out

    def _weapons(self, b: array, state: State, me: int, slots: tuple[int, ...]) -> None:
        """Each fighter's weapon fields (raw units; ``encode_flat`` scales them), by the
        duel encoder's writer, for ``me`` and then each slot."""
        locked = locked_hands(state) if state.decision is not None else {}
        wi, li = self._weapon_index, self._loc_index
        put_fighter_weapons(b, state, me, self._w_self, wi, li, locked.get(me))
        for offsets, j in zip(self._w_slots, slots, strict=True):
            put_fighter_weapons(b, state, j, offsets, wi, li, locked.get(j))

    def _put(self, b: array, field: str, s: int, k: int, value: float) -> None:
        b[self.offset[field] + s * self._sizes[field.split("_", 1)[1]] + k] = value

    def _fighter(self, b: array, state: State, me: int, j: int, pre: str, s: int) -> None:
        """The fields of fighter ``j`` (self or slot ``s``)."""
        f = state.fighters[j]
        put = self._put
        if pre == "self_":
            b[self.offset["self_pos"]] = f.pos[0]
            b[self.offset["self_pos"] + 1] = f.pos[1]
        put(b, pre + "facing", s, f.facing, 1)
        put(b, pre + "ap", s, 0, min(f.ap, AP_MAX))
        flags = (f.prone, f.mounted, f.phased, f.status == "staggered", f.status == "stunned",
                 f.out is not None)
        for k, on in enumerate(flags):
            if on:
                put(b, pre + "flags", s, k, 1)
        put(b, pre + "height", s, 0, f.height)
        put(b, pre + "edge", s, 0, self.game.radius - hx.distance((0, 0), f.pos))
        for loc, lvl in f.wounds:
            k = self._loc_index[loc]
            i = self.offset[pre + "wounds"] + s * self._sizes["wounds"] + k
            b[i] = max(b[i], lvl)
        put(b, pre + "worst", s, f.worst, 1)
        if state.phasing == j:
            put(b, pre + "phasing", s, 0, 1)
        if state.order and state.order[0] == j:
            put(b, pre + "first", s, 0, 1)

    def _pair(self, b: array, state: State, me: int, j: int, s: int) -> None:
        """What lies between ``me`` and the fighter ``j`` of slot ``s``."""
        put = self._put
        fm, fj = state.fighters[me], state.fighters[j]
        dq, dr = fj.pos[0] - fm.pos[0], fj.pos[1] - fm.pos[1]
        put(b, "others_offset", s, 0, dq)
        put(b, "others_offset", s, 1, dr)
        put(b, "others_distance", s, 0, hx.distance(fm.pos, fj.pos))
        put(b, "others_arc_of", s, (_direction(state, j, me) - fm.facing) % 6, 1)
        put(b, "others_arc_of_me", s, (_direction(state, me, j) - fj.facing) % 6, 1)
        if state.game.sides[j] == state.game.sides[me]:
            put(b, "others_ally", s, 0, 1)
        d = state.decision
        if d is not None and d.fighter == me and state.context().get("attacker") == j:
            put(b, "others_attacker", s, 0, 1)
        n_kinds = len(self._hold_index)
        for h in state.holds:
            if (h.holder, h.held) == (j, me):
                field = "others_holds_me"
            elif (h.holder, h.held) == (me, j):
                field = "others_held_by_me"
            else:
                continue
            put(b, field, s, self._hold_index[h.kind], 1)
            if h.from_behind:
                put(b, field, s, n_kinds, 1)


_CACHE: dict[tuple[int, int, int, int, bool], tuple[object, GroupCatalogue, GroupEncoder]] = {}


def spaces_for(game: Game) -> tuple[GroupCatalogue, GroupEncoder]:
    """The (cached) catalogue and encoder of a group game (rules, radius, limit, size)."""
    armed = is_armed(game)  # the armed catalogue exactly when a fighter carries a weapon
    key = (id(game.tables), game.radius, game.turn_limit, len(game.profiles), armed)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is game.tables:
        return hit[1], hit[2]
    if len(_CACHE) > 64:
        _CACHE.clear()
    cat, enc = GroupCatalogue(game.tables, len(game.profiles), armed), GroupEncoder(game)
    _CACHE[key] = (game.tables, cat, enc)
    return cat, enc


def observe(state: State, me: int, flat: bool = False
            ) -> tuple[np.ndarray | dict[str, np.ndarray], np.ndarray, tuple[int, ...]]:
    """Observation, exact int8 mask and slot order of fighter ``me`` in one pass."""
    cat, enc = spaces_for(state.game)
    slots = slot_order(state, me)
    d = state.decision
    if d is not None and d.fighter == me:
        legal = state.legal_choices()
        mask = cat.mask_from_ids(cat.ids(legal, slots))
        duel_ids: list[int] | None = cat.base.ids(legal)
    else:
        mask = np.zeros(cat.n, dtype=np.int8)
        duel_ids = None
    vec = enc.encode_flat(state, me, slots, duel_ids)
    return (vec if flat else enc.to_dict(vec)), mask, slots
