"""What crosses the env boundary: strict action and option checks, numeric ``info`` codes.

Every environment (``DuelEnv``, ``SkirmishEnv``, ``duel_v0``/``duel_v1``, ``skirmish_v0``)
uses these so that they refuse the same bad inputs with the same one-line messages and
report results and rejections as numbers only: replay buffers (Tianshou's ``Batch``,
RLlib's episodes) stack ``info`` leaves into arrays, and a string or ``None`` there turns
into NaNs or object arrays. The readable text stays on the env (``last_reason``) and in
the tables below.

``info`` codes (docs/integrations.md repeats the table):

| key | values |
|---|---|
| ``result["winner"]`` | the winning fighter (duel) or side (skirmish); ``DRAW`` (-1) for a draw |
| ``result["reason"]`` | index into ``RESULT_REASONS`` (last standing, turn limit, illegal limit, double KO) |
| ``result["turn"]`` | the turn the fight ended in |
| ``illegal`` | the rejected action id (its name: ``env.action_names[id]``) |
| ``illegal_reason`` | index into ``ILLEGAL_REASONS``; the engine's full sentence is ``env.last_reason`` |
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

#: Rejections in a row that truncate an episode by default: a policy that ignores the mask
#: (SB3's plain ``evaluate_policy``, a deterministic argmax) would otherwise repeat one
#: rejected action forever. A masked agent never gets near it.
DEFAULT_ILLEGAL_LIMIT = 100

#: ``info["result"]["winner"]`` of a draw.
DRAW = -1

#: ``info["result"]["reason"]`` codes: the engine's result reasons, then the env's own.
RESULT_REASONS: tuple[str, ...] = ("last standing", "turn limit", "illegal limit",
                                   "double knock-out")  # §1.6: a counter tie, both down

#: ``info["illegal_reason"]`` codes (coarse classes of the engine's ``why_illegal``).
ILLEGAL_REASONS: tuple[str, ...] = (
    "the fight is over",
    "another kind of decision is asked now",
    "risk dice out of range",
    "not possible now (env.last_reason says why)",
)


def result_info(result: Mapping[str, Any] | None) -> dict[str, int]:
    """The engine's ``State.result`` as numbers (module table)."""
    res = dict(result or {})
    winner = res.get("winner")
    reason = str(res.get("reason", "illegal limit"))
    return {"winner": DRAW if winner is None else int(winner),
            "reason": RESULT_REASONS.index(reason) if reason in RESULT_REASONS else len(RESULT_REASONS),
            "turn": int(res.get("turn", 0))}


def illegal_code(state: Any, choice: Any) -> int:
    """The ``ILLEGAL_REASONS`` class of an illegal ``choice`` in ``state``."""
    if state.decision is None:
        return 0
    if choice.kind not in {c.kind for c in state.legal_choices()}:
        return 1
    return 2 if choice.kind == "risk" else 3


def check_action(action: Any, n: int) -> int:
    """``action`` as an id of ``Discrete(n)``, or a ``TypeError``/``ValueError`` naming it.

    Python and numpy integers and 0-d integer arrays pass; floats (even ``3.0``), strings,
    ``None``, booleans and arrays with a shape are refused: ``int()`` would silently turn
    ``0.5`` into 0 or ``"3"`` into 3.
    """
    kind = type(action)
    if (kind is int or kind is np.int64) and 0 <= action < n:  # the common cases, no messages
        return int(action)
    space = f"Discrete({n}) (an integer 0..{n - 1})"
    a = action
    if isinstance(a, np.ndarray):
        if a.shape != ():
            raise ValueError(f"action {action!r}: expected one integer of {space}, got an array "
                             f"of shape {a.shape}")
        a = a[()]
    if isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)):
        raise TypeError(f"action {action!r}: expected an integer of {space}, got "
                        f"{type(action).__name__}")
    if not 0 <= int(a) < n:
        raise ValueError(f"action {action!r} is outside the catalogue {space}")
    return int(a)


def check_options(options: Mapping[str, Any] | None, allowed: Iterable[str]) -> dict[str, Any]:
    """``reset(options=...)`` as a dict, refusing keys the env does not know (with the allowed)."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise TypeError(f"options {options!r}: expected a dict or None")
    allowed = sorted(allowed)
    unknown = sorted(str(k) for k in options if k not in allowed)
    if unknown:
        raise ValueError(f"reset options {unknown}: unknown; allowed keys: {allowed or 'none'}")
    return dict(options)


def check_flag(name: str, value: Any) -> bool:
    """A true/false option: a bool (numpy's too), not 1, 'no' or None."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} {value!r}: allowed True or False")
    return bool(value)


def check_number(name: str, value: Any, lo: float = -1e6, hi: float = 1e6) -> float:
    """A finite number option (no nan, no inf, no text, no bool)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer,
                                                                     np.floating)):
        raise ValueError(f"{name} {value!r}: allowed a number {lo:g}..{hi:g}")
    x = float(value)
    if not (math.isfinite(x) and lo <= x <= hi):
        raise ValueError(f"{name} {value!r}: allowed a finite number {lo:g}..{hi:g}")
    return x


def check_illegal_limit(limit: int | None) -> int | None:
    """``illegal_limit``: a positive integer, or None for no limit."""
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, (int, np.integer))
                              or limit < 1):
        raise ValueError(f"illegal_limit {limit!r}: allowed a positive integer or None (no limit)")
    return limit
