"""The duel's observation written by the native core (docs/native-core.md, "The env side").

``envs/observation.py`` owns the layout and the spaces; the core writes the same numbers
into a preallocated float32 buffer (``_core.observe``). :func:`native_layout` hands the core
the layout (the envs' fast path and vector env); :func:`native_context` and
:class:`NativeObserver` fill what the open decision is about from a ``State`` and copy its
board (``native.core_state``), which tests/core/test_core_observe.py uses to hold the two writers
equal number for number.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hexdojo.envs.rules import DECISION_KINDS, RISK_ABOUT, _core
from hexdojo.envs.rules.to_core import Ids, compile_tables, core_state

from .observation import ObservationEncoder, locked_hands

_PER = ("pos", "facing", "ap", "flags", "height", "edge", "wounds", "worst", "hold")
_PER_ARMED = ("hands", "usable", "sheathed", "stuck", "dropped_here", "dropped_near")
_SHARED = ("decision_kind", "deciding", "risk_roll", "roll_attack", "roll_location",
           "roll_reaction", "roll_basics", "soak_wound", "incoming_maneuver",
           "incoming_location", "incoming_arc", "incoming_closing", "follow_on_after",
           "follow_ons", "opp_offset", "distance", "same_hex", "arc_of_opp", "arc_of_self",
           "initiative", "phase", "turn")


def native_layout(enc: ObservationEncoder) -> _core.ObsLayout:
    """The encoder's field offsets as the core takes them."""
    lay = _core.ObsLayout()
    lay.size = enc.size
    for k in _SHARED:
        setattr(lay, k, enc.offset[k])
    lay.per = [[enc.offset[f"{who}_{k}"] for k in _PER] for who in ("self", "opp")]
    lay.armed = enc.armed
    if enc.armed:
        lay.incoming_weapon = enc.offset["incoming_weapon"]
        lay.incoming_mode = enc.offset["incoming_mode"]
        lay.per_armed = [[enc.offset[f"{who}_{k}"] for k in _PER_ARMED] for who in ("self", "opp")]
    return lay


def native_context(state: Any, ids: Ids, legal_ids: list[int] | None) -> _core.ObsContext:
    """What the open decision of Python State ``state`` is about, as the core's ObsContext."""
    c = _core.ObsContext()
    c.phasing = -1 if state.phasing is None else state.phasing
    d = state.decision
    if d is None:
        return c
    c.fighter, c.kind = d.fighter, DECISION_KINDS.index(d.kind)
    c.about = RISK_ABOUT.index(d.about) if d.about in RISK_ABOUT else -1
    ctx = state.context()
    c.attack = ids.opt(ids.maneuver, ctx.get("attack"))
    c.location = ids.opt(ids.location, ctx.get("location"))
    c.reaction = ids.opt(ids.maneuver, ctx.get("reaction"))
    c.arc = ctx.get("arc", -1)
    c.closing = bool(ctx.get("closing"))
    c.after = ids.opt(ids.maneuver, ctx.get("after"))
    c.basics = list((ctx.get("basics") or {}).items())
    c.wound = ctx.get("wound", -1)
    if ctx.get("weapon") is not None:
        c.weapon, c.mode = ids.weapon[ctx["weapon"]], ctx["mode"]
    locked = [-1] * 8
    for i, hand in locked_hands(state).items():
        locked[i] = hand
    c.locked_hand = locked
    c.legal_ids = legal_ids or []
    return c


class NativeObserver:
    """The observation of an encoder's layout, written natively from a Python State."""

    def __init__(self, enc: ObservationEncoder) -> None:
        self.enc = enc
        self.tables = compile_tables(enc.game.tables)
        self.catalogue = _core.Catalogue(self.tables, enc.armed)
        self.layout = native_layout(enc)
        self.ids = Ids(enc.game.tables)

    def encode_flat(self, state: Any, fighter: int, opponent: int | None = None) -> np.ndarray:
        """The raw flat observation of ``fighter`` (a fresh vector), as ``encode_flat``."""
        d = state.decision
        legal = self.enc.cat.ids(state.legal_choices()) if d is not None and d.fighter == fighter \
            else None
        out = np.empty(self.enc.size, dtype=np.float32)
        op = (1 - fighter) if opponent is None else opponent
        _core.observe(self.tables, self.catalogue, self.layout, core_state(state, self.ids),
                      native_context(state, self.ids, legal), fighter, op, out)
        return out
