"""The native core's board state (layer 3) holds what the Python engine's State holds, and
answers its geometry the same way: the direction an attack comes from and the arc (aom315,
§5.4 PROPOSED for fighters sharing a hex), the holds on and by a fighter (§1.18), the
fighters still in (§5.30), the approach recorded by a move into an occupied hex and reset by
a turn (§5.4). Checked at every decision of seeded random fights, armed and group fights
included, so that legality can later be checked on exactly these states."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexdojo.envs.rules import Game, _core
from hexdojo.envs.rules import hexgrid as hx
from hexdojo.envs.rules.native import Ids, core_state, core_window

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
    """The Python states at each decision of a seeded random fight."""
    s = g.new_state(seed=seed, engine="python")
    rng = np.random.default_rng(seed)
    for _ in range(limit):
        if s.is_over:
            return
        yield s
        choices = s.legal_choices()
        s.apply(choices[int(rng.integers(len(choices)))])


def names_back(t, c: _core.State) -> list[tuple]:
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


def same_geometry(s, c: _core.State) -> None:
    n = len(s.fighters)
    for a in range(n):
        assert c.others(a) == s.others(a)
        for x, hold in ((c.hold_on(a), s.hold_on(a)), (c.hold_by(a), s.hold_by(a))):
            assert (x is None) == (hold is None)
            if hold is not None:
                assert (x.holder, x.held, x.turn, x.attempts, x.from_behind) == (
                    hold.holder, hold.held, hold.turn, hold.attempts, hold.from_behind)
                assert list(s.t.hold_kinds)[x.kind] == hold.kind
        for b in range(n):
            assert c.approach(a, b) == s.approach.get((a, b), -1)
            if a == b:
                continue
            assert c.attack_direction(a, b) == s.attack_direction(a, b)
            for facing in range(6):
                assert c.arc(a, b, facing) == s.arc(a, b, facing)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_board_state_matches_at_every_decision(name: str) -> None:
    g = game(name)
    ids = Ids(g.tables)
    seen = 0
    for seed in range(3):
        for s in decisions(g, seed):
            c = core_state(s, ids)
            assert names_back(s.t, c) == python_fighters(s)
            assert c.dropped == [(h, ids.weapon[w]) for h, w in s.dropped]
            same_geometry(s, c)
            w = getattr(s.stack[-1], "window", None)
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
def test_moves_and_turns_record_the_same_approach(name, seed, at, to, facing, who) -> None:
    """§5.4: a fighter entering an occupied hex records the direction he came from, for both;
    a turn makes those sharing his hex count as in front. The clone is independent."""
    g = game(name)
    s = None
    for k, s in enumerate(decisions(g, seed)):  # noqa: B007 - the state at decision ``at``
        if k == at:
            break
    assert s is not None
    i = who % len(s.fighters)
    c = core_state(s)
    before = [tuple(f.pos) for f in c.fighters]
    py, nat = s.clone(), c.clone()
    dest = to if hx.in_arena(to, g.radius) else s.fighters[1 - i if i < 2 else 0].pos
    py.place(i, dest)
    nat.place(i, dest)
    py.set_facing(i, facing)
    nat.set_facing(i, facing)
    same_geometry(py, nat)
    assert [tuple(f.pos) for f in c.fighters] == before  # the original is untouched


def test_bad_board_input_is_a_python_error() -> None:
    s = core_state(game("chu-urlik").new_state(seed=1, engine="python"))
    with pytest.raises(IndexError, match="arc: fighter 5, allowed 0..1"):
        s.arc(5, 0)
    with pytest.raises(ValueError, match="facing: allowed 0..5"):
        s.set_facing(0, 6)
    with pytest.raises(ValueError, match="the native core takes 2..8"):
        s.fighters = s.fighters[:1]
    with pytest.raises(ValueError, match="approach: direction -1..5"):
        s.set_approach(0, 1, 9)
