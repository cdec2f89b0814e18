"""Plug-in agents (issue 14, "your own agents, everywhere"): ``FILE.py:Class[:k=v,...]``
is an agent spec in the registry, the CLI (demo, play, tournament with two workers, the
lab), training's opponent pool, the environments' opponent slot and the ladder script;
parameters are typed from ``__init__``; every bad part is one clear line."""

from __future__ import annotations

import json
import pickle
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hexdojo.agents import AgentError, make_agent, play_fight
from hexdojo.agents.cli import app
from hexdojo.agents.plugins import PluginAgent
from hexdojo.envs.rules import Game

ROOT = Path(__file__).resolve().parents[2]
KICKER = str(ROOT / "docs" / "examples" / "my_agent.py") + ":Kicker"

# A duck-typed agent (no Agent base class) that is NOT picklable (it holds a lambda), so
# only the spec-based pickling of PluginAgent lets it reach worker processes.
PLUGIN = textwrap.dedent('''
    from hexdojo.envs.rules import Choice

    CALLS = []

    class Last:
        """Always the last legal choice (a duck-typed agent)."""

        def __init__(self, depth: int = 1, bold: bool = False, scale: float = 0.5,
                     tag: str = "x") -> None:
            self.depth, self.bold, self.scale, self.tag = depth, bold, scale, tag
            self.pick = lambda legal: legal[-1]  # not picklable on purpose

        def act(self, state):
            CALLS.append(1)
            return self.pick(state.legal_choices())

    class NoAct:
        pass

    def helper():
        return 1
''')


@pytest.fixture
def plugin(tmp_path: Path) -> str:
    f = tmp_path / "my_bot.py"
    f.write_text(PLUGIN)
    return str(f)


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(app, list(args), input=input)


def test_spec_builds_the_class_with_typed_parameters(plugin: str) -> None:
    a = make_agent(f"{plugin}:Last:depth=3,bold=true,scale=2,tag=hi")
    assert isinstance(a, PluginAgent)
    assert (a.inner.depth, a.inner.bold, a.inner.scale, a.inner.tag) == (3, True, 2.0, "hi")
    assert type(a.inner.depth) is int and type(a.inner.scale) is float
    assert a.name == "Last:depth=3,bold=true,scale=2,tag=hi"
    state = Game.create(["chu", "chu"]).new_state(1)
    assert a.act(state) == state.legal_choices()[-1]


@pytest.mark.parametrize("tail, words", [
    (":Nope", ["my_bot.py", "no class 'Nope'", "agent classes there: Last"]),
    (":NoAct", ["NoAct", "has no act(state)"]),
    (":Last:speed=2", ["no parameter 'speed'", "allowed: depth, bold, scale, tag"]),
    (":Last:depth=two", ["depth='two'", "not a whole number"]),
    (":Last:depth=1.5", ["depth='1.5'", "not a whole number"]),
    (":Last:bold=maybe", ["bold='maybe'", "true or false"]),
    (":Last:depth", ["'depth' must be key=value"]),
    ("", ["name the class after the file"]),
])
def test_bad_plugin_specs_are_one_line(plugin: str, tail: str, words: list[str]) -> None:
    with pytest.raises(AgentError) as e:
        make_agent(plugin + tail)
    msg = str(e.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg, msg


def test_missing_or_broken_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(AgentError, match="not found"):
        make_agent(str(tmp_path / "nothere.py") + ":X")
    bad = tmp_path / "broken.py"
    bad.write_text("def oops(:\n")
    with pytest.raises(AgentError, match=r"broken\.py.*importing it failed: SyntaxError"):
        make_agent(f"{bad}:X")
    res = run("demo", "--agents", f"{tmp_path / 'nothere.py'}:X,greedy")
    assert res.exit_code == 2 and res.output.startswith("error: plug-in agent file")
    assert "Traceback" not in res.output


def test_plugin_pickles_as_its_spec_and_plays_the_same(plugin: str) -> None:
    a = make_agent(f"{plugin}:Last:depth=2")
    b = pickle.loads(pickle.dumps(a))  # the inner object (a lambda inside) is rebuilt
    assert b.name == a.name and b.inner is not a.inner and b.inner.depth == 2
    game = Game.create(["chu", "urlik"])
    s1 = play_fight(game, (a, make_agent("greedy")), 7)
    s2 = play_fight(game, (b, make_agent("greedy")), 7)
    assert (s1.winner, s1.turns, s1.decisions) == (s2.winner, s2.turns, s2.decisions)


def test_tournament_with_two_workers_equals_one(plugin: str, tmp_path: Path) -> None:
    outs = []
    for j in ("1", "2"):
        out = tmp_path / f"t{j}"
        res = run("tournament", f"{plugin}:Last", KICKER, "greedy", "-n", "6", "-j", j,
                  "-o", str(out), "--no-progress", "--no-tactics")
        assert res.exit_code == 0, res.output
        assert "kicker" in res.output and "Last" in res.output
        data = json.loads((out / "results.json").read_text())
        assert data["fights"] == 3 * 2 * 6
        outs.append((data["matrix"], data["ordered_pairs"]))
    assert outs[0] == outs[1]  # same seeds, same results, whatever the worker count


def test_demo_and_play_take_a_plugin(tmp_path: Path) -> None:
    f = tmp_path / "fight.json"
    res = run("demo", "--agents", f"{KICKER},greedy", "--seed", "2", "--save", str(f))
    assert res.exit_code == 0, res.output
    assert "Martial Kick" in res.output  # it kicks
    assert json.loads(f.read_text())["agents"] == ["kicker", "greedy"]
    res = run("play", "--opponent", f"{KICKER}:flying=true", input="q\n")
    assert res.exit_code == 0, res.output
    assert "against kicker-flying" in res.output


@pytest.mark.slow
def test_lab_compare_takes_a_plugin(tmp_path: Path) -> None:
    res = run("compare", KICKER, "greedy", "-n", "4", "-j", "1", "-o", str(tmp_path / "c"),
              "--no-progress")
    assert res.exit_code == 0, res.output
    data = json.loads((tmp_path / "c" / "results.json").read_text())
    assert "kicker" in json.dumps(data["config"])


def test_env_opponent_by_plugin_spec(plugin: str) -> None:
    import gymnasium as gym

    import hexdojo.envs  # noqa: F401  (registers the ids)

    env = gym.make("hexdojo/Duel-v1", opponent=f"{plugin}:Last")
    opp = env.unwrapped.opponent
    assert isinstance(opp, PluginAgent)
    mod = __import__(type(opp.inner).__module__)
    mod.CALLS.clear()
    obs, info = env.reset(seed=0)
    for _ in range(200):
        legal = [i for i, ok in enumerate(env.unwrapped.action_masks()) if ok]
        obs, r, term, trunc, info = env.step(legal[0])
        if term or trunc:
            break
    assert mod.CALLS, "the plug-in never decided for the opponent"


def test_pool_opponent_and_a_tiny_training_against_a_plugin(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    from hexdojo.agents.training.config import load_config
    from hexdojo.agents.training.pool import PoolOpponent
    from hexdojo.agents.training.ppo import train
    from hexdojo.agents.training.rundir import read_eval

    pool = PoolOpponent([KICKER], None, 0.0)
    pool.reset(3)
    assert pool.current.name == "kicker"
    cfg = load_config(overrides={
        "total_steps": 128, "n_envs": 1, "turn_limit": 4, "checkpoint_every": 128,
        "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1, "net_arch": [16]},
        "imitation": {"fights": 0},
        "pool": {"scripted": [KICKER], "self_play": False},
        "eval": {"every": 128, "episodes": 2, "opponents": [KICKER]},
    })
    final = train(cfg, tmp_path / "run", progress=False)
    assert final.is_file()
    row = read_eval(tmp_path / "run" / "eval.csv")[-1]  # both sides, and each side's own
    assert list(row) == ["steps", KICKER, f"{KICKER}@A", f"{KICKER}@B"]


def test_a_bad_plugin_in_the_pool_fails_before_anything_is_written(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    from hexdojo.agents.training.config import load_config
    from hexdojo.agents.training.ppo import train

    cfg = load_config(overrides={"pool": {"scripted": [str(tmp_path / "x.py") + ":Bot"]}})
    with pytest.raises(AgentError, match="not found"):
        train(cfg, tmp_path / "run", progress=False)
    assert not (tmp_path / "run").exists()


def test_ladder_script_takes_a_plugin(capsys) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("ladder", ROOT / "scripts" / "ladder_vs_random.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main(["--agents", KICKER, "--fights", "4", "--workers", "2"]) == 0
    row = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("| kicker")]
    assert row and "/" in row[0] and "%" in row[0]


def test_demo_keeps_each_specs_own_parameters_together(tmp_path: Path) -> None:
    f = tmp_path / "fight.json"
    res = run("demo", "--agents", f"striker:aggression=0.8,risk=2,{KICKER}:flying=true,"
              "fallback=counter", "--save", str(f))
    assert res.exit_code == 0, res.output
    assert json.loads(f.read_text())["agents"] == ["striker:aggression=0.8,risk=2",
                                                   "kicker-flying"]


def test_skirmish_opponents_by_plugin_spec(plugin: str) -> None:
    from hexdojo.envs.skirmish import SkirmishEnv

    env = SkirmishEnv(scene="two_vs_one", fighter=0, opponents=f"{plugin}:Last:depth=2")
    assert all(isinstance(o, PluginAgent) and o.inner.depth == 2 for o in env.opponents)
    mod = __import__(type(env.opponents[0].inner).__module__)
    mod.CALLS.clear()
    env.reset(seed=1)
    for _ in range(300):
        legal = [i for i, ok in enumerate(env.action_masks()) if ok]
        *_, term, trunc, _ = env.step(legal[0])
        if term or trunc:
            break
    assert mod.CALLS, "the plug-in never decided for the other places"
