"""The lab's bans on a search agent (issue 32's one search: the lab asks again on a view
without the banned maneuvers; the native search's root then leaves them out and searches
the rest, as the Python tree did on the view)."""

from __future__ import annotations

import pytest

from hexdojo.agents import _bots, scripted_core, search_core
from hexdojo.agents.lab.runner import Observer, _Restricted
from hexdojo.agents.registry import make_agent
from hexdojo.agents.tournament import play_fight
from hexdojo.envs.rules import Game


def _searched_action(seed: int = 3):
    """A state where mcts searches an action among several maneuvers, and its pick."""
    state = Game.create(["chu", "boris"]).new_state(seed)
    greedy = make_agent("greedy")
    while not state.is_over:
        d = state.decision
        maneuvers = {c.maneuver for c in state.legal_choices() if c.kind == "maneuver"}
        if d.kind == "action" and len(maneuvers) > 4:
            pick = make_agent("mcts").act(state)
            if pick.kind == "maneuver":
                return state, pick
        state.apply(greedy.act(state))
    raise AssertionError("no searched action with a maneuver pick")


@pytest.mark.parametrize("spec", ["mcts", "search"])
def test_a_banned_pick_is_searched_again_without_it(spec: str) -> None:
    state, pick = _searched_action()
    view = _Restricted(state, frozenset({pick.maneuver}))
    again = make_agent(spec).act(view)
    assert again in view.legal_choices()
    assert not (again.kind == "maneuver" and again.maneuver == pick.maneuver)


def test_the_roots_children_leave_the_banned_choices_out() -> None:
    """The root's visits: every simulation went to an allowed child, and a ban of the pick
    moves the visits elsewhere (it searched, rather than playing the policy's first)."""
    state, pick = _searched_action()
    agent = make_agent("mcts")
    legal = state.legal_choices()
    banned = [k for k, c in enumerate(legal) if c.kind == "maneuver" and c.maneuver == pick.maneuver]
    pol, _ = search_core._policies(agent, state.game, None)
    draw = lambda n: list(range(1, n + 1))  # noqa: E731 - fixed seeds for the test
    k, visits = _bots.mcts_counts(scripted_core.core_of(state), pol, None, 48, 4, 2, 0.7, 0.0, 6,
                                  draw, 0.0, banned)
    assert k not in banned and sum(visits) == 48 and len(visits) >= 2
    free, _ = _bots.mcts_counts(scripted_core.core_of(state), pol, None, 48, 4, 2, 0.7, 0.0, 6,
                                draw, 0.0, [])
    assert free in banned  # the unbanned search picks the banned maneuver on the same seeds
    with pytest.raises(ValueError, match=r"banned: legal index 999: allowed 0\.\.\d+"):
        _bots.mcts_counts(scripted_core.core_of(state), pol, None, 8, 4, 2, 0.7, 0.0, 6, draw,
                          0.0, [999])


def test_a_lab_fight_with_a_ban_never_plays_the_banned_maneuver() -> None:
    game = Game.create(["chu", "boris"], turn_limit=8)
    vetoes = 0
    for seed in range(3):
        obs = Observer(make_agent("mcts"), 0, ban=["Martial Strike"])
        r = play_fight(game, (obs, make_agent("greedy")), seed)
        assert r.turns > 0 and r.usage[0]["Martial Strike"] == 0
        vetoes += obs.vetoes
    assert vetoes > 0  # the ban stepped in: the search picked it, then searched without it
