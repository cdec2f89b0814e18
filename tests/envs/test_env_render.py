"""Render modes (issue 3): the ANSI board and the RGB image show fighters, facings,
holds, prone marks, status lines and the last events."""

from __future__ import annotations

import numpy as np

from hexdojo.envs.duel import DuelEnv
from hexdojo.envs.render import ARROWS, COLOURS, board_text, render_ansi, render_rgb
from hexdojo.envs.rules import Game


def state(**sc):
    game = Game.create(["chu", "urlik"], radius=3)
    base = {"fighters": [{"pos": [-1, 0], "facing": 0, "ap": 6},
                         {"pos": [1, 0], "facing": 3, "ap": 5}], "phase": 0}
    base.update(sc)
    return game.new_state(0, scenario=base)


def test_ansi_board_places_fighters_with_facings() -> None:
    rows = board_text(state())
    assert len(rows) == 7  # 2 * radius + 1 hex rows
    middle = rows[3]
    assert f"A{ARROWS[0]}" in middle and f"B{ARROWS[3]}" in middle
    assert middle.index("A") < middle.index("B")  # A west of B
    assert sum(r.count(".") for r in rows) == 37 - 2  # hexes of a radius-3 arena


def test_ansi_marks_prone_holds_and_status() -> None:
    s = state(fighters=[{"pos": [0, 0], "facing": 0, "ap": 6},
                        {"pos": [0, 0], "facing": 3, "ap": 5, "prone": True,
                         "wounds": [["Chest", "Light"]]}],
              holds=[{"holder": 0, "held": 1, "kind": "head_lock"}])
    text = render_ansi(s)
    assert "Ab*" in text  # same hex: holder A, prone held b
    assert "holds B (head_lock)" in text and "PRONE" in text
    assert "Light Chest" in text and "A to decide: action" in text


def test_env_ansi_shows_events_since_the_agent_last_decided() -> None:
    env = DuelEnv(render_mode="ansi")
    _, info = env.reset(seed=1)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    out = env.render()
    assert isinstance(out, str) and "events:" in out
    assert env.fight.render_log(len(env.fight.events) - 1)[0] in out


def test_rgb_image_shows_fighters_in_their_colours() -> None:
    img = render_rgb(state())
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    colours = {tuple(c) for c in img.reshape(-1, 3)}
    assert COLOURS[0] in colours and COLOURS[1] in colours
    moved = render_rgb(state(fighters=[{"pos": [0, 0], "facing": 0, "ap": 6}]))
    assert not np.array_equal(img, moved)
    held = render_rgb(state(fighters=[{"pos": [0, 0], "facing": 0, "ap": 6},
                                      {"pos": [0, 0], "facing": 3, "ap": 5}],
                            holds=[{"holder": 0, "held": 1, "kind": "arm"}]))
    assert (240, 200, 20) in {tuple(c) for c in held.reshape(-1, 3)}  # the hold's yellow


def test_env_rgb_array() -> None:
    env = DuelEnv(render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert isinstance(frame, np.ndarray) and frame.shape[2] == 3 and frame.dtype == np.uint8
    assert DuelEnv().render() is None  # no render mode: nothing to draw
