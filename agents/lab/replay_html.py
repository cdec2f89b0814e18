"""An offline HTML replay viewer: the hex board, fighters and facings, holds, each step's
events, step forward/back and play, in one self-contained file (no network).

Why a recorded list of frames rather than a JavaScript engine: the viewer must show exactly
what the engine did, so the fight is re-played here (same seed, agents, rules, bans: the
same fight the lab measured) and every step's picture and event text are stored. The board
geometry (hex centres, size, fighter offsets, colours, letters, status lines) is the one
``hexdojo.envs.render`` draws with.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hexdojo.envs import render as rd
from hexdojo.envs.rules import Choice, Decision, Game, State
from hexdojo.envs.rules import hexgrid as hx
from hexdojo.envs.rules.notation import words

from ..base import Agent
from ..fightfile import fight_of
from ..plugins import PluginFault, forfeit_on_error
from ..tournament import agent_seed, checked_act
from .runner import Observer


def _fighters(state: State) -> list[dict[str, Any]]:
    rad = state.game.radius
    by_hex: dict[hx.Hex, list[int]] = {}
    for f in state.fighters:
        by_hex.setdefault(f.pos, []).append(f.idx)
    out: list[dict[str, Any]] = [{} for _ in state.fighters]
    for pos, idxs in by_hex.items():
        cx, cy = rd._centre(pos[0], pos[1], rad)
        for k, i in enumerate(idxs):
            f = state.fighters[i]
            dq, dr = hx.DIRECTIONS[f.facing]
            vx, vy = rd._SQ3 * (dq + dr / 2), 1.5 * dr
            norm = (vx * vx + vy * vy) ** 0.5
            out[i] = {"x": round(cx + (k - (len(idxs) - 1) / 2) * rd.HEX * 0.75, 1),
                      "y": round(cy, 1), "fx": round(vx / norm, 3), "fy": round(vy / norm, 3),
                      "letter": rd.LETTERS[i], "colour": f"rgb{rd.COLOURS[i % len(rd.COLOURS)]}",
                      "prone": f.prone, "out": f.out is not None, "small": len(idxs) > 1}
    return out


def _frame(state: State, since: int, what: str) -> dict[str, Any]:
    fs = _fighters(state)
    holds = [[fs[h.holder]["x"], fs[h.holder]["y"], fs[h.held]["x"], fs[h.held]["y"]]
             for h in state.holds]
    return {"header": rd.header_line(state), "what": what,
            "status": [rd.status_line(state, f.idx) for f in state.fighters],
            "fighters": fs, "holds": holds, "events": state.render_log(since)}


def _choice_text(state: State, d: Decision, c: Choice) -> str:
    """Who chose what, the choice in the notation's words (``notation.words``)."""
    who = f"{rd.LETTERS[d.fighter]} {state.fighters[d.fighter].name}"
    about = f", {d.about}" if d.about else ""
    return f"{who} ({d.kind.replace('_', '-')}{about}): {words(state, c)}"


def record(game: Game, agents: Sequence[Agent], seed: int,
           bans: Sequence[Sequence[str]] = ((), ()), title: str = "") -> dict[str, Any]:
    """Re-play one fight (as the lab played it) and return its frames for the viewer."""
    obs = [Observer(a, s, bans[s]) for s, a in enumerate(agents)]
    state = game.new_state(seed)
    frames = [_frame(state, 0, "start")]
    made: list[Choice] = []  # the fight as a fight file too (`hexdojo table` opens it)
    try:
        for s, o in enumerate(obs):
            o.reset(agent_seed(seed, s))
    except PluginFault:
        if not forfeit_on_error():
            raise
        return _recorded(game, agents, seed, bans, title, state, frames)
    while not state.is_over:
        d = state.decision
        assert d is not None
        try:  # a side's agent plays its fighters
            c = checked_act(obs[game.sides[d.fighter]], state)
        except PluginFault:  # a forfeited fight (--forfeit-on-error): replayed up to here
            if not forfeit_on_error():
                raise
            break
        n0 = len(state.events)
        what = _choice_text(state, d, c)
        state.apply(c)
        made.append(c)
        frames.append(_frame(state, n0, what))
    return dict(_recorded(game, agents, seed, bans, title, state, frames),
                fight=fight_of(game, seed, made, [a.name for a in agents]))


def _recorded(game: Game, agents: Sequence[Agent], seed: int, bans: Sequence[Sequence[str]],
              title: str, state: State, frames: list[dict[str, Any]]) -> dict[str, Any]:
    """A re-played fight's frames and board geometry, for the viewer."""
    rad = game.radius
    cells = [rd._centre(q, r, rad) for q in range(-rad, rad + 1) for r in range(-rad, rad + 1)
             if abs(q) + abs(r) + abs(q + r) <= 2 * rad]
    w = int(rd.HEX * rd._SQ3 * (2 * rad + 1)) + 2 * rd.MARGIN
    h = int(rd.HEX * (3 * rad + 2)) + 2 * rd.MARGIN
    return {"title": title, "seed": seed, "winner": state.winner,
            "agents": [a.name for a in agents], "bans": [list(b) for b in bans],
            "result": rd.header_line(state), "hex": rd.HEX, "width": w, "height": h,
            "cells": [[round(x, 1), round(y, 1)] for x, y in cells], "frames": frames}


#: the viewer's script (a file beside this module, so it can be read and linted as JS)
VIEWER_JS = (Path(__file__).parent / "viewer.js").read_text(encoding="utf-8")


def viewer_html(fights: list[dict[str, Any]], title: str = "hexdojo replays") -> str:
    """The self-contained viewer page for recorded fights (``#N`` in the URL opens fight N)."""
    data = json.dumps(fights, separators=(",", ":")).replace("</", "<\\/")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>
body {{ font-family: sans-serif; margin: 1.5em; color: #222; }}
#wrap {{ display: flex; gap: 1.5em; align-items: flex-start; }}
pre {{ background: #f6f6f6; padding: .6em; white-space: pre-wrap; max-width: 60em; margin: .3em 0; }}
button {{ font-size: 110%; margin-right: .3em; }}
</style></head><body>
<h1>{html.escape(title)}</h1>
<p><select id="fight"></select> <span id="title"></span></p>
<p><button id="prev">&#9664; back</button><button id="next">forward &#9654;</button>
<button id="play">play</button> <input id="slider" type="range" min="0" value="0">
<span id="step"></span> <span style="color:#666">(arrow keys step)</span></p>
<div id="wrap"><div id="boardbox"></div><div>
<pre id="header"></pre><p><b>choice:</b> <span id="what"></span></p><pre id="status"></pre>
<b>events of this step</b><pre id="events"></pre>
<details><summary>the fight so far</summary><pre id="log"></pre></details></div></div>
<p style="color:#666">Discs: fighters in their colour (a ring when prone, black when out), dark dot = the
side they face; yellow line = a hold from holder to held.</p>
<script id="fights" type="application/json">{data}</script>
<script>{VIEWER_JS}</script>
</body></html>
"""
