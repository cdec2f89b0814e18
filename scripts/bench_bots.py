"""Microseconds per scripted decision of the native bot, beside a Python reference in the
same process; and a round robin's time on the core with the native bots.

Why: issue 15 asks a scripted decision for <= 30 us (about 150 us in Python) and the 6-agent
round robin of 30,000 Chu-mirror fights for <= 10 s on one core. The Python agent the bot
replaced is gone (it took 241 us a decision on the Python engine in its last run,
docs/history/native-core-port.md), so the reference is the cheapest Python decision there is, measured
on the same states: random legal play through the Python API (``legal_choices`` and a
numpy draw), what any Python-side agent pays before it thinks. The decisions are the ones
the styles meet in seeded fights (clones of every decision of ``--fights`` fights per style,
mirror matches of ``--fighters``); each is decided once by each path, in the same order,
after a warm-up pass over ``--fights`` other fights (the memos kept across decisions warm
as in a tournament; no decision is seen twice). Three figures per style: random play, the
native bot through ``HeuristicAgent.act`` (the Python API: legal list, Choice) and the bare
``_bots.ScriptedBot.act`` on the core fight. Times are CPU seconds of this process
(``time.process_time``), so that other work on a shared machine counts less.

    python scripts/bench_bots.py [--fights 6] [--fighters chu,chu] [--styles greedy striker]
    python scripts/bench_bots.py --round-robin 20    # + the round robin, 20 fights per pair
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from hexdojo.agents import scripted_core
from hexdojo.agents.scripted import STYLES, HeuristicAgent, RandomAgent
from hexdojo.envs.rules import Game


def decisions(game: Game, style: str, seeds: range) -> list[Any]:
    """Clones of every decision of the seeded mirror fights of ``style``."""
    agent = HeuristicAgent(STYLES[style], style)
    out: list[Any] = []
    for seed in seeds:
        s = game.new_state(seed)
        while not s.is_over:
            out.append(s.clone())
            s.apply(agent.act(s))
    return out


def timed(warm: list[Any], states: list[Any], decide: Callable[[Any], Any]
          ) -> tuple[float, list[Any]]:
    """Microseconds per decision of ``decide`` over ``states`` (one pass), after a pass
    over the other fights' decisions ``warm``: the memos kept across decisions (hit
    values, aims, pain bands) are warm as in a long tournament, but no decision is seen
    twice."""
    for s in warm:
        decide(s)
    t0 = time.process_time()
    picks = [decide(s) for s in states]
    return 1e6 * (time.process_time() - t0) / max(1, len(states)), picks


def bench_style(game: Game, style: str, fights: int) -> tuple[int, float, float, float]:
    """The three figures of one style on the decisions of its seeded mirror fights."""
    warm = decisions(game, style, range(fights, 2 * fights))
    states = decisions(game, style, range(fights))
    rnd = RandomAgent(0)
    py_us, _ = timed([s.clone() for s in warm], [s.clone() for s in states], rnd.act)
    nat = HeuristicAgent(STYLES[style], style)
    api_us, api_picks = timed([s.clone() for s in warm], [s.clone() for s in states], nat.act)
    bot = scripted_core.bot_for(game.tables, nat.style)
    bare_us, bare_picks = timed([s.clone() for s in warm], [s.clone() for s in states],
                                lambda s: bot.act(s._core))
    if [s.legal_choices()[k] for s, k in zip(states, bare_picks, strict=True)] != api_picks:
        raise SystemExit(f"{style}: the bare bot's picks differ from HeuristicAgent.act's")
    return len(states), py_us, api_us, bare_us


def round_robin(fights: int, fighters: tuple[str, ...]) -> None:
    """Time a 6-agent round robin on the core (the tournament's fast path: every agent has a
    native player) and extrapolate to 1,000 fights per ordered pair (30,000 fights)."""
    from hexdojo.agents.tournament import TournamentConfig, run_tournament

    # scripts/bench_tournament.py's six (issue 15's round robin); random plays natively too
    agents = ("random", "greedy", "striker", "grappler", "counter", "striker:risk=2")
    cfg = TournamentConfig(agents, fights=fights, fighters=fighters, workers=1)
    t0 = time.process_time()
    run_tournament(cfg)
    dt = time.process_time() - t0
    n = fights * len(agents) * (len(agents) - 1)
    print(f"round robin {', '.join(agents)}: {n} fights in {dt:.2f} CPU s = {n / dt:.0f} "
          f"fights per CPU second; 30,000 fights: about {30_000 * dt / n:.1f} CPU s on one core")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fights", type=int, default=6, help="seeded fights per style")
    ap.add_argument("--fighters", default="chu,chu")
    ap.add_argument("--styles", nargs="+", default=list(STYLES))
    ap.add_argument("--round-robin", type=int, default=0, metavar="N",
                    help="also time a round robin of N fights per ordered pair")
    args = ap.parse_args(argv)
    fighters = tuple(args.fighters.split(","))
    game = Game.create(list(fighters))
    print(f"{'style':<10} {'decisions':>9} {'random':>8} {'native':>8} {'bare':>8} "
          f"{'native/random':>14}   (us per decision)")
    tot = [0, 0.0, 0.0, 0.0]
    for style in args.styles:
        n, py, api, bare = bench_style(game, style, args.fights)
        print(f"{style:<10} {n:>9} {py:>8.1f} {api:>8.1f} {bare:>8.1f} {api / py:>13.1f}x")
        tot[0] += n
        for k, v in enumerate((py, api, bare), 1):
            tot[k] += v * n
    n = max(1, int(tot[0]))
    py, api, bare = (x / n for x in tot[1:])
    print(f"{'all':<10} {n:>9} {py:>8.1f} {api:>8.1f} {bare:>8.1f} {api / py:>13.1f}x"
          f"   ({args.fighters})")
    print("random: RandomAgent.act through the Python API (the cheapest Python decision); "
          "native: HeuristicAgent.act (the C++ bot through the Python API); bare: "
          "_bots.ScriptedBot.act on the core fight. The Python agent it replaced: 241 us a "
          "decision on the Python engine (its last run, docs/history/native-core-port.md)")
    if args.round_robin:
        round_robin(args.round_robin, fighters)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
