"""Small value types of a fight: choices, decisions, fighters' changing state, holds."""

from __future__ import annotations

from typing import NamedTuple

from .fighter import Profile
from .hexgrid import Hex

#: Kinds of decision a fighter can be asked for (see ``State.decision``).
DECISION_KINDS = ("phase", "action", "reaction", "follow_on", "soak", "risk", "hold")
#: What a ``risk`` decision can be about (``Decision.about``).
RISK_ABOUT = ("attack", "defence", "counter-attack", "soak", "break hold", "resist break hold")


class Choice(NamedTuple):
    """One thing a fighter can choose.

    kind: ``phase`` (option 1 = take my phase now, 0 = wait), ``end`` (end my phase),
    ``release`` (let go of my hold), ``maneuver``, ``pass`` (no reaction, no follow-on,
    take the wound), ``risk`` (how many dice to risk on the roll just asked for) or
    ``hold`` (option 1 = move along with a knocked-back held opponent, 0 = let go).

    For maneuvers: ``target`` fighter index, aimed ``location``, ``turn`` (the optional
    60-degree turn: +1 left, -1 right; for Turn itself 60/120/180 degrees as 1..3 or
    -1..-2) and ``option``, whose meaning depends on the maneuver: Move 1/2 hexes forward or
    -1 back; Side-step 0 = left, 1 = right; Martial Kick 1 = flying kick; Martial Strike the
    damage type index; Martial Throw the landing hex (2, 3, 4 = rear-left, rear,
    rear-right of the thrower); Break Hold the method index.

    In words (for people, menus, logs and the action catalogue's names) a choice is
    written and read back by :mod:`.notation` (``words(state, c)``, ``parse(state,
    text)``), the one place that names choices.
    """

    kind: str
    maneuver: str | None = None
    target: int | None = None
    location: str | None = None
    turn: int = 0
    option: int = 0
    risk: int = 0


PASS = Choice("pass")
END = Choice("end")
RELEASE = Choice("release")


class Decision(NamedTuple):
    """Who must decide now, and what kind of decision it is."""

    fighter: int
    kind: str
    about: str = ""  # e.g. which roll a risk decision is for


class Hold(NamedTuple):
    """A hold (RULES §1.18): ``holder`` holds ``held``; ``kind`` keys ``holds.kinds``."""

    holder: int
    held: int
    kind: str
    location: str | None
    turn: int  # turn it was made (painful locks hurt again each later turn)
    attempts: int = 0  # failed Break Hold attempts so far (+1 each, aom322d)
    from_behind: bool = False
    hand: int | None = None  # the holder's hand kept on the hold (0 right, 1 left; aom3225)


class FighterState:
    """What changes about one fighter during a fight."""

    __slots__ = (
        "idx", "p", "name", "pos", "facing", "ap", "init", "phased", "prone", "mounted",
        "height", "out", "wounds", "worst", "pen", "status", "hands", "sheathed", "stuck",
    )

    def __init__(self, idx: int, profile: Profile, pos: Hex, facing: int) -> None:
        self.idx = idx
        self.p = profile
        self.name = profile.name  # the profile's (a plain slot: every event names its actor)
        self.pos = pos
        self.facing = facing
        self.ap = 0
        self.init = 0
        self.phased = False
        self.prone = False
        self.mounted = profile.mounted
        self.height = profile.height
        self.out: str | None = None  # None, "unconscious" or "dead"
        self.wounds: tuple[tuple[str, int], ...] = ()
        self.worst = 0
        self.pen = 0  # stagger/stun penalty this turn (half points)
        self.status = ""  # "", "staggered" or "stunned" (this turn)
        #: weapons in the right and left hand (a two-handed one in both; None: empty)
        self.hands: tuple[str | None, str | None] = profile.hands
        self.sheathed: tuple[str, ...] = profile.sheathed
        #: impaling weapons stuck in him (§1.15): (weapon, location), first stuck first
        self.stuck: tuple[tuple[str, str], ...] = ()

    @property
    def active(self) -> bool:
        """Still fighting (neither unconscious nor dead); hot engine loops test
        ``out is None`` directly."""
        return self.out is None

    def copy(self) -> FighterState:
        c = FighterState.__new__(FighterState)
        c.idx = self.idx
        c.p = self.p
        c.name = self.name
        c.pos = self.pos
        c.facing = self.facing
        c.ap = self.ap
        c.init = self.init
        c.phased = self.phased
        c.prone = self.prone
        c.mounted = self.mounted
        c.height = self.height
        c.out = self.out
        c.wounds = self.wounds
        c.worst = self.worst
        c.pen = self.pen
        c.status = self.status
        c.hands = self.hands
        c.sheathed = self.sheathed
        c.stuck = self.stuck
        return c


class Window(NamedTuple):
    """An open decision window for maneuvers: an action in one's phase, a reaction to a
    trigger, or a follow-on after a success (the core's ``_core.Window``, in names)."""

    kind: str  # "action", "reaction" or "follow_on"
    fighter: int
    triggers: frozenset[str] = frozenset()
    attacker: int | None = None  # who triggered the reaction
    attack: str | None = None  # the attacking maneuver reacted to
    after: str | None = None  # the maneuver a follow-on follows
    no_defence: bool = False  # the attack allows no defensive reaction (aom3227, aom3228)
    restrict: str | None = None  # follow_on_defence restriction for the defender
    reactions_only: tuple[str, ...] | None = None  # explicit list (e.g. soak window)
    follow: tuple[int, int] | None = None  # a phasing ally's move: (direction, hexes)
    own_hand: int | None = None  # a follow-on after a Block: the hand that blocked (aom3145)
    locked_fighter: int | None = None  # a follow-on: whose limb ``restrict`` names (the blocked one)
    phasing: int | None = None  # whose phase it is (aom3221, aom3225: counters are a non-phasing fighter's)


class IllegalChoice(ValueError):
    """Raised by ``State.apply`` for a choice that is not legal now; carries the reason."""

    def __init__(self, choice: Choice, reason: str) -> None:
        super().__init__(f"illegal choice {choice}: {reason}")
        self.choice = choice
        self.reason = reason
