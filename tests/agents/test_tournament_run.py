"""Running round robins: common random numbers, determinism, chains, report files."""

from __future__ import annotations

import json

import pytest

from hexdojo.agents.base import AgentError, FunctionAgent
from hexdojo.agents.registry import make_agent
from hexdojo.agents.report import write_report
from hexdojo.agents.tournament import (
    TournamentConfig,
    agent_seed,
    play_fight,
    run_tournament,
)
from hexdojo.envs.rules import END, Game, RulesError

AGENTS = ("random", "greedy", "grappler")


@pytest.fixture(scope="module")
def result():
    return run_tournament(TournamentConfig(AGENTS, fights=6, seed=11))


def test_every_ordered_pair_plays_the_same_seeds(result) -> None:
    seeds: dict[tuple[str, str], list[int]] = {}
    for a, b, seed, *_ in result.fights:
        seeds.setdefault((a, b), []).append(seed)
    assert len(seeds) == 6  # 3 agents -> 6 ordered pairings
    for (a, b), ss in seeds.items():
        assert ss == list(range(11, 17))
        assert seeds[(b, a)] == ss  # common random numbers: both orders, same dice seeds


def test_counts_add_up(result) -> None:
    assert len(result.fights) == 3 * 2 * 6
    for (i, j), ps in result.pairs.items():
        rows = [f for f in result.fights if f[0] == AGENTS[i] and f[1] == AGENTS[j]]
        assert ps.n == len(rows) == 6
        assert ps.wins == sum(1 for f in rows if f[3] == 0)
        assert ps.losses == sum(1 for f in rows if f[3] == 1)
        assert ps.draws == sum(1 for f in rows if f[3] is None)
        assert ps.turns == sum(f[5] for f in rows)


def test_same_results_with_more_workers(result) -> None:
    again = run_tournament(TournamentConfig(AGENTS, fights=6, seed=11, workers=2))
    assert again.fights == result.fights
    assert again.usage == result.usage
    assert again.chains == result.chains


def test_chains_follow_the_follow_on_graph(result) -> None:
    follow = Game.create(["chu", "chu"]).tables.follow_ons
    seen = 0
    for counter in result.chains.values():
        for chain in counter:
            steps = chain.split(" > ")
            assert len(steps) >= 2
            for a, b in zip(steps, steps[1:], strict=False):
                assert b in follow[a], chain
            seen += 1
    assert seen > 0


def test_fight_record_matches_a_replay() -> None:
    """play_fight is deterministic for a seed and its recorded choices replay exactly."""
    g = Game.create(["chu", "urlik"])
    agents = [make_agent("striker"), make_agent("random")]
    r1 = play_fight(g, agents, 5, record_choices=True)
    r2 = play_fight(g, agents, 5, record_choices=True)
    assert r1.choices == r2.choices and r1.winner == r2.winner
    s = g.new_state(5)
    for c in r1.choices:
        s.apply(c)
    assert s.is_over and s.winner == r1.winner and s.turn == r1.turns
    assert agent_seed(5, 0) != agent_seed(5, 1)


def test_an_illegal_choice_is_reported() -> None:
    g = Game.create(["chu", "chu"])
    bad = FunctionAgent(lambda s: END, name="always-end")
    with pytest.raises(RuntimeError, match="always-end"):
        play_fight(g, [bad, bad], 0)


def test_report_files(result, tmp_path) -> None:
    paths = write_report(result, tmp_path / "out")
    data = json.loads(paths["json"].read_text())
    assert data["config"]["agents"] == list(AGENTS)
    assert data["fights"] == 36
    assert len(data["ratings"]["table"]) == 3
    for nm in AGENTS:
        assert "maneuvers" in data["agents"][nm] and "top_chains" in data["agents"][nm]
    html = paths["html"].read_text()
    assert html.count("data:image/png;base64,") == 2 and "<table>" in html
    assert paths["matrix"].read_text().splitlines()[0].startswith("agent,opponent,wins")
    assert len(paths["fights"].read_text().splitlines()) == 37
    assert paths["heatmap"].read_bytes()[:4] == b"\x89PNG"
    leftovers = [p for p in (tmp_path / "out").iterdir() if p.name.startswith(".")]
    assert leftovers == []


@pytest.mark.parametrize("cfg,err,words", [
    (TournamentConfig(("random",), fights=1), AgentError, "at least two"),
    (TournamentConfig(("random", "random"), fights=1), AgentError, "given twice"),
    (TournamentConfig(("random", "greedy"), fights=0), ValueError, "fights: value 0"),
    (TournamentConfig(("random", "greedy"), workers=0), ValueError, "workers: value 0"),
    (TournamentConfig(("random", "nobody")), AgentError, "unknown agent 'nobody'"),
    (TournamentConfig(("random", "greedy"), fighters=("chu", "nobody")), RulesError, "nobody"),
])
def test_bad_configs(cfg, err, words) -> None:
    with pytest.raises(err, match=words):
        run_tournament(cfg)
