"""The engine's behaviour pinned like python-chess's perft files: a hash of the event
logs of seeded random fights over every preset pairing (scripts/engine_fingerprint.py).

A refactor or speed-up must leave it unchanged. A rules fix that changes it updates the
pinned value in the same commit and says why (README, Benchmarks). History:
3eccf564... (10 a pair) before issue 12; a7d3e637... after its seven readings. Issue 19
(weapons) added the armed presets: the unarmed pairings' fingerprint stayed c9f7abb5...,
the whole one is pinned beside it.
"""

from __future__ import annotations

from ..scripts_kit import load_script

#: 3 fights a pair (the script's default of 10 gives a7d3e63748a1c820...)
UNARMED = ("2eca61f929865c0083fd3e74c9ccc32a61cd5e3abeb5973e0ab089a20f4ea4d0", 11195)
#: every preset pairing, the armed presets included (issue 19)
#: issue 28 re-pinned both (from "168cab13...", 28611 and "c9f7abb5...", 10257)
PINNED = ("fb232614f8d323e5f3005e4b49d7d513e385d8d9ff039973f958dbacd1e78d39", 29582)


def _script():
    return load_script("engine_fingerprint")


def test_unarmed_fights_are_unchanged_by_the_weapons():
    """Issue 19: the weapons change no unarmed fight (the pre-weapons fingerprint)."""
    assert _script().fingerprint(3, unarmed=True) == UNARMED


def test_engine_fingerprint_is_pinned():
    assert _script().fingerprint(3) == PINNED, "the engine's behaviour changed: see the module docstring"
