"""Shared helpers for the rules tests (tests/test_rules_*.py).

Custom fighters with known numbers and dice-free default rolls, so that every expected
value in a test is computed by hand from RULES.md, never by the engine's own helpers.
"""

from __future__ import annotations

from typing import Any

from hexdojo.envs.rules import PASS, Choice, Game, LoadedDice

ZERO_RISK = {"ap": 0, "initiative": 0, "damage": 0, "pain": 0, "knockback": 0, "lock_damage": 0}


def fighter(
    name: str = "F",
    *,
    ST: float = 0,
    CO: float = 0,
    PE: float = 0,
    WP: float = 0,
    combat: float = 0,
    ma: float = 0,
    tactics: float = 0,
    athletics: float = 0,
    riding: float = 0,
    specs: dict[str, float] | None = None,
    body: float | str = 0,
    helmet: float | str = 0,
    locations: dict[str, float] | None = None,
    enc: str = "average",
    mounted: bool = False,
    height: int = 0,
    creation_limits: bool = False,
    weapon_skills: dict[str, float] | None = None,
    weapons: dict[str, Any] | None = None,
    **risk: int,
) -> dict[str, Any]:
    """A fighter description; every default roll risks 0 dice unless ``risk`` says so.

    Kit fighters isolate one rule with chosen numbers (e.g. Athletics 12 so that no
    knock-back lands), so they skip the §1.2 character-creation limits unless a test
    passes ``creation_limits=True`` (tests/rules/test_rules_fighter_files.py does).
    """
    return {
        "name": name,
        "characteristics": {"ST": ST, "CO": CO, "PE": PE, "WP": WP},
        "skills": {"Combat": combat, "Martial Arts": ma, "Tactics": tactics,
                   "Athletics": athletics, "Riding": riding, **(weapon_skills or {})},
        "weapons": dict(weapons or {}),
        "specialisms": dict(specs or {}),
        "armour": {"body": body, "helmet": helmet, "locations": dict(locations or {})},
        "encumbrance": enc,
        "mounted": mounted,
        "height": height,
        "risk": {**ZERO_RISK, **risk},
        "creation_limits": creation_limits,
    }


def duel(
    a: dict[str, Any],
    b: dict[str, Any],
    dice: list[int] | tuple[int, ...] = (),
    *,
    rules: dict[str, Any] | None = None,
    pos_a: tuple[int, int] = (0, 0),
    pos_b: tuple[int, int] = (1, 0),
    facing_a: int = 0,
    facing_b: int = 3,
    ap_a: int = 10,
    ap_b: int = 10,
    phase: int | None = 0,
    extra: dict[str, Any] | None = None,
    fa: dict[str, Any] | None = None,
    fb: dict[str, Any] | None = None,
    **scenario: Any,
):
    """A two-fighter state: A at ``pos_a`` facing E, B east of A facing W, A's phase."""
    game = Game.create([a, b], rules=rules, radius=4)
    sc: dict[str, Any] = {
        "fighters": [
            {"pos": list(pos_a), "facing": facing_a, "ap": ap_a, **(fa or {})},
            {"pos": list(pos_b), "facing": facing_b, "ap": ap_b, **(fb or {})},
        ],
        **scenario,
    }
    if phase is not None:
        sc["phase"] = phase
    dice_obj = LoadedDice(list(dice))
    state = game.new_state(dice_obj, scenario=sc)
    return state, dice_obj


def attack(maneuver: str, target: int = 1, location: str | None = "Chest", turn: int = 0,
           option: int = 0) -> Choice:
    return Choice("maneuver", maneuver, target=target, location=location, turn=turn,
                  option=option)


def react(maneuver: str, target: int | None = None, location: str | None = None, turn: int = 0,
          option: int = 0) -> Choice:
    return Choice("maneuver", maneuver, target=target, location=location, turn=turn,
                  option=option)


def risk(n: int) -> Choice:
    return Choice("risk", risk=n)


def play(state, *choices: Choice) -> None:
    """Apply choices in order."""
    for c in choices:
        state.apply(c)


def strike(state, maneuver: str = "Martial Strike", location: str | None = "Chest", *,
           reaction: Choice = PASS, ra: int = 0, rd: int = 0, target: int = 1,
           turn: int = 0, option: int = 0) -> None:
    """Declare an attack, answer the reaction window, then both risk decisions."""
    state.apply(attack(maneuver, target, location, turn, option))
    if state.decision is not None and state.decision.kind == "reaction":
        state.apply(reaction)
    if state.decision is not None and state.decision.kind == "risk" \
            and state.decision.about == "attack":
        state.apply(risk(ra))
    if state.decision is not None and state.decision.kind == "risk" \
            and state.decision.about in ("defence", "counter-attack"):
        state.apply(risk(rd))


def pass_dodge_window(state, attacker: int = 0) -> None:
    """aom3221 (``movement.dodge_triggers_attacker``): a dodge is a movement like any other,
    so the attacker it answered is asked about it first; pass that window."""
    d = state.decision
    if d is not None and d.kind == "reaction" and d.fighter == attacker \
            and state.context().get("attacker") != attacker:
        state.apply(PASS)


def events(state, etype: str) -> list[dict[str, Any]]:
    return [e for e in state.events if e["type"] == etype]


def last(state, etype: str) -> dict[str, Any]:
    evs = events(state, etype)
    assert evs, f"no {etype!r} event; events: {[e['type'] for e in state.events]}"
    return evs[-1]


def terms(roll: dict[str, Any]) -> dict[str, float]:
    """A roll record's terms as a dict (name -> value)."""
    return {n: v for n, v in roll["terms"]}
