"""No nanobind object outlives the interpreter (issue 35). nanobind prints "nanobind: leaked
N instances!" at exit for every core object Python never freed; after an OpenSpiel session it
reported the rules' compiled ``Tables`` and two ``Profile`` instances, because pyspiel keeps
the registered game class for the life of the process and, through its module's globals,
every rules cache (``envs/spiel.py``: ``_forget_at_exit``). Each session runs in a fresh
interpreter, since the report only comes at its end."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

_PLAY_SPIEL = """
import numpy as np
import pyspiel
import hexdojo.envs.spiel  # noqa: F401 - registers the game

game = pyspiel.load_game("hexdojo_duel")
rng = np.random.default_rng(0)
ends = 0
for _ in range(2):
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(int(rng.integers(0, len(s.chance_outcomes()))))
        else:
            s.apply_action(int(rng.choice(s.legal_actions())))
    ends += 1
assert ends == 2
"""

_PLAY_BOTS = """
import pyspiel
import hexdojo.envs.spiel  # noqa: F401
from hexdojo.agents.registry import make_agent
from hexdojo.envs.spiel import AgentBot, play

game = pyspiel.load_game("hexdojo_duel")
play(game, [AgentBot(make_agent("greedy"), 0, 1), AgentBot(make_agent("random"), 1, 1)], 1)
"""

_PLAY_DUEL = """
import gymnasium as gym
import numpy as np
import hexdojo.envs  # noqa: F401

env = gym.make("hexdojo/Duel-v1")
obs, info = env.reset(seed=0)
done = False
while not done:
    obs, r, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    done = term or trunc
assert done
"""

_PLAY_VECTOR = """
import gymnasium as gym
import numpy as np
import hexdojo.envs  # noqa: F401

venv = gym.make_vec("hexdojo/Duel-v1", num_envs=4, vectorization_mode="vector_entry_point")
venv.reset(seed=0)
for _ in range(200):
    venv.step(np.array([np.flatnonzero(m)[0] for m in venv.action_masks()]))
"""

SESSIONS = {"openspiel": _PLAY_SPIEL, "openspiel_bots": _PLAY_BOTS, "duel": _PLAY_DUEL,
            "vector": _PLAY_VECTOR, "all": _PLAY_SPIEL + _PLAY_DUEL + _PLAY_VECTOR}


def run_session(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter, then a line saying it reached its end."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code) + "\nprint('session end')"],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("name", sorted(SESSIONS))
def test_a_session_leaks_no_nanobind_object(name: str) -> None:
    if name.startswith("openspiel") or name == "all":
        pytest.importorskip("pyspiel")
    out = run_session(SESSIONS[name])
    assert out.returncode == 0 and "session end" in out.stdout, out.stderr[-2000:]
    leaks = [line for line in out.stderr.splitlines() if "nanobind: leaked" in line]
    assert not leaks, "\n".join(leaks + out.stderr.splitlines()[:10])


def test_the_check_sees_a_leak() -> None:
    """The check above would catch one: a core object whose count never drops is reported."""
    out = run_session("""
        import ctypes
        from hexdojo.envs.rules import to_core
        from hexdojo.envs.rules.tables import load_tables
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(to_core.compile_tables(load_tables())))
    """)
    assert "session end" in out.stdout, out.stderr[-2000:]
    assert "nanobind: leaked" in out.stderr
