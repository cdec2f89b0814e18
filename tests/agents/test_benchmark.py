"""``hexdojo benchmark`` (issue 35): the versioned protocol, its tables and its record.

The writers are checked on a hand-computed case (known results => known scores, intervals
and ratings in the Markdown and the LaTeX); the runs use a tiny protocol (two ladder agents,
a few fights) put in place of v1, so that they take seconds, not minutes."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from pathlib import Path

import pytest

from hexdojo.agents import benchmark as bm
from hexdojo.agents.base import Agent, AgentError
from hexdojo.agents.benchmark_tables import latex, markdown, write_benchmark
from hexdojo.agents.cli import main
from hexdojo.agents.registry import make_agent
from hexdojo.agents.tournament import PairStats, TournamentConfig, TournamentResult, play_fight

TINY = dataclasses.replace(bm.V1, ladder=("random", "greedy"),
                           arenas=tuple(dataclasses.replace(a, fights=3) for a in bm.V1.arenas))
GIT = {"commit": "0" * 40, "dirty": False}


@pytest.fixture
def tiny(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tiny protocol as v1, and a fixed commit (the tree is shared: another edit
    between two runs must not make them differ)."""
    monkeypatch.setitem(bm.PROTOCOLS, "v1", TINY)
    monkeypatch.setattr(bm, "git_state", lambda: GIT)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    got = capsys.readouterr()
    return int(exc.value.code or 0), got.out, got.err


def named(name: str) -> Agent:
    a = Agent()
    a.name = name
    return a


# --------------------------------------------------------------------------- hand-computed
def hand_record() -> dict:
    """alpha (the candidate) against beta (the ladder), 10 fights per ordered pairing:
    alpha on side 0 wins 7, draws 1, loses 2 (score 7.5/10); on side 1 it wins 5 of 10."""
    arena = bm.V1.arenas[0]
    cfg = TournamentConfig(("alpha", "beta"), fights=10, seed=arena.seed)
    pairs = {(0, 1): PairStats(7, 1, 2), (1, 0): PairStats(5, 0, 5)}
    result = TournamentResult(cfg, ["alpha", "beta"], pairs, {}, {}, [], 1.0, "rules-x",
                              [("Chu A", ["Chu A"]), ("Chu B", ["Chu B"])])
    roles = {"alpha": "candidate", "beta": "ladder"}
    plan = bm.Plan(bm.V1, (named("alpha"),))
    one = bm.arena_record(arena, result, roles, {})
    return bm.record(plan, [named("alpha"), named("beta")], roles, [one])


def test_tables_show_hand_computed_scores_intervals_and_ratings() -> None:
    # Wilson, z = 1.96: 7.5/10 -> [44.2, 91.9] %; 5/10 -> [23.7, 76.3] %. Bradley-Terry with
    # one virtual draw: alpha 13 of 21 points, theta difference ln(13/8) = 0.4855, i.e.
    # +-42.2 Elo around 1500; se = 173.72 / sqrt(4 * 21 * 13/21 * 8/21) = 39.0, so
    # 1542.2 [1466, 1619] and 1457.8 [1381, 1534].
    rec = hand_record()
    md, tx = markdown(rec), latex(rec)
    for text in (md, tx):
        assert "1542.2 [1466, 1619]" in text and "1457.8 [1381, 1534]" in text
        assert "75.0 [44.2, 91.9]" in text and "50.0 [23.7, 76.3]" in text
    assert "| alpha | 1542.2 [1466, 1619] | 75.0 [44.2, 91.9] | 50.0 [23.7, 76.3] |" in md
    assert "alpha & 1542.2 [1466, 1619] & 75.0 [44.2, 91.9] & 50.0 [23.7, 76.3]" in tx
    assert md.startswith("# hexdojo benchmark v1\n") and r"\toprule" in tx
    vs = rec["arenas"][0]["vs_ladder"]["alpha"]
    assert (vs["side0"]["wins"], vs["side0"]["draws"], vs["side1"]["losses"]) == (7, 1, 5)
    assert vs["both"]["n"] == 20 and vs["both"]["score"] == pytest.approx(12.5 / 20)


def test_the_record_is_written_whole_and_latex_is_escaped(tmp_path: Path) -> None:
    rec = hand_record()
    rec["arenas"][0]["title"] = "my_arena 100% & more"
    paths = write_benchmark(tmp_path, rec)
    assert json.loads(paths["json"].read_text()) == rec
    assert r"my\_arena 100\% \& more" in paths["tex"].read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "benchmark.json", "benchmark.md", "benchmark.tex"]


def test_v1_is_frozen() -> None:
    """v1's definition is pinned: a change must make a new version, never a new v1."""
    with pytest.raises(dataclasses.FrozenInstanceError):
        bm.V1.ladder = ()  # type: ignore[misc]
    d = dataclasses.asdict(bm.V1)
    assert d["ladder"] == ("random", "greedy", "striker", "grappler", "counter", "search", "mcts")
    assert [(a["name"], a["seed"], a["fights"], a["fighters"], a["scene"], a["radius"],
             a["turn_limit"]) for a in d["arenas"]] == [
        ("duel", 1000, 100, ("chu", "chu"), None, 4, None),
        ("two_vs_one", 2000, 100, ("chu", "chu"), "two_vs_one", 4, None)]
    assert d["rules"] == "shipped" and bm.PROTOCOLS["v1"] is bm.V1


# --------------------------------------------------------------------------- runs
def test_same_json_whatever_the_worker_count(tiny, tmp_path, capsys) -> None:
    outs = []
    for j in ("1", "2"):
        code, _, err = run(["benchmark", "striker", "-j", j, "-o", str(tmp_path / j),
                            "--no-progress"], capsys)
        assert code == 0, err
        rec = json.loads((tmp_path / j / "benchmark.json").read_text())
        rec.pop("created_utc")
        outs.append((rec, (tmp_path / j / "benchmark.md").read_text(),
                     (tmp_path / j / "benchmark.tex").read_text()))
    assert outs[0] == outs[1]
    rec = outs[0][0]
    assert rec["protocol"]["followed"] and rec["software"]["git"] == GIT
    assert [a["name"] for a in rec["agents"]] == ["striker", "random", "greedy"]
    assert all(p["side0"]["n"] == 3 for a in rec["arenas"] for p in a["pairings"])


@pytest.mark.parametrize("flags, fights, why", [
    (["--quick"], bm.QUICK_FIGHTS, "(--quick)"), (["--fights", "1"], 1, "(--fights)")])
def test_a_run_off_the_protocol_says_so(tiny, tmp_path, capsys, flags, fights, why) -> None:
    code, out, err = run(["benchmark", "greedy", "-j", "1", "-o", str(tmp_path), "--no-progress",
                          *flags], capsys)
    assert code == 0, err
    rec = json.loads((tmp_path / "benchmark.json").read_text())
    assert rec["protocol"]["followed"] is False
    assert rec["protocol"]["deviations"] == [
        f"{a.name}: {fights} fights per ordered pairing instead of 3 {why}" for a in TINY.arenas]
    assert all(a["fights_per_ordered_pairing"] == fights for a in rec["arenas"])
    for name in ("benchmark.md", "benchmark.tex"):
        assert "NOT hexdojo benchmark v1" in (tmp_path / name).read_text()
    assert "warning: not the protocol" in err and out.count("NOT hexdojo benchmark v1") == 1


def test_a_changed_definition_is_not_v1() -> None:
    plan = bm.Plan(TINY, (named("a"),))
    assert plan.deviations() == [
        "the protocol's definition is not the published v1's (see protocol.definition)"]
    assert bm.Plan(bm.V1, (named("a"),)).deviations() == []


@pytest.mark.parametrize("agents, needle", [
    (["nosuch"], "unknown agent 'nosuch'; allowed: random, greedy"),
    (["striker:risk=99"], "risk=99: allowed"),
    (["missing.zip"], "checkpoint 'missing.zip' not found"),
    (["greedy", "greedy"], "'greedy' given twice"),
])
def test_a_bad_agent_is_one_line_before_any_fight(tmp_path, capsys, agents, needle) -> None:
    code, out, err = run(["benchmark", *agents, "-o", str(tmp_path / "out")], capsys)
    assert code == 2 and "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("error: ") and needle in err, err
    assert not (tmp_path / "out").exists() and "arena" not in out


def test_both_sides_of_the_scene_apart_and_as_played(tiny, tmp_path, capsys) -> None:
    """The group scene's two roles (hero, guards) get their own figures, equal to the
    fights played again by hand on the protocol's seeds."""
    code, _, err = run(["benchmark", "striker", "-j", "1", "-o", str(tmp_path),
                        "--no-progress"], capsys)
    assert code == 0, err
    rec = json.loads((tmp_path / "benchmark.json").read_text())
    scene = rec["arenas"][1]
    assert [(s["name"], s["fighters"]) for s in scene["sides"]] == [
        ("hero", ["Chu"]), ("guards", ["Boris", "Novice"])]
    game = bm.arena_config(TINY.arenas[1], ["x", "y"], 3, 1).game()
    s, g = make_agent("striker"), make_agent("greedy")
    seeds = range(2000, 2003)
    as_hero = Counter(play_fight(game, [s, g], seed).winner for seed in seeds)
    as_guards = Counter(play_fight(game, [g, s], seed).winner for seed in seeds)
    cell = next(p for p in scene["pairings"] if (p["agent"], p["opponent"]) == ("striker", "greedy"))
    assert (cell["side0"]["wins"], cell["side0"]["losses"]) == (as_hero[0], as_hero[1])
    assert (cell["side1"]["wins"], cell["side1"]["losses"]) == (as_guards[1], as_guards[0])
    md = (tmp_path / "benchmark.md").read_text()
    assert "as hero (Chu) against the column agent as guards (Boris, Novice)" in md
    assert "as guards (Boris, Novice) against the column agent as hero (Chu)" in md


class DuelOnly(Agent):
    """Plays duels only, as a checkpoint trained on a duel's spaces does."""

    name = "duel_only"

    def act(self, state):  # noqa: ANN001, ANN201
        if len(state.game.profiles) > 2:
            raise AgentError("checkpoint 'duel_only': trained on another group size")
        return state.legal_choices()[0]


def test_an_agent_that_cannot_play_an_arena_is_left_out_and_said_so() -> None:
    plan = bm.Plan(TINY, (DuelOnly(),), fights=1)
    lines: list[str] = []
    rec = bm.run_benchmark(plan, say=lines.append)
    duel, scene = rec["arenas"]
    assert "duel_only" in duel["vs_ladder"] and duel["absent"] == {}
    assert scene["absent"] == {"duel_only": "checkpoint 'duel_only': trained on another group size"}
    assert "duel_only" not in scene["vs_ladder"]
    assert any("duel_only cannot play this arena" in x for x in lines)
    row = next(x for x in markdown(rec).splitlines() if x.startswith("| duel_only |"))
    assert row.endswith("| n/a | n/a | n/a |")


def test_the_leaderboard_script_fills_the_doc_between_its_markers(tmp_path, monkeypatch) -> None:
    from tests.scripts_kit import load_script

    lb = load_script("benchmark_leaderboard")
    assert lb.START in lb.DOC.read_text() and lb.END in lb.DOC.read_text()
    doc = tmp_path / "doc.md"
    doc.write_text(f"intro\n{lb.START}\nold table\n{lb.END}\nafter\n")
    rec = hand_record()
    monkeypatch.chdir(tmp_path)
    block = lb.leaderboard(rec, None, None)
    lb.write_doc(block, doc)
    text = doc.read_text()
    assert text.startswith(f"intro\n{lb.START}\n**hexdojo benchmark v1**") and "old table" not in text
    assert text.endswith(f"{lb.END}\nafter\n")
    assert "| alpha | 1542.2 [1466, 1619] | 75.0 [44.2, 91.9] | 50.0 [23.7, 76.3] |" in text
    assert "`hexdojo benchmark alpha`" in text


CHECKPOINT_RUN = """
import dataclasses, sys
import gymnasium as gym
import hexdojo.envs  # noqa: F401 - registers the ids
from sb3_contrib import MaskablePPO
from hexdojo.agents import benchmark as bm
from hexdojo.agents.registry import make_agent

path = sys.argv[1]
MaskablePPO("MultiInputPolicy", gym.make("hexdojo/Duel-v1"), seed=0, device="cpu").save(path)
tiny = dataclasses.replace(bm.V1, ladder=("random", "greedy"))
rec = bm.run_benchmark(bm.Plan(tiny, (make_agent(path),), fights=2, workers=2))
duel, scene = rec["arenas"]
print(duel["vs_ladder"]["ckpt"]["both"]["n"], sorted(scene["absent"]))
"""


@pytest.mark.slow
def test_a_checkpoint_on_two_workers_finishes_and_sits_out_the_scene(tmp_path) -> None:
    """A fresh interpreter (no earlier torch setting): the probe runs the policy in this
    process, then forked workers play it; they hung on torch's inherited thread pool before
    ``interrupts.one_torch_thread``. A duel policy cannot play the three-fighter scene."""
    import subprocess
    import sys

    pytest.importorskip("sb3_contrib")
    got = subprocess.run([sys.executable, "-c", CHECKPOINT_RUN, str(tmp_path / "ckpt.zip")],
                         capture_output=True, text=True, timeout=240)
    assert got.returncode == 0, got.stderr[-2000:]
    assert got.stdout.split() == ["8", "['ckpt']"]
