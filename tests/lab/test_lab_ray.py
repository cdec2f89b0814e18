"""--ray: the same results to the bit as on one machine (issue 34), against a Ray started on
this machine that binds and talks to 127.0.0.1 only (``use_ray("local")``).

Run in a fresh interpreter: Ray decides where its node lives when it is first imported, and
another test (RLlib's) may have imported it already in this one."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.util import find_spec

import pytest

pytestmark = [pytest.mark.skipif(find_spec("ray") is None, reason="ray is not installed"), pytest.mark.slow]

CHECK = '''
import json
from hexdojo.agents import scaleout
from hexdojo.agents.lab.common import parse_rules
from hexdojo.agents.lab.compare import CompareConfig, run_compare
from hexdojo.agents.lab.sweep import SweepConfig, parse_sweep, run_sweep
from hexdojo.agents.registry import make_agent
from hexdojo.agents.tournament import TournamentConfig, run_tournament

NAMES = ("greedy", "counter")
scaleout.use_ray("local")
import ray
out = {"nodes": [n["NodeManagerAddress"] for n in ray.nodes()]}

def both(run):
    on = run()
    scaleout._STATE["address"] = None
    here = run()
    scaleout._STATE["address"] = "local"
    return on, here

cfg = CompareConfig(NAMES, parse_rules(None), parse_rules("attack.rear_bonus=6"),
                    (("chu", "guard"),), n=4, workers=2)
(a, fa), (b, fb) = both(lambda: run_compare(cfg, [make_agent(x) for x in NAMES], False))
out["compare"] = fa == fb and a["quantities"] == b["quantities"] and len(fa) == 16
tcfg = TournamentConfig(NAMES, fights=4, scene="two_vs_one", workers=2)
ta, tb = both(lambda: run_tournament(tcfg, [make_agent(x) for x in NAMES]))
out["tournament"] = ta.fights == tb.fights and ta.usage == tb.usage and len(ta.fights) == 8
scfg = SweepConfig(parse_sweep("attack.rear_bonus=0..2:2"), NAMES, parse_rules(None), n=3)
(sa, _), (sb, _) = both(lambda: run_sweep(scfg, [make_agent(x) for x in NAMES], False))
out["sweep"] = sa["points"] == sb["points"] and sa["changes"] == sb["changes"]
ray.shutdown()
print("RESULT " + json.dumps(out))
'''


def test_ray_gives_the_local_results_and_stays_on_loopback():
    run = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True,
                         timeout=240)
    line = next((x for x in run.stdout.splitlines() if x.startswith("RESULT ")), None)
    assert line, run.stdout[-2000:] + run.stderr[-2000:]
    got = json.loads(line[len("RESULT "):])
    assert got["nodes"] == ["127.0.0.1"]  # the node never took the machine's network address
    assert got == {"nodes": ["127.0.0.1"], "compare": True, "tournament": True, "sweep": True}
