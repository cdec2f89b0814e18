"""What the page draws, as JSON: the board's geometry, the fighters, holds, the decision and
its menu, the log; all of it read off the engine (the render module's geometry, status
lines and letters, the notation's words, the play menus' groups, AP and odds), so the
page's script only draws and sends clicks back."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexdojo.envs import render as rd
from hexdojo.envs.rules import hexgrid as hx
from hexdojo.envs.rules.notation import LETTERS, points, sheet_lines

from ..menus import Menu, menu
from ..play import result_line, situation
from .position import scenario_of
from .session import HUMAN, Session

if TYPE_CHECKING:
    from hexdojo.envs.rules import Game, State


def board(game: Game) -> dict[str, Any]:
    """The arena's hexes (axial q, r and their centres in pixels) and the picture's size:
    ``envs.render``'s geometry, the one the RGB frames and the lab's viewer use."""
    rad = game.radius
    cells = []
    for q in range(-rad, rad + 1):
        for r in range(-rad, rad + 1):
            if hx.in_arena((q, r), rad):
                x, y = rd._centre(q, r, rad)
                cells.append([q, r, round(x, 1), round(y, 1)])
    return {"radius": rad, "hex": rd.HEX, "cells": cells,
            "width": int(rd.HEX * rd._SQ3 * (2 * rad + 1)) + 2 * rd.MARGIN,
            "height": int(rd.HEX * (3 * rad + 2)) + 2 * rd.MARGIN,
            "directions": list(hx.DIRECTION_NAMES)}


def sheet(state: State, i: int) -> list[str]:
    """A fighter's sheet in lines (hover): style, characteristics, skills, specialisms,
    armour, weapons; the rules' half points written as the rulebook writes them."""
    lines = sheet_lines(state.fighters[i].p)
    weapons = rd.weapon_words(state, i)
    if weapons:
        lines.append(f"weapons: {weapons}")
    return [line for line in lines if line]


def fighters(state: State, controllers: list[str]) -> list[dict[str, Any]]:
    rad = state.game.radius
    by_hex: dict[hx.Hex, list[int]] = {}
    for f in state.fighters:
        by_hex.setdefault(f.pos, []).append(f.idx)
    d = state.decision
    out = []
    for f in state.fighters:
        same = by_hex[f.pos]
        cx, cy = rd._centre(f.pos[0], f.pos[1], rad)
        dq, dr = hx.DIRECTIONS[f.facing]
        vx, vy = rd._SQ3 * (dq + dr / 2), 1.5 * dr
        norm = (vx * vx + vy * vy) ** 0.5
        out.append({
            "idx": f.idx, "letter": LETTERS[f.idx], "name": f.name,
            "q": f.pos[0], "r": f.pos[1], "facing": f.facing, "facing_name": hx.DIRECTION_NAMES[f.facing],
            "x": round(cx + (same.index(f.idx) - (len(same) - 1) / 2) * rd.HEX * 0.75, 1),
            "y": round(cy, 1), "fx": round(vx / norm, 3), "fy": round(vy / norm, 3),
            "small": len(same) > 1,
            "slot": 0 if len(same) == 1 else (-1 if same.index(f.idx) == 0 else 1),
            "colour": "rgb({},{},{})".format(*rd.COLOURS[f.idx % len(rd.COLOURS)]),
            "ap": f.ap, "worst": state.t.wound_levels[f.worst] if f.wounds else "",
            "wounds": [[loc, state.t.wound_levels[lv]] for loc, lv in f.wounds],
            "status": f.status, "prone": bool(f.prone), "mounted": bool(f.mounted),
            "height": int(f.height), "out": f.out or "", "weapons": rd.weapon_words(state, f.idx),
            "hands": list(f.hands),
            "line": rd.status_line(state, f.idx), "sheet": sheet(state, f.idx),
            "side": state.game.side_name(state.game.sides[f.idx]),
            "deciding": d is not None and d.fighter == f.idx,
            "player": controllers[f.idx]})
    return out


def menu_json(m: Menu) -> dict[str, Any]:
    """A menu's rows: the label, AP and odds note, how many choices it opens, and the
    choice itself when it is one."""
    return {"title": m.title, "level": m.level, "dice": m.dice, "entries": [
        {"label": e.label, "note": e.note, "number": e.number, "count": len(e.choices),
         "choice": list(e.choices[0]) if len(e.choices) == 1 else None} for e in m.entries]}


def decision(s: Session) -> dict[str, Any] | None:
    state = s.state
    d = state.decision
    if d is None:
        return None
    f = state.fighters[d.fighter]
    return {"fighter": d.fighter, "letter": LETTERS[d.fighter], "name": f.name, "kind": d.kind,
            "about": d.about, "ap": f.ap, "human": s.controllers[d.fighter] == HUMAN,
            "situation": situation(state, d.fighter, state.context()) if len(state.fighters) == 2
            else _group_situation(state, state.context())}


def _group_situation(state: State, ctx: dict[str, Any]) -> list[str]:
    """``play.situation`` speaks to a duel's "them"; in a group the attacker and target
    are named instead."""
    att, x = ctx.get("attack"), ctx.get("attacker")
    if not att or x is None:
        return []
    line = f"{state.fighters[x].name}: {att}" + (f" at the {ctx['location']}" if ctx.get("location") else "")
    if ctx.get("reaction"):
        line += f"; reaction: {ctx['reaction']}"
    basics = ctx.get("basics") or {}
    rolls = ", ".join(f"{state.fighters[k].name} on {points(v)}" for k, v in basics.items())
    return [line] + ([f"rolls: {rolls} (basic values)"] if rolls else [])


SEALED = "{}: dice chosen (sealed until the roll)"


def _sealed(s: Session) -> set[int]:
    """The NPCs' dice choices whose roll has not come yet, while a person decides: a
    person never sees the other side's dice before choosing theirs (as in ``play``)."""
    d = s.state.decision
    if d is None or s.controllers[d.fighter] != HUMAN:
        return set()
    out: set[int] = set()
    for k in range(len(s.steps) - 1, -1, -1):
        st = s.steps[k]
        if st.events[1] > st.events[0]:
            break  # a roll (or anything) happened since: what came before is open
        if st.kind == "risk" and not st.human:
            out.add(k)
    return out


def view(s: Session) -> dict[str, Any]:
    """Everything the page draws for the session's current position."""
    state = s.state
    log = state.render_log(0)
    sealed = _sealed(s)
    steps = [{"k": k, "text": SEALED.format(st.text.split(": ", 1)[0]) if k in sealed else st.text,
              "human": st.human, "events": log[st.events[0]:st.events[1]]}
             for k, st in enumerate(s.steps)]
    first = s.steps[0].events[0] if s.steps else len(log)
    return {"board": board(s.game), "fighters": fighters(state, s.controllers),
            "holds": [{"holder": h.holder, "held": h.held, "kind": h.kind, "location": h.location}
                      for h in state.holds],
            "header": rd.header_line(state), "decision": decision(s),
            "over": state.is_over, "result": result_line(state) if state.is_over else "",
            "at": s.at, "length": len(s.line), "start_log": log[:first], "steps": steps,
            "menu": menu_json(menu(state, state.legal_choices())) if state.decision is not None
            and s.controllers[state.decision.fighter] == HUMAN else None,
            "controllers": s.controllers, "scenario": scenario_of(state),
            "game": {"fighters": s.spec.fighters, "seed": s.spec.seed, "scene": _scene_name(s.spec.scene),
                     "rules": s.spec.rules_name}}


def _scene_name(scene: Any) -> str | None:
    """A scene's name (a lab report's fight carries its scene as a table)."""
    return scene.get("name") if isinstance(scene, dict) else scene
