"""The scripted fighters (agents/scripted.py HeuristicAgent), a thin face of the native bot
(agents/native/scripted.cpp, ``_bots.ScriptedBot``, issue 15).

Their Python reference (the Python scoring, on the Python engine) is gone; the differential
test that compared every decision with it (166 fights, 5,946 decisions, 2,577 scored windows,
217,245 values, 0 differences, docs/history/native-core-port.md) is replaced by the pinned fingerprint of
the agents' choices and values (tests/agents/test_agents_fingerprint.py). Here: what is not
differential. The face's own invariants (the pick first in ``ranked``, ``scored_choices``
sorted and the same values as the bot's list-order ``scored``), its dispatch
(``HEXDOJO_NATIVE_AGENTS=0``, a subclass, a state without a core fight), the tournament's
fast path against the Python tournament loop over the same bots, and bad arguments.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexdojo.agents import scripted_core
from hexdojo.agents.scripted import STYLES, HeuristicAgent, RandomAgent, style_agent
from hexdojo.envs.rules.pairings import make_game

#: a rule variant (another rule set, its own Knowledge and bots)
VARIANT = {"attack": {"rear_bonus": 3}}
SCORED = ("action", "reaction", "follow_on")


def make_agent(name: str) -> Any:
    if name == "random":
        return RandomAgent(7)
    if name == "custom":
        return style_agent("striker", aggression=0.3, risk=3)
    return HeuristicAgent(STYLES[name], name)


@pytest.mark.parametrize(("pairing", "names"), [
    ("chu-boris", ("grappler", "custom")), ("guard-spearman", ("swordsman", "counter")),
    ("two_vs_one", ("striker", "greedy")), ("rider_vs_foot", ("counter", "grappler")),
])
def test_the_face_orders_what_the_bot_scores(pairing: str, names: tuple[str, str]) -> None:
    """At every decision ``act`` is ``ranked``'s first; in the maneuver windows
    ``scored_choices`` is the bot's list-order ``scored`` sorted best first (stable: ties in
    list order), ``ranked`` follows it and ``act`` is its first."""
    seen: Counter = Counter()
    game = make_game(pairing)
    for seed in range(3):
        s = game.new_state(seed)
        sides = [make_agent(n) for n in names]
        while not s.is_over:
            a = sides[game.sides[s.decision.fighter]]
            c = a.act(s)
            assert a.ranked(s)[0] == c
            assert sorted(a.ranked(s), key=repr) == sorted(s.legal_choices(), key=repr)
            if s.decision.kind in SCORED:
                sc = a.scored_choices(s)
                flat = a._bot(s.t).scored(scripted_core.core_of(s))
                order = sorted(range(len(flat)), key=lambda n: -flat[n][0])
                choices = s.legal_choices()
                assert sc == [(flat[n][0], choices[flat[n][1]]) for n in order]
                assert [ch for _, ch in sc] == a.ranked(s) and sc[0][1] == c
                seen["scored"] += 1
            seen["decisions"] += 1
            s.apply(c)
    assert seen["scored"] > 20 and seen["decisions"] > seen["scored"], seen


def test_tournament_fast_path_plays_the_python_loops_fights(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """A fight between native bots inside the core (tournament.play_native) is the fight the
    tournament's Python loop plays with the same agents (``HEXDOJO_NATIVE_AGENTS=0``:
    ``act`` per decision through the Python API): the same choices, winner and length."""
    from hexdojo.agents.tournament import play_fight

    for pairing, names in (("chu-chu", ("grappler", "counter")),
                           ("guard-spearman", ("swordsman", "greedy")),
                           ("chu-boris", ("custom", "random"))):
        game = make_game(pairing, rules=VARIANT if pairing == "chu-boris" else None)
        agents = [make_agent(n) for n in names]
        for seed in range(3):
            monkeypatch.setenv("HEXDOJO_NATIVE_AGENTS", "1")
            assert all(a.native_player(game) is not None for a in agents)
            fast = play_fight(game, agents, seed, record_choices=True)
            monkeypatch.setenv("HEXDOJO_NATIVE_AGENTS", "0")
            assert all(a.native_player(game) is None for a in agents)
            slow = play_fight(game, agents, seed, record_choices=True)
            assert fast.choices == slow.choices and fast.choices
            assert (fast.winner, fast.turns, fast.decisions) == (slow.winner, slow.turns,
                                                                 slow.decisions)


def test_dispatch(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot answers whatever HEXDOJO_NATIVE_AGENTS says (the flag only turns the
    tournament's fast path off: no native player); a subclass plays through the bot too
    but has no native player (it may override ``act``); a state without a core fight is
    a TypeError with one clear line."""
    game = make_game("chu-chu")
    a = HeuristicAgent(STYLES["striker"], "striker")
    s = game.new_state(0)
    asked: Counter = Counter()
    real = scripted_core.bot_for

    def spy(*args: Any) -> Any:
        asked["bot"] += 1
        return real(*args)

    monkeypatch.setattr(scripted_core, "bot_for", spy)
    monkeypatch.setenv("HEXDOJO_NATIVE_AGENTS", "0")
    assert a.act(s) in s.legal_choices() and a.native_player(game) is None
    monkeypatch.delenv("HEXDOJO_NATIVE_AGENTS")
    assert a.native_player(game) is not None

    class Tweaked(HeuristicAgent):
        pass

    t = Tweaked(STYLES["striker"], "tweaked")
    assert t.act(s) == a.act(s) and t.native_player(game) is None
    assert asked["bot"] == 2  # one per agent: the bot is kept for the rule set and style

    class NotCore:
        decision = s.decision
        t = s.t

        def legal_choices(self) -> list[Any]:
            return s.legal_choices()

    with pytest.raises(TypeError, match="native core"):
        a.act(NotCore())


def test_a_restricted_view_gets_the_best_allowed_choice() -> None:
    """agents/lab's bans: on a view that leaves a maneuver out (its ``unrestricted`` is the
    real state), ``ranked`` and ``scored_choices`` are the real state's without the banned
    choices and ``act`` is the best allowed one, never a banned one."""
    from hexdojo.agents.lab.runner import _Restricted

    game = make_game("chu-boris")
    a = HeuristicAgent(STYLES["striker"], "striker")
    ban = frozenset({"Martial Strike", "Martial Kick"})
    met = 0
    for seed in range(3):
        s = game.new_state(seed)
        while not s.is_over:
            view = _Restricted(s, ban)
            if view.legal_choices():
                allowed = set(view.legal_choices())
                ranked = a.ranked(view)
                assert ranked == [c for c in a.ranked(s) if c in allowed]
                assert a.act(view) == ranked[0] and a.act(view).maneuver not in ban
                if s.decision.kind in SCORED:
                    assert a.scored_choices(view) == [vc for vc in a.scored_choices(s)
                                                      if vc[1] in allowed]
                    met += a.act(s).maneuver in ban
            s.apply(a.act(s))
    assert met > 5, met


def test_bad_arguments_are_python_errors() -> None:
    """A finished fight, another rule set's fight, a non-maneuver decision for
    scored_choices: ValueError, never a crash."""
    from hexdojo.agents import _bots

    game = make_game("chu-chu")
    bot = scripted_core.bot_for(game.tables, STYLES["greedy"])
    s = game.new_state(3)
    while s.decision.kind in ("action", "reaction", "follow_on"):
        s.apply(s.legal_choices()[0])
    with pytest.raises(ValueError, match="only action, reaction and follow-on"):
        bot.scored_choices(scripted_core.core_of(s))
    other = make_game("chu-chu", rules=VARIANT).new_state(3)
    with pytest.raises(ValueError, match="rules"):
        bot.act(scripted_core.core_of(other))
    agent = HeuristicAgent(STYLES["greedy"])
    while not s.is_over:
        s.apply(agent.act(s))
    for f in (bot.act, bot.ranked, bot.scored_choices, bot.scored):
        with pytest.raises(ValueError, match="over"):
            f(scripted_core.core_of(s))
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
        s = _MID["s"] = game.new_state(1)
        for _ in range(7):
            s.apply(s.legal_choices()[0])
    core = scripted_core.core_of(s)
    style = _bots.Style()
    style.aggression, style.risk, style.reserve_max = aggression, risk, reserve
    bot = _bots.ScriptedBot(scripted_core.native_knowledge_of(s.t), style)
    assert 0 <= bot.act(core) < len(s.legal_choices())
    try:
        n = bot.risk_for(core, i, about)
    except ValueError:
        assert not 0 <= i < len(s.fighters)
    else:
        assert 0 <= n <= game.tables.max_risk


_MID: dict[str, Any] = {}
