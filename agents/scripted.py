"""Scripted fighters: random legal play, a greedy one-ply bot and three fighting styles.

All of them except :class:`RandomAgent` share one scorer (:class:`HeuristicAgent`, in C++:
``agents/native/scripted.cpp``, ``hexdojo.agents._bots.ScriptedBot``): every legal choice
gets an expected value from the cheap estimates of the native Knowledge
(``agents/native/knowledge.cpp``, :mod:`.knowledge_core`), and the best one is played. A
*style* is just a set of weights and two tunable parameters:

* ``aggression`` (0..1): how much of the turn's AP a fighter spends in its own phase
  instead of keeping it for reactions while the opponent can still attack;
* ``risk`` (0..6): the most dice it risks on any roll (it takes the odds-best number up to
  that cap; RULES §1.3 gives +1/2 per die, so bold fighters roll more dice).

The styles differ in what they value: the *striker* chains Martial Strikes and kicks, the
*grappler* goes for grab, lock and throw, the *counter-fighter* waits, blocks or dodges
and punishes with follow-ons (it also lets the opponent take its phase first). ``greedy``
is the same scorer with neutral weights and no AP reserve: the best immediate expected
outcome.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from hexdojo.envs.rules import Choice

from . import _bots, scripted_core
from ._bots import RandomPlayer
from .base import Agent

if TYPE_CHECKING:
    from hexdojo.envs.rules import State


class RandomAgent(Agent):
    """Uniformly random legal choices, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, state: State) -> Choice:
        ch = state.legal_choices()
        return ch[int(self.rng.integers(len(ch)))]

    def native_player(self, game: Any) -> Any | None:
        """The same draws inside the core (``_bots.RandomPlayer``: numpy's PCG64 seeded as
        ``default_rng(seed)``), for the tournament's fast path."""
        if type(self) is not RandomAgent or not scripted_core.enabled():
            return None

        return RandomPlayer()


@dataclass(frozen=True)
class Style:
    """Weights of one fighting style. ``aggression`` and ``risk`` are the user knobs."""

    aggression: float = 1.0  # 0..1: spend AP now (1) or keep it for reactions (0)
    risk: int = 6  # 0..6: most dice risked on a roll
    strike: float = 1.0  # punches, head butts, Martial Strikes
    kick: float = 1.0  # kicks, sweeps
    grab: float = 1.0  # grabs, grapples, locks, throws, pull downs
    defend: float = 1.0  # defensive reactions (blocks, dodges, leg grabs)
    counter: float = 1.0  # counter-attacking reactions
    follow: float = 0.0  # flat bonus for opening a follow-on window
    chain: float = 0.0  # weight of the best follow-on a success would open (§3 chains)
    wait: bool = False  # prefer to let the opponent phase first
    approach: float = 0.0  # weight of the attack a step into reach makes possible
    reserve_max: int = 3  # AP kept for defence at aggression 0
    weapon: float = 1.0  # weapon attacks (Stand / Advance and attack, Close Combat Weapon)
    keep_out: float = 1.0  # armed with a melee weapon: how much it avoids the opponent's hex


#: parameters a user may set on the command line, with their allowed ranges
STYLE_PARAMS: dict[str, tuple[type, float, float, str]] = {
    "aggression": (float, 0.0, 1.0, "0 keeps AP for reactions, 1 spends it all in its phase"),
    "risk": (int, 0, 6, "most dice risked on any roll"),
}

STYLES: dict[str, Style] = {
    "greedy": Style(),
    "striker": Style(aggression=1.0, strike=1.6, kick=0.6, grab=0.3, defend=0.7,
                     counter=1.5, follow=2.0, chain=1.0, approach=0.9),
    "grappler": Style(aggression=0.7, strike=0.5, kick=0.25, grab=3.0, defend=1.0,
                      counter=1.0, follow=2.0, chain=0.8, approach=0.9),
    "counter": Style(aggression=0.2, strike=1.0, kick=0.9, grab=0.9, defend=1.4,
                     counter=1.3, follow=4.0, chain=0.5, wait=True, approach=0.5),
    # a fighter with a sword (or spear): keeps the opponent in its strike zone and out of
    # its own hex, strikes with the mode worth most, blocks and parries (issue 19)
    "swordsman": Style(aggression=0.6, strike=0.8, kick=0.5, grab=0.3, defend=1.3,
                       counter=1.4, follow=2.0, chain=0.8, approach=0.6, weapon=1.5,
                       keep_out=2.5),
}

#: value of a choice not weighed (an aim off the shortlist; scripted.hpp's kSkipped)
SKIPPED: float = _bots.VALUES["SKIPPED"]
#: maneuver categories the grappler weighs with ``grab`` (the C++ looks the same up)
GRABS = frozenset({"grab", "lock", "throw", "pull_down", "leg_grab"})


class HeuristicAgent(Agent):
    """Scores every legal choice with the native Knowledge's estimates and plays the best.

    A thin face of the C++ agent (:mod:`.scripted_core`, ``agents/native/scripted.cpp``):
    ``act``, ``ranked`` and ``scored_choices`` ask the rule set's ``_bots.ScriptedBot`` of
    this style on the state's core fight, and a tournament plays it inside the core
    (:meth:`native_player`). Its Python reference (the scoring methods this class had
    until issue 15 removed the Python engine) is gone; ``tests/agents/test_agents_fingerprint.py``
    pins the choices and values it made. Subclassing to override the scoring
    (``value``, ``position_value``, ...) therefore no longer works: there are no Python
    scoring methods left; write an :class:`~.base.Agent` (or a plug-in) that wraps or
    re-ranks this one's :meth:`scored_choices` instead.
    """

    def __init__(self, style: Style | None = None, name: str = "greedy") -> None:
        self.style = style or Style()
        self.name = name
        self._nbot: tuple[Any, Style, Any] | None = None  # (tables, style, native bot)

    def _bot(self, t: Any) -> Any:
        """The native bot of rule set ``t`` and this style (kept: the lookup's key is the
        style's fields)."""
        got = self._nbot
        if got is None or got[0] is not t or got[1] is not self.style:
            got = self._nbot = (t, self.style, scripted_core.bot_for(t, self.style))
        return got[2]

    def _native(self, state: State) -> tuple[Any, Any, list[Choice], set[Choice] | None]:
        """(native bot, core fight, the core's legal choices, the allowed ones or None) of
        ``state``: a finished fight is a ValueError, a state without a core fight a
        TypeError. A view that leaves choices out (``agents/lab``'s bans: its
        ``unrestricted`` is the real state) gets the bot's best allowed choices."""
        choices = state.legal_choices() if state.decision is not None else []
        if not choices:
            raise ValueError("act() called on a finished fight")
        real = getattr(state, "unrestricted", state)
        core = scripted_core.core_of(real)
        if core is None:
            raise TypeError(f"{self.name}: a scripted agent plays fights of the native core "
                            f"(Game.new_state), not a {type(state).__name__}")
        if real is state:
            return self._bot(state.t), core, choices, None
        return self._bot(state.t), core, real.legal_choices(), set(choices)

    def native_player(self, game: Any) -> Any | None:
        """The native bot of ``game``'s rule set and this style (a ``_bots.Player``), for
        the tournament's fast path; None with ``HEXDOJO_NATIVE_AGENTS=0`` (the tournament
        then calls :meth:`act`) or for a subclass (which may override ``act``)."""
        if type(self) is not HeuristicAgent or not scripted_core.enabled():
            return None
        return self._bot(game.tables)

    def act(self, state: State) -> Choice:
        bot, core, choices, allowed = self._native(state)
        if allowed is None:
            return choices[bot.act(core)]
        return self.ranked(state)[0]

    def ranked(self, state: State) -> list[Choice]:
        """The legal choices, best first by this agent's estimates (used by search); in a
        decision that is not scored (risk, soak, phase, hold) its pick first, the rest in
        legal order."""
        bot, core, choices, allowed = self._native(state)
        out = [choices[n] for n in bot.ranked(core)]
        return out if allowed is None else [c for c in out if c in allowed]

    def scored_choices(self, state: State) -> list[tuple[float, Choice]]:
        """A maneuver window's legal choices with their estimated values, best first
        (``hexdojo advise`` shows them); only for action, reaction and follow-on decisions
        (a ValueError for the others: :meth:`ranked` puts the pick first)."""
        bot, core, choices, allowed = self._native(state)
        out = [(v, choices[n]) for v, n in bot.scored_choices(core)]
        return out if allowed is None else [vc for vc in out if vc[1] in allowed]


def style_agent(kind: str, **params: Any) -> HeuristicAgent:
    """A scripted style (``greedy``, ``striker``, ``grappler``, ``counter``) with overrides."""
    base = STYLES[kind]
    allowed = {f.name for f in fields(Style)}
    unknown = [p for p in params if p not in allowed]
    if unknown:
        raise KeyError(unknown[0])
    style = replace(base, **params)
    name = kind
    if params:
        name += ":" + ",".join(f"{p}={params[p]}" for p in sorted(params))
    return HeuristicAgent(style, name)
