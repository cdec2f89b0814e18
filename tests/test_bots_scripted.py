"""The native scripted fighters (agents/native/scripted.cpp, issue 15) against the Python
agents they port (agents/scripted.py HeuristicAgent, the reference with ``native = False``):
seeded fights on the core (``NativeState``), every style against the others and against
random play, and at EVERY decision the native choice is the Python agent's; in action,
reaction and follow-on windows ``scored_choices`` is the same list (the same doubles, the
same order). Counters prove that the interesting situations came up (risk, soak, hold,
phase decisions, reactions, follow-ons, weapon attacks, holds), so the test cannot pass
vacuously.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexdojo.agents import native_bots
from hexdojo.agents.heuristics import knowledge
from hexdojo.agents.scripted import STYLES, HeuristicAgent, RandomAgent, style_agent
from hexdojo.envs.rules.native_fight import make_game

#: (pairing or scene, the side agents' names, seeds): unarmed, armed, a rider scene and a
#: group scene; "random" is RandomAgent, "custom" a style_agent with overrides
FIGHTS: list[tuple[str, tuple[str, str], range]] = [
    ("chu-chu", ("greedy", "striker"), range(24)),
    ("chu-boris", ("grappler", "random"), range(16)),
    ("urlik-cogan", ("counter", "grappler"), range(6)),
    ("novice-chu", ("custom", "greedy"), range(20)),
    ("boris-urlik", ("striker", "counter"), range(12)),
    ("cogan-novice", ("greedy", "random"), range(12)),
    ("guard-spearman", ("swordsman", "swordsman"), range(12)),
    ("knife_fighter-guard", ("swordsman", "random"), range(12)),
    ("guard-chu", ("swordsman", "grappler"), range(5)),
    ("spearman-boris", ("swordsman", "striker"), range(10)),
    ("cogan-knife_fighter", ("counter", "swordsman"), range(8)),
    ("rider_vs_foot", ("greedy", "counter"), range(10)),
    ("two_vs_one", ("grappler", "striker"), range(5)),
    ("monk_vs_guard", ("striker", "swordsman"), range(8)),
]
#: a rule variant (another rule set, its own Knowledge and bots)
VARIANT = {"attack": {"rear_bonus": 3}}


def make_agent(name: str) -> Any:
    if name == "random":
        return RandomAgent(7)
    if name == "custom":
        return style_agent("striker", aggression=0.3, risk=3)
    return HeuristicAgent(STYLES[name], name)


def reference(a: HeuristicAgent) -> HeuristicAgent:
    """The same agent on the Python path."""
    ref = HeuristicAgent(a.style, a.name)
    ref.native = False
    return ref


def fresh(ref: HeuristicAgent, s: Any) -> None:
    """Drop the Python reference's per-decision memos: its decision token (the Decision, the
    event count, the turn) may repeat on the core, whose facade interns Decisions by
    content (docs/native-core.md, "Native agents: search")."""
    ref._at = None
    knowledge(s)._dc_at = None


def compare_decision(s: Any, a: HeuristicAgent, ref: HeuristicAgent, seen: Counter) -> Any:
    """Both agents at one decision: the same choice, the same scores; returns the choice."""
    d = s.decision
    fresh(ref, s)
    want = ref.act(s)
    got = a.act(s)
    assert got == want, (d, got, want)
    if d.kind in ("action", "reaction", "follow_on"):
        fresh(ref, s)
        py = ref.scored_choices(s)
        nat = a.scored_choices(s)
        assert nat == py, (d, [x for x in zip(nat, py, strict=True) if x[0] != x[1]][:3])
        seen["scored"] += 1
        seen["scored_values"] += len(py)
    else:
        fresh(ref, s)
        assert a.ranked(s) == ref.ranked(s)
    seen["decisions"] += 1
    seen[f"{d.kind}:{d.about}" if d.about else d.kind] += 1
    if d.kind == "reaction" and s.context().get("attack") is not None:
        seen["reaction_to_attack"] += 1
    if s.holds:
        seen["while_held"] += 1
    if want.kind == "maneuver" and s.t.maneuvers[want.maneuver].weapon is not None:
        seen["weapon_choice"] += 1
    return want


def play(pairing: str, names: tuple[str, str], seed: int, seen: Counter,
         rules: Any = None) -> None:
    game = make_game(pairing, rules=rules)
    s = game.new_state(seed, engine="native")
    assert native_bots.core_of(s) is not None
    sides = [make_agent(n) for n in names]
    refs = [reference(a) if isinstance(a, HeuristicAgent) else None for a in sides]
    for _ in range(3000):
        if s.is_over:
            break
        side = game.sides[s.decision.fighter]
        a, ref = sides[side], refs[side]
        c = compare_decision(s, a, ref, seen) if ref is not None else a.act(s)
        s.apply(c)
    seen["fights"] += 1


@pytest.mark.parametrize(("pairing", "names", "seeds"), FIGHTS,
                         ids=[f"{p}:{a}-{b}" for p, (a, b), _ in FIGHTS])
def test_native_equals_python(pairing: str, names: tuple[str, str], seeds: range) -> None:
    seen: Counter = Counter()
    for seed in seeds:
        play(pairing, names, seed, seen)
    assert seen["decisions"] > 0 and seen["scored"] > 0
    _TOTAL.update(seen)


_TOTAL: Counter = Counter()


def test_situations_met() -> None:
    """Run after the fights above (same module, pytest keeps the order): the branches of
    the agent came up, each more than once."""
    if not _TOTAL:
        for pairing, names, seeds in FIGHTS:
            for seed in seeds:
                play(pairing, names, seed, _TOTAL)
    for key in ("phase", "action", "reaction", "follow_on", "soak", "hold",
                "risk:attack", "risk:defence", "risk:soak", "reaction_to_attack",
                "while_held", "weapon_choice"):
        assert _TOTAL[key] > 0, (key, dict(_TOTAL))


def test_native_equals_python_under_a_variant() -> None:
    seen: Counter = Counter()
    for seed in range(6):
        play("chu-boris", ("counter", "striker"), seed, seen, rules=VARIANT)
    assert seen["scored"] > 0 and seen["reaction"] > 0


def test_tournament_fast_path_plays_the_python_fights(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fight between native bots inside the core (tournament.play_native) is the fight the
    Python agents play on the Python engine: the same choices, winner and length."""
    from hexdojo.agents.tournament import play_fight

    monkeypatch.delenv("HEXDOJO_ENGINE", raising=False)
    for pairing, names in (("chu-chu", ("grappler", "counter")),
                           ("guard-spearman", ("swordsman", "greedy"))):
        game = make_game(pairing)
        agents = [make_agent(n) for n in names]
        monkeypatch.setenv("HEXDOJO_NATIVE_AGENTS", "1")
        assert all(a.native_player(game) is not None for a in agents)
        for seed in range(4):
            monkeypatch.delenv("HEXDOJO_ENGINE", raising=False)
            monkeypatch.setenv("HEXDOJO_NATIVE_AGENTS", "1")
            fast = play_fight(game, agents, seed, record_choices=True)
            monkeypatch.setenv("HEXDOJO_ENGINE", "python")  # the Python agents and engine
            monkeypatch.setenv("HEXDOJO_NATIVE_AGENTS", "0")
            slow = play_fight(game, agents, seed, record_choices=True)
            assert fast.choices == slow.choices and fast.choices
            assert (fast.winner, fast.turns, fast.decisions) == (slow.winner, slow.turns,
                                                                 slow.decisions)


def test_python_path_is_forced(monkeypatch: pytest.MonkeyPatch) -> None:
    """native = False, HEXDOJO_NATIVE_AGENTS=0, the Python engine and a subclass all take
    the Python methods (the native bot is never asked)."""
    game = make_game("chu-chu")
    a = HeuristicAgent(STYLES["striker"], "striker")
    assert a.native_player(game) is not None
    monkeypatch.setattr(native_bots, "bot_for", lambda *_: pytest.fail("native bot asked"))
    s = game.new_state(0, engine="native")
    a.native = False
    assert a.act(s) in s.legal_choices() and a.native_player(game) is None
    a.native = True
    monkeypatch.setenv("HEXDOJO_NATIVE_AGENTS", "0")
    assert a.act(s) in s.legal_choices() and a.native_player(game) is None
    monkeypatch.delenv("HEXDOJO_NATIVE_AGENTS")

    class Tweaked(HeuristicAgent):
        pass

    t = Tweaked(STYLES["striker"], "tweaked")
    assert t.act(s) in s.legal_choices() and t.native_player(game) is None
    py = game.new_state(0, engine="python")
    assert HeuristicAgent(STYLES["striker"]).act(py) in py.legal_choices()


def test_bad_arguments_are_python_errors() -> None:
    """A finished fight, another rule set's fight, a non-maneuver decision for
    scored_choices: ValueError, never a crash."""
    from hexdojo.agents import _bots

    game = make_game("chu-chu")
    bot = native_bots.bot_for(game.tables, STYLES["greedy"])
    s = game.new_state(3, engine="native")
    while s.decision.kind in ("action", "reaction", "follow_on"):
        s.apply(s.legal_choices()[0])
    with pytest.raises(ValueError, match="only action, reaction and follow-on"):
        bot.scored_choices(native_bots.core_of(s))
    other = make_game("chu-chu", rules=VARIANT).new_state(3, engine="native")
    with pytest.raises(ValueError, match="rules"):
        bot.act(native_bots.core_of(other))
    agent = HeuristicAgent(STYLES["greedy"])
    while not s.is_over:
        s.apply(agent.act(s))
    for f in (bot.act, bot.ranked, bot.scored_choices, bot.scored):
        with pytest.raises(ValueError, match="over"):
            f(native_bots.core_of(s))
    with pytest.raises(ValueError):
        agent.act(s)
    with pytest.raises(TypeError):
        bot.act(None)
    with pytest.raises(TypeError):
        _bots.ScriptedBot(None, _bots.Style())


@given(i=st.integers(-2**31, 2**31 - 1), about=st.integers(-2**31, 2**31 - 1),
       aggression=st.floats(allow_nan=True), risk=st.integers(-2**31, 2**31 - 1),
       reserve=st.integers(-2**31, 2**31 - 1))
@settings(max_examples=60, deadline=None)
def test_any_ints_at_the_boundary_give_an_answer_or_an_error(i: int, about: int,
                                                            aggression: float, risk: int,
                                                            reserve: int) -> None:
    """Any fighter and roll id for risk_for, any Style numbers for act: a legal index or a
    ValueError, never a crash."""
    from hexdojo.agents import _bots

    game = make_game("chu-boris")
    s = _MID.get("s")
    if s is None:
        s = _MID["s"] = game.new_state(1, engine="native")
        for _ in range(7):
            s.apply(s.legal_choices()[0])
    core = native_bots.core_of(s)
    style = _bots.Style()
    style.aggression, style.risk, style.reserve_max = aggression, risk, reserve
    bot = _bots.ScriptedBot(native_bots.native_knowledge_of(s.t), style)
    assert 0 <= bot.act(core) < len(s.legal_choices())
    try:
        n = bot.risk_for(core, i, about)
    except ValueError:
        assert not 0 <= i < len(s.fighters)
    else:
        assert 0 <= n <= game.tables.max_risk


_MID: dict[str, Any] = {}
