"""Seeded searched fights, hashed: the search agents' pinned reference (issue 32, "one
search").

Why a hash: the search agents had a Python copy of the native search, kept bit-identical
by differential tests; that copy is deleted. Before the deletion every digest below was
computed from both paths and they were equal (the configurations the Python copy alone
could play, an opponent model in GuidedMCTS or a random opponent model, were recorded from
it, and the native search was then made to give the same digests). A refactor or speed-up
of the search must leave them unchanged; a change of behaviour re-pins them in the same
commit and says why.

The configurations are those of the differential tests the Python copy had (the tree logic
over trivial policies, the scripted policy, variants of every parameter, opponent models,
the tournament's fast path, GuidedMCTS over a duel NPC and the general NPC).

A digest covers every choice of each fight (the searcher plays both sides, after ``prefix``
seeded random decisions) and the agent's generator state after each fight (its
per-decision seeds drawn at the same points).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

from hexdojo.agents.mcts import MCTSAgent
from hexdojo.agents.registry import make_agent
from hexdojo.agents.scripted import RandomAgent
from hexdojo.agents.search_core import Rotate
from hexdojo.agents.tournament import play_fight
from hexdojo.envs.rules.pairings import make_game

PAIRINGS = ["chu-boris", "urlik-cogan", "novice-chu", "guard-spearman", "knife_fighter-guard",
            "rider_vs_foot", "two_vs_one"]

#: the pinned digests (recorded from the Python copy and the native search, equal), except
#: "guided general" (native only: the Python tree could not rank for the general NPC) and
#: "guided duel styled" (native only: the Python tree ignored a style lean, and gave the
#: "guided duel" digest with one). Written as scripts/relock.py --write writes them.
PINNED = {"trivial mcts first": "a42652100453d310db0ee80a84cc1c2009ce3252a8e1170cb42c48f1975660f6",
          "trivial mcts rotate": "85daaf590db5e44e6fb9a2b028059991b2a33ba09df401d8e790b063a26bbb35",
          "trivial search first": "c57b84d47f90e3212fbfc1ea91086c5e060315e7f7371c39219123635819748b",
          "trivial search rotate": "ea8c921d578c1c2f31ad4a493c0f2a37e8e5081c8929ed06b061ce5cd0fbaf49",
          "variant model first": "9b90cdd594056c7874aa3bf87b5cd04d2787fb0e890f82287cc5e3ae2c5d5d63",
          "variant model random": "e3c700875ce0362fda7f99e039ef3826fe3cec7227b90ab20eeadca8efbbcd9f",
          "variant caution": "af595ec1b6f4ef35f8f4e9ac6a68aad3b98b715c5b51c054ed07fca0dc33c022",
          "variant narrow": "4412150dbe3db9ecfe6d67434bda9ea89bb0f25417687ef9f323571c249721e1",
          "variant wide": "995993eabc7a8ad74c51de619a57bfd14100648d4f7554146938dda45f17f419",
          "scripted mcts": "1dec64ef0f7ecb2dcfc297547c00b8da59e26fb1d3a270aec394a77cfd43b058",
          "scripted search": "ae3e613ea33580e1add1af98c65ef62d2d37e6e8d4e84ec7fa8b955f8401b6f9",
          "scripted model striker": "5088c18ba25746737c4919c6b5dabd63f70d66a585ccacd33019ec91c6b34a4f",
          "scripted model random": "c44af4dfbf68d87544eee39df4f24d4a8609e02e723adbec2f265e604ee7cc3b",
          "scripted grappler caution": "39797d3e24a569bbcead980b224190280d2cd59fa9ea7d888ac23155986a3963",
          "scripted counter narrow": "1224bb7815205a8305e375373b521f3d67def22095b2c60b1f212acefa09151d",
          "scripted wide": "0d50a3ba236e4d04732f24876b1d82cfb1458d1b56c112128e235da86e775d0b",
          "tournament mcts": "18922a91e3ae8fb012e699bfc574cf8839729596a2e03096aa94b1ee87961a29",
          "tournament mcts model striker": "0d43e737f2505e78d3c6dd8715bb40759ba85a693f7265f158d32bf7c200717c",
          "tournament mcts model random": "86e1448db901751fe6f446cd94db8e34df74c1abebdd151da367e4d28a8c7451",
          "tournament search": "df9f364be526808a24879d426ac3753c2465ab32fb922a8459b517df617abdc2",
          "guided general": "bd9f0b27343a353164e57a07330eec8faa0853b7c9a163d674592685b32a2f8e",
          "guided duel": "100cd4d1c7f68fe818aefe52550ba6c01705659ca6a775c7c2656518919d00df",
          "guided duel styled": "ba138c4734bde9c5335df5c83e1a8ea5b09f0906f797aa16c3e96ac6d1406ba3",
          "guided duel model greedy": "e4ecdeb499a1fbd9b887ba9339317d6506feb4fb03f7d14007cfd2860135571d",
          "guided duel model random": "66f51b9a3f5642a29ad3bce5663a50109d946153f3f737b19dfdd51354fc0abe",
          "whole mcts": "04abb468a6647f20767cebdf528ec3748487abb8b284cd3a532fe09715f4e779",
          "whole search": "0d857ad8978691074870897b6b226fd2417c67c023dff676d7473190243675d3"}


def searched_fights(make: Callable[[int], Any], pairings: list[str], seed0: int,
                    max_decisions: int, prefix: int = 0) -> tuple[str, Counter]:
    """(digest, tally) of one seeded fight per pairing, the agent ``make(k)`` choosing every
    decision; the tally counts what was met (searched decisions by kind, choices the search
    changed from its policy's first), so that a pinned digest is not vacuous."""
    h, tally = hashlib.sha256(), Counter()
    for k, pairing in enumerate(pairings):
        agent = make(k)
        s = make_game(pairing).new_state(seed0 + k)
        rng = np.random.default_rng(seed0 + k)
        for _ in range(prefix):
            if s.is_over:
                break
            ch = s.legal_choices()
            s.apply(ch[int(rng.integers(len(ch)))])
        for _ in range(max_decisions):
            if s.is_over:
                break
            kind, before = s.decision.kind, agent.rng.bit_generator.state
            a = agent.act(s)
            h.update(repr(a).encode())
            if agent.rng.bit_generator.state != before:
                tally["searched"] += 1
                tally[f"searched:{kind}"] += 1
                tally["changed"] += a != agent.policy.ranked(s)[0]
            tally["decisions"] += 1
            s.apply(a)
        h.update(repr(agent.rng.bit_generator.state).encode())
    return h.hexdigest(), tally


def _agent(cls: type, seed: int, pol: Any = None, model: Any = None, **params: Any) -> Any:
    a = cls(seed=seed, **params)
    if pol is not None:
        a.policy = pol()
    if model is not None:
        a.opponent_model = model() if isinstance(model, type) else make_agent(model)
    return a


def trivial(cls: type, policy: type) -> tuple[str, Counter]:
    """The tree logic alone: FirstChoice or Rotate as the policy, 16 simulations."""
    return searched_fights(lambda k: _agent(cls, k, policy, sims=16), PAIRINGS, 100, 60)


def variant(params: dict[str, Any]) -> tuple[str, Counter]:
    """MCTS over Rotate with an opponent model, caution, other widths and horizons."""
    params = dict(params)
    model = params.pop("opponent_model", None)
    return searched_fights(lambda k: _agent(MCTSAgent, 7 + k, Rotate, model, sims=16, **params),
                           ["chu-urlik", "guard-spearman", "two_vs_one"], 300, 40)


def scripted(cls: type, pairings: list[str]) -> tuple[str, Counter]:
    """The default scripted policy (greedy), mid-fight (8 random decisions first)."""
    return searched_fights(lambda k: _agent(cls, 20 + k, sims=16), pairings, 500, 12, prefix=8)


def scripted_variant(params: dict[str, Any]) -> tuple[str, Counter]:
    """MCTS over scripted styles, with a scripted or random opponent model, caution, widths."""
    params = dict(params)
    model = params.pop("model", None)
    return searched_fights(lambda k: _agent(MCTSAgent, 3 + k, None, model, sims=12, **params),
                           ["chu-urlik", "spearman-guard"], 700, 6, prefix=10)


def whole_fights(cls: type) -> tuple[str, Counter]:
    """Whole fights over every kind of pairing, the scripted policy."""
    return searched_fights(lambda k: _agent(cls, 40 + k, sims=16), PAIRINGS, 900, 400)


def tournament(cls: type, model: str | None) -> str:
    """play_fight between two search agents (the tournament's fast path where it runs)."""
    h = hashlib.sha256()
    for k, pairing in enumerate(["chu-boris", "guard-spearman", "two_vs_one"]):
        agents = [cls(sims=4, horizon=1, seed=k), cls(sims=4, horizon=1, seed=k + 1)]
        if model is not None:
            agents[0].opponent_model = make_agent(model)
        r = play_fight(make_game(pairing), agents, 60 + k, record_choices=True)
        h.update(repr((r.winner, r.reason, r.turns, r.usage, r.chains, r.choices)).encode())
    return h.hexdigest()


def guided(prior: Any, model: Any = None) -> tuple[str, Counter]:
    """GuidedMCTS over a learned prior (12 simulations, width 3) in duels."""
    from hexdojo.agents.guided import GuidedMCTS

    def make(k: int) -> Any:
        m = None if model is None else (RandomAgent() if model == "random" else make_agent(model))
        return GuidedMCTS(prior, sims=12, width=3, seed=9 + k, opponent_model=m)

    return searched_fights(make, ["chu-boris", "chu-urlik"], 1, 30)


def duel_prior(folder: Any) -> Any:
    """A duel NPC (chu vs boris, unit scaling, two tanh layers of 32 and 16) whose weights
    are drawn from numpy's default_rng(3), not torch's initialisation (so the pinned
    digests do not depend on torch's generator)."""
    import torch
    from sb3_contrib import MaskablePPO

    from hexdojo.agents.policy import LearnedAgent
    from hexdojo.envs.duel import DuelEnv

    env = DuelEnv(fighters=["chu", "boris"], flat_observation=True, observation_scale="unit")
    model = MaskablePPO("MlpPolicy", env, seed=3, policy_kwargs={"net_arch": [32, 16]})
    rng = np.random.default_rng(3)
    with torch.no_grad():
        for p in model.policy.parameters():
            p.copy_(torch.as_tensor(rng.normal(0.0, 0.3, size=tuple(p.shape)), dtype=p.dtype))
    path = folder / "npc_duel.zip"
    model.save(str(path))
    return LearnedAgent.load(path)


def digests(folder: Any) -> dict[str, str]:
    """Every pinned digest recomputed (``scripts/relock.py``'s ``search`` lock; ``folder``:
    where the duel NPC is written)."""
    from pathlib import Path

    from hexdojo.agents.mcts import MCTSAgent
    from hexdojo.agents.policy import LearnedAgent
    from hexdojo.agents.search import SearchAgent
    from hexdojo.agents.search_core import FirstChoice

    mcts_pairings = ["chu-boris", "urlik-cogan", "guard-spearman", "rider_vs_foot", "two_vs_one"]
    duel = duel_prior(Path(folder))
    styled = LearnedAgent.load(Path(folder) / "npc_duel.zip")
    styled.style, styled.style_bias = "striker", 2.0
    general = LearnedAgent.load(Path(__file__).parents[2] / "agents" / "data" / "general_npc.zip")
    runs: dict[str, Callable[[], Any]] = {
        "trivial mcts first": lambda: trivial(MCTSAgent, FirstChoice),
        "trivial mcts rotate": lambda: trivial(MCTSAgent, Rotate),
        "trivial search first": lambda: trivial(SearchAgent, FirstChoice),
        "trivial search rotate": lambda: trivial(SearchAgent, Rotate),
        "variant model first": lambda: variant({"opponent_model": FirstChoice}),
        "variant model random": lambda: variant({"opponent_model": RandomAgent}),
        "variant caution": lambda: variant({"caution": 1.5}),
        "variant narrow": lambda: variant({"width": 2, "horizon": 1}),
        "variant wide": lambda: variant({"width": 7, "horizon": 3, "c": 1.3}),
        "scripted mcts": lambda: scripted(MCTSAgent, mcts_pairings),
        "scripted search": lambda: scripted(SearchAgent, ["novice-chu", "knife_fighter-guard",
                                                          "two_vs_one"]),
        "scripted model striker": lambda: scripted_variant({"model": "striker"}),
        "scripted model random": lambda: scripted_variant({"model": "random"}),
        "scripted grappler caution": lambda: scripted_variant({"caution": 2.0, "policy": "grappler"}),
        "scripted counter narrow": lambda: scripted_variant({"width": 2, "horizon": 1,
                                                             "policy": "counter"}),
        "scripted wide": lambda: scripted_variant({"width": 6, "horizon": 3, "c": 1.5}),
        "tournament mcts": lambda: tournament(MCTSAgent, None),
        "tournament mcts model striker": lambda: tournament(MCTSAgent, "striker"),
        "tournament mcts model random": lambda: tournament(MCTSAgent, "random"),
        "tournament search": lambda: tournament(SearchAgent, None),
        "guided general": lambda: guided(general),
        "guided duel": lambda: guided(duel),
        "guided duel styled": lambda: guided(styled),
        "guided duel model greedy": lambda: guided(duel, "greedy"),
        "guided duel model random": lambda: guided(duel, "random"),
        "whole mcts": lambda: whole_fights(MCTSAgent),
        "whole search": lambda: whole_fights(SearchAgent),
    }
    out = {}
    for key, run in runs.items():
        got = run()
        out[key] = got if isinstance(got, str) else got[0]
    return out
