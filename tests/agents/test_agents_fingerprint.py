"""The agents' choices pinned (scripts/agents_fingerprint.py): a hash of every decision of
seeded fights over unarmed, armed, mounted and group pairings and a rule variant, with every
agent that has a native form (random, the five styles, a style_agent with overrides, mcts,
search), and in the scored windows the scripted agents' ``scored_choices`` (values, order).

Why: it replaces the differential tests against the scripted agents' Python reference,
deleted with the Python engine (issue 15). The pinned hash was equal, before the deletion,
over the three ways there were: the Python agents on the Python engine
(``HEXDOJO_ENGINE=python HEXDOJO_NATIVE_AGENTS=0``), the Python agents on the core
(``HEXDOJO_NATIVE_AGENTS=0``) and the native bots on the core (the default). A refactor or
speed-up must leave it unchanged; a change of the agents' behaviour updates the pinned value
in the same commit and says why.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ..scripts_kit import SCRIPTS, load_script

pytestmark = pytest.mark.slow  # docs/development.md, the fast subset

#: --fights 24: (hash, fights, decisions, scored windows, scored values)
PINNED = ("3538c8944460d028acf965e992c6c388c016ee70171159d70e084ef3adea4f72",
          324, 15744, 6519, 480374)  # issue 28 (was e57e0637..., 15,285 decisions)
#: --fights 1, in another process under another PYTHONHASHSEED
SMALL = "cd6a63fb15a1a1d9e633f924efda66b93dde96b51d90f5e8589f49d750304f80"


def _script():
    return load_script("agents_fingerprint")


_RUN: dict = {}


def _pinned_run():
    if not _RUN:
        _RUN["got"] = _script().fingerprint(24)
    return _RUN["got"]


def test_agents_fingerprint_is_pinned():
    h, seen = _pinned_run()
    got = (h, seen["fights"], seen["decisions"], seen["scored"], seen["scored_values"])
    assert got == PINNED, "the agents' choices changed: see the module docstring"


def test_the_pinned_fights_meet_every_branch():
    """The hash covers the agents' branches: every decision kind and roll, reactions to
    attacks, follow-ons, holds, weapon choices, and each kind of agent deciding."""
    _, seen = _pinned_run()
    for key in ("phase", "action", "reaction", "follow_on", "soak", "hold", "risk:attack",
                "risk:defence", "risk:soak", "risk:counter-attack", "risk:break hold",
                "risk:resist break hold", "reaction_to_attack", "while_held",
                "weapon_choice", "by:HeuristicAgent", "by:RandomAgent", "by:MCTSAgent",
                "by:SearchAgent"):
        assert seen[key] >= 10 or (key == "hold" and seen[key] > 0), (key, dict(seen))


def test_fingerprint_is_the_same_in_another_process_and_hash_seed():
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, str(SCRIPTS / "agents_fingerprint.py"), "--fights", "1"], env=env,
                         capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.split()[0] == SMALL, out.stdout + out.stderr
