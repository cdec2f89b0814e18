"""The scripted fighters' native form (issue 15): :class:`~.scripted.HeuristicAgent` in C++
(``agents/native/scripted.cpp``, ``hexdojo.agents._bots.ScriptedBot``) over the core's own
fights.

Why: in tournaments and search the Python scoring was most of the time spent; the native
bot made the Python agent's exact choice (the same legal index) and gave the same values (the
same doubles) at a fraction of the cost, and since issue 15 removed the Python engine it is
the only form of the scripted agents (``HeuristicAgent`` is a thin face of it;
``tests/agents/test_agents_fingerprint.py`` pins its choices). A bot is cached per (rule set,
:class:`Style`): its memos hold only pure values, keyed by the decision, so one bot can
serve every agent of that style. ``HEXDOJO_NATIVE_AGENTS=0`` (:func:`enabled`) turns the
tournament's fast path off (the tournament's Python loop then calls ``act``; the bots and the
search answer natively either way).
"""

from __future__ import annotations

import os
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from hexdojo.envs.rules.state import State

from ._bots import ScriptedBot
from ._bots import Style as NStyle
from .knowledge_core import native_knowledge

if TYPE_CHECKING:
    from .scripted import Style

_BOTS: dict[tuple[int, Style], tuple[Any, Any]] = {}


def enabled() -> bool:
    """False when ``HEXDOJO_NATIVE_AGENTS=0`` asks for the tournament's Python loop (the
    scripted bot and the search answer natively either way)."""
    return os.environ.get("HEXDOJO_NATIVE_AGENTS", "1") != "0"


def native_style(style: Style) -> Any:
    """``_bots.Style`` with every field of ``style`` (the same names)."""
    out = NStyle()
    for f in fields(style):
        setattr(out, f.name, getattr(style, f.name))
    return out


def native_knowledge_of(tables: Any) -> Any:
    """The rule set's native Knowledge (``_bots.Knowledge``) the bots are built with."""
    return native_knowledge(tables).core


def bot_for(tables: Any, style: Style) -> Any:
    """The cached ``_bots.ScriptedBot`` of rule set ``tables`` (the Python Tables) and
    ``style``, built with the rule set's native Knowledge."""
    key = (id(tables), style)  # a frozen dataclass: hashed and compared by its fields
    got = _BOTS.get(key)
    if got is None or got[0] is not tables:
        bot = ScriptedBot(native_knowledge_of(tables), native_style(style))
        got = _BOTS[key] = (tables, bot)
    return got[1]


def core_of(state: Any) -> Any | None:
    """The core fight (``_core.Fight``, ``State._core``) of a ``State``, None for any other
    state (a plug-in's own)."""
    return state._core if isinstance(state, State) else None
