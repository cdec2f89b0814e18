"""A position as the scenario ``hexdojo advise`` reads: taken from a fight's board, written
as TOML, read back.

The table's editor works on this one description (``envs/rules/scenario.py``'s form):
the page changes a field, the server builds the fight from it (checked by the scenario's
pydantic models and the engine), so a position the page shows is always one ``advise``
can be given, and an impossible one is refused with the scenario's own one-line reason.
"""

from __future__ import annotations

import json
import re
import sys
from typing import TYPE_CHECKING, Any

from hexdojo.envs.rules import RulesError
from hexdojo.envs.rules.input_models import GameTable, check_model

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

if TYPE_CHECKING:
    from hexdojo.envs.rules import State


def scenario_of(state: State) -> dict[str, Any]:
    """The board of ``state`` as a scenario: the turn, every fighter's fields, the holds
    and whose phase is open (the decision in progress restarts at that phase's action)."""
    t = state.t
    fighters = []
    for f in state.fighters:
        fd: dict[str, Any] = {
            "pos": [int(f.pos[0]), int(f.pos[1])], "facing": int(f.facing), "ap": int(f.ap),
            "initiative": f.init / 2, "prone": bool(f.prone), "status": f.status or "",
            "wounds": [[loc, t.wound_levels[lv]] for loc, lv in f.wounds]}
        if f.mounted or f.p.mounted:
            fd["mounted"], fd["height"] = bool(f.mounted), int(f.height)
        if tuple(f.hands) != tuple(f.p.hands):
            fd["hands"] = list(f.hands)
        if tuple(f.sheathed) != tuple(f.p.sheathed):
            fd["sheathed"] = list(f.sheathed)
        if f.stuck:
            fd["stuck"] = [list(s) for s in f.stuck]
        fighters.append(fd)
    sc: dict[str, Any] = {"turn": max(int(state.turn), 1), "fighters": fighters,
                          "holds": [_hold(h) for h in state.holds]}
    if state.dropped:
        sc["dropped"] = [{"pos": list(h), "weapon": w} for h, w in state.dropped]
    if state.phasing is not None:
        sc["phase"] = int(state.phasing)
    return sc


def _hold(h: Any) -> dict[str, Any]:
    out = {"holder": int(h.holder), "held": int(h.held), "kind": h.kind, "turn": int(h.turn)}
    if h.location:
        out["location"] = h.location
    return out


# --------------------------------------------------------------------------- TOML
_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(k: str) -> str:
    return k if _BARE.match(k) else json.dumps(k)


def _value(v: Any) -> str:
    """A TOML value (a JSON string is a TOML basic string; tables inline)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"no TOML for {v!r}")


def toml_text(game: dict[str, Any], sc: dict[str, Any]) -> str:
    """The scenario file ``hexdojo advise`` reads: the scenario's fields, then ``[game]``.
    TOML has no null: an empty hand beside a full one cannot be written, so such a
    ``hands`` is left out (the fighter starts with his sheet's) and said in a comment."""
    lines = ["# a position set up at `hexdojo table`; `hexdojo advise THIS_FILE` reads it"]
    for k, v in sc.items():
        if k == "fighters":
            continue
        lines.append(f"{k} = {_value(v)}")
    rows = []
    for i, fd in enumerate(sc.get("fighters", [])):
        fd = dict(fd)
        if None in (fd.get("hands") or ()):
            lines.append(f"# fighters[{i}].hands {fd.pop('hands')!r}: an empty hand has no TOML form")
        rows.append("  " + _value(fd))
    lines.append("fighters = [\n" + ",\n".join(rows) + ",\n]" if rows else "fighters = []")
    lines.append("")
    lines.append("[game]")
    lines += [f"{_key(k)} = {_value(v)}" for k, v in game.items() if v is not None]
    return "\n".join(lines) + "\n"


def read_position(text: str, label: str = "scenario") -> tuple[dict[str, Any], dict[str, Any]]:
    """A scenario file's text: its ``[game]`` table (checked as ``advise`` checks it,
    ``GameTable``) and the scenario's fields (checked when the fight is built)."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{label}: not valid TOML ({exc})") from None
    game = raw.pop("game", {})
    check_model(GameTable, game, f"{label}: [game]")
    return game, raw
