"""Shared test helpers."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest

# One torch thread per test process: small policies gain nothing from more, and on a busy
# 2-core machine thread oversubscription made a 3k-step PPO smoke test take minutes.
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

from hexdojo.envs.rules import State
from hexdojo.envs.rules.ruleset import deep_merge


def play_random(state: State, seed: int, max_decisions: int = 100_000) -> list:
    """Play uniformly random legal choices to the end; returns the choices made."""
    rng = np.random.default_rng(seed)
    made = []
    while not state.is_over and len(made) < max_decisions:
        ch = state.legal_choices()
        c = ch[int(rng.integers(len(ch)))]
        state.apply(c)
        made.append(c)
    return made


# --------------------------------------------------------------------------- the browser
CHROMIUM = ("/usr/lib/chromium/chromium", "/usr/bin/chromium", "/usr/bin/chromium-browser")


def _chromium() -> str | None:
    for c in CHROMIUM:
        if Path(c).is_file():
            return c
    return shutil.which("chromium")


@pytest.fixture(scope="module")
def page():
    """A headless Chromium page (Debian's chromium driven by Playwright, which cannot
    download its own browser offline). Skipped, saying why, where either is missing, except
    under ``CI``: the README's test command installs both, so a skip would hide a break."""
    if os.environ.get("CI"):
        import playwright.sync_api as sync
    else:
        sync = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    exe = _chromium()
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("no system chromium: the README's test command installs it")
        pytest.skip("no system chromium (apt-get install chromium)")
    with sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        yield browser.new_page()
        browser.close()


# --------------------------------------------------------------------------- tiny runs
#: a training run small enough for a test: chu vs boris, a random pool, no warm start
TINY_TRAINING = {
    "total_steps": 512, "n_envs": 1, "turn_limit": 6, "checkpoint_every": 512,
    "fighters": ["chu", "boris"],
    "ppo": {"n_steps": 256, "batch_size": 128, "n_epochs": 1, "net_arch": [16]},
    "imitation": {"fights": 0},
    "pool": {"scripted": ["random"], "self_play": False},
    "eval": {"every": 100_000, "episodes": 2, "opponents": ["random"]},
}


def tiny_training(**changes) -> dict:
    """``TINY_TRAINING`` with ``changes`` merged in (tables key by key)."""
    return deep_merge(TINY_TRAINING, changes)


def check_mask_exact(game, seed: int, steps: int) -> None:  # noqa: ANN001 - a Game
    """After ``steps`` random decisions: every fighter's observation lies in its space, a
    fighter not deciding has an all-zero mask, the decider's legal choices have one id
    each, and mask[id] == 1 exactly when the engine accepts that id's choice (the group
    fight's spaces: ``skirmish_spaces``)."""
    from hexdojo.envs.skirmish_spaces import observe, spaces_for

    cat, enc = spaces_for(game)
    s = game.new_state(seed)
    play_random(s, seed, steps)
    for me in range(len(s.fighters)):
        obs, mask, slots = observe(s, me, flat=True)
        assert enc.flat_space.contains(obs)
        d = s.decision
        if d is None or d.fighter != me:
            assert not mask.any()
            continue
        ids = cat.ids(s.legal_choices(), slots)
        assert len(set(ids)) == len(ids) == len(s.legal_choices())  # one id per legal choice
        for a in range(cat.n):
            legal_a = s.why_illegal(cat.choice(a, slots)) is None
            assert bool(mask[a]) == legal_a, cat.names[a]
