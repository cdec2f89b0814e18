"""Issue 33, part 2: group scenes through every forge command. A scene NPC trained for one
place (``two_vs_one``'s Boris with the striker style; Boris in a GM's copy of
``two_vs_two`` with a house rule) is trained with its clone, calibrated, carded, played,
advised and put in tournaments; a side's places take different agents (``A+B``, ``demo
--agents`` one per place); a duel NPC in a group fight is refused in one line; a scene
that names its own rules keeps the tournament's tactics step."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("sb3_contrib")

from hexdojo.agents.base import Agent, AgentError  # noqa: E402
from hexdojo.agents.cli import app  # noqa: E402
from hexdojo.agents.imitation import demonstrate_scene, scene_sides, twin  # noqa: E402
from hexdojo.agents.policy import LearnedAgent  # noqa: E402
from hexdojo.agents.registry import make_agent  # noqa: E402
from hexdojo.agents.team import PlacesAgent  # noqa: E402
from hexdojo.agents.tournament import play_fight  # noqa: E402
from hexdojo.agents.training.evaluate import evaluate_places  # noqa: E402
from hexdojo.envs.rules import Game  # noqa: E402
from hexdojo.envs.skirmish_spaces import spaces_for  # noqa: E402

SCENES = Path(__file__).resolve().parents[2] / "envs" / "rules" / "scenes"
#: a tiny run: a few hundred steps, a clone of a few fights, no evaluation
TINY = """\
total_steps = 256
n_envs = 1
checkpoint_every = 256
{extra}
[ppo]
n_steps = 128
batch_size = 64
n_epochs = 1
net_arch = [16]
[imitation]
fights = 4
opponents = ["greedy"]
[pool]
scripted = ["greedy"]
self_play = false
[eval]
every = 100000
episodes = 2
opponents = ["greedy"]
"""
HOUSE = "[knockback]\nknocked_over_min_fail = 9\n"


def cli(*args: str, input: str | None = None):
    return CliRunner().invoke(app, [str(a) for a in args], input=input)


def _train(base: Path, scene: str, extra: str) -> Path:
    (base / "train.toml").write_text(TINY.format(extra=extra))
    r = cli("train", "--scene", scene, "-c", base / "train.toml", "-o", base / "run",
            "--no-progress")
    assert r.exit_code == 0, r.output
    return base / "run"


@pytest.fixture(scope="module")
def one(tmp_path_factory) -> Path:
    """two_vs_one, place 1 (Boris, a guard), the striker style."""
    return _train(tmp_path_factory.mktemp("one"), "two_vs_one", 'place = 1\nstyle = "striker"')


@pytest.fixture(scope="module")
def two(tmp_path_factory) -> Path:
    """A GM's own copy of two_vs_two that names a house rule, place 2 (Boris)."""
    base = tmp_path_factory.mktemp("two")
    (base / "house.toml").write_text(HOUSE)
    text = (SCENES / "two_vs_two.toml").read_text()
    (base / "gm_two.toml").write_text('rules = "house.toml"\n' + text)
    return _train(base, str(base / "gm_two.toml"), "place = 2")


@pytest.fixture(scope="module")
def duel(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("duel")
    (base / "train.toml").write_text(TINY.format(extra='vec_env = "dummy"').replace(
        "fights = 4", "fights = 0"))
    r = cli("train", "-c", base / "train.toml", "-o", base / "run", "--no-progress")
    assert r.exit_code == 0, r.output
    return base / "run"


def _places(run: Path) -> tuple[Game, int]:
    meta = json.loads((run / "npc.json").read_text())
    return Game.from_scene(meta["scene"], rules=meta["rules"]), meta["place"]


# --------------------------------------------------------------------------- train
@pytest.mark.parametrize("which,teacher", [("one", "striker"), ("two", "greedy")])
def test_train_clones_the_teacher_in_the_scene_place(which, teacher, request):
    run = request.getfixturevalue(which)
    im = json.loads((run / "run.json").read_text())["imitation"]  # absent before issue 33
    assert im["teacher"] == teacher and im["decisions"] > 0
    meta = json.loads((run / "npc.json").read_text())
    assert meta["place"] in (1, 2) and meta["env"] == "hexdojo/Skirmish-v0"
    assert (which == "two") == Path(meta["scene"]).is_absolute()  # a GM's file, recorded absolute


def test_scene_demonstrations_are_the_place_own_legal_choices():
    game = Game.from_scene("two_vs_one")
    demos = demonstrate_scene(game, make_agent("striker"), [make_agent("greedy")], 2, seed=5,
                              place=1)
    cat, enc = spaces_for(game)
    assert demos.obs.shape[1] == enc.observation_space(flat=True).shape[0]
    assert demos.masks.shape[1] == cat.n
    assert all(m[a] for m, a in zip(demos.masks, demos.actions, strict=True))
    again = demonstrate_scene(game, make_agent("striker"), [make_agent("greedy")], 2, seed=5,
                              place=1)
    assert (again.actions == demos.actions).all()  # seeded: the same demonstrations


class OnlyAt(Agent):
    """Plays ``inner`` and fails if asked to decide for any fighter but ``place``."""

    def __init__(self, inner: Agent, place: int) -> None:
        self.inner, self.place, self.name, self.asked = inner, place, "only", 0

    def reset(self, seed=None):
        self.inner.reset(seed)

    def act(self, state):
        assert state.decision.fighter == self.place
        self.asked += 1
        return self.inner.act(state)


def test_a_scene_run_is_evaluated_in_its_place_only():
    game = Game.from_scene("two_vs_one")
    learner = OnlyAt(make_agent("greedy"), 1)
    rates = evaluate_places(learner, game, ["greedy"], 3, seed=0, places=(1,))
    assert learner.asked > 0 and 0.0 <= rates["greedy"] <= 1.0


# --------------------------------------------------------------------------- calibrate
@pytest.mark.slow
@pytest.mark.parametrize("which,side", [("one", 1), ("two", 1)])
def test_calibrate_measures_the_place_and_names_it(which, side, request):
    run = request.getfixturevalue(which)
    r = cli("calibrate", run, "-n", "4", "--temperatures", "0,1,5,10", "--no-cards", "-j", "1",
            "--no-progress")
    assert r.exit_code == 0, r.output  # was: "calibrate measures duel NPCs only (for now)"
    doc = json.loads((run / "levels.json").read_text())
    meta = json.loads((run / "npc.json").read_text())
    assert doc["scene"] == meta["scene"] and doc["places"] == [meta["place"]]
    assert doc["sides"] == [side] and len(doc["levels"]) == 4
    assert f"place {meta['place']} (Boris" in r.output
    game, place = _places(run)
    hard = make_agent(f"{run}:hard")
    assert hard.temperature is not None
    play_fight(game, scene_sides(game, place, hard, make_agent("greedy"), make_agent("greedy")), 0)


# --------------------------------------------------------------------------- card
class Counting(Agent):
    def __init__(self, inner: Agent) -> None:
        self.inner, self.name, self.n = inner, inner.name, 0

    def reset(self, seed=None):
        self.inner.reset(seed)

    def act(self, state):
        self.n += 1
        return self.inner.act(state)


@pytest.mark.parametrize("which", ["one", "two"])
def test_card_counts_the_place_own_decisions(which, request):
    run = request.getfixturevalue(which)
    shutil.rmtree(run / "cards", ignore_errors=True)
    (run / "levels.json").unlink(missing_ok=True)
    r = cli("card", run, "-n", "4", "--ladder", "greedy", "-j", "1", "--no-progress")
    assert r.exit_code == 0, r.output
    card = json.loads((run / "cards" / "npc.json").read_text())
    game, place = _places(run)
    assert card["places"] == [place] and "Boris" in card["where"]
    npc = Counting(LearnedAgent.load(run / "npc.zip", temperature=0.0))
    greedy = make_agent("greedy")
    for seed in range(4):  # the card's fights: seeds 0..3, the stand-in in every other place
        play_fight(game, scene_sides(game, place, npc, greedy, twin(greedy)), seed)
    assert card["how"]["decisions"] == npc.n  # its own place's decisions, not its side's


# --------------------------------------------------------------------------- play / demo
@pytest.mark.parametrize("which,npc_line,ally_line", [
    ("one", "B Boris (npc)", "C Novice (greedy)"), ("two", "C Boris (npc)", "D Urlik (greedy)")])
def test_play_shows_the_npc_acting_for_its_place_beside_a_bot(which, npc_line, ally_line, request):
    run = request.getfixturevalue(which)
    meta = json.loads((run / "npc.json").read_text())
    lines: list[str] = []
    for seed in range(1, 6):  # the user always takes option 1: some fights end at once
        r = cli("play", "--opponent", f"{run / 'npc.zip'}+greedy", "--scene", meta["scene"],
                "--side", "0", "--turn-limit", "3", "--seed", seed, input="1\n" * 3000)
        assert r.exit_code == 0, r.output
        lines += r.output.splitlines()
        if any(ln.startswith(ally_line) for ln in lines):
            break
    assert any(ln.startswith(npc_line) for ln in lines)
    assert any(ln.startswith(ally_line) for ln in lines)
    him, ally = npc_line.split(" (")[0], ally_line.split(" (")[0]
    assert not any(ln.startswith(f"{him} (greedy)") or ln.startswith(f"{ally} (npc)")
                   for ln in lines)


def test_play_gives_the_user_the_side_opposite_the_npc_place(one, tmp_path):
    r = cli("play", "--opponent", one / "npc.zip", "--turn-limit", "2", input="q\n")
    assert r.exit_code == 0, r.output
    assert "playing the NPC's own scene" in r.output
    assert "you plays hero (Chu); npc plays guards (Boris, Novice)" in r.output
    shutil.copy(one / "npc.zip", tmp_path / "npc.zip")  # the same NPC, as if it were the hero's
    meta = json.loads((one / "npc.json").read_text())
    (tmp_path / "npc.json").write_text(json.dumps(dict(meta, place=0)))
    r = cli("play", "--opponent", tmp_path / "npc.zip", "--turn-limit", "2", input="q\n")
    assert "npc plays hero (Chu); you plays guards (Boris, Novice)" in r.output


def test_demo_takes_one_agent_per_place(one):
    r = cli("demo", "--scene", "two_vs_one", "--agents", f"greedy,{one / 'npc.zip'},striker",
            "--seed", "3")
    assert r.exit_code == 0, r.output
    assert "greedy plays hero (Chu); npc+striker plays guards (Boris, Novice)" in r.output
    lines = r.output.splitlines()
    for who, agent in (("A Chu", "greedy"), ("B Boris", "npc"), ("C Novice", "striker")):
        mine = [ln for ln in lines if ln.startswith(who + " (")]
        assert mine and all(ln.startswith(f"{who} ({agent})") for ln in mine)


def test_a_team_of_the_wrong_size_and_a_duel_npc_in_a_group_are_one_line(duel):
    r = cli("demo", "--scene", "two_vs_one", "--agents", "greedy,striker+counter+random")
    assert r.exit_code != 0
    assert r.output.strip().splitlines()[-1].startswith("error: agent 'striker+counter+random': "
                                                        "3 agents for side 'guards'")
    r = cli("demo", "--scene", "two_vs_one", "--agents", f"greedy,{duel / 'npc.zip'}")
    assert r.exit_code != 0 and "IndexError" not in r.output
    assert "cannot play a fight of 3 fighters" in r.output.strip().splitlines()[-1]
    agent = LearnedAgent.load(duel / "npc.zip")  # no sidecar read here: the policy refuses
    with pytest.raises(AgentError, match="neither this fight's group layout"):
        agent.act(Game.from_scene("two_vs_one").new_state(0))


def test_a_team_replays_exactly():
    game = Game.from_scene("two_vs_two")
    rec = [play_fight(game, (make_agent("greedy+random"), PlacesAgent(
        [make_agent("striker"), make_agent("random")])), 4, record_choices=True).choices
           for _ in range(2)]
    assert rec[0] == rec[1]


# --------------------------------------------------------------------------- advise
def _first_decision_of(saved: Path, place: int) -> int:
    """The step of a saved fight at which ``place`` first has a real choice."""
    from hexdojo.agents.play import load_fight

    log = load_fight(saved)
    state = log.game().new_state(log.seed)
    for k, c in enumerate(log.choices):
        if state.decision.fighter == place and len(state.legal_choices()) > 1:
            return k
        state.apply(c)
    raise AssertionError(f"place {place} never decided")


@pytest.mark.parametrize("which", ["one", "two"])
def test_advise_gives_the_scene_npc_view_of_its_place(which, request, tmp_path):
    run = request.getfixturevalue(which)
    meta = json.loads((run / "npc.json").read_text())
    game, place = _places(run)
    f = tmp_path / "f.json"
    agents = "greedy,greedy+striker" if which == "one" else "greedy+greedy,striker+random"
    r = cli("demo", "--scene", meta["scene"], "--agents", agents, "--seed", "2", "--save", f)
    assert r.exit_code == 0, r.output
    step = _first_decision_of(f, place)
    r = cli("advise", f, "--step", step, "--agent", run / "npc.zip", "--top", "2")
    assert r.exit_code == 0, r.output
    assert "Boris decides" in r.output and "npc ranks" in r.output and "by probability" in r.output


# --------------------------------------------------------------------------- tournament
@pytest.mark.slow
def test_tournament_fields_a_team_on_the_gm_scene_with_its_rules_and_tactics(two, tmp_path):
    r = cli("tournament", f"{two / 'npc.zip'}+greedy", "striker+counter", "-n", "2", "-j", "1",
            "-o", tmp_path / "t", "--no-progress")
    assert r.exit_code == 0, r.output  # the tactics step: was exit 2 on a scene's own rules
    assert "playing the NPC's own scene" in r.output
    res = json.loads((tmp_path / "t" / "results.json").read_text())
    assert set(res["config"]["agents"]) == {"npc+greedy", "striker+counter"}
    assert (tmp_path / "t" / "tactics" / "report.html").is_file()


def test_tournament_plays_the_scene_npc_in_every_place_of_a_side(one, tmp_path):
    r = cli("tournament", one / "npc.zip", "greedy", "-n", "2", "-j", "1", "-o", tmp_path / "t",
            "--no-tactics", "--no-progress")
    assert r.exit_code == 0, r.output
    res = json.loads((tmp_path / "t" / "results.json").read_text())
    assert res["config"]["scene"] == "two_vs_one" and res["fights"] == 4
    r = cli("tournament", f"{one / 'npc.zip'}+greedy", "striker+counter", "-n", "2",
            "-o", tmp_path / "u", "--no-tactics", "--no-progress")
    assert r.exit_code != 0 and "a round robin plays every agent on both sides" in r.output


def test_a_search_level_of_a_scene_npc_is_one_line(one):
    r = cli("calibrate", one, "-n", "4", "--search", "4", "--no-cards", "-j", "1", "--no-progress")
    assert r.exit_code != 0 and "Traceback" not in r.output
    assert r.output.strip().splitlines()[-1].endswith(
        "a search's prior must be a duel NPC (a scene's policy sees the group observation): "
        "leave out --search")
