"""The engine's regression lock (issue 15), like python-chess's perft files: a hash of
everything a fight shows through the Python API at every decision of seeded fights, over
every preset pairing and scene and under a rule variant that switches on the rarer branches.

    python scripts/engine_lock.py [--fights-per-pair 2]

At every decision it hashes the decision (fighter, kind, about), the legal list, the
context, the reasons ``why_illegal`` gives for a few illegal probes (maneuvers not in the
list, a wrong kind, a bad risk), and at the end of a fight the events, the rendered log and
the result. The fights are played by a seeded random chooser that favours grabs, locks,
throws and holds (so that holds, follow-ons and hold breaks come up), with the fight's seed.

It replaced the engines' differential test when the Python engine was deleted: at its last
run both engines gave the same hash (the figures are in the README and docs/history/native-core-port.md),
so the pinned value in ``tests/core/test_engine_lock.py`` is the Python reference's behaviour.
``engine_fingerprint.py`` (event logs only) is the older, coarser lock beside it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import Counter
from typing import Any

import numpy as np

from hexdojo.envs.rules.model import Choice
from hexdojo.envs.rules.pairings import SCENES, make_game, pairings

#: rule overrides that switch on the rarer branches (maintained holds §5.17, kept AP §5.25,
#: AP rounded up, lock damage with margin and knock-back §5.16, dodges that move on a hit,
#: ties that hit §5.2, a rider landing in his hex aom347)
VARIANT = {
    "holds": {"maintain_ap": 1},
    "turn": {"unused_ap_lost": False, "ap_rounding": "up", "turn_limit": 6},
    "lock_damage": {"uses_margin": True, "knockback": True},
    "movement": {"dodge_moves_only_on_success": False, "dodge_triggers_attacker": True},
    "attack": {"hit_requires_higher": False},
    "mounted": {"pull_down_lands": "same"},
}
#: maneuver categories the chooser favours (weight 4 against 1)
FAVOURED = frozenset({"grab", "leg_grab", "lock", "throw", "pull_down", "break"})


def games(variant: bool = True) -> list[tuple[str, Any]]:
    """Every preset pairing (mirrors included) and scene (``pairings.pairings``), and
    chu-boris and the first scene under the variant."""
    out = [(n, make_game(n)) for n in pairings()]
    if variant:
        out += [(f"variant {n}", make_game(n, VARIANT)) for n in ("chu-boris", SCENES[0])]
    return out


def _weights(s: Any, legal: list[Choice]) -> np.ndarray:
    ms = s.t.maneuvers
    w = [4.0 if c.maneuver in ms and ms[c.maneuver].category in FAVOURED else 1.0 for c in legal]
    a = np.asarray(w)
    return a / a.sum()


def _probes(s: Any, legal: list[Choice], rng: np.random.Generator) -> list[Choice]:
    """A few choices that are illegal now (a reason each)."""
    d = s.decision
    names = list(s.t.maneuvers)
    other = next((i for i in range(len(s.fighters)) if i != d.fighter), 0)
    out = [Choice("risk", risk=99), Choice("end") if d.kind != "action" else Choice("hold", option=1)]
    for k in rng.choice(len(names), size=3, replace=False):
        out.append(Choice("maneuver", names[int(k)], other))
    return [c for c in out if c not in legal]


def _step(digest: Any, s: Any, rng: np.random.Generator) -> Choice:
    d = s.decision
    legal = s.legal_choices()
    digest.update(repr((tuple(d), legal)).encode())
    digest.update(json.dumps(s.context(), sort_keys=True, default=repr).encode())
    for c in _probes(s, legal, rng):
        digest.update(repr((c, s.why_illegal(c))).encode())
    return legal[int(rng.choice(len(legal), p=_weights(s, legal)))]


def fight(g: Any, seed: int, digest: Any) -> tuple[Any, Counter]:
    """One fight of game ``g`` by the lock's chooser, every decision hashed into ``digest``:
    the finished state and the decision kinds met."""
    s = g.new_state(seed)
    rng = np.random.default_rng([seed, 77])
    kinds: Counter = Counter()
    while not s.is_over:
        kinds[s.decision.kind] += 1
        s.apply(_step(digest, s, rng))
    return s, kinds


def lock(per_pair: int, variant: bool = True) -> tuple[str, int]:
    """(sha256, decisions) of ``per_pair`` fights of every game of :func:`games`."""
    digest = hashlib.sha256()
    decisions = 0
    for name, g in games(variant):
        for seed in range(per_pair):
            s, kinds = fight(g, seed, digest)
            decisions += kinds.total()
            digest.update(name.encode())
            digest.update(json.dumps(s.events, sort_keys=True, default=repr).encode())
            digest.update("\n".join(s.render_log()).encode())
            digest.update(json.dumps(s.result, sort_keys=True, default=repr).encode())
    return digest.hexdigest(), decisions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fights-per-pair", type=int, default=2)
    args = ap.parse_args()
    h, n = lock(args.fights_per_pair)
    print(f"{h} ({n} decisions)")


if __name__ == "__main__":
    main()
