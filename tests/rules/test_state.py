"""The Python API on the core: ``State`` (envs/rules/state.py, the one Python class over
the bound fight, issue 32) runs every fight on the native core behind the public API the
Python engine had: the board readers get is a read-only snapshot (a write is one clear
error naming scenario set-up), scenarios with loaded dice (tests/rules_kit.py ``duel``),
clones and pickles replay the same future.

Until the Python engine was deleted these tests compared every property with the Python
State's at every decision (the lockstep test); tests/core/test_engine_lock.py holds that
behaviour now.
"""

from __future__ import annotations

import pytest

from hexdojo.envs.rules import Choice, Game, Hold, LoadedDice, RulesError, State
from hexdojo.envs.rules.board import FIELDS, BoardReadOnly
from hexdojo.envs.rules.dice import Dice
from hexdojo.envs.rules.model import FighterState
from tests.rules_kit import attack, duel, fighter, strike


def _board(s) -> dict:
    """Everything public about the board (the records, the geometry, the result)."""
    n = len(s.fighters)
    out = {"turn": s.turn, "order": tuple(s.order), "holds": list(s.holds),
           "dropped": tuple(s.dropped), "approach": dict(s.approach), "phasing": s.phasing,
           "is_over": s.is_over, "winner": s.winner, "result": s.result}
    for f in s.fighters:
        out[f"f{f.idx}"] = (f.idx, f.name, f.p, f.active, *(getattr(f, k) for k in FIELDS))
    for a in range(n):
        out[f"others{a}"] = s.others(a)
        out[f"hold{a}"] = (s.hold_on(a), s.hold_by(a))
        for b in range(n):
            if a != b:
                out[f"geo{a}{b}"] = (s.attack_direction(a, b), s.arc(a, b), s.arc(a, b, 2))
    return out


def test_new_state_is_the_core_and_the_python_engine_is_gone(monkeypatch):
    """Issue 15, "one engine": ``Game.new_state`` runs every fight (and scenario) on the
    core; asking for the deleted Python engine, by argument or by ``HEXDOJO_ENGINE``, is one
    clear error naming what is allowed."""
    game = Game.create(["chu", "urlik"])
    monkeypatch.delenv("HEXDOJO_ENGINE", raising=False)
    assert type(game.new_state(seed=1)) is State
    assert type(game.new_state(LoadedDice([3] * 20), scenario={"phase": 0})) is State
    assert game.new_state(seed=1, engine="native").decision == game.new_state(seed=1).decision
    with pytest.raises(RulesError, match=r"engine: value 'python': allowed \['native'\]"):
        game.new_state(seed=1, engine="python")
    monkeypatch.setenv("HEXDOJO_ENGINE", "python")
    with pytest.raises(RulesError, match=r"HEXDOJO_ENGINE: value 'python': allowed \['native'\]"):
        game.new_state(seed=1)
    monkeypatch.setenv("HEXDOJO_ENGINE", "native")
    assert type(game.new_state(seed=1)) is State


WRITES = {
    "fighters[0].ap": lambda s: setattr(s.fighters[0], "ap", 4),
    "fighters[1].wounds": lambda s: setattr(s.fighters[1], "wounds", (("Chest", 2),)),
    "fighters[1].pos": lambda s: setattr(s.fighters[1], "pos", (0, 0)),
    "fighters[0].status": lambda s: delattr(s.fighters[0], "status"),
    "fighters": lambda s: s.fighters.append(s.fighters[0]),
    "holds": lambda s: setattr(s, "holds", [Hold(1, 0, "arm", "R Arm", 1)]),
    "holds appended": lambda s: s.holds.append(Hold(1, 0, "arm", "L Arm", 1)),
    "approach": lambda s: s.approach.__setitem__((1, 0), 4),
    "dropped": lambda s: setattr(s, "dropped", (((0, 0), "sword"),)),
    "order": lambda s: setattr(s, "order", (1, 0)),
    "turn": lambda s: setattr(s, "turn", 3),
}


@pytest.mark.parametrize("what", sorted(WRITES))
def test_the_board_is_a_read_only_snapshot(what):
    """Issue 32, "one State": a reader's board is a snapshot of the core's; writing it is
    one clear error naming scenario set-up as the way to set a board, and changes nothing:
    the core's board, read afresh, is the same, and the fight plays on as its twin does."""
    dice = [4, 2, 5, 3, 6, 1, 2, 2, 3, 4, 5, 6] * 3
    a = fighter("A", CO=6, ma=10, ST=6)
    b = fighter("B", CO=4, ma=8, athletics=12)
    s, _ = duel(a, b, dice)
    twin, _ = duel(a, b, dice)
    base = _board(s)
    with pytest.raises(BoardReadOnly, match=r"State\.\w.*read-only snapshot.*"
                       r"Game\.new_state\(seed, scenario=\{\.\.\.\}\) \(envs/rules/scenario\.py\)"):
        WRITES[what](s)
    assert _board(s) == base
    s._forget()  # read the core's board again, not the snapshot
    assert _board(s) == base
    for x in (s, twin):
        strike(x, "Martial Strike", "Chest", ra=1, rd=1)
    assert s.events == twin.events and _board(s) == _board(twin)


def test_a_detached_copy_is_writable_and_leaves_the_fight_alone():
    """``f.copy()`` is a plain ``model.FighterState`` to change freely (the legality tests'
    perturbed boards); the fight's own board does not see it."""
    s, _ = duel(fighter("A"), fighter("B"), [3] * 10)
    f = s.fighters[0].copy()
    f.ap = 1
    assert type(f) is FighterState and f.ap == 1 and s.fighters[0].ap == 10


def test_clones_are_independent_and_replay_the_same_future():
    """State.clone: same future dice, independent afterwards (§1.3 seeded dice)."""
    game = Game.create(["chu", "boris"])
    nat = State.new(game, 5)
    for _ in range(6):
        nat.apply(nat.legal_choices()[-1])
    before = _board(nat)
    c = nat.clone()
    assert _board(c) == before and c.events == nat.events
    c.apply(c.legal_choices()[0])
    assert _board(c) != before and _board(nat) == before  # the choice stayed in the clone
    d1, d2 = nat.clone(), nat.clone()
    while not d1.is_over:
        ch = d1.legal_choices()[0]
        d1.apply(ch)
        d2.apply(ch)
    assert d1.events == d2.events and d1.result == d2.result


def test_clone_with_dice_rolls_from_them_and_leaves_the_original_alone():
    """Issue 32, ``clone(dice=d)`` (a search's determinised clone, OpenSpiel's chance
    replay): the clone rolls d's faces from now on, the same fight every time; the
    original keeps its own future (the faces and the fight a plain clone has)."""
    game = Game.create(["chu", "boris"])
    s = State.new(game, 5)
    for _ in range(6):
        s.apply(s.legal_choices()[-1])
    own = s.dice.faces(40)
    c = s.clone(dice=Dice(99, 6))
    assert c.dice.faces(40) == Dice(99, 6).faces(40) != own
    assert s.dice.faces(40) == own  # the original's dice untouched
    with pytest.raises(AttributeError, match=r"State\.dice is read-only: .* state\.clone\(dice=\.\.\.\)"):
        s.dice = Dice(99, 6)
    assert s.dice.faces(40) == own
    plain, again = s.clone(), s.clone(dice=Dice(99, 6))
    for a, b in ((s, plain), (c, again)):
        while not a.is_over:
            ch = a.legal_choices()[0]
            a.apply(ch)
            b.apply(ch)
        assert a.events == b.events and a.result == b.result
    assert s.events != c.events  # other dice, another fight


def test_clone_with_loaded_dice_leaves_the_originals_loaded_dice_alone():
    """``clone(dice=LoadedDice(...))``: the clone rolls the scripted faces and counts them
    on those dice; the original's loaded dice roll nothing and still run out as before."""
    s, dice = duel(fighter("A", ma=10, CO=6), fighter("B", ma=4), [4, 3])
    mine = LoadedDice([2] * 30)
    c = s.clone(dice=mine)
    strike(c, "Martial Strike", ra=2, rd=2)
    assert mine.used == 4 and c.dice is mine and dice.used == 0
    assert [e["type"] for e in c.events][-3:] == ["declare", "attack", "damage"]
    s.apply(attack("Martial Strike"))
    with pytest.raises(RuntimeError, match="LoadedDice ran out after 2 faces"):
        while s.decision is not None:
            s.apply(s.legal_choices()[-1])


def test_loaded_dice_stay_in_step_and_run_out():
    """§1.3 with scripted faces: the test's LoadedDice count what the core rolled
    (``dice.used``), faces pushed later reach the core, and running out is the dice's own
    RuntimeError (the counts are the Python engine's, pinned)."""
    s, dice = duel(fighter("A", ma=10, CO=6), fighter("B", ma=4), [4, 3])
    s.apply(attack("Martial Strike"))
    assert dice.used == 0
    with pytest.raises(RuntimeError, match="LoadedDice ran out after 2 faces"):
        while s.decision is not None:
            s.apply(s.legal_choices()[-1])
    assert dice.used == 2
    s2, dice2 = duel(fighter("A", ma=10, CO=6), fighter("B", ma=4), [4, 3])
    dice2.push(*[2] * 30)
    strike(s2, "Martial Strike", ra=2, rd=2)
    assert dice2.used == 4
    assert [e["type"] for e in s2.events] == ["declare", "attack", "damage"]


def test_check_over_and_knock_out_run_in_the_core():
    """§5.30: a fighter knocked out ends the fight when one side is left (check_over);
    his hold ends with him (§1.18)."""
    s, _ = duel(fighter("A"), fighter("B"), [3] * 10, pos_b=(0, 0),
                holds=[{"holder": 1, "held": 0, "kind": "arm", "location": "R Arm"}])
    with pytest.raises(ValueError, match=r"knock_out: how 'asleep': allowed \['unconscious', 'dead'\]"):
        s.knock_out(1, "asleep")
    s.knock_out(1, "unconscious")
    assert s.fighters[1].out == "unconscious" and s.fighters[1].ap == 0 and s.holds == []
    assert s.check_over() and s.winner == 0 and s.is_over
    assert s.events[-1]["type"] == "fight_ends"


def test_a_pickled_state_replays_to_the_same_fight():
    """OpenSpiel serialises states by pickling: a State pickles as its recipe and
    the choices since, and loads as the same fight (same board, events, future dice, §1.3);
    a state whose board was written refuses with one clear error."""
    import pickle

    game = Game.create(["chu", "urlik"])
    s = State.new(game, 11)
    for _ in range(8):
        s.apply(s.legal_choices()[-1])
    c = s.clone(dice=LoadedDice([2] * 200))
    back = pickle.loads(pickle.dumps(c))
    assert _board(back) == _board(c) and back.events == c.events
    while not c.is_over:
        ch = c.legal_choices()[0]
        c.apply(ch)
        back.apply(ch)
    assert back.events == c.events and back.result == c.result
    with pytest.raises(TypeError, match=r"State\.from_core\) has no recipe and cannot be pickled"):
        pickle.dumps(State.from_core(game, s._core.clone()))


def test_choices_are_found_by_identity_or_equality_and_lists_are_fresh():
    """The menus (menus.Boundary.menu): apply takes the legal list's own
    Choice or an equal one built afresh to the same fight; each legal_choices() is a new
    list (changing it changes nothing); an illegal choice is the Python engine's
    IllegalChoice with its reason; equal decisions share the core's interned menu id."""
    from hexdojo.envs.rules import IllegalChoice

    game = Game.create(["chu", "urlik"])
    a, b, ref = State.new(game, 4), State.new(game, 4), game.new_state(seed=4)
    assert type(ref) is State
    assert a._core.menu == b._core.menu >= 0
    while not a.is_over:
        legal = a.legal_choices()
        legal.clear()
        legal = a.legal_choices()
        assert legal == ref.legal_choices() and a.decision == ref.decision
        ch = legal[len(legal) // 2]
        a.apply(ch)
        b.apply(Choice(*ch))  # equal, not the same object
        ref.apply(ch)
    assert a.events == b.events == ref.events and a.result == b.result == ref.result
    s, p = State.new(game, 9), game.new_state(seed=9)
    bad = Choice("risk", risk=99)
    for st in (s, p):
        with pytest.raises(IllegalChoice) as e:
            st.apply(bad)
        assert e.value.reason == (p.why_illegal(bad))
    first = s._core.menu
    s.apply(s.legal_choices()[0])
    assert s._core.menu != first


def test_a_clone_of_a_clone_pickles_its_own_choices_only():
    """Clones share the replay recipe's ops (a chain, not a copy); what the parent does
    after the copy is not the clone's, and the clone's pickle replays its own fight."""
    import pickle

    game = Game.create(["boris", "cogan"])
    s = State.new(game, 21)
    for _ in range(5):
        s.apply(s.legal_choices()[0])
    c = s.clone()
    s.apply(s.legal_choices()[-1])
    c.apply(c.legal_choices()[0])
    cc = c.clone()
    c.apply(c.legal_choices()[-1])
    back = pickle.loads(pickle.dumps(cc))
    assert _board(back) == _board(cc) and back.events == cc.events
    assert back.legal_choices() == cc.legal_choices() and back.decision == cc.decision


def test_each_decision_is_a_new_decision_object():
    """A Python agent (a plug-in) may key per-decision memos on the Decision's identity:
    every decision hands out a new object, even one equal to the last (the facade's menus
    share theirs); reading it again, or from a clone, gives the same object."""
    game = Game.create(["chu", "urlik"])
    s = State.new(game, 2)
    seen = []
    while not s.is_over:
        d = s.decision
        assert s.decision is d and s.clone().decision is d
        seen.append(d)
        s.apply(s.legal_choices()[0])
    assert len({id(d) for d in seen}) == len(seen)
    # equal decisions one after the other, distinct objects
    assert any(a == b for a, b in zip(seen, seen[1:], strict=False))
