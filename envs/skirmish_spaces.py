"""Actions and observations of a group fight (a scene with any number of fighters).

The duel's catalogue and observation (``catalogue.py``, ``observation.py``) assume one
opponent: attacks carry no target and the observation is "self" against "opp". A scene
of three or more fighters needs both to name *whom*. This module *declares* them (the
layout, the spaces, the field bounds, the slot order and the action ids); the numbers and
the mask are written by the core (``envs/rules/core/observe_group.cpp``, issue 32: one
writer, in C++):

* **Target slots.** Each fighter sees the others in a fixed order (``slot_order``): first
  his allies, then his enemies, each group by distance, then by fighter index. Slot ``s``
  is the ``s``-th fighter of that order, in the observation *and* in the action ids, so
  "attack slot 0" always means the fighter described first among the others.
* **Actions** (``GroupCatalogue``): the duel's catalogue ids ``0 .. N-1`` unchanged, where an
  attack id means "at slot 0", then, for each further slot ``s = 1 .. K-1``, one more id
  per attack of the catalogue (``N + (s - 1) * A + rank of the attack``). With two
  fighters (``K = 1``) the ids are exactly the duel's. The mask is exact: the core maps
  each legal engine choice to its id through ``GroupCatalogue.id_table`` (``id_of`` for
  every slot and duel id), so an id is 1 iff the engine would accept its choice.
* **Observation** (``GroupEncoder``): the duel observation's decision fields (what is
  asked, the incoming attack, the roll, the follow-ons, the turn: the duel writer's numbers
  for ``me`` against the last slot, copied), then ``self_*`` fields and one block per slot
  (``others_*``: offset and distance, arcs both ways, facing, AP, flags, height, hexes to
  the edge, wounds, ally flag, holds both ways, attacker / phasing / first to act flags).
  Every number is divided by its bound (Duel-v1's ``"unit"`` scaling), so the whole
  observation lies in [-1, 1].
* **Weapons.** When a fighter is armed (the armed catalogue, ``catalogue.is_armed``: the
  scenes ``monk_vs_guard``, ``monk_vs_two_guards``) the observation gains the duel's weapon
  fields (``observation.ARMED_FIELDS``): the incoming attack's weapon and mode (copied from
  the duel's numbers like the other decision fields), and ``self_``/``others_`` ``hands``,
  ``usable``, ``sheathed``, ``stuck``, ``dropped_here`` and ``dropped_near`` per fighter,
  written by the duel's own per-fighter writer (``put_fighter_weapons`` in observe.cpp).
  Unarmed scenes keep their layout number for number.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from gymnasium import spaces

from hexdojo.envs.rules import Choice, _core
from hexdojo.envs.rules import hexgrid as hx
from hexdojo.envs.rules.to_core import compile_tables

from .catalogue import Catalogue, is_armed
from .observation import AP_MAX, FLAGS, ObservationEncoder, encoder_for, scale_of

if TYPE_CHECKING:
    from hexdojo.envs.rules import Game, State, Tables

#: The duel observation's fields that describe the decision (copied as they are).
DECISION_FIELDS: tuple[str, ...] = (
    "decision_kind", "deciding", "risk_roll", "incoming_maneuver", "incoming_location",
    "incoming_arc", "incoming_closing", "follow_on_after", "follow_ons", "roll_attack",
    "roll_reaction", "roll_location", "roll_basics", "soak_wound", "turn")
#: The armed duel observation's decision fields, copied too when a fighter is armed.
ARMED_DECISION_FIELDS: tuple[str, ...] = ("incoming_weapon", "incoming_mode")
#: The per-fighter weapon fields (``observation.ARMED_FIELDS``), in the order the core's
#: ``put_fighter_weapons`` takes their offsets (``GroupLayout.self_weapons``).
WEAPON_FIELDS: tuple[str, ...] = ("hands", "usable", "sheathed", "stuck", "dropped_here",
                                  "dropped_near")


def decision_fields(duel: ObservationEncoder) -> tuple[str, ...]:
    """The duel encoding's fields the group observation copies (``DECISION_FIELDS``, and
    ``ARMED_DECISION_FIELDS`` under the armed catalogue)."""
    return DECISION_FIELDS + (ARMED_DECISION_FIELDS if duel.armed else ())


def slot_order(state: State, me: int) -> tuple[int, ...]:
    """The other fighters as ``me`` sees them: allies first, then enemies, each group by
    hex distance, then fighter index (fighters who are out keep their place in it). The
    positions are read off the core's board: ``state.fighters`` would build a snapshot of
    the whole board, some 20 times slower, once per observation."""
    sides = state.game.sides
    pos = [tuple(f.pos) for f in state._core.state.fighters]
    pm = pos[me]
    return tuple(sorted(
        (j for j in range(len(pos)) if j != me),
        key=lambda j: (sides[j] != sides[me], hx.distance(pm, pos[j]), j)))


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

    def id_table(self) -> list[int]:
        """``id_of(duel id, slot)`` for every slot and duel id, slot-major: the table the
        core's mask writer looks ids up in (``_core.GroupObserver``), so the mapping has one
        declaration, this class's."""
        return [self.id_of(b, s) for s in range(self.n_slots) for b in range(self.base.n)]


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


#: A fighter's own fields (``self_*``, and ``others_*`` per slot), in the order the core's
#: ``GroupLayout.self_fighter`` takes their offsets.
SELF_FIELDS = ("facing", "ap", "flags", "height", "edge", "wounds", "worst", "phasing", "first")
#: What lies between the observer and a slot (``others_*``), in ``GroupLayout.others_pair``'s order.
PAIR_FIELDS = ("offset", "distance", "arc_of", "arc_of_me", "ally", "attacker", "holds_me",
               "held_by_me")


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
    """The group observation's declaration (module docstring): its fields, spaces and unit
    factors, flat or Dict; the core's ``GroupObserver`` writes its numbers and the mask."""

    def __init__(self, game: Game, catalogue: GroupCatalogue | None = None) -> None:
        self.game = game
        self.duel = encoder_for(game)
        self.armed = self.duel.armed
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
        cat = catalogue or GroupCatalogue(game.tables, len(game.profiles), self.armed)
        tables = compile_tables(game.tables)
        self.n_ids = cat.n
        self._core = _core.GroupObserver(
            tables, self.duel.core_catalogue, self.core_layout(),
            self.duel.core_layout, self.factor.tolist(), cat.id_table(), cat.n)

    def __reduce__(self) -> tuple[type[GroupEncoder], tuple[Game]]:
        """Pickled as its game (the core's observer is no Python object): an env holding
        it copies, pickles and replays like any other (tests/envs/test_env_pickle.py)."""
        return GroupEncoder, (self.game,)

    def core_layout(self) -> _core.GroupLayout:
        """The field offsets and sizes as the core takes them (``observe_group.hpp``)."""
        at, per, duel = self.offset, _per_fighter(self.game), self.duel
        lay = _core.GroupLayout()
        lay.size, lay.n_slots = self.size, len(self.game.profiles) - 1
        lay.decision = [(duel.offset[f], at[f], duel.space[f].shape[0])
                        for f in decision_fields(duel)]
        lay.self_pos = at["self_pos"]
        lay.self_fighter = [at[f"self_{f}"] for f in SELF_FIELDS]
        lay.others_fighter = [at[f"others_{f}"] for f in SELF_FIELDS]
        lay.fighter_size = [per[f][0] for f in SELF_FIELDS]
        lay.others_pair = [at[f"others_{f}"] for f in PAIR_FIELDS]
        lay.pair_size = [per[f][0] for f in PAIR_FIELDS]
        lay.armed = self.armed
        if self.armed:
            lay.self_weapons = [at[f"self_{f}"] for f in WEAPON_FIELDS]
            lay.others_weapons = [at[f"others_{f}"] for f in WEAPON_FIELDS]
            lay.weapon_size = [duel.space[f"self_{f}"].shape[0] for f in WEAPON_FIELDS]
        return lay

    def observation_space(self, flat: bool = False) -> spaces.Space:
        return self.flat_space if flat else self.space

    def to_dict(self, flat: np.ndarray) -> dict[str, np.ndarray]:
        """The ``Dict`` form: one view of ``flat`` per field."""
        return {k: flat[s] for k, s in self.slices}

    def observe(self, state: State, me: int, slots: tuple[int, ...]
                ) -> tuple[np.ndarray, np.ndarray]:
        """The unit-scaled observation of ``me`` (slots in ``slots`` order) and his exact
        int8 mask (all zeros unless he decides), fresh arrays written by the core."""
        out = np.empty(self.size, dtype=np.float32)
        mask = np.empty(self.n_ids, dtype=np.int8)
        self._core.observe(state._core, me, slots, out, mask)
        return out, mask

    def encode_flat(self, state: State, me: int, slots: tuple[int, ...]) -> np.ndarray:
        """The unit-scaled observation of ``me`` alone, one fresh vector."""
        out = np.empty(self.size, dtype=np.float32)
        self._core.observe(state._core, me, slots, out)
        return out


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
    cat = GroupCatalogue(game.tables, len(game.profiles), armed)
    enc = GroupEncoder(game, cat)
    _CACHE[key] = (game.tables, cat, enc)
    return cat, enc


def observe(state: State, me: int, flat: bool = False
            ) -> tuple[np.ndarray | dict[str, np.ndarray], np.ndarray, tuple[int, ...]]:
    """Observation, exact int8 mask and slot order of fighter ``me``, in one core call."""
    _, enc = spaces_for(state.game)
    slots = slot_order(state, me)
    vec, mask = enc.observe(state, me, slots)
    return (vec if flat else enc.to_dict(vec)), mask, slots
