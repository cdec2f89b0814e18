"""The scripted agents' values, read from their one copy: the C++ agents (``_bots.VALUES``).

Why one copy: the scripted agents' estimates and scoring are C++
(``agents/native/knowledge.hpp``, ``scripted.hpp``; Python side :mod:`.knowledge_core`,
:mod:`.scripted_core`), since issue 15 removed their Python reference along with the Python
rules engine. Python code that needs the agents' numbers (the search agents' score,
``hexdojo advise``, tests) reads them here, from the constants the C++ is compiled with, so
they cannot drift apart.

What the estimates are (every rule in them is the core's own: ``state_formulas.hpp``,
``formulas.hpp``, ``legality.hpp``, ``weapons.hpp``; only the *values* and the dice odds of
:mod:`.odds` are the agents'):

* attack and defence basic values (RULES §1.8: skill + specialisms + CO with encumbrance,
  doubled for Martial Arts, + maneuver, aim, rear, hold, wound and stun modifiers);
* the chance to hit and the expected margin (exact dice tables, :mod:`.odds`);
* the value of a hit: wound level (§1.10, after a likely soak §1.11), the immediate
  reaction it causes (§1.12: unconscious, stunned, staggered), the knock-back it forces
  (§1.13: AP lost, a fall), holds and prone.

Why analytic: a 6-agent round robin of 30,000 fights must run in seconds, so a scripted
agent may spend only microseconds per decision: it estimates instead of simulating. Values
are in "points" where knocking the opponent out is worth ``KO``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _bots
from .knowledge_core import native_knowledge

if TYPE_CHECKING:
    from hexdojo.envs.rules import Tables

_V = _bots.VALUES

KO: float = _V["KO"]
#: value of one wound by level (None .. Critical), before its impairment
WOUND_VALUE: tuple[float, ...] = tuple(_V["WOUND_VALUE"])
#: value of one half point of ongoing impairment (§1.14) inflicted
IMPAIR_VALUE: float = _V["IMPAIR_VALUE"]
STUN_VALUE: float = _V["STUN_VALUE"]  # plus 1.5 per AP the victim still had
#: a stunned fighter cannot defend for the rest of the turn (§1.12): each AP the striker
#: can still spend this turn makes the stun this much closer to a knock-out
STUN_FOLLOW: float = _V["STUN_FOLLOW"]
STAGGER_VALUE: float = _V["STAGGER_VALUE"]
PRONE_VALUE: float = _V["PRONE_VALUE"]
PRONE_FOLLOW: float = _V["PRONE_FOLLOW"]
#: knock-back (§1.13): value of each AP the victim loses, and of its fall (before the
#: follow-up bonus PRONE_FOLLOW). High on purpose: an opponent kept prone and out of AP
#: cannot attack, and this "AP war" is what a learned policy exploits (README); valuing
#: it so raised greedy from 86.5 % to about 92 % against random play (chu mirror)
KNOCKBACK_AP_VALUE: float = _V["KNOCKBACK_AP_VALUE"]
KNOCKBACK_FALL_VALUE: float = _V["KNOCKBACK_FALL_VALUE"]
#: value of holding the opponent, by kind of hold (painful locks hurt every turn)
HOLD_VALUE: dict[str, float] = dict(_V["HOLD_VALUE"])
#: aimed locations a scripted agent weighs in full per attack (Knowledge.aims)
AIMS: int = _V["AIMS"]


def option_index(t: Tables, name: str, option: int) -> int:
    """The part of a choice's option an attack's value depends on: a weapon attack's
    whole option (hand and mode), an unarmed one's damage type index where it has
    several, else 0 (the C++ Knowledge's ``option_index``)."""
    return native_knowledge(t).option_index(name, option)
