"""The engine's behaviour pinned like python-chess's perft files: a hash of the event
logs of seeded random fights over every preset pairing (scripts/engine_fingerprint.py).

A refactor or speed-up must leave it unchanged. A rules fix that changes it updates the
pinned value in the same commit and says why (README, Benchmarks). History:
3eccf564... (10 a pair) before issue 12; a7d3e637... after its seven readings. Issue 19
(weapons) added the armed presets: the unarmed pairings' fingerprint stayed c9f7abb5...,
the whole one is pinned beside it.
"""

from __future__ import annotations

from .scripts_kit import load_script

#: 3 fights a pair (the script's default of 10 gives a7d3e63748a1c820...)
UNARMED = ("c9f7abb5d883c09442374f425f8b1eae6efdd559cd4ed7c6958f51ffaa12f32f", 10257)
#: every preset pairing, the armed presets included (issue 19)
PINNED = ("168cab13bd2378d1e8ddc5f341d244a8987c3972c43044f34ff8139aa9bf21e3", 28611)


def _script():
    return load_script("engine_fingerprint")


def test_unarmed_fights_are_unchanged_by_the_weapons():
    """Issue 19: the weapons change no unarmed fight (the pre-weapons fingerprint)."""
    assert _script().fingerprint(3, unarmed=True) == UNARMED


def test_engine_fingerprint_is_pinned():
    assert _script().fingerprint(3) == PINNED, "the engine's behaviour changed: see the module docstring"
