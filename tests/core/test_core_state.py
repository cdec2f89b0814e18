"""The native core's board state (layer 3): the board's Python records go in and come back
the same, and its geometry answers hold together: the direction an attack comes from and
the arc (aom315, §5.4 PROPOSED for fighters sharing a hex), the holds on and by a fighter
(§1.18), the fighters still in (§5.30), the approach recorded by a move into an occupied hex
and reset by a turn (§5.4). Checked at every decision of seeded random fights, armed and
group fights included. (Until the Python engine was deleted, issue 15, these answers were
compared with its State's at every decision.)"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexdojo.envs.rules import Game, _core
from hexdojo.envs.rules import hexgrid as hx
from hexdojo.envs.rules.to_core import Ids, core_state, core_window

GAMES = {
    "chu-urlik": lambda: Game.create(["chu", "urlik"]),
    "chu-boris": lambda: Game.create(["chu", "boris"]),
    "chu-guard": lambda: Game.create(["chu", "guard"]),
    "cogan-spearman": lambda: Game.create(["cogan", "spearman"]),
    "knife-chu": lambda: Game.create(["knife_fighter", "chu"]),
    "two_vs_two": lambda: Game.from_scene("two_vs_two"),
    "monk_vs_two_guards": lambda: Game.from_scene("monk_vs_two_guards"),
    "rider_vs_foot": lambda: Game.from_scene("rider_vs_foot"),
}
_GAMES: dict[str, Game] = {}


def game(name: str) -> Game:
    if name not in _GAMES:
        _GAMES[name] = GAMES[name]()
    return _GAMES[name]


def decisions(g: Game, seed: int, limit: int = 400):
    """The states at each decision of a seeded random fight."""
    s = g.new_state(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(limit):
        if s.is_over:
            return
        yield s
        choices = s.legal_choices()
        s.apply(choices[int(rng.integers(len(choices)))])


def names_back(t, c: _core.Board) -> list[tuple]:
    """The native fighters in Python's terms (names for ids)."""
    locs, wids = list(t.locations), list(t.weapon_ids)
    out = []
    for f in c.fighters:
        out.append((f.idx, tuple(f.pos), f.facing, f.ap, f.init, f.phased, f.prone, f.mounted,
                    f.height, f.out.value, f.worst, f.pen, f.status.value,
                    tuple((locs[w.location], w.level) for w in f.wounds),
                    tuple(None if h < 0 else wids[h] for h in f.hands),
                    tuple(wids[w] for w in f.sheathed),
                    tuple((wids[x.weapon], locs[x.location]) for x in f.stuck)))
    return out


def python_fighters(s) -> list[tuple]:
    out_code = {None: 0, "unconscious": 1, "dead": 2}
    status_code = {"": 0, "staggered": 1, "stunned": 2}
    return [(f.idx, f.pos, f.facing, f.ap, f.init, f.phased, f.prone, f.mounted, f.height,
             out_code[f.out], f.worst, f.pen, status_code[f.status], f.wounds, f.hands,
             f.sheathed, f.stuck) for f in s.fighters]


def consistent_geometry(c: _core.Board) -> None:
    """The core's board answers agree with each other and with §5.4: fighters sharing a
    hex approach each other from opposite directions, an arc is the attack direction seen
    from a facing (hexgrid.relative), holds on and by a fighter are the board's holds."""
    n = len(c.fighters)
    for a in range(n):
        assert c.others(a) == [f.idx for f in c.fighters if f.idx != a and f.out.value == 0]
        on = [h for h in c.holds if h.held == a]
        by = [h for h in c.holds if h.holder == a]
        assert (c.hold_on(a) is None) == (not on) and (c.hold_by(a) is None) == (not by)
        for b in range(n):
            if a == b:
                continue
            d = c.attack_direction(a, b)
            pa, pb = tuple(c.fighters[a].pos), tuple(c.fighters[b].pos)
            if pa == pb:
                assert d == (c.approach(a, b) if c.approach(a, b) >= 0 else c.fighters[b].facing)
            elif hx.direction_to(pb, pa) is not None:
                assert d == hx.direction_to(pb, pa)
            for facing in range(6):
                assert c.arc(a, b, facing) == hx.relative(d, facing)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_board_state_round_trips_at_every_decision(name: str) -> None:
    """The Python records of the board (what the views show and a scenario or a write
    hands over) go into the core's State and come back the same, fighter by fighter, and
    the core's board answers are consistent, at every decision of seeded random fights."""
    g = game(name)
    ids = Ids(g.tables)
    seen = 0
    for seed in range(3):
        for s in decisions(g, seed):
            c = core_state(s, ids)
            assert names_back(s.t, c) == python_fighters(s)
            assert c.dropped == [(h, ids.weapon[w]) for h, w in s.dropped]
            consistent_geometry(c)
            consistent_geometry(s._core.state)
            w = s.window
            if w is not None:
                cw = core_window(ids, w)
                assert (cw.fighter, cw.attacker, cw.own_hand) == (
                    w.fighter, -1 if w.attacker is None else w.attacker,
                    -1 if w.own_hand is None else w.own_hand)
            seen += 1
    assert seen > 50


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 10_000),
       at=st.integers(0, 120), to=st.tuples(st.integers(-3, 3), st.integers(-3, 3)),
       facing=st.integers(0, 5), who=st.integers(0, 7))
def test_moves_and_turns_record_the_approach(name, seed, at, to, facing, who) -> None:
    """§5.4: a fighter entering an occupied hex records the direction he came from, for
    both (opposite directions); a turn makes those sharing his hex count as in front. The
    clone is independent."""
    g = game(name)
    s = None
    for k, s in enumerate(decisions(g, seed)):  # noqa: B007 - the state at decision ``at``
        if k == at:
            break
    assert s is not None
    i = who % len(s.fighters)
    c = core_state(s)
    before = [tuple(f.pos) for f in c.fighters]
    nat = c.clone()
    dest = to if hx.in_arena(to, g.radius) else s.fighters[1 - i if i < 2 else 0].pos
    old = tuple(nat.fighters[i].pos)
    nat.place(i, dest)
    came = hx.direction_to(tuple(dest), old)
    came = hx.nearest_direction(tuple(dest), old) if came is None else came
    for f in nat.fighters:
        if f.idx != i and tuple(f.pos) == tuple(dest) and old != tuple(dest):
            assert nat.approach(i, f.idx) == came
            assert nat.approach(f.idx, i) == hx.opposite(came)
    consistent_geometry(nat)
    turned = nat.fighters[i].facing != facing  # a turn to the same facing changes nothing
    nat.set_facing(i, facing)
    for f in nat.fighters:
        if turned and f.idx != i and tuple(f.pos) == tuple(nat.fighters[i].pos):
            assert nat.arc(f.idx, i) == 0  # in front of the fighter who turned
    consistent_geometry(nat)
    assert [tuple(f.pos) for f in c.fighters] == before  # the original is untouched


def test_bad_board_input_is_a_python_error() -> None:
    s = core_state(game("chu-urlik").new_state(seed=1))
    with pytest.raises(IndexError, match="arc: fighter 5, allowed 0..1"):
        s.arc(5, 0)
    with pytest.raises(ValueError, match="facing: allowed 0..5"):
        s.set_facing(0, 6)
    with pytest.raises(ValueError, match="the native core takes 2..8"):
        s.fighters = s.fighters[:1]
    with pytest.raises(ValueError, match="approach: direction -1..5"):
        s.set_approach(0, 1, 9)
