"""How far above 95 % against random play the ladder's search can go: MCTS variants and
two unfair oracles that bound what any fair agent can reach (chu mirror by default).

Every variant plays fights ``first .. first + fights - 1`` against ``random``, once on each
side, with the same seeds (the fight's dice from the fight seed; the agents from the fight
seed and side), so the variants meet the same dice and the same random player:

- ``mcts``: the ladder's MCTS, defaults.
- ``model``: MCTS with the random player as its opponent model (his decisions are chance
  inside the tree and the rollouts, not searched as if he played well).
- ``caution``: MCTS whose score weighs its own wounds (1 + ``--caution``) times.
- ``dice``: an oracle that sees the fight's future dice (its rollouts keep the real dice),
  the opponent modelled as greedy: ``--oracle-candidates`` choices, one rollout each.
- ``full``: an oracle that also foresees the random player (a copy of his generator).

    python scripts/ladder_ceiling.py --variants mcts model caution --fights 300
    python scripts/ladder_ceiling.py --variants dice full --fights 300
"""

from __future__ import annotations

import argparse
import copy
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from rich.console import Console
from rich.progress import Progress

from hexdojo.agents.base import Agent
from hexdojo.agents.mcts import MCTSAgent
from hexdojo.agents.ratings import strength
from hexdojo.agents.report import write_bench_json
from hexdojo.agents.scripted import STYLES, HeuristicAgent, RandomAgent
from hexdojo.agents.search import SEARCHED, evaluate
from hexdojo.agents.tournament import default_workers
from hexdojo.envs.rules import Choice, Game, State

VARIANTS = ("mcts", "model", "caution", "dice", "full")
#: the random player's generator seed is the agent's plus this (the two never coincide)
RANDOM_OFFSET = 10**6


class DiceOracle(Agent):
    """One rollout per candidate (the greedy policy's best ``width``) on a clone that keeps
    the fight's real dice, the greedy policy playing both sides for ``horizon`` turns; the
    best score played (ties: the policy's order). Unfair, a ceiling only: not the search
    agents' search (theirs roll fresh dice), so it is played in Python here."""

    def __init__(self, width: int, name: str, horizon: int = 2) -> None:
        self.policy = HeuristicAgent(STYLES["greedy"], "greedy")
        self.width, self.name, self.horizon = width, name, horizon

    def act(self, state: State) -> Choice:
        d = state.decision
        if d is None or d.kind not in SEARCHED or len(state.legal_choices()) == 1:
            return self.policy.act(state)
        cands = self.policy.ranked(state)[: self.width]
        scores = [self.rollout(state, c, d.fighter) for c in cands]
        return cands[max(range(len(cands)), key=lambda k: (scores[k], -k))]

    def sim_state(self, state: State) -> State:
        """What a rollout plays on: the fight with its own future dice."""
        return state.clone()

    def rollout(self, state: State, first: Choice, me: int) -> float:
        c = self.sim_state(state)
        c.apply(first)
        stop = state.turn + self.horizon
        while not c.is_over and c.turn <= stop:
            c.apply(self.policy.act(c))
        return evaluate(c, me)


class FullOracle(DiceOracle):
    """Also foresees the opponent: each rollout plays a copy of the real opponent."""

    opponent: Agent | None = None

    def rollout(self, state: State, first: Choice, me: int) -> float:
        c = self.sim_state(state)
        other = copy.deepcopy(self.opponent)
        c.apply(first)
        stop = state.turn + self.horizon
        while not c.is_over and c.turn <= stop:
            c.apply((self.policy if c.decision.fighter == me else other).act(c))  # type: ignore[union-attr]
        return evaluate(c, me)


def make(variant: str, caution: float, candidates: int) -> Agent:
    if variant == "mcts":
        return MCTSAgent()
    if variant == "model":
        return MCTSAgent(name="mcts:model=random", opponent_model=RandomAgent())
    if variant == "caution":
        return MCTSAgent(caution=caution, name=f"mcts:caution={caution:g}")
    oracle = DiceOracle if variant == "dice" else FullOracle
    return oracle(width=candidates, name=f"oracle:{variant}")


def play(variant: str, caution: float, candidates: int, fighters: tuple[str, str],
         seeds: range) -> tuple[int, int, int]:
    """Wins, draws and losses of ``variant`` over ``seeds``, on both sides each."""
    game = Game.create(list(fighters))
    w = d = lo = 0
    for s in seeds:
        for side in (0, 1):
            agent, rnd = make(variant, caution, candidates), RandomAgent()
            agent.reset(s * 2 + side)
            rnd.reset(s * 2 + side + RANDOM_OFFSET)
            if isinstance(agent, FullOracle):
                agent.opponent = rnd
            st = game.new_state(s)
            while not st.is_over:
                st.apply((agent if st.decision.fighter == side else rnd).act(st))  # type: ignore[union-attr]
            if st.winner == side:
                w += 1
            elif st.winner is None:
                d += 1
            else:
                lo += 1
    return w, d, lo


def measure(variant: str, args: argparse.Namespace, fighters: tuple[str, str]) -> dict:
    chunk = max(1, min(10, args.fights // max(1, args.workers)))
    starts = range(args.first, args.first + args.fights, chunk)
    parts = [range(a, min(a + chunk, args.first + args.fights)) for a in starts]
    totals = [0, 0, 0]
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool, Progress(console=Console(stderr=True), transient=True,
                                                         disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task(variant, total=args.fights)
        futures = [pool.submit(play, variant, args.caution, args.oracle_candidates, fighters, p)
                   for p in parts]
        for f, p in zip(futures, parts, strict=True):
            for k, x in enumerate(f.result()):
                totals[k] += x
            bar.advance(task, len(p))
    w, d, lo = totals
    st = strength(w, d, lo)
    return {"variant": make(variant, args.caution, args.oracle_candidates).name,
            "wins": w, "draws": d, "losses": lo, "win_rate": st.rate, "win_lo": st.rate_lo,
            "win_hi": st.rate_hi, "seconds": round(time.perf_counter() - t0, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    ap.add_argument("--fights", type=int, default=300, help="fight seeds (each on both sides)")
    ap.add_argument("--first", type=int, default=0, help="first fight seed")
    ap.add_argument("--fighters", default="chu,chu")
    ap.add_argument("--caution", type=float, default=1.0, help="for the caution variant")
    ap.add_argument("--oracle-candidates", type=int, default=8,
                    help="choices an oracle tries, one rollout each")
    ap.add_argument("--workers", type=int, default=default_workers())
    ap.add_argument("--json", help="also write the results to this file")
    args = ap.parse_args(argv)
    fighters = tuple(args.fighters.split(","))
    if len(fighters) != 2:
        ap.error("--fighters: two presets, comma-separated")
    if args.fights < 1 or args.workers < 1 or args.oracle_candidates < 1:
        ap.error("--fights, --workers and --oracle-candidates must be >= 1")
    print(f"| variant | vs random ({' vs '.join(fighters)}), seeds {args.first}.."
          f"{args.first + args.fights - 1} x 2 sides: W/D/L | win rate [95% CI] | s |")
    print("|---|---|---|---|")
    rows = []
    t0 = time.perf_counter()
    for v in args.variants:
        r = measure(v, args, fighters)  # type: ignore[arg-type]
        rows.append(r)
        print(f"| {r['variant']} | {r['wins']}/{r['draws']}/{r['losses']} | "
              f"{r['win_rate']:.1%} [{r['win_lo']:.1%}, {r['win_hi']:.1%}] | {r['seconds']} |",
              flush=True)
    if args.json:
        write_bench_json(args.json, "python scripts/ladder_ceiling.py " + " ".join(argv or sys.argv[1:]),
                         args.workers, time.perf_counter() - t0, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
