"""The rules engine imports nothing from Gymnasium, PettingZoo or torch (issue 2 design):
it imports and plays a fight with those packages made unimportable."""

from __future__ import annotations

import subprocess
import sys

from hexdojo.envs.rules import hexgrid as hx

SCRIPT = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("gymnasium", "pettingzoo", "torch", "stable_baselines3",
                                   "sb3_contrib"):
            raise ImportError("blocked: " + name)
sys.meta_path.insert(0, Block())
from hexdojo.envs.rules import Game
s = Game.create(["chu", "urlik"]).new_state(3)
while not s.is_over:
    s.apply(s.legal_choices()[-1])
print("ok", s.result["reason"], sorted(m for m in sys.modules if m.startswith(("gym", "torch"))))
"""


def test_engine_runs_without_gymnasium_pettingzoo_or_torch():
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok ") and out.stdout.strip().endswith("[]")


def test_nearest_direction_matches_the_definition():
    """§5.4: a non-adjacent fighter is seen from the direction of the nearest neighbour hex."""
    for q in range(-4, 5):
        for r in range(-4, 5):
            b = (q, r)
            if b == (0, 0):
                continue
            want = min(range(6), key=lambda k: hx.distance(hx.neighbour((0, 0), k), b))
            assert hx.nearest_direction((0, 0), b) == want
