"""Fighting styles of a learned NPC: what it does (the style share metric) and a reward
term that steers training toward a style.

Why here and not in the trainer: the same counts serve three places. ``hexdojo
calibrate`` and ``hexdojo card`` describe how a level fights (maneuvers, attack categories,
dice risked, waiting and passing); style-conditioned training (``style = "grappler"``)
rewards the style's maneuvers and checks the result with the same share. The categories
are the rules data's (``maneuvers[...].category``), never a list of maneuver names copied
from the rules: a grappler's attacks are those of the categories the scripted grappler
favours (:data:`hexdojo.agents.scripted.GRABS`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import gymnasium as gym

from .base import Agent
from .scripted import GRABS

if TYPE_CHECKING:
    from hexdojo.envs.rules import Choice, State

#: the counter style's answers to an attack: every defence category of the rules data,
#: armed ones included (a guard's parries and weapon blocks are his counters; leaving them
#: out made ``card`` say "counter 5 %" of an NPC whose maneuvers were 23 % parries/blocks)
DEFENCES = frozenset({"dodge", "block", "leg_grab", "parry", "weapon_block"})


def style_categories() -> dict[str, frozenset[str]]:
    """style -> the attack categories that make it (counter: the defences it answers with)."""
    return {"grappler": frozenset(GRABS), "striker": frozenset({"strike"}),
            "counter": DEFENCES}


STYLE_NAMES = ("grappler", "striker", "counter")


@dataclass
class StyleStats:
    """What one agent did over some fights (one side each), summed."""

    decisions: int = 0
    maneuvers: Counter = field(default_factory=Counter)  #: name -> times chosen
    attacks: Counter = field(default_factory=Counter)  #: category -> attacks made
    attack_names: Counter = field(default_factory=Counter)  #: attack name -> times
    windows: Counter = field(default_factory=Counter)  #: (decision kind, what) -> times
    risk: Counter = field(default_factory=Counter)  #: (about, dice risked, most allowed)
    end_ap: Counter = field(default_factory=Counter)  #: AP left when it ended its phase

    def add(self, other: StyleStats) -> None:
        self.decisions += other.decisions
        for name in ("maneuvers", "attacks", "attack_names", "windows", "risk", "end_ap"):
            getattr(self, name).update(getattr(other, name))

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly (tuple keys joined with '|')."""
        def flat(c: Counter) -> dict[str, int]:
            return {("|".join(map(str, k)) if isinstance(k, tuple) else str(k)): int(v)
                    for k, v in sorted(c.items(), key=lambda kv: str(kv[0]))}

        return {"decisions": self.decisions, "maneuvers": flat(self.maneuvers),
                "attacks": flat(self.attacks), "attack_names": flat(self.attack_names),
                "windows": flat(self.windows), "risk": flat(self.risk),
                "end_ap": flat(self.end_ap)}


def is_attack(state: State, name: str) -> bool:
    """An attack for the style counts: the engine's attacks and every grab-like move."""
    return _is_attack(state.t, name)


def _is_attack(t: Any, name: str) -> bool:
    return t.is_attack(name) or t.maneuvers[name].category in GRABS


def record(stats: StyleStats, state: State, c: Choice) -> None:
    """Count the choice ``c`` made at ``state``'s decision."""
    d = state.decision
    if d is None:
        return
    stats.decisions += 1
    kind = d.kind
    if c.kind == "maneuver" and c.maneuver:
        cat = state.t.maneuvers[c.maneuver].category
        stats.maneuvers[c.maneuver] += 1
        stats.windows[(kind, cat)] += 1
        if is_attack(state, c.maneuver) and kind in ("action", "reaction", "follow_on"):
            stats.attacks[cat] += 1
            stats.attack_names[c.maneuver] += 1
    elif c.kind == "risk":
        most = max(x.risk for x in state.legal_choices())
        stats.risk[(d.about or "roll", int(c.risk), int(most))] += 1
    elif c.kind == "phase":
        stats.windows[("phase", "take" if c.option else "wait")] += 1
    elif c.kind == "end":
        stats.windows[(kind, "end")] += 1
        stats.end_ap[int(state.fighters[d.fighter].ap)] += 1
    else:
        stats.windows[(kind, c.kind)] += 1


class Recorder(Agent):
    """Wraps an agent and counts its choices (:func:`record`) without changing them."""

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.name = inner.name
        self.path = getattr(inner, "path", None)
        self.stats = StyleStats()

    def reset(self, seed: int | None = None) -> None:
        self.inner.reset(seed)

    def act(self, state: State) -> Choice:
        c = self.inner.act(state)
        record(self.stats, state, c)
        return c


def style_share(stats: StyleStats, style: str) -> tuple[int, int]:
    """(style moves, out of) for ``style``: grappler / striker = the share of its attacks
    in the style's categories (armed attacks are strikes); counter = the share of the
    attacks it faced that it met with a defence (:data:`DEFENCES`: a dodge, a block, a leg
    grab, a parry or a weapon block) rather than no reaction or an attack of its own."""
    cats = style_categories()[style]
    if style == "counter":
        faced = sum(v for (k, _), v in stats.windows.items() if k == "reaction")
        met = sum(v for (k, cat), v in stats.windows.items() if k == "reaction" and cat in cats)
        return met, faced
    total = sum(stats.attacks.values())
    return sum(v for cat, v in stats.attacks.items() if cat in cats), total


# --------------------------------------------------------------------------- training
def style_move(state: State, c: Choice, style: str) -> int:
    """+1 a move of ``style``, -1 a move against it, 0 anything else, for the learner's
    choice ``c`` at ``state``: grappler/striker: an attack (action, reaction or follow-on
    window) in / out of the style's categories; counter: a reaction that meets the attack
    with a defence (:data:`DEFENCES`, armed ones included) / lets it through or attacks
    instead."""
    d = state.decision
    return 0 if d is None else style_sign(state.t, d.kind, c, style)


def style_sign(t: Any, kind: str, c: Choice, style: str) -> int:
    """:func:`style_move` at a decision of ``kind`` under rule set ``t`` (the judgement
    depends on nothing else: the native search's prior takes it as a table by decision kind
    and catalogue action, ``search_core.style_lean``)."""
    cats = style_categories()[style]
    name = c.maneuver if c.kind == "maneuver" else None
    if style == "counter":
        if kind != "reaction":
            return 0
        return 1 if name and t.maneuvers[name].category in cats else -1
    if name is None or kind not in ("action", "reaction", "follow_on") or not _is_attack(t, name):
        return 0
    return 1 if t.maneuvers[name].category in cats else -1


class StyleReward(gym.Wrapper):
    """``env`` (a ``DuelEnv`` or a scene's ``SkirmishEnv``, possibly wrapped) with
    ``weight`` added to the reward for each of the learner's moves of ``style`` and taken
    away for each move against it (:func:`style_move`). Why a signed term: a bonus
    alone pays for attacking more (a cheap failed grab still earns it); +/- only pays
    for choosing the style's attack over another one, so winning stays the main thing
    learned."""

    def __init__(self, env: gym.Env, style: str, weight: float) -> None:
        if style not in STYLE_NAMES:
            raise ValueError(f"style: value {style!r}: allowed {', '.join(STYLE_NAMES)}")
        super().__init__(env)
        self.style, self.weight = style, float(weight)
        self.moves: Counter = Counter()  #: +1 / -1 -> how often, over the wrapper's life

    def step(self, action: Any) -> Any:
        base = self.env.unwrapped
        st, a = base.fight, int(action)
        sign = 0
        if st is not None and not st.is_over and base.action_masks()[a]:
            choice = (base.catalogue.choice(a, base._slots) if hasattr(base, "_slots")
                      else base.catalogue.choice_for(a, st, base.side))  # a scene's place
            sign = style_move(st, choice, self.style)
        obs, reward, term, trunc, info = self.env.step(action)
        if sign:
            self.moves[sign] += 1
            reward += self.weight * sign
        return obs, reward, term, trunc, info


def teacher_for(cfg: Any) -> str:
    """The imitation warm start's teacher: with a ``style``, that style's scripted bot (the
    clone starts fighting in the style, and the reward term keeps it there during PPO);
    otherwise ``[imitation] teacher``."""
    return str(cfg.style) if getattr(cfg, "style", None) else str(cfg.imitation.teacher)
