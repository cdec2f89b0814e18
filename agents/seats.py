"""Seat for seat: how much more a candidate scores from each seat than a reference scores
from that same seat against itself (issue 33, section 3: the master level against ``mcts``).

Why per seat: in the main job's pairing (chu vs boris) the seat decides most fights (``mcts``
as chu beats ``mcts`` as boris ~90 %), so a score "over both sides" measures the seat, not
the agent. Here each seat has its own baseline: the reference (``mcts``) playing that seat
against the reference, on the same fight seeds (fight ``k`` of a seat is seeded
``seed + k``; each agent gets :func:`~hexdojo.agents.tournament.agent_seed` of its side).
The candidate's margin in a seat is its score minus the baseline's, with Newcombe's
interval for a difference of two independent proportions (his method 10: the two Wilson
intervals combined), so a margin says how sure it is. An agent measured against itself has
margin exactly 0 in both seats: the same seeds play the same fights.

A score counts wins plus half the draws, from the seat's point of view.
"""

from __future__ import annotations

import math
import multiprocessing as mp
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .interrupts import worker_pool
from .ratings import wilson
from .tournament import Progress, play_fight

#: the first fight seed of a seat's fights (fight k: SEED + k), distinct from the other scripts'
SEED = 5_000_000


def newcombe(k1: float, n1: int, k2: float, n2: int) -> tuple[float, float]:
    """95 % interval of ``k1/n1 - k2/n2`` (independent samples), Newcombe (1998) method
    10: from each proportion's Wilson interval, ``d - sqrt((p1 - l1)^2 + (u2 - p2)^2)`` and
    ``d + sqrt((u1 - p1)^2 + (p2 - l2)^2)``."""
    if n1 <= 0 or n2 <= 0:
        return -1.0, 1.0
    p1, p2 = k1 / n1, k2 / n2
    (l1, u1), (l2, u2) = wilson(k1, n1), wilson(k2, n2)
    d = p1 - p2
    return d - math.hypot(p1 - l1, u2 - p2), d + math.hypot(u1 - p1, p2 - l2)


@dataclass(frozen=True)
class SeatMargin:
    """One seat: the candidate's and the baseline's score there, and the margin."""

    seat: int
    fighter: str
    fights: int
    candidate: float  # points (wins + draws / 2) of the candidate in this seat
    baseline: float  # points of the reference in this seat against the reference

    @property
    def score(self) -> float:
        return self.candidate / self.fights

    @property
    def base_score(self) -> float:
        return self.baseline / self.fights

    @property
    def margin(self) -> float:
        return self.score - self.base_score

    @property
    def margin_ci(self) -> tuple[float, float]:
        return newcombe(self.candidate, self.fights, self.baseline, self.fights)

    def line(self, need: float) -> str:
        """One line of the table, in points, saying whether the margin reaches ``need``."""
        lo, hi = wilson(self.candidate, self.fights)
        blo, bhi = wilson(self.baseline, self.fights)
        mlo, mhi = self.margin_ci
        ok = "met" if self.margin >= need - 1e-9 else "not met"  # 0.95 - 0.9 < 0.05 in floats
        return (f"seat {self.seat} ({self.fighter}): candidate {100 * self.score:.1f} % "
                f"[{100 * lo:.1f}, {100 * hi:.1f}], reference {100 * self.base_score:.1f} % "
                f"[{100 * blo:.1f}, {100 * bhi:.1f}], margin {100 * self.margin:+.1f} points "
                f"[{100 * mlo:+.1f}, {100 * mhi:+.1f}] (>= {100 * need:+.0f}: {ok})")


def points(result: Any, seat: int) -> float:
    """The seat's points of one fight record: 1 a win, 0.5 a draw, 0 a loss."""
    return 0.5 if result.winner is None else float(result.winner == seat)


def side_name(game: Any, side: int) -> str:
    """A seat's fighters: the duel's one, or a scene side's names joined (``Boris + Novice``)."""
    return " + ".join(p.name for p, s in zip(game.profiles, game.sides, strict=True) if s == side)


_ctx: dict[str, Any] = {}


def _init(game: Any, make: Callable[[], tuple[Any, Any, Any]]) -> None:
    _ctx["game"] = game
    _ctx["agents"] = make()  # (candidate, reference, a second reference)


def _fight(job: tuple[int, int, bool]) -> float:
    """Fight ``k`` of ``seat``, the candidate (or, ``base``, the reference) in the seat."""
    seat, k, base = job
    cand, ref, ref2 = _ctx["agents"]
    me = ref2 if base else cand
    pair = (me, ref) if seat == 0 else (ref, me)
    return points(play_fight(_ctx["game"], pair, SEED + k, spans=False), seat)


def _points(jobs: list[tuple[int, int, bool]], game: Any,
            make: Callable[[], tuple[Any, Any, Any]], workers: int) -> Iterator[float]:
    """Each job's points in order: in this process, or in the project's guarded pool."""
    if workers <= 1:
        _init(game, make)
        yield from map(_fight, jobs)
        return
    with worker_pool(mp.get_context("spawn"), workers, _init, (game, make)) as pool:
        yield from pool.imap(_fight, jobs, chunksize=4)


def seat_margins(game: Any, make: Callable[[], tuple[Any, Any, Any]], fights: int,
                 workers: int = 1, seats: Sequence[int] = (0, 1),
                 progress: Progress | None = None) -> list[SeatMargin]:
    """Each seat's margin over ``fights`` fights a side: ``make()`` (picklable, called once
    per worker) returns (candidate, reference, another reference instance). Any worker count
    gives the same figures: fight k of a seat is seeded by k alone. ``progress`` (the
    tournament's reporter) advances a fight at a time."""
    jobs = [(s, k, base) for s in seats for base in (False, True) for k in range(fights)]
    got = []
    for r in _points(jobs, game, make, workers):
        got.append(r)
        if progress is not None:
            progress.advance(1)
    out, i = [], 0
    for s in seats:
        cand, base = sum(got[i:i + fights]), sum(got[i + fights:i + 2 * fights])
        i += 2 * fights
        out.append(SeatMargin(s, side_name(game, s), fights, cand, base))
    return out
