"""Pairings by name ("chu-boris", a scene's name): the games the regression locks and the
agents' tests play (scripts/engine_lock.py, scripts/agents_fingerprint.py; the engines'
differential test played them until the Python engine was deleted, issue 15)."""

from __future__ import annotations

from typing import Any

from .state import Game

#: the preset fighters (unarmed, then armed) and the scenes of the pairings
PRESETS = ("chu", "urlik", "boris", "cogan", "novice", "rider", "guard", "spearman", "knife_fighter")
SCENES = ("rider_vs_foot", "two_vs_one", "two_vs_two", "ambush", "monk_vs_guard",
          "monk_vs_two_guards")


def pairings() -> list[str]:
    """Every preset pairing ("chu-boris", mirrors included) and every scene."""
    out = [f"{a}-{b}" for k, a in enumerate(PRESETS) for b in PRESETS[k:]]
    return out + list(SCENES)


def make_game(pairing: str, rules: Any = None) -> Game:
    """The Game of a pairing name (``pairings()``), with optional rule overrides."""
    if pairing in SCENES:
        return Game.from_scene(pairing, rules=rules)
    a, b = pairing.split("-")
    return Game.create([a, b], rules=rules)
