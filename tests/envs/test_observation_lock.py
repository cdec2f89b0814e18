"""The observations' regression lock (issue 32; scripts/observation_lock.py): every
fighter's observation and mask, at every decision of seeded fights over every preset
pairing and scene and the engine lock's rule variant, in the raw, unit and armed duel
layouts and the group layout, hashed and pinned.

Pinned from the Python writer (envs/observation.py's encoder) before the core became the
observation's only writer, so the core's numbers are held to it number for number. A
change of the observation on purpose re-pins it (``scripts/relock.py``) and bumps the envs'
versions (docs/architecture.md, "Bump an env version").
"""

from __future__ import annotations

from hexdojo.envs.observation import ObservationEncoder
from hexdojo.envs.skirmish_spaces import observe as real_group

from ..scripts_kit import load_script

#: 2 fights for each of the 53 games of scripts/engine_lock.py
PINNED = ("d72a466a26e4fbc14c183faae1dc83af373537fbedf745905925f5c4c115f2e6", 12556)


def test_the_observation_lock_is_pinned() -> None:
    assert load_script("observation_lock").lock(2) == PINNED, "an observation changed: see the docstring"


def test_the_lock_sees_every_field_and_every_layout(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Not vacuous: a duel is hashed in its unarmed and armed layouts, and over the pinned
    fights every field of every duel layout is non-zero somewhere (holds, weapon windows,
    soaks and follow-ons come up), and the group layouts are hashed too."""
    mod = load_script("observation_lock")
    g = dict(mod.ENGINE_LOCK.games())
    assert [e.armed for e in mod.duel_encoders(g["chu-boris"])] == [False, True]
    assert [e.armed for e in mod.duel_encoders(g["monk_vs_guard"])] == [True]
    seen: dict[str, float] = {}
    real = ObservationEncoder.encode_with_mask

    def spy(self, s, me):  # type: ignore[no-untyped-def]
        flat, mask = real(self, s, me)
        for k, sl in self.slices:
            seen[k] = max(seen.get(k, 0.0), float(abs(flat[sl]).max()))
        return flat, mask

    monkeypatch.setattr(ObservationEncoder, "encode_with_mask", spy)
    groups: list[int] = []

    def spy_group(s, me, flat):  # type: ignore[no-untyped-def]
        groups.append(me)
        return real_group(s, me, flat)

    monkeypatch.setattr(mod, "observe_group", spy_group)
    mod.lock(2)
    assert sorted(k for k, v in seen.items() if v == 0) == []
    assert "incoming_weapon" in seen and "self_hold" in seen and len(seen) > 40
    assert len(groups) > 1000
