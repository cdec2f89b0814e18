"""The round-robin payoff matrix per seed, from lab fights, for the meta-game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..ratings import wilson
from .metagame import metagame, role_metagame
from .runner import Fight


def per_seed_matrix(fights: Sequence[Fight], k: int, seeds: Sequence[int]
                    ) -> tuple[np.ndarray, np.ndarray]:
    """(per_seed[s, i, j] = i's score vs j at seed s, both sides averaged; beats[i, j])."""
    index = {s: n for n, s in enumerate(seeds)}
    tot = np.zeros((len(seeds), k, k))
    cnt = np.zeros((len(seeds), k, k))
    for f in fights:
        _, _, i, j, seed = f.key
        if i == j or seed not in index:
            continue
        s = index[seed]
        tot[s, i, j] += f.score(0)
        cnt[s, i, j] += 1
        tot[s, j, i] += f.score(1)
        cnt[s, j, i] += 1
    per = np.where(cnt > 0, tot / np.maximum(cnt, 1), 0.5)
    beats = np.zeros((k, k), dtype=bool)
    for i in range(k):
        for j in range(k):
            n = cnt[:, i, j].sum()
            if i != j and n:
                beats[i, j] = wilson(tot[:, i, j].sum(), n)[0] > 0.5
    return per, beats


def per_seed_roles(fights: Sequence[Fight], k: int, seeds: Sequence[int]) -> np.ndarray:
    """per[s, i, j] = side A's score with agent i against agent j on side B at seed s; the
    unplayed diagonal (an agent against itself) is side A's mean over that seed's cells."""
    index = {s: n for n, s in enumerate(seeds)}
    tot = np.zeros((len(seeds), k, k))
    cnt = np.zeros((len(seeds), k, k))
    for f in fights:
        _, _, i, j, seed = f.key
        if seed in index:
            tot[index[seed], i, j] += f.score(0)
            cnt[index[seed], i, j] += 1
    per = tot / np.maximum(cnt, 1)
    played = cnt > 0
    for s in range(len(seeds)):
        fill = per[s][played[s]].mean() if played[s].any() else 0.5
        per[s][~played[s]] = fill
    return per


def meta_of(fights: Sequence[Fight], names: Sequence[str], seeds: Sequence[int],
            seed: int = 0, roles: bool = False) -> dict[str, Any]:
    """The meta-game of the fights; with ``roles`` (an asymmetric pairing) each side's own
    game first (``roles``), the symmetrised one beside it, labelled pooled."""
    per, beats = per_seed_matrix(fights, len(names), seeds)
    out = metagame(names, per, beats, seed)
    if roles:
        out["roles"] = role_metagame(names, per_seed_roles(fights, len(names), seeds), seed)
        out["pooled"] = True
    return out
