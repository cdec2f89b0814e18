"""The master level against ``mcts``, seat for seat (issue 33, section 3).

In each seat of a pairing (default the main job's, chu vs boris) the candidate plays
``--fights`` fights against the reference (``mcts``), and the reference plays the same seeds
from the same seat against itself; the margin is the difference with Newcombe's 95 %
interval (``hexdojo.agents.seats``). ``--mirror`` adds the Chu mirror, both sides, the
candidate's overall score against the reference (the target: >= 60 %).

The candidate is an agent spec (``--agent``) or a learned policy as the prior of the native
search (``--prior CKPT --sims N --width W``: ``GuidedMCTS``, the master level's shape; the
shipped general NPC by default).

    python scripts/master_seats.py --fights 400 --workers 2 --mirror
    python scripts/master_seats.py --prior runs/npc/npc.zip --sims 400 --width 6
    python scripts/master_seats.py --agent "mcts:sims=1500,width=6" --fights 100
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from hexdojo.agents.files import atomic_write_text
from hexdojo.agents.seats import SeatMargin, seat_margins
from hexdojo.agents.tournament import Progress


@dataclass(frozen=True)
class Make:
    """Builds (candidate, reference, reference) in each worker (picklable)."""

    agent: str | None
    prior: str
    sims: int
    width: int
    c: float
    reference: str
    model: str | None = None

    def __call__(self):
        from hexdojo.agents.registry import make_agent

        if self.agent:
            cand = make_agent(self.agent)
        else:
            import torch

            from hexdojo.agents.guided import GuidedMCTS
            from hexdojo.agents.policy import LearnedAgent

            torch.set_num_threads(1)
            model = make_agent(self.model) if self.model else None
            cand = GuidedMCTS(LearnedAgent.load(self.prior, name="prior"), sims=self.sims,
                              width=self.width, c=self.c, name="master", opponent_model=model)
        return cand, make_agent(self.reference), make_agent(self.reference)


def measure(fighters: list[str], make: Make, fights: int, workers: int,
            scene: str | None = None) -> list[SeatMargin]:
    from hexdojo.envs.rules import Game

    game = Game.from_scene(scene) if scene else Game.create(fighters)
    bar = Progress(4 * fights, sys.stderr.isatty(), lambda s: print(s, flush=True), "seats: ")
    try:
        return seat_margins(game, make, fights, workers, progress=bar)
    finally:
        bar.stop()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agent", default=None, help="the candidate as an agent spec")
    ap.add_argument("--prior", default=str(Path(__file__).resolve().parents[1] / "agents" /
                                           "data" / "general_npc.zip"))
    ap.add_argument("--sims", type=int, default=96)
    ap.add_argument("--width", type=int, default=2)
    ap.add_argument("--c", type=float, default=0.7)
    ap.add_argument("--model", default=None,
                    help="an agent spec that plays the other fighter inside the search, e.g. greedy")
    ap.add_argument("--reference", default="mcts")
    ap.add_argument("--fighters", default="chu,boris")
    ap.add_argument("--scene", default=None,
                    help="a scene's two sides instead of --fighters (e.g. two_vs_one; the learned "
                         "prior plays duels only: give the candidate with --agent)")
    ap.add_argument("--fights", type=int, default=400, help="fights per seat")
    ap.add_argument("--need", type=float, default=10.0, help="margin to reach, points")
    ap.add_argument("--mirror", action="store_true", help="also the Chu mirror, both sides")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    a = ap.parse_args(argv)
    make = Make(a.agent, a.prior, a.sims, a.width, a.c, a.reference, a.model)
    who = a.agent or (f"GuidedMCTS({Path(a.prior).name}, sims={a.sims}, width={a.width}, c={a.c}"
                      f"{f', model={a.model}' if a.model else ''})")
    t0, doc = time.perf_counter(), {"candidate": who, "reference": a.reference, "fights": a.fights}
    print(f"{who} against {a.reference}, {a.scene or a.fighters}, {a.fights} fights a seat:",
          flush=True)
    rows = measure(a.fighters.split(","), make, a.fights, a.workers, a.scene)
    print("\n".join(r.line(a.need / 100) for r in rows))
    doc["seats"] = [{"fighter": r.fighter, "score": r.score, "baseline": r.base_score,
                     "margin": r.margin, "margin_ci": r.margin_ci} for r in rows]
    if a.mirror:
        m = measure(["chu", "chu"], make, a.fights, a.workers)
        pts, n = sum(r.candidate for r in m), sum(r.fights for r in m)
        from hexdojo.agents.ratings import wilson

        lo, hi = wilson(pts, n)
        print(f"Chu mirror, both sides: {100 * pts / n:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}] "
              f"of {n} fights (>= 60 %: {'met' if pts / n >= 0.6 else 'not met'})")
        print("\n".join(r.line(a.need / 100) for r in m))
        doc["mirror"] = {"score": pts / n, "ci": [lo, hi], "fights": n}
    doc["seconds"] = round(time.perf_counter() - t0)
    print(f"{doc['seconds']} s")
    if a.json:
        atomic_write_text(Path(a.json), json.dumps(doc, indent=1) + "\n")  # whole or not at all
    return 0


if __name__ == "__main__":
    sys.exit(main())
