"""Train the general NPC (issue 33) and write it into the package: ``agents/data/
general_npc.zip`` and its sidecar ``general_npc.train.json`` (the config and the figures).

    python scripts/train_general_npc.py                       # the shipped run
    python scripts/train_general_npc.py --steps 20000 --out /tmp/g.zip   # a smoke run

The held-out figures of the shipped policy: ``scripts/general_npc_heldout.py``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hexdojo.agents.general_npc import SHIPPED, GeneralConfig, train_general


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    d = GeneralConfig()
    ap.add_argument("--steps", type=int, default=d.total_steps, help="PPO steps after the warm start")
    ap.add_argument("--groups", type=int, default=d.groups, help="pairings trained on at once")
    ap.add_argument("--slots", type=int, default=d.slots, help="duels per pairing")
    ap.add_argument("--demo-pairings", type=int, default=d.demo_pairings)
    ap.add_argument("--demo-fights", type=int, default=d.demo_fights)
    ap.add_argument("--seed", type=int, default=d.seed)
    ap.add_argument("--out", type=Path, default=SHIPPED, help="where the model goes")
    ap.add_argument("--init", type=Path, default=None,
                    help="go on from this general policy (no warm start)")
    ap.add_argument("--lr", type=float, default=d.learning_rate, help="learning rate (decays to 0)")
    a = ap.parse_args(argv)
    cfg = GeneralConfig(total_steps=a.steps, groups=a.groups, slots=a.slots,
                        demo_pairings=a.demo_pairings, demo_fights=a.demo_fights, seed=a.seed,
                        learning_rate=a.lr)
    out = train_general(cfg, a.out, say=lambda line: print(line, flush=True), init=a.init)
    print(f"wrote {out} ({out.stat().st_size / 1e6:.1f} MB) and its sidecar; "
          f"{cfg.notes['seconds']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
