"""A learned policy played inside the core (issue 30: a past self or checkpoint with no Python
per decision): ``LearnedAgent.native_player(game)`` is a ``_bots.NetPlayer`` running the
network the search's prior runs (``search_core.learned_network``). It must choose what
``LearnedAgent.act`` chooses at every decision (the arg-max, ties to the lowest action id; a
temperature's draw from the same numpy stream; a style's lean), so the single env, the
tournament's fast path and the vector env give the same fights whatever the language the
policy is played in; and it is None wherever ``act`` plays otherwise (a group, torch's
sampler, a network the core cannot run)."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from hexdojo.agents import _bots, scripted_core  # noqa: E402
from hexdojo.agents.policy import LearnedAgent  # noqa: E402
from hexdojo.agents.registry import make_agent  # noqa: E402
from hexdojo.agents.tournament import (  # noqa: E402
    TournamentConfig,
    play_fight,
    play_native,
    run_tournament,
)
from hexdojo.envs.duel import DuelEnv  # noqa: E402
from hexdojo.envs.rules import Game  # noqa: E402
from tests.envs.test_env_one_path import episodes  # noqa: E402

from ..scripts_kit import load_script  # noqa: E402
from . import search_fights as sf  # noqa: E402
from .test_search_prior import _torch_logits  # noqa: E402

AGREEMENT = load_script("native_player_agreement")

GENERAL = Path(__file__).parents[2] / "agents" / "data" / "general_npc.zip"
PAIRINGS = {"chu mirror": ["chu", "chu"], "chu vs boris": ["chu", "boris"],
            "armed": ["chu", "guard"]}


@pytest.fixture(scope="module")
def duel_npc(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small duel NPC (chu vs boris, unit scaling, tanh 32x16; weights from numpy's
    default_rng(3), the search tests' pinned prior)."""
    folder = tmp_path_factory.mktemp("duel")
    sf.duel_prior(folder)
    return folder / "npc_duel.zip"


def compare(agent: LearnedAgent, fighters: list[str], seeds: range) -> tuple[int, int]:
    """(decisions, differing choices): the native player and ``agent.act`` asked at every
    decision of seeded fights (fighter 0 plays the agent's choice, fighter 1 greedy's), both
    reset with the same seed per fight as a tournament resets them: the measuring script's
    own count (``scripts/native_player_agreement.py``), over ``len(seeds)`` fights."""
    assert seeds.start == 0 and seeds.step == 1, "the script counts fights 0..n-1"
    return AGREEMENT.disagreements(agent, fighters, len(seeds))


@pytest.mark.parametrize("pairing", sorted(PAIRINGS))
def test_the_general_npc_chooses_as_act(pairing: str) -> None:
    n, differ = compare(LearnedAgent.load(GENERAL), PAIRINGS[pairing], range(3))
    assert differ == 0 and n > 50


@pytest.mark.parametrize("pairing", ["chu mirror", "chu vs boris"])
def test_a_duel_npc_chooses_as_act(duel_npc: Path, pairing: str) -> None:
    n, differ = compare(LearnedAgent.load(duel_npc), PAIRINGS[pairing], range(6))
    assert differ == 0 and n > 60


@pytest.mark.parametrize("pairing", ["chu vs boris", "armed"])
def test_the_players_scores_are_torchs_logits(duel_npc: Path, pairing: str) -> None:
    """The network inside the player (its own vectorised tanh) gives torch's logits to
    1e-4 at every decision, for the general NPC and (unarmed) a duel NPC."""
    agents = [LearnedAgent.load(GENERAL)] + ([LearnedAgent.load(duel_npc)] if pairing != "armed" else [])
    game, n = Game.create(PAIRINGS[pairing]), 0
    for agent, seed in ((a, seed) for a in agents for seed in (2, 3, 4)):
        player = agent.native_player(game)
        state, greedy = game.new_state(seed), make_agent("greedy")
        while not state.is_over:
            z = np.asarray(player.scores(scripted_core.core_of(state)))
            assert np.allclose(z - z.max(), _torch_logits(agent, state), atol=1e-4), state.decision
            state.apply(greedy.act(state))
            n += 1
    assert n > 40


def test_a_duel_npc_gives_no_player_where_act_would_not_play_a_duel(duel_npc: Path) -> None:
    """An armed pairing is another catalogue (act refuses it in one line), a scene's group
    another observation: no native player, the Python path says what is wrong."""
    agent = LearnedAgent.load(duel_npc)
    assert agent.native_player(Game.create(["chu", "guard"])) is None
    assert agent.native_player(Game.from_scene("two_vs_one")) is None
    assert LearnedAgent.load(GENERAL).native_player(Game.from_scene("two_vs_one")) is None


def test_the_arg_max_breaks_ties_to_the_lowest_action_id(duel_npc: Path) -> None:
    """A network whose logits are all equal: act (SB3's arg-max over the id-ordered mask)
    plays the legal choice of lowest id, which is not always the first legal one."""
    import torch

    agent = LearnedAgent.load(duel_npc)
    with torch.no_grad():
        for p in agent.model.policy.action_net.parameters():
            p.zero_()
    game = Game.create(["chu", "boris"])
    player, cat = agent.native_player(game), DuelEnv(fighters=("chu", "boris")).catalogue
    state, off_first = game.new_state(1), 0
    while not state.is_over:
        legal = state.legal_choices()
        ids = cat.ids(legal)
        k = player.act(scripted_core.core_of(state))
        assert ids[k] == min(ids) and legal[k] == agent.act(state)
        off_first += k != 0
        state.apply(legal[k])
    assert off_first > 3


@pytest.mark.parametrize("pairing", ["chu mirror", "armed"])
def test_a_tempered_and_styled_npc_draws_as_act(pairing: str) -> None:
    """A temperature: the same draws from the agent's own numpy stream (reset per fight);
    a style: the lean added to the logits, as act adds it."""
    hot = LearnedAgent.load(GENERAL, temperature=1.5)
    n, differ = compare(hot, PAIRINGS[pairing], range(4))
    assert differ == 0 and n > 60
    styled = LearnedAgent.load(GENERAL, temperature=0.5)
    styled.style, styled.style_bias = "striker", 1.5
    n, differ = compare(styled, PAIRINGS[pairing], range(4))
    assert differ == 0 and n > 60
    cold = LearnedAgent.load(GENERAL)
    cold.style, cold.style_bias = "grappler", 2.0
    assert compare(cold, PAIRINGS[pairing], range(2))[1] == 0


def test_a_temperature_samples_and_a_seed_replays() -> None:
    """A tempered player is not its arg-max, and the same seed draws the same choices."""
    game = Game.create(["chu", "boris"])
    hot = LearnedAgent.load(GENERAL, temperature=2.0).native_player(game)
    cold = LearnedAgent.load(GENERAL).native_player(game)
    assert hot.temperature == 2.0 and cold.temperature == 0.0

    def picks(seed: int) -> list[int]:
        hot.reset(seed)
        state, out, off = game.new_state(3), [], 0
        while not state.is_over:
            core = scripted_core.core_of(state)
            out.append(hot.act(core))
            off += out[-1] != cold.act(core)
            state.apply(state.legal_choices()[out[-1]])
        return out + [off]

    one = picks(7)
    assert one == picks(7) and one != picks(8) and one[-1] > 0


def test_no_player_where_act_samples_with_torch() -> None:
    """deterministic=False without a temperature samples with torch's generator, which the
    core cannot replay: the Python path keeps it; a temperature gives the native player."""
    game = Game.create(["chu", "boris"])
    assert LearnedAgent.load(GENERAL, deterministic=False).native_player(game) is None
    assert LearnedAgent.load(GENERAL, deterministic=False, temperature=1.0).native_player(game)


def test_native_agents_off_gives_no_player(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEXDOJO_NATIVE_AGENTS", "0")
    assert LearnedAgent.load(GENERAL).native_player(Game.create(["chu", "chu"])) is None


def test_the_network_is_copied_once_per_game_and_the_agent_still_pickles(duel_npc: Path) -> None:
    agent = LearnedAgent.load(duel_npc)
    game = Game.create(["chu", "boris"])
    one, two = agent.native_player(game), agent.native_player(game)
    assert one is not two and len(agent._native_nets) == 1  # players apart, network shared
    agent.style, agent.style_bias = "striker", 1.0
    agent.native_player(game)
    assert len(agent._native_nets) == 2  # a style is another lean
    copy = pickle.loads(pickle.dumps(agent))
    assert "_native_nets" not in copy.__dict__ and copy.native_player(game) is not None


@pytest.mark.parametrize("pairing", sorted(PAIRINGS))
@pytest.mark.parametrize("temperature", [None, 1.0])
def test_duel_env_plays_the_same_episodes_natively_and_from_python(pairing: str,
                                                                   temperature: float | None) -> None:
    """Issue 32's one step path: the same seed gives the same episodes whether the core plays
    the checkpoint (its native player) or asks its act from Python (native=False)."""
    fighters = tuple(PAIRINGS[pairing])
    kwargs = {"n": 3, "fighters": fighters, "armed": "guard" in fighters}
    native, env_n = episodes(LearnedAgent.load(GENERAL, temperature=temperature), None, **kwargs)
    python, env_p = episodes(LearnedAgent.load(GENERAL, temperature=temperature), False, **kwargs)
    assert isinstance(env_n._duel.player, _bots.NetPlayer) and env_p._duel.external
    assert native == python
    assert env_n.opponent_seconds == 0.0 < env_p.opponent_seconds


def test_a_tournament_with_a_checkpoint_runs_inside_the_core(monkeypatch: pytest.MonkeyPatch,
                                                            duel_npc: Path) -> None:
    """A checkpoint against greedy: the fast path (every agent native) gives the Python
    loop's fights and records."""
    game = Game.create(["chu", "boris"])
    agents = [LearnedAgent.load(duel_npc, temperature=1.0), make_agent("greedy")]
    monkeypatch.setenv("HEXDOJO_NATIVE_AGENTS", "1")
    assert play_native(game, agents, 3, False) is not None
    for seed in range(4):
        monkeypatch.setenv("HEXDOJO_NATIVE_AGENTS", "1")
        fast = play_fight(game, agents, seed, record_choices=True)
        monkeypatch.setenv("HEXDOJO_NATIVE_AGENTS", "0")
        assert fast == play_fight(game, agents, seed, record_choices=True), seed
    cfg = TournamentConfig((str(duel_npc), "greedy"), fights=4, fighters=("chu", "boris"))
    ref = run_tournament(cfg)
    monkeypatch.setenv("HEXDOJO_NATIVE_AGENTS", "1")
    fast = run_tournament(cfg)
    assert fast.fights == ref.fights and fast.usage == ref.usage and fast.chains == ref.chains


class PythonOnly:
    """The agent with its act and reset but no native player or batch_act: the vector env
    asks its act on a State of each waiting slot's decision."""

    def __init__(self, inner: LearnedAgent) -> None:
        self.inner, self.name = inner, "python"

    def act(self, state: Any) -> Any:
        return self.inner.act(state)

    def reset(self, seed: int | None = None) -> None:
        self.inner.reset(seed)


@pytest.mark.parametrize("temperature", [None, 1.0])
def test_the_vector_env_plays_a_checkpoint_inside_the_core(duel_npc: Path,
                                                           temperature: float | None) -> None:
    """The native vector env's pool is the checkpoint's native player (no external policy),
    and its episodes are those of the same policy asked through act from Python."""
    from hexdojo.envs.vector_env import NativeDuelVectorEnv, opponent_pool

    def run(opponent: Any) -> list[Any]:
        env = NativeDuelVectorEnv(6, opponent=opponent, fighters=("chu", "boris"),
                                  flat_observation=True)
        obs, _ = env.reset(seed=3)
        rng, out = np.random.default_rng(0), [obs.tobytes()]
        for _ in range(150):
            pick = [int(rng.choice(np.flatnonzero(m))) for m in env.action_masks()]
            obs, r, term, _, _ = env.step(np.array(pick))
            out.append((obs.tobytes(), r.tobytes(), term.tobytes()))
        return out

    agent = LearnedAgent.load(duel_npc, temperature=temperature)
    players, external, policies = opponent_pool(agent, Game.create(["chu", "boris"]))
    assert [type(p) for p in players] == [_bots.NetPlayer] and external == 0.0 and not policies
    native = run(agent)
    assert native == run(PythonOnly(LearnedAgent.load(duel_npc, temperature=temperature)))
    assert sum(t.count(b"\x01") for _, _, t in native[1:]) > 5  # whole episodes were played
