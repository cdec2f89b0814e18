"""Pictures of a duel: an ANSI text board and an RGB numpy image.

Both are pure functions of an engine ``State`` so that the Gymnasium and the PettingZoo
environments, ``hexdojo play``, ``demo`` and ``replay``, ``advise`` and the lab's replay
viewer draw the same thing (the one board renderer). The RGB renderer uses numpy only: the
board (which pixel belongs to which hex, the grid lines) is computed once per arena radius
and cached; each frame only paints the fighters over a copy of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from hexdojo.envs.rules import hexgrid as hx
from hexdojo.envs.rules.notation import LETTERS

from .observation import AP_MAX

if TYPE_CHECKING:
    from hexdojo.envs.rules import State

#: Board letters of fighters 0, 1, ... (lower case while prone) are the notation's
#: ``LETTERS`` (``-> B`` in a choice's words is the fighter drawn as B).
__all__ = ["ARROWS", "COLOURS", "LETTERS", "board_text", "header_line", "render_ansi",
           "render_frame", "render_rgb", "render_text", "status_line"]
#: Facing arrows for directions 0..5 (E, NE, NW, W, SW, SE).
ARROWS = ("→", "↗", "↖", "←", "↙", "↘")
#: RGB colours of fighters 0, 1, ...
COLOURS = ((40, 90, 220), (215, 50, 40), (40, 160, 60), (160, 60, 180))


# ===================================================================== text
def status_line(state: State, i: int) -> str:
    """One line about fighter ``i``: position, facing, AP, wounds, weapons (in hand,
    sheathed, stuck in him; only when he has any), holds, conditions."""
    f = state.fighters[i]
    t = state.t
    parts = [
        f"{LETTERS[i]} {f.name:<8}",
        f"at {f.pos[0]:+d},{f.pos[1]:+d}",
        f"facing {hx.DIRECTION_NAMES[f.facing]:<2}",
        f"AP {f.ap:>2}",
    ]
    if f.wounds:
        ws = ", ".join(f"{t.wound_levels[lvl]} {loc}" for loc, lvl in f.wounds)
        parts.append(f"wounds: {ws} (worst {t.wound_levels[f.worst]})")
    else:
        parts.append("unhurt")
    weapons = weapon_words(state, i)
    if weapons:
        parts.append(weapons)
    for h in state.holds:
        if h.holder == i:
            where = f" on {h.location}" if h.location else ""
            parts.append(f"holds {LETTERS[h.held]} ({h.kind}{where})")
    flags = [w for w, on in (("PRONE", f.prone), ("mounted", f.mounted),
                             (f.status, bool(f.status)), (f.out or "", f.out is not None),
                             ("phased", f.phased)) if on]
    if flags:
        parts.append(" ".join(flags))
    return "  ".join(parts)


def weapon_words(state: State, i: int) -> str:
    """Fighter ``i``'s weapons in words: ``sword R, shield L, sheathed dagger, stuck spear
    (Chest)`` ("" for a fighter with none; a two-handed weapon is written once, ``both``)."""
    f = state.fighters[i]
    names = state.t.weapons
    right, left = f.hands
    if right is not None and right == left and names[right].hands == 2:
        held = [f"{names[right].name} both"]
    else:
        held = [f"{names[w].name} {side}" for w, side in ((right, "R"), (left, "L")) if w]
    held += [f"sheathed {names[w].name}" for w in f.sheathed]
    held += [f"stuck {names[w].name} ({loc})" for w, loc in f.stuck]
    return ", ".join(held)


def header_line(state: State) -> str:
    """Turn, initiative order and who must decide what."""
    order = " > ".join(LETTERS[i] for i in state.order) or "-"
    if state.is_over:
        r = state.result or {}
        w = r.get("winner")
        if w is None:
            who = "draw"
        elif state.game.side_names:  # a scene's sides: the winner is a side (issue 18)
            who = f"side {state.game.side_name(w)} wins"
        else:
            who = f"{LETTERS[w]} {state.fighters[w].name} wins"
        return f"turn {state.turn}  initiative {order}  OVER: {who} ({r.get('reason')})"
    d = state.decision
    asked = "" if d is None else f"{LETTERS[d.fighter]} to decide: {d.kind}"
    if d is not None and d.about:
        asked += f" ({d.about})"
    return f"turn {state.turn}  initiative {order}  {asked}"


def board_text(state: State) -> list[str]:
    """The hex board, one text row per hex row; a fighter shows as letter + facing arrow."""
    rad = state.game.radius
    cells: dict[hx.Hex, str] = {}
    held = {h.held for h in state.holds}
    for f in state.fighters:
        letter = LETTERS[f.idx].lower() if f.prone else LETTERS[f.idx]
        mark = "*" if f.idx in held else ""
        if f.pos in cells:  # same hex: letters only (the status lines give facings)
            cells[f.pos] = (cells[f.pos][0] + letter + mark)[:3]
        else:
            cells[f.pos] = letter + ARROWS[f.facing] + mark
    rows = []
    for r in range(-rad, rad + 1):
        line = " " * (2 * abs(r))
        for q in range(max(-rad, -rad - r), min(rad, rad - r) + 1):
            line += f"{cells.get((q, r), '.'):<4}"
        rows.append(line.rstrip())
    return rows


def render_ansi(state: State, events_from: int = 0, max_events: int = 10) -> str:
    """The text picture: header, board, one status line per fighter, the last events."""
    lines = [header_line(state), *board_text(state)]
    lines += [status_line(state, f.idx) for f in state.fighters]
    log = state.render_log(max(events_from, len(state.events) - max_events))
    if log:
        lines.append("events:")
        lines += [f"  {e}" for e in log]
    return "\n".join(lines) + "\n"


def render_text(state: State) -> str:
    """Header, board and status lines without the event log: what the terminal commands
    (play, demo, replay) show, since they print the events as they happen."""
    return render_ansi(state, max_events=0).rstrip("\n")


# ===================================================================== image
HEX = 22  # hex circumradius in pixels
MARGIN = 10
STATUS_H = 34  # per fighter: AP bar and wound bar
_SQ3 = 3 ** 0.5


def _centre(q: int, r: int, rad: int) -> tuple[float, float]:
    x = HEX * _SQ3 * (q + r / 2) + HEX * _SQ3 * (rad + 0.5) + MARGIN
    y = HEX * 1.5 * r + HEX * (1.5 * rad + 1) + MARGIN
    return x, y


_BOARDS: dict[tuple[int, int], np.ndarray] = {}


def _board(rad: int, n: int) -> np.ndarray:
    """The empty board image for an arena of radius ``rad`` with ``n`` status rows."""
    key = (rad, n)
    if key in _BOARDS:
        return _BOARDS[key]
    w = int(HEX * _SQ3 * (2 * rad + 1)) + 2 * MARGIN
    bh = int(HEX * (3 * rad + 2)) + 2 * MARGIN
    h = bh + n * STATUS_H
    ys, xs = np.mgrid[0:bh, 0:w].astype(np.float64)
    x0, y0 = _centre(0, 0, rad)
    px, py = (xs - x0) / HEX, (ys - y0) / HEX
    fq = (_SQ3 / 3) * px - py / 3
    fr = (2 / 3) * py
    fs = -fq - fr
    rq, rr, rs = np.round(fq), np.round(fr), np.round(fs)
    dq, dr, ds = np.abs(rq - fq), np.abs(rr - fr), np.abs(rs - fs)
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    rq = np.where(fix_q, -rr - rs, rq)
    rr = np.where(fix_r, -rq - rs, rr)
    inside = (np.abs(rq) + np.abs(rr) + np.abs(rq + rr)) / 2 <= rad
    hid = np.where(inside, (rq + 64) * 256 + (rr + 64), -1)
    edge = np.zeros_like(inside)
    edge[:, :-1] |= hid[:, :-1] != hid[:, 1:]
    edge[:-1, :] |= hid[:-1, :] != hid[1:, :]
    img = np.full((h, w, 3), 255, np.uint8)
    img[:bh][inside] = (232, 226, 210)
    near = inside | np.roll(inside, -1, 1) | np.roll(inside, -1, 0)  # an edge next to the arena
    img[:bh][edge & near] = (120, 110, 100)
    _BOARDS[key] = img
    return img


def _disc(img: np.ndarray, cx: float, cy: float, rad: float, colour: tuple[int, ...],
          inner: float = 0.0) -> None:
    """Paint a disc (or a ring when ``inner`` > 0) centred at (cx, cy)."""
    x0, x1 = max(int(cx - rad) - 1, 0), min(int(cx + rad) + 2, img.shape[1])
    y0, y1 = max(int(cy - rad) - 1, 0), min(int(cy + rad) + 2, img.shape[0])
    ys, xs = np.mgrid[y0:y1, x0:x1]
    d2 = (xs - cx) ** 2 + (ys - cy) ** 2
    sel = (d2 <= rad * rad) & (d2 >= inner * inner)
    img[y0:y1, x0:x1][sel] = colour


def _line(img: np.ndarray, a: tuple[float, float], b: tuple[float, float],
          colour: tuple[int, ...], width: float = 2.0) -> None:
    n = int(max(abs(b[0] - a[0]), abs(b[1] - a[1]))) + 1
    for k in range(n + 1):
        t = k / n
        _disc(img, a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, width, colour)


def _bar(img: np.ndarray, x: int, y: int, length: int, frac: float,
         colour: tuple[int, ...]) -> None:
    img[y:y + 8, x:x + length] = (210, 210, 210)
    img[y:y + 8, x:x + int(round(length * min(max(frac, 0.0), 1.0)))] = colour


def render_frame(state: State | None, mode: str | None, events_from: int = 0
                 ) -> str | np.ndarray | None:
    """What an environment's ``render()`` returns in ``mode``: "ansi" the text board,
    "rgb_array" an image; "human" prints the text board and returns None (Gymnasium's and
    PettingZoo's convention), so every env's ``render()`` is this one call."""
    if state is None or mode is None:
        return None
    if mode == "human":
        text = render_ansi(state, events_from)
        print(text)
        return None
    if mode == "ansi":
        return render_ansi(state, events_from)
    return render_rgb(state)


def render_rgb(state: State, ap_max: int = AP_MAX) -> np.ndarray:
    """The board as an (H, W, 3) uint8 image.

    Fighters are discs in their colour (a ring while prone), with a dark dot on the side
    they face; a hold is a yellow line from holder to held plus a yellow ring round the
    held fighter. Under the board, per fighter: a colour tab, an AP bar (green) and a
    worst-wound bar (red); a grey tab when stunned or staggered, black when out.
    """
    rad = state.game.radius
    n = len(state.fighters)
    img = _board(rad, n).copy()
    centres: dict[int, tuple[float, float]] = {}
    by_hex: dict[hx.Hex, list[int]] = {}
    for f in state.fighters:
        by_hex.setdefault(f.pos, []).append(f.idx)
    for pos, idxs in by_hex.items():
        cx, cy = _centre(pos[0], pos[1], rad)
        for k, i in enumerate(idxs):
            off = (k - (len(idxs) - 1) / 2) * HEX * 0.75
            centres[i] = (cx + off, cy)
    size = HEX * (0.55 if all(len(v) == 1 for v in by_hex.values()) else 0.4)
    for h in state.holds:
        _line(img, centres[h.holder], centres[h.held], (240, 200, 20))
        hx_, hy = centres[h.held]
        _disc(img, hx_, hy, size + 4, (240, 200, 20), inner=size + 1)
    for f in state.fighters:
        cx, cy = centres[f.idx]
        colour = COLOURS[f.idx % len(COLOURS)]
        _disc(img, cx, cy, size, colour, inner=size * 0.55 if f.prone else 0.0)
        dq, dr = hx.DIRECTIONS[f.facing]
        vx, vy = _SQ3 * (dq + dr / 2), 1.5 * dr
        norm = (vx * vx + vy * vy) ** 0.5
        _disc(img, cx + vx / norm * size * 0.7, cy + vy / norm * size * 0.7, size * 0.28,
              (20, 20, 20))
    top = img.shape[0] - n * STATUS_H
    fatal = max(state.t.fatal, 1)
    for f in state.fighters:
        y = top + f.idx * STATUS_H + 6
        tab = COLOURS[f.idx % len(COLOURS)]
        if f.out is not None:
            tab = (0, 0, 0)
        img[y:y + 20, MARGIN:MARGIN + 12] = tab
        if f.status:
            img[y:y + 20, MARGIN + 14:MARGIN + 20] = (120, 120, 120)
        length = img.shape[1] - 2 * MARGIN - 30
        _bar(img, MARGIN + 26, y, length, f.ap / ap_max, (60, 170, 70))
        _bar(img, MARGIN + 26, y + 11, length, f.worst / fatal, (200, 40, 40))
    return img
