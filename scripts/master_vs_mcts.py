"""The strongest level's shape against the default ``mcts`` agent (issue 14's target:
at least 60 % of the fights, both sides).

The run's final policy plays as the prior of an MCTS search (``GuidedMCTS``: the tree's
children are the policy's most probable choices), optionally modelling the other
fighter as a scripted style inside the simulations. The game and the side(s) come from the
run's sidecar (``npc.json``, as ``hexdojo calibrate`` reads it); fights alternate over
those sides, each seeded by its index, so any worker count gives the same result.

    python scripts/master_vs_mcts.py runs/npc --sims 96 --fights 200 --workers 2
    python scripts/master_vs_mcts.py runs/npc --policy-only        # the NPC alone
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import time
from pathlib import Path

from hexdojo.agents.ratings import wilson

SEED = 4_000_000
_ctx: dict = {}


def _init(run: str, sims: int, width: int, model: str | None, opponent: str) -> None:
    import torch

    from hexdojo.agents.calibrate import run_match
    from hexdojo.agents.guided import GuidedMCTS
    from hexdojo.agents.policy import LearnedAgent
    from hexdojo.agents.registry import make_agent

    torch.set_num_threads(1)
    _, match = run_match(Path(run), 1, 0)  # the sidecar's fighters, rules and side(s)
    npc = LearnedAgent.load(Path(run) / "npc.zip", name="npc")
    _ctx["game"], _ctx["sides"] = match.game, match.sides
    _ctx["me"] = npc if sims == 0 else GuidedMCTS(
        npc, sims=sims, width=width, name="master",
        opponent_model=make_agent(model) if model else None)
    _ctx["opp"] = make_agent(opponent)


def _fight(k: int) -> float:
    from hexdojo.agents.tournament import play_fight

    sides = _ctx["sides"]
    side = sides[k % len(sides)]
    me, opp = _ctx["me"], _ctx["opp"]
    r = play_fight(_ctx["game"], (me, opp) if side == 0 else (opp, me), SEED + k)
    return 0.5 if r.winner is None else float(r.winner == side)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", help="a trained run folder (config.json, npc.zip)")
    ap.add_argument("--sims", type=int, default=96)
    ap.add_argument("--width", type=int, default=4)
    ap.add_argument("--model", default=None, help="opponent model inside the search, e.g. greedy")
    ap.add_argument("--policy-only", action="store_true", help="the NPC alone, no search")
    ap.add_argument("--opponent", default="mcts")
    ap.add_argument("--fights", type=int, default=200)
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    sims = 0 if a.policy_only else a.sims
    args = (a.run, sims, a.width, a.model, a.opponent)
    t0, pts, done = time.perf_counter(), 0.0, 0
    with mp.get_context("spawn").Pool(a.workers, _init, args) as pool:
        for got in pool.imap(_fight, range(a.fights)):
            pts, done = pts + got, done + 1
            if done % 20 == 0:
                print(f"{done}/{a.fights} fights: {100 * pts / done:.1f} % "
                      f"({time.perf_counter() - t0:.0f} s)", flush=True)
    lo, hi = wilson(pts, a.fights)
    print(json.dumps({"run": a.run, "sims": sims, "width": a.width, "model": a.model,
                      "opponent": a.opponent, "fights": a.fights, "score": pts / a.fights,
                      "ci": [lo, hi], "seconds": round(time.perf_counter() - t0)}))


if __name__ == "__main__":
    main()
