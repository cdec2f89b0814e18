"""The flat action catalogue: every choice a duellist can ever make, one integer id each.

Why one flat ``Discrete(N)``: masks on composite (MultiDiscrete) actions are per dimension
and cannot say "this location only with that maneuver"; a flat catalogue with an exact
mask can (ANCHORS.md, pitfall 1).

Layout (ids are stable for a given rule set; the shipped rules give ``N = 369``):

* ``0..6``: ``phase: act now``, ``phase: wait``, ``end phase``, ``release hold``,
  ``pass`` (no reaction / no follow-on / no soak), ``hold: move along``, ``hold: let go``;
* then one id per risk level ``risk: 0 dice`` .. ``risk: <max_risk> dice``;
* then every unarmed maneuver in the rules data's order, crossed with every value its
  parameters can ever take (``param_domain``: optional turn x aimed location x option);
  the core owns this layout (``catalogue.hpp``, its domains derived in ``tables.cpp``) and
  this class reads it back id by id (``_core.Catalogue.decode``), adding names and
  ``Choice`` objects (issue 32: one owner, no second enumeration);
* the *armed* catalogue (``armed=True``: ``hexdojo/ArmedDuel-v0``, or any fight with an armed
  fighter) continues with every weapon maneuver (``armed_only`` in the rules data: Stand
  and attack, Block, Ready weapon...) the same way, so its first ids are exactly the
  unarmed catalogue's (the shipped rules: 369 unarmed ids, then the weapon ones).

Attack maneuvers carry no target in the catalogue: in a duel the target is always the
opponent, so ``choice_for`` fills it in. The mask is built by mapping each legal engine
``Choice`` to its id with one dict lookup (both target indices are keys), so building it
never loops over the catalogue.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from hexdojo.envs.rules import Choice, _core
from hexdojo.envs.rules.notation import FIXED_WORDS, choice_words
from hexdojo.envs.rules.to_core import compile_tables

if TYPE_CHECKING:
    from hexdojo.envs.rules import State, Tables

#: The non-maneuver, non-risk choices, in id order, with their readable names (the
#: notation's words: ``hexdojo.envs.rules.notation`` names every choice).
FIXED_CHOICES: tuple[tuple[Choice, str], ...] = FIXED_WORDS


class Catalogue:
    """Every choice of a duellist as an integer id, with names and fast id lookups.

    Attributes: ``n`` (size), ``names`` (readable name per id: the notation's words,
    ``notation.choice_words``), ``templates`` (the engine
    ``Choice`` per id, attacks without target), ``maneuvers`` (unarmed maneuver names in
    catalogue order), ``maneuver_of`` (per id: index into ``maneuvers``, -1 if none) and
    ``first_risk`` (id of ``risk: 0 dice``); ``armed`` (the weapon maneuvers are in it).
    """

    def __init__(self, tables: Tables, n_fighters: int = 2, armed: bool = False) -> None:
        self.tables = tables
        self.armed = bool(armed)
        templates: list[Choice] = [c for c, _ in FIXED_CHOICES]
        names: list[str] = [n for _, n in FIXED_CHOICES]
        self.first_risk = len(templates)
        for r in range(tables.max_risk + 1):
            templates.append(Choice("risk", risk=r))
            names.append(choice_words(tables, templates[-1]))
        self.first_maneuver = len(templates)
        ct = compile_tables(tables)
        core = _core.Catalogue(ct, self.armed)  # the core owns the layout: read it back
        if core.first_maneuver != self.first_maneuver:
            raise AssertionError("the core's catalogue has another risk range")
        by_id = tuple(tables.maneuvers)  # the core's maneuver ids are the data's order
        self.maneuvers: tuple[str, ...] = tuple(by_id[m] for m in core.maneuvers)
        maneuver_of = [-1] * len(templates)
        attack = []
        for i in range(core.first_maneuver, core.n):
            _, _, m, tu, loc, op = core.decode(ct, i)
            name = by_id[m]
            where = None if loc < 0 else tables.locations[loc]
            templates.append(Choice("maneuver", name, None, where, tu, op))
            names.append(choice_words(tables, templates[-1]))
            maneuver_of.append(self.maneuvers.index(name))
            if tables.is_attack(name):
                attack.append(i)
        self.n = len(templates)
        self.templates: tuple[Choice, ...] = tuple(templates)
        self.names: tuple[str, ...] = tuple(names)
        self.maneuver_of = np.asarray(maneuver_of, dtype=np.int16)
        self._maneuver_of_list = maneuver_of
        self.is_attack = np.zeros(self.n, dtype=bool)
        self.is_attack[attack] = True
        # id lookup: attacks are keyed once per possible target
        self._ids: dict[Choice, int] = {}
        for i, c in enumerate(self.templates):
            if self.is_attack[i]:
                for tg in range(n_fighters):
                    self._ids[c._replace(target=tg)] = i
            else:
                self._ids[c] = i
        # concrete choices per acting fighter of a duel (target = the other fighter)
        self._for_fighter: tuple[tuple[Choice, ...], ...] = tuple(
            tuple(
                c._replace(target=1 - f) if self.is_attack[i] else c
                for i, c in enumerate(self.templates)
            )
            for f in range(2)
        )

    # ------------------------------------------------------------------ lookups
    def id_for(self, choice: Choice) -> int:
        """The id of an engine ``Choice`` (its target, if any, is ignored)."""
        i = self._ids.get(choice)
        if i is None and choice.target is not None:
            i = self._ids.get(choice._replace(target=0))
        if i is None:
            raise ValueError(f"{choice} is not in the action catalogue")
        return i

    def choice_for(self, action_id: int, state: State | None = None, fighter: int = 0) -> Choice:
        """The engine ``Choice`` that id ``action_id`` means for ``fighter`` in a duel.

        ``state`` is accepted for symmetry with agents (and checked to be a duel); the
        meaning of an id does not depend on it.
        """
        if state is not None and len(state.fighters) != 2:
            raise ValueError("the catalogue maps targets for duels (two fighters) only")
        return self._for_fighter[fighter][action_id]

    def choices_for(self, fighter: int) -> tuple[Choice, ...]:
        """All concrete choices of ``fighter``, indexed by id (for fast step functions)."""
        return self._for_fighter[fighter]

    def ids(self, choices: Iterable[Choice]) -> list[int]:
        """Ids of engine choices (e.g. ``state.legal_choices()``)."""
        return list(map(self._ids.__getitem__, choices))

    def mask_from_ids(self, ids: list[int]) -> np.ndarray:
        """A fresh int8 mask with 1 at ``ids`` (a bytearray loop: cheaper than numpy
        fancy indexing for the ~20 ids of a typical decision)."""
        buf = bytearray(self.n)
        for i in ids:
            buf[i] = 1
        return np.frombuffer(buf, dtype=np.int8)

    def mask(self, state: State, fighter: int) -> np.ndarray:
        """The exact legality mask (int8, 1 = legal) of ``fighter``; all zeros when it is
        not ``fighter``'s decision or the fight is over."""
        d = state.decision
        if d is None or d.fighter != fighter:
            return np.zeros(self.n, dtype=np.int8)
        return self.mask_from_ids(self.ids(state.legal_choices()))

    def maneuver_ids(self, ids: Iterable[int]) -> list[int]:
        """Indices into ``maneuvers`` of the maneuver ids among ``ids`` (others dropped)."""
        of = self._maneuver_of_list
        return [of[i] for i in ids if of[i] >= 0]


def is_armed(game: Any) -> bool:
    """Does any fighter of ``game`` carry a weapon (in hand or sheathed)? The envs' rule
    for ``armed=None``: such a fight needs the armed catalogue (its weapon choices have
    no id in the unarmed one)."""
    return any(p.armed for p in game.profiles)


def resolve_armed(game: Any, armed: bool | None) -> bool:
    """``armed`` as given, or (None) whether ``game`` has an armed fighter; a one-line
    error for a forced unarmed catalogue with armed fighters (their weapon choices would
    have no id)."""
    if armed is None:
        return is_armed(game)
    if not isinstance(armed, bool):
        raise ValueError(f"armed {armed!r}: allowed True, False or None (from the fighters)")
    if not armed and is_armed(game):
        raise ValueError("armed=False: a fighter carries a weapon, whose maneuvers the "
                         "unarmed catalogue lacks; allowed: armed=True or None")
    return bool(armed)


_CACHE: dict[tuple[int, bool], tuple[Tables, Catalogue]] = {}


def catalogue_for(tables: Tables, armed: bool = False) -> Catalogue:
    """The (cached) catalogue of a rule set: unarmed (Duel-v0/v1's, the default) or armed
    (``armed=True``: every weapon maneuver too, ArmedDuel-v0's)."""
    key = (id(tables), bool(armed))
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is tables:
        return hit[1]
    if len(_CACHE) > 64:
        _CACHE.clear()
    cat = Catalogue(tables, armed=armed)
    _CACHE[key] = (tables, cat)
    return cat


def action_mask(state: State, fighter: int, armed: bool | None = None) -> np.ndarray:
    """The exact legality mask of ``fighter`` over the catalogue of ``state``'s rules
    (``armed``: as the envs decide it, ``resolve_armed``)."""
    return catalogue_for(state.t, resolve_armed(state.game, armed)).mask(state, fighter)
