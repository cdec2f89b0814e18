"""How often the native player of a learned policy (``LearnedAgent.native_player``, issue 30)
chooses otherwise than the policy's own ``act`` (torch): both are asked at every decision of
seeded fights (fighter 0 plays the policy's choice, fighter 1 greedy's), reset with the same
seed each fight. The network's floats differ from torch's in the last bits (sums in another
order, the player's own tanh), so only near-ties could differ; this counts them, with the
rate's 95 % Wilson interval.

    python scripts/native_player_agreement.py                         # the general NPC
    python scripts/native_player_agreement.py --checkpoint runs/npc/npc.zip --fights 100
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hexdojo.agents import scripted_core
from hexdojo.agents.policy import LearnedAgent
from hexdojo.agents.ratings import wilson
from hexdojo.agents.registry import make_agent
from hexdojo.envs.rules import Game

GENERAL = Path(__file__).resolve().parents[1] / "agents" / "data" / "general_npc.zip"


def disagreements(agent: LearnedAgent, fighters: list[str], fights: int) -> tuple[int, int]:
    """(decisions, choices that differ) over ``fights`` seeded fights."""
    game = Game.create(fighters)
    player = agent.native_player(game)
    if player is None:
        raise SystemExit(f"{agent.name}: no native player for {fighters}")
    n = differ = 0
    for seed in range(fights):
        agent.reset(seed)
        player.reset(seed)
        state, greedy = game.new_state(seed), make_agent("greedy")
        while not state.is_over:
            k = player.act(scripted_core.core_of(state))
            mine = agent.act(state)
            n, differ = n + 1, differ + (state.legal_choices()[k] != mine)
            state.apply(mine if state.decision.fighter == 0 else greedy.act(state))
    return n, differ


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--checkpoint", default=str(GENERAL),
                    help="a MaskablePPO .zip (default: the general NPC)")
    ap.add_argument("--fighters", nargs="+", default=["chu,chu", "chu,boris", "chu,guard"],
                    help="pairings, each two presets comma-separated")
    ap.add_argument("--fights", type=int, default=50)
    args = ap.parse_args(argv)
    for temperature in (None, 1.0):
        agent = LearnedAgent.load(args.checkpoint, temperature=temperature)
        for pairing in args.fighters:
            fighters = pairing.split(",")
            if not agent.general and agent.native_player(Game.create(fighters)) is None:
                print(f"{pairing}: skipped (the checkpoint does not play it as a duel)")
                continue
            n, differ = disagreements(agent, fighters, args.fights)
            lo, hi = wilson(differ, n)
            how = "arg-max" if temperature is None else f"temperature {temperature}"
            print(f"{Path(args.checkpoint).name} {pairing} ({how}): {differ} of {n:,} decisions differ "
                  f"({100 * differ / n:.3f} %, 95 % interval {100 * lo:.3f}-{100 * hi:.3f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
