"""The duel observation's layout as the core takes it (docs/native-core.md, "The env side").

``envs/observation.py`` declares the layout and the spaces; the core writes the numbers
(``_core.observe_fight``, the vector env, the search's prior). :func:`native_layout` hands
the core the field offsets of an encoder.
"""

from __future__ import annotations

from typing import Any

from hexdojo.envs.rules import _core

_PER = ("pos", "facing", "ap", "flags", "height", "edge", "wounds", "worst", "hold")
_PER_ARMED = ("hands", "usable", "sheathed", "stuck", "dropped_here", "dropped_near")
_SHARED = ("decision_kind", "deciding", "risk_roll", "roll_attack", "roll_location",
           "roll_reaction", "roll_basics", "soak_wound", "incoming_maneuver",
           "incoming_location", "incoming_arc", "incoming_closing", "follow_on_after",
           "follow_ons", "opp_offset", "distance", "same_hex", "arc_of_opp", "arc_of_self",
           "initiative", "phase", "turn")


def native_layout(enc: Any) -> _core.ObsLayout:
    """The field offsets of ``enc`` (an ``ObservationEncoder``: its ``offset``, ``size`` and
    ``armed``) as the core takes them."""
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
