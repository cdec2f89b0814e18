"""Random fighter sheets within the character-creation limits (RULES §1.1-§1.2, aom192,
aom195): the distribution the general NPC (issue 33) is trained on, and, with other seeds,
the held-out pairings it is measured on.

A sheet is drawn as a GM would build a fighter of one of four kinds (a martial artist, a
brawler, a swordsman-type with a weapon, a weapon and shield), then checked by the rules'
own loader (``profile_from_dict``: names, ranges and the §1.2 limits); a draw the limits
refuse is drawn again, so every sheet returned is one a player could build. Only the
fighting characteristics and skills vary; the names say where a sheet came from
(``gen-<seed>-<k>``), never a preset's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from hexdojo.envs.rules import Game, RulesError
from hexdojo.envs.rules.fighter import profile_from_dict
from hexdojo.envs.rules.ruleset import RulesData

from .registry import make_agent
from .tournament import play_fight

KINDS = ("martial artist", "brawler", "armed", "sword and shield")
#: body armour a fighter of each kind may wear (lighter for martial artists, whose
#: encumbrance counts double, §1.16)
BODY = {"martial artist": ("robes", "clothing", "heavy_clothing"),
        "brawler": ("clothing", "heavy_clothing", "leather"),
        "armed": ("leather", "studded_leather", "light_mail"),
        "sword and shield": ("leather", "studded_leather", "light_mail")}
HELMETS = ("none", "none", "leather_cap", "open_helmet")
BANDS = ("unencumbered", "light", "average")
MAX_TRIES = 200


def _half(rng: np.random.Generator, lo: float, hi: float) -> float:
    """A score in [lo, hi] in half points."""
    return float(rng.integers(int(lo * 2), int(hi * 2) + 1)) / 2


def _chars(rng: np.random.Generator) -> dict[str, float]:
    """The fighting characteristics: fighters are at or above average (§1.1's -5..+5)."""
    return {"ST": _half(rng, -1, 3), "CO": _half(rng, -1, 3), "PE": _half(rng, -1, 2),
            "WP": _half(rng, -1, 2)}


def _skills(rng: np.random.Generator, kind: str, weapon_skill: str | None) -> dict[str, float]:
    s = {"Combat": _half(rng, 1, 5), "Tactics": _half(rng, 0, 3), "Athletics": _half(rng, 0, 3)}
    if kind == "martial artist":
        s["Martial Arts"] = _half(rng, 2, 8)
    elif kind == "brawler":
        s["Combat"] = _half(rng, 2, 7)
    if weapon_skill is not None:
        s[weapon_skill] = _half(rng, 2, 7)
    if kind == "sword and shield":
        s["Shield"] = _half(rng, 1, 5)
    return s


def _specialisms(rng: np.random.Generator, rules: RulesData, skills: dict[str, float]
                 ) -> dict[str, float]:
    """One to three specialisms in the skills the sheet has (the limits check the points)."""
    names = [n for n, sp in rules.specialisms.items() if skills.get(sp.skill, 0) > 0]
    out: dict[str, float] = {}
    for name in rng.choice(names, size=int(rng.integers(0, 4)), replace=False):
        broad = rules.specialisms[str(name)].area == "broad"
        out[str(name)] = 0.5 if broad else float(rng.choice([0.5, 1.0]))
    return out


def _weapons(rng: np.random.Generator, rules: RulesData, kind: str) -> dict[str, Any]:
    if kind not in ("armed", "sword and shield"):
        return {}
    one = [w for w, spec in rules.weapons.items() if spec.skill != "Shield" and
           (kind == "armed" or spec.hands == 1)]
    right = str(rng.choice(one))
    out: dict[str, Any] = {"right": right}
    if kind == "sword and shield":
        out["left"] = "shield"
    return out


def random_sheet(rules: RulesData, rng: np.random.Generator, name: str) -> dict[str, Any]:
    """One sheet (a fighter file's fields) within the creation limits of ``rules``."""
    for _ in range(MAX_TRIES):
        kind = str(rng.choice(KINDS))
        weapons = _weapons(rng, rules, kind)
        wskill = rules.weapons[weapons["right"]].skill if weapons else None
        skills = _skills(rng, kind, wskill)
        sheet = {"name": name, "style": kind, "description": f"generated {kind}",
                 "encumbrance": str(rng.choice(BANDS)), "characteristics": _chars(rng),
                 "skills": skills, "specialisms": _specialisms(rng, rules, skills),
                 "armour": {"body": str(rng.choice(BODY[kind])),
                            "helmet": str(rng.choice(HELMETS))},
                 "weapons": weapons}
        try:
            profile_from_dict(sheet, rules, name)
        except RulesError:
            continue
        return sheet
    raise RuntimeError(f"no sheet within the creation limits after {MAX_TRIES} draws")


def random_pairings(rules: RulesData, seed: int, n: int) -> list[tuple[dict, dict]]:
    """``n`` pairings of random sheets, the same for the same seed (named ``gen-<seed>-<k>``)."""
    rng = np.random.default_rng(seed)
    return [(random_sheet(rules, rng, f"gen-{seed}-{2 * k}"),
             random_sheet(rules, rng, f"gen-{seed}-{2 * k + 1}")) for k in range(n)]


def seat_score(pair: tuple[dict, dict], fights: int, seed: int, rules: Any = None) -> float:
    """What the first sheet's seat is worth: ``greedy`` there against ``greedy`` in the
    second (wins + draws/2 over ``fights`` seeded fights, played in the core)."""
    game = Game.create(list(pair), rules=rules, turn_limit=20)
    a, b = make_agent("greedy"), make_agent("greedy")
    got = 0.0
    for k in range(fights):
        w = play_fight(game, (a, b), seed + k, spans=False).winner
        got += 1.0 if w == 0 else (0.5 if w is None else 0.0)
    return got / fights


def balanced_pairings(rules: RulesData, seed: int, n: int, band: float = 0.3,
                      fights: int = 40) -> tuple[list[tuple[dict, dict]], int]:
    """The first ``n`` pairings of the stream ``seed, seed + 1, ...`` whose first seat is
    worth between ``band`` and ``1 - band`` (:func:`seat_score`): fights worth playing (a GM
    pits a villain against characters of his class; where one sheet crushes the other no
    policy shows anything). Returns them and how many lopsided ones were passed over."""
    kept: list[tuple[dict, dict]] = []
    k = 0
    while len(kept) < n:
        (pair,) = random_pairings(rules, seed + k, 1)
        k += 1
        if band <= seat_score(pair, fights, seed=k) <= 1 - band:
            kept.append(pair)
    return kept, k - n


def write_sheet(sheet: dict[str, Any], path: Path) -> Path:
    """A drawn sheet as a fighter file (the TOML a GM writes: ``docs/fighters.md``)."""
    import json

    lines = [f"{k} = {json.dumps(sheet[k])}" for k in ("name", "style", "description", "encumbrance")]
    for table in ("characteristics", "skills", "specialisms", "armour", "weapons"):
        lines.append(f"[{table}]")
        lines += [f"{json.dumps(k)} = {json.dumps(v)}" for k, v in sheet[table].items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
