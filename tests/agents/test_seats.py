"""Seat for seat (issue 33, section 3): a candidate's margin over the reference in each seat
of a pairing, with Newcombe's interval for a difference of proportions."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest

from hexdojo.agents.registry import make_agent
from hexdojo.agents.seats import SeatMargin, newcombe, points, seat_margins
from hexdojo.agents.tournament import Progress
from hexdojo.envs.rules import Game


def test_newcombes_interval_is_his_worked_example() -> None:
    """Newcombe (1998), Statistics in Medicine 17:873, table II, example (a): 56/70 - 48/80,
    method 10: 0.0524 to 0.3339."""
    lo, hi = newcombe(56, 70, 48, 80)
    assert (round(lo, 4), round(hi, 4)) == (0.0524, 0.3339)


def test_newcombes_interval_by_hand() -> None:
    """9/10 - 3/10: Wilson (0.5958, 0.9821) and (0.1078, 0.6032); d = 0.6,
    d - sqrt(0.3042^2 + 0.3032^2) = 0.1705, d + sqrt(0.0821^2 + 0.1922^2) = 0.8090."""
    lo, hi = newcombe(9, 10, 3, 10)
    assert math.isclose(lo, 0.1705, abs_tol=5e-4) and math.isclose(hi, 0.8090, abs_tol=5e-4)


def test_a_margin_says_whether_it_reaches_the_target() -> None:
    """A hand-made seat: 380 of 400 for the candidate, 360 for the reference: +5 points."""
    m = SeatMargin(0, "Chu", 400, 380.0, 360.0)
    assert math.isclose(m.margin, 0.05)
    lo, hi = m.margin_ci
    assert lo < 0.05 < hi and lo > 0.0  # clear of zero at 400 fights a side
    assert "+5.0 points" in m.line(0.10) and "not met" in m.line(0.10)
    assert m.line(0.05).endswith("(>= +5: met)")


def test_a_draw_is_half_a_point_for_either_seat() -> None:
    @dataclass
    class R:
        winner: int | None

    assert [points(R(None), 0), points(R(0), 0), points(R(0), 1), points(R(1), 1)] == \
        [0.5, 1.0, 0.0, 1.0]


@dataclass(frozen=True)
class _Same:
    spec: str

    def __call__(self):
        return make_agent(self.spec), make_agent(self.spec), make_agent(self.spec)


@pytest.mark.parametrize("fighters", [["chu", "boris"], ["chu", "urlik"], "two_vs_one"])
def test_an_agent_against_itself_has_margin_zero_in_each_seat(fighters) -> None:
    """The same seeds play the same fights: the candidate's fights in a seat are the
    baseline's, fight for fight (a duel, an armed pairing, a scene's two sides)."""
    if isinstance(fighters, str):
        game, names = Game.from_scene(fighters), ["Chu", "Boris + Novice"]
    else:
        game = Game.create(fighters, turn_limit=6)
        names = [p.name for p in game.profiles]
    rows = seat_margins(game, _Same("striker"), 6)
    assert [r.seat for r in rows] == [0, 1]
    assert [r.fighter for r in rows] == names
    assert all(r.margin == 0.0 and r.candidate == r.baseline for r in rows)
    assert 0 < rows[0].candidate + rows[1].candidate <= 12


def test_a_stronger_candidate_has_a_positive_margin_and_workers_do_not_matter() -> None:
    game = Game.create(["chu", "boris"], turn_limit=8)
    make = _Cand("greedy", "random")
    one = seat_margins(game, make, 8)
    assert sum(r.margin for r in one) > 0.5  # greedy in random's place wins far more
    bar = Progress(32, False)
    two = seat_margins(game, make, 8, workers=2, progress=bar)
    assert [(r.candidate, r.baseline) for r in two] == [(r.candidate, r.baseline) for r in one]
    assert bar.done == 32  # every fight of both seats, candidate and baseline, reported


@dataclass(frozen=True)
class _Cand:
    cand: str
    ref: str

    def __call__(self):
        return make_agent(self.cand), make_agent(self.ref), make_agent(self.ref)
